//! What a player (or a room) feeds into a game.

/// The buttons of the game. A front end maps keys to these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Button {
    Left,
    Right,
    RotateCw,
    RotateCcw,
    Rotate180,
    SoftDrop,
    HardDrop,
    SonicDrop,
    Hold,
    /// Moves the piece as far left as it goes at once (tetro-tui's "teleport left"); with
    /// sonic drop, under the rulesets that have teleports ([`crate::Ruleset::sonic_drop`]).
    TeleportLeft,
    /// The same to the right.
    TeleportRight,
}

impl Button {
    pub const ALL: [Button; 11] = [
        Button::Left,
        Button::Right,
        Button::RotateCw,
        Button::RotateCcw,
        Button::Rotate180,
        Button::SoftDrop,
        Button::HardDrop,
        Button::SonicDrop,
        Button::Hold,
        Button::TeleportLeft,
        Button::TeleportRight,
    ];

    /// A short human name.
    pub fn name(self) -> &'static str {
        match self {
            Button::Left => "Move left",
            Button::Right => "Move right",
            Button::RotateCw => "Rotate clockwise",
            Button::RotateCcw => "Rotate counter-clockwise",
            Button::Rotate180 => "Rotate 180",
            Button::SoftDrop => "Soft drop",
            Button::HardDrop => "Hard drop",
            Button::SonicDrop => "Sonic drop",
            Button::Hold => "Hold",
            Button::TeleportLeft => "Teleport left",
            Button::TeleportRight => "Teleport right",
        }
    }
}

/// One timestamped input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Input {
    Press(Button),
    Release(Button),
    /// Releases every held button (a front end sends it when it resumes from pause).
    ReleaseAll,
    /// An opponent's attack: lines of garbage to queue (versus).
    Garbage(u8),
    /// The player gives up.
    Forfeit,
    /// The player paused here. Game time stands still during a pause, so the marker changes
    /// nothing in the rules; it is recorded so that a judge can tell a paused game from one
    /// played in one go (a paused timed game does not rank).
    Pause,
    /// A bot took over the game here (the inputs that follow may be the bot's until the player
    /// takes it back). The marker changes nothing in the rules; it is recorded so that a judge
    /// can tell a game a bot played (such a game never ranks).
    Bot,
    /// The player raced a ghost (another recording of the same seed, played back beside the
    /// game): the pieces were known in advance. The marker changes nothing in the rules; it is
    /// recorded so that a judge can tell a ghost race (such a game never ranks).
    Ghost,
    /// The player took the game back to an earlier moment here (undo, or a savepoint loaded
    /// back: [`crate::Game::rewind`]). The inputs that had led past that moment are gone from
    /// the recording, so the replay is still the game as its state went; the marker changes
    /// nothing in the rules and is recorded so that a judge can tell a game whose player saw
    /// its future (such a game never ranks).
    Rewind,
}

/// The most inputs one game records. A game that reaches it ends with
/// [`crate::EndReason::InputLimit`]; later inputs are ignored and never stored, and replays
/// with more inputs are refused.
///
/// No human game comes near it: a fast player makes about 10 inputs a second counting presses
/// and releases (a 40-lines game takes about 1,000 inputs, a 150-lines marathon about 4,000),
/// so 100,000 inputs is close to three hours at that pace and over six at a more common 4 a
/// second. It bounds what one game can cost: 1.6 MB of inputs in memory (16 bytes each), about
/// 200 KB of binary replay (about two bytes each), and a re-simulation of a few tens of
/// milliseconds for a judge.
pub const MAX_INPUTS: usize = 100_000;
