//! The player's terminal as the server sees it: ratatui draws into an in-memory ANSI backend
//! sized from the PTY request and window changes; what a draw produces is one byte string.
//!
//! - [`RemoteTerminal`] (`remote.rs`): a session's screen, drawn into the thread's scratch
//!   buffer and sent as changes; `app_frame.rs`: a frame of the App, whole or only what time
//!   moved;
//! - `diff.rs`: which cells of a frame are written, and in which order; `shown.rs`: what the
//!   client shows, 16 bytes a cell;
//! - `ansi.rs`: the ratatui backend that writes them as escape sequences (SGR styles), with
//!   `cursor.rs`, the shortest cursor moves;
//! - `sequences.rs`: entering and leaving the screen, the kitty keyboard mode and
//!   synchronized output around a frame;
//! - [`TermEnv`] (`env.rs`): the environment variables a client sends;
//! - `size.rs`: the window size for a reported one, and the largest area drawn in it.

mod ansi;
mod app_frame;
mod cursor;
mod diff;
mod env;
mod remote;
mod sequences;
mod shown;
mod size;

pub use env::TermEnv;
pub use remote::{FrameCost, RemoteTerminal};
pub use sequences::{ENTER, KITTY_PUSH, SYNC_MIN, frame_bytes, leave_sequence};
pub use size::{DEFAULT_SIZE, DRAW_COLS, DRAW_ROWS, MAX_COLS, MAX_ROWS, clamp_size};

#[cfg(test)]
mod damage_tests;
#[cfg(test)]
mod tests;

/// Every frame the encoder writes, fed to a real terminal emulator (`vt100`), must leave the
/// screen showing exactly the buffer drawn: symbols, colours and attributes, across frames
/// that change a few cells or everything, with wide characters and blanks.
#[cfg(test)]
mod emulated;
