//! Room codes: four characters that are easy to read aloud and to type.

/// Upper-case letters and digits without the look-alikes 0/O, 1/I/L (31 characters).
pub const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/// Characters in a code.
pub const LEN: usize = 4;

/// A random code (not checked against the rooms in use).
pub fn random() -> String {
    (0..LEN)
        .map(|_| char::from(ALPHABET[rand::random_range(0..ALPHABET.len())]))
        .collect()
}

/// The code a player typed, in canonical form: surrounding space trimmed, case ignored.
/// `None` when it cannot be a code.
pub fn normalize(typed: &str) -> Option<String> {
    let code = typed.trim().to_ascii_uppercase();
    (code.len() == LEN && code.bytes().all(|b| ALPHABET.contains(&b))).then_some(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_avoid_ambiguous_characters() {
        for c in [b'0', b'O', b'1', b'I', b'L'] {
            assert!(!ALPHABET.contains(&c), "{}", char::from(c));
        }
        for _ in 0..200 {
            let code = random();
            assert_eq!(normalize(&code).as_deref(), Some(code.as_str()));
        }
    }

    #[test]
    fn typed_codes_are_normalised() {
        assert_eq!(normalize(" k7pq ").as_deref(), Some("K7PQ"));
        assert_eq!(normalize("K7P"), None);
        assert_eq!(normalize("K7PQR"), None);
        assert_eq!(normalize("K0PQ"), None);
        assert_eq!(normalize("ké7q"), None);
    }
}
