//! Names drawn to other players, and the one allowlist of characters they may hold.
//!
//! Every name another player sees goes through [`is_allowed_name_char`] (defined once, in
//! [`crate::text`], for the server and the screens alike): account names
//! ([`crate::PlayerName`], which further narrows it to ASCII), SSH user names
//! ([`DisplayName`]) and anything else a player typed. It is an allowlist by Unicode general
//! category, not a list of known-bad characters: letters, numbers, punctuation, symbols, the
//! ASCII space, and combining marks that follow something they can combine with. Everything
//! else is refused: controls and format characters (bidi overrides and isolates, zero-width
//! spaces and joiners, the soft hyphen, tag characters), private use, unassigned code points,
//! line and paragraph separators, other spaces, and the invisible "fillers" and variation
//! selectors that Unicode files as letters, symbols or marks.
//!
//! Account names are the strict [`crate::PlayerName`]; a `DisplayName` is only ever shown (the
//! name of a guest, or the name offered to a new key on the welcome screen).

use std::fmt;

use crate::text::{is_allowed_name_char, is_mark, sanitize_display};

/// The longest displayed name, in characters.
pub const MAX_NAME_CHARS: usize = 16;

/// The name shown for players whose SSH user name is unusable.
pub const GUEST_NAME: &str = "guest";

/// What marks a guest's name wherever other players see it. No account name can contain it
/// (they are `A-Z a-z 0-9 - _`), so a guest never shows with a registered player's name; it
/// comes first so that a column too narrow for the whole name still shows it.
pub const GUEST_MARK: char = '~';

/// Whether every character of `s` is allowed where it stands, and `s` neither starts nor ends
/// with a space (a check for names that must be typed exactly, unlike [`sanitize_display`]).
pub fn is_allowed_name(s: &str) -> bool {
    let mut marks = 0;
    for (i, c) in s.chars().enumerate() {
        if !is_allowed_name_char(c, i == 0, marks) {
            return false;
        }
        marks = if is_mark(c) { marks + 1 } else { 0 };
    }
    !s.starts_with(' ') && !s.ends_with(' ')
}

/// A displayed player name: 1 to 16 characters of the name allowlist.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DisplayName(String);

impl DisplayName {
    /// Keeps what [`sanitize_display`] allows of `raw`; the result is a name when 1 to 16
    /// characters remain. Never panics, whatever `raw` holds.
    pub fn parse(raw: &str) -> Option<DisplayName> {
        // A name longer than the limit is refused rather than cut: look one character past it.
        let cleaned = sanitize_display(raw, MAX_NAME_CHARS + 1);
        let len = cleaned.chars().count();
        if (1..=MAX_NAME_CHARS).contains(&len) {
            Some(DisplayName(cleaned))
        } else {
            None
        }
    }

    /// Like [`DisplayName::parse`], falling back to "guest".
    pub fn parse_or_guest(raw: &str) -> DisplayName {
        DisplayName::parse(raw).unwrap_or_else(|| DisplayName(GUEST_NAME.to_owned()))
    }

    /// The name as other players see it while its player has no account: `~ada`.
    pub fn for_guest(&self) -> String {
        format!("{GUEST_MARK}{}", self.0)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for DisplayName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests;
