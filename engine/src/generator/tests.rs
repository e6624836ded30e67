//! Unit tests of the generators' tables.

use super::*;

#[test]
fn the_default_snap_table_is_the_formula() {
    for age in 0..=u8::MAX {
        assert_eq!(
            u128::from(DEFAULT_RECENCY[usize::from(age)]),
            recency_weight(age, DEFAULT_SNAP_CENTI)
        );
    }
}
