//! The leaderboards: a tab per mode and the versus rating board, a period switch, a ruleset
//! switch (`u`: 40 lines, marathon and ultra have a board per ruleset), pages of
//! [`PAGE_ROWS`] rows as the server formats them, the player's own row highlighted (or shown
//! below the page), and Enter to watch an entry's replay.

pub use crate::boards::{board_title, period_title};
use std::fmt::Write;

use minotty_engine::RulesetId;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use super::account_form::{Load, clean, date, load_message};
use super::is_ctrl;
use super::mode_select::races_ghosts;
use crate::draw;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::rules::ruleset_name;
use crate::text::{StackStr, sanitize, sfmt};
use crate::theme::Theme;
use minotty_protocol::{BoardId, BoardPeriod, BoardRow, LeaderboardPage, PAGE_ROWS};

/// The tabs, left to right: every mode with a leaderboard (the modes table's order), then
/// versus and the climb.
pub const BOARDS: [BoardId; TABS] = tabs();

/// The tabs: the ranked modes, versus and the climb.
const TABS: usize = minotty_domain::modes::RANKED.len() + 2;

const fn tabs() -> [BoardId; TABS] {
    let modes = minotty_domain::modes::RANKED;
    let mut out = [BoardId::Versus; TABS];
    let mut i = 0;
    while i < modes.len() {
        out[i] = BoardId::Solo(modes[i]);
        i += 1;
    }
    out[modes.len()] = BoardId::Versus;
    out[modes.len() + 1] = BoardId::Climb;
    out
}

const PERIODS: [BoardPeriod; 3] = [BoardPeriod::AllTime, BoardPeriod::Month, BoardPeriod::Today];

/// The state of the leaderboard screen.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardScreen {
    pub tab: usize,
    pub period: BoardPeriod,
    /// The ruleset chosen for the boards that have one per ruleset.
    pub rules: RulesetId,
    pub offset: u32,
    /// The selected row of the page.
    pub cursor: usize,
    /// The page shown (cleaned of control characters).
    pub page: Option<LeaderboardPage>,
    pub load: Load,
    /// A passing note, e.g. "Loading the replay...".
    pub note: Option<String>,
    /// The player's own games kept on this computer (`minotty play`), not a server's board.
    pub local: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardAction {
    None,
    Moved,
    /// Ask the server for the page now selected (board, period, offset).
    Fetch,
    Replay(i64),
    /// Race this entry's game as a ghost (G on a 40 lines or ultra board).
    Ghost(i64),
    Back,
    AskQuit,
}

impl BoardScreen {
    pub fn board(&self) -> BoardId {
        BOARDS[self.tab % BOARDS.len()]
    }

    /// Whether the board on screen has a board per ruleset.
    pub fn per_ruleset(&self) -> bool {
        match self.board() {
            BoardId::Solo(kind) => minotty_domain::modes::rules(kind).boards.len() > 1,
            BoardId::Versus | BoardId::Climb => false,
        }
    }

    /// The ruleset of the board on screen.
    pub fn ruleset(&self) -> RulesetId {
        match self.board() {
            _ if self.per_ruleset() => self.rules,
            // Descent's one board is tetrs; the others' standard.
            BoardId::Solo(kind) => crate::rules::fixed_ruleset(kind),
            BoardId::Versus | BoardId::Climb => RulesetId::Standard,
        }
    }

    fn rows(&self) -> usize {
        self.page.as_ref().map_or(0, |p| p.rows.len())
    }

    fn refetch(&mut self) -> BoardAction {
        self.load = Load::Loading;
        self.page = None;
        self.note = None;
        BoardAction::Fetch
    }

    fn first_page(&mut self) -> BoardAction {
        self.offset = 0;
        self.cursor = 0;
        self.refetch()
    }

    fn more_pages(&self) -> bool {
        self.page
            .as_ref()
            .is_some_and(|p| u64::from(self.offset) + u64::from(PAGE_ROWS) < p.total)
    }

    fn next_page(&mut self) -> BoardAction {
        if !self.more_pages() {
            return BoardAction::None;
        }
        self.offset += PAGE_ROWS;
        self.cursor = 0;
        self.refetch()
    }

    fn prev_page(&mut self, cursor: usize) -> BoardAction {
        if self.offset == 0 {
            return BoardAction::None;
        }
        self.offset = self.offset.saturating_sub(PAGE_ROWS);
        self.cursor = cursor;
        self.refetch()
    }

    pub fn handle(&mut self, ev: KeyEvent) -> BoardAction {
        if is_ctrl(ev, 'c') {
            return BoardAction::AskQuit;
        }
        if ev.kind == KeyKind::Release || ev.mods.ctrl || ev.mods.alt {
            return BoardAction::None;
        }
        if matches!(self.load, Load::Offline) {
            return match ev.key {
                Key::Esc | Key::Backspace | Key::Enter => BoardAction::Back,
                _ => BoardAction::None,
            };
        }
        let n = BOARDS.len();
        match ev.key {
            Key::Esc | Key::Backspace => BoardAction::Back,
            Key::Left | Key::Char('h' | 'a') => {
                self.tab = (self.tab + n - 1) % n;
                self.first_page()
            }
            Key::Right | Key::Char('l' | 'd') => {
                self.tab = (self.tab + 1) % n;
                self.first_page()
            }
            Key::Tab | Key::Char('p' | 'P') => {
                let i = PERIODS.iter().position(|&p| p == self.period).unwrap_or(0);
                self.period = PERIODS[(i + 1) % PERIODS.len()];
                self.first_page()
            }
            Key::BackTab => {
                let i = PERIODS.iter().position(|&p| p == self.period).unwrap_or(0);
                self.period = PERIODS[(i + PERIODS.len() - 1) % PERIODS.len()];
                self.first_page()
            }
            Key::Char('u' | 'U') if self.per_ruleset() => {
                let i = RulesetId::ALL.iter().position(|&r| r == self.rules);
                let next = i.map_or(0, |i| (i + 1) % RulesetId::ALL.len());
                self.rules = RulesetId::ALL[next];
                self.first_page()
            }
            Key::PageDown | Key::Char(']') => self.next_page(),
            Key::PageUp | Key::Char('[') => self.prev_page(0),
            Key::Char('r' | 'R') => self.refetch(),
            Key::Down | Key::Char('j' | 's') => {
                if self.cursor + 1 < self.rows() {
                    self.cursor += 1;
                    BoardAction::Moved
                } else {
                    self.next_page()
                }
            }
            Key::Up | Key::Char('k' | 'w') => {
                if self.cursor > 0 {
                    self.cursor -= 1;
                    BoardAction::Moved
                } else {
                    self.prev_page(PAGE_ROWS as usize - 1)
                }
            }
            Key::Home => {
                if self.offset == 0 {
                    self.cursor = 0;
                    BoardAction::Moved
                } else {
                    self.first_page()
                }
            }
            Key::Char('g' | 'G') => {
                let races = matches!(self.board(), BoardId::Solo(k) if races_ghosts(k));
                let row = self.page.as_ref().and_then(|p| p.rows.get(self.cursor));
                match row {
                    Some(BoardRow { game: Some(g), .. }) if races => {
                        self.note = Some("Loading the ghost...".into());
                        BoardAction::Ghost(*g)
                    }
                    Some(_) if races => {
                        self.note = Some("No replay for this entry.".into());
                        BoardAction::Moved
                    }
                    _ => BoardAction::None,
                }
            }
            Key::Enter | Key::Char(' ') => {
                let row = self.page.as_ref().and_then(|p| p.rows.get(self.cursor));
                match row {
                    Some(BoardRow { game: Some(g), .. }) => {
                        self.note = Some("Loading the replay...".into());
                        BoardAction::Replay(*g)
                    }
                    Some(_) => {
                        self.note = Some("No replay for this entry.".into());
                        BoardAction::Moved
                    }
                    None => BoardAction::None,
                }
            }
            _ => BoardAction::None,
        }
    }

    /// A page arrived: kept when it is the one asked for last. Returns whether it was.
    pub fn arrived(&mut self, page: &LeaderboardPage) -> bool {
        if page.board != self.board()
            || page.ruleset != self.ruleset()
            || page.period != self.period
            || page.offset != self.offset
        {
            return false;
        }
        let row = |r: &BoardRow| BoardRow {
            name: sanitize(&r.name),
            values: r.values.iter().map(|v| clean(v)).collect(),
            ..r.clone()
        };
        let page = LeaderboardPage {
            columns: page.columns.iter().map(|c| clean(c)).collect(),
            rows: page.rows.iter().map(row).collect(),
            own: page.own.as_ref().map(row),
            ..page.clone()
        };
        self.cursor = self.cursor.min(page.rows.len().saturating_sub(1));
        self.page = Some(page);
        self.load = Load::Ready;
        true
    }
}

/// Draws the leaderboard screen.
#[derive(Debug)]
pub struct BoardView<'a> {
    pub state: &'a BoardScreen,
    pub theme: Theme,
}

/// Column widths: rank, name, then up to this many server columns.
const RANK_W: u16 = 6;
const NAME_W: u16 = 17;
const MAX_COLUMNS: usize = 6;
const DATE_W: u16 = 12;

impl Widget for &BoardView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let s = self.state;
        let r = draw::centered(area, 78, 24);
        let title = if s.local {
            "YOUR SCOREBOARD ON THIS COMPUTER"
        } else {
            "LEADERBOARDS"
        };
        let inner = draw::frame(buf, r, theme, title, theme.dim());
        draw_tabs(buf, inner, s.tab, theme);
        // Periods.
        let periods_w: u16 = PERIODS
            .iter()
            .map(|&p| draw::width(period_title(s.board(), p)) + 3)
            .sum();
        let mut x = inner.x + inner.width.saturating_sub(periods_w) / 2;
        for &p in &PERIODS {
            let style = if p == s.period {
                theme.accent()
            } else {
                theme.dim()
            };
            let label = sfmt!(24; " {} ", period_title(s.board(), p));
            x = draw::put(buf, inner, x, inner.y + 1, label.as_str(), style);
            x = draw::put(buf, inner, x, inner.y + 1, " ", theme.dim());
        }
        // The ruleset of the board, and the key that changes it where the mode has one board
        // per ruleset (no arrows: Left/Right change the mode).
        let ruleset = if s.per_ruleset() {
            sfmt!(48; "Ruleset: {}  (u changes)", ruleset_name(s.ruleset()))
        } else {
            sfmt!(48; "Ruleset: {}", ruleset_name(s.ruleset()))
        };
        draw::put_centered(buf, inner, inner.y + 2, ruleset.as_str(), theme.dim());
        let table = Rect::new(
            inner.x + 1,
            inner.y + 3,
            inner.width.saturating_sub(2),
            PAGE_ROWS as u16 + 1,
        )
        .intersection(inner);
        let status_y = inner.bottom().saturating_sub(2);
        match (&s.page, load_message(&s.load)) {
            (Some(page), None) if !page.rows.is_empty() || page.own.is_some() => {
                self.table(buf, table, page);
                let own_y = table.bottom();
                let on_page = page.own.as_ref().is_none_or(|o| is_own(page, o));
                if let (Some(own), false) = (&page.own, on_page) {
                    let mut line = StackStr::<192>::new();
                    let _ = write!(line, "You: #{}  {}", own.rank, own.name);
                    for v in own.values.iter().take(MAX_COLUMNS) {
                        let _ = write!(line, "  {v}");
                    }
                    draw::put_centered(buf, inner, own_y, line.as_str(), theme.accent());
                }
                let last = u64::from(s.offset) + page.rows.len() as u64;
                let status = match &s.note {
                    Some(n) => sfmt!(128; "{}", n),
                    None if page.rows.is_empty() => sfmt!(128; "No entries on this page."),
                    None => {
                        let race = matches!(s.board(), BoardId::Solo(k) if races_ghosts(k));
                        let g = if race { "   G race it" } else { "" };
                        sfmt!(128; "{}-{} of {}   Enter watch the replay{}",
                            s.offset + 1, last, page.total, g)
                    }
                };
                draw::put_centered(buf, inner, status_y, status.as_str(), theme.dim());
            }
            (Some(_), None) => {
                let y = inner.y + 8;
                let empty = "No games yet - be the first!";
                draw::put_centered(buf, inner, y, empty, theme.text());
            }
            (_, message) => {
                let message = message.unwrap_or("Loading...");
                let style = match s.load {
                    Load::Failed(_) => theme.bad(),
                    _ => theme.dim(),
                };
                let at = Rect::new(inner.x + 2, inner.y + 8, inner.width.saturating_sub(4), 4);
                let at = at.intersection(inner);
                let w = draw::width(message).min(at.width);
                let centred = Rect::new(at.x + (at.width - w) / 2, at.y, w, at.height);
                draw::wrapped(buf, centred, at.y, message, style);
            }
        }
        let hint = if matches!(s.load, Load::Offline) {
            "Esc back"
        } else if s.per_ruleset() {
            "Left/Right mode  Tab period  u ruleset  PgUp/PgDn page  Esc back"
        } else {
            "Left/Right mode  Tab period  PgUp/PgDn page  Esc back"
        };
        draw::hint(buf, inner, hint, theme);
    }
}

/// Whether `row` is the player's own entry.
/// The mode tabs on the top row of `inner`, `tab` selected: each padded by a space on both
/// sides, or where that does not fit with the arrows unpadded with one space between them, and
/// where that does not fit either (80 columns) as many as fit around the one shown, a `..` on
/// the side of those left out (ASCII, for every graphics setting). Left/Right change the mode: the arrows sit on the tabs.
fn draw_tabs(buf: &mut Buffer, inner: Rect, tab: usize, theme: Theme) {
    let (shown, padded) = tab_window(tab, inner.width.saturating_sub(4));
    let tabs = &BOARDS[shown.clone()];
    let titles_w: u16 = tabs.iter().map(|&b| draw::width(board_title(b))).sum();
    let tabs_w = if padded {
        titles_w + 2 * tabs.len() as u16
    } else {
        titles_w + tabs.len() as u16 - 1
    };
    let (before, after) = (shown.start > 0, shown.end < BOARDS.len());
    let total = tabs_w + 3 * u16::from(before) + 3 * u16::from(after);
    let mut x = inner.x + inner.width.saturating_sub(total) / 2;
    if total + 4 <= inner.width {
        draw::put(buf, inner, x - 2, inner.y, "<", theme.dim());
        draw::put(buf, inner, x + total + 1, inner.y, ">", theme.dim());
    }
    if before {
        x = draw::put(buf, inner, x, inner.y, ".. ", theme.dim());
    }
    for (i, &b) in BOARDS.iter().enumerate().skip(shown.start).take(tabs.len()) {
        let style = if i == tab {
            theme.selected()
        } else {
            theme.dim()
        };
        let label = if padded {
            sfmt!(24; " {} ", board_title(b))
        } else {
            sfmt!(24; "{}", board_title(b))
        };
        x = draw::put(buf, inner, x, inner.y, label.as_str(), style);
        if !padded {
            x = x.saturating_add(1);
        }
    }
    if after {
        draw::put(buf, inner, x, inner.y, "..", theme.dim());
    }
}

/// The tabs shown in `room` columns with `tab` among them, and whether they are padded: all of
/// them padded (a space each side) where they fit, else unpadded (a space between), else the
/// longest run of them around `tab` that fits beside a `.. ` for each side left out, from the
/// first on while `tab` is in it.
fn tab_window(tab: usize, room: u16) -> (std::ops::Range<usize>, bool) {
    let w = |r: &std::ops::Range<usize>| -> u16 {
        let titles: u16 = BOARDS[r.clone()]
            .iter()
            .map(|&b| draw::width(board_title(b)))
            .sum();
        let marks = 3 * u16::from(r.start > 0) + 3 * u16::from(r.end < BOARDS.len());
        titles + (r.len() as u16).saturating_sub(1) + marks
    };
    let all = 0..BOARDS.len();
    // Padded: two more columns a tab, less the one between each two.
    if w(&all) + (BOARDS.len() as u16) < room {
        return (all, true);
    }
    if w(&all) <= room {
        return (all, false);
    }
    let tab = tab.min(BOARDS.len() - 1);
    let mut start = 0;
    while start < tab && w(&(start..tab + 1)) > room {
        start += 1;
    }
    let mut end = tab + 1;
    while end < BOARDS.len() && w(&(start..end + 1)) <= room {
        end += 1;
    }
    (start..end, false)
}

fn is_own(page: &LeaderboardPage, own: &BoardRow) -> bool {
    page.rows
        .iter()
        .any(|r| r.rank == own.rank && r.name == own.name)
}

impl BoardView<'_> {
    /// The width of server column `i`: its title or widest value, and a gap.
    fn column_w(page: &LeaderboardPage, i: usize) -> u16 {
        let title = page.columns.get(i).map_or(0, |c| draw::width(c));
        let values = page
            .rows
            .iter()
            .chain(page.own.as_ref())
            .filter_map(|r| r.values.get(i))
            .map(|v| draw::width(v))
            .max()
            .unwrap_or(0);
        title.max(values).min(24) + 2
    }

    fn show_date(page: &LeaderboardPage, width: u16) -> bool {
        let used: u16 = (0..page.columns.len().min(MAX_COLUMNS))
            .map(|i| Self::column_w(page, i))
            .sum();
        RANK_W + NAME_W + used + DATE_W <= width
    }

    fn table(&self, buf: &mut Buffer, table: Rect, page: &LeaderboardPage) {
        let theme = self.theme;
        let y = table.y;
        let rank = Rect::new(table.x, y, RANK_W - 1, 1).intersection(table);
        draw::put_right(buf, rank, y, "#", theme.dim());
        draw::put(buf, table, table.x + RANK_W, y, "Player", theme.dim());
        let mut x = table.x + RANK_W + NAME_W;
        for i in 0..page.columns.len().min(MAX_COLUMNS) {
            let w = Self::column_w(page, i);
            let cell = Rect::new(x, y, w, 1).intersection(table);
            draw::put_right(buf, cell, y, &page.columns[i], theme.dim());
            x = x.saturating_add(w);
        }
        if Self::show_date(page, table.width) {
            let cell = Rect::new(x, y, DATE_W, 1).intersection(table);
            draw::put_right(buf, cell, y, "Date", theme.dim());
        }
        for (i, row) in page.rows.iter().enumerate() {
            let y = table.y + 1 + i as u16;
            let own = page
                .own
                .as_ref()
                .is_some_and(|o| o.rank == row.rank && o.name == row.name);
            let style = if i == self.state.cursor {
                theme.selected()
            } else if own {
                theme.accent()
            } else {
                theme.text()
            };
            self.row(buf, table, y, page, row, style);
        }
    }

    fn row(
        &self,
        buf: &mut Buffer,
        table: Rect,
        y: u16,
        page: &LeaderboardPage,
        row: &BoardRow,
        style: Style,
    ) {
        let line = Rect::new(table.x, y, table.width, 1).intersection(table);
        for x in line.left()..line.right() {
            draw::put(buf, line, x, y, " ", style);
        }
        let rank = sfmt!(24; "{}", row.rank);
        let cell = Rect::new(line.x, y, RANK_W - 1, 1).intersection(line);
        draw::put_right(buf, cell, y, rank.as_str(), style);
        let name = Rect::new(line.x + RANK_W, y, NAME_W - 1, 1).intersection(line);
        draw::put(buf, name, name.x, y, &row.name, style);
        let mut x = line.x + RANK_W + NAME_W;
        for i in 0..page.columns.len().min(MAX_COLUMNS) {
            let w = Self::column_w(page, i);
            let cell = Rect::new(x, y, w, 1).intersection(line);
            if let Some(v) = row.values.get(i) {
                draw::put_right(buf, cell, y, v, style);
            }
            x = x.saturating_add(w);
        }
        if Self::show_date(page, table.width) {
            let cell = Rect::new(x, y, DATE_W, 1).intersection(line);
            draw::put_right(buf, cell, y, date(row.achieved_at).as_str(), style);
        }
    }
}
