//! Rooms and matches as the App is told them: the room's view, the open rooms list, a match's
//! start, the other players' boards and the results. Also the cluster's wire form (serde).

use minotty_engine::Mode;
use minotty_engine::versus::{GameSettings, MatchKind, RoomSettings, Targeting};

#[cfg(doc)]
use super::Request;
use super::{BoardSnapshot, Progress, Report};

/// What a room's member tells the room: the one command type the room task handles and the
/// cluster carries from a member's instance to the room's (inside `cluster::wire::WireRoom`).
/// Its serde form is the wire's: each variant keeps the name and fields it had there, so an
/// older instance reads it; a later variant is dropped by an older one as malformed.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RoomCommand {
    Ready {
        ready: bool,
    },
    /// The host starts the match.
    Start,
    /// Another match in the same room with the same players.
    Rematch,
    Targeting {
        targeting: Targeting,
    },
    /// What happened in the member's own game since the last report.
    Report {
        reports: Vec<Report>,
    },
    /// The host seats a server bot of `level` (1-7) in an empty seat.
    AddBot {
        level: u8,
    },
    /// The host seats the server's Tetris Bot Protocol bot called `name` in an empty seat.
    AddTbpBot {
        name: String,
    },
    /// The host takes the bot in `seat` out of the room.
    RemoveBot {
        seat: usize,
    },
    /// The host lists the room among the open rooms, or makes it private again.
    SetListed {
        listed: bool,
    },
    /// The host changes the room's settings in the lobby (a peer's are clamped on read like
    /// the host's; the room refuses them from anyone else, or during a match).
    Settings {
        settings: RoomSettings,
    },
    /// Seat `seat` moves to team `team` (a room of teams, in the lobby): a member moves
    /// themselves, the host anyone (bots too). The room clamps the team to its teams.
    Team {
        seat: usize,
        team: u8,
    },
}

/// A room, as its members and spectators see it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RoomView {
    pub code: String,
    /// The room's settings (the field keeps its wire name).
    pub options: RoomSettings,
    pub seats: Vec<SeatView>,
    pub spectators: u32,
    /// The player's seat; `None` when spectating.
    pub you: Option<usize>,
    pub host: bool,
    pub state: RoomState,
    /// Ranked quick-match room (no lobby: it starts by itself).
    pub ranked: bool,
    /// The host listed the room among the open rooms (older instances do not send it).
    #[cfg_attr(feature = "serde", serde(default))]
    pub listed: bool,
    /// The server's Tetris Bot Protocol bots the host can add, by name (empty for everyone
    /// else).
    pub tbp_bots: Vec<String>,
}

/// A room on the list of open rooms: listed by its host, in its lobby, with a free seat.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct OpenRoomEntry {
    /// What [`Request::JoinRoom`] takes (the host chose to show it).
    pub code: String,
    /// The host's name, as others see it.
    pub host: String,
    pub kind: MatchKind,
    pub players: u8,
    pub seats: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RoomState {
    Lobby,
    Playing,
    Results,
}

#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SeatView {
    pub name: String,
    pub ready: bool,
    pub host: bool,
    pub connected: bool,
    pub rating: Option<i32>,
    /// A server bot of this level (1-7; 0 for a Tetris Bot Protocol bot), not a person.
    pub bot: Option<u8>,
    /// The seat's team in a room of teams (`None`: free-for-all; older instances do not
    /// send it).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub team: Option<u8>,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MatchStart {
    pub kind: MatchKind,
    pub mode: Mode,
    pub seed: u32,
    pub players: Vec<String>,
    pub you: Option<usize>,
    pub countdown_ms: u64,
    pub ranked: bool,
    /// Each player's team, in seat order (empty: free-for-all; older instances do not send
    /// it).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub teams: Vec<u8>,
    /// The rules every player's engine runs besides the mode: the ruleset, the tuning (entry
    /// delay), a fixed handling and preview, KO badges (left out at the defaults; an older
    /// instance's start reads as them, a game as it always was).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "GameSettings::is_default")
    )]
    pub game: GameSettings,
}

/// One opponent's (or, for spectators, every player's) live state.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct OpponentView {
    pub seat: usize,
    pub name: String,
    pub board: BoardSnapshot,
    pub progress: Progress,
    pub alive: bool,
    pub place: Option<u8>,
    pub kos: u32,
    /// Whom this player is attacking.
    pub target: Option<usize>,
}

impl OpponentView {
    /// Seat `seat`'s player `name` as a match starts: an empty board, no numbers, alive.
    pub fn at_start(seat: usize, name: String) -> OpponentView {
        OpponentView {
            seat,
            name,
            board: BoardSnapshot {
                rows: vec![[0; 10]; 20],
            },
            progress: Progress::default(),
            alive: true,
            place: None,
            kos: 0,
            target: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MatchResult {
    pub kind: MatchKind,
    /// In placement order (first = winner).
    pub rows: Vec<ResultRow>,
    /// The player's seat (`None`: spectator).
    pub you: Option<usize>,
    pub ranked: bool,
    /// The series' running score after this game (`None`: a match of one game; older
    /// instances do not send it).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub series: Option<SeriesScore>,
    /// Each player's team, in seat order (a row's `seat` indexes it; empty: free-for-all;
    /// older instances do not send it). With teams, a team's players share its place and
    /// the series' `wins` are by team.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub teams: Vec<u8>,
}

/// A series' score after a game: each player's game wins in seat order, what wins it and
/// whether it is over.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SeriesScore {
    /// Game wins, in seat order (a row's `seat` indexes it).
    pub wins: Vec<u8>,
    /// Games played so far.
    pub games: u32,
    pub first_to: u8,
    pub win_by: u8,
    /// The series is over (the next match starts a new one).
    pub over: bool,
    /// The series' winner's seat, once over.
    pub winner: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ResultRow {
    pub seat: usize,
    pub name: String,
    pub place: u8,
    pub kos: u32,
    pub attack_per_minute: f64,
    pub pieces_per_second: f64,
    pub lines: u32,
    pub attack_sent: u32,
    pub garbage_received: u32,
    /// Left or disconnected before the end.
    pub forfeited: bool,
    /// Ranked: (before, after) rating.
    pub rating: Option<(f64, f64)>,
    /// Game time the player's game ran, in ms: in a race, the finish time of those who
    /// reached the goal (older instances do not send it: 0).
    #[cfg_attr(feature = "serde", serde(default))]
    pub time_ms: u64,
    /// Pieces placed (older instances do not send it: 0).
    #[cfg_attr(feature = "serde", serde(default))]
    pub pieces: u32,
}

/// A climber's view of their climb (see `minotty_engine::versus::climb`).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ClimbView {
    /// The current run's height in metres, and its floor (1 to 10).
    pub height: u32,
    pub floor: u8,
    /// Where the next floor starts (`None` on the top floor).
    pub next_at: Option<u32>,
    /// Milliseconds of grace left (nobody's attacks reach the player meanwhile).
    pub grace_ms: u64,
    /// Fatigue sends the run garbage now.
    pub fatigue: bool,
    /// Climbers in this climb, the player too (bots among them).
    pub climbers: u8,
    /// The player's place by height among those climbing now (1 = highest).
    pub place: u8,
    /// The run that just ended (`None` while a run goes on).
    pub ended: Option<ClimbRun>,
}

/// A climb's run that ended.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ClimbRun {
    pub height: u32,
    pub floor: u8,
    pub time_ms: u64,
    /// The run is on the climb's leaderboard (a registered player's, verified).
    pub stored: bool,
}
