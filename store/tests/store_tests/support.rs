//! Helpers: keys, names, real games played by the engine's bot, and games with chosen stats.

use minotty_bots::{autoplay, autoplay_combo};
use minotty_domain::{KeyFingerprint, Period, PlayerName, Verdict, rank_key};
use minotty_engine::{EndReason, Game, GameConfig, Mode, ModeKind, RulesetId, Stat, Stats, Tuning};
use minotty_store::{Account, Board, Entry, FinishedGame, NewKey, Page, Store, UnixMs};
use sqlx::AnyPool;

/// 2024-02-29T13:14:15.678Z: a Thursday in a leap month.
pub const NOW: UnixMs = 1_709_212_455_678;
pub const DAY: UnixMs = 86_400_000;

/// The store on a test database (`both!`'s pool), migrated.
pub async fn store(pool: AnyPool) -> Store {
    Store::from_pool(pool).await.expect("store")
}

/// Each game with the judge's verdict on it, as `Store::insert_games` takes them.
pub fn judged<const N: usize>(games: [FinishedGame; N]) -> Vec<(FinishedGame, Verdict)> {
    games
        .into_iter()
        .map(|g| {
            let v = g.judge();
            (g, v)
        })
        .collect()
}

/// The first 100 rows of the all-time board `board` at [`NOW`].
pub async fn all_time_top(store: &Store, board: Board) -> Vec<Entry> {
    store
        .leaderboard(board, Period::AllTime, NOW, Page::top(100))
        .await
        .expect("query")
}

/// A distinct valid fingerprint for each `n`.
pub fn key(n: u32) -> NewKey {
    let fingerprint = format!("SHA256:{:0>43}", format!("key{n}"));
    NewKey {
        fingerprint: KeyFingerprint::parse(&fingerprint).expect("valid fingerprint"),
        algorithm: "ssh-ed25519".into(),
    }
}

pub fn name(s: &str) -> PlayerName {
    PlayerName::parse(s).expect("valid name")
}

/// Registers `name` with key number `n`.
pub async fn player(store: &Store, s: &str, n: u32) -> Account {
    store
        .register(&name(s), &key(n), NOW)
        .await
        .expect("registers")
}

/// A real game of `mode` played by the bot (combo with the combo bot), up to `pieces` pieces.
pub fn played(account: &Account, mode: Mode, seed: u32, pieces: u32) -> FinishedGame {
    played_under(
        account,
        RulesetId::Standard,
        Tuning::default(),
        mode,
        seed,
        pieces,
    )
}

/// Like [`played`], under `ruleset` with `tuning`.
pub fn played_under(
    account: &Account,
    ruleset: RulesetId,
    tuning: Tuning,
    mode: Mode,
    seed: u32,
    pieces: u32,
) -> FinishedGame {
    let combo = mode.kind == ModeKind::Combo;
    let mut game = Game::new(
        GameConfig {
            ruleset,
            mode,
            tuning,
            ..GameConfig::default()
        },
        seed,
    );
    if combo {
        autoplay_combo(&mut game, pieces, 50, 1);
    } else {
        autoplay(&mut game, pieces, 100);
    }
    let duration = i64::try_from(game.now()).expect("short game");
    FinishedGame {
        player: account.id,
        replay: game.replay(),
        stats: *game.stats(),
        outcome: game.outcome(),
        started_at: NOW - duration,
        ended_at: NOW,
    }
}

/// A game of `kind` with chosen stats that ended at `ended_at`, judged ranked with the mode's
/// key (for leaderboard tests, which are about SQL rather than replays).
pub fn ranked(
    account: &Account,
    kind: ModeKind,
    stats: Stats,
    ended_at: UnixMs,
) -> (FinishedGame, Verdict) {
    ranked_under(account, RulesetId::Standard, kind, stats, ended_at)
}

/// Like [`ranked`], for the board of `ruleset`.
pub fn ranked_under(
    account: &Account,
    ruleset: RulesetId,
    kind: ModeKind,
    stats: Stats,
    ended_at: UnixMs,
) -> (FinishedGame, Verdict) {
    let game = Game::new(
        GameConfig {
            ruleset,
            mode: kind.mode(),
            ..GameConfig::default()
        },
        1,
    );
    let key = rank_key(kind, &stats).expect("a ranked mode");
    let finished = FinishedGame {
        player: account.id,
        replay: game.replay(),
        stats,
        outcome: Some((EndReason::Limit(Stat::Lines), true)),
        started_at: ended_at - 60_000,
        ended_at,
    };
    (finished, Verdict::Ranked { key })
}

pub fn stats(time: u64, score: u64, lines: u32, pieces: u32, max_combo: u32) -> Stats {
    Stats {
        time,
        score,
        lines,
        pieces,
        max_combo,
        ..Stats::default()
    }
}
