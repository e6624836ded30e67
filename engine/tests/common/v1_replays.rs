//! The games of `data/v1_replays.txt`: how each was set up, the end state a recording must
//! reach, and the recordings read back. Shared by the engine's `tests/old_versions.rs`, which
//! plays them again, and the bots' `bots/tests/record_v1_replays.rs`, which recorded them.
#![allow(dead_code)]

use minotty_engine::{Game, Generator, Mode, Replay, RotationSystem, RulesetId, Tuning};

/// One recorded game: how it was set up, and how many actions it got.
pub struct Setup {
    pub name: &'static str,
    pub ruleset: RulesetId,
    pub mode: Mode,
    pub tuning: Tuning,
    pub seed: u32,
    /// Only shifts and rotations (no drops, no hold): the piece stays on the ground as long as
    /// the rules let it.
    pub stall: bool,
}

pub fn setups() -> Vec<Setup> {
    let recency = Tuning {
        generator: Some(Generator::recency()),
        ..Tuning::default()
    };
    let bag = Tuning {
        generator: Some(Generator::Bag),
        ..Tuning::default()
    };
    let ocular = Tuning {
        rotation: Some(RotationSystem::Ocular),
        ..Tuning::default()
    };
    let custom = || Mode::custom(1, true, None);
    let mut v = Vec::new();
    for (i, seed) in [11u32, 12, 13].into_iter().enumerate() {
        let name = [
            "standard-sprint-a",
            "standard-sprint-b",
            "standard-sprint-c",
        ][i];
        v.push(Setup {
            name,
            ruleset: RulesetId::Standard,
            mode: Mode::sprint(),
            tuning: Tuning::default(),
            seed,
            stall: false,
        });
    }
    for (name, ruleset, mode, tuning, seed, stall) in [
        (
            "standard-marathon",
            RulesetId::Standard,
            Mode::marathon(),
            Tuning::default(),
            21,
            false,
        ),
        (
            "standard-recency",
            RulesetId::Standard,
            custom(),
            recency,
            22,
            false,
        ),
        (
            "standard-ocular",
            RulesetId::Standard,
            custom(),
            ocular,
            23,
            false,
        ),
        (
            "tui-tetris-sprint",
            RulesetId::TuiTetris,
            Mode::sprint(),
            Tuning::default(),
            31,
            false,
        ),
        (
            "tui-tetris-marathon",
            RulesetId::TuiTetris,
            Mode::marathon(),
            Tuning::default(),
            32,
            false,
        ),
        (
            "tui-tetris-recency",
            RulesetId::TuiTetris,
            custom(),
            recency,
            33,
            false,
        ),
        (
            "tui-tetris-ocular",
            RulesetId::TuiTetris,
            custom(),
            ocular,
            34,
            false,
        ),
        (
            "tetrs-sprint",
            RulesetId::Tetrs,
            Mode::sprint(),
            Tuning::default(),
            41,
            false,
        ),
        (
            "tetrs-marathon",
            RulesetId::Tetrs,
            Mode::marathon(),
            Tuning::default(),
            42,
            false,
        ),
        ("tetrs-bag", RulesetId::Tetrs, custom(), bag, 43, false),
        (
            "tetrs-master-stall",
            RulesetId::Tetrs,
            Mode::master(),
            Tuning::default(),
            44,
            true,
        ),
        (
            "tetrs-master-stall-b",
            RulesetId::Tetrs,
            Mode::master(),
            Tuning::default(),
            45,
            true,
        ),
        (
            "tetrs-marathon-stall",
            RulesetId::Tetrs,
            Mode::marathon(),
            Tuning::default(),
            46,
            true,
        ),
    ] {
        v.push(Setup {
            name,
            ruleset,
            mode,
            tuning,
            seed,
            stall,
        });
    }
    v
}

/// The end state a recording must reach: stats, outcome and board.
pub fn fingerprint(game: &Game) -> String {
    let s = game.stats();
    let board: Vec<String> = game
        .board()
        .to_ascii()
        .into_iter()
        .filter(|row| row.chars().any(|c| c != '.'))
        .collect();
    format!(
        "time={} level={} lines={} pieces={} score={} by_piece={:?} outcome={:?} board={}",
        s.time,
        s.level,
        s.lines,
        s.pieces,
        s.score,
        s.by_piece,
        game.outcome(),
        board.join("/")
    )
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn from_hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

const RECORDED: &str = include_str!("../data/v1_replays.txt");

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
