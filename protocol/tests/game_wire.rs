//! A match's game settings on the wire: `MatchStart.game` carries the room's ruleset, entry,
//! preview, handling and badges, an older peer's `MatchStart` (no `game`) reads as the
//! defaults, and a hostile one is clamped. `Progress.lives` likewise.

use minotty_engine::versus::{GameDraft, GameSettings, MatchKind};
use minotty_engine::{Handling, RulesetId};
use minotty_protocol::{MatchStart, Progress};

fn start(game: GameSettings) -> MatchStart {
    MatchStart {
        kind: MatchKind::Battle,
        mode: minotty_engine::Mode::custom(0, true, None),
        seed: 7,
        players: vec!["ada".into(), "bob".into()],
        you: Some(1),
        countdown_ms: 3000,
        ranked: false,
        teams: Vec::new(),
        game,
    }
}

#[test]
fn match_start_carries_the_game_settings() {
    let game = GameSettings::new(GameDraft {
        ruleset: RulesetId::Tetrs,
        entry_ms: Some(200),
        preview: Some(2),
        handling: Some(Handling {
            das: 100,
            arr: 0,
            sdf: 40,
            hard_drop_guard: 0,
            das_cut: 0,
            double_tap: 0,
            move_under_lock: false,
        }),
        ko_badges: true,
        ..GameDraft::DEFAULT
    });
    let json = serde_json::to_string(&start(game)).unwrap();
    let back: MatchStart = serde_json::from_str(&json).unwrap();
    assert_eq!(back, start(game));
    // At the defaults the field is left out: what older instances wrote and read.
    let plain = serde_json::to_string(&start(GameSettings::default())).unwrap();
    assert!(!plain.contains("game"), "{plain}");
    let old: MatchStart = serde_json::from_str(&plain).unwrap();
    assert!(old.game.is_default());
    let hostile = json.replace("\"entry_ms\":200", "\"entry_ms\":60000");
    let read: MatchStart = serde_json::from_str(&hostile).unwrap();
    assert_eq!(read.game.entry_ms(), Some(1000));
}

#[test]
fn progress_carries_the_lives_left() {
    let p = Progress {
        lives: 2,
        ..Progress::default()
    };
    let json = serde_json::to_string(&p).unwrap();
    assert!(json.contains("\"lives\":2"), "{json}");
    assert_eq!(serde_json::from_str::<Progress>(&json).unwrap(), p);
    let none = serde_json::to_string(&Progress::default()).unwrap();
    assert!(!none.contains("lives"), "{none}");
}
