//! The per-session worker of the account services: carries out one request at a time, in
//! order, and answers on the session's response channel.

use std::sync::Arc;

use minotty_domain::{GameId, KeyFingerprint, PlayerId, PlayerName};
use minotty_protocol::{KeyView, SnapshotEntry};
use minotty_ui::stored_settings;
use minotty_ui::{Request, Response};
use tokio::sync::{mpsc, watch};

use super::{LiveKeys, error};
use crate::boards;
use crate::services::Who;
use minotty_domain::AccountRef;
use minotty_store::{
    KeyError, LinkError, NewKey, Password, PasswordChangeError, PuzzleError, RegisterError,
    SnapshotError, SnapshotId, Store, StoreError, unix_now,
};

/// The per-session task that carries out requests in order.
pub(super) struct Worker {
    pub(super) store: Store,
    pub(super) who: Who,
    pub(super) account: Arc<watch::Sender<Option<AccountRef>>>,
    pub(super) live: Arc<LiveKeys>,
}

impl Worker {
    pub(super) async fn run(self, mut rx: mpsc::Receiver<Request>, tx: mpsc::Sender<Response>) {
        while let Some(request) = rx.recv().await {
            let response = match self.answer(request).await {
                Ok(Some(response)) => response,
                Ok(None) => continue,
                Err(e) => {
                    tracing::warn!(error = %e, "an account request failed");
                    if e.is_unreachable() {
                        crate::metrics::note_dependency(
                            crate::metrics::Dependency::Database,
                            false,
                        );
                    }
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

    pub(super) fn current(&self) -> Option<AccountRef> {
        self.who.account.borrow().clone()
    }

    /// The key of this connection; `None` for guests.
    pub(super) fn key(&self) -> Option<NewKey> {
        match self.who.identity.clone() {
            crate::services::Identity::Key {
                fingerprint,
                algorithm,
            } => Some(NewKey {
                fingerprint,
                algorithm,
            }),
            crate::services::Identity::Web { .. } | crate::services::Identity::Guest => None,
        }
    }

    /// The answer to one request; `None` when there is nothing to say (settings saved).
    async fn answer(&self, request: Request) -> Result<Option<Response>, StoreError> {
        let now = unix_now();
        let needs_account = || {
            if self.who.identity.fingerprint().is_none() {
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
                    .register_from(&name, &key, self.who.peer.ip(), now)
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
                    .link_key(&name, &password, &key, self.who.peer.ip(), now)
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
                    .change_password(account.id, &current, &password, self.who.peer.ip(), now)
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
                    Err(minotty_store::SettingsError::Store(e)) => return Err(e),
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
                        let ended = self.live.revoke(&super::Holder::Key(key.clone()));
                        tracing::info!(player = account.id.0, key = %key, ended, "key removed");
                        Response::KeyRemoved { fingerprint }
                    }
                    Err(KeyError::Store(e)) => return Err(e),
                    Err(e) => Response::KeyFailed {
                        message: e.to_string(),
                    },
                }
            }
            Request::UnlinkBrowsers => {
                let Some(account) = self.current() else {
                    return Ok(Some(needs_account()));
                };
                let count = self.store.end_web_sessions(account.id).await?;
                // The games being played in them end too (on this instance).
                let ended = self.live.revoke(&super::Holder::Browsers(account.id));
                tracing::info!(player = account.id.0, count, ended, "browsers unlinked");
                Response::BrowsersUnlinked { count }
            }
            Request::Leaderboard {
                board,
                ruleset,
                period,
                offset,
            } => {
                let viewer = self.current().map(|a| a.id);
                Response::Leaderboard(
                    boards::ui_page(&self.store, board, ruleset, period, offset, viewer, now)
                        .await?,
                )
            }
            Request::Profile => {
                let Some(account) = self.current() else {
                    return Ok(Some(needs_account()));
                };
                Response::Profile(super::profile::profile(&self.store, account, now).await?)
            }
            Request::Bests => {
                let Some(account) = self.current() else {
                    return Ok(None);
                };
                Response::Bests(super::previous_best::all(&self.store, account.id, now).await?)
            }
            Request::PuzzleProgress => {
                let Some(account) = self.current() else {
                    // Guests and new keys: the App keeps its progress for the session.
                    return Ok(None);
                };
                let p = self.store.puzzle_progress(account.id).await?;
                Response::PuzzleProgress {
                    cleared: p.cleared,
                    completed: p.completed,
                }
            }
            Request::PuzzleCleared { stage } => {
                let Some(account) = self.current() else {
                    return Ok(None);
                };
                match self
                    .store
                    .record_puzzle_cleared(account.id, stage, now)
                    .await
                {
                    Ok(p) => Response::PuzzleProgress {
                        cleared: p.cleared,
                        completed: p.completed,
                    },
                    Err(PuzzleError::Store(e)) => return Err(e),
                    Err(e @ PuzzleError::NoSuchStage(_)) => {
                        tracing::warn!(error = %e, "puzzle progress not recorded");
                        return Ok(None);
                    }
                }
            }
            Request::Replay { game } => {
                let id = GameId(game);
                // Who may watch it is decided on the record (no blob read): a leaderboard game
                // by anyone, any other only by its player (as `replay ID --cast`).
                let Some(record) = self.store.game(id).await? else {
                    return Ok(Some(error("no such game")));
                };
                let mine = self.current().is_some_and(|a| a.id == record.player);
                if record.verdict != "ranked" && !mine {
                    return Ok(Some(error("no such game")));
                }
                let Some(replay) = self.store.replay(id).await? else {
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
            Request::Ghost(wanted) => self.ghost(wanted, now).await?,
            Request::MatchReplay { of } => {
                let caller = self.current().map(|a| a.id);
                match crate::match_replays::load(&self.store, &of, caller).await {
                    Ok(replay) => Response::MatchReplay {
                        of,
                        replay: Box::new(replay),
                    },
                    Err(crate::match_replays::Refused::Store(e)) => return Err(e),
                    Err(_) if matches!(of, minotty_protocol::MatchRef::Played { .. }) => {
                        error("the match is not stored yet; try again in a moment")
                    }
                    // Private or missing: the same answer (as a game's replay).
                    Err(_) => error("no such match"),
                }
            }
            Request::SaveSnapshot { label, snapshot } => {
                let Some(account) = self.current() else {
                    return Ok(Some(Response::SnapshotFailed {
                        message: "register a player name to store snapshots".into(),
                    }));
                };
                match self
                    .store
                    .save_snapshot(account.id, &label, &snapshot, now)
                    .await
                {
                    Ok((id, label)) => {
                        tracing::debug!(player = account.id.0, snapshot = id.0, "snapshot saved");
                        Response::SnapshotSaved { label }
                    }
                    Err(SnapshotError::Store(e)) => return Err(e),
                    Err(e @ SnapshotError::TooLarge(_)) => Response::SnapshotFailed {
                        message: e.to_string(),
                    },
                }
            }
            Request::ListSnapshots => {
                let Some(account) = self.current() else {
                    return Ok(Some(Response::Snapshots(Vec::new())));
                };
                Response::Snapshots(self.snapshots(account.id).await?)
            }
            Request::DeleteSnapshot { id } => {
                let Some(account) = self.current() else {
                    return Ok(Some(Response::Snapshots(Vec::new())));
                };
                self.store
                    .delete_snapshot(account.id, SnapshotId(id))
                    .await?;
                Response::Snapshots(self.snapshots(account.id).await?)
            }
            Request::RetryAccount => self.retry_account().await,
            other => {
                tracing::debug!(?other, "not an account request");
                return Ok(None);
            }
        }))
    }

    /// Tells the versus side (and later requests) who this session is now.
    pub(super) fn sign_in(&self, id: PlayerId, name: &PlayerName) {
        self.account.send_replace(Some(AccountRef {
            id,
            name: name.to_string(),
        }));
    }

    async fn snapshots(&self, player: PlayerId) -> Result<Vec<SnapshotEntry>, StoreError> {
        Ok(self
            .store
            .snapshots(player)
            .await?
            .into_iter()
            .map(|s| SnapshotEntry {
                id: s.id.0,
                label: s.label,
                mode: s.mode,
                created_at: s.created_at,
                snapshot: Box::new(s.snapshot),
            })
            .collect())
    }

    async fn keys(&self, player: PlayerId) -> Result<Vec<KeyView>, StoreError> {
        let in_use = self.who.identity.fingerprint();
        Ok(self
            .store
            .keys(player)
            .await?
            .into_iter()
            .map(|k| KeyView {
                in_use: Some(&k.fingerprint) == in_use,
                fingerprint: k.fingerprint.to_string(),
                algorithm: k.algorithm,
                added_at: k.added_at,
                last_used_at: Some(k.last_used_at),
            })
            .collect())
    }
}
