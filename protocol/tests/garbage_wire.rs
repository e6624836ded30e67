//! A match's garbage settings on the wire: `MatchStart` carries them in its mode and an older
//! peer's `MatchStart` (no `garbage` field) reads as the defaults. Today's bytes are pinned in
//! `wire_golden.rs`, which these settings leave unchanged at their defaults.

use minotty_engine::versus::{BackToBack, GarbageDraft, GarbageSettings, MatchKind};
use minotty_protocol::MatchStart;

fn start(garbage: GarbageSettings) -> MatchStart {
    let mut mode = minotty_engine::Mode::custom(0, true, None);
    mode.garbage = garbage;
    MatchStart {
        teams: Vec::new(),
        kind: MatchKind::Battle,
        mode,
        seed: 7,
        players: vec!["ada".into(), "bob".into()],
        you: Some(1),
        countdown_ms: 3000,
        ranked: false,
        game: Default::default(),
    }
}

#[test]
fn match_start_carries_the_garbage_settings() {
    let garbage = GarbageSettings::new(GarbageDraft {
        multiplier: 300,
        messiness: 25,
        b2b: BackToBack::Surge,
        ..GarbageDraft::default()
    });
    let json = serde_json::to_string(&start(garbage)).unwrap();
    let back: MatchStart = serde_json::from_str(&json).unwrap();
    assert_eq!(back, start(garbage));
    // At the defaults the field is left out: what older instances wrote and read.
    let plain = serde_json::to_string(&start(GarbageSettings::default())).unwrap();
    assert!(!plain.contains("garbage"), "{plain}");
    let hostile = json.replace("\"multiplier\":300", "\"multiplier\":9999");
    let read: MatchStart = serde_json::from_str(&hostile).unwrap();
    assert_eq!(read.mode.garbage.values().multiplier, 500);
}
