use super::*;

fn draft() -> GameDraft {
    GameDraft::DEFAULT
}

fn fixed(das: u32, arr: u32, sdf: u32) -> Option<Handling> {
    Some(Handling {
        das,
        arr,
        sdf,
        hard_drop_guard: 300,
        das_cut: 40,
        double_tap: 0,
        move_under_lock: false,
    })
}

/// Every field's bounds: (asked for) -> (what the room gets).
#[test]
fn new_clamps_every_field_to_its_bounds() {
    let rows: &[(GameDraft, GameDraft)] = &[
        (draft(), draft()),
        // Start level: 0 to 20.
        (
            GameDraft {
                start_level: 20,
                ..draft()
            },
            GameDraft {
                start_level: 20,
                ..draft()
            },
        ),
        (
            GameDraft {
                start_level: 21,
                ..draft()
            },
            GameDraft {
                start_level: 20,
                ..draft()
            },
        ),
        (
            GameDraft {
                start_level: u8::MAX,
                ..draft()
            },
            GameDraft {
                start_level: 20,
                ..draft()
            },
        ),
        // Entry: the ruleset's, or 0 (instant) to 1000 ms.
        (
            GameDraft {
                entry_ms: Some(0),
                ..draft()
            },
            GameDraft {
                entry_ms: Some(0),
                ..draft()
            },
        ),
        (
            GameDraft {
                entry_ms: Some(1000),
                ..draft()
            },
            GameDraft {
                entry_ms: Some(1000),
                ..draft()
            },
        ),
        (
            GameDraft {
                entry_ms: Some(u16::MAX),
                ..draft()
            },
            GameDraft {
                entry_ms: Some(1000),
                ..draft()
            },
        ),
        // Preview: each player's, or 0 to 6.
        (
            GameDraft {
                preview: Some(0),
                ..draft()
            },
            GameDraft {
                preview: Some(0),
                ..draft()
            },
        ),
        (
            GameDraft {
                preview: Some(7),
                ..draft()
            },
            GameDraft {
                preview: Some(6),
                ..draft()
            },
        ),
        // A fixed handling: DAS to 500, ARR to 200, SDF to 100; never a guard or a DAS cut.
        (
            GameDraft {
                handling: fixed(u32::MAX, u32::MAX, u32::MAX),
                ..draft()
            },
            GameDraft {
                handling: fixed(500, 200, 100).map(|h| Handling {
                    hard_drop_guard: 0,
                    das_cut: 0,
                    double_tap: 0,
                    move_under_lock: false,
                    ..h
                }),
                ..draft()
            },
        ),
        (
            GameDraft {
                handling: fixed(100, 0, 0),
                ..draft()
            },
            GameDraft {
                handling: fixed(100, 0, 0).map(|h| Handling {
                    hard_drop_guard: 0,
                    das_cut: 0,
                    double_tap: 0,
                    move_under_lock: false,
                    ..h
                }),
                ..draft()
            },
        ),
    ];
    for (asked, want) in rows {
        assert_eq!(GameSettings::new(*asked).values(), *want, "asked {asked:?}");
    }
}

/// The entry delay is the tuning's appearance delay, and nothing else is tuned.
#[test]
fn the_entry_is_the_tuned_appearance_delay() {
    let rows: &[(Option<u16>, Option<u32>, &str)] = &[
        (None, None, "ruleset's"),
        (Some(0), Some(0), "instant"),
        (Some(250), Some(250), "250 ms"),
        (Some(5000), Some(1000), "1000 ms"),
    ];
    for &(entry, appearance, text) in rows {
        let s = GameSettings::new(GameDraft {
            entry_ms: entry,
            ..draft()
        });
        assert_eq!(
            s.tuning(),
            Tuning {
                appearance_delay: appearance,
                ..Tuning::default()
            }
        );
        assert_eq!(entry_text(s.entry_ms()), text);
    }
}

/// KO badges: +25% a badge up to four, rounded down, only with three players or more.
#[test]
fn badges_raise_the_attack_by_the_table() {
    // (lines, badges, players) -> lines routed
    let rows: &[(u8, u32, usize, u8)] = &[
        (4, 0, 3, 4),
        (4, 1, 3, 5),
        (4, 2, 3, 6),
        (4, 3, 3, 7),
        (4, 4, 3, 8),
        (4, 9, 3, 8),
        (1, 1, 3, 1),
        (1, 4, 8, 2),
        (3, 2, 4, 4),
        (10, 1, 8, 12),
        (4, 4, 2, 4),
        (4, 4, 1, 4),
        (200, 4, 3, 255),
        (0, 4, 3, 0),
    ];
    for &(lines, badges, players, want) in rows {
        assert_eq!(
            badge_attack(lines, badges, players),
            want,
            "{lines} lines, {badges} badges, {players} players"
        );
    }
}

#[test]
fn describe_changed_names_only_what_differs() {
    assert!(GameSettings::default().describe_changed().is_empty());
    let s = GameSettings::new(GameDraft {
        ruleset: RulesetId::Tetrs,
        start_level: 5,
        handling: fixed(100, 0, 20),
        ko_badges: true,
        ..draft()
    });
    assert_eq!(
        s.describe_changed(),
        vec![
            ("Ruleset", "tetrs".to_string()),
            ("Start level", "5".to_string()),
            ("Handling", "DAS 100 ARR 0 SDF 20".to_string()),
            ("KO badges", "on".to_string()),
        ]
    );
}

/// Older forms (none of the fields) read as the defaults; every read is clamped.
#[cfg(feature = "serde")]
#[test]
fn serde_reads_old_forms_and_clamps() {
    let old: GameSettings = serde_json::from_str("{}").expect("reads");
    assert!(old.is_default());
    let wild: GameSettings = serde_json::from_str(
        r#"{"ruleset":"Tetrs","start_level":99,"entry_ms":65535,"preview":200,
        "handling":{"das":9999,"arr":9999,"sdf":9999},"ko_badges":true,"level_increase":false}"#,
    )
    .expect("reads");
    let v = wild.values();
    assert_eq!(v.ruleset, RulesetId::Tetrs);
    assert_eq!(
        (v.start_level, v.entry_ms, v.preview, v.level_increase),
        (20, Some(1000), Some(6), false)
    );
    assert_eq!(
        v.handling.map(|h| (h.das, h.arr, h.sdf)),
        Some((500, 200, 100))
    );
    let back: GameSettings =
        serde_json::from_str(&serde_json::to_string(&wild).expect("writes")).expect("reads");
    assert_eq!(back, wild);
}
