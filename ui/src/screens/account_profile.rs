//! The player's own page: bests per mode (and per ruleset, where played) with their global
//! rank, recent games with their ruleset and id (Enter watches one) and versus matches, newest
//! first, and the versus rating;
//! `c` shows charts instead: a board's personal best over time (the board of the best
//! selected; Left/Right for another) and pieces per second of the latest games.

use ratatui::buffer::Buffer;
use ratatui::layout::{Margin, Rect};
use ratatui::style::Style;
use ratatui::widgets::Widget;

use super::account_form::{Load, clean, date, load_message};
use super::is_ctrl;
use crate::draw;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::rules::ruleset_name;
use crate::text::{clock, sanitize, sfmt};
use crate::theme::Theme;
use crate::widgets::charts::{ChartView, Series};
use minotty_engine::ModeKind;
use minotty_protocol::{BestHistory, Profile, RecentGame, RecentMatch};

/// The state of the profile screen.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProfileScreen {
    /// The profile shown (cleaned of control characters).
    pub profile: Option<Profile>,
    pub load: Load,
    /// Over the bests, then the recent games.
    pub cursor: usize,
    /// A guest: explains how to get a profile instead.
    pub guest: bool,
    /// Why the player is a guest, which says what to do about it.
    pub guest_kind: GuestKind,
    pub note: Option<String>,
    /// The player's own games on this computer (`minotty play`): there is no global rank.
    pub local: bool,
    /// The charts are shown instead of the lists.
    pub charts: bool,
    /// The board whose personal bests the chart shows (index into the charts' `bests`).
    pub chart_board: usize,
}

/// Why a player is a guest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GuestKind {
    /// Connected without an SSH key.
    #[default]
    NoKey,
    /// Connected with a key and chose to play as a guest (or has not chosen a name yet).
    ChoseGuest,
    /// The key's account could not be looked up: a guest for now.
    Unreachable,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProfileAction {
    None,
    Moved,
    Replay(i64),
    /// Watch stored versus match `id`, every board side by side.
    MatchReplay(i64),
    Back,
    AskQuit,
}

impl ProfileScreen {
    fn items(&self) -> usize {
        self.profile
            .as_ref()
            .map_or(0, |p| p.bests.len() + p.recent.len() + p.matches.len())
    }

    /// The game of item `i`, if it has one.
    fn game(&self, i: usize) -> Option<i64> {
        match self.watch(i)? {
            ProfileAction::Replay(g) => Some(g),
            _ => None,
        }
    }

    /// What Enter on item `i` watches, if anything: a game's replay, a match's.
    fn watch(&self, i: usize) -> Option<ProfileAction> {
        let p = self.profile.as_ref()?;
        match p.bests.get(i) {
            Some(b) => b.game.map(ProfileAction::Replay),
            None => match recent_item(p, i - p.bests.len())? {
                Recent::Game(g) => Some(ProfileAction::Replay(g.game)),
                Recent::Match(m) => Some(ProfileAction::MatchReplay(m.id)),
            },
        }
    }

    pub fn handle(&mut self, ev: KeyEvent) -> ProfileAction {
        if is_ctrl(ev, 'c') {
            return ProfileAction::AskQuit;
        }
        if ev.kind == KeyKind::Release || ev.mods.ctrl || ev.mods.alt {
            return ProfileAction::None;
        }
        let n = self.items();
        if self.charts {
            let boards = self.profile.as_ref().map_or(0, |p| p.charts.bests.len());
            return match ev.key {
                Key::Esc | Key::Backspace | Key::Char('c' | 'C') => {
                    self.charts = false;
                    ProfileAction::Moved
                }
                Key::Right | Key::Down | Key::Char('l' | 'd' | 'j' | 's') if boards > 1 => {
                    self.chart_board = (self.chart_board + 1) % boards;
                    ProfileAction::Moved
                }
                Key::Left | Key::Up | Key::Char('h' | 'a' | 'k' | 'w') if boards > 1 => {
                    self.chart_board = (self.chart_board + boards - 1) % boards;
                    ProfileAction::Moved
                }
                _ => ProfileAction::None,
            };
        }
        match ev.key {
            Key::Esc | Key::Backspace => ProfileAction::Back,
            Key::Char('c' | 'C') if self.profile.is_some() => {
                self.charts = true;
                self.chart_board = self.selected_board().unwrap_or(0);
                ProfileAction::Moved
            }
            Key::Down | Key::Char('j' | 's') if self.cursor + 1 < n => {
                self.cursor += 1;
                ProfileAction::Moved
            }
            Key::Up | Key::Char('k' | 'w') if self.cursor > 0 => {
                self.cursor -= 1;
                ProfileAction::Moved
            }
            Key::Enter | Key::Char(' ') if n > 0 => match self.watch(self.cursor) {
                Some(action) => {
                    self.note = Some("Loading the replay...".into());
                    action
                }
                None => {
                    self.note = Some("No replay for this one.".into());
                    ProfileAction::Moved
                }
            },
            Key::Enter if self.guest || matches!(self.load, Load::Offline) => ProfileAction::Back,
            _ => ProfileAction::None,
        }
    }

    /// The chart board of the best (or game) under the cursor, if it has a history.
    fn selected_board(&self) -> Option<usize> {
        let p = self.profile.as_ref()?;
        let (mode, ruleset) = match p.bests.get(self.cursor) {
            Some(b) => (b.mode, b.ruleset),
            None => match recent_item(p, self.cursor - p.bests.len())? {
                Recent::Game(g) => (g.mode, g.ruleset),
                Recent::Match(_) => return None,
            },
        };
        p.charts
            .bests
            .iter()
            .position(|h| h.mode == mode && h.ruleset == ruleset)
    }

    pub fn arrived(&mut self, p: &Profile) {
        let mut p = p.clone();
        p.name = sanitize(&p.name);
        for b in &mut p.bests {
            b.best = b.best.as_deref().map(clean);
        }
        for g in &mut p.recent {
            g.result = clean(&g.result);
            g.outcome = clean(&g.outcome);
        }
        for m in &mut p.matches {
            m.kind = clean(&m.kind);
            m.result = clean(&m.result);
            m.outcome = clean(&m.outcome);
        }
        self.profile = Some(p);
        self.load = Load::Ready;
        self.cursor = self.cursor.min(self.items().saturating_sub(1));
        let boards = self.profile.as_ref().map_or(0, |p| p.charts.bests.len());
        self.chart_board = self.chart_board.min(boards.saturating_sub(1));
    }
}

/// Draws the profile screen.
#[derive(Debug)]
pub struct ProfileView<'a> {
    pub state: &'a ProfileScreen,
    pub theme: Theme,
    /// How `ssh` reaches this server (`-p 2222 192.0.2.7`), when the front end said.
    pub address: Option<&'a str>,
    /// Where the web pages are: the profile's own page is shown under the name.
    pub web: Option<&'a str>,
}

/// Where a recent line's id column starts (the columns before it are cut to end a column
/// short of the next: "combo broken" never runs into "#20").
const COL_ID: u16 = 54;

/// Draws `columns` (offsets into `line` and texts) and the id, each cut by display columns
/// to end one column before the next starts.
fn columns_row(
    buf: &mut Buffer,
    line: Rect,
    columns: &[(u16, &str)],
    id: (u16, &str),
    style: Style,
) {
    let starts: Vec<u16> = columns.iter().map(|c| c.0).chain([id.0]).collect();
    for (i, (x, text)) in columns.iter().enumerate() {
        let room = starts[i + 1].saturating_sub(*x + 1);
        let text = minotty_domain::text::fit_width(text, usize::from(room));
        draw::put(buf, line, line.x + x, line.y, text, style);
    }
    draw::put(buf, line, line.x + id.0, line.y, id.1, style);
}

impl Widget for &ProfileView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let s = self.state;
        let r = draw::centered(area, 78, 24);
        let inner = draw::frame(buf, r, theme, "PROFILE", theme.dim());
        let body = inner.inner(Margin::new(2, 0));
        let hint = if s.charts {
            "Left/Right board   c lists   Esc back"
        } else {
            "Up/Down choose   Enter watch   c charts   Esc back"
        };
        let message = if s.guest && s.guest_kind == GuestKind::ChoseGuest {
            Some(
                "You chose to play as a guest this time: nothing is stored. Connect again \
                 with your key and choose a player name on the welcome screen to save your \
                 games, keep your settings and enter the leaderboards.",
            )
        } else if s.guest && s.guest_kind == GuestKind::Unreachable {
            Some(
                "Your account could not be reached, so you play as a guest for now: nothing \
                 is stored. Press r on the main menu to try again.",
            )
        } else if s.guest {
            Some(
                "You are playing as a guest: nothing is stored. Connect with an SSH key \
                 (ssh -i ~/.ssh/id_ed25519 ...) to save your games, keep your settings and \
                 enter the leaderboards.",
            )
        } else {
            load_message(&s.load)
        };
        let Some(p) = s.profile.as_ref().filter(|_| message.is_none()) else {
            let style = match s.load {
                Load::Failed(_) => theme.bad(),
                _ => theme.text(),
            };
            draw::wrapped(buf, body, inner.y + 3, message.unwrap_or(""), style);
            draw::hint(buf, inner, "Esc back", theme);
            return;
        };
        draw::put(buf, body, body.x, inner.y, &p.name, theme.title());
        if let Some((rating, deviation, games)) = p.rating {
            let line =
                sfmt!(64; "Versus rating {:.0} (+/-{:.0}, {} games)", rating, deviation, games);
            draw::put_right(buf, body, inner.y, line.as_str(), theme.accent());
        }
        let standing = p.ranked.as_deref().unwrap_or("");
        draw::put_right(buf, body, inner.y + 1, standing, theme.accent());
        // The profile's page, left of the standing when both fit.
        if let Some(web) = self.web.filter(|_| !s.local) {
            let link = sfmt!(128; "{}/player/{}", web, p.name);
            let room = usize::from(body.width).saturating_sub(standing.chars().count() + 2);
            if link.as_str().chars().count() <= room {
                draw::put(buf, body, body.x, inner.y + 1, link.as_str(), theme.dim());
            }
        }
        if s.charts {
            let area = Rect::new(
                body.x,
                inner.y + 2,
                body.width,
                inner.height.saturating_sub(4),
            );
            draw_charts(buf, area, p, s.chart_board, theme);
            draw::hint(buf, inner, hint, theme);
            return;
        }
        // Bests.
        let y = inner.y + 2;
        draw::put(buf, body, body.x, y, "BESTS", theme.dim());
        if !s.local {
            draw::put_right(buf, body, y, "global rank", theme.dim());
        }
        for (i, b) in p.bests.iter().enumerate() {
            let y = y + 1 + i as u16;
            let style = if i == s.cursor {
                theme.selected()
            } else {
                theme.text()
            };
            let line = Rect::new(body.x, y, body.width, 1).intersection(body);
            for x in line.left()..line.right() {
                draw::put(buf, line, x, y, " ", style);
            }
            draw::put(buf, line, line.x, y, b.mode.title(), style);
            draw::put(buf, line, line.x + 10, y, ruleset_name(b.ruleset), style);
            let best = b.best.as_deref().unwrap_or("-");
            draw::put(buf, line, line.x + 22, y, best, style);
            let rank = match b.rank {
                Some(r) => sfmt!(24; "#{}", r),
                None => sfmt!(24; "-"),
            };
            draw::put_right(buf, line, y, rank.as_str(), style);
        }
        // Recent games, scrolled to keep the cursor in view.
        let y = y + 2 + p.bests.len() as u16;
        draw::put(buf, body, body.x, y, "RECENT GAMES", theme.dim());
        let rows = inner.bottom().saturating_sub(y + 3);
        let list = Rect::new(body.x, y + 1, body.width, rows).intersection(body);
        let recent = p.recent.len() + p.matches.len();
        if recent == 0 {
            draw::put(buf, list, list.x, list.y, "No games yet.", theme.dim());
        }
        let selected = s.cursor.checked_sub(p.bests.len());
        let first = selected.map_or(0, |c| (c + 1).saturating_sub(usize::from(rows)));
        for i in first..recent {
            let y = list.y + (i - first) as u16;
            if y >= list.bottom() {
                break;
            }
            let Some(item) = recent_item(p, i) else {
                break;
            };
            let style = if Some(i) == selected {
                theme.selected()
            } else {
                theme.text()
            };
            let line = Rect::new(list.x, y, list.width, 1);
            for x in line.left()..line.right() {
                draw::put(buf, line, x, y, " ", style);
            }
            let (mode, kind, result, outcome, id, ended) = match item {
                Recent::Match(m) => (
                    "Versus",
                    m.kind.as_str(),
                    m.result.as_str(),
                    m.outcome.as_str(),
                    sfmt!(24; "m{}", m.id),
                    m.ended_at,
                ),
                Recent::Game(g) => (
                    g.mode.title(),
                    ruleset_name(g.ruleset),
                    g.result.as_str(),
                    g.outcome.as_str(),
                    sfmt!(24; "#{}", g.game),
                    g.ended_at,
                ),
            };
            let day = date(ended);
            let date_x = line.right().saturating_sub(draw::width(day.as_str()));
            let columns = [(0, mode), (10, kind), (22, result), (40, outcome)];
            columns_row(buf, line, &columns, (COL_ID, id.as_str()), style);
            let id_end = line.x + COL_ID + draw::width(id.as_str());
            if id_end < date_x {
                draw::put_right(buf, line, y, day.as_str(), style);
            }
        }
        let y = inner.bottom().saturating_sub(2);
        if let Some(n) = &s.note {
            draw::put_centered(buf, inner, y, n, theme.dim());
        } else if let Some(watch) = s.watch(s.cursor) {
            // What an id is for: the command that fetches it from this server.
            let line = match (watch, self.address) {
                (ProfileAction::MatchReplay(m), Some(at)) => {
                    sfmt!(128; "match m{}: ssh -t {} replay m{} (or --cast > match.cast)", m, at, m)
                }
                (ProfileAction::MatchReplay(m), None) => {
                    sfmt!(128; "match m{}: replay m{}, over ssh -t to this server", m, m)
                }
                (_, Some(at)) => {
                    let game = s.game(s.cursor).unwrap_or(0);
                    sfmt!(128; "game #{}: ssh {} replay {} --cast > game.cast", game, at, game)
                }
                (_, None) => {
                    let game = s.game(s.cursor).unwrap_or(0);
                    sfmt!(128; "game #{}: replay {} --cast, over ssh to this server", game, game)
                }
            };
            draw::put_centered(buf, inner, y, line.as_str(), theme.dim());
        }
        draw::hint(buf, inner, hint, theme);
    }
}

/// A line of the recent list: the solo games and the versus matches, merged newest first.
#[derive(Clone, Copy, Debug)]
enum Recent<'a> {
    Game(&'a RecentGame),
    Match(&'a RecentMatch),
}

/// Line `k` of the recent list (both lists arrive newest first; a tie lists the game first).
fn recent_item(p: &Profile, k: usize) -> Option<Recent<'_>> {
    let (mut g, mut m) = (0, 0);
    loop {
        let item = match (p.recent.get(g), p.matches.get(m)) {
            (Some(a), Some(b)) if a.ended_at >= b.ended_at => Recent::Game(a),
            (_, Some(b)) => Recent::Match(b),
            (Some(a), None) => Recent::Game(a),
            (None, None) => return None,
        };
        if g + m == k {
            return Some(item);
        }
        match item {
            Recent::Game(_) => g += 1,
            Recent::Match(_) => m += 1,
        }
    }
}

/// The profile's two charts in `area`: the personal best of board `board` over time above,
/// pieces per second per game below (either alone when the area is short).
fn draw_charts(buf: &mut Buffer, area: Rect, p: &Profile, board: usize, theme: Theme) {
    let half = area.height / 2;
    let (top, bottom) = if half >= 7 {
        (
            Rect::new(area.x, area.y, area.width, half),
            Rect::new(area.x, area.y + half, area.width, area.height - half),
        )
    } else {
        // Too short for two charts with axes: two sparklines.
        (
            Rect::new(area.x, area.y, area.width, half.max(1)),
            Rect::new(area.x, area.y + half, area.width, area.height - half),
        )
    };
    let history = p.charts.bests.get(board);
    // A best holds until the next one: steps, not diagonals.
    let best: Vec<(f64, f64)> = history.map_or_else(Vec::new, |h| {
        let points: Vec<(f64, f64)> = h
            .points
            .iter()
            .map(|pt| (pt.at as f64, pt.value as f64))
            .collect();
        crate::widgets::charts::steps(&points)
    });
    let span = history.map_or(0, |h| match (h.points.first(), h.points.last()) {
        (Some(a), Some(b)) => b.at - a.at,
        _ => 0,
    });
    let title = match history {
        Some(h) => format!(
            "PERSONAL BEST {} {} {} {}",
            theme.dot(),
            h.mode.title(),
            theme.dot(),
            ruleset_name(h.ruleset)
        ),
        None => "PERSONAL BEST: no ranked games yet".to_owned(),
    };
    let series = [Series {
        label: history.map_or("best", |h| figure_name(h)),
        points: &best,
    }];
    ChartView {
        title: &title,
        series: &series,
        x_label: if span < 2 * DAY_MS {
            |t| {
                // Within a day or two: the time of day (UTC).
                let m = (t as i64).rem_euclid(DAY_MS) / 60_000;
                format!("{:02}:{:02}", m / 60, m % 60)
            }
        } else {
            |t| date(t as i64).as_str().to_owned()
        },
        y_label: history.map_or(integer, |h| figure_label(h.mode)),
        from_zero: false,
        theme,
    }
    .render(top, buf);
    let pps: Vec<(f64, f64)> = p
        .charts
        .pps
        .iter()
        .enumerate()
        .map(|(i, g)| ((i + 1) as f64, g.pps))
        .collect();
    let games = crate::text::plural(pps.len() as u64, "game", "games");
    let title = format!(
        "PIECES PER SECOND {} last {} {games}",
        theme.dot(),
        pps.len()
    );
    let series = [Series {
        label: "pps",
        points: &pps,
    }];
    ChartView {
        title: &title,
        series: &series,
        x_label: |g| format!("{g:.0}"),
        y_label: |v| format!("{v:.2}"),
        from_zero: true,
        theme,
    }
    .render(bottom, buf);
}

const DAY_MS: i64 = 86_400_000;

/// What a board's chart counts.
fn figure_name(h: &BestHistory) -> &'static str {
    minotty_domain::modes::measure(h.mode).figure_name()
}

fn integer(v: f64) -> String {
    format!("{v:.0}")
}

/// How a board's figure is written on the chart's axis: a clock for a time (40 lines',
/// survival's), else a whole number.
fn figure_label(mode: ModeKind) -> fn(f64) -> String {
    if minotty_domain::modes::measure(mode).is_time() {
        |ms| clock(ms.max(0.0) as u64).as_str().to_owned()
    } else {
        integer
    }
}
