//! Watching a stored versus match (`Screen::MatchReplay`): opened from the versus results (the
//! match just played, by its room and seed), the profile's match history (by id) and
//! `ssh HOST replay mN` (by id, [`App::watch_match`]). The feature owns the viewer, the match
//! asked for while its answer is awaited, and the screen Esc goes back to.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::{App, Screen};
use crate::draw;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::screens::is_ctrl;
use crate::screens::match_replay::{MatchReplayAction, MatchReplayScreen};
use crate::screens::match_replay_view::MatchReplayView;
use crate::theme::Theme;
use crate::{Request, Response};
use minotty_protocol::MatchRef;

/// The match replay feature's state.
#[derive(Debug, Default)]
pub(super) struct MatchReplays {
    screen: Option<Box<MatchReplayScreen>>,
    /// The match asked for, while its answer is awaited.
    waiting: Option<MatchRef>,
    /// What shows while there is no match to watch: loading, or why not.
    note: String,
    /// Where Esc goes (the menu when `None`).
    back: Option<Screen>,
}

/// What a key on the viewer asks of the App.
enum Outcome {
    Ignored,
    Changed,
    Back(Screen),
    AskQuit,
}

impl MatchReplays {
    fn open(&mut self, of: MatchRef, back: Screen, requests: &mut Vec<Request>) {
        self.screen = None;
        self.note = "Loading the match replay...".into();
        self.back = Some(back);
        self.waiting = Some(of.clone());
        requests.push(Request::MatchReplay { of });
    }

    fn handle_key(&mut self, ev: KeyEvent, now: u64) -> Outcome {
        let back = self.back.unwrap_or(Screen::Menu);
        let Some(screen) = &mut self.screen else {
            if is_ctrl(ev, 'c') {
                return Outcome::AskQuit;
            }
            return match (ev.kind, ev.key) {
                (KeyKind::Press, Key::Esc | Key::Backspace | Key::Enter) => {
                    self.waiting = None;
                    Outcome::Back(back)
                }
                _ => Outcome::Ignored,
            };
        };
        match screen.handle(ev, now) {
            MatchReplayAction::None => Outcome::Ignored,
            MatchReplayAction::Changed => Outcome::Changed,
            MatchReplayAction::AskQuit => Outcome::AskQuit,
            MatchReplayAction::Back => {
                self.screen = None;
                Outcome::Back(back)
            }
        }
    }

    /// Takes the answer to the match asked for; `here`: the viewer is on screen.
    fn on_response(&mut self, response: &Response, now: u64, here: bool) -> bool {
        let Some(waiting) = &self.waiting else {
            return false;
        };
        match response {
            Response::MatchReplay { of, replay } if of == waiting => {
                self.waiting = None;
                self.screen = Some(Box::new(MatchReplayScreen::new(replay, now)));
                true
            }
            Response::Error { message } if here => {
                self.waiting = None;
                // The server's words, through the one text policy.
                self.note = minotty_domain::text::sanitize_display(message, 120);
                true
            }
            Response::Offline if here => {
                self.waiting = None;
                self.note = "Match replays are kept by the server.".into();
                true
            }
            _ => false,
        }
    }

    fn draw(&self, area: Rect, buf: &mut Buffer, theme: Theme) {
        if let Some(state) = &self.screen {
            MatchReplayView { state, theme }.render(area, buf);
            return;
        }
        let r = draw::centered(area, area.width.min(60), 5);
        draw::put_centered(buf, r, r.y, "MATCH REPLAY", theme.accent());
        draw::put_centered(buf, r, r.y + 2, &self.note, theme.text());
        draw::put_centered(buf, r, r.y + 4, "Esc back", theme.dim());
    }
}

impl App {
    /// Opens the viewer on stored match `id` (`ssh HOST replay mN`); Esc goes to the menu.
    pub fn watch_match(&mut self, id: i64, now_ms: u64) {
        self.now = self.now.max(now_ms);
        self.open_match_replay(MatchRef::Id(id), Screen::Menu);
    }

    pub(super) fn open_match_replay(&mut self, of: MatchRef, back: Screen) {
        self.replays.open(of, back, &mut self.requests);
        self.screen = Screen::MatchReplay;
        self.dirty = true;
    }

    pub(super) fn key_match_replay(&mut self, ev: KeyEvent, now: u64) -> bool {
        match self.replays.handle_key(ev, now) {
            Outcome::Ignored => false,
            Outcome::Changed => true,
            Outcome::Back(screen) => {
                self.screen = screen;
                true
            }
            Outcome::AskQuit => self.ask_quit(true),
        }
    }

    pub(super) fn tick_match_replay(&mut self, now: u64) -> bool {
        self.replays.screen.as_mut().is_some_and(|s| s.tick(now))
    }

    pub(super) fn match_replay_wakeup(&self) -> Option<u64> {
        self.replays.screen.as_ref().and_then(|s| s.wakeup())
    }

    pub(super) fn match_replay_response(&mut self, response: &Response, now: u64) -> bool {
        let here = self.screen == Screen::MatchReplay;
        self.replays.on_response(response, now, here)
    }

    pub(super) fn draw_match_replay(&self, area: Rect, buf: &mut Buffer, theme: Theme) {
        self.replays.draw(area, buf, theme);
    }
}
