//! The versus screens' answers: the queue, rooms, matches and their results, and the notices
//! the server sends. Versus changes its own state; a room or a match that arrives asks the App
//! to show the versus screens (an [`Outcome`]).

use minotty_engine::versus::Targeting;
use minotty_protocol::RoomCommand;

use super::{Ctx, Outcome, Queue, Versus, View};
use crate::Request;
use crate::Response;
use crate::app::Screen;
use crate::screens::versus_match::Match;
use crate::screens::versus_menu;
use crate::session::GameSession;
use crate::text::sanitize;
use minotty_protocol::{Report, RoomLimit, RoomState, RoomView, progress_of};

impl Versus {
    /// Handles a versus response: [`Outcome::Ignored`] when it changed nothing on screen.
    pub(in crate::app) fn on_response(
        &mut self,
        response: Response,
        now: u64,
        ctx: &mut Ctx<'_>,
    ) -> Outcome {
        let here = ctx.here;
        match response {
            Response::Offline => {
                if !here {
                    return Outcome::Ignored;
                }
                self.awaiting = false;
                self.queue = None;
                if matches!(self.view, View::Queue | View::Create | View::Join { .. }) {
                    self.view = View::Menu;
                }
                self.message = Some(versus_menu::OFFLINE.to_string());
            }
            Response::Error { message } => {
                if !here {
                    return Outcome::Ignored;
                }
                self.refused(&message);
            }
            Response::BotOffer { level } => {
                if self.queue.is_none() {
                    return Outcome::Ignored;
                }
                self.bot_offer = Some(level);
            }
            Response::Queued {
                rating,
                range,
                same_address,
            } => {
                let since = self.queue.map_or(now, |q| q.since);
                self.queue = Some(Queue {
                    since,
                    rating: Some((rating, range)),
                    same_address,
                });
                if here && self.view != View::Match {
                    self.view = View::Queue;
                }
            }
            Response::Room(room) => return self.room_arrived(room),
            Response::RoomFailed { message } => {
                if !here {
                    // E.g. `ssh HOST join CODE` with a wrong code: the player is on the main
                    // menu, not in the versus screens.
                    self.notice = Some(sanitize_line(&message));
                    return Outcome::Changed;
                }
                self.rematch = false;
                self.refused(&message);
            }
            Response::RoomClosed { message } => {
                self.left(Some(sanitize_line(&message)));
            }
            Response::MatchStart(start) => {
                self.settings_edit = None;
                return self.match_started(start, now, ctx);
            }
            Response::Garbage { lines, .. } => {
                let keys = &ctx.settings.keys;
                let Some(s) = self.game.as_mut().and_then(|m| m.session.as_mut()) else {
                    return Outcome::Ignored;
                };
                s.garbage(lines, now, keys);
                self.flush(now, ctx.requests);
            }
            Response::Opponents(mut list) => {
                let Some(m) = &mut self.game else {
                    return Outcome::Ignored;
                };
                for o in &mut list {
                    o.name = sanitize(&o.name);
                    self.attack
                        .note(o.seat, o.progress.time_ms, o.progress.attack_sent);
                }
                if let (Some(seat), Some(s)) = (m.start.you, &m.session) {
                    let own = progress_of(s.game());
                    self.attack.note(seat, own.time_ms, own.attack_sent);
                }
                m.opponents = list;
            }
            Response::MatchOver(result) => self.match_over(result, now, here, ctx.requests),
            Response::Climb(view) => {
                self.awaiting = false;
                self.climb = Some(view);
            }
            Response::Notice { message } => {
                self.notice = Some(sanitize_line(&message));
            }
            Response::OpenRooms(rooms) => {
                return Outcome::changed(self.open_rooms_response(rooms));
            }
            _ => return Outcome::Ignored,
        }
        Outcome::Changed
    }

    /// The server refused what the player asked: no answer is awaited any more, a queue is
    /// left for the menu, and the message shows.
    fn refused(&mut self, message: &str) {
        self.awaiting = false;
        if self.view == View::Queue {
            self.queue = None;
            self.view = View::Menu;
        }
        self.message = Some(sanitize_line(message));
    }

    /// The room's view: the lobby shows it unless a match or its results are on screen.
    fn room_arrived(&mut self, mut room: RoomView) -> Outcome {
        clean_room(&mut room);
        self.ready_sent = None;
        if self.left.as_deref() == Some(room.code.as_str()) {
            // A late update of the room the player just left.
            return Outcome::Ignored;
        }
        let follow = match self.view {
            View::Results => self.rematch && room.state == RoomState::Lobby,
            View::Match => false,
            _ => true,
        };
        if self.room.as_ref().is_none_or(|r| r.code != room.code) {
            self.targeting = Targeting::default();
        }
        self.room = Some(room);
        if !follow {
            return Outcome::Changed;
        }
        if self.view != View::Room {
            self.message = None;
        }
        self.view = View::Room;
        self.queue = None;
        self.awaiting = false;
        self.rematch = false;
        Outcome::Show(Screen::Versus)
    }

    /// A match starts: the player's own game (none for a spectator) and the match screen.
    fn match_started(
        &mut self,
        mut start: minotty_protocol::MatchStart,
        now: u64,
        ctx: &mut Ctx<'_>,
    ) -> Outcome {
        for p in &mut start.players {
            *p = sanitize(p);
        }
        let session = start.you.map(|_| {
            GameSession::new_versus(
                start.mode.clone(),
                &start.game,
                start.seed,
                ctx.settings,
                !ctx.releases,
                now,
                start.countdown_ms,
            )
        });
        self.attack.clear();
        let limit = self
            .room
            .as_ref()
            .map_or(RoomLimit::None, |r| r.options.limit());
        self.game = Some(Match {
            start,
            started_at: now,
            limit,
            session,
            opponents: Vec::new(),
            forfeit_prompt: false,
            last_board: None,
            board_due: true,
            finished_sent: false,
        });
        self.view = View::Match;
        self.queue = None;
        self.bot_offer = None;
        self.awaiting = false;
        self.rematch = false;
        self.message = None;
        self.flush(now, ctx.requests);
        Outcome::Show(Screen::Versus)
    }

    /// The match is decided: its results (`here`: the versus screens show).
    fn match_over(
        &mut self,
        mut result: minotty_protocol::MatchResult,
        now: u64,
        here: bool,
        requests: &mut Vec<Request>,
    ) {
        for r in &mut result.rows {
            r.name = sanitize(&r.name);
        }
        // A game still running when the match is decided: its record goes now.
        let replay = self
            .game
            .as_ref()
            .and_then(|m| m.session.as_ref().filter(|_| !m.finished_sent))
            .map(|s| s.game().replay());
        if let Some(replay) = replay {
            self.send(
                Request::Room(RoomCommand::Report {
                    reports: vec![Report::Replay(Box::new(replay))],
                }),
                requests,
            );
        }
        // The match is decided: a game still running stops here (its end was reported by the
        // room, not by the player).
        self.played = self.game.as_ref().zip(self.room.as_ref()).map(|(m, room)| {
            minotty_protocol::MatchRef::Played {
                room: room.code.clone(),
                seed: m.start.seed,
            }
        });
        self.game = None;
        self.result = Some(result);
        self.results_cursor = 0;
        self.results_at = now;
        self.results_settings = self
            .room
            .as_ref()
            .map(|r| r.options)
            .filter(|o| !o.describe_changed().is_empty())
            .map(|o| sanitize_line(&o.changed_line(RESULTS_SETTINGS_WIDTH)));
        self.rematch = false;
        self.message = None;
        if self.view == View::Match || here {
            self.view = View::Results;
        }
    }
}

/// The longest settings line the results show (inside their frame).
const RESULTS_SETTINGS_WIDTH: usize = 70;

/// A server message made safe to draw: the one allowlist, as for names, but it may be
/// longer than a name.
fn sanitize_line(s: &str) -> String {
    minotty_domain::text::sanitize_display(s, 300)
}

/// Every string of a room's view through the one allowlist: its code, the seated names (people
/// and bots) and the names of the bots the host may seat.
fn clean_room(room: &mut RoomView) {
    room.code = sanitize(&room.code);
    for s in &mut room.seats {
        s.name = sanitize(&s.name);
    }
    for name in &mut room.tbp_bots {
        *name = sanitize(name);
    }
}
