//! # minotty-ui
//!
//! The screens and widgets of minotty, drawn with ratatui into any backend. Input arrives as
//! abstract [`keys::KeyEvent`]s with the caller's monotonic time in milliseconds; the UI never
//! reads a clock and never does IO, so the same code runs over SSH and in a local terminal.
//!
//! A front end drives an [`App`] like this:
//!
//! ```
//! use minotty_ui::{App, AppContext, Key, KeyEvent};
//! use ratatui::{Terminal, backend::TestBackend};
//!
//! let mut app = App::new(AppContext { player_name: "ada".into(), ..AppContext::default() });
//! app.set_release_events(false); // e.g. no kitty keyboard protocol
//! app.set_size(80, 24, 0); // and on every resize (too small pauses a solo game)
//! let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
//! let mut now = 0;
//! app.handle_key(KeyEvent::press(Key::Enter), now); // Play
//! app.handle_key(KeyEvent::press(Key::Enter), now); // 40 Lines
//! while let Some(wake) = app.next_wakeup() {
//!     if wake > 5_000 { break }
//!     now = now.max(wake);
//!     app.tick(now);
//!     if app.take_dirty() {
//!         terminal.draw(|f| app.render(f)).unwrap();
//!     }
//! }
//! assert!(!app.should_quit());
//! ```
//!
//! Architecture Invariant: nothing in this crate reads a clock, does IO or spawns a thread.
//! Architecture Invariant: drawing never panics, whatever the terminal size, and allocates
//! nothing of its own (text is formatted on the stack).

mod app;
pub mod boards;
mod damage;
pub mod doctor;
mod draw;
pub mod figures;
mod fps;
pub mod keygrid;
pub mod keymap;
pub mod keys;
pub mod profile_charts;
pub mod release;
mod rules;
mod screens;
mod session;
pub mod settings;
pub mod stored_settings;
mod text;
pub mod theme;
mod widgets;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod testutil;

use minotty_engine::{EndReason, ModeKind, Replay, Stats};

pub use app::{App, ParkedGame};
pub use damage::{Damage, Parts};
pub use keymap::Keymap;
pub use keys::{Key, KeyEvent, KeyKind, Mods};
pub use screens::account_replay::ReplayFilm;
pub use screens::match_replay_view::MatchFilm;
pub use session::ghost_refusal;
pub use settings::{BoardSize, ColorMode, Graphics, Palette, Settings};
pub use text::{ordinal_suffix, sanitize};

/// The smallest terminal (columns, rows) the UI draws in.
const MIN_SIZE: (u16, u16) = (60, 24);

/// The largest area any screen lays out, with rooms of up to `players` players: a window
/// larger than this shows nothing more (the server draws at most this much). The widest is a
/// spectator's view of a full room (every board with its panel beside it), the tallest a
/// solo game at the largest scale, in the widest graphics (Electronika's well).
pub fn largest_layout(players: usize) -> (u16, u16) {
    let n = u16::try_from(players).unwrap_or(u16::MAX);
    let solo = settings::Graphics::ALL.map(|graphics| {
        let settings = Settings {
            graphics,
            ..Settings::default()
        };
        screens::game::largest(theme::Theme::new(&settings))
    });
    let watch = (
        n.saturating_mul(screens::versus_watch::BLOCK_W)
            .saturating_sub(1),
        widgets::mini_board::FULL_H + 2,
    );
    solo.into_iter()
        .chain([watch, MIN_SIZE])
        .fold((0, 0), |(w, h), (a, b)| (w.max(a), h.max(b)))
}

/// Who is playing and with which settings; given by the front end.
#[derive(Clone, Debug, Default)]
pub struct AppContext {
    /// The displayed player name (control characters are stripped again by the App).
    pub player_name: String,
    /// The player's settings (defaults for guests).
    pub settings: Settings,
    /// Start a game of this mode at once instead of showing the main menu.
    pub start_mode: Option<ModeKind>,
    /// Entropy for game seeds (the UI reads no clock and no random source of its own).
    pub seed: u64,
    /// Who the player is to the server (offline for `minotty play`).
    pub identity: minotty_protocol::Identity,
    /// A running solo game pauses itself after this many milliseconds without a key (`None`:
    /// never). The SSH server passes its idle timeout.
    pub idle_pause_ms: Option<u64>,
    /// Descent is playable from the start (it unlocks by finishing Puzzle; `minotty play
    /// --descent` unlocks it for the run). Default: locked.
    pub descent_unlocked: bool,
    /// Open the Live screen's TV instead of the main menu (`ssh HOST watch`).
    pub open_tv: bool,
    /// The TV is streamed to a client that sends no keys (`ssh HOST watch` without a
    /// terminal): its hint says how to stop instead of which keys to press.
    pub tv_stream: bool,
    /// Open on the terminal doctor (`ssh -t HOST doctor`); leaving it ends the session.
    pub start_doctor: bool,
    /// Open on the replay of stored versus match `id` (`ssh -t HOST replay mN`); Esc goes to
    /// the main menu.
    pub open_match: Option<i64>,
    /// How `ssh` reaches this server (`-p 2222 192.0.2.7`), when the front end knows: put in
    /// the commands the screens print instead of `HOST`.
    pub server_address: Option<String>,
    /// Where this player opens the web pages (`http://192.0.2.7:8080`, no trailing `/`), when
    /// the server serves them: the screens show a game's, a profile's and a replay's link.
    pub web_address: Option<String>,
}

/// What the App asks of the services: the protocol's requests, with the App's settings.
pub type Request = minotty_protocol::Request<Settings>;
/// What the App is told: the protocol's responses, with the App's settings and the terminal
/// doctor's report.
pub type Response = minotty_protocol::Response<Settings, doctor::DoctorReport>;

/// A game that ended, as the App hands it to the front end once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishedGame {
    pub kind: ModeKind,
    /// Ruleset, mode, seed, handling and inputs: re-simulating it gives the same game.
    pub replay: Replay,
    pub stats: Stats,
    pub reason: EndReason,
    pub won: bool,
}

impl App {
    /// The smallest terminal (columns, rows) the game screen needs.
    pub fn min_size() -> (u16, u16) {
        MIN_SIZE
    }
}
