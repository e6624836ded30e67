//! Finished games: stored with their stats and replay, and entered into the leaderboards of
//! their mode when their verdict is [`Verdict::Ranked`].

use std::borrow::Borrow;

use minotty_domain::{bucket_floor, outcome_text};
use minotty_engine::{EndReason, ModeKind, Replay, RulesetId, Stats};
use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::prune::{Added, OverQuota};
use super::{GameId, Period, PlayerId, Store, StoreError, UnixMs, Verdict, from_db, to_db};

/// A game as the session hands it over when it ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishedGame {
    pub player: PlayerId,
    pub replay: Replay,
    pub stats: Stats,
    /// `Game::outcome()`: `None` when the recording stopped before the game ended.
    pub outcome: Option<(EndReason, bool)>,
    pub started_at: UnixMs,
    pub ended_at: UnixMs,
}

impl FinishedGame {
    /// The judge's verdict on this game ([`minotty_domain::judge`]): call it on a blocking
    /// thread, since it may re-simulate the replay.
    pub fn judge(&self) -> Verdict {
        minotty_domain::judge(&self.replay, &self.stats, self.outcome)
    }
}

/// What storing a game did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    pub id: GameId,
    pub verdict: Verdict,
    /// The periods (of [`Period::ALL`]) in which the game is the player's new best.
    pub improved: Vec<Period>,
    /// The player's all-time rank in the mode after this game, when it is a new all-time best.
    /// Filled in by [`super::GameWriter`]; `None` from [`Store::insert_games`].
    pub rank: Option<u64>,
    /// What the replay quota ([`super::REPLAY_QUOTA`]) deleted as this game was stored, if
    /// anything.
    pub quota: Option<QuotaCut>,
}

/// What the replay quota did to a player's games as one of theirs was stored (`prune.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QuotaCut {
    /// Older games of the player deleted, oldest first, to bring their replays under it.
    pub removed: u32,
    /// This game was deleted too: the player's older games are all bests (kept).
    pub this_game: bool,
}

/// A stored game, read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub id: GameId,
    pub player: PlayerId,
    pub mode: ModeKind,
    pub ruleset: RulesetId,
    pub ruleset_version: u16,
    pub seed: u32,
    pub started_at: UnixMs,
    pub ended_at: UnixMs,
    /// `won`, `block_out`, `lock_out`, `top_out`, `limit`, `combo_broken`, `forfeit`,
    /// `input_limit` or `unfinished`.
    pub outcome: String,
    /// `ranked`, `unranked` or `rejected`, and why when not ranked.
    pub verdict: String,
    pub verdict_note: Option<String>,
    pub stats: Stats,
}

/// The columns of a game read back, as a literal so that every statement stays one constant
/// string (`concat!`), never SQL assembled at run time.
macro_rules! game_columns {
    () => {
        "id, player_id, mode, ruleset, ruleset_version, seed, started_at, ended_at, outcome, verdict, \
         verdict_note, time_ms, level, lines, pieces, score, garbage_cleared, max_combo, \
         max_b2b, singles, doubles, triples, tetrises, tspins, perfect_clears, attack, sent, \
         garbage_received"
    };
}

fn ruleset_text(id: RulesetId) -> &'static str {
    id.id()
}

impl Store {
    /// Stores `games` with their verdicts in one transaction, and updates the leaderboards for
    /// the ranked ones. The session path is [`super::GameWriter`], which judges each game
    /// first; calling this directly trusts the verdicts given (tests, benchmarks, imports).
    pub async fn insert_games<G: Borrow<FinishedGame>>(
        &self,
        games: &[(G, Verdict)],
    ) -> Result<Vec<StoredGame>, StoreError> {
        let mut tx = self.write_tx().await?;
        let mut stored = Vec::with_capacity(games.len());
        let mut sizes = Vec::with_capacity(games.len());
        for (game, verdict) in games {
            let (one, bytes) = insert_one(&mut tx, game.borrow(), verdict).await?;
            stored.push(one);
            sizes.push(bytes);
        }
        // Each player within the limit on stored games and the replay quota (`prune.rs`).
        let added = games.iter().zip(&stored).zip(&sizes);
        let added = added.map(|(((g, _), s), &bytes)| Added {
            player: g.borrow().player,
            id: s.id,
            bytes,
        });
        let cut = super::prune::after_insert(&mut tx, self.backend, added, self.game_limit).await?;
        tx.commit().await?;
        report_cuts(games, &mut stored, &cut);
        let removed: usize = cut.iter().map(|(_, ids)| ids.len()).sum();
        if removed > 0 {
            self.observer.games_over_quota(removed);
        }
        Ok(stored)
    }

    /// A stored game.
    pub async fn game(&self, id: GameId) -> Result<Option<GameRecord>, StoreError> {
        let row = sqlx::query(concat!(
            "SELECT ",
            game_columns!(),
            " FROM games WHERE id = $1"
        ))
        .bind(id.0)
        .fetch_optional(&self.reader)
        .await?;
        row.as_ref().map(record).transpose()
    }

    /// `player`'s latest games, newest first.
    pub async fn recent_games(
        &self,
        player: PlayerId,
        limit: u32,
    ) -> Result<Vec<GameRecord>, StoreError> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            game_columns!(),
            " FROM games WHERE player_id = $1 ORDER BY ended_at DESC, id DESC LIMIT $2"
        ))
        .bind(player.0)
        .bind(i64::from(limit))
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(record).collect()
    }

    /// A stored game's replay (the blob: whoever asks for it has been checked already, with
    /// [`Store::game`], which reads no blob).
    pub async fn replay(&self, id: GameId) -> Result<Option<Replay>, StoreError> {
        self.replay_reads
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let bytes: Option<Vec<u8>> = sqlx::query_scalar("SELECT replay FROM games WHERE id = $1")
            .bind(id.0)
            .fetch_optional(&self.reader)
            .await?;
        bytes
            .map(|b| Replay::from_bytes(&b))
            .transpose()
            .map_err(|e| StoreError::Corrupt(format!("replay of game {}: {e}", id.0)))
    }
}

/// Tells the games of each player the quota cut what happened: a game deleted hears so, and
/// the player's last game of the batch how many of their older games went.
fn report_cuts<G: Borrow<FinishedGame>>(
    games: &[(G, Verdict)],
    stored: &mut [StoredGame],
    cut: &OverQuota,
) {
    for (player, deleted) in cut {
        let (mut last, mut older) = (None, deleted.len());
        for (i, ((game, _), one)) in games.iter().zip(stored.iter_mut()).enumerate() {
            if game.borrow().player != *player {
                continue;
            }
            last = Some(i);
            let gone = deleted.contains(&one.id);
            older -= usize::from(gone);
            one.quota = gone.then_some(QuotaCut {
                removed: 0,
                this_game: true,
            });
        }
        if let Some(q) = last.and_then(|i| stored.get_mut(i)) {
            q.quota.get_or_insert_default().removed = u32::try_from(older).unwrap_or(u32::MAX);
        }
    }
}

/// Stores one game; returns it and its replay's size in bytes.
async fn insert_one(
    tx: &mut Transaction<'static, Any>,
    game: &FinishedGame,
    verdict: &Verdict,
) -> Result<(StoredGame, u64), StoreError> {
    let s = &game.stats;
    let replay = game.replay.to_bytes();
    let bytes = u64::try_from(replay.len()).unwrap_or(u64::MAX);
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO games (player_id, mode, ruleset, ruleset_version, seed, started_at, \
         ended_at, outcome, verdict, verdict_note, time_ms, level, lines, pieces, score, \
         garbage_cleared, max_combo, max_b2b, singles, doubles, triples, tetrises, tspins, \
         perfect_clears, attack, sent, garbage_received, replay) VALUES ($1, $2, $3, $4, $5, \
         $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, \
         $24, $25, $26, $27, $28) RETURNING id",
    )
    .bind(game.player.0)
    .bind(game.replay.mode.kind.id())
    .bind(ruleset_text(game.replay.ruleset))
    .bind(i64::from(game.replay.version))
    .bind(i64::from(game.replay.seed))
    .bind(game.started_at)
    .bind(game.ended_at)
    .bind(outcome_text(game.outcome))
    .bind(verdict.as_db())
    .bind(verdict.note())
    .bind(to_db(s.time))
    .bind(i64::from(s.level))
    .bind(i64::from(s.lines))
    .bind(i64::from(s.pieces))
    .bind(to_db(s.score))
    .bind(i64::from(s.garbage_cleared))
    .bind(i64::from(s.max_combo))
    .bind(i64::from(s.max_b2b))
    .bind(i64::from(s.singles))
    .bind(i64::from(s.doubles))
    .bind(i64::from(s.triples))
    .bind(i64::from(s.tetrises))
    .bind(i64::from(s.tspins))
    .bind(i64::from(s.perfect_clears))
    .bind(i64::from(s.attack))
    .bind(i64::from(s.sent))
    .bind(i64::from(s.garbage_received))
    .bind(replay)
    .fetch_one(&mut **tx)
    .await?;
    let mut improved = Vec::new();
    if let Verdict::Ranked { key } = verdict {
        // One statement for the three periods; RETURNING names the rows that were inserted or
        // replaced (an upsert whose WHERE fails returns nothing), i.e. the periods improved.
        let [all, month, day] = Period::ALL;
        let t = game.ended_at;
        let periods: Vec<String> = sqlx::query_scalar(
            "INSERT INTO leaderboard_best (mode, ruleset, period, period_start, player_id, \
             rank_key, bucket, achieved_at, game_id, time_ms, score, lines, pieces, max_combo) \
             VALUES \
             ($1, $18, $2, $3, $8, $9, $12, $10, $11, $13, $14, $15, $16, $17), \
             ($1, $18, $4, $5, $8, $9, $12, $10, $11, $13, $14, $15, $16, $17), \
             ($1, $18, $6, $7, $8, $9, $12, $10, $11, $13, $14, $15, $16, $17) \
             ON CONFLICT (mode, ruleset, period, period_start, player_id) DO UPDATE \
             SET rank_key = excluded.rank_key, bucket = excluded.bucket, \
             achieved_at = excluded.achieved_at, game_id = excluded.game_id, \
             time_ms = excluded.time_ms, score = excluded.score, lines = excluded.lines, \
             pieces = excluded.pieces, max_combo = excluded.max_combo \
             WHERE excluded.rank_key < leaderboard_best.rank_key \
             RETURNING period",
        )
        .bind(game.replay.mode.kind.id())
        .bind(all.as_db())
        .bind(all.start(t))
        .bind(month.as_db())
        .bind(month.start(t))
        .bind(day.as_db())
        .bind(day.start(t))
        .bind(game.player.0)
        .bind(*key)
        .bind(t)
        .bind(id)
        .bind(bucket_floor(game.replay.mode.kind, *key))
        .bind(to_db(s.time))
        .bind(to_db(s.score))
        .bind(i64::from(s.lines))
        .bind(i64::from(s.pieces))
        .bind(i64::from(s.max_combo))
        .bind(ruleset_text(game.replay.ruleset))
        .fetch_all(&mut **tx)
        .await?;
        improved.extend(
            Period::ALL
                .into_iter()
                .filter(|p| periods.iter().any(|r| r == p.as_db())),
        );
    }
    let stored = StoredGame {
        id: GameId(id),
        verdict: verdict.clone(),
        improved,
        rank: None,
        quota: None,
    };
    Ok((stored, bytes))
}

/// A games row's `mode` column.
pub(super) fn mode_of(row: &AnyRow) -> Result<ModeKind, StoreError> {
    let mode: String = row.try_get("mode")?;
    ModeKind::parse(&mode).ok_or_else(|| StoreError::Corrupt(format!("stored mode {mode:?}")))
}

/// A games row's `ruleset` column.
pub(super) fn ruleset_of(row: &AnyRow) -> Result<RulesetId, StoreError> {
    let ruleset: String = row.try_get("ruleset")?;
    RulesetId::parse(&ruleset)
        .ok_or_else(|| StoreError::Corrupt(format!("stored ruleset {ruleset:?}")))
}

fn record(row: &AnyRow) -> Result<GameRecord, StoreError> {
    let int = |name: &str| -> Result<i64, StoreError> { Ok(row.try_get::<i64, _>(name)?) };
    let stats = Stats {
        time: from_db(int("time_ms")?, "time_ms")?,
        level: from_db(int("level")?, "level")?,
        lines: from_db(int("lines")?, "lines")?,
        pieces: from_db(int("pieces")?, "pieces")?,
        score: from_db(int("score")?, "score")?,
        garbage_cleared: from_db(int("garbage_cleared")?, "garbage_cleared")?,
        max_combo: from_db(int("max_combo")?, "max_combo")?,
        max_b2b: from_db(int("max_b2b")?, "max_b2b")?,
        singles: from_db(int("singles")?, "singles")?,
        doubles: from_db(int("doubles")?, "doubles")?,
        triples: from_db(int("triples")?, "triples")?,
        tetrises: from_db(int("tetrises")?, "tetrises")?,
        tspins: from_db(int("tspins")?, "tspins")?,
        perfect_clears: from_db(int("perfect_clears")?, "perfect_clears")?,
        attack: from_db(int("attack")?, "attack")?,
        sent: from_db(int("sent")?, "sent")?,
        garbage_received: from_db(int("garbage_received")?, "garbage_received")?,
        // Not a column: the replay reproduces the pieces by type when they are wanted.
        by_piece: [0; 7],
    };
    Ok(GameRecord {
        id: GameId(int("id")?),
        player: PlayerId(int("player_id")?),
        mode: mode_of(row)?,
        ruleset: ruleset_of(row)?,
        ruleset_version: from_db(int("ruleset_version")?, "ruleset_version")?,
        seed: from_db(int("seed")?, "seed")?,
        started_at: int("started_at")?,
        ended_at: int("ended_at")?,
        outcome: row.try_get("outcome")?,
        verdict: row.try_get("verdict")?,
        verdict_note: row.try_get("verdict_note")?,
        stats,
    })
}
