//! Unit tests of the generators' state bytes and tables.

use super::*;

fn read(bytes: &[u8]) -> Result<PieceSource, crate::replay::ReplayError> {
    PieceSource::read(&mut crate::replay::Reader { bytes, pos: 0 })
}

#[test]
fn every_generator_state_reads_back_and_deals_alike() {
    let v1 = crate::ruleset::Ruleset::of_version(crate::RulesetId::Standard, 1)
        .expect("version 1")
        .dealing;
    let sources = Generator::PRESETS
        .into_iter()
        .flat_map(|g| [PieceSource::new(g, 99), PieceSource::dealing(g, 99, v1)]);
    for mut source in sources {
        for _ in 0..10 {
            source.next_piece();
        }
        let mut w = Vec::new();
        source.write(&mut w);
        let mut back = read(&w).expect("its own state");
        assert_eq!(back, source);
        for _ in 0..50 {
            assert_eq!(back.next_piece(), source.next_piece());
        }
    }
}

#[test]
fn impossible_generator_states_are_refused() {
    use crate::replay::ReplayError::Malformed;
    for (bytes, what) in [
        // A bag that is not the seven pieces, or dealt past its end.
        (&[0u8, 5, 0, 0, 1, 2, 3, 4, 5, 0][..], "bag"),
        (&[0, 5, 0, 1, 2, 3, 4, 5, 6, 8][..], "bag"),
        // A stock with no copies left, or more than one restock could hold.
        (&[1, 0, 2, 3, 0, 0, 0, 0, 0, 0, 0][..], "stock"),
        (&[1, 0, 2, 3, 9, 9, 9, 0, 0, 0, 0][..], "stock"),
        (&[1, 0, 9, 3, 2, 2, 2, 2, 2, 2, 2][..], "stock"),
        // Recency: two pieces dealt last; a snap above 10.
        (&[2, 0, 0xfa, 0x01, 0, 0, 1, 1, 1, 1, 1][..], "recency"),
        (&[2, 0, 0xe9, 0x07, 1, 0, 1, 1, 1, 1, 1][..], "recency"),
        // Balance counts not relative to the smallest.
        (&[4, 0, 1, 1, 1, 1, 1, 1, 1][..], "balance"),
        (&[9][..], "generator"),
    ] {
        assert_eq!(read(bytes), Err(Malformed(what)), "{bytes:?}");
    }
}

#[test]
fn the_default_snap_table_is_the_formula() {
    for age in 0..=u8::MAX {
        assert_eq!(
            u128::from(DEFAULT_RECENCY[usize::from(age)]),
            recency_weight(age, DEFAULT_SNAP_CENTI)
        );
    }
}
