//! The binary forms pinned: replays and snapshots of scripted games under every ruleset, with
//! and without a tuning, and a game resumed from a snapshot, hashed. The figures were taken
//! from the build before the binary forms moved to `codec/` (`ce51faf`); any change to a byte
//! of either form fails here (old replays and stored snapshots must keep reading). The pinned
//! games are played under version 2 of every ruleset (the version they were recorded under:
//! the same bytes and the same games), and a second figure pins version 3's.

use minotty_engine::generator::Generator;
use minotty_engine::kicks::RotationSystem;
use minotty_engine::rng::SplitMix;
use minotty_engine::{
    Button, Game, GameConfig, Input, Mode, ModeKind, RulesetId, Snapshot, StartBoard, Time, Tuning,
};

/// How many of [`Button::ALL`] the scripts press.
const PINNED_BUTTONS: u32 = 9;

/// FNV-1a over the bytes, fed in order.
#[derive(Debug)]
struct Fnv(u64, usize);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325, 0)
    }

    fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.1 += bytes.len();
    }
}

/// Plays a scripted game, feeding its snapshots' and its replay's bytes; returns a snapshot
/// taken along the way.
fn play(config: GameConfig, seed: u32, version: u16, hash: &mut Fnv) -> Option<Snapshot> {
    let mut game = Game::of_version(config, seed, version).expect("a known version");
    let mut rng = SplitMix::new(seed, 11);
    let mut t: Time = 0;
    let mut kept = None;
    game.update(0, None);
    for i in 0..600u32 {
        t += 1 + u64::from(rng.below(40));
        // The nine buttons the pinned games were scripted with (the teleports came after
        // them, at the end of the list).
        let b = Button::ALL[rng.below(PINNED_BUTTONS) as usize];
        let input = match rng.below(10) {
            0..=4 => Input::Press(b),
            5..=8 => Input::Release(b),
            _ => Input::Press(Button::HardDrop),
        };
        game.update(t, Some(input));
        if i % 97 == 0
            && let Some(s) = game.snapshot()
        {
            hash.feed(&s.to_bytes());
            kept = kept.or(Some(s));
        }
        if game.is_over() {
            break;
        }
    }
    hash.feed(&game.replay().to_bytes());
    kept
}

/// Every scripted game under `version` of its ruleset, hashed.
fn pinned_games(version: u16) -> Fnv {
    let mut hash = Fnv::new();
    let mut snapshots = Vec::new();
    let modes = [
        // 40 lines as its preset was under `version` (its level rose before version 3).
        ModeKind::Sprint.preset_at(version),
        Mode::cheese(20),
        Mode::combo(),
        Mode::ultra(),
    ];
    for ruleset in RulesetId::ALL {
        for (m, mode) in modes.iter().enumerate() {
            for seed in 1..=2u32 {
                let tuning = if seed == 2 {
                    Tuning {
                        rotation: Some(RotationSystem::ALL[m % 3]),
                        generator: Some(Generator::PRESETS[(m + ruleset as usize) % 5]),
                        lock_delay: Some(350),
                        line_clear_delay: Some(0),
                        hard_drop_delay: Some(2),
                        no_soft_drop_lock: m % 2 == 0,
                        ..Tuning::default()
                    }
                } else {
                    Tuning::default()
                };
                let config = GameConfig {
                    ruleset,
                    mode: mode.clone(),
                    tuning,
                    ..GameConfig::default()
                };
                snapshots.extend(play(config, seed * 7 + m as u32, version, &mut hash));
            }
        }
    }
    // Games resumed from snapshots: their replays hold the snapshot (start-board code 5).
    for (i, s) in snapshots.iter().enumerate().take(6) {
        let mut mode = Mode::custom(0, true, None);
        mode.start_board = StartBoard::Snapshot(Box::new(s.clone()));
        let config = GameConfig {
            ruleset: s.ruleset(),
            mode,
            tuning: s.tuning(),
            ..GameConfig::default()
        };
        play(config, 100 + i as u32, version, &mut hash);
    }
    hash
}

#[test]
fn replay_and_snapshot_bytes_are_the_pinned_ones() {
    let hash = pinned_games(2);
    assert_eq!(
        (hash.0, hash.1),
        (15_754_526_191_491_780_325, 36_980),
        "{hash:?}"
    );
}

/// The same scripts under version 3, where presses in the line clear and spawn delays act
/// and 40 lines keeps its start level (issue 36): another figure, pinned from the build that
/// made 40 lines' level fixed (before any version 3 game was released).
#[test]
fn version_3_bytes_are_pinned_too() {
    let hash = pinned_games(3);
    assert_eq!(
        (hash.0, hash.1),
        (7_631_277_719_150_179_720, 36_712),
        "{hash:?}"
    );
}

/// The same scripts under version 4 (combo mode's starts), pinned from the build before
/// version 5 changed `tui-tetris`'s gravity and line clear pause: version 4 plays on exactly.
#[test]
fn version_4_bytes_are_pinned_too() {
    let hash = pinned_games(4);
    assert_eq!(
        (hash.0, hash.1),
        (8_697_144_407_711_818_952, 36_712),
        "{hash:?}"
    );
}
