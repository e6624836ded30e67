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
}

impl Button {
    pub const ALL: [Button; 9] = [
        Button::Left,
        Button::Right,
        Button::RotateCw,
        Button::RotateCcw,
        Button::Rotate180,
        Button::SoftDrop,
        Button::HardDrop,
        Button::SonicDrop,
        Button::Hold,
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
}
