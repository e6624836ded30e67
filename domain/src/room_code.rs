//! Room codes: six characters that are easy to read aloud and to type. With 31 characters
//! there are 31^6 (about 8.9e8) codes: with wrong codes throttled (`limits.rs`), guessing
//! one in use is hopeless.

/// Upper-case letters and digits without the look-alikes 0/O, 1/I/L (31 characters).
pub const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/// Characters in a code.
pub const LEN: usize = 6;

/// A code as the help texts show one.
pub const EXAMPLE: &str = "K7PQ3M";

/// A random code (not checked against the rooms in use).
pub fn random() -> String {
    (0..LEN)
        .map(|_| char::from(ALPHABET[rand::random_range(0..ALPHABET.len())]))
        .collect()
}

/// A random code starting with `first` (an [`ALPHABET`] byte) when given: with several
/// instances each takes its own first character, so codes never clash between them.
pub fn random_with(first: Option<u8>) -> String {
    let mut code = random();
    if let Some(first) = first.filter(|b| ALPHABET.contains(b)) {
        code.replace_range(0..1, &char::from(first).to_string());
    }
    code
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
    fn an_instance_prefix_starts_every_code() {
        for _ in 0..200 {
            let code = random_with(Some(b'Q'));
            assert!(code.starts_with('Q'), "{code}");
            assert_eq!(normalize(&code).as_deref(), Some(code.as_str()));
        }
        // Not a code character: ignored.
        assert!(
            random_with(Some(b'0'))
                .bytes()
                .all(|b| ALPHABET.contains(&b))
        );
    }

    #[test]
    fn typed_codes_are_normalised() {
        assert_eq!(normalize(" k7pq3m ").as_deref(), Some("K7PQ3M"));
        assert_eq!(normalize(EXAMPLE).as_deref(), Some(EXAMPLE));
        assert_eq!(normalize("K7PQ"), None);
        assert_eq!(normalize("K7PQ3MX"), None);
        assert_eq!(normalize("K0PQ3M"), None);
        assert_eq!(normalize("ké7q3m"), None);
    }
}
