//! # minotty-protocol
//!
//! What a session's App asks of the services and what it is told back: accounts, leaderboards,
//! replays, snapshots, rooms and matches, the Live screen. The App does no IO: it queues
//! [`Request`]s, which the front end drains (`App::take_requests` in minotty-ui) and carries
//! out, and the front end hands the answers back (`App::deliver`). `minotty play` has no
//! server: it answers the requests its save file can ([`Identity::Local`]) and every other one
//! with [`Response::Offline`].
//!
//! Grouped by concern: `accounts` (who the player is, their keys), `records` (leaderboards,
//! the profile, bests, snapshots), `rooms` (rooms and matches as the App is told them),
//! `reports` (what a versus game tells its room) and `live` (what is being played now); every
//! type is exported at the crate root.
//!
//! Two things a request or response carries belong to the App and are not looked into here:
//! the player's settings and the terminal doctor's report. They are the type parameters
//! `Settings` and `Doctor`; minotty-ui names the App's instances (`minotty_ui::Request`,
//! `minotty_ui::Response`).
//!
//! Everything here is plain data. Strings a player typed (names, codes) arrive as typed; the
//! server validates them and the UI strips control characters before drawing anything.
//!
//! Architecture Invariant: this crate imports only minotty-engine (and serde, behind its
//! `serde` feature); no ratatui, no IO.
//! Architecture Invariant: the serde forms (the room and match messages, [`Report`]) are the
//! cluster's wire form between instances of different versions: `tests/wire_golden.rs` pins
//! their bytes, and a field added later carries `#[serde(default)]`.

mod accounts;
mod live;
mod match_replay;
mod records;
mod reports;
mod rooms;
pub use accounts::{Identity, KeyView};
pub use live::{LiveEntry, LiveFrame, LiveKind, LiveMatchFrame, LiveStats};
pub use match_replay::{MAX_MATCH_SEATS, MatchRef, MatchReplay, MatchSeat, SeatFilm};
/// A room's settings: the engine's one validated type (its serde form is the wire's).
pub use minotty_engine::versus::{GarbageDraft, GarbageSettings, RoomLimit, RoomSettings};
pub use records::{
    BEST_POINTS, BestHistory, BestPoint, BoardId, BoardPeriod, BoardRow, GamePps, GameRecorded,
    GhostWanted, LeaderboardPage, ModeBest, PAGE_ROWS, PPS_GAMES, Profile, ProfileBest,
    ProfileCharts, RecentGame, RecentMatch, SnapshotEntry,
};
pub use reports::{
    BoardSnapshot, EventDigest, NEXT_SHOWN, Progress, Report, end_reports, progress_of, snapshot,
};
pub use rooms::{
    ClimbRun, ClimbView, MatchResult, MatchStart, OpenRoomEntry, OpponentView, ResultRow,
    RoomCommand, RoomState, RoomView, SeatView, SeriesScore,
};

use minotty_engine::{Replay, RulesetId, Snapshot};

/// What the App asks for. `Settings` are the App's settings (stored as they are).
#[derive(Clone, Debug, PartialEq)]
pub enum Request<Settings> {
    // ---- accounts -------------------------------------------------------------------------
    /// Register the key in use under this name.
    Register {
        name: String,
    },
    /// Add the key in use to an existing account.
    LinkKey {
        name: String,
        password: String,
    },
    /// Set (or change) the account's password. `current` is the password set now, asked for
    /// when the account has one (the server refuses a change without it).
    SetPassword {
        password: String,
        current: Option<String>,
    },
    /// Store the settings (sent when the player leaves the settings screen after a change).
    SaveSettings(Box<Settings>),
    /// The keys of the account.
    ListKeys,
    /// Remove one of the account's keys (never the one in use: the server refuses).
    RemoveKey {
        fingerprint: String,
    },
    /// Unlink every browser linked to the account (`ssh HOST web`'s codes): answered with
    /// [`Response::BrowsersUnlinked`].
    UnlinkBrowsers,

    // ---- leaderboards, profile, replays ---------------------------------------------------
    Leaderboard {
        board: BoardId,
        /// The ruleset of a solo board (40 lines, marathon and ultra have one per ruleset;
        /// every other board is `standard`, whatever is asked).
        ruleset: RulesetId,
        period: BoardPeriod,
        /// Rows to skip (a multiple of [`PAGE_ROWS`]).
        offset: u32,
    },
    /// The player's bests per mode and recent games.
    Profile,
    /// The replay of a stored game, to watch.
    Replay {
        game: i64,
    },
    /// The replay of a game to race as a ghost (40 lines, ultra): answered with
    /// [`Response::Ghost`] or [`Response::GhostFailed`].
    Ghost(GhostWanted),
    /// Every seat's game of a stored versus match, to watch side by side: answered with
    /// [`Response::MatchReplay`] or [`Response::Error`].
    MatchReplay {
        of: MatchRef,
    },

    // ---- snapshots ------------------------------------------------------------------------
    /// Store a snapshot of the solo game in play (Ctrl+S). `label` is the App's description
    /// ("Marathon 1:02 14 lines"); the store sanitises and shortens it. Answered with
    /// [`Response::SnapshotSaved`] or [`Response::SnapshotFailed`].
    SaveSnapshot {
        label: String,
        snapshot: Box<Snapshot>,
    },
    /// The stored snapshots, newest first: answered with [`Response::Snapshots`].
    ListSnapshots,
    /// Delete one stored snapshot: answered with the list left ([`Response::Snapshots`]).
    DeleteSnapshot {
        id: i64,
    },

    // ---- puzzle progress ------------------------------------------------------------------
    /// The highest puzzle stage the player has cleared (asked once, when the mode select first
    /// opens). Answered with [`Response::PuzzleProgress`]; a front end without a store for it
    /// answers [`Response::Offline`] and the App keeps what it saw this session.
    PuzzleProgress,
    /// The player's all-time best on every board they have one on, for the mode select (asked
    /// each time it opens). Answered with [`Response::Bests`].
    Bests,
    /// The player has now cleared every puzzle stage up to `stage` (sent when that grows;
    /// `stage` is at most [`minotty_engine::puzzle::STAGE_COUNT`]). Answered with
    /// [`Response::PuzzleProgress`] when stored.
    PuzzleCleared {
        stage: u8,
    },

    // ---- versus ---------------------------------------------------------------------------
    /// Join the ranked 1v1 queue.
    QuickMatch,
    /// Leave the queue.
    CancelQuickMatch,
    CreateRoom(RoomSettings),
    /// Join a room by its code (as typed; the server normalises case and checks it).
    JoinRoom {
        code: String,
        spectate: bool,
    },
    LeaveRoom,
    /// A command to the player's room (ready, start, rematch, targeting, bots, the listing,
    /// the game's reports): the room task handles it as it is, and the cluster carries it to a
    /// room on another instance.
    Room(RoomCommand),
    /// The rooms their hosts listed, answered with [`Response::OpenRooms`] (the Open rooms
    /// screen asks again every 2 s while it shows).
    OpenRooms,
    /// Play the bot the quick-match queue offered (unranked), leaving the queue.
    AcceptBotMatch,
    /// Keep waiting for a person.
    DeclineBotMatch,
    /// Join this instance's climb (a drop-in battle without rounds): answered with a
    /// `MatchStart` for the player's first run and [`Response::Climb`].
    JoinClimb,

    // ---- live -----------------------------------------------------------------------------
    /// What is being played now (answered with [`Response::Live`]; the Live screen asks again
    /// every few seconds while it shows).
    LiveList,
    /// Watch the solo game listed as `id` (answered with [`Response::LiveFrame`]s until the
    /// game ends, [`Response::LiveEnded`], or the next watch or [`Request::StopWatching`]).
    WatchLive {
        id: u64,
    },
    /// Watch the versus match listed as `id` from a spectator's seat in its room (the Live list
    /// never tells a room's code: codes are what lets players into a room). Answered as a
    /// spectator's join by code is, with a view that does not show the code either.
    SpectateLive {
        id: u64,
    },
    /// Stop watching.
    StopWatching,
    // ---- the terminal doctor ---------------------------------------------------------------
    /// Ask the player's terminal what it can do (the session task does, through the PTY);
    /// answered by [`Response::Doctor`] (or `Offline` where no one can ask).
    RunDoctor,

    // ---- a login whose account could not be reached ----------------------------------------
    /// Look up the key's account again (while [`Identity::Unreachable`]): answered with
    /// [`Response::SignedIn`], [`Response::AccountNew`] or [`Response::AccountUnreachable`].
    RetryAccount,
}

/// What the App is told. `Settings` are the App's settings (as stored), `Doctor` the terminal
/// doctor's report.
#[derive(Clone, Debug, PartialEq)]
pub enum Response<Settings, Doctor> {
    /// There is no server (`minotty play`).
    Offline,
    /// The terminal doctor's findings (answers [`Request::RunDoctor`]).
    Doctor(Box<Doctor>),
    /// A request failed for a reason the player can read (e.g. "the database is busy").
    Error {
        message: String,
    },

    // ---- accounts -------------------------------------------------------------------------
    /// The key in use now belongs to `name` (after `Register` or `LinkKey`), with the stored
    /// settings of that account when there are any.
    SignedIn {
        name: String,
        has_password: bool,
        settings: Option<Box<Settings>>,
    },
    /// `Register` failed (name taken, invalid): shown on the welcome screen.
    RegisterFailed {
        message: String,
    },
    /// `LinkKey` failed (wrong password, unknown name, too many attempts).
    LinkFailed {
        message: String,
    },
    PasswordSet,
    PasswordFailed {
        message: String,
    },
    Keys(Vec<KeyView>),
    KeyRemoved {
        fingerprint: String,
    },
    /// [`Request::UnlinkBrowsers`]: how many browsers were unlinked.
    BrowsersUnlinked {
        count: u64,
    },
    KeyFailed {
        message: String,
    },
    /// [`Request::RetryAccount`]: the account still cannot be reached.
    AccountUnreachable,
    /// [`Request::RetryAccount`]: the database answered and no account has the key: it is a
    /// new key (the welcome screen).
    AccountNew,

    // ---- leaderboards, profile, replays ---------------------------------------------------
    Leaderboard(LeaderboardPage),
    Profile(Profile),
    Replay {
        game: i64,
        player: String,
        replay: Box<Replay>,
    },
    /// A ghost to race ([`Request::Ghost`]): `player`'s stored game `game`.
    Ghost {
        game: i64,
        player: String,
        replay: Box<Replay>,
    },
    /// [`Request::Ghost`] found nothing to race ("you have no 40 lines best yet").
    GhostFailed {
        message: String,
    },
    /// [`Request::MatchReplay`]: the match, asked for as `of`.
    MatchReplay {
        of: MatchRef,
        replay: Box<MatchReplay>,
    },
    /// The finished game was stored (solo). What the results screen says about it.
    GameRecorded(GameRecorded),
    /// The player's all-time bests, one per board they are on.
    Bests(Vec<ModeBest>),
    /// The highest puzzle stage the player has cleared (0: none); `completed` once every stage
    /// was cleared.
    PuzzleProgress {
        cleared: u8,
        completed: bool,
    },

    // ---- snapshots ------------------------------------------------------------------------
    /// The stored snapshots, newest first.
    Snapshots(Vec<SnapshotEntry>),
    /// `SaveSnapshot` stored it under `label` (as stored: sanitised and shortened).
    SnapshotSaved {
        label: String,
    },
    /// `SaveSnapshot` was refused, e.g. "too many snapshots at once: wait a moment".
    SnapshotFailed {
        message: String,
    },

    // ---- versus ---------------------------------------------------------------------------
    /// In the quick-match queue, looking for opponents within `range` of `rating`.
    /// `same_address`: the player has waited a while, and everyone else waiting connects from
    /// their address, which ranked never pairs (so they know why nobody comes).
    Queued {
        rating: i32,
        range: i32,
        same_address: bool,
    },
    /// Nobody to play yet: the queue offers an unranked match against a bot of `level`.
    BotOffer {
        level: u8,
    },
    /// The room as it is now (sent on every change while in a room's lobby or results).
    Room(RoomView),
    /// The listed rooms in their lobbies with a free seat (see [`OpenRoomEntry`]).
    OpenRooms(Vec<OpenRoomEntry>),
    /// Joining or creating a room failed ("no room K7PQ", "the room is full").
    RoomFailed {
        message: String,
    },
    /// The player left the room or the room closed.
    RoomClosed {
        message: String,
    },
    /// A match starts: the App starts its own engine with this mode and seed after a
    /// countdown of `countdown_ms`. `you` is the player's seat (`None`: spectating).
    MatchStart(MatchStart),
    /// Garbage sent to the player: queue it in the engine.
    Garbage {
        lines: u8,
        from: usize,
    },
    /// Opponents' boards and numbers (seat order; the player's own seat is skipped).
    Opponents(Vec<OpponentView>),
    /// The match is decided.
    MatchOver(MatchResult),
    /// The player's climb as it is now: their run's height and floor, or the run that just
    /// ended (sent when it changes, at most every 200 ms).
    Climb(ClimbView),
    /// Something to tell the player once, e.g. the result of a match they dropped out of.
    Notice {
        message: String,
    },

    // ---- live -----------------------------------------------------------------------------
    /// What is being played now, most interesting first (see [`LiveEntry`]).
    Live(Vec<LiveEntry>),
    /// The solo game being watched, as it is now.
    LiveFrame(Box<LiveFrame>),
    /// The versus match being watched on the TV, as it is now.
    LiveMatchFrame(Box<LiveMatchFrame>),
    /// The game being watched ended (or its player left): no more frames come.
    LiveEnded {
        id: u64,
    },
    /// The player of the game being watched dropped: their game is parked, paused, until they
    /// reconnect (it is listed again then, under a new id). No more frames come.
    LiveParked {
        id: u64,
    },
    /// `WatchLive` was refused (the game ended, too many watchers, too many requests).
    LiveFailed {
        message: String,
    },
}
