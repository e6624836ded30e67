//! Accounts, settings, leaderboards, profile and replays for one session, over the store.
//!
//! Requests are carried out in order by one worker task per session (`worker.rs`, started at
//! the first request), never on the session's own task: the session only queues them and later
//! gets the answers on its response channel. Finished games go to the [`GameWriter`]; the
//! answer (`GameRecorded`) comes back the same way.
//!
//! Removing a key ends the live sessions that logged in with it: each session registers its
//! key in [`LiveKeys`] and its loop selects on [`AccountClient::revoked`].
//!
//! Snapshots (Ctrl+S): a registered player's go to the store (at most
//! [`MAX_SNAPSHOTS`], saving another replaces the oldest); a guest's, a new key's and those
//! on a server without a database are kept by the session, bounded the same way, and gone
//! when it ends. Saving has its own budget per session ([`SNAPSHOT_BURST`],
//! [`SNAPSHOTS_PER_MINUTE`]) on top of the request budget; a save past it is refused with
//! `SnapshotFailed`.

mod game_rate;
mod ghost;
mod live;
mod previous_best;
pub mod profile;
mod recent_matches;
mod recorded;
mod retry;
mod worker;

use std::sync::Arc;
use std::time::Duration;

use minotty_domain::{KeyFingerprint, MAX_SNAPSHOTS, snapshot_label};
use minotty_protocol::{Identity, SnapshotEntry};
use minotty_ui::Settings;
use minotty_ui::stored_settings;
use minotty_ui::{Request, Response};
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

pub use game_rate::{GAMES_BURST, GAMES_PER_MINUTE, GameRate, NOT_STORED};
pub use live::{Holder, LiveKeys};
use recorded::recorded;
use worker::Worker;

use super::Who;
use crate::metrics::{Dependency, note_dependency};
use minotty_domain::AccountRef;
use minotty_store::{
    Account, FinishedGame, GameWriter, MAX_SNAPSHOT_BYTES, Store, StoreError, unix_now,
};

/// Requests one session may have waiting for its worker; more are refused with a message.
const QUEUE: usize = 32;

/// Requests one session may make in a burst, and per second after it: every request is
/// database work (pages, profiles, replays), and a person pages a few times a second.
pub const REQUESTS_BURST: u64 = 30;
pub const REQUESTS_PER_SEC: u64 = 10;

/// Snapshots one session may save in a burst, and per minute after it.
pub const SNAPSHOT_BURST: u32 = 5;
pub const SNAPSHOTS_PER_MINUTE: u32 = 12;
/// What a save past the budget is told.
pub const SNAPSHOT_SLOW_DOWN: &str = "too many snapshots at once: wait a few seconds";

/// Password changes and links (each one or two argon2 hashes) one session may ask for in a
/// burst, and per minute after it. The store bounds them per account and per address too
/// (`minotty_store::HashLimits`), and hashes run on two threads of their own.
pub const PASSWORD_BURST: u32 = 5;
pub const PASSWORDS_PER_MINUTE: u32 = 2;
/// What a password change or link past the session's budget is told.
pub const PASSWORD_SLOW_DOWN: &str = "too many password attempts in this session: wait a minute";

/// How long a session start (and a retry of an account that could not be reached) waits for
/// the player's account details and settings.
const START_TIMEOUT: Duration = Duration::from_secs(3);

/// How long authentication waits for the account of a key (a read; it never waits for the
/// database writer). Past it the player starts as a guest for now, and the session's
/// [`AccountClient::start`] looks again.
pub const LOOKUP_TIMEOUT: Duration = Duration::from_secs(2);

/// Shared by every session: the store, the game writer (none without a database) and the
/// live sessions of each key.
#[derive(Clone, Debug, Default)]
pub struct SharedAccounts {
    store: Option<Store>,
    writer: Option<GameWriter>,
    live: Arc<LiveKeys>,
    /// Games stored per account a minute ([`GameRate`]).
    game_rate: Arc<std::sync::Mutex<GameRate>>,
    /// The exec commands' budgets per address (the commands read this store).
    pub commands: Arc<crate::command_budget::CommandBudgets>,
    /// Where the sessions' account workers and game submissions run: the server's tracker
    /// ([`SharedAccounts::with_tasks`]), so that shutdown waits for them.
    tasks: TaskTracker,
}

/// What looking up a key's account found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyLookup {
    Registered(AccountRef),
    /// No account has this key (or there is no database).
    Unknown,
    /// The database did not answer in time or failed (logged): unknown for now.
    Unavailable,
}

impl SharedAccounts {
    pub fn new(store: Option<Store>, writer: Option<GameWriter>) -> SharedAccounts {
        SharedAccounts {
            store,
            writer,
            live: Arc::default(),
            game_rate: Arc::default(),
            commands: Arc::default(),
            tasks: TaskTracker::new(),
        }
    }

    /// Runs the sessions' account tasks on `tasks` (the server's tracker). A worker ends when
    /// its session's client is dropped (its queue closes); a game submission when the writer
    /// has answered it.
    #[must_use]
    pub fn with_tasks(mut self, tasks: TaskTracker) -> SharedAccounts {
        self.tasks = tasks;
        self
    }

    /// The store, when the server has a database.
    pub fn store(&self) -> Option<&Store> {
        self.store.as_ref()
    }

    /// The live sessions of each key and linked browser.
    pub fn live_keys(&self) -> &Arc<LiveKeys> {
        &self.live
    }

    /// The account of the key `fingerprint`, read within [`LOOKUP_TIMEOUT`] on a read
    /// connection (never the writer): once per connection, when authentication succeeds.
    pub async fn account_by_key(&self, key: &KeyFingerprint) -> KeyLookup {
        let Some(store) = &self.store else {
            return KeyLookup::Unknown;
        };
        match tokio::time::timeout(LOOKUP_TIMEOUT, store.account_by_key(key, unix_now())).await {
            Ok(Ok(Some(account))) => KeyLookup::Registered(account_ref(&account)),
            Ok(Ok(None)) => KeyLookup::Unknown,
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "looking up the account of a key; unreachable for now");
                if e.is_unreachable() {
                    note_dependency(Dependency::Database, false);
                }
                KeyLookup::Unavailable
            }
            Err(_) => {
                tracing::warn!("looking up the account of a key timed out; unreachable for now");
                note_dependency(Dependency::Database, false);
                KeyLookup::Unavailable
            }
        }
    }
}

/// What the server says at start when registrations from loopback go unlimited for every
/// player: the store does not count loopback addresses against `REGISTRATIONS_PER_DAY` (tests
/// and the load tool connect from there), so a relay on the same host that does not send
/// PROXY headers (`--proxy-protocol-from`) makes every player a loopback client. `None` when
/// the listener cannot be reached from loopback (a specific other address) or a trusted proxy
/// is configured.
pub fn loopback_registration_warning(
    listen: std::net::SocketAddr,
    trusted_proxies: bool,
) -> Option<&'static str> {
    let ip = listen.ip().to_canonical();
    let from_loopback = ip.is_loopback() || ip.is_unspecified();
    (from_loopback && !trusted_proxies).then_some(
        "new accounts from loopback are not limited per address: a relay on this host that \
         sends no PROXY header makes every player a loopback client (configure it as \
         --proxy-protocol-from, or listen on another address)",
    )
}

fn account_ref(account: &Account) -> AccountRef {
    AccountRef {
        id: account.id,
        name: account.name.to_string(),
    }
}

/// One session's side.
#[derive(Debug)]
pub struct AccountClient {
    who: Who,
    /// The name offered to a new key on the welcome screen (the SSH user name, unmarked).
    suggested: String,
    shared: SharedAccounts,
    /// This session in [`LiveKeys`] (sessions with a key) and its revocation token.
    live: Option<u64>,
    revoked: CancellationToken,
    /// Set when the key registers or links to an account during the session.
    account: Arc<watch::Sender<Option<AccountRef>>>,
    tx: mpsc::Sender<Response>,
    /// The worker's queue, once started.
    worker: Option<mpsc::Sender<Request>>,
    /// The session's request budget ([`REQUESTS_BURST`], [`REQUESTS_PER_SEC`]), over the
    /// milliseconds since `born`; `refusing` is set once the player was told to slow down.
    budget: crate::budget::TokenBucket,
    born: std::time::Instant,
    refusing: bool,
    /// The budget of snapshot saves ([`SNAPSHOT_BURST`], [`SNAPSHOTS_PER_MINUTE`]).
    snapshot_budget: crate::budget::TokenBucket,
    /// The budget of password changes and links ([`PASSWORD_BURST`], [`PASSWORDS_PER_MINUTE`]).
    password_budget: crate::budget::TokenBucket,
    /// The snapshots of a session without an account (or without a database), newest
    /// first, at most [`MAX_SNAPSHOTS`]; and the id of the next one.
    session_snapshots: std::collections::VecDeque<SnapshotEntry>,
    next_snapshot: i64,
}

impl AccountClient {
    pub fn new(
        shared: &SharedAccounts,
        who: Who,
        suggested: String,
        account: watch::Sender<Option<AccountRef>>,
        tx: mpsc::Sender<Response>,
    ) -> AccountClient {
        let (live, revoked) = match who.identity.holder() {
            Some(holder) => {
                let (id, token) = shared.live.enter(&holder);
                (Some(id), token)
            }
            None => (None, CancellationToken::new()),
        };
        AccountClient {
            who,
            suggested,
            live,
            revoked,
            shared: shared.clone(),
            account: Arc::new(account),
            tx,
            worker: None,
            budget: crate::budget::TokenBucket::new(REQUESTS_BURST, REQUESTS_PER_SEC, 0),
            born: std::time::Instant::now(),
            refusing: false,
            snapshot_budget: crate::budget::TokenBucket::per_minute(
                SNAPSHOT_BURST,
                SNAPSHOTS_PER_MINUTE,
                0,
            ),
            password_budget: crate::budget::TokenBucket::per_minute(
                PASSWORD_BURST,
                PASSWORDS_PER_MINUTE,
                0,
            ),
            session_snapshots: std::collections::VecDeque::new(),
            next_snapshot: 1,
        }
    }

    /// Queues `request` for the worker; never waits. Past the session's request budget a
    /// request is refused (the player is told once per run of refusals).
    pub fn handle(&mut self, request: Request) {
        let now = u64::try_from(self.born.elapsed().as_millis()).unwrap_or(u64::MAX);
        let snapshots = matches!(
            request,
            Request::SaveSnapshot { .. } | Request::ListSnapshots | Request::DeleteSnapshot { .. }
        );
        if snapshots && !self.uses_store() {
            if self.within_budget(now) {
                self.session_snapshot(request, now);
            }
            return;
        }
        let Some(store) = self.shared.store.clone() else {
            reply_now(&self.tx, error("this server has no database"));
            return;
        };
        if !self.within_budget(now) {
            return;
        }
        if let Request::SaveSnapshot { snapshot, .. } = &request
            && let Some(refusal) = self.refuse_save(snapshot, now)
        {
            reply_now(&self.tx, refusal);
            return;
        }
        if let Some(refusal) = self.refuse_password_work(&request, now) {
            reply_now(&self.tx, refusal);
            return;
        }
        let worker = self.worker.get_or_insert_with(|| {
            let (tx, rx) = mpsc::channel(QUEUE);
            let worker = Worker {
                store,
                who: self.who.clone(),
                account: self.account.clone(),
                live: self.shared.live.clone(),
            };
            self.shared.tasks.spawn(worker.run(rx, self.tx.clone()));
            tx
        });
        if worker.try_send(request).is_err() {
            reply_now(&self.tx, error("too many requests at once; try again"));
        }
    }

    /// Takes a token of the session's request budget; past it the player is told once per
    /// run of refusals.
    fn within_budget(&mut self, now: u64) -> bool {
        if !self.budget.try_take(now) {
            if !std::mem::replace(&mut self.refusing, true) {
                reply_now(&self.tx, error("too many requests: slow down a little"));
            }
            return false;
        }
        self.refusing = false;
        true
    }

    /// Whether this session's snapshots live in the store (a registered player on a server
    /// with a database) rather than in the session.
    fn uses_store(&self) -> bool {
        self.shared.store.is_some() && self.current().is_some()
    }

    /// Why a save is refused, if it is: past the save budget, or larger than a stored
    /// snapshot may be.
    fn refuse_save(&mut self, snapshot: &minotty_engine::Snapshot, now: u64) -> Option<Response> {
        if !self.snapshot_budget.try_take(now) {
            return Some(Response::SnapshotFailed {
                message: SNAPSHOT_SLOW_DOWN.to_owned(),
            });
        }
        let len = snapshot.to_bytes().len();
        (len > MAX_SNAPSHOT_BYTES).then(|| Response::SnapshotFailed {
            message: format!("the snapshot is too large ({len} bytes)"),
        })
    }

    /// Why a request that hashes a password (a change, a link) is refused, if it is: past the
    /// session's password budget.
    fn refuse_password_work(&mut self, request: &Request, now: u64) -> Option<Response> {
        let message = PASSWORD_SLOW_DOWN.to_owned();
        let refusal = match request {
            Request::SetPassword { .. } => Response::PasswordFailed { message },
            Request::LinkKey { .. } => Response::LinkFailed { message },
            _ => return None,
        };
        (!self.password_budget.try_take(now)).then_some(refusal)
    }

    /// A snapshot request of a session whose snapshots it keeps itself (guests, new keys, a
    /// server without a database): answered at once, bounded like the store's.
    fn session_snapshot(&mut self, request: Request, now: u64) {
        let response = match request {
            Request::SaveSnapshot { label, snapshot } => {
                if let Some(refusal) = self.refuse_save(&snapshot, now) {
                    reply_now(&self.tx, refusal);
                    return;
                }
                let label = snapshot_label(&label);
                let entry = SnapshotEntry {
                    id: self.next_snapshot,
                    label: label.clone(),
                    mode: snapshot.mode(),
                    created_at: unix_now(),
                    snapshot,
                };
                self.next_snapshot += 1;
                self.session_snapshots.push_front(entry);
                self.session_snapshots.truncate(MAX_SNAPSHOTS);
                Response::SnapshotSaved { label }
            }
            Request::DeleteSnapshot { id } => {
                self.session_snapshots.retain(|e| e.id != id);
                Response::Snapshots(self.session_snapshots.iter().cloned().collect())
            }
            _ => Response::Snapshots(self.session_snapshots.iter().cloned().collect()),
        };
        reply_now(&self.tx, response);
    }

    /// The snapshots this session keeps itself (see [`AccountClient::handle`]).
    pub fn session_snapshots(&self) -> usize {
        self.session_snapshots.len()
    }

    /// Stores `settings` for the session's registered player at once, waiting at most
    /// `within`: at the end of a session whose player changed settings without leaving the
    /// settings screen. `false` (and logged) when they could not be stored; guests and keys
    /// without an account have nothing to store.
    pub async fn save_settings_now(&self, settings: &Settings, within: Duration) -> bool {
        let (Some(store), Some(account)) = (&self.shared.store, self.current()) else {
            return false;
        };
        let json = stored_settings::to_json(settings);
        match tokio::time::timeout(within, store.save_settings(account.id, &json, unix_now())).await
        {
            Ok(Ok(())) => {
                tracing::debug!(
                    player = account.id.0,
                    "settings stored at the session's end"
                );
                true
            }
            Ok(Err(e)) => {
                tracing::warn!(error = %e, player = account.id.0, "settings not stored at the session's end");
                false
            }
            Err(_) => {
                tracing::warn!(
                    player = account.id.0,
                    "storing settings at the session's end took too long"
                );
                false
            }
        }
    }

    /// The registered account of this session, if any.
    pub fn current(&self) -> Option<AccountRef> {
        self.who.account.borrow().clone()
    }

    /// Cancelled when the key this session logged in with is removed from its account (by
    /// the player from another session): the session loop ends the session then. Never
    /// cancelled for guests.
    pub fn revoked(&self) -> CancellationToken {
        self.revoked.clone()
    }

    /// Whether this session is a linked browser's ([`AccountClient::revoked`] then means its
    /// browsers were unlinked).
    pub fn is_browser(&self) -> bool {
        matches!(self.who.identity.holder(), Some(Holder::Browsers(_)))
    }

    /// Who the player is and their stored settings, for the start of a session. Waits for the
    /// database (bounded): call it once, before the session's loop.
    ///
    /// The key's account is read again here (the same one read as before, now by key): so a
    /// key removed since authentication is a new key, and a login whose look-up timed out
    /// (a guest for now) gets its account after all.
    pub async fn start(&self) -> (Identity, Option<Settings>) {
        let Some(store) = &self.shared.store else {
            return (Identity::Guest, None);
        };
        if !self.who.identity.is_known() {
            return (Identity::Guest, None);
        }
        let load = async {
            let account = match &self.who.identity {
                crate::services::Identity::Key { fingerprint, .. } => {
                    store.account_by_key(fingerprint, unix_now()).await?
                }
                crate::services::Identity::Web { account } => store.account(*account).await?,
                crate::services::Identity::Guest => None,
            };
            let Some(account) = account else {
                return Ok::<_, StoreError>(None);
            };
            let settings = store.settings(account.id).await?;
            Ok(Some((account, settings)))
        };
        let found = match tokio::time::timeout(START_TIMEOUT, load).await {
            Ok(Ok(found)) => found,
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "loading the player's account and settings");
                if e.is_unreachable() {
                    note_dependency(Dependency::Database, false);
                }
                return self.start_unavailable();
            }
            Err(_) => {
                tracing::warn!("loading the player's account and settings timed out");
                note_dependency(Dependency::Database, false);
                return self.start_unavailable();
            }
        };
        let Some((account, settings)) = found else {
            if self.current().is_some() {
                tracing::info!("the key was removed from its account before the session began");
                self.account.send_replace(None);
            }
            if self.who.identity.fingerprint().is_none() {
                // A browser linked to an account that is gone plays as a guest.
                return (Identity::Guest, None);
            }
            let suggested = self.suggested.clone();
            return (Identity::NewKey { suggested }, None);
        };
        self.account.send_replace(Some(account_ref(&account)));
        let identity = Identity::Registered {
            name: account.name.to_string(),
            has_password: account.has_password,
        };
        (
            identity,
            settings.as_deref().and_then(stored_settings::from_json),
        )
    }

    /// The database did not answer at the start: the account found at authentication, if
    /// any, without settings; otherwise the account cannot be reached right now (never a new
    /// key, which would offer to register a key that may belong to an account): the player
    /// waits for it or plays as a guest for now, and asks again with
    /// [`Request::RetryAccount`]. Without a key, a guest.
    fn start_unavailable(&self) -> (Identity, Option<Settings>) {
        match self.current() {
            Some(account) => (
                Identity::Registered {
                    name: account.name,
                    has_password: false,
                },
                None,
            ),
            None if self.who.identity.is_known() => (
                Identity::Unreachable {
                    suggested: self.suggested.clone(),
                },
                None,
            ),
            None => (Identity::Guest, None),
        }
    }

    /// Hands a finished solo game of the session's registered player to the game writer,
    /// without waiting; `GameRecorded` (or an error) arrives on the response channel later.
    /// Games of guests and unregistered keys are not stored.
    pub fn submit_game(&self, game: minotty_ui::FinishedGame, ended_at: i64) {
        let (Some(writer), Some(account)) = (&self.shared.writer, self.current()) else {
            return;
        };
        // Past the account's rate, only a game that could rank is stored (and told so).
        let may_rank =
            minotty_domain::eligible(&game.replay, &game.stats, Some((game.reason, game.won)))
                .is_ok();
        let now = u64::try_from(unix_now()).unwrap_or(0);
        let admitted = self
            .shared
            .game_rate
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .admit(account.id, may_rank, now);
        if !admitted {
            tracing::info!(
                player = account.id.0,
                "a game was not stored: over the rate"
            );
            reply_now(&self.tx, error(NOT_STORED));
            return;
        }
        // Game time leaves out the countdown and pauses: the start is approximate.
        let duration = i64::try_from(game.stats.time).unwrap_or(i64::MAX);
        let finished = FinishedGame {
            player: account.id,
            replay: game.replay,
            stats: game.stats,
            outcome: Some((game.reason, game.won)),
            started_at: ended_at.saturating_sub(duration),
            ended_at,
        };
        let tx = self.tx.clone();
        let store = self.shared.store.clone();
        let writer = writer.clone();
        let (mode, stats) = (finished.replay.mode.kind, finished.stats);
        let board = previous_best::board_of(&finished.replay);
        self.shared.tasks.spawn(async move {
            // The best this game faced, read before the writer may store it: for the results'
            // "was 0:42.908  -1.234". A failed read only leaves the context out.
            let before = match (&store, board) {
                (Some(store), Some(board)) => {
                    let read = previous_best::read(store, board, finished.player, ended_at);
                    match tokio::time::timeout(previous_best::READ_TIMEOUT, read).await {
                        Ok(Ok(entry)) => entry,
                        _ => None,
                    }
                }
                _ => None,
            };
            let reply = writer.submit(finished);
            let response = match reply.await {
                Ok(result) => {
                    let context = before.map(|b| previous_best::context(mode, &b, &stats));
                    recorded(result, context)
                }
                Err(_) => error("the game writer stopped before storing your game"),
            };
            let _ = tx.send(response).await;
        });
    }
}

impl Drop for AccountClient {
    /// The session ended: it no longer listens for its key's removal.
    fn drop(&mut self) {
        if let (Some(id), Some(holder)) = (self.live, self.who.identity.holder()) {
            self.shared.live.leave(&holder, id);
        }
    }
}

fn error(message: &str) -> Response {
    Response::Error {
        message: message.to_owned(),
    }
}

/// Sends an answer without waiting: a session whose queue is full or gone misses it.
fn reply_now(tx: &mpsc::Sender<Response>, response: Response) {
    if tx.try_send(response).is_err() {
        tracing::debug!("a response was dropped: the session's queue is full or gone");
    }
}

#[cfg(test)]
mod tests;
