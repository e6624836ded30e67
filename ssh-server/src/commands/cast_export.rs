//! `replay ID --cast`, run: who may export the game is checked on its record (no blob read),
//! then the replay is read and filmed (`cast.rs`) on tokio's blocking pool while the text is
//! streamed to the client.
//!
//! Who may export what: a ranked game (one that entered a leaderboard, so anyone can already
//! watch it there) by anyone; any other stored game only by its player (connected with a key
//! of the account). Everything else is refused with one line and exit status 1, before the
//! replay's blob is read.
//!
//! Bounds: at most [`MAX_EXPORTS`] exports at once on the server (more are refused: "busy"),
//! at most [`EXPORTS_PER_ADDRESS`] of them for one client address (`shares.rs`), so that a
//! client whose channels never read cannot hold every export while others wait; one per
//! connection and a budget per address (`command_budget.rs`, checked by the handler).
//! The film is cut into chunks of about [`CHUNK_BYTES`], at most [`CHUNKS_IN_FLIGHT`] of them
//! queued between the drawing thread and the channel: the drawing waits while the client reads
//! slowly (`Handle::data` waits for the SSH window), so memory per export stays at a few chunks
//! whatever the cast's length. When the channel closes (the client left) the export's token is
//! cancelled: the queue is dropped and the drawing stops at its next chunk.

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock};

use minotty_domain::{ClientAddr, GameId, PlayerId};
use minotty_ui::sanitize;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::exec::Outcome;
use crate::cast::{CastArgs, MAX_BYTES, film, film_match};
use crate::command_budget::Refused;
use crate::shares::{Full, Shares};

use minotty_store::Store;

/// Exports running at once on the server.
pub const MAX_EXPORTS: usize = 2;
/// Exports one client address runs at once: fewer than [`MAX_EXPORTS`], so another address
/// always finds one free.
pub const EXPORTS_PER_ADDRESS: usize = 1;
/// A chunk of cast text is sent once it holds this many bytes (or the film ends).
pub const CHUNK_BYTES: usize = 32 * 1024;
/// Chunks drawn and not yet sent, at most.
pub const CHUNKS_IN_FLIGHT: usize = 4;

static EXPORTS: LazyLock<Shares> = LazyLock::new(|| Shares::new(MAX_EXPORTS, EXPORTS_PER_ADDRESS));

/// How an export cuts and queues its text (tests use small chunks).
#[derive(Clone, Copy, Debug)]
pub struct Tuning {
    pub chunk_bytes: usize,
    pub in_flight: usize,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            chunk_bytes: CHUNK_BYTES,
            in_flight: CHUNKS_IN_FLIGHT,
        }
    }
}

/// What an export did once it streamed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Exported {
    /// Frames drawn (whether or not they were sent).
    pub frames: u64,
    /// Bytes the client was sent.
    pub sent: u64,
    /// The most bytes drawn and not yet sent at any moment: the export's buffer.
    pub max_buffered: u64,
    /// The export stopped before the end: cancelled (the channel closed) or a write failed.
    pub cancelled: bool,
}

/// Bytes drawn and not yet sent, and the most there ever were.
#[derive(Debug, Default)]
struct Gauge {
    now: AtomicU64,
    max: AtomicU64,
}

impl Gauge {
    fn add(&self, n: u64) {
        let now = self.now.fetch_add(n, Ordering::Relaxed) + n;
        self.max.fetch_max(now, Ordering::Relaxed);
    }

    fn sub(&self, n: u64) {
        self.now.fetch_sub(n, Ordering::Relaxed);
    }
}

/// Who asks for an export: the account of the connection's key, if any, and the budget an
/// allowed export spends (the address's, `command_budget.rs`) before its replay is read.
pub struct Requester<B: FnOnce() -> Result<(), Refused>> {
    pub caller: Option<PlayerId>,
    /// The client's address, whose share of the exports it takes.
    pub address: ClientAddr,
    pub budget: B,
}

impl<B: FnOnce() -> Result<(), Refused>> std::fmt::Debug for Requester<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Requester")
            .field("caller", &self.caller)
            .field("address", &self.address)
            .finish_non_exhaustive()
    }
}

/// Runs `replay ARGS`: `a` is what the words after `replay` asked for (`parse.rs`). The cast goes to `write` chunk by
/// chunk (each awaited: false when the client is gone) until `cancel`; `Err` is the answer when
/// nothing was written (refused, not found, unplayable, over budget).
pub async fn export<B, W, F>(
    a: CastArgs,
    store: Option<&Store>,
    requester: Requester<B>,
    cancel: CancellationToken,
    tuning: Tuning,
    mut write: W,
) -> Result<Exported, Outcome>
where
    B: FnOnce() -> Result<(), Refused>,
    W: FnMut(Vec<u8>) -> F,
    F: Future<Output = bool>,
{
    let Some(store) = store else {
        return Err(Outcome::fail("this server has no database".into()));
    };
    let address = requester.address.key();
    let source = if a.of_match {
        authorized_match(store, a, requester).await?
    } else {
        authorized(store, a, requester).await?
    };
    let permit = match EXPORTS.take(Some(address)) {
        Ok(permit) => permit,
        Err(Full::Pool) => {
            return Err(Outcome::fail(
                "the server is busy exporting other replays; try again soon".into(),
            ));
        }
        Err(Full::Address) => {
            return Err(Outcome::fail(format!(
                "your address runs {EXPORTS_PER_ADDRESS} replay export(s) already: wait for \
                 it to finish"
            )));
        }
    };
    let (tx, mut rx) = mpsc::channel::<Vec<u8>>(tuning.in_flight.max(1));
    let gauge = Arc::new(Gauge::default());
    let drawn = Arc::clone(&gauge);
    let chunk_bytes = tuning.chunk_bytes.max(1);
    let job = tokio::task::spawn_blocking(move || {
        let mut chunk = String::new();
        let send = |chunk: &mut String| {
            let data = std::mem::take(chunk).into_bytes();
            let n = data.len() as u64;
            drawn.add(n);
            // Waits while the queue is full; fails once the sender side is gone.
            let sent = tx.blocking_send(data).is_ok();
            if !sent {
                drawn.sub(n);
            }
            sent
        };
        let mut emit = |line: String| {
            chunk.push_str(&line);
            chunk.len() < chunk_bytes || send(&mut chunk)
        };
        let size = (a.cols, a.rows);
        let filmed = match source {
            Source::Game {
                replay,
                name,
                timestamp,
            } => film(
                *replay, &name, a.game, size, timestamp, MAX_BYTES, &mut emit,
            ),
            Source::Match { replay, timestamp } => {
                Ok(film_match(&replay, size, timestamp, MAX_BYTES, &mut emit))
            }
        };
        let ok = filmed.as_ref().is_ok_and(|f| !f.stopped);
        if ok && !chunk.is_empty() {
            send(&mut chunk);
        }
        drop(permit);
        filmed
    });
    let mut sent = 0u64;
    let cancelled = loop {
        let chunk = tokio::select! {
            () = cancel.cancelled() => None,
            chunk = rx.recv() => chunk,
        };
        let Some(chunk) = chunk else {
            break cancel.is_cancelled();
        };
        let n = chunk.len() as u64;
        let written = tokio::select! {
            () = cancel.cancelled() => false,
            ok = write(chunk) => ok,
        };
        gauge.sub(n);
        if !written {
            break true;
        }
        sent += n;
    };
    // The drawing stops at its next chunk once the queue is gone.
    drop(rx);
    let filmed = match job.await {
        Ok(Ok(filmed)) => filmed,
        Ok(Err(e)) => {
            return Err(Outcome::fail(format!(
                "the replay of game {} cannot be played: {e}",
                a.game
            )));
        }
        Err(e) => {
            tracing::error!(error = %e, game = a.game, "replay export failed");
            return Err(Outcome::fail("the export failed".into()));
        }
    };
    Ok(Exported {
        frames: filmed.frames,
        sent,
        max_buffered: gauge.max.load(Ordering::Relaxed),
        cancelled: cancelled || filmed.stopped,
    })
}

/// What an export films, once allowed.
enum Source {
    Game {
        replay: Box<minotty_engine::Replay>,
        name: String,
        timestamp: i64,
    },
    Match {
        replay: Box<minotty_protocol::MatchReplay>,
        timestamp: i64,
    },
}

/// `replay mN --cast`: who may export the match is who may watch it
/// (`crate::match_replays`: a ranked match anyone, another only its players), checked before
/// the budget is spent and the replays read.
async fn authorized_match<B: FnOnce() -> Result<(), Refused>>(
    store: &Store,
    a: CastArgs,
    requester: Requester<B>,
) -> Result<Source, Outcome> {
    use crate::match_replays::{Refused as No, load};
    let failed = |e: minotty_store::StoreError| {
        tracing::warn!(error = %e, id = a.game, "replay command (match)");
        Outcome::fail("the match could not be read; try again".into())
    };
    let id = minotty_store::MatchId(a.game);
    let Some(record) = store.match_record(id).await.map_err(failed)? else {
        return Err(not_found(a.game));
    };
    let seated = requester
        .caller
        .is_some_and(|c| record.players.contains(&c));
    if !record.ranked && !seated {
        return Err(private(a.game));
    }
    (requester.budget)().map_err(|refused| Outcome::fail(refused.message()))?;
    let of = minotty_protocol::MatchRef::Id(a.game);
    match load(store, &of, requester.caller).await {
        Ok(replay) => Ok(Source::Match {
            timestamp: replay.ended_at / 1000,
            replay: Box::new(replay),
        }),
        Err(No::NotFound) => Err(not_found(a.game)),
        Err(No::Private) => Err(private(a.game)),
        Err(No::Store(e)) => Err(failed(e)),
    }
}

fn not_found(id: i64) -> Outcome {
    Outcome::fail(format!("no match m{id} on this server"))
}

fn private(id: i64) -> Outcome {
    Outcome::fail(format!(
        "match m{id} was not ranked: only its players can watch it (connect with their key)"
    ))
}

/// The game's record is read first (no blob) and who may export it checked, then the
/// requester's budget spent; only then its replay and its player's name are read.
async fn authorized<B: FnOnce() -> Result<(), Refused>>(
    store: &Store,
    a: CastArgs,
    requester: Requester<B>,
) -> Result<Source, Outcome> {
    let caller = requester.caller;
    let id = GameId(a.game);
    let failed = |e: minotty_store::StoreError| {
        tracing::warn!(error = %e, game = a.game, "replay command");
        Outcome::fail("the game could not be read; try again".into())
    };
    let Some(record) = store.game(id).await.map_err(failed)? else {
        return Err(Outcome::fail(format!("no game {} on this server", a.game)));
    };
    if record.verdict != "ranked" && caller != Some(record.player) {
        return Err(Outcome::fail(format!(
            "game {} is not on a leaderboard: only its player can export it (connect with \
             their key)",
            a.game
        )));
    }
    (requester.budget)().map_err(|refused| Outcome::fail(refused.message()))?;
    let Some(replay) = store.replay(id).await.map_err(failed)? else {
        return Err(Outcome::fail(format!("no game {} on this server", a.game)));
    };
    let player = store.account(record.player).await.map_err(failed)?;
    let name = player.map_or_else(|| "?".to_owned(), |p| sanitize(p.name.as_str()));
    Ok(Source::Game {
        replay: Box::new(replay),
        name,
        timestamp: record.ended_at / 1000,
    })
}

#[cfg(test)]
#[path = "cast_export_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "match_export_tests.rs"]
mod match_tests;
