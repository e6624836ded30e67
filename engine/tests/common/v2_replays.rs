//! The games of `data/v2_replays.txt`: how each was set up and the recordings read back.
//! Shared by the engine's `tests/old_versions.rs`, which plays them again, and the bots'
//! `bots/tests/record_v2_replays.rs`, which recorded them on the engine before version 3
//! (issue 36: presses during a line clear or spawn delay were lost). The end state is
//! `v1_replays::fingerprint`'s.
#![allow(dead_code)]

use minotty_engine::{Handling, Mode, Replay, RulesetId};

/// One recorded game.
pub struct Setup {
    pub name: &'static str,
    pub ruleset: RulesetId,
    pub mode: Mode,
    pub handling: Handling,
    pub seed: u32,
}

pub fn setups() -> Vec<Setup> {
    let slide = Handling {
        das: 100,
        arr: 0,
        sdf: 0,
        ..Handling::default()
    };
    let setup = |name, ruleset, mode, handling, seed| Setup {
        name,
        ruleset,
        mode,
        handling,
        seed,
    };
    vec![
        setup(
            "standard-sprint",
            RulesetId::Standard,
            Mode::sprint(),
            Handling::default(),
            51,
        ),
        setup(
            "standard-sprint-slide",
            RulesetId::Standard,
            Mode::sprint(),
            slide,
            52,
        ),
        setup(
            "standard-marathon",
            RulesetId::Standard,
            Mode::marathon(),
            Handling::default(),
            53,
        ),
        setup(
            "standard-cheese",
            RulesetId::Standard,
            Mode::cheese(12),
            Handling::default(),
            54,
        ),
        setup(
            "tui-tetris-sprint",
            RulesetId::TuiTetris,
            Mode::sprint(),
            Handling::default(),
            61,
        ),
        setup(
            "tui-tetris-marathon",
            RulesetId::TuiTetris,
            Mode::marathon(),
            slide,
            62,
        ),
        setup(
            "tetrs-sprint",
            RulesetId::Tetrs,
            Mode::sprint(),
            minotty_engine::Ruleset::TETRS.handling,
            71,
        ),
        setup(
            "tetrs-marathon",
            RulesetId::Tetrs,
            Mode::marathon(),
            slide,
            72,
        ),
    ]
}

fn from_hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

const RECORDED: &str = include_str!("../data/v2_replays.txt");

/// The recorded games: `(name, replay, fingerprint)`.
pub fn recorded() -> Vec<(String, Replay, String)> {
    RECORDED
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.splitn(3, '\t');
            let name = parts.next().expect("name").to_string();
            let bytes = from_hex(parts.next().expect("replay"));
            let replay = Replay::from_bytes(&bytes).expect("a replay");
            (name, replay, parts.next().expect("fingerprint").to_string())
        })
        .collect()
}
