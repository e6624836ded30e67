//! Accounts, settings, leaderboards, profile and replays for one session, over the store.
//!
//! Requests are carried out in order by one worker task per session (started at the first
//! request), never on the session's own task: the session only queues them and later gets the
//! answers on its response channel. Finished games go to the [`GameWriter`]; the answer
//! (`GameRecorded`) comes back the same way.
//!
//! Removing a key ends the live sessions that logged in with it: each session registers its
//! key in [`LiveKeys`] and its loop selects on [`AccountClient::revoked`].

mod live;

use std::sync::Arc;
use std::time::Duration;

use minotty_engine::ModeKind;
use minotty_ui::Settings;
use minotty_ui::online::{
    GameRecorded, Identity, KeyView, Profile, ProfileBest, RecentGame, Request, Response,
};
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;

pub use live::LiveKeys;

use super::{AccountRef, Who};
use crate::boards::{self, Figures};
use crate::store::{
    Account, FinishedGame, GameId, GameRecord, GameWriter, KeyError, KeyFingerprint, LinkError,
    NewKey, Password, PasswordChangeError, Period, PlayerId, PlayerName, RegisterError, Store,
    StoreError, StoredGame, Verdict, WriteResult, ranked_modes, unix_now,
};
use crate::stored_settings;

/// Requests one session may have waiting for its worker; more are refused with a message.
const QUEUE: usize = 32;

/// Recent games shown on the profile.
const RECENT_GAMES: u32 = 10;

/// How long a session start waits for the player's account details and settings.
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
        }
    }

    /// The store, when the server has a database.
    pub fn store(&self) -> Option<&Store> {
        self.store.as_ref()
    }

    /// The live sessions of each key.
    pub fn live_keys(&self) -> &LiveKeys {
        &self.live
    }

    /// The account of the key `fingerprint`, read within [`LOOKUP_TIMEOUT`] on a read
    /// connection (never the writer): once per connection, when authentication succeeds.
    pub async fn account_by_key(&self, fingerprint: &str) -> KeyLookup {
        let (Some(store), Some(key)) = (&self.store, KeyFingerprint::parse(fingerprint)) else {
            return KeyLookup::Unknown;
        };
        match tokio::time::timeout(LOOKUP_TIMEOUT, store.account_by_key(&key, unix_now())).await {
            Ok(Ok(Some(account))) => KeyLookup::Registered(account_ref(&account)),
            Ok(Ok(None)) => KeyLookup::Unknown,
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "looking up the account of a key; a guest for now");
                KeyLookup::Unavailable
            }
            Err(_) => {
                tracing::warn!("looking up the account of a key timed out; a guest for now");
                KeyLookup::Unavailable
            }
        }
    }
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
}

impl AccountClient {
    pub fn new(
        shared: &SharedAccounts,
        who: Who,
        suggested: String,
        account: watch::Sender<Option<AccountRef>>,
        tx: mpsc::Sender<Response>,
    ) -> AccountClient {
        let (live, revoked) = match &who.fingerprint {
            Some(fp) => {
                let (id, token) = shared.live.enter(fp);
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
        }
    }

    /// Queues `request` for the worker; never waits.
    pub fn handle(&mut self, request: Request) {
        let Some(store) = self.shared.store.clone() else {
            reply_now(&self.tx, error("this server has no database"));
            return;
        };
        let worker = self.worker.get_or_insert_with(|| {
            let (tx, rx) = mpsc::channel(QUEUE);
            let worker = Worker {
                store,
                who: self.who.clone(),
                account: self.account.clone(),
                live: self.shared.live.clone(),
            };
            tokio::spawn(worker.run(rx, self.tx.clone()));
            tx
        });
        if worker.try_send(request).is_err() {
            reply_now(&self.tx, error("too many requests at once; try again"));
        }
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

    /// Who the player is and their stored settings, for the start of a session. Waits for the
    /// database (bounded): call it once, before the session's loop.
    ///
    /// The key's account is read again here (the same one read as before, now by key): so a
    /// key removed since authentication is a new key, and a login whose look-up timed out
    /// (a guest for now) gets its account after all.
    pub async fn start(&self) -> (Identity, Option<Settings>) {
        let fingerprint = self.who.fingerprint.as_deref();
        let (Some(store), Some(key)) = (&self.shared.store, fingerprint) else {
            return (Identity::Guest, None);
        };
        let Some(key) = KeyFingerprint::parse(key) else {
            return (Identity::Guest, None);
        };
        let load = async {
            let Some(account) = store.account_by_key(&key, unix_now()).await? else {
                return Ok::<_, StoreError>(None);
            };
            let settings = store.settings(account.id).await?;
            Ok(Some((account, settings)))
        };
        let found = match tokio::time::timeout(START_TIMEOUT, load).await {
            Ok(Ok(found)) => found,
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "loading the player's account and settings");
                return self.start_unavailable();
            }
            Err(_) => {
                tracing::warn!("loading the player's account and settings timed out");
                return self.start_unavailable();
            }
        };
        let Some((account, settings)) = found else {
            if self.current().is_some() {
                tracing::info!("the key was removed from its account before the session began");
                self.account.send_replace(None);
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
    /// any, without settings; otherwise a guest for this session (never a new key, which
    /// would offer to register a key that may belong to an account).
    fn start_unavailable(&self) -> (Identity, Option<Settings>) {
        match self.current() {
            Some(account) => (
                Identity::Registered {
                    name: account.name,
                    has_password: false,
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
        let reply = writer.submit(finished);
        let tx = self.tx.clone();
        tokio::spawn(async move {
            let response = match reply.await {
                Ok(result) => recorded(result),
                Err(_) => error("the game writer stopped before storing your game"),
            };
            let _ = tx.send(response).await;
        });
    }
}

impl Drop for AccountClient {
    /// The session ended: it no longer listens for its key's removal.
    fn drop(&mut self) {
        if let (Some(id), Some(fp)) = (self.live, &self.who.fingerprint) {
            self.shared.live.leave(fp, id);
        }
    }
}

/// What the results screen is told about a stored game.
fn recorded(result: WriteResult) -> Response {
    match result {
        Ok(StoredGame {
            id,
            verdict,
            improved,
            rank,
        }) => {
            let note = match verdict {
                Verdict::Ranked { .. } => None,
                Verdict::Unranked(why) => Some(format!("not ranked: {why}")),
                Verdict::Rejected(_) => Some("not ranked: the replay did not check out".into()),
            };
            Response::GameRecorded(GameRecorded {
                game: id.0,
                personal_best: improved.contains(&Period::AllTime),
                rank,
                note,
            })
        }
        Err(e) => {
            tracing::warn!(error = %e, "a finished game was not stored");
            error("your game could not be stored")
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

/// The per-session task that carries out requests in order.
struct Worker {
    store: Store,
    who: Who,
    account: Arc<watch::Sender<Option<AccountRef>>>,
    live: Arc<LiveKeys>,
}

impl Worker {
    async fn run(self, mut rx: mpsc::Receiver<Request>, tx: mpsc::Sender<Response>) {
        while let Some(request) = rx.recv().await {
            let response = match self.answer(request).await {
                Ok(Some(response)) => response,
                Ok(None) => continue,
                Err(e) => {
                    tracing::warn!(error = %e, "an account request failed");
                    let message = if matches!(e, StoreError::Busy) {
                        "the server is busy; try again in a moment"
                    } else if e.is_transient() {
                        "the database is busy; try again"
                    } else {
                        "something went wrong on the server"
                    };
                    error(message)
                }
            };
            if tx.send(response).await.is_err() {
                return;
            }
        }
    }

    fn current(&self) -> Option<AccountRef> {
        self.who.account.borrow().clone()
    }

    /// The key of this connection; `None` for guests.
    fn key(&self) -> Option<NewKey> {
        let fingerprint = KeyFingerprint::parse(self.who.fingerprint.as_deref()?)?;
        Some(NewKey {
            fingerprint,
            algorithm: self.who.key_algorithm.clone().unwrap_or_default(),
        })
    }

    /// The answer to one request; `None` when there is nothing to say (settings saved).
    async fn answer(&self, request: Request) -> Result<Option<Response>, StoreError> {
        let now = unix_now();
        let needs_account = || {
            if self.who.fingerprint.is_none() {
                error("guests have no account: connect with an SSH key to get one")
            } else {
                error("register a player name first")
            }
        };
        Ok(Some(match request {
            Request::Register { name } => {
                let Some(key) = self.key() else {
                    return Ok(Some(needs_account()));
                };
                if self.current().is_some() {
                    return Ok(Some(Response::RegisterFailed {
                        message: "this key already belongs to an account".into(),
                    }));
                }
                let name = match PlayerName::parse(&name) {
                    Ok(name) => name,
                    Err(e) => {
                        return Ok(Some(Response::RegisterFailed {
                            message: e.to_string(),
                        }));
                    }
                };
                match self
                    .store
                    .register_from(&name, &key, self.who.peer, now)
                    .await
                {
                    Ok(account) => {
                        tracing::info!(player = account.id.0, name = %account.name, "registered");
                        self.sign_in(account.id, &account.name);
                        Response::SignedIn {
                            name: account.name.to_string(),
                            has_password: false,
                            settings: None,
                        }
                    }
                    Err(
                        e @ (RegisterError::NameTaken
                        | RegisterError::KeyTaken
                        | RegisterError::TooMany),
                    ) => Response::RegisterFailed {
                        message: e.to_string(),
                    },
                    Err(RegisterError::Store(e)) => return Err(e),
                }
            }
            Request::LinkKey { name, password } => {
                let Some(key) = self.key() else {
                    return Ok(Some(needs_account()));
                };
                if self.current().is_some() {
                    return Ok(Some(Response::LinkFailed {
                        message: "this key already belongs to an account".into(),
                    }));
                }
                let Ok(name) = PlayerName::parse(&name) else {
                    return Ok(Some(Response::LinkFailed {
                        message: LinkError::WrongCredentials.to_string(),
                    }));
                };
                match self
                    .store
                    .link_key(&name, &password, &key, self.who.peer, now)
                    .await
                {
                    Ok(account) => {
                        self.sign_in(account.id, &account.name);
                        // The key is linked whatever happens next: settings that cannot be
                        // read now are the defaults for this session.
                        let settings = match self.store.settings(account.id).await {
                            Ok(json) => json.as_deref().and_then(stored_settings::from_json),
                            Err(e) => {
                                tracing::warn!(error = %e, "reading the settings of a linked key");
                                None
                            }
                        };
                        Response::SignedIn {
                            name: account.name.to_string(),
                            has_password: account.has_password,
                            settings: settings.map(Box::new),
                        }
                    }
                    Err(LinkError::Store(e)) => return Err(e),
                    Err(e) => Response::LinkFailed {
                        message: e.to_string(),
                    },
                }
            }
            Request::SetPassword { password, current } => {
                let Some(account) = self.current() else {
                    return Ok(Some(needs_account()));
                };
                let password = match Password::parse(&password) {
                    Ok(password) => password,
                    Err(e) => {
                        return Ok(Some(Response::PasswordFailed {
                            message: e.to_string(),
                        }));
                    }
                };
                let current = current.unwrap_or_default();
                match self
                    .store
                    .change_password(account.id, &current, &password, self.who.peer, now)
                    .await
                {
                    Ok(()) => {
                        tracing::info!(player = account.id.0, "password set");
                        Response::PasswordSet
                    }
                    Err(PasswordChangeError::Store(e)) => return Err(e),
                    Err(e) => Response::PasswordFailed {
                        message: e.to_string(),
                    },
                }
            }
            Request::SaveSettings(settings) => {
                let Some(account) = self.current() else {
                    // Guests and new keys keep their settings for the session only.
                    return Ok(None);
                };
                let json = stored_settings::to_json(&settings);
                match self.store.save_settings(account.id, &json, now).await {
                    Ok(()) => return Ok(None),
                    Err(crate::store::SettingsError::Store(e)) => return Err(e),
                    Err(e) => {
                        tracing::warn!(error = %e, "settings not saved");
                        error("your settings could not be saved")
                    }
                }
            }
            Request::ListKeys => {
                let Some(account) = self.current() else {
                    return Ok(Some(needs_account()));
                };
                Response::Keys(self.keys(account.id).await?)
            }
            Request::RemoveKey { fingerprint } => {
                let (Some(account), Some(in_use)) = (self.current(), self.key()) else {
                    return Ok(Some(needs_account()));
                };
                let Some(key) = KeyFingerprint::parse(&fingerprint) else {
                    return Ok(Some(Response::KeyFailed {
                        message: KeyError::NotFound.to_string(),
                    }));
                };
                match self
                    .store
                    .remove_key(account.id, &key, &in_use.fingerprint)
                    .await
                {
                    Ok(()) => {
                        let ended = self.live.revoke(key.as_str());
                        tracing::info!(player = account.id.0, key = %key, ended, "key removed");
                        Response::KeyRemoved { fingerprint }
                    }
                    Err(KeyError::Store(e)) => return Err(e),
                    Err(e) => Response::KeyFailed {
                        message: e.to_string(),
                    },
                }
            }
            Request::Leaderboard {
                board,
                period,
                offset,
            } => {
                let viewer = self.current().map(|a| a.id);
                Response::Leaderboard(
                    boards::ui_page(&self.store, board, period, offset, viewer, now).await?,
                )
            }
            Request::Profile => {
                let Some(account) = self.current() else {
                    return Ok(Some(needs_account()));
                };
                Response::Profile(self.profile(account, now).await?)
            }
            Request::Replay { game } => {
                let id = GameId(game);
                let (Some(record), Some(replay)) =
                    (self.store.game(id).await?, self.store.replay(id).await?)
                else {
                    return Ok(Some(error("no such game")));
                };
                let player = self
                    .store
                    .account(record.player)
                    .await?
                    .map_or_else(|| "?".to_owned(), |a| a.name.to_string());
                Response::Replay {
                    game,
                    player,
                    replay: Box::new(replay),
                }
            }
            other => {
                tracing::debug!(?other, "not an account request");
                return Ok(None);
            }
        }))
    }

    /// Tells the versus side (and later requests) who this session is now.
    fn sign_in(&self, id: PlayerId, name: &PlayerName) {
        self.account.send_replace(Some(AccountRef {
            id,
            name: name.to_string(),
        }));
    }

    async fn keys(&self, player: PlayerId) -> Result<Vec<KeyView>, StoreError> {
        let in_use = self.who.fingerprint.as_deref();
        Ok(self
            .store
            .keys(player)
            .await?
            .into_iter()
            .map(|k| KeyView {
                in_use: Some(k.fingerprint.as_str()) == in_use,
                fingerprint: k.fingerprint.to_string(),
                algorithm: k.algorithm,
                added_at: k.added_at,
                last_used_at: Some(k.last_used_at),
            })
            .collect())
    }

    async fn profile(&self, account: AccountRef, now: i64) -> Result<Profile, StoreError> {
        let mut bests = Vec::new();
        for mode in ranked_modes() {
            let entry = self
                .store
                .rank_of(mode, Period::AllTime, now, account.id)
                .await?;
            bests.push(ProfileBest {
                mode,
                best: entry
                    .as_ref()
                    .map(|e| boards::result(mode, Figures::from(e))),
                rank: entry.as_ref().map(|e| e.rank),
                game: entry.as_ref().map(|e| e.game.0),
            });
        }
        let recent = self
            .store
            .recent_games(account.id, RECENT_GAMES)
            .await?
            .iter()
            .map(recent_game)
            .collect();
        let rating = self
            .store
            .rating_rank_of(account.id, Period::AllTime, now)
            .await?
            .map(|r| (r.rating, r.deviation, r.games));
        Ok(Profile {
            name: account.name,
            bests,
            recent,
            rating,
        })
    }
}

fn recent_game(g: &GameRecord) -> RecentGame {
    let outcome = match g.outcome.as_str() {
        "won" => "finished",
        "limit" => "finished",
        "top_out" | "block_out" | "lock_out" => "topped out",
        "combo_broken" => "combo broken",
        "forfeit" => "gave up",
        _ => "unfinished",
    };
    let result = match g.mode {
        ModeKind::Marathon | ModeKind::Ultra => {
            format!("{} pts", boards::result(g.mode, Figures::from(&g.stats)))
        }
        mode => boards::result(mode, Figures::from(&g.stats)),
    };
    RecentGame {
        game: g.id.0,
        mode: g.mode,
        ended_at: g.ended_at,
        result,
        outcome: outcome.to_owned(),
    }
}
