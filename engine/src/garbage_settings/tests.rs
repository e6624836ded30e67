use super::*;
use crate::scoring::Spin::{Full, Mini, None as NoSpin};

type MultiplierRow = ((u16, u16, u16, u64), u32);
type CapRow = ((u8, u8, u16, u64), u32);
type CarryRow = ((u16, u32, u32), (u32, u32));
type ComboRow = ((ComboTable, u32, bool, u32), u32);
type SpinRow = ((SpinBonus, Spin, bool, bool, bool), Spin);

fn with(f: impl FnOnce(&mut GarbageDraft)) -> GarbageSettings {
    let mut d = GarbageDraft::default();
    f(&mut d);
    GarbageSettings::new(d)
}

#[test]
fn the_defaults_are_todays_rules() {
    let s = GarbageSettings::default();
    assert!(s.is_default());
    assert_eq!(s.multiplier_at(0), 1000);
    assert_eq!(s.multiplier_at(3_600_000), 1000);
    assert_eq!(s.cap_at(3_600_000), 8);
    assert!(s.rises_at(0));
    // Every ruleset's cap is the default's, so the default cap is the game's.
    for id in crate::RulesetId::ALL {
        assert_eq!(crate::Ruleset::get(id).garbage_cap, s.cap_at(0), "{id:?}");
    }
    // The attack is the scoring table's, for every clear.
    for lines in 0..=4 {
        for spin in [NoSpin, Mini, Full] {
            for b2b in [false, true] {
                for combo in 0..15 {
                    for perfect in [false, true] {
                        assert_eq!(
                            s.clear_attack(lines, spin, b2b, combo, perfect),
                            scoring::attack(lines, spin, b2b, combo, perfect),
                        );
                    }
                }
            }
        }
    }
    assert_eq!(s.surge_of(50), 0);
    assert_eq!(s.multiply(7, 0, 999_999), (7, 0));
}

/// (percent, increase a minute, margin s, t ms) -> thousandths.
#[test]
fn multiplier_at_t() {
    let rows: &[MultiplierRow] = &[
        ((100, 0, 0, 0), 1000),
        ((150, 0, 0, 500_000), 1500),
        // 48 points a minute after 3 minutes: 0.8 points a second.
        ((100, 48, 180, 0), 1000),
        ((100, 48, 180, 180_000), 1000),
        ((100, 48, 180, 181_000), 1008),
        ((100, 48, 180, 240_000), 1480),
        ((100, 48, 180, 300_000), 1960),
        // A point a minute: a thousandth every 6 s, rounded down.
        ((100, 1, 0, 5_999), 1000),
        ((100, 1, 0, 6_000), 1001),
        // Never beyond 10x.
        ((500, 100, 0, 3_600_000), 10_000),
        ((500, 100, 0, u64::MAX), 10_000),
    ];
    for &((m, inc, margin, t), want) in rows {
        let s = with(|d| {
            d.multiplier = m;
            d.multiplier_increase = inc;
            d.multiplier_margin = margin;
        });
        assert_eq!(
            s.multiplier_at(t),
            want,
            "{m}% +{inc}/min after {margin}s at {t}"
        );
    }
}

/// (cap, increase a minute, margin s, t ms) -> lines.
#[test]
fn cap_at_t() {
    let rows: &[CapRow] = &[
        ((8, 0, 0, 0), 8),
        ((4, 0, 0, 9_000_000), 4),
        ((4, 2, 60, 59_999), 4),
        ((4, 2, 60, 60_000), 4),
        ((4, 2, 60, 89_999), 4),
        ((4, 2, 60, 90_000), 5),
        ((4, 2, 60, 120_000), 6),
        ((8, 10, 0, 3_600_000), 20),
        ((20, 10, 0, u64::MAX), 20),
    ];
    for &((cap, inc, margin, t), want) in rows {
        let s = with(|d| {
            d.cap = cap;
            d.cap_increase = inc;
            d.cap_margin = margin;
        });
        assert_eq!(s.cap_at(t), want, "{cap} +{inc}/min after {margin}s at {t}");
    }
}

/// (percent, raw, carry) -> (lines, carry).
#[test]
fn the_multiplier_carries_fractions() {
    let rows: &[CarryRow] = &[
        ((150, 1, 0), (1, 500)),
        ((150, 1, 500), (2, 0)),
        ((150, 0, 500), (0, 500)),
        ((50, 4, 0), (2, 0)),
        ((50, 1, 0), (0, 500)),
        ((200, 4, 0), (8, 0)),
        ((10, 3, 900), (1, 200)),
        // A hostile carry counts only below a line; no attack beyond the wire's u8.
        ((100, 1, 5_000_000), (1, 0)),
        ((500, 255, 0), (255, 0)),
    ];
    for &((m, raw, carry), want) in rows {
        let s = with(|d| d.multiplier = m);
        assert_eq!(s.multiply(raw, carry, 0), want, "{m}% of {raw} + {carry}");
    }
}

#[test]
fn surge_charges_from_four_and_releases_the_count() {
    let rows: &[(u32, u32)] = &[(0, 0), (1, 0), (3, 0), (4, 4), (5, 5), (12, 12), (999, 255)];
    let s = with(|d| d.b2b = BackToBack::Surge);
    for &(count, want) in rows {
        assert_eq!(surge(count), want, "count {count}");
        assert_eq!(s.surge_of(count), want);
        assert_eq!(GarbageSettings::default().surge_of(count), 0);
    }
}

/// (table, lines, b2b, combo index) -> attack.
#[test]
fn combo_tables() {
    use ComboTable::{Multiplier, None as NoCombo, Ruleset};
    let rows: &[ComboRow] = &[
        ((Ruleset, 1, false, 0), 0),
        ((Ruleset, 1, false, 3), 2),
        ((Ruleset, 4, true, 10), 10),
        ((NoCombo, 1, false, 5), 0),
        ((NoCombo, 2, false, 9), 1),
        ((NoCombo, 4, true, 9), 5),
        // Times 1 + combo / 4, rounded down.
        ((Multiplier, 2, false, 0), 1),
        ((Multiplier, 2, false, 3), 1),
        ((Multiplier, 2, false, 4), 2),
        ((Multiplier, 4, false, 2), 6),
        ((Multiplier, 4, true, 4), 10),
        // A single gets the small table.
        ((Multiplier, 1, false, 0), 0),
        ((Multiplier, 1, false, 1), 0),
        ((Multiplier, 1, false, 2), 1),
        ((Multiplier, 1, false, 6), 2),
        ((Multiplier, 1, false, 12), 3),
        ((Multiplier, 1, false, 40), 4),
    ];
    for &((table, lines, b2b, combo), want) in rows {
        let s = with(|d| d.combo = table);
        assert_eq!(
            s.clear_attack(lines, NoSpin, b2b, combo, false),
            want,
            "{table:?} {lines} lines b2b {b2b} combo {combo}"
        );
    }
}

#[test]
fn all_clear_overrides_the_tables_ten() {
    for (lines_sent, want_single, want_tetris) in [(0, 0, 4), (3, 3, 7), (10, 10, 14), (20, 20, 24)]
    {
        let s = with(|d| d.all_clear = lines_sent);
        assert_eq!(s.clear_attack(1, NoSpin, false, 0, true), want_single);
        assert_eq!(s.clear_attack(4, NoSpin, false, 0, true), want_tetris);
        assert_eq!(s.clear_attack(4, NoSpin, false, 0, false), 4);
    }
}

/// (mode, ruleset's verdict, T piece, rotated, immobile) -> spin.
#[test]
fn spin_bonus_modes() {
    use SpinBonus::{AllMini, AllSpins, None as NoBonus, TSpins};
    let rows: &[SpinRow] = &[
        ((TSpins, Full, true, true, true), Full),
        ((TSpins, NoSpin, false, true, true), NoSpin),
        ((NoBonus, Full, true, true, true), NoSpin),
        ((NoBonus, Mini, true, true, false), NoSpin),
        ((AllSpins, NoSpin, false, true, true), Full),
        ((AllSpins, NoSpin, false, false, true), NoSpin),
        ((AllSpins, NoSpin, false, true, false), NoSpin),
        ((AllSpins, Mini, true, true, true), Mini),
        ((AllSpins, NoSpin, true, true, true), NoSpin),
        ((AllMini, NoSpin, false, true, true), Mini),
        ((AllMini, Full, true, true, true), Full),
        // tetrs' own spins of other pieces are minis under all-mini.
        ((AllMini, Full, false, false, true), Mini),
        ((AllMini, NoSpin, false, true, false), NoSpin),
    ];
    for &((mode, ruleset, t, rotated, immobile), want) in rows {
        let s = with(|d| d.spins = mode);
        assert_eq!(
            s.spin(ruleset, t, rotated, immobile),
            want,
            "{mode:?} {ruleset:?} T {t} rotated {rotated} immobile {immobile}"
        );
    }
}

#[test]
fn new_clamps_hostile_values() {
    let s = GarbageSettings::new(GarbageDraft {
        multiplier: u16::MAX,
        multiplier_increase: u16::MAX,
        multiplier_margin: u16::MAX,
        cap: 0,
        cap_increase: u8::MAX,
        cap_margin: u16::MAX,
        messiness: 200,
        hole_size: 0,
        all_clear: u8::MAX,
        opener: u8::MAX,
        ..GarbageDraft::default()
    });
    let v = s.values();
    assert_eq!(
        (v.multiplier, v.multiplier_increase, v.multiplier_margin),
        (500, 100, 600)
    );
    assert_eq!((v.cap, v.cap_increase, v.cap_margin), (1, 10, 600));
    assert_eq!(
        (v.messiness, v.hole_size, v.all_clear, v.opener),
        (100, 1, 20, 30)
    );
    let low = GarbageSettings::new(GarbageDraft {
        multiplier: 0,
        cap: u8::MAX,
        hole_size: u8::MAX,
        ..GarbageDraft::default()
    });
    assert_eq!(
        (
            low.values().multiplier,
            low.values().cap,
            low.values().hole_size
        ),
        (10, 20, 9)
    );
}

#[test]
fn describe_lists_every_setting_and_the_changed_ones() {
    let d = GarbageSettings::default();
    assert_eq!(d.describe().len(), 12);
    assert!(d.describe_changed().is_empty());
    let s = with(|d| {
        d.multiplier = 150;
        d.multiplier_increase = 48;
        d.multiplier_margin = 180;
        d.blocking = Blocking::Passthrough;
        d.opener = 5;
    });
    assert_eq!(
        s.describe_changed(),
        vec![
            ("Garbage multiplier", "150%".to_string()),
            ("Multiplier increase", "+48%/min after 180 s".to_string()),
            ("Blocking", "passthrough".to_string()),
            ("Opener", "5 s".to_string()),
        ]
    );
    assert_eq!(Blocking::ALL.len(), 3);
    assert_eq!(SpinBonus::ALL.len(), 4);
}

#[cfg(feature = "serde")]
#[test]
fn serde_round_trips_and_clamps_on_read() {
    let s = with(|d| {
        d.multiplier = 250;
        d.messiness = 30;
        d.hole_size = 2;
        d.b2b = BackToBack::Surge;
        d.combo = ComboTable::Multiplier;
        d.spins = SpinBonus::AllMini;
    });
    let json = serde_json::to_string(&s).expect("serializes");
    let back: GarbageSettings = serde_json::from_str(&json).expect("reads");
    assert_eq!(back, s);
    // A peer's hostile values are clamped as they are read; missing fields are defaults.
    let hostile: GarbageSettings =
        serde_json::from_str(r#"{"multiplier":65535,"cap":0,"hole_size":10,"opener":255}"#)
            .expect("reads");
    let v = hostile.values();
    assert_eq!(
        (v.multiplier, v.cap, v.hole_size, v.opener),
        (500, 1, 9, 30)
    );
    assert_eq!(v.blocking, Blocking::Cancel);
    let empty: GarbageSettings = serde_json::from_str("{}").expect("reads");
    assert!(empty.is_default());
}
