//! Display names taken from the SSH user name: whatever a client sent, made safe to draw.
//! Account names are [`crate::store::PlayerName`], a strict type; a `DisplayName` is only ever
//! shown (e.g. the name of a guest, or the name offered on the welcome screen).

use std::fmt;

/// The longest displayed name, in characters.
pub const MAX_NAME_CHARS: usize = 16;

/// The name shown for players whose SSH user name is unusable.
pub const GUEST_NAME: &str = "guest";

/// A displayed player name: 1 to 16 printable characters, no control characters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DisplayName(String);

impl DisplayName {
    /// Strips control and non-printable characters and surrounding whitespace from `raw`; the
    /// result is a name when 1 to 16 characters remain.
    pub fn parse(raw: &str) -> Option<DisplayName> {
        let cleaned: String = raw.chars().filter(|c| is_printable(*c)).collect();
        let trimmed = cleaned.trim();
        let len = trimmed.chars().count();
        if (1..=MAX_NAME_CHARS).contains(&len) {
            Some(DisplayName(trimmed.to_owned()))
        } else {
            None
        }
    }

    /// Like [`DisplayName::parse`], falling back to "guest".
    pub fn parse_or_guest(raw: &str) -> DisplayName {
        DisplayName::parse(raw).unwrap_or_else(|| DisplayName(GUEST_NAME.to_owned()))
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

/// Printable in a terminal cell: not a control character (C0, DEL, C1), not a format or
/// bidirectional control, not a private-use or unassigned-looking code point we cannot draw.
fn is_printable(c: char) -> bool {
    if c.is_control() {
        return false;
    }
    let cp = u32::from(c);
    let invisible = matches!(cp,
        0x00AD                    // soft hyphen
        | 0x200B..=0x200F         // zero-width spaces, LRM, RLM
        | 0x202A..=0x202E         // bidi embeddings and overrides
        | 0x2060..=0x206F         // word joiner, invisible operators, bidi isolates
        | 0xFE00..=0xFE0F         // variation selectors
        | 0xFEFF                  // byte-order mark
        | 0xFFF0..=0xFFFF         // specials
        | 0xE000..=0xF8FF         // private use
        | 0xF0000..=0x10FFFF      // supplementary private use
    );
    !invisible
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_validated() {
        let cases: &[(&str, Option<&str>)] = &[
            ("alice", Some("alice")),
            ("  bob  ", Some("bob")),
            ("\x1b[31mred", Some("[31mred")),
            ("a\u{202E}b", Some("ab")),
            ("", None),
            ("\x07\x08", None),
            ("   ", None),
            ("0123456789abcdef", Some("0123456789abcdef")),
            ("0123456789abcdefg", None),
            ("ünïcødé", Some("ünïcødé")),
        ];
        for (raw, want) in cases {
            assert_eq!(
                DisplayName::parse(raw).as_ref().map(DisplayName::as_str),
                *want,
                "{raw:?}"
            );
        }
        assert_eq!(DisplayName::parse_or_guest("\n").as_str(), "guest");
    }
}
