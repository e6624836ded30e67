//! The records a player reads outside a game: leaderboards, what storing a game earned, the
//! profile (bests, recent games and matches, charts), personal bests per board (the mode
//! select) and stored snapshots.

use minotty_engine::{ModeKind, RulesetId, Snapshot};

/// A personal best on one board, as its board shows it (`0:41.674`, `12,345`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModeBest {
    pub mode: ModeKind,
    pub ruleset: RulesetId,
    pub best: String,
}

/// A versus match of the profile's recent list, from the player's seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecentMatch {
    pub id: i64,
    /// "battle" or "race".
    pub kind: String,
    pub ended_at: i64,
    /// e.g. "won vs bob", "lost to bob", "2nd of 3"
    pub result: String,
    /// e.g. "+14 rating", "unranked", "left"
    pub outcome: String,
}

/// The personal screen.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    pub name: String,
    /// For each ranked mode: the best (formatted) and its all-time rank, if played; then the
    /// bests under other rulesets, only where the player has one.
    pub bests: Vec<ProfileBest>,
    pub recent: Vec<RecentGame>,
    /// The latest versus matches, newest first (listed with the recent games by date).
    pub matches: Vec<RecentMatch>,
    /// Ranked 1v1 rating, deviation and games played, when the player has played one.
    pub rating: Option<(f64, f64, u32)>,
    /// The ranked standing, formatted by the server (`minotty_ui::boards::ranked_standing`):
    /// the letter rank or the placement, and the season's rank.
    pub ranked: Option<String>,
    /// What the profile's charts show.
    pub charts: ProfileCharts,
}

/// Games of the profile's pieces-per-second chart, at most.
pub const PPS_GAMES: usize = 100;
/// Points of one board's personal-best chart, at most (the latest improvements).
pub const BEST_POINTS: usize = 64;

/// The profile's charts: personal bests over time and pieces per second per game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProfileCharts {
    /// Each board the player has ranked games on, in the order of `Profile::bests`.
    pub bests: Vec<BestHistory>,
    /// The player's latest games (at most [`PPS_GAMES`]), oldest first.
    pub pps: Vec<GamePps>,
}

/// A board's personal best after each ranked game that improved it, oldest first (at most
/// [`BEST_POINTS`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestHistory {
    pub mode: ModeKind,
    pub ruleset: RulesetId,
    pub points: Vec<BestPoint>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BestPoint {
    /// When the game ended (Unix ms).
    pub at: i64,
    /// The mode's own figure: the time in ms for 40 lines, lines for master, pieces for
    /// cheese, the longest combo for combo, the score (gems) otherwise.
    pub value: u64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GamePps {
    pub game: i64,
    pub mode: ModeKind,
    pub pps: f64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileBest {
    pub mode: ModeKind,
    pub ruleset: RulesetId,
    pub best: Option<String>,
    pub rank: Option<u64>,
    pub game: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecentGame {
    pub game: i64,
    pub mode: ModeKind,
    pub ruleset: RulesetId,
    pub ended_at: i64,
    /// e.g. "1:02.345" or "123,456 pts"
    pub result: String,
    /// e.g. "finished", "topped out"
    pub outcome: String,
}

/// A leaderboard: one per solo mode, the ranked 1v1 rating board and the climb's heights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardId {
    Solo(ModeKind),
    Versus,
    Climb,
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

/// Which ghost to race ([`crate::Request::Ghost`]): its recording must be a finished game of
/// 40 lines or ultra (the server refuses others, and the App checks again).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GhostWanted {
    /// The player's own all-time best on the board of `mode` under `ruleset`.
    Best { mode: ModeKind, ruleset: RulesetId },
    /// `name`'s all-time best on that board (as typed: the server parses the name).
    Player {
        name: String,
        mode: ModeKind,
        ruleset: RulesetId,
    },
    /// A stored game: a leaderboard entry (anyone's), or one of the player's own.
    Game(i64),
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
