//! # minotty-ui
//!
//! The screens and widgets of minotty, drawn with ratatui into any backend. Input arrives as
//! abstract [`keys::KeyEvent`]s with the caller's monotonic time in milliseconds; the UI never
//! reads a clock and never does IO, so the same code runs over SSH and in a local terminal.

pub mod keys;

use ratatui::Frame;

pub use keys::{Key, KeyEvent, KeyKind, Mods};

/// Who is playing and with which settings; given by the front end.
#[derive(Clone, Debug, Default)]
pub struct AppContext {
    /// The displayed player name (already validated and stripped of control characters).
    pub player_name: String,
}

/// The whole UI state of one player.
#[derive(Debug)]
pub struct App {
    ctx: AppContext,
    quit: bool,
    dirty: bool,
}

impl App {
    pub fn new(ctx: AppContext) -> App {
        App {
            ctx,
            quit: false,
            dirty: true,
        }
    }

    /// Handles one key event at `now_ms` (the front end's monotonic clock).
    pub fn handle_key(&mut self, event: KeyEvent, now_ms: u64) {
        let _ = now_ms;
        if event.kind != KeyKind::Release && event.key == Key::Char('q') {
            self.quit = true;
        }
        self.dirty = true;
    }

    /// Advances games and animations to `now_ms`.
    pub fn tick(&mut self, now_ms: u64) {
        let _ = now_ms;
    }

    /// When [`App::tick`] must next be called, even without input.
    pub fn next_wakeup(&self) -> Option<u64> {
        None
    }

    /// Whether something changed since the last [`App::render`]; clears the flag.
    pub fn take_dirty(&mut self) -> bool {
        std::mem::take(&mut self.dirty)
    }

    /// Marks the screen as needing a redraw (e.g. after a resize).
    pub fn mark_dirty(&mut self) {
        self.dirty = true;
    }

    /// Whether the player asked to leave.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// The smallest terminal (columns, rows) the game screen needs.
    pub fn min_size() -> (u16, u16) {
        (60, 24)
    }

    /// Draws the current screen.
    pub fn render(&self, frame: &mut Frame<'_>) {
        let text = format!("minotty: hello, {}", self.ctx.player_name);
        frame.render_widget(ratatui::widgets::Paragraph::new(text), frame.area());
    }
}
