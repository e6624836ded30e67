//! The stock rule, below both the game (which spends a life at a top-out, `game/respawn.rs`)
//! and `versus::series` (whose [`crate::versus::series::top_out`] it is), so that neither
//! module imports the other.

/// What a top-out does to a player with `stock` lives in the game and `used` of them spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TopOut {
    /// Back with a fresh board; `left` lives remain after this one.
    Respawn { left: u8 },
    /// Out of the game.
    Out,
}

/// A top-out with a life left is a respawn, otherwise the player is out.
pub(crate) fn top_out_with(stock: u8, used: u8) -> TopOut {
    match stock.checked_sub(used) {
        Some(left) if left > 0 => TopOut::Respawn { left: left - 1 },
        _ => TopOut::Out,
    }
}
