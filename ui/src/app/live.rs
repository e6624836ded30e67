//! The Live screen, the App's side: it asks the server for the list of what is played now
//! every [`LIST_EVERY_MS`] while it shows, watches one solo game (`WatchLive`, frames come as
//! `LiveFrame`), hands a match to the versus screens as a spectator (`JoinRoom`), and runs the
//! TV: the first game or match of the server's list (its most interesting; a match's boards
//! come as `LiveMatchFrame`), changed when it ends (after [`TV_ENDED_HOLD_MS`] on its last
//! frame) or, when another leads the list, after [`TV_SWITCH_MS`]. The views are in
//! `screens/live.rs`.

use super::{App, Screen};
use crate::keys::KeyEvent;
use crate::screens::live::{LiveAction, LiveView};
use crate::{Request, Response};

/// The list is asked for again this often while the Live screen shows.
pub const LIST_EVERY_MS: u64 = 2_000;
/// The TV moves on to the game leading the list after this long on another one.
pub const TV_SWITCH_MS: u64 = 60_000;
/// An ended game's last frame stays on the TV this long.
pub const TV_ENDED_HOLD_MS: u64 = 3_000;

impl App {
    /// Opens the Live screen: the list, or the TV.
    pub fn open_live(&mut self, tv: bool) {
        let now = self.now;
        self.screen = Screen::Live;
        self.live.message = None;
        self.live.listed_at = Some(now);
        self.request(Request::LiveList);
        if tv {
            self.live.view = LiveView::Tv;
            self.live_tv_pick(now, None);
        } else {
            self.stop_watching();
            self.live.view = LiveView::List;
        }
        self.dirty = true;
    }

    /// Whether the player is watching others on the Live screen (a front end does not idle out
    /// a watcher: nothing is expected of them).
    pub fn watching_live(&self) -> bool {
        self.screen == Screen::Live && self.live.view != LiveView::List
    }

    pub(super) fn key_live(&mut self, ev: KeyEvent, now: u64) -> bool {
        match self.live.handle(ev) {
            LiveAction::None => return false,
            LiveAction::Moved => {}
            LiveAction::Watch(id) => {
                self.live.view = LiveView::Watch;
                self.watch_live(id, now);
            }
            LiveAction::Spectate(id) => {
                self.stop_watching();
                self.live.view = LiveView::List;
                self.versus_send(Request::SpectateLive { id });
                self.live.message = Some("Joining the room as a spectator...".into());
            }
            LiveAction::Tv => {
                self.live.view = LiveView::Tv;
                self.live.message = None;
                let keep = self.live.watching;
                self.live_tv_pick(now, keep);
            }
            LiveAction::Next => {
                let skip = self.live.watching;
                self.live_tv_next(now, skip);
            }
            LiveAction::List => {
                self.stop_watching();
                self.live.view = LiveView::List;
                self.live.message = None;
                self.live.listed_at = Some(now);
                self.request(Request::LiveList);
            }
            LiveAction::Back => {
                self.stop_watching();
                self.live.view = LiveView::List;
                self.screen = Screen::Menu;
            }
            LiveAction::AskQuit => return self.ask_quit(true),
        }
        true
    }

    fn watch_live(&mut self, id: u64, now: u64) {
        let l = &mut self.live;
        l.watching = Some(id);
        l.watch_since = now;
        l.frame = None;
        l.match_frame = None;
        l.ended_at = None;
        l.parked = false;
        l.message = None;
        self.request(Request::WatchLive { id });
    }

    fn stop_watching(&mut self) {
        if self.live.watching.take().is_some() {
            self.request(Request::StopWatching);
        }
        self.live.frame = None;
        self.live.match_frame = None;
        self.live.ended_at = None;
        self.live.parked = false;
    }

    /// The TV's game: `keep` while it is listed, else the list's first.
    fn live_tv_pick(&mut self, now: u64, keep: Option<u64>) {
        if let Some(id) = keep
            && self.live.entries.iter().any(|e| e.id == id)
        {
            if self.live.watching != Some(id) {
                self.watch_live(id, now);
            }
            return;
        }
        let best = self.live.entries.first().map(|e| e.id);
        match best {
            Some(id) => self.watch_live(id, now),
            None => self.stop_watching(),
        }
    }

    /// The TV moves on from `skip` to the next of the list (wrapping around).
    fn live_tv_next(&mut self, now: u64, skip: Option<u64>) {
        let solo: Vec<u64> = self.live.entries.iter().map(|e| e.id).collect();
        let at = skip.and_then(|id| solo.iter().position(|&x| x == id));
        let next = match at {
            Some(i) => solo.get((i + 1) % solo.len()).copied(),
            None => solo.first().copied(),
        };
        if let Some(id) = next.filter(|&id| Some(id) != skip) {
            self.watch_live(id, now);
        }
    }

    pub(super) fn tick_live(&mut self, now: u64) -> bool {
        let mut changed = false;
        if self
            .live
            .listed_at
            .is_none_or(|at| now >= at.saturating_add(LIST_EVERY_MS))
        {
            self.live.listed_at = Some(now);
            self.request(Request::LiveList);
        }
        if self.live.view == LiveView::Tv {
            changed |= self.tv_due(now);
        }
        changed
    }

    /// Whether the TV changes channel now (and does).
    fn tv_due(&mut self, now: u64) -> bool {
        let l = &self.live;
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
            let skip = l.watching;
            self.live.ended_at = None;
            self.live.parked = false;
            self.live.frame = None;
            self.live.match_frame = None;
            self.live.watching = None;
            self.live.entries.retain(|e| Some(e.id) != skip);
            self.live_tv_pick(now, None);
            return true;
        }
        if l.watching.is_none() && leader.is_some() {
            self.live_tv_pick(now, None);
            return true;
        }
        if stale {
            self.live_tv_pick(now, None);
            return true;
        }
        false
    }

    pub(super) fn live_wakeup(&self) -> Option<u64> {
        let l = &self.live;
        let list = l.listed_at.map_or(self.now, |at| at + LIST_EVERY_MS);
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

    /// Live answers; `false` for any other response.
    pub(super) fn live_response(&mut self, response: &Response, now: u64) -> bool {
        match response {
            Response::Live(entries) => {
                let l = &mut self.live;
                // The list keeps the selected game selected when it moves.
                let selected = l.entries.get(l.cursor).map(|e| e.id);
                l.entries = entries.clone();
                l.listed = true;
                if let Some(i) = selected.and_then(|id| l.entries.iter().position(|e| e.id == id)) {
                    l.cursor = i;
                }
                l.clamp_cursor();
                if self.screen == Screen::Live && self.live.view == LiveView::Tv {
                    self.tv_due(now);
                }
                self.screen == Screen::Live
            }
            Response::LiveFrame(frame) => {
                if self.live.watching != Some(frame.id) {
                    return false;
                }
                self.live.frame = Some(frame.clone());
                self.screen == Screen::Live
            }
            Response::LiveMatchFrame(frame) => {
                if self.live.watching != Some(frame.id) {
                    return false;
                }
                let mut frame = frame.clone();
                for b in &mut frame.boards {
                    b.name = crate::text::sanitize(&b.name);
                }
                self.live.match_frame = Some(frame);
                self.screen == Screen::Live
            }
            Response::LiveEnded { id } => {
                if self.live.watching != Some(*id) {
                    return false;
                }
                self.live.ended_at = Some(now);
                self.screen == Screen::Live
            }
            Response::LiveParked { id } => {
                if self.live.watching != Some(*id) {
                    return false;
                }
                // Not over: its player dropped and it waits for them.
                self.live.ended_at = Some(now);
                self.live.parked = true;
                self.screen == Screen::Live
            }
            Response::LiveFailed { message } => {
                if self.screen != Screen::Live {
                    return false;
                }
                self.live.message = Some(crate::text::sanitize(message));
                if self.live.view == LiveView::Tv {
                    // The TV tries another game after the hold.
                    self.live.ended_at = Some(now);
                }
                true
            }
            Response::Offline if self.screen == Screen::Live => {
                // `minotty play`: nobody else is here.
                self.live.listed = true;
                self.live.message = Some("Live needs a server: connect with ssh.".into());
                true
            }
            Response::Room(_) | Response::RoomFailed { .. }
                if self.screen == Screen::Live && self.live.message.is_some() =>
            {
                // The spectator seat is the versus screens' (`RoomFailed` shows there too).
                self.live.message = None;
                false
            }
            _ => false,
        }
    }
}
