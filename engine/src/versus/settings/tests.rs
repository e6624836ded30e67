use super::*;

use MatchKind::{Battle, Race};
use RoomLimit::{Lines, None as NoLimit, Seconds};

/// What a host asks for: kind, seats, limit.
type Asked = (MatchKind, u8, RoomLimit);

/// Every field's bounds: (asked for) -> (the seats and limit the room gets).
#[test]
fn new_clamps_every_field_to_its_bounds() {
    let rows: &[(Asked, (u8, RoomLimit))] = &[
        // Seats: 2 to 8.
        ((Battle, 0, NoLimit), (2, NoLimit)),
        ((Battle, 1, NoLimit), (2, NoLimit)),
        ((Battle, 2, NoLimit), (2, NoLimit)),
        ((Battle, 5, NoLimit), (5, NoLimit)),
        ((Battle, 8, NoLimit), (8, NoLimit)),
        ((Battle, 9, NoLimit), (8, NoLimit)),
        ((Race, u8::MAX, NoLimit), (8, NoLimit)),
        // A battle's lines goal: 1 to 1000.
        ((Battle, 2, Lines(0)), (2, Lines(1))),
        ((Battle, 2, Lines(1)), (2, Lines(1))),
        ((Battle, 2, Lines(40)), (2, Lines(40))),
        ((Battle, 2, Lines(1000)), (2, Lines(1000))),
        ((Battle, 2, Lines(1001)), (2, Lines(1000))),
        ((Battle, 2, Lines(u32::MAX)), (2, Lines(1000))),
        // A battle's time limit: 10 s to an hour.
        ((Battle, 2, Seconds(0)), (2, Seconds(10))),
        ((Battle, 2, Seconds(9)), (2, Seconds(10))),
        ((Battle, 2, Seconds(10)), (2, Seconds(10))),
        ((Battle, 2, Seconds(120)), (2, Seconds(120))),
        ((Battle, 2, Seconds(3600)), (2, Seconds(3600))),
        ((Battle, 2, Seconds(3601)), (2, Seconds(3600))),
        ((Battle, 2, Seconds(u32::MAX)), (2, Seconds(3600))),
        // A race has no limit: it is always 40 lines.
        ((Race, 3, Lines(40)), (3, NoLimit)),
        ((Race, 3, Seconds(120)), (3, NoLimit)),
        ((Race, 3, NoLimit), (3, NoLimit)),
    ];
    for &((kind, players, limit), (want_players, want_limit)) in rows {
        let s = RoomSettings::new(kind, players, limit);
        assert_eq!(
            (s.kind(), s.max_players(), s.limit()),
            (kind, want_players, want_limit),
            "asked {kind:?} {players} {limit:?}"
        );
    }
}

#[test]
fn the_mode_follows_the_kind_and_the_limit() {
    assert_eq!(RoomSettings::new(Race, 2, Lines(5)).mode(), Mode::sprint());
    assert_eq!(
        RoomSettings::new(Battle, 2, Lines(25)).mode(),
        Mode::custom(0, true, Some((Stat::Lines, 25)))
    );
    let endless = Mode::custom(0, true, None);
    assert_eq!(RoomSettings::new(Battle, 2, Seconds(60)).mode(), endless);
    assert_eq!(RoomSettings::new(Battle, 2, NoLimit).mode(), endless);
}

/// The serde form is `RoomOptions`' (the type this replaced): today's JSON (also pinned by
/// `protocol/tests/wire_golden.rs`) reads and writes back byte for byte.
#[test]
fn todays_json_round_trips() {
    for json in [
        r#"{"kind":"Battle","max_players":4,"limit":{"Lines":40}}"#,
        r#"{"kind":"Battle","max_players":2,"limit":{"Seconds":120}}"#,
        r#"{"kind":"Battle","max_players":8,"limit":"None"}"#,
        r#"{"kind":"Race","max_players":3,"limit":"None"}"#,
    ] {
        let s: RoomSettings = serde_json::from_str(json).expect(json);
        assert_eq!(serde_json::to_string(&s).unwrap(), json);
    }
}

/// What a peer instance sends is clamped like a host's choice, or refused when it is not
/// settings at all.
#[test]
fn a_peers_settings_are_clamped_or_refused() {
    let clamped = [
        (
            r#"{"kind":"Battle","max_players":0,"limit":{"Lines":0}}"#,
            RoomSettings::new(Battle, 2, Lines(1)),
        ),
        (
            r#"{"kind":"Battle","max_players":255,"limit":{"Seconds":4294967295}}"#,
            RoomSettings::new(Battle, 8, Seconds(3600)),
        ),
        (
            r#"{"kind":"Race","max_players":9,"limit":{"Lines":40}}"#,
            RoomSettings::new(Race, 8, NoLimit),
        ),
    ];
    for (json, want) in clamped {
        let s: RoomSettings = serde_json::from_str(json).expect(json);
        assert_eq!(s, want, "{json}");
        assert_eq!(
            (s.max_players(), s.limit()),
            (want.max_players(), want.limit())
        );
    }
    for json in [
        r#"{"kind":"Battle","max_players":256,"limit":"None"}"#,
        r#"{"kind":"Battle","max_players":-1,"limit":"None"}"#,
        r#"{"kind":"Battle'; DROP TABLE rooms;--","max_players":2,"limit":"None"}"#,
        r#"{"kind":"Battle","max_players":2,"limit":{"Lines":-5}}"#,
        r#"{"kind":"Battle","max_players":2,"limit":{"Minutes":5}}"#,
        r#"{"kind":"Battle","max_players":2}"#,
        r#"{"kind":"\u001b[2J","max_players":2,"limit":"None"}"#,
        r#""Battle""#,
    ] {
        assert!(
            serde_json::from_str::<RoomSettings>(json).is_err(),
            "{json} was read"
        );
    }
}

#[test]
fn garbage_settings_ride_along_read_clamped_and_reach_a_battles_mode() {
    use crate::versus::{Blocking, GarbageDraft, GarbageSettings};
    let garbage = GarbageSettings::new(GarbageDraft {
        multiplier: 150,
        blocking: Blocking::None,
        ..GarbageDraft::default()
    });
    let s = RoomSettings::new(Battle, 2, NoLimit).with_garbage(garbage);
    assert_eq!(s.garbage(), &garbage);
    assert_eq!(s.mode().garbage, garbage);
    // A race sends no attack: its mode stays plain 40 lines.
    let race = RoomSettings::new(Race, 2, NoLimit).with_garbage(garbage);
    assert_eq!(race.mode(), Mode::sprint());
    // Round trip; the defaults are left out, so today's JSON is unchanged.
    let json = serde_json::to_string(&s).unwrap();
    assert!(json.contains("\"garbage\""), "{json}");
    assert_eq!(serde_json::from_str::<RoomSettings>(&json).unwrap(), s);
    let plain = serde_json::to_string(&RoomSettings::new(Battle, 2, NoLimit)).unwrap();
    assert!(!plain.contains("garbage"), "{plain}");
    // A peer's hostile garbage values are clamped as they are read.
    let hostile = r#"{"kind":"Battle","max_players":2,"limit":"None","garbage":{"multiplier":60000,"cap":0,"hole_size":200}}"#;
    let s: RoomSettings = serde_json::from_str(hostile).unwrap();
    let v = s.garbage().values();
    assert_eq!((v.multiplier, v.cap, v.hole_size), (500, 1, 9));
}

/// Gravity's start level and increase reach every player's mode: (kind, start, increase) ->
/// (the mode's start level, whether it rises).
#[test]
fn the_game_settings_reach_the_mode() {
    use crate::versus::{GameDraft, GameSettings};
    let rows: &[(MatchKind, u8, bool, (u32, bool))] = &[
        (Battle, 0, true, (0, true)),
        (Battle, 7, true, (7, true)),
        (Battle, 7, false, (7, false)),
        (Battle, 99, false, (20, false)),
        // A race's level never rises, as 40 lines'.
        (Race, 0, true, (0, false)),
        (Race, 12, true, (12, false)),
    ];
    for &(kind, start_level, level_increase, want) in rows {
        let game = GameSettings::new(GameDraft {
            start_level,
            level_increase,
            ..GameDraft::DEFAULT
        });
        let mode = RoomSettings::new(kind, 2, NoLimit).with_game(game).mode();
        assert_eq!(
            (mode.start_level, mode.level_increase),
            want,
            "{kind:?} {start_level} {level_increase}"
        );
    }
    // The defaults are the modes as they were.
    let room = RoomSettings::new(Battle, 2, NoLimit);
    assert_eq!(room.with_game(GameSettings::default()).mode(), room.mode());
}

/// An older instance's settings (no `game`) read as today's game rules; a peer's wild game
/// settings are clamped; at the defaults the form leaves `game` out (today's bytes).
#[test]
fn the_game_settings_read_old_forms_and_are_clamped() {
    let old: RoomSettings =
        serde_json::from_str(r#"{"kind":"Battle","max_players":2,"limit":"None"}"#).unwrap();
    assert!(old.game().is_default());
    assert!(!serde_json::to_string(&old).unwrap().contains("game"));
    let wild: RoomSettings = serde_json::from_str(
        r#"{"kind":"Battle","max_players":2,"limit":"None",
        "game":{"start_level":200,"preview":99,"entry_ms":9999,"ruleset":"TuiTetris"}}"#,
    )
    .unwrap();
    let g = wild.game().values();
    assert_eq!(
        (g.start_level, g.preview, g.entry_ms),
        (20, Some(6), Some(1000))
    );
    assert_eq!(g.ruleset, crate::RulesetId::TuiTetris);
    assert!(g.level_increase, "a missing field reads as the default");
    let bad = r#"{"kind":"Battle","max_players":2,"limit":"None","game":{"ruleset":"nope"}}"#;
    assert!(serde_json::from_str::<RoomSettings>(bad).is_err());
}
