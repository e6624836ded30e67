//! Calls into the UI that the UI crate does not offer yet. Each shim says what it waits for;
//! when the UI adds the method, the shim forwards to it.

use minotty_ui::App;

/// Tells the App whether the terminal reports key releases (kitty keyboard protocol).
/// Waits for `App::set_release_events`.
pub fn set_release_events(app: &mut App, on: bool) {
    let _ = (app, on);
}

/// Whether the player is in a game (idle limits apply only outside games).
/// Waits for an `App` query; until then every screen counts as a menu.
pub fn in_game(app: &App) -> bool {
    let _ = app;
    false
}
