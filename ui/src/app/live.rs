//! The Live screen, the App's side: it asks the server for the list of what is played now
//! every [`LIST_EVERY_MS`] while it shows, watches one solo game (`WatchLive`, frames come as
//! `LiveFrame`), hands a match to the versus screens as a spectator (`JoinRoom`), and runs the
//! TV: the first game or match of the server's list (its most interesting; a match's boards
//! come as `LiveMatchFrame`), changed when it ends (after [`TV_ENDED_HOLD_MS`] on its last
//! frame) or, when another leads the list, after [`TV_SWITCH_MS`]. The views are in
//! `screens/live.rs`.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::{App, Screen};
use crate::keys::KeyEvent;
use crate::screens::live::{LiveAction, LiveScreenView, LiveState, LiveView};
use crate::theme::Theme;
use crate::{Request, Response};

#[cfg(test)]
mod tests;

/// The list is asked for again this often while the Live screen shows.
pub const LIST_EVERY_MS: u64 = 2_000;
/// The TV moves on to the game leading the list after this long on another one.
pub const TV_SWITCH_MS: u64 = 60_000;
/// An ended game's last frame stays on the TV this long.
pub const TV_ENDED_HOLD_MS: u64 = 3_000;

/// The Live feature's part of the App: the screen's state (the list, the game watched, the TV).
#[derive(Debug, Default)]
pub(super) struct Live {
    state: LiveState,
}

/// What a key on the Live screen asks of the App.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    Ignored,
    Changed,
    /// Spectate the match listed as this id: the versus screens take over (the App sends
    /// [`Request::SpectateLive`] through them).
    Spectate(u64),
    /// Back to the main menu.
    Back,
    AskQuit,
}

impl Live {
    /// The TV streamed to a client without keys, with how `ssh` reaches the server.
    pub(super) fn set_stream(&mut self, stream: bool, address: Option<String>) {
        self.state.stream = stream;
        self.state.address = address;
    }

    /// Opens the Live screen (the App shows it): the list, or the TV.
    pub(super) fn open(&mut self, tv: bool, now: u64, requests: &mut Vec<Request>) {
        self.state.message = None;
        self.state.listed_at = Some(now);
        requests.push(Request::LiveList);
        if tv {
            self.state.view = LiveView::Tv;
            self.tv_pick(now, None, requests);
        } else {
            self.stop_watching(requests);
            self.state.view = LiveView::List;
        }
    }

    /// Whether the player watches a game or the TV rather than the list.
    pub(super) fn watching(&self) -> bool {
        self.state.view != LiveView::List
    }

    pub(super) fn handle_key(
        &mut self,
        ev: KeyEvent,
        now: u64,
        requests: &mut Vec<Request>,
    ) -> Outcome {
        match self.state.handle(ev) {
            LiveAction::None => return Outcome::Ignored,
            LiveAction::Moved => {}
            LiveAction::Watch(id) => {
                self.state.view = LiveView::Watch;
                self.watch(id, now, requests);
            }
            LiveAction::Spectate(id) => {
                self.stop_watching(requests);
                self.state.view = LiveView::List;
                self.state.message = Some("Joining the room as a spectator...".into());
                return Outcome::Spectate(id);
            }
            LiveAction::Tv => {
                self.state.view = LiveView::Tv;
                self.state.message = None;
                let keep = self.state.watching;
                self.tv_pick(now, keep, requests);
            }
            LiveAction::Next => {
                let skip = self.state.watching;
                self.tv_next(now, skip, requests);
            }
            LiveAction::List => {
                self.stop_watching(requests);
                self.state.view = LiveView::List;
                self.state.message = None;
                self.state.listed_at = Some(now);
                requests.push(Request::LiveList);
            }
            LiveAction::Back => {
                self.stop_watching(requests);
                self.state.view = LiveView::List;
                return Outcome::Back;
            }
            LiveAction::AskQuit => return Outcome::AskQuit,
        }
        Outcome::Changed
    }

    fn watch(&mut self, id: u64, now: u64, requests: &mut Vec<Request>) {
        let l = &mut self.state;
        l.watching = Some(id);
        l.watch_since = now;
        l.frame = None;
        l.match_frame = None;
        l.ended_at = None;
        l.parked = false;
        l.message = None;
        requests.push(Request::WatchLive { id });
    }

    fn stop_watching(&mut self, requests: &mut Vec<Request>) {
        let l = &mut self.state;
        if l.watching.take().is_some() {
            requests.push(Request::StopWatching);
        }
        l.frame = None;
        l.match_frame = None;
        l.ended_at = None;
        l.parked = false;
    }

    /// The TV's game: `keep` while it is listed, else the list's first.
    fn tv_pick(&mut self, now: u64, keep: Option<u64>, requests: &mut Vec<Request>) {
        if let Some(id) = keep
            && self.state.entries.iter().any(|e| e.id == id)
        {
            if self.state.watching != Some(id) {
                self.watch(id, now, requests);
            }
            return;
        }
        let best = self.state.entries.first().map(|e| e.id);
        match best {
            Some(id) => self.watch(id, now, requests),
            None => self.stop_watching(requests),
        }
    }

    /// The TV moves on from `skip` to the next of the list (wrapping around).
    fn tv_next(&mut self, now: u64, skip: Option<u64>, requests: &mut Vec<Request>) {
        let solo: Vec<u64> = self.state.entries.iter().map(|e| e.id).collect();
        let at = skip.and_then(|id| solo.iter().position(|&x| x == id));
        let next = match at {
            Some(i) => solo.get((i + 1) % solo.len()).copied(),
            None => solo.first().copied(),
        };
        if let Some(id) = next.filter(|&id| Some(id) != skip) {
            self.watch(id, now, requests);
        }
    }

    /// The clock while the Live screen shows: the list asked for again, the TV's channel.
    pub(super) fn tick(&mut self, now: u64, requests: &mut Vec<Request>) -> bool {
        let mut changed = false;
        if self
            .state
            .listed_at
            .is_none_or(|at| now >= at.saturating_add(LIST_EVERY_MS))
        {
            self.state.listed_at = Some(now);
            requests.push(Request::LiveList);
        }
        if self.state.view == LiveView::Tv {
            changed |= self.tv_due(now, requests);
        }
        changed
    }

    /// Whether the TV changes channel now (and does).
    fn tv_due(&mut self, now: u64, requests: &mut Vec<Request>) -> bool {
        let l = &self.state;
        if !l.listed {
            return false;
        }
        let ended = l.ended_at.is_some_and(|at| now >= at + TV_ENDED_HOLD_MS);
        let leader = l.entries.first().map(|e| e.id);
        let stale = l.watching.is_some()
            && now >= l.watch_since + TV_SWITCH_MS
            && leader.is_some()
            && leader != l.watching;
        if ended {
            let l = &mut self.state;
            let skip = l.watching;
            l.ended_at = None;
            l.parked = false;
            l.frame = None;
            l.match_frame = None;
            l.watching = None;
            l.entries.retain(|e| Some(e.id) != skip);
            self.tv_pick(now, None, requests);
            return true;
        }
        if l.watching.is_none() && leader.is_some() {
            self.tv_pick(now, None, requests);
            return true;
        }
        if stale {
            self.tv_pick(now, None, requests);
            return true;
        }
        false
    }

    /// When the Live screen next needs a tick (`now`: the App's clock).
    pub(super) fn wakeup(&self, now: u64) -> Option<u64> {
        let l = &self.state;
        let list = l.listed_at.map_or(now, |at| at + LIST_EVERY_MS);
        let tv = (l.view == LiveView::Tv)
            .then(|| {
                [
                    l.ended_at.map(|at| at + TV_ENDED_HOLD_MS),
                    l.watching.map(|_| l.watch_since + TV_SWITCH_MS),
                ]
                .into_iter()
                .flatten()
                .min()
            })
            .flatten();
        Some(tv.map_or(list, |t| t.min(list)))
    }

    /// Live answers (`shown`: the Live screen shows); whether the screen changed (`false` for
    /// any other response).
    pub(super) fn on_response(
        &mut self,
        response: &Response,
        now: u64,
        shown: bool,
        requests: &mut Vec<Request>,
    ) -> bool {
        match response {
            Response::Live(entries) => {
                let l = &mut self.state;
                // The list keeps the selected game selected when it moves.
                let selected = l.entries.get(l.cursor).map(|e| e.id);
                l.entries = entries.clone();
                l.listed = true;
                if let Some(i) = selected.and_then(|id| l.entries.iter().position(|e| e.id == id)) {
                    l.cursor = i;
                }
                l.clamp_cursor();
                if shown && self.state.view == LiveView::Tv {
                    self.tv_due(now, requests);
                }
                shown
            }
            Response::LiveFrame(frame) => {
                if self.state.watching != Some(frame.id) {
                    return false;
                }
                if self.state.parked {
                    // Its player came back and resumed it: it goes on.
                    self.state.parked = false;
                    self.state.ended_at = None;
                }
                self.state.frame = Some(frame.clone());
                shown
            }
            Response::LiveMatchFrame(frame) => {
                if self.state.watching != Some(frame.id) {
                    return false;
                }
                let mut frame = frame.clone();
                for b in &mut frame.boards {
                    b.name = crate::text::sanitize(&b.name);
                }
                self.state.match_frame = Some(frame);
                shown
            }
            Response::LiveEnded { id } => {
                if self.state.watching != Some(*id) {
                    return false;
                }
                // A parked game that was not taken back ends too: no longer "reconnecting".
                self.state.parked = false;
                self.state.ended_at = Some(now);
                shown
            }
            Response::LiveParked { id } => {
                if self.state.watching != Some(*id) {
                    return false;
                }
                // Not over: its player dropped and it waits for them.
                self.state.ended_at = Some(now);
                self.state.parked = true;
                shown
            }
            Response::LiveFailed { message } => {
                if !shown {
                    return false;
                }
                self.state.message = Some(crate::text::sanitize(message));
                if self.state.view == LiveView::Tv {
                    // The TV tries another game after the hold.
                    self.state.ended_at = Some(now);
                }
                true
            }
            Response::Offline if shown => {
                // `minotty play`: nobody else is here.
                self.state.listed = true;
                self.state.message = Some("Live needs a server: connect with ssh.".into());
                true
            }
            Response::Room(_) | Response::RoomFailed { .. }
                if shown && self.state.message.is_some() =>
            {
                // The spectator seat is the versus screens' (`RoomFailed` shows there too).
                self.state.message = None;
                false
            }
            _ => false,
        }
    }

    pub(super) fn draw(&self, area: Rect, buf: &mut Buffer, theme: Theme, now: u64) {
        LiveScreenView {
            state: &self.state,
            theme,
            now,
        }
        .render(area, buf);
    }
}

impl App {
    /// Opens the Live screen: the list, or the TV.
    pub fn open_live(&mut self, tv: bool) {
        self.screen = Screen::Live;
        self.live.open(tv, self.now, &mut self.requests);
        self.dirty = true;
    }

    /// Whether the player is watching others on the Live screen (a front end does not idle out
    /// a watcher: nothing is expected of them).
    pub fn watching_live(&self) -> bool {
        self.screen == Screen::Live && self.live.watching()
    }

    pub(super) fn key_live(&mut self, ev: KeyEvent, now: u64) -> bool {
        match self.live.handle_key(ev, now, &mut self.requests) {
            Outcome::Ignored => return false,
            Outcome::Changed => {}
            Outcome::Spectate(id) => self
                .versus
                .send(Request::SpectateLive { id }, &mut self.requests),
            Outcome::Back => self.screen = Screen::Menu,
            Outcome::AskQuit => return self.ask_quit(true),
        }
        true
    }

    /// Live answers; `false` for any other response.
    pub(super) fn live_response(&mut self, response: &Response, now: u64) -> bool {
        let shown = self.screen == Screen::Live;
        self.live
            .on_response(response, now, shown, &mut self.requests)
    }
}
