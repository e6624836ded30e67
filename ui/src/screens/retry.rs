//! One-key retry: R starts a fresh game of the same setup at once (no countdown, no menus),
//! from play, the final board, the pause menu and the results, in the modes played again and
//! again for a time or a score (40 lines, ultra, cheese, combo). Other modes retry with R only
//! from the results, and from the pause menu after asking (see `leave.rs`).
//!
//! R is the key while no game button is bound to it (like P for pause and B for the bot);
//! binding R to a button gives it to the button.

use minotty_engine::ModeKind;

use crate::keymap::Keymap;
use crate::keys::{Key, KeyEvent, KeyKind};

/// The retry key.
pub const RETRY_KEY: char = 'r';

/// Whether `ev` is a press of the retry key (no Ctrl or Alt) and no game button has the key.
pub fn is_retry(ev: KeyEvent, keys: &Keymap) -> bool {
    let r = matches!(ev.key, Key::Char(c) if c.eq_ignore_ascii_case(&RETRY_KEY));
    r && ev.kind == KeyKind::Press && !ev.mods.ctrl && !ev.mods.alt && keys.lookup(ev.key).is_none()
}

/// Whether R retries a game of `kind` at once while it is played or paused.
pub fn at_once(kind: ModeKind) -> bool {
    matches!(
        kind,
        ModeKind::Sprint | ModeKind::Ultra | ModeKind::Cheese | ModeKind::Combo
    )
}
