//! What the App asks of a server and what it is told back: accounts, leaderboards, replays and
//! versus. The App does no IO: it queues [`Request`]s, which the front end drains with
//! [`crate::App::take_requests`] and carries out, and the front end hands the answers back with
//! [`crate::App::deliver`]. `minotty play` has no server: it answers the requests its save
//! file can ([`Identity::Local`]) and every other one with [`Response::Offline`].
//!
//! Everything here is plain data. Strings a player typed (names, codes) arrive as typed; the
//! server validates them and the UI strips control characters before drawing anything.

mod live;
mod records;
mod rooms;
pub use live::{LiveEntry, LiveFrame, LiveKind, LiveMatchFrame, LiveStats};
pub use records::{
    BEST_POINTS, BestHistory, BestPoint, GamePps, ModeBest, PPS_GAMES, Profile, ProfileBest,
    ProfileCharts, RecentGame, RecentMatch,
};
pub use rooms::{
    MatchResult, MatchStart, OpenRoomEntry, OpponentView, ResultRow, RoomState, RoomView, SeatView,
};

use minotty_engine::versus::{MatchKind, Targeting};
use minotty_engine::{ModeKind, Replay, RulesetId, Snapshot};

use crate::settings::Settings;

/// Who the player is, as the front end knows at connection time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Identity {
    /// No server at all (`minotty play`): online features say they are offline.
    #[default]
    Offline,
    /// Connected without a key: plays everything but the leaderboards, nothing is stored.
    Guest,
    /// A key the server has not seen: the welcome screen asks for a player name (or links the
    /// key to an existing account with its password). `suggested` is the SSH user name.
    NewKey { suggested: String },
    /// A registered player.
    Registered { name: String, has_password: bool },
    /// A key whose account could not be looked up at login (the server's database did not
    /// answer): the player waits for it ([`Request::RetryAccount`]) or plays as a guest for
    /// now; nothing is stored under this identity. `suggested` is the SSH user name (the
    /// welcome screen's, should the key turn out to be new).
    Unreachable { suggested: String },
    /// `minotty play` with a save file: no server, but the front end keeps the player's
    /// settings, a scoreboard of finished games and their replays, and answers the requests
    /// for them (leaderboard pages of the player's own games, the profile, replays). Accounts
    /// and versus still need a server.
    Local { name: String },
}

impl Identity {
    /// Whether finished games and settings are kept (by a server or a local save file).
    pub fn keeps_records(&self) -> bool {
        matches!(self, Identity::Registered { .. } | Identity::Local { .. })
    }

    /// Whether there is no server to talk to (accounts and versus say so).
    pub fn without_server(&self) -> bool {
        matches!(self, Identity::Offline | Identity::Local { .. })
    }
}

/// A leaderboard: one per solo mode, and the ranked 1v1 rating board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardId {
    Solo(ModeKind),
    Versus,
}

/// Which games a leaderboard counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BoardPeriod {
    #[default]
    AllTime,
    Month,
    Today,
}

/// Rows per leaderboard page the UI asks for.
pub const PAGE_ROWS: u32 = 15;

/// What the App asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
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
    CreateRoom(RoomOptions),
    /// Join a room by its code (as typed; the server normalises case and checks it).
    JoinRoom {
        code: String,
        spectate: bool,
    },
    LeaveRoom,
    SetReady(bool),
    /// The host starts the match.
    StartMatch,
    /// Another match in the same room with the same players.
    Rematch,
    SetTargeting(Targeting),
    /// The host seats a server bot of `level` (1-7) in an empty seat.
    AddBot {
        level: u8,
    },
    /// The host seats the server's Tetris Bot Protocol bot called `name` (one of
    /// [`RoomView::tbp_bots`]) in an empty seat.
    AddTbpBot {
        name: String,
    },
    /// The host takes the bot in `seat` out of the room.
    RemoveBot {
        seat: usize,
    },
    /// The host lists the room among the open rooms (anyone may join it from there) or makes
    /// it private again (join by code only). Never for a ranked room.
    SetListed(bool),
    /// The rooms their hosts listed, answered with [`Response::OpenRooms`] (the Open rooms
    /// screen asks again every 2 s while it shows).
    OpenRooms,
    /// Play the bot the quick-match queue offered (unranked), leaving the queue.
    AcceptBotMatch,
    /// Keep waiting for a person.
    DeclineBotMatch,
    /// What happened in the player's own game since the last report (versus only).
    Report(Vec<Report>),

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

/// A room's settings, chosen by its host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RoomOptions {
    pub kind: MatchKind,
    /// 2 to 8.
    pub max_players: u8,
    pub limit: RoomLimit,
}

/// An optional limit on a battle (a race is always 40 lines).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RoomLimit {
    #[default]
    None,
    /// The first to clear this many lines wins.
    Lines(u32),
    /// After this many seconds the player who sent the most attack wins.
    Seconds(u32),
}

/// One thing that happened in the player's own versus game, reported to the room.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Report {
    /// Lines of attack left after cancelling against the player's own incoming garbage.
    Attack { lines: u8 },
    /// The board changed (after a lock, a clear or rising garbage).
    Board(BoardSnapshot),
    /// The player's running numbers.
    Progress(Progress),
    /// The player's game ended: topped out, or (race) reached the goal. (Sessions before
    /// `Forfeited` existed also sent this for a forfeit.)
    Finished { won: bool, progress: Progress },
    /// The player gave up from the in-game prompt: a loss shown as "left", not a top-out.
    /// Sent instead of `Finished`, followed by the `Replay`.
    Forfeited { progress: Progress },
    /// The player's whole game, for the match record: sent once when the game ends (after
    /// `Finished`, or on `MatchOver` when the player was still playing).
    Replay(Box<Replay>),
}

/// An opponent's running numbers (also used in results).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Progress {
    pub lines: u32,
    pub pieces: u32,
    pub attack_sent: u32,
    pub garbage_received: u32,
    /// Game time in ms.
    pub time_ms: u64,
    /// Lines of garbage waiting to rise.
    pub pending_garbage: u32,
    /// The held piece (engine `Piece` order + 1, as in [`BoardSnapshot`]; 0: none). Older
    /// instances do not send it.
    #[cfg_attr(feature = "serde", serde(default))]
    pub hold: u8,
    /// The next pieces, soonest first (the same coding; 0: none).
    #[cfg_attr(feature = "serde", serde(default))]
    pub next: [u8; NEXT_SHOWN],
}

/// The next pieces a player's [`Progress`] tells (what spectators see of the queue).
pub const NEXT_SHOWN: usize = 5;

/// The 20 visible rows of a board, top first; each cell 0 (empty), 1-7 (I, O, T, S, Z, J, L
/// in the engine's `Piece` order) or 8 (garbage). The falling piece is included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardSnapshot {
    pub rows: Vec<[u8; 10]>,
}

/// The serde form of a [`BoardSnapshot`] (servers relay boards between instances): one digit
/// per cell, rows top first, 200 characters for a board instead of a list of lists. Reading
/// accepts at most [`BoardSnapshot::MAX_ROWS`] whole rows of digits 0-8, nothing else.
#[cfg(feature = "serde")]
mod board_serde {
    use super::BoardSnapshot;

    impl serde::Serialize for BoardSnapshot {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let text: String = self
                .rows
                .iter()
                .flatten()
                .map(|&c| char::from(b'0' + c.min(8)))
                .collect();
            s.serialize_str(&text)
        }
    }

    impl<'de> serde::Deserialize<'de> for BoardSnapshot {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            use serde::de::Error;
            let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
            let bytes = text.as_bytes();
            if bytes.len() % 10 != 0 || bytes.len() > 10 * BoardSnapshot::MAX_ROWS {
                return Err(D::Error::custom(
                    "a board is whole rows of 10 cells, at most 40",
                ));
            }
            if !bytes.iter().all(|b| (b'0'..=b'8').contains(b)) {
                return Err(D::Error::custom("a board cell is a digit 0-8"));
            }
            let rows = bytes
                .chunks_exact(10)
                .map(|row| {
                    let mut cells = [0u8; 10];
                    for (c, b) in cells.iter_mut().zip(row) {
                        *c = b - b'0';
                    }
                    cells
                })
                .collect();
            Ok(BoardSnapshot { rows })
        }
    }
}

impl BoardSnapshot {
    /// The most rows a board has (the engine's whole board, hidden rows included).
    pub const MAX_ROWS: usize = 40;
}

/// What the App is told.
#[derive(Clone, Debug, PartialEq)]
pub enum Response {
    /// There is no server (`minotty play`).
    Offline,
    /// The terminal doctor's findings (answers [`Request::RunDoctor`]).
    Doctor(Box<crate::doctor::DoctorReport>),
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
    Queued {
        rating: i32,
        range: i32,
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

/// One stored snapshot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnapshotEntry {
    pub id: i64,
    /// As stored (the UI still strips control characters before drawing it).
    pub label: String,
    /// The mode it was taken in.
    pub mode: ModeKind,
    /// Unix ms.
    pub created_at: i64,
    pub snapshot: Box<Snapshot>,
}

/// One key of the account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyView {
    /// `SHA256:...`
    pub fingerprint: String,
    /// `ssh-ed25519`, `ssh-rsa`, ...; empty when not known (keys stored before it was kept).
    pub algorithm: String,
    /// Unix ms.
    pub added_at: i64,
    pub last_used_at: Option<i64>,
    /// The key of this connection (cannot be removed).
    pub in_use: bool,
}

/// A page of a leaderboard, formatted by the server (the same text as the `leaderboard` command).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaderboardPage {
    pub board: BoardId,
    /// The ruleset of the board shown (`standard` for boards without others).
    pub ruleset: RulesetId,
    pub period: BoardPeriod,
    pub offset: u32,
    /// Entries on the whole board.
    pub total: u64,
    /// Column titles after rank and name, e.g. `["Time", "PPS"]`.
    pub columns: Vec<String>,
    pub rows: Vec<BoardRow>,
    /// The player's own entry, also when it is not on this page.
    pub own: Option<BoardRow>,
}

/// One line of a leaderboard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardRow {
    pub rank: u64,
    pub name: String,
    /// One value per column of the page.
    pub values: Vec<String>,
    /// Unix ms when it was achieved.
    pub achieved_at: i64,
    /// The game to watch (solo boards).
    pub game: Option<i64>,
}

/// What storing a solo game earned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecorded {
    pub game: i64,
    /// A new all-time personal best in the mode.
    pub personal_best: bool,
    /// Its all-time global rank, when it is the player's best.
    pub rank: Option<u64>,
    /// Why it is not on the leaderboard, when it is not (e.g. "custom games are not ranked").
    pub note: Option<String>,
    /// The player's all-time best on the game's board before this game, and this game's
    /// difference to it, formatted (`figures`): ("0:42.908", "-1.234"). `None` without one.
    pub previous_best: Option<(String, String)>,
}
