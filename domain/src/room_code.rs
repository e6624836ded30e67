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

/// What a player is told when what they typed is not a code (`shown`: the typed text as it
/// may be shown back, already through the text policy).
pub fn not_a_code(shown: &str) -> String {
    format!("\"{shown}\" is not a room code: codes are {LEN} letters and digits, like {EXAMPLE}.")
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

    /// A code exactly as this server writes one (no space, upper case): what other instances
    /// send and the cluster's subjects hold. `None` for anything else, so a peer's malformed
    /// code is refused rather than repaired.
    pub fn canonical(raw: &str) -> Option<RoomCode> {
        (raw.len() == LEN && raw.bytes().all(|b| ALPHABET.contains(&b)))
            .then(|| RoomCode(raw.to_owned()))
    }

    /// The code of these [`ALPHABET`] positions (each taken modulo its length): valid by
    /// construction, for codes drawn at random.
    pub fn from_positions(positions: [usize; LEN]) -> RoomCode {
        RoomCode(
            positions
                .iter()
                .map(|&i| char::from(ALPHABET[i % ALPHABET.len()]))
                .collect(),
        )
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

/// The serde form is the code's text; reading one validates it ([`RoomCode::canonical`]), so a
/// message carrying a malformed code does not decode.
#[cfg(feature = "serde")]
impl serde::Serialize for RoomCode {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for RoomCode {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        // The refused text is not echoed into the error (it is a peer's, and gets logged).
        RoomCode::canonical(&raw).ok_or_else(|| {
            serde::de::Error::invalid_value(
                serde::de::Unexpected::Other("text that is not a room code"),
                &"a room code: 6 characters of ABCDEFGHJKMNPQRSTUVWXYZ23456789",
            )
        })
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

    #[test]
    fn canonical_codes_only_as_the_server_writes_them() {
        assert_eq!(
            RoomCode::canonical("K7PQ3M").map(RoomCode::into_string),
            Some("K7PQ3M".into())
        );
        for bad in [
            "",
            "k7pq3m",
            " K7PQ3M",
            "K7PQ3",
            "K7PQ3MX",
            "K0PQ3M",
            "K7PQ3\n",
            "K7.Q3M",
            "K7PQ3\u{e9}",
        ] {
            assert_eq!(RoomCode::canonical(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn codes_from_positions_are_valid_codes() {
        let code = RoomCode::from_positions([0, 1, 30, 31, 62, 9]);
        assert_eq!(code.as_str(), "AB9AAK");
        assert_eq!(RoomCode::canonical(code.as_str()), Some(code));
    }

    #[cfg(feature = "serde")]
    #[test]
    fn the_serde_form_is_the_text_and_reading_validates() {
        let code = RoomCode::parse("K7PQ3M").expect("a code");
        assert_eq!(serde_json::to_string(&code).expect("encodes"), "\"K7PQ3M\"");
        assert_eq!(
            serde_json::from_str::<RoomCode>("\"K7PQ3M\"").ok(),
            Some(code)
        );
        let long = format!("\"{}\"", "K".repeat(10_000));
        for bad in [
            "\"k7pq3m\"",
            "\"K7PQ3\"",
            "\"K7PQ3M\\r\\n\"",
            "\"K0PQ3M\"",
            "\"K7P.3M\"",
            long.as_str(),
            "7",
            "null",
        ] {
            assert!(serde_json::from_str::<RoomCode>(bad).is_err(), "{bad}");
        }
    }
}
