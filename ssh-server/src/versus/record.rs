//! The background writer of finished matches: rooms hand their records over without waiting
//! for the database. A busy database is retried a few times ([`Retries::MATCHES`]: 5
//! attempts, 50 ms to 3.2 s apart, 4.25 s in all; each also waits for a connection while the
//! database is down, at once refused when its port is closed).
//!
//! A record is never lost silently: one the database does not take goes to the spool
//! (`spool/`, stored later), and at shutdown [`Recorder::finish`] stops the retries and spools
//! each match it could not write. Only a match the spool cannot take either (or any, without a
//! spool) is logged as an error, whole: the spool's JSON of it, every player with their
//! place, figures, ratings and replay.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Notify;
use tokio::task::JoinHandle;

use super::lock;
use minotty_domain::{MatchRules, SeatClaims, judge_seat, judge_seat_under};
use minotty_engine::versus::{MatchKind, RoomSettings};
use minotty_store::spool::{Fallback, Record, Retries, Spool, format};
use minotty_store::{NewMatch, Store};

/// The queue of matches to write and its writing task.
#[derive(Debug)]
pub(super) struct Recorder {
    shared: Arc<Shared>,
    task: JoinHandle<usize>,
}

#[derive(Debug, Default)]
struct Shared {
    state: Mutex<State>,
    wake: Notify,
    fallback: Fallback,
}

#[derive(Debug, Default)]
struct State {
    queued: VecDeque<NewMatch>,
    /// The match being written now.
    writing: Option<NewMatch>,
    /// No more matches are taken; the task ends once the queue is empty.
    closing: bool,
}

impl Recorder {
    /// Starts the writing task; what it gives up on goes to `spool` (or the log, without).
    pub(super) fn spawn(store: Store, spool: Option<Spool>) -> Recorder {
        let shared = Arc::new(Shared {
            fallback: Fallback::to(spool),
            ..Shared::default()
        });
        let task = tokio::spawn(run(store, Arc::clone(&shared)));
        Recorder { shared, task }
    }

    /// Queues `m` to be written; after [`Recorder::finish`] began it is logged as not stored.
    pub(super) fn record(&self, m: NewMatch) {
        let mut state = lock(&self.shared.state);
        if state.closing {
            drop(state);
            keep(
                self.shared.fallback.spool.as_ref(),
                &m,
                "the server is shutting down",
            );
            return;
        }
        state.queued.push_back(m);
        crate::metrics::match_recorder_queued(1);
        drop(state);
        self.shared.wake.notify_one();
    }

    /// Matches queued or being written.
    #[cfg(test)]
    pub(super) fn pending(&self) -> usize {
        let state = lock(&self.shared.state);
        state.queued.len() + usize::from(state.writing.is_some())
    }

    /// Shutdown: takes no more matches, stops retrying, and waits up to `patience` for the
    /// queued ones to be written or spooled. Each match still unwritten then is spooled (or
    /// logged as an error). Returns how many were not written.
    pub(super) async fn finish(self, patience: Duration) -> usize {
        let Recorder { shared, mut task } = self;
        lock(&shared.state).closing = true;
        shared.fallback.stop.cancel();
        shared.wake.notify_one();
        if let Ok(Ok(given_up)) = tokio::time::timeout(patience, &mut task).await {
            if given_up > 0 {
                tracing::warn!(
                    matches = given_up,
                    spool = %shared.fallback.dir(),
                    "the match recorder stopped; the matches the database did not take are in the spool"
                );
            }
            return given_up;
        }
        task.abort();
        let mut state = lock(&shared.state);
        let unwritten: Vec<NewMatch> = state
            .writing
            .take()
            .into_iter()
            .chain(state.queued.drain(..))
            .collect();
        drop(state);
        crate::metrics::match_recorder_queued(-i64::try_from(unwritten.len()).unwrap_or(0));
        for m in &unwritten {
            keep(
                shared.fallback.spool.as_ref(),
                m,
                "the match recorder did not finish before shutdown",
            );
        }
        unwritten.len()
    }
}

/// Logs a match that will not be stored, whole (`record`: the spool's JSON of it), enough to
/// store it again by hand.
pub(super) fn lost(m: &NewMatch, why: &str) {
    let players: Vec<&str> = m.players.iter().map(|p| p.name.as_str()).collect();
    let record = format::body_text(&Record::Match(m.clone()));
    tracing::error!(
        room = %m.room,
        ranked = m.ranked,
        seed = m.seed,
        started_at = m.started_at,
        ended_at = m.ended_at,
        ?players,
        why,
        %record,
        "A MATCH WAS NOT STORED"
    );
}

/// Spools a match that was not stored, or logs it as lost when there is no spool or it is
/// full (blocks on the disk: a rare path, taken once per match).
pub(super) fn keep(spool: Option<&Spool>, m: &NewMatch, why: &str) {
    let Some(spool) = spool else {
        lost(m, why);
        return;
    };
    match spool.put(&Record::Match(m.clone())) {
        Ok(path) => tracing::warn!(
            room = %m.room,
            ranked = m.ranked,
            file = %path.display(),
            why,
            "a match was not stored: spooled, to be stored later"
        ),
        Err(e) => lost(m, &format!("{why}; not spooled either: {e}")),
    }
}

/// Writes what is queued until closed; returns how many matches it gave up on.
async fn run(store: Store, shared: Arc<Shared>) -> usize {
    let mut given_up = 0;
    loop {
        let next = {
            let mut state = lock(&shared.state);
            match state.queued.pop_front() {
                Some(m) => {
                    state.writing = Some(m.clone());
                    Some(m)
                }
                None if state.closing => return given_up,
                None => None,
            }
        };
        match next {
            Some(m) => {
                let m = checked(m).await;
                if let Err(why) = write(&store, &m, &shared.fallback).await {
                    given_up += 1;
                    let spool = shared.fallback.spool.clone();
                    let m = m.clone();
                    let kept =
                        tokio::task::spawn_blocking(move || keep(spool.as_ref(), &m, &why)).await;
                    if let Err(e) = kept {
                        tracing::error!(error = %e, "spooling a match");
                    }
                }
                lock(&shared.state).writing = None;
                crate::metrics::match_recorder_queued(-1);
            }
            // A notification sent before this wait is kept as a permit: none is missed.
            None => shared.wake.notified().await,
        }
    }
}

/// `m` with each seat's replay judged (`minotty_domain::seat_judge`: decoded, bounded and
/// re-simulated, as solo games are judged) on the blocking pool, off every room's task: at
/// most a match's seats (a room's 8), each at most `MAX_INPUTS` inputs. A seat already
/// checked is kept as it is; when the blocking pool fails, the seats stay unchecked.
pub(super) async fn checked(mut m: NewMatch) -> NewMatch {
    if m.players.iter().all(|p| p.replay_check.is_some()) {
        return m;
    }
    // A copy goes to the blocking pool: the match keeps its seats whatever happens there.
    let seats = m.players.clone();
    let (seed, battle) = (m.seed, m.kind == MatchKind::Battle);
    // The room's settings (its own JSON, read back through their clamped serde form): every
    // seat's replay must have run under them.
    let rules = m
        .settings
        .as_deref()
        .and_then(|json| serde_json::from_str::<RoomSettings>(json).ok())
        .map(|s| MatchRules::of(&s));
    let judged = tokio::task::spawn_blocking(move || {
        let mut seats = seats;
        for p in seats.iter_mut().filter(|p| p.replay_check.is_none()) {
            let claims = SeatClaims {
                seed,
                lines: p.lines,
                routed_attack: if battle { p.attack_sent } else { 0 },
            };
            let check = match &rules {
                Some(rules) => judge_seat_under(p.replay.as_deref(), claims, rules),
                None => judge_seat(p.replay.as_deref(), claims),
            };
            p.replay_check = check.as_db();
        }
        seats
    });
    match judged.await {
        Ok(seats) => m.players = seats,
        Err(e) => tracing::error!(error = %e, room = %m.room, "checking a match's replays"),
    }
    m
}

/// Stores `m`, retrying a transient failure (not once shutdown began); why not, if not.
async fn write(store: &Store, m: &NewMatch, fallback: &Fallback) -> Result<(), String> {
    let mut waits = Retries::MATCHES.waits();
    let mut attempt = 0;
    loop {
        attempt += 1;
        let stored = fallback
            .bounded(crate::metrics::match_write_timed(store.record_match(m)))
            .await;
        match stored {
            Some(Ok(id)) => {
                tracing::info!(id = id.0, room = %m.room, ranked = m.ranked, "match stored");
                return Ok(());
            }
            Some(Err(e)) if e.is_transient() && !fallback.stopping() => match waits.next() {
                Some(wait) => {
                    tracing::warn!(error = %e, attempt, "storing a match; trying again");
                    fallback.backoff(wait).await;
                }
                None => {
                    tracing::error!(error = %e, attempts = attempt, "storing a match failed");
                    return Err(format!("the database did not take it: {e}"));
                }
            },
            Some(Err(e)) => {
                tracing::error!(error = %e, "storing a match failed");
                return Err(format!("the database did not take it: {e}"));
            }
            None => return Err("the server is stopping and the database did not answer".into()),
        }
    }
}
