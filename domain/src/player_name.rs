//! Account names: validated once at the edge, trusted after.
//!
//! This is the strict name of an account, unlike [`crate::names::DisplayName`], which cleans up
//! whatever SSH user name a client sent for display.

use std::fmt;

/// The shortest and longest account names, in characters.
pub const MIN_LEN: usize = 3;
pub const MAX_LEN: usize = 16;

/// Names nobody can register, compared without regard to case: `guest` is what players without
/// an account are shown as, so an account of that name would pass for them.
const RESERVED: &[&str] = &["guest"];

/// An account name: 3 to 16 of `A-Z a-z 0-9 - _`, unique among accounts without regard to case.
/// The case the player chose is kept for display.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayerName(String);

/// Why a string is not an account name; the message is meant for the player.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("a name needs at least {MIN_LEN} characters")]
    TooShort,
    #[error("a name has at most {MAX_LEN} characters")]
    TooLong,
    #[error("a name uses only letters, digits, '-' and '_' ({} is not allowed)", shown(*.0))]
    BadCharacter(char),
    #[error("this name is reserved")]
    Reserved,
}

impl PlayerName {
    /// Validates `raw` as typed (no trimming: what the player sees is what they get). The
    /// server's one name allowlist ([`crate::text::is_allowed_name_char`]) is checked first,
    /// then this type's narrower ASCII rule. Never panics, whatever `raw` holds.
    pub fn parse(raw: &str) -> Result<PlayerName, NameError> {
        if let Some((_, c)) = raw
            .chars()
            .enumerate()
            .find(|(i, c)| !crate::text::is_allowed_name_char(*c, *i == 0, 0))
        {
            return Err(NameError::BadCharacter(c));
        }
        if let Some(c) = raw
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_'))
        {
            return Err(NameError::BadCharacter(c));
        }
        // Only ASCII is left, so bytes are characters.
        if raw.len() < MIN_LEN {
            return Err(NameError::TooShort);
        }
        if raw.len() > MAX_LEN {
            return Err(NameError::TooLong);
        }
        if RESERVED.iter().any(|r| r.eq_ignore_ascii_case(raw)) {
            return Err(NameError::Reserved);
        }
        Ok(PlayerName(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The form that uniqueness is checked on: lower case.
    pub fn folded(&self) -> String {
        self.0.to_ascii_lowercase()
    }
}

/// A refused character as the error message shows it: quoted when it can be drawn, as its
/// code point when it cannot (a control or bidi character must not reach anyone's screen).
fn shown(c: char) -> String {
    if crate::text::is_allowed_name_char(c, false, 0) && c != ' ' {
        format!("'{c}'")
    } else {
        format!("U+{:04X}", u32::from(c))
    }
}

impl fmt::Display for PlayerName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_validated() {
        let cases: &[(&str, Result<&str, NameError>)] = &[
            ("alice", Ok("alice")),
            ("Bob_the-2nd", Ok("Bob_the-2nd")),
            ("abc", Ok("abc")),
            ("0123456789abcdef", Ok("0123456789abcdef")),
            ("ab", Err(NameError::TooShort)),
            ("", Err(NameError::TooShort)),
            ("0123456789abcdefg", Err(NameError::TooLong)),
            (" alice", Err(NameError::BadCharacter(' '))),
            ("al.ice", Err(NameError::BadCharacter('.'))),
            ("ünï", Err(NameError::BadCharacter('ü'))),
            ("a\u{1b}[31m", Err(NameError::BadCharacter('\u{1b}'))),
            ("GuEsT", Err(NameError::Reserved)),
            ("al\u{202E}ice", Err(NameError::BadCharacter('\u{202E}'))),
            ("\u{301}alice", Err(NameError::BadCharacter('\u{301}'))),
            ("ali\u{3164}ce", Err(NameError::BadCharacter('\u{3164}'))),
        ];
        for (raw, want) in cases {
            let got = PlayerName::parse(raw);
            assert_eq!(
                got.as_ref().map(PlayerName::as_str),
                want.as_ref().copied(),
                "{raw:?}"
            );
        }
    }

    #[test]
    fn refused_characters_show_as_code_points_when_they_cannot_be_drawn() {
        let shown = |raw: &str| PlayerName::parse(raw).unwrap_err().to_string();
        assert!(
            shown("al.ice").ends_with("('.' is not allowed)"),
            "{}",
            shown("al.ice")
        );
        assert!(shown("a\u{202E}bc").ends_with("(U+202E is not allowed)"));
        assert!(shown("a\u{1b}bc").ends_with("(U+001B is not allowed)"));
        assert!(shown("a bc").ends_with("(U+0020 is not allowed)"));
    }

    #[test]
    fn folding_ignores_case_and_display_keeps_it() {
        let name = PlayerName::parse("MiXeD_Case").unwrap();
        assert_eq!(name.folded(), "mixed_case");
        assert_eq!(name.to_string(), "MiXeD_Case");
    }
}
