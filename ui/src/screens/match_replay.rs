//! The match replay viewer: every seat's game of a stored versus match played back together
//! on one clock, boards side by side (the versus screen's grid, `versus_layout.rs`), at 1x,
//! 2x, 4x or 8x, with pause, restart and seeking. A seat whose replay is missing or did not
//! verify is drawn as such, never played.
//!
//! Bounds: at most [`MAX_MATCH_SEATS`] seats are kept (more are dropped on arrival), each a
//! `Playback` of at most `MAX_INPUTS` inputs. A tick steps each seat's game to the new time
//! and rebuilds at most one board view a seat; a seek backward replays each game from its
//! start to the target, so a key costs at most the match's inputs ([`Work`] counts both).

use minotty_engine::versus::MatchKind;
use minotty_engine::{Playback, Time};
use minotty_protocol::{
    MAX_MATCH_SEATS, MatchReplay, OpponentView, SeatFilm, progress_of, snapshot,
};

use super::account_replay::SPEEDS;
use super::is_ctrl;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::text::sanitize;

/// The clock is redrawn at least this often, in game time.
const CLOCK_STEP: Time = 1000;
/// How far a seek moves, in game time.
pub const SEEK_MS: Time = 5000;
/// The longest reason shown for an unverified seat.
const MAX_NOTE: usize = 60;
/// The longest settings line the viewer shows (an 80-column screen's).
const SETTINGS_WIDTH: usize = 78;

/// What the viewer did, counted (tests bound a frame's and a key's work by these).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Board views rebuilt from a seat's game.
    pub boards: u64,
    /// Seats' games started again from their first input (restart, seeking back).
    pub restarts: u64,
}

/// One seat: its game played back (verified seats only).
#[derive(Clone, Debug)]
pub(crate) struct Seat {
    pub(crate) playback: Option<Playback>,
    /// Why the seat is not played: "no replay", "unverified: ...".
    pub(crate) note: Option<String>,
    place: u32,
}

/// A stored match being watched.
#[derive(Clone, Debug)]
pub struct MatchReplayScreen {
    pub id: i64,
    pub kind: MatchKind,
    pub ranked: bool,
    /// The settings the match was played under that differ from the defaults, in one line
    /// (`None`: all default, or not stored).
    pub settings: Option<String>,
    pub(crate) seats: Vec<Seat>,
    /// What the grid draws of each seat, in seat order.
    pub(crate) views: Vec<OpponentView>,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    pub paused: bool,
    /// The match time shown, and the front-end time it was reached at.
    pos: Time,
    last: u64,
    /// The longest seat's end.
    end: Time,
    /// Drawn for a recording (the asciicast export): no keys offered.
    pub(crate) film: bool,
    work: Work,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchReplayAction {
    None,
    Changed,
    Back,
    AskQuit,
}

impl MatchReplayScreen {
    /// Starts watching `m` at front-end time `now`, at 1x (names are cleaned here).
    pub fn new(m: &MatchReplay, now: u64) -> MatchReplayScreen {
        let shown = &m.seats[..m.seats.len().min(MAX_MATCH_SEATS)];
        let views = shown
            .iter()
            .enumerate()
            .map(|(i, s)| OpponentView::at_start(i, sanitize(&s.name)))
            .collect();
        let seats: Vec<Seat> = shown
            .iter()
            .map(|s| {
                let (playback, note) = match &s.film {
                    SeatFilm::Verified(r) => match Playback::new((**r).clone()) {
                        Ok(p) => (Some(p), None),
                        Err(e) => (None, Some(note(&format!("unplayable: {e}")))),
                    },
                    SeatFilm::Missing => (None, Some("no replay".to_owned())),
                    SeatFilm::Unverified(why) => (None, Some(note(&format!("unverified: {why}")))),
                };
                Seat {
                    playback,
                    note,
                    place: s.place,
                }
            })
            .collect();
        let end = seats
            .iter()
            .filter_map(|s| s.playback.as_ref().map(|p| p.replay().end))
            .max()
            .unwrap_or(0);
        let mut screen = MatchReplayScreen {
            id: m.id,
            kind: m.kind,
            ranked: m.ranked,
            settings: m
                .settings
                .filter(|s| !s.describe_changed().is_empty())
                .map(|s| {
                    minotty_domain::text::sanitize_display(
                        &s.changed_line(SETTINGS_WIDTH),
                        SETTINGS_WIDTH,
                    )
                }),
            seats,
            views,
            speed: 0,
            paused: false,
            pos: 0,
            last: now,
            end,
            film: false,
            work: Work::default(),
        };
        screen.refresh_all();
        screen
    }

    pub fn speed(&self) -> u64 {
        SPEEDS[self.speed.min(SPEEDS.len() - 1)]
    }

    /// The match time shown.
    pub fn position(&self) -> Time {
        self.pos
    }

    pub fn end(&self) -> Time {
        self.end
    }

    pub fn finished(&self) -> bool {
        self.pos >= self.end
    }

    pub fn work(&self) -> Work {
        self.work
    }

    /// The seats as the grid draws them.
    pub fn views(&self) -> &[OpponentView] {
        &self.views
    }

    /// Each seat's view from its game now.
    fn refresh_all(&mut self) {
        for i in 0..self.seats.len() {
            self.refresh(i);
        }
    }

    fn refresh(&mut self, i: usize) {
        let seat = &self.seats[i];
        let (Some(p), Some(view)) = (&seat.playback, self.views.get_mut(i)) else {
            return;
        };
        let game = p.game();
        view.board = snapshot(game);
        view.progress = progress_of(game);
        let done = p.finished() || game.is_over();
        let lost = game.outcome().is_some_and(|(_, won)| !won);
        view.alive = !lost;
        view.place = done.then(|| u8::try_from(seat.place).unwrap_or(u8::MAX));
        self.work.boards += 1;
    }

    /// Every seat's game to match time `t` (forward only).
    fn advance(&mut self, t: Time) {
        for i in 0..self.seats.len() {
            let Some(p) = &mut self.seats[i].playback else {
                continue;
            };
            // A game at its end was drawn so when it got there.
            if p.finished() {
                continue;
            }
            p.advance_to(t);
            self.refresh(i);
        }
        self.pos = t;
    }

    /// Every seat's game from its start.
    fn rewind(&mut self) {
        for seat in &mut self.seats {
            if let Some(p) = &mut seat.playback
                && let Ok(fresh) = Playback::new(p.replay().clone())
            {
                *p = fresh;
                self.work.restarts += 1;
            }
        }
        self.pos = 0;
        self.refresh_all();
    }

    /// Shows match time `t` (within the match): forward by playing on, backward by playing
    /// from the start.
    pub fn seek(&mut self, t: Time) {
        let t = t.min(self.end);
        if t < self.pos {
            self.rewind();
        }
        self.advance(t);
    }

    /// Plays on to front-end time `now`; returns whether anything visible changed.
    pub fn tick(&mut self, now: u64) -> bool {
        if now <= self.last {
            return false;
        }
        let elapsed = now - self.last;
        self.last = now;
        if self.paused || self.finished() {
            return false;
        }
        let target = (self.pos + elapsed * self.speed()).min(self.end);
        self.advance(target);
        true
    }

    /// When the viewer next needs a tick (front-end time).
    pub fn wakeup(&self) -> Option<u64> {
        if self.paused || self.finished() {
            return None;
        }
        let pos = self.pos;
        let seats = self.seats.iter().filter_map(|s| s.playback.as_ref());
        let next = seats
            .flat_map(|p| {
                let inputs = &p.replay().inputs;
                let i = inputs.partition_point(|&(t, _)| t <= pos);
                [inputs.get(i).map(|&(t, _)| t), p.game().next_deadline()]
            })
            .chain([Some((pos / CLOCK_STEP + 1) * CLOCK_STEP), Some(self.end)])
            .flatten()
            .filter(|&g| g > pos)
            .min()?;
        let wait = (next - pos).div_ceil(self.speed()).max(1);
        Some(self.last + wait)
    }

    pub fn handle(&mut self, ev: KeyEvent, now: u64) -> MatchReplayAction {
        if is_ctrl(ev, 'c') {
            return MatchReplayAction::AskQuit;
        }
        if ev.kind == KeyKind::Release || ev.mods.ctrl || ev.mods.alt {
            return MatchReplayAction::None;
        }
        // Catch up at the old speed before anything changes.
        self.tick(now);
        match ev.key {
            Key::Esc | Key::Backspace => return MatchReplayAction::Back,
            Key::Enter if self.finished() => self.restart(now),
            Key::Char('r' | 'R') => self.restart(now),
            Key::Char(' ' | 'p' | 'P') if !self.finished() => self.paused = !self.paused,
            Key::Char('+' | '=') | Key::Up => {
                self.speed = (self.speed + 1).min(SPEEDS.len() - 1);
            }
            Key::Char('-' | '_') | Key::Down => self.speed = self.speed.saturating_sub(1),
            Key::Right | Key::Char(']' | '.') => self.seek(self.pos + SEEK_MS),
            Key::Left | Key::Char('[' | ',') => self.seek(self.pos.saturating_sub(SEEK_MS)),
            _ => return MatchReplayAction::None,
        }
        self.last = now;
        MatchReplayAction::Changed
    }

    /// A film's screen: drawn for a recording, without keys offered.
    pub(crate) fn for_film(m: &MatchReplay) -> MatchReplayScreen {
        let mut screen = MatchReplayScreen::new(m, 0);
        screen.film = true;
        screen
    }

    /// A film plays on to match time `t` (forward only), its front-end time the match time.
    pub(crate) fn film_to(&mut self, t: Time) {
        if t > self.pos {
            self.advance(t.min(self.end));
        }
        self.last = self.pos;
    }

    fn restart(&mut self, now: u64) {
        self.rewind();
        self.last = now;
        self.paused = false;
    }
}

/// A reason cut to what a board's cell can show.
fn note(s: &str) -> String {
    sanitize(s).chars().take(MAX_NOTE).collect()
}
