//! Random room codes (the code's rules are [`minotty_domain::room_code`]).

use minotty_domain::RoomCode;
use minotty_domain::room_code::{ALPHABET, LEN};

/// A random code (not checked against the rooms in use).
pub fn random() -> RoomCode {
    RoomCode::from_positions(std::array::from_fn::<_, LEN, _>(|_| {
        rand::random_range(0..ALPHABET.len())
    }))
}

/// A random code starting with `first` (an [`ALPHABET`] byte) when given: with several
/// instances each takes its own first character, so codes never clash between them.
pub fn random_with(first: Option<u8>) -> RoomCode {
    let mut positions = std::array::from_fn::<_, LEN, _>(|_| rand::random_range(0..ALPHABET.len()));
    if let Some(at) = first.and_then(|b| ALPHABET.iter().position(|&c| c == b)) {
        positions[0] = at;
    }
    RoomCode::from_positions(positions)
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
            assert_eq!(normalize(code.as_str()).as_deref(), Some(code.as_str()));
        }
    }

    #[test]
    fn an_instance_prefix_starts_every_code() {
        for _ in 0..200 {
            let code = random_with(Some(b'Q'));
            assert!(code.as_str().starts_with('Q'), "{code}");
            assert_eq!(normalize(code.as_str()).as_deref(), Some(code.as_str()));
        }
        // Not a code character: ignored.
        assert!(
            random_with(Some(b'0'))
                .as_str()
                .bytes()
                .all(|b| ALPHABET.contains(&b))
        );
    }
}
