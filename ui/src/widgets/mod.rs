//! Widgets of the game screen, each a view over borrowed state (`impl Widget for &View`).

pub mod board;
pub mod charts;
pub mod garbage_meter;
pub mod mini_board;
pub mod piece_box;
pub mod stats;
