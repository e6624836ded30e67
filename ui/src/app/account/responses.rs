//! The account screens' answers: accounts, leaderboards, the profile, replays and what the
//! server said about storing a game. The account changes its own state; what concerns the
//! player (who they are, their settings) goes back to the App as a [`Taken`].

use super::{AccountState, OFFLINE, Sub};
use crate::Response;
use crate::screens::account_form::{Load, clean};
use crate::screens::account_replay::ReplayScreen;
use crate::screens::results::OnlineNote;
use crate::text::sanitize;
use minotty_protocol::{GameRecorded, Identity};

/// What the account needs to know of the rest of the App to take an answer.
#[derive(Clone, Copy, Debug)]
pub(in crate::app) struct Ctx {
    /// The account screens show.
    pub here: bool,
    /// The game screen or the results show.
    pub results_shown: bool,
    /// The player's games are stored (a registered player, a save file).
    pub keeps_records: bool,
    /// The solo game shown is over.
    pub game_over: bool,
    /// The App's game number (tells one game's answer from the next's).
    pub games: u64,
}

/// Whether an answer was the account's, and what the App is to carry out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::app) enum Taken {
    No,
    Yes,
    /// The player signed in (the App takes their name, identity and settings); `welcome`: from
    /// the welcome or unreachable screen, which close (the menu shows).
    SignedIn {
        welcome: bool,
    },
    /// The player's password is set (the App notes it in the identity).
    PasswordSet,
}

impl AccountState {
    /// What the results screen says about storing the game shown (`games`: the App's game
    /// number, `identity`: who the player is).
    pub(in crate::app) fn results_note(&self, identity: &Identity, games: u64) -> OnlineNote<'_> {
        match (identity, &self.recorded) {
            (Identity::Guest, _) => OnlineNote::Guest,
            (Identity::Unreachable { .. }, _) => OnlineNote::Unreachable,
            (Identity::Registered { .. } | Identity::Local { .. }, Some((n, rec)))
                if *n == games =>
            {
                OnlineNote::Recorded(rec)
            }
            _ => OnlineNote::None,
        }
    }

    /// Whether the game just played shows (or is about to) and the server has not yet said
    /// whether it stored it.
    fn results_waiting(&self, ctx: &Ctx) -> bool {
        ctx.results_shown
            && ctx.keeps_records
            && ctx.game_over
            && self.recorded.as_ref().is_none_or(|(n, _)| *n != ctx.games)
    }

    /// Takes an account, leaderboard, profile or replay response (whether or not it changed
    /// anything on screen). `Offline` and `Error` are taken only when an account screen is
    /// waiting for an answer.
    pub(in crate::app) fn on_response(
        &mut self,
        response: &Response,
        now: u64,
        ctx: &Ctx,
    ) -> Taken {
        let here = ctx.here;
        let waiting = self.results_waiting(ctx);
        let sub = if here { self.sub.as_mut() } else { None };
        match response {
            Response::Offline | Response::Error { .. } => {
                let message = match response {
                    Response::Error { message } => Some(clean(message)),
                    _ => None,
                };
                let fail = |load: &mut Load| {
                    *load = match &message {
                        Some(m) => Load::Failed(m.clone()),
                        None => Load::Offline,
                    }
                };
                let text = message.clone().unwrap_or_else(|| OFFLINE.to_string());
                if !here {
                    // E.g. "your game could not be stored", while its results show.
                    return match message {
                        Some(m) if waiting => {
                            let rec = GameRecorded {
                                game: 0,
                                personal_best: false,
                                rank: None,
                                note: Some(m),
                                previous_best: None,
                            };
                            self.recorded = Some((ctx.games, rec));
                            Taken::Yes
                        }
                        _ => Taken::No,
                    };
                }
                match sub {
                    Some(Sub::Board(b)) if self.waiting_replay.is_some() => {
                        b.note = Some(text);
                    }
                    Some(Sub::Profile(p)) if self.waiting_replay.is_some() => {
                        p.note = Some(text);
                    }
                    Some(Sub::Board(b)) if b.load == Load::Loading => fail(&mut b.load),
                    Some(Sub::Profile(p)) if p.load == Load::Loading => fail(&mut p.load),
                    Some(Sub::Keys(k)) if k.load == Load::Loading => fail(&mut k.load),
                    Some(Sub::Keys(k)) => k.message = Some((text, false)),
                    Some(Sub::Welcome(w)) if w.waiting => w.failed(text),
                    _ => return Taken::No,
                }
                self.waiting_replay = None;
            }
            Response::SignedIn { .. } => {
                let welcome = matches!(sub, Some(Sub::Welcome(_) | Sub::Unreachable(_)));
                return Taken::SignedIn { welcome };
            }
            Response::RegisterFailed { message } => {
                if let Some(Sub::Welcome(w)) = sub {
                    w.register_refused(clean(message));
                }
            }
            Response::LinkFailed { message } => {
                if let Some(Sub::Welcome(w)) = sub {
                    w.failed(clean(message));
                }
            }
            Response::PasswordSet => {
                if let Some(Sub::Keys(k)) = sub {
                    k.has_password = true;
                    k.message = Some(("Password set.".into(), true));
                }
                return Taken::PasswordSet;
            }
            Response::PasswordFailed { message } | Response::KeyFailed { message } => {
                if let Some(Sub::Keys(k)) = sub {
                    k.message = Some((clean(message), false));
                }
            }
            Response::Keys(keys) => {
                if let Some(Sub::Keys(k)) = sub {
                    let keys = keys
                        .iter()
                        .map(|k| minotty_protocol::KeyView {
                            fingerprint: clean(&k.fingerprint),
                            algorithm: clean(&k.algorithm).chars().take(24).collect(),
                            ..k.clone()
                        })
                        .collect();
                    k.arrived(keys);
                }
            }
            Response::BrowsersUnlinked { count } => {
                if let Some(Sub::Keys(k)) = sub {
                    k.browsers_unlinked(*count);
                }
            }
            Response::KeyRemoved { fingerprint } => {
                if let Some(Sub::Keys(k)) = sub {
                    k.removed(&clean(fingerprint));
                }
            }
            Response::Leaderboard(page) => {
                if let Some(Sub::Board(b)) = sub {
                    b.arrived(page);
                }
            }
            Response::Profile(p) => {
                if let Some(Sub::Profile(screen)) = sub
                    && !screen.guest
                {
                    screen.arrived(p);
                }
            }
            Response::Replay {
                game,
                player,
                replay,
            } => {
                if self.waiting_replay != Some(*game) {
                    return Taken::Yes;
                }
                self.waiting_replay = None;
                if !matches!(sub, Some(Sub::Board(_) | Sub::Profile(_))) {
                    return Taken::Yes;
                }
                match ReplayScreen::new((**replay).clone(), sanitize(player), *game, now) {
                    Ok(r) => {
                        self.under = self.sub.take();
                        self.sub = Some(Sub::Replay(Box::new(r)));
                    }
                    Err(e) => {
                        let text = format!("This replay cannot be played: {e}.");
                        match sub {
                            Some(Sub::Board(b)) => b.note = Some(text),
                            Some(Sub::Profile(p)) => p.note = Some(text),
                            _ => {}
                        }
                    }
                }
            }
            Response::GameRecorded(rec) => {
                if ctx.game_over {
                    let rec = GameRecorded {
                        note: rec.note.as_deref().map(clean),
                        previous_best: rec
                            .previous_best
                            .as_ref()
                            .map(|(best, delta)| (clean(best), clean(delta))),
                        ..rec.clone()
                    };
                    self.recorded = Some((ctx.games, rec));
                }
            }
            _ => return Taken::No,
        }
        Taken::Yes
    }
}
