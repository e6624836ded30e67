//! Random room codes (the code's rules are [`minotty_domain::room_code`]).

use minotty_domain::room_code::{ALPHABET, LEN};

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

#[cfg(test)]
mod tests {
    use super::*;
    use minotty_domain::room_code::normalize;

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
}
