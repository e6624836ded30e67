//! The replay viewer: a stored game played back in real time from its replay, at 1x, 2x, 4x or
//! 8x, with pause and restart, drawn like the game screen.

use minotty_engine::{Phase, Playback, Replay, ReplayError, Time};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::game::{HEIGHT, LEFT_ROWS_END, Playfield, WIDTH, outcome_text};
use super::is_ctrl;
use crate::draw;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::session::Effects;
use crate::settings::Settings;
use crate::text::{clock, sfmt};
use crate::theme::Theme;
use crate::widgets::board::Scale;

/// The playback speeds.
pub const SPEEDS: [u64; 4] = [1, 2, 4, 8];
/// The clock is redrawn at least this often, in game time.
const CLOCK_STEP: Time = 1000;

/// A replay being watched.
#[derive(Clone, Debug)]
pub struct ReplayScreen {
    playback: Playback,
    fx: Effects,
    /// The player who played it (cleaned).
    pub player: String,
    pub game: i64,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    pub paused: bool,
    /// The game time shown, and the front-end time it was reached at.
    pos: Time,
    last: u64,
    /// Drawn for a recording (the asciicast export): no keys offered.
    film: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayAction {
    None,
    Changed,
    Back,
    AskQuit,
}

impl ReplayScreen {
    /// Starts watching `replay` at front-end time `now`, at 1x.
    pub fn new(replay: Replay, player: String, game: i64, now: u64) -> Result<Self, ReplayError> {
        Ok(ReplayScreen {
            playback: Playback::new(replay)?,
            fx: Effects::default(),
            player,
            game,
            speed: 0,
            paused: false,
            pos: 0,
            last: now,
            film: false,
        })
    }

    pub fn speed(&self) -> u64 {
        SPEEDS[self.speed.min(SPEEDS.len() - 1)]
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

    pub fn game_view(&self) -> &minotty_engine::Game {
        self.playback.game()
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
            return false;
        }
        let before = (
            self.fx.stamp(self.pos, self.clearing()),
            self.pos / CLOCK_STEP,
        );
        let target = (self.pos + elapsed * self.speed()).min(self.end());
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
        let replay = self.playback.replay();
        let next_input = replay.inputs.partition_point(|&(t, _)| t <= self.pos);
        let g = [
            replay.inputs.get(next_input).map(|&(t, _)| t),
            self.playback.game().next_deadline(),
            self.fx.next_change(self.pos, self.clearing()),
            Some((self.pos / CLOCK_STEP + 1) * CLOCK_STEP),
            Some(self.end()),
        ]
        .into_iter()
        .flatten()
        .filter(|&g| g > self.pos)
        .min()?;
        let speed = self.speed();
        let wait = (g - self.pos).div_ceil(speed).max(1);
        Some(self.last + wait)
    }

    fn restart(&mut self, now: u64) {
        if let Ok(p) = Playback::new(self.playback.replay().clone()) {
            self.playback = p;
        }
        self.fx = Effects::default();
        self.pos = 0;
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
        match ev.key {
            Key::Esc | Key::Backspace => return ReplayAction::Back,
            Key::Enter if self.finished() => self.restart(now),
            Key::Char('r' | 'R') => self.restart(now),
            Key::Char(' ' | 'p' | 'P') if !self.finished() => self.paused = !self.paused,
            Key::Char('+' | '=') | Key::Right | Key::Up => {
                self.speed = (self.speed + 1).min(SPEEDS.len() - 1);
            }
            Key::Char('-' | '_') | Key::Left | Key::Down => {
                self.speed = self.speed.saturating_sub(1);
            }
            _ => return ReplayAction::None,
        }
        ReplayAction::Changed
    }
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
        let speed = sfmt!(8; "{}x", s.speed());
        draw::put(buf, r, x, y0, speed.as_str(), theme.accent());

        let cells = Playfield {
            game,
            fx: &s.fx,
            t,
            settings: self.settings,
            theme,
            hidden: false,
            preview: None,
            scale: Scale::ONE,
        }
        .draw(buf, r);
        let progress = sfmt!(40; "{} / {}", clock(t).as_str(), clock(s.end()).as_str());
        let y = y0 + 1 + LEFT_ROWS_END;
        draw::put(buf, r, x0, y, progress.as_str(), theme.dim());
        if s.paused {
            draw::put(buf, r, x0, y + 1, "PAUSED", theme.accent());
        }
        // The game's id: what `ssh HOST replay ID --cast` exports.
        let id = sfmt!(32; "game #{}", s.game);
        draw::put(buf, r, x0, y + 2, id.as_str(), theme.dim());

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
            _ => "Space pause   +/- speed   r restart   Esc back",
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
