//! One-key retry: the retry key (a binding, default R, rebound in Settings -> Controls) starts
//! a fresh game of the same setup at once (no countdown, no menus), from play, the final
//! board, the pause menu and the results, in the modes played again and again for a time or
//! a score (40 lines, ultra, cheese, combo, survival). Other modes retry with it only from the
//! results, and from the pause menu after asking (see `leave.rs`).
//!
//! A key is bound to retry or to one game button, never both (see `keymap/retry.rs`): binding
//! the retry key to a button takes it from retry.

use minotty_engine::ModeKind;

use crate::keymap::{Keymap, key_name};
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::text::{StackStr, sfmt};

/// The name of the retry action in the controls list and in what a binding took.
pub const LABEL: &str = "Retry";

/// Whether `ev` is a press of the retry key (no Ctrl or Alt).
pub fn is_retry(ev: KeyEvent, keys: &Keymap) -> bool {
    ev.kind == KeyKind::Press && !ev.mods.ctrl && !ev.mods.alt && keys.is_retry_key(ev.key)
}

/// The hint for the retry key, e.g. `"R retry"` or `"F5 retry"` (`None`: no key retries).
pub fn hint(keys: &Keymap, verb: &str) -> Option<StackStr<24>> {
    let key = keys.retry_key()?;
    Some(sfmt!(24; "{} {verb}", key_name(key).as_str()))
}

/// Whether the retry key retries a game of `kind` at once while it is played or paused.
pub fn at_once(kind: ModeKind) -> bool {
    minotty_domain::modes::rules(kind).flags.retry_at_once
}

/// Whether `key` may retry (see `keymap::may_retry`).
pub fn bindable(key: Key) -> bool {
    crate::keymap::may_retry(key)
}

/// Why `key` was not made the retry key: "Enter works the menus: Retry keeps R.".
pub fn refused_notice(key: Key, keys: &Keymap) -> StackStr<96> {
    let key = key_name(key);
    match keys.retry_key() {
        Some(old) => {
            sfmt!(96; "{} works the menus: {LABEL} keeps {}.", key.as_str(), key_name(old).as_str())
        }
        None => sfmt!(96; "{} works the menus: choose another key for {LABEL}.", key.as_str()),
    }
}

/// What binding `key` to a button took from retry: "R was Retry's key: no key retries now!".
pub fn taken_notice(key: Key) -> StackStr<96> {
    sfmt!(96; "{} was {LABEL}'s key: no key retries now!", key_name(key).as_str())
}

/// What binding `key` to retry replaced: "Retry has one key: F5 replaced R.".
pub fn replaced_notice(key: Key, old: Key) -> StackStr<96> {
    let (key, old) = (key_name(key), key_name(old));
    sfmt!(96; "{LABEL} has one key: {} replaced {}.", key.as_str(), old.as_str())
}
