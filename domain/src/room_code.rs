//! Room codes: six characters that are easy to read aloud and to type. With 31 characters
//! there are 31^6 (about 8.9e8) codes: with wrong codes throttled (the server's `versus/limits.rs`),
//! guessing one in use is hopeless.

use std::fmt;

/// Upper-case letters and digits without the look-alikes 0/O, 1/I/L (31 characters).
pub const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/// Characters in a code.
pub const LEN: usize = 6;

/// A code as the help texts show one.
pub const EXAMPLE: &str = "K7PQ3M";

/// The code a player typed, in canonical form: surrounding space trimmed, case ignored.
/// `None` when it cannot be a code.
pub fn normalize(typed: &str) -> Option<String> {
    let code = typed.trim().to_ascii_uppercase();
    (code.len() == LEN && code.bytes().all(|b| ALPHABET.contains(&b))).then_some(code)
}

/// A room's code, valid by construction: [`LEN`] characters of [`ALPHABET`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RoomCode(String);

impl RoomCode {
    /// The code a player typed, in canonical form ([`normalize`]); `None` when it cannot be a
    /// code.
    pub fn parse(typed: &str) -> Option<RoomCode> {
        normalize(typed).map(RoomCode)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

impl fmt::Display for RoomCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_look_alikes() {
        for c in [b'0', b'O', b'1', b'I', b'L'] {
            assert!(!ALPHABET.contains(&c), "{}", char::from(c));
        }
        assert_eq!(ALPHABET.len(), 31);
    }

    #[test]
    fn typed_codes_are_normalised() {
        assert_eq!(normalize(" k7pq3m ").as_deref(), Some("K7PQ3M"));
        assert_eq!(normalize(EXAMPLE).as_deref(), Some(EXAMPLE));
        assert_eq!(normalize("K7PQ"), None);
        assert_eq!(normalize("K7PQ3MX"), None);
        assert_eq!(normalize("K0PQ3M"), None);
        assert_eq!(normalize("ké7q3m"), None);
        assert_eq!(
            RoomCode::parse(" k7pq3m ").map(RoomCode::into_string),
            Some("K7PQ3M".to_owned())
        );
        assert_eq!(RoomCode::parse("K0PQ3M"), None);
    }
}
