//! Versus matches: every match with its players, placements and replays, and (ranked) the
//! rating changes, written in one transaction.
//!
//! A rating is read, updated and written in that one (`BEGIN IMMEDIATE`, so serialised)
//! transaction: when the stored rating is no longer the one the room started from (another
//! result of the account was stored meanwhile), the new rating is computed again from the
//! stored one, so no result ever overwrites another.

use minotty_domain::ranked::idle_grown;
use minotty_engine::rating::{DEFAULT_TAU, Outcome, Rating};
use minotty_engine::versus::MatchKind;
use sqlx::Row;

use super::{Backend, PlayerId, Store, StoreError, UnixMs, from_db, to_db};

/// A stored match's id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MatchId(pub i64);

/// A finished match, as the room hands it to the store (and the spool keeps it, `spool/`).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NewMatch {
    pub kind: MatchKind,
    /// A ranked quick match: every player with `rating_after` gets it stored.
    pub ranked: bool,
    pub room: String,
    pub seed: u32,
    pub started_at: UnixMs,
    pub ended_at: UnixMs,
    pub players: Vec<MatchPlayer>,
    /// The room's settings as JSON (`RoomSettings`' serde form), at most [`MAX_SETTINGS`]
    /// bytes (longer is stored as none); `None` from a room or a spool of an older version.
    #[serde(default)]
    pub settings: Option<String>,
}

/// The longest settings JSON a match stores (a room's whole settings are a few hundred bytes).
pub const MAX_SETTINGS: usize = 4096;

/// One seat of a match.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MatchPlayer {
    pub seat: u32,
    /// `None` for guests.
    pub player: Option<PlayerId>,
    pub name: String,
    /// 1 = winner.
    pub place: u32,
    pub kos: u32,
    pub forfeited: bool,
    pub lines: u32,
    pub pieces: u32,
    pub attack_sent: u32,
    pub garbage_received: u32,
    pub time_ms: u64,
    /// Ranked: the rating before and after.
    pub rating: Option<(Rating, Rating)>,
    /// `Replay::to_bytes()`, when the player's App sent it.
    pub replay: Option<Vec<u8>>,
    /// A server bot, not a person: which one (e.g. "level 3"). Its `player` is `None`.
    pub bot: Option<String>,
    /// The replay as the recorder found it when it re-simulated it: `verified`, or why not
    /// (`match_replays::ReplayCheck`); `None` when unchecked (stored before checks, or spooled
    /// by an older version).
    #[serde(default)]
    pub replay_check: Option<String>,
}

fn kind_db(kind: MatchKind) -> &'static str {
    match kind {
        MatchKind::Battle => "battle",
        MatchKind::Race => "race",
    }
}

impl Store {
    /// Stores a finished match and its players; for a ranked match also each player's new
    /// rating (games, wins and the time of the last match with it).
    pub async fn record_match(&self, m: &NewMatch) -> Result<MatchId, StoreError> {
        let mut tx = self.write_tx().await?;
        if m.ranked && self.backend == Backend::Postgres {
            // Another instance may store a match of the same players at once: lock their
            // accounts (in id order, so that two such matches wait instead of deadlocking)
            // until this transaction ends, so each reads the rating the other wrote. `FOR NO
            // KEY UPDATE` leaves games and keys that reference the account free to insert.
            // SQLite needs no lock: `BEGIN IMMEDIATE` already holds the whole database.
            let mut ids: Vec<i64> = m
                .players
                .iter()
                .filter_map(|p| p.player.map(|p| p.0))
                .collect();
            ids.sort_unstable();
            ids.dedup();
            for id in ids {
                sqlx::query("SELECT id FROM players WHERE id = $1 FOR NO KEY UPDATE")
                    .bind(id)
                    .fetch_optional(&mut *tx)
                    .await?;
            }
        }
        // Each seat's rating change, from the ratings stored now.
        let mut ratings: Vec<Option<(Rating, Rating)>> = Vec::with_capacity(m.players.len());
        for p in &m.players {
            let rating = match (m.ranked, p.player, p.rating) {
                (true, Some(player), Some((before, after))) => {
                    let stored: Option<(f64, f64, f64, i64)> = sqlx::query_as(
                        "SELECT rating, deviation, volatility, last_match_at FROM ratings \
                         WHERE player_id = $1",
                    )
                    .bind(player.0)
                    .fetch_optional(&mut *tx)
                    .await?;
                    // As the queue read it: grown by the weeks idle (`domain::ranked`).
                    let current = stored.map_or_else(Rating::default, |(r, d, v, at)| {
                        let r = Rating {
                            rating: r,
                            deviation: d,
                            volatility: v,
                        };
                        idle_grown(r, at, m.ended_at)
                    });
                    if current == before {
                        Some((before, after))
                    } else {
                        tracing::info!(
                            player = player.0,
                            "a rating changed since the match began: its update is recomputed"
                        );
                        Some((current, rerate(current, p, m)))
                    }
                }
                _ => p.rating,
            };
            ratings.push(rating);
        }
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO matches (kind, ranked, room, seed, started_at, ended_at, settings) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
        )
        .bind(kind_db(m.kind))
        .bind(i64::from(m.ranked))
        .bind(&m.room)
        .bind(i64::from(m.seed))
        .bind(m.started_at)
        .bind(m.ended_at)
        .bind(m.settings.as_deref().filter(|s| s.len() <= MAX_SETTINGS))
        .fetch_one(&mut *tx)
        .await?;
        for (p, rating) in m.players.iter().zip(ratings) {
            // An unrated seat leaves its ratings out rather than binding a NULL float: sqlx's
            // `Any` sends a NULL `f64` to PostgreSQL as a `real`, and the connection's cached
            // statement then refuses the next seat's `double` ("incorrect binary data format").
            let insert = if rating.is_some() {
                "INSERT INTO match_players (match_id, seat, player_id, name, place, kos, \
                 forfeited, lines, pieces, attack_sent, garbage_received, time_ms, \
                 replay, bot, replay_check, rating_before, rating_after) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, \
                 $17)"
            } else {
                "INSERT INTO match_players (match_id, seat, player_id, name, place, kos, \
                 forfeited, lines, pieces, attack_sent, garbage_received, time_ms, \
                 replay, bot, replay_check) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)"
            };
            let mut insert = sqlx::query(insert)
                .bind(id)
                .bind(i64::from(p.seat))
                .bind(p.player.map(|p| p.0))
                .bind(&p.name)
                .bind(i64::from(p.place))
                .bind(i64::from(p.kos))
                .bind(i64::from(p.forfeited))
                .bind(i64::from(p.lines))
                .bind(i64::from(p.pieces))
                .bind(i64::from(p.attack_sent))
                .bind(i64::from(p.garbage_received))
                .bind(to_db(p.time_ms))
                .bind(p.replay.as_deref())
                .bind(p.bot.as_deref())
                .bind(p.replay_check.as_deref());
            if let Some((before, after)) = rating {
                insert = insert.bind(before.rating).bind(after.rating);
            }
            insert.execute(&mut *tx).await?;
            if m.ranked
                && let (Some(player), Some((_, after))) = (p.player, rating)
            {
                sqlx::query(
                    "INSERT INTO ratings (player_id, rating, deviation, volatility, games, wins, \
                     last_match_at) VALUES ($1, $2, $3, $4, 1, $5, $6) \
                     ON CONFLICT (player_id) DO UPDATE SET rating = excluded.rating, \
                     deviation = excluded.deviation, volatility = excluded.volatility, \
                     games = ratings.games + 1, wins = ratings.wins + excluded.wins, \
                     last_match_at = excluded.last_match_at",
                )
                .bind(player.0)
                .bind(after.rating)
                .bind(after.deviation)
                .bind(after.volatility)
                .bind(i64::from(p.place == 1))
                .bind(m.ended_at)
                .execute(&mut *tx)
                .await?;
                super::seasons::rate_in_season(&mut tx, player, after, p.place == 1, m.ended_at)
                    .await?;
            }
        }
        tx.commit().await?;
        Ok(MatchId(id))
    }

    /// The seats of a stored match, in seat order (replays included).
    pub async fn match_players(&self, id: MatchId) -> Result<Vec<MatchPlayer>, StoreError> {
        let rows = sqlx::query(
            "SELECT seat, player_id, name, place, kos, forfeited, lines, pieces, attack_sent, \
             garbage_received, time_ms, rating_before, rating_after, replay, bot, replay_check \
             FROM match_players WHERE match_id = $1 ORDER BY seat",
        )
        .bind(id.0)
        .fetch_all(&self.reader)
        .await?;
        rows.iter()
            .map(|row| {
                let int = |name: &str| -> Result<i64, StoreError> { Ok(row.try_get(name)?) };
                let before: Option<f64> = row.try_get("rating_before")?;
                let after: Option<f64> = row.try_get("rating_after")?;
                let rating = before.zip(after).map(|(b, a)| {
                    (
                        Rating {
                            rating: b,
                            ..Rating::default()
                        },
                        Rating {
                            rating: a,
                            ..Rating::default()
                        },
                    )
                });
                Ok(MatchPlayer {
                    seat: from_db(int("seat")?, "seat")?,
                    player: row.try_get::<Option<i64>, _>("player_id")?.map(PlayerId),
                    name: row.try_get("name")?,
                    place: from_db(int("place")?, "place")?,
                    kos: from_db(int("kos")?, "kos")?,
                    forfeited: int("forfeited")? != 0,
                    lines: from_db(int("lines")?, "lines")?,
                    pieces: from_db(int("pieces")?, "pieces")?,
                    attack_sent: from_db(int("attack_sent")?, "attack")?,
                    garbage_received: from_db(int("garbage_received")?, "garbage")?,
                    time_ms: from_db(int("time_ms")?, "time")?,
                    rating,
                    replay: row.try_get("replay")?,
                    bot: row.try_get("bot")?,
                    replay_check: row.try_get("replay_check")?,
                })
            })
            .collect()
    }

    /// The ids of the player's most recent matches, newest first.
    pub async fn recent_matches(
        &self,
        player: PlayerId,
        limit: u32,
    ) -> Result<Vec<MatchId>, StoreError> {
        let ids: Vec<i64> = sqlx::query_scalar(
            "SELECT match_id FROM match_players WHERE player_id = $1 \
             ORDER BY match_id DESC LIMIT $2",
        )
        .bind(player.0)
        .bind(i64::from(limit))
        .fetch_all(&self.reader)
        .await?;
        Ok(ids.into_iter().map(MatchId).collect())
    }
}

/// `p`'s new rating from `current`, against the other rated players' ratings before the match
/// (a win against everyone placed after, a loss against everyone placed before).
fn rerate(current: Rating, p: &MatchPlayer, m: &NewMatch) -> Rating {
    let outcomes: Vec<Outcome> = m
        .players
        .iter()
        .filter(|q| q.seat != p.seat)
        .filter_map(|q| {
            let (before, _) = q.rating?;
            let score = match p.place.cmp(&q.place) {
                std::cmp::Ordering::Less => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Greater => 0.0,
            };
            Some(Outcome {
                opponent: before,
                score,
            })
        })
        .collect();
    current.update(&outcomes, DEFAULT_TAU)
}
