//! The replay viewer: a stored game played back from its replay, to watch and to study: at any
//! speed from 0.05x to 8x (steps of 0.25x and 0.05x), paused, a second back or forward, a jump
//! to any tenth of the game (1-9, Home, End: the engine's state anchors make a jump cost at
//! most one anchor gap of inputs), one input or one change of state at a time, and taken over:
//! a live game from the moment shown ([`ReplayAction::TakeOver`]). Drawn like the game screen,
//! with a progress bar.

use std::fmt::Write;

use minotty_engine::{Game, Phase, Playback, Replay, ReplayError, Time};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::game::{HEIGHT, LEFT_ROWS_END, LEFT_W, Playfield, WIDTH, outcome_text};
use super::is_ctrl;
use crate::draw;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::session::Effects;
use crate::settings::Settings;
use crate::text::{StackStr, clock, sfmt};
use crate::theme::Theme;
use crate::widgets::board::Scale;

/// The playback speeds of the match viewer (whole multiples).
pub const SPEEDS: [u64; 4] = [1, 2, 4, 8];
/// The replay viewer's speeds, in hundredths: 1x to start, from 0.05x to 8x.
pub const SPEED_ONE: u64 = 100;
pub const SPEED_MIN: u64 = 5;
pub const SPEED_MAX: u64 = 800;
/// The big and the fine speed steps (hundredths).
pub const SPEED_STEP: u64 = 25;
pub const SPEED_FINE: u64 = 5;
/// How far Left and Right move (game time).
pub const SEEK_MS: Time = 1000;
/// The clock is redrawn at least this often, in game time.
const CLOCK_STEP: Time = 1000;
/// The keys, under the board (at most the screen's width, 54).
const FOOTER: &str = "Space pause  ←→ 1s  1-9 jump  +-[] speed  t take over";

/// A replay being watched.
#[derive(Clone, Debug)]
pub struct ReplayScreen {
    playback: Playback,
    fx: Effects,
    /// The player who played it (cleaned).
    pub player: String,
    pub game: i64,
    /// Hundredths of a game ms played per front-end ms ([`SPEED_ONE`]: 1x).
    pub speed: u64,
    pub paused: bool,
    /// The game time shown, and the front-end time it was reached at; `frac` the hundredths
    /// of a game ms played beyond it.
    pos: Time,
    last: u64,
    frac: u64,
    /// Drawn for a recording (the asciicast export): no keys offered.
    film: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayAction {
    None,
    Changed,
    Back,
    AskQuit,
    /// Play on from here: [`ReplayScreen::take_over`] gives the game.
    TakeOver,
}

impl ReplayScreen {
    /// Starts watching `replay` at front-end time `now`, at 1x.
    pub fn new(replay: Replay, player: String, game: i64, now: u64) -> Result<Self, ReplayError> {
        Ok(ReplayScreen {
            playback: Playback::new(replay)?,
            fx: Effects::default(),
            player,
            game,
            speed: SPEED_ONE,
            paused: false,
            pos: 0,
            last: now,
            frac: 0,
            film: false,
        })
    }

    /// The speed in hundredths ([`SPEED_ONE`] is 1x).
    pub fn speed(&self) -> u64 {
        self.speed.clamp(SPEED_MIN, SPEED_MAX)
    }

    /// The game time shown.
    pub fn position(&self) -> Time {
        self.pos
    }

    pub fn end(&self) -> Time {
        self.playback.replay().end
    }

    pub fn finished(&self) -> bool {
        self.playback.finished()
    }

    pub fn game_view(&self) -> &Game {
        self.playback.game()
    }

    /// The inputs the viewer's engine has been fed (seeks included), for tests that bound a
    /// key's work.
    pub fn fed(&self) -> u64 {
        self.playback.fed()
    }

    /// A live game from the moment shown (its replay says it was taken over: it does not
    /// rank), or `None` once the game shown is over.
    pub fn take_over(&self) -> Option<Game> {
        self.playback.take_over()
    }

    fn clearing(&self) -> bool {
        matches!(self.playback.game().phase(), Phase::Clearing { .. })
    }

    /// Plays on to front-end time `now`; returns whether anything visible changed.
    pub fn tick(&mut self, now: u64) -> bool {
        if now <= self.last {
            return false;
        }
        let elapsed = now - self.last;
        self.last = now;
        if self.paused || self.finished() {
            self.frac = 0;
            return false;
        }
        let before = (
            self.fx.stamp(self.pos, self.clearing()),
            self.pos / CLOCK_STEP,
        );
        let played = self.frac + elapsed * self.speed();
        self.frac = played % SPEED_ONE;
        let target = (self.pos + played / SPEED_ONE).min(self.end());
        let events = self.playback.advance_to(target);
        self.fx.absorb(&events);
        self.pos = target;
        let after = (
            self.fx.stamp(self.pos, self.clearing()),
            self.pos / CLOCK_STEP,
        );
        !events.is_empty() || before != after || self.finished()
    }

    /// When the viewer next needs a tick (front-end time).
    pub fn wakeup(&self) -> Option<u64> {
        if self.paused || self.finished() {
            return None;
        }
        let g = [
            self.playback.next_input_time(),
            self.playback.game().next_deadline(),
            self.fx.next_change(self.pos, self.clearing()),
            Some((self.pos / CLOCK_STEP + 1) * CLOCK_STEP),
            Some(self.end()),
        ]
        .into_iter()
        .flatten()
        .filter(|&g| g > self.pos)
        .min()?;
        let owed = ((g - self.pos) * SPEED_ONE).saturating_sub(self.frac);
        let wait = owed.div_ceil(self.speed()).max(1);
        Some(self.last + wait)
    }

    /// Shows game time `t` (capped at the end), back or forth; effects start afresh there.
    fn seek(&mut self, t: Time) {
        let t = t.min(self.end());
        self.playback.seek(t);
        self.fx = Effects::default();
        self.pos = t;
        self.frac = 0;
    }

    /// The next moment a recorded input comes (`.`), or anything at all changes (`,`).
    fn next_step(&self, any_change: bool) -> Option<Time> {
        let input = self.playback.next_input_time();
        let change = any_change
            .then(|| self.playback.game().next_deadline())
            .flatten();
        [input, change]
            .into_iter()
            .flatten()
            .filter(|&t| t > self.pos)
            .min()
            .or_else(|| (self.pos < self.end()).then(|| self.end()))
    }

    fn restart(&mut self, now: u64) {
        self.seek(0);
        self.last = now;
        self.paused = false;
    }

    pub fn handle(&mut self, ev: KeyEvent, now: u64) -> ReplayAction {
        if is_ctrl(ev, 'c') {
            return ReplayAction::AskQuit;
        }
        if ev.kind == KeyKind::Release || ev.mods.ctrl || ev.mods.alt {
            return ReplayAction::None;
        }
        // Catch up at the old speed before anything changes.
        self.tick(now);
        let end = self.end();
        match ev.key {
            Key::Esc | Key::Backspace => return ReplayAction::Back,
            Key::Enter if self.finished() => self.restart(now),
            Key::Char('r' | 'R') => self.restart(now),
            Key::Char('t' | 'T') if !self.film && !self.game_view().is_over() => {
                return ReplayAction::TakeOver;
            }
            Key::Char(' ' | 'p' | 'P') if !self.finished() => self.paused = !self.paused,
            Key::Char('+') | Key::Up => self.speed = faster(self.speed(), SPEED_STEP),
            Key::Char('-' | '_') | Key::Down => self.speed = slower(self.speed(), SPEED_STEP),
            Key::Char(']') => self.speed = faster(self.speed(), SPEED_FINE),
            Key::Char('[') => self.speed = slower(self.speed(), SPEED_FINE),
            Key::Char('=') => self.speed = SPEED_ONE,
            Key::Right => self.seek(self.pos + SEEK_MS),
            Key::Left => self.seek(self.pos.saturating_sub(SEEK_MS)),
            Key::Home | Key::Char('0') => self.seek(0),
            Key::End => self.seek(end),
            Key::Char(d @ '1'..='9') => {
                let tenth = Time::from(d as u8 - b'0');
                self.seek(end * tenth / 10);
            }
            Key::Char(c @ ('.' | ',')) => {
                if let Some(t) = self.next_step(c == ',') {
                    self.seek(t);
                }
                self.paused = true;
            }
            _ => return ReplayAction::None,
        }
        self.last = now;
        ReplayAction::Changed
    }
}

/// One big or fine step faster, at most 8x.
fn faster(speed: u64, step: u64) -> u64 {
    ((speed / step + 1) * step).min(SPEED_MAX)
}

/// One big or fine step slower, at least 0.05x.
fn slower(speed: u64, step: u64) -> u64 {
    (speed.div_ceil(step).saturating_sub(1) * step).max(SPEED_MIN)
}

/// A speed as shown: "1x", "0.25x", "1.5x", "1.05x".
pub fn speed_text(speed: u64) -> StackStr<8> {
    let (whole, part) = (speed / SPEED_ONE, speed % SPEED_ONE);
    match part {
        0 => sfmt!(8; "{}x", whole),
        p if p % 10 == 0 => sfmt!(8; "{}.{}x", whole, p / 10),
        p => sfmt!(8; "{}.{:02}x", whole, p),
    }
}

/// The progress bar: `width` cells (at most 20), the part played full.
fn progress_bar(t: Time, end: Time, width: u16) -> StackStr<64> {
    let width = u64::from(width.min(20));
    let full = (t.min(end) * width).checked_div(end).unwrap_or(width);
    let mut bar = StackStr::<64>::new();
    for i in 0..width {
        // 3 bytes a cell, at most 60: it fits.
        let _ = bar.write_char(if i < full { '█' } else { '░' });
    }
    bar
}

/// Draws a replay being watched.
#[derive(Debug)]
pub struct ReplayView<'a> {
    pub state: &'a ReplayScreen,
    pub settings: &'a Settings,
    /// Where the web pages are: the game's page is shown under the replay, to share.
    pub web: Option<&'a str>,
}

impl Widget for &ReplayView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = Theme::new(self.settings);
        let s = self.state;
        let game = s.playback.game();
        let t = s.pos;
        let r = draw::centered(area, WIDTH, HEIGHT);
        let (x0, y0) = (r.x, r.y);
        let sep = sfmt!(8; " {} ", theme.dot());
        let sep = sep.as_str();
        let x = draw::put(buf, r, x0, y0, "REPLAY", theme.accent());
        let x = draw::put(buf, r, x, y0, sep, theme.dim());
        let x = draw::put(buf, r, x, y0, &s.player, theme.title());
        let x = draw::put(buf, r, x, y0, sep, theme.dim());
        let title = crate::rules::game_title(game, theme.dot());
        let x = draw::put(buf, r, x, y0, title.as_str(), theme.text());
        let x = draw::put(buf, r, x, y0, sep, theme.dim());
        let speed = speed_text(s.speed());
        draw::put(buf, r, x, y0, speed.as_str(), theme.accent());

        let cells = Playfield {
            game,
            fx: &s.fx,
            t,
            settings: self.settings,
            theme,
            hidden: false,
            blind: false,
            preview: None,
            scale: Scale::ONE,
        }
        .draw(buf, r);
        let progress = sfmt!(40; "{} / {}", clock(t).as_str(), clock(s.end()).as_str());
        let y = y0 + 1 + LEFT_ROWS_END;
        draw::put(buf, r, x0, y, progress.as_str(), theme.dim());
        let bar = progress_bar(t, s.end(), LEFT_W.saturating_sub(2));
        draw::put(buf, r, x0, y + 1, bar.as_str(), theme.accent());
        if s.paused {
            draw::put(buf, r, x0, y + 2, "PAUSED", theme.accent());
        } else {
            // The game's id: what `ssh HOST replay ID --cast` exports.
            let id = sfmt!(32; "game #{}", s.game);
            draw::put(buf, r, x0, y + 2, id.as_str(), theme.dim());
        }

        // The game's page, to share: on the row under the replay when the window has one,
        // else in place of the keys' hint while paused.
        let link = self
            .web
            .filter(|_| !s.film)
            .map(|web| sfmt!(128; "{}/game/{}", web, s.game))
            .filter(|l| l.as_str().chars().count() <= usize::from(area.width));
        let below = r.bottom() < area.bottom();
        let footer = match &link {
            _ if s.film => "minotty replay",
            Some(link) if s.paused && !below => link.as_str(),
            _ => FOOTER,
        };
        draw::put_centered(buf, r, y0 + HEIGHT - 1, footer, theme.dim());
        if let Some(link) = link.as_ref().filter(|_| below) {
            draw::put_centered(buf, area, r.bottom(), link.as_str(), theme.dim());
        }

        if s.finished() {
            let inner = draw::dialog(buf, cells, 20, 7, theme, "");
            draw::put_centered(buf, inner, inner.y, "REPLAY FINISHED", theme.accent());
            if let Some((reason, won)) = game.outcome() {
                let style = if won { theme.good() } else { theme.bad() };
                draw::put_centered(buf, inner, inner.y + 1, outcome_text(reason, won), style);
            }
            if !s.film {
                draw::put_centered(buf, inner, inner.y + 3, "Enter watch again", theme.dim());
                draw::put_centered(buf, inner, inner.y + 4, "Esc back", theme.dim());
            }
        }
    }
}

/// A stored game drawn at any game time without a clock or keys: the replay viewer's screen
/// for a recording (`ssh HOST replay ID --cast`). Time only moves forward.
#[derive(Clone, Debug)]
pub struct ReplayFilm {
    screen: ReplayScreen,
}

impl ReplayFilm {
    /// `player` is drawn as given (clean it first); `game` is the stored game's id.
    pub fn new(replay: Replay, player: String, game: i64) -> Result<Self, ReplayError> {
        let mut screen = ReplayScreen::new(replay, player, game, 0)?;
        screen.film = true;
        Ok(ReplayFilm { screen })
    }

    /// The game time shown.
    pub fn position(&self) -> Time {
        self.screen.position()
    }

    /// The replay's end (game time).
    pub fn end(&self) -> Time {
        self.screen.end()
    }

    pub fn finished(&self) -> bool {
        self.screen.finished()
    }

    /// The game as shown now.
    pub fn game(&self) -> &minotty_engine::Game {
        self.screen.game_view()
    }

    /// Plays on to game time `t` (at most the end); `true` when anything visible changed.
    pub fn advance_to(&mut self, t: Time) -> bool {
        // At 1x the viewer's front-end time is game time (it started at 0).
        self.screen.tick(t.min(self.end()))
    }

    /// The next game time at which anything shown can change (`None`: at the end).
    pub fn next_change(&self) -> Option<Time> {
        self.screen.wakeup()
    }

    /// Draws the screen as the replay viewer does, in `settings`' graphics and colours.
    pub fn render(&self, area: Rect, buf: &mut Buffer, settings: &Settings) {
        ReplayView {
            state: &self.screen,
            settings,
            web: None,
        }
        .render(area, buf);
    }
}
