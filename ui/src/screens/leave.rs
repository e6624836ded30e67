//! "Leave this game?": asked before a paused solo game that has been played is left for the
//! main menu or restarted, so that no game is thrown away without the player agreeing.
//!
//! What leaving does depends on the mode. Where the game so far is a result (Marathon, Endless,
//! Ultra, Master, Combo, Descent: a score, lines or gems that count at any end), the game ends
//! there and is stored like a forfeit (in the player's games, never ranked). Where only
//! reaching the goal is a result (40 lines, cheese, puzzle stages, custom games), an unfinished
//! game has nothing to store: leaving loses it, and the question says so. A guest's games (and
//! those of a player whose account cannot be reached) are never stored: ending one is said to
//! end it, not to store it.

use minotty_engine::ModeKind;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::question;
use crate::keys::KeyEvent;
use crate::theme::Theme;

/// Where the player goes once they agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaveTo {
    MainMenu,
    /// A fresh game of the same setup.
    Restart,
}

/// Whether a game of `kind` left before its end is stored as ended (true) or lost (false).
pub fn stores(kind: ModeKind) -> bool {
    minotty_domain::modes::rules(kind).flags.left_games_stored
}

/// The answer to the question: `Some(true)` leaves, `Some(false)` goes back to the pause menu,
/// `None` is any other key (ignored).
pub fn answer(ev: KeyEvent) -> Option<bool> {
    question::answer(ev)
}

/// The question's lines, each at most 14 columns; `kept`: the player's games are stored (not
/// a guest's, nor those of an account out of reach).
pub fn lines(stores: bool, kept: bool) -> [&'static str; 3] {
    if stores && kept {
        ["End this game", "here? It is", "stored as is."]
    } else if stores {
        ["End this game", "here? It is", "not stored."]
    } else {
        ["Leave and lose", "this game? It", "is not stored."]
    }
}

/// Draws the question in `area` (the board's cells); `kept` as in [`lines`].
pub fn draw(buf: &mut Buffer, area: Rect, to: LeaveTo, stores: bool, kept: bool, theme: Theme) {
    let title = match to {
        LeaveTo::MainMenu => "MAIN MENU",
        LeaveTo::Restart => "RESTART",
    };
    let text = lines(stores, kept);
    let hint = if stores {
        "y end  n stay"
    } else {
        "y leave n stay"
    };
    let size = (18, text.len() as u16 + 4);
    question::draw(buf, area, size, title, &text, hint, theme);
}
