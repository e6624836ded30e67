//! What a terminal sends for some keys (legacy encoding, no kitty protocol).

pub const ENTER: &[u8] = b"\r";
pub const ESC: &[u8] = b"\x1b";
pub const UP: &[u8] = b"\x1b[A";
pub const DOWN: &[u8] = b"\x1b[B";
pub const RIGHT: &[u8] = b"\x1b[C";
pub const LEFT: &[u8] = b"\x1b[D";
pub const SPACE: &[u8] = b" ";
/// Hard drop in the default key map.
pub const HARD_DROP: &[u8] = SPACE;
/// Asks to quit, in menus and in games.
pub const CTRL_C: &[u8] = b"\x03";
