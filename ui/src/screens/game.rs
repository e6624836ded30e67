//! The game screen: hold, stats and action text on the left, the board, the next queue on the
//! right; the countdown, "GO!", the final board and the pause menu drawn over the board. A
//! question asked while the game runs on ("PAUSE?" in a timed game, the quit question there)
//! is drawn beside the board, in [`question_area`], never over it: a dialog covers the board
//! only when the game behind it stands still.

use minotty_engine::{EndReason, Game};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::{game_ghost, is_ctrl, pause};
use crate::damage::{Damage, Parts};
use crate::draw;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::session::{Effects, GameSession};
use crate::settings::{BoardSize, Renderer, Settings};
use crate::text::{StackStr, sfmt};
use crate::theme::Theme;
use crate::widgets::board::{BOARD_H, BOARD_W, BoardView, Scale, board_size, cells_area};
use crate::widgets::piece_box::{BOX_W, HoldView, NextView, box_w};
use crate::widgets::stats::{ACTION_ROWS, ActionView, PieceCountsView, STATS_ROWS, StatsView};

pub const LEFT_W: u16 = 18;
/// The most pieces of a puzzle stage the next queue shows (as many as fit beside the board).
const MAX_PUZZLE_PREVIEW: usize = 7;
/// The whole game screen's size at 1x (see [`size`]).
pub const WIDTH: u16 = LEFT_W + 1 + BOARD_W + 1 + BOX_W;
pub const HEIGHT: u16 = BOARD_H + 2;

/// The whole game screen's size with the board at `scale`: the board, a column each side of
/// it for hold and stats and for the next queue, a title row and a footer row.
pub fn size(theme: Theme, scale: Scale) -> (u16, u16) {
    size_with(theme, scale, 1)
}

/// The game screen at its largest: the board at the largest scale, the boxes beside it too.
pub fn largest(theme: Theme) -> (u16, u16) {
    size_with(theme, Scale::MAX, Scale::MAX.times())
}

/// [`size`] with the hold and next boxes `n` times 1x. A compact board (half blocks,
/// Braille) makes the screen narrower, never shorter: the left column needs its rows.
fn size_with(theme: Theme, scale: Scale, n: u16) -> (u16, u16) {
    let (bw, bh) = board_size(theme, scale);
    (left_w(n) + 1 + bw + 1 + box_w(n), bh.max(BOARD_H) + 2)
}

/// Whether the board is drawn by a compact renderer (half blocks, Braille).
fn compact(theme: Theme) -> bool {
    theme.renderer() != Renderer::Blocks
}

/// Where the dialogs over the board (the pause menu, the countdown, the end) are drawn, the
/// board's cells at `cells`: the cells themselves, or for a compact board, whose cells are
/// too small for them, the area a 1x board's cells would take, centred on it, within `r`.
fn overlay_area(cells: Rect, theme: Theme, r: Rect) -> Rect {
    if !compact(theme) {
        return cells;
    }
    let (w, h) = (BOARD_W - 2, BOARD_H - 2);
    let x = (cells.x + cells.width / 2).saturating_sub(w / 2).max(r.x);
    Rect::new(x, cells.y, w, h).intersection(r)
}

/// The left column's width (hold box, stats) with the hold box `n` times 1x.
fn left_w(n: u16) -> u16 {
    LEFT_W.max(box_w(n))
}

/// How many times 1x the hold and next boxes are drawn beside a board at `scale` in `area`:
/// as the board where the screen has room for them so, else 1x (the board never shrinks for
/// them).
fn side_times(area: Rect, theme: Theme, scale: Scale) -> u16 {
    let n = scale.times();
    let (w, h) = size_with(theme, scale, n);
    if n > 1 && w <= area.width && h <= area.height {
        n
    } else {
        1
    }
}

/// The board's scale on a `area`-sized screen: the largest at which the whole game screen
/// fits (1x when the setting says so, or when nothing fits).
pub fn pick_scale(area: Rect, theme: Theme, setting: BoardSize) -> Scale {
    if setting == BoardSize::One || compact(theme) {
        return Scale::ONE;
    }
    Scale::offered()
        .find(|&s| {
            let (w, h) = size(theme, s);
            w <= area.width && h <= area.height
        })
        .unwrap_or(Scale::ONE)
}

/// Where a question asked while the game runs goes on an `area`-sized screen: the left
/// column's rows under the stats (the action text's and those below it) down to the footer,
/// beside the board.
pub fn question_area(area: Rect, settings: &Settings) -> Rect {
    question_area_beside(area, settings, 0)
}

/// [`question_area`] on the game screen of `session`: a ghost race's board beside the player's
/// moves the whole screen left.
pub fn question_area_of(area: Rect, settings: &Settings, session: &GameSession) -> Rect {
    let theme = Theme::new(settings);
    let scale = pick_scale(area, theme, settings.board_size);
    let size = size_with(theme, scale, side_times(area, theme, scale));
    match game_ghost::beside_scale(area, session, settings, size, scale) {
        None => question_area(area, settings),
        beside => question_area_beside(area, settings, game_ghost::beside_width(beside)),
    }
}

/// [`question_area`] with `extra` columns beside the game screen.
fn question_area_beside(area: Rect, settings: &Settings, extra: u16) -> Rect {
    let theme = Theme::new(settings);
    let scale = pick_scale(area, theme, settings.board_size);
    let n = side_times(area, theme, scale);
    let (width, height) = size_with(theme, scale, n);
    let r = draw::centered(area, width + extra, height);
    let top = stats_top(r.y, n) + 1 + STATS_ROWS * n.min(2);
    let bottom = (r.y + height).saturating_sub(1);
    Rect::new(r.x, top, left_w(n), bottom.saturating_sub(top)).intersection(area)
}

/// The first row of the stats, under the hold box (`n` times 1x) of a screen starting at `y0`.
fn stats_top(y0: u16, n: u16) -> u16 {
    y0 + 2 + HoldView::height(n)
}

/// What a key did on the game screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameAction {
    None,
    Changed,
    /// Only a part of the screen changed ([`Damage::Time`] or [`Damage::Board`]).
    Part(Damage),
    Pause,
    Forfeit,
    AskQuit,
    Results,
    /// Hand the game to the combo bot or take it back.
    Bot,
    /// Ctrl+S: take a snapshot of the game.
    Snapshot,
    /// Ctrl+Z: take the last placement back.
    Undo,
    /// Ctrl+L: load this game's savepoint back.
    LoadSavepoint,
    /// Ctrl+B: the blindfold on or off.
    Blindfold,
    /// Ctrl+E: keep the game's seed for Custom.
    StoreSeed,
}

/// The key that hands a combo game to the bot and back (when no game button is bound to it).
pub const BOT_KEY: char = 'b';

/// Handles a key while the game runs (or counts down, or shows its final board).
pub fn handle(s: &mut GameSession, ev: KeyEvent, now: u64, settings: &Settings) -> GameAction {
    if is_ctrl(ev, 'c') {
        return GameAction::AskQuit;
    }
    let press = ev.kind == KeyKind::Press;
    if s.is_over() {
        let skip = press && matches!(ev.key, Key::Enter | Key::Esc);
        return if skip {
            GameAction::Results
        } else if s.tick(now, &settings.keys) {
            GameAction::Changed
        } else {
            GameAction::None
        };
    }
    if is_ctrl(ev, 'd') {
        return GameAction::Forfeit;
    }
    if is_ctrl(ev, 's') {
        return GameAction::Snapshot;
    }
    if is_ctrl(ev, 'z') {
        return GameAction::Undo;
    }
    if is_ctrl(ev, 'l') {
        return GameAction::LoadSavepoint;
    }
    if is_ctrl(ev, 'b') {
        return GameAction::Blindfold;
    }
    if is_ctrl(ev, 'e') {
        return GameAction::StoreSeed;
    }
    let bound = settings.keys.lookup(ev.key).is_some();
    if press && (ev.key == Key::Esc || (ev.key == Key::Char('p') && !bound)) {
        return GameAction::Pause;
    }
    let bot_key = matches!(ev.key, Key::Char(c) if c.eq_ignore_ascii_case(&BOT_KEY));
    if press && bot_key && !bound && s.bot_available() && !ev.mods.ctrl && !ev.mods.alt {
        return GameAction::Bot;
    }
    // A press with Ctrl or Alt is never a game button; a release always counts.
    if ev.kind != KeyKind::Release && (ev.mods.ctrl || ev.mods.alt) {
        return GameAction::None;
    }
    match s.key_damage(ev.key, ev.kind, &settings.keys, now) {
        Damage::None => GameAction::None,
        Damage::All => GameAction::Changed,
        part => GameAction::Part(part),
    }
}

/// The short outcome of a finished game.
pub fn outcome_text(reason: EndReason, won: bool) -> &'static str {
    match reason {
        _ if won => "FINISHED!",
        EndReason::Forfeit => "FORFEIT",
        EndReason::ComboBroken => "COMBO BROKEN",
        EndReason::Limit(_) => "LIMIT REACHED",
        EndReason::InputLimit => "TOO MANY KEYS",
        EndReason::BlockOut | EndReason::LockOut | EndReason::TopOut => "GAME OVER",
    }
}

/// The short outcome of a finished `game`: puzzle mode's loss is running out of attempts.
pub fn game_outcome_text(game: &Game, reason: EndReason, won: bool) -> &'static str {
    if game.mode().is_puzzle() && !won && matches!(reason, EndReason::Limit(_)) {
        "OUT OF ATTEMPTS"
    } else {
        outcome_text(reason, won)
    }
}

/// Draws the game screen.
#[derive(Debug)]
pub struct GameView<'a> {
    pub session: &'a GameSession,
    pub settings: &'a Settings,
    pub player: &'a str,
    /// The pause menu's cursor, when paused.
    pub pause_cursor: usize,
    /// The leave question, when open over the pause menu.
    pub leave: Option<super::leave::LeaveTo>,
    /// A short message shown in place of the footer for a moment ("Snapshot saved").
    pub notice: Option<&'a str>,
    /// The player's games are stored (not a guest's, nor an unreachable account's): what the
    /// leave question says of a game ended early.
    pub kept: bool,
}

impl GameView<'_> {
    /// Where the screen goes in `area`: the board's scale, the screen's size, the ghost's
    /// board beside it (if any), the whole centred area, and the game screen's part of it
    /// (title row first).
    fn place(&self, area: Rect, theme: Theme) -> (Scale, (u16, u16), Option<Scale>, Rect, Rect) {
        let scale = pick_scale(area, theme, self.settings.board_size);
        let (width, height) = size_with(theme, scale, side_times(area, theme, scale));
        let beside =
            game_ghost::beside_scale(area, self.session, self.settings, (width, height), scale);
        let whole = draw::centered(area, width + game_ghost::beside_width(beside), height);
        let r = Rect::new(whole.x, whole.y, width.min(whole.width), whole.height);
        (scale, (width, height), beside, whole, r)
    }

    /// Where the parts of an `area`-sized screen lie that a frame may redraw alone, because
    /// time alone moved ([`Damage::Time`]: the stats column) or the piece did
    /// ([`Damage::Board`]: the board too): a game running with nothing else that time or a
    /// move changes on the screen (no ghost to race, no question, no notice). What lies there
    /// is drawn by those parts alone.
    pub fn parts(&self, area: Rect) -> Option<Parts> {
        let s = self.session;
        let running = !s.is_paused() && !s.is_over() && s.countdown().is_none();
        let still = running && s.ghost_run().is_none() && !s.pause_prompt();
        if !still || self.notice.is_some() {
            return None;
        }
        let theme = Theme::new(self.settings);
        let (scale, _, _, _, r) = self.place(area, theme);
        let (at, _) = Playfield::stats_at(r, theme, scale);
        let board = Playfield::board_at(r, theme, scale);
        (!at.is_empty()).then(|| Parts::new(at, board))
    }

    /// Draws what [`Parts::time`] covers (`buf`'s area, a cleared buffer) as the whole screen
    /// would.
    pub fn render_time(&self, area: Rect, buf: &mut Buffer) {
        let theme = Theme::new(self.settings);
        let (scale, _, _, _, r) = self.place(area, theme);
        let (at, step) = Playfield::stats_at(r, theme, scale);
        self.playfield(theme, scale)
            .stats()
            .render_spaced(at.intersection(buf.area), buf, step);
    }

    /// Draws what [`Parts::board`] covers (`buf`'s area, a cleared buffer) as the whole
    /// screen would: the board, and what lies over its cells.
    pub fn render_board(&self, area: Rect, buf: &mut Buffer) {
        let theme = Theme::new(self.settings);
        let (scale, _, _, _, r) = self.place(area, theme);
        let at = Playfield::board_at(r, theme, scale).intersection(buf.area);
        self.playfield(theme, scale).board().render(at, buf);
        // What lies over the board's cells while the game runs ("GO!").
        let cells = cells_area(at, theme, scale);
        self.overlay(cells, buf, theme, self.session.game_time());
    }

    /// The board, the boxes and the stats of the game, drawn at `scale`.
    fn playfield(&self, theme: Theme, scale: Scale) -> Playfield<'_> {
        let s = self.session;
        Playfield {
            game: s.game(),
            fx: s.effects(),
            t: s.game_time(),
            settings: self.settings,
            theme,
            hidden: s.is_paused(),
            blind: s.blindfold(),
            preview: s.setup.preview,
            scale,
        }
    }
}

impl Widget for &GameView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = Theme::new(self.settings);
        let s = self.session;
        let game = s.game();
        let t = s.game_time();
        let hidden = s.is_paused();
        let (scale, (width, height), beside, whole, r) = self.place(area, theme);
        let (x0, y0) = (r.x, r.y);

        let x = draw::put(buf, r, x0, y0, "MINOTTY", theme.accent());
        let sep = sfmt!(8; " {} ", theme.dot());
        let x = draw::put(buf, r, x, y0, sep.as_str(), theme.dim());
        let title = crate::rules::game_title(game, theme.dot());
        draw::put(buf, r, x, y0, title.as_str(), theme.title());
        // Who is playing: the player, or the bot.
        let (who, who_style) = if s.bot_playing() {
            ("BOT PLAYING", theme.accent())
        } else {
            (self.player, theme.dim())
        };
        draw::put_right(buf, Rect::new(x0, y0, width, 1), y0, who, who_style);

        let cells = self.playfield(theme, scale).draw(buf, r);
        if let Some(run) = s.ghost_run().filter(|_| !hidden) {
            match beside {
                Some(gs) => {
                    let at = Rect::new(
                        x0 + width + 1,
                        y0 + 1,
                        whole.width,
                        height.saturating_sub(1),
                    );
                    game_ghost::draw_beside(buf, at.intersection(whole), run, t, gs, theme);
                }
                None => game_ghost::draw_outline(buf, cells, game, run, scale, theme),
            }
        }

        let retry_footer;
        let beside = question_area_of(area, self.settings, s);
        if !hidden {
            let name = s.setup.ghost.as_ref().map_or("", |g| g.player.as_str());
            game_ghost::draw_split(buf, beside, s, name, theme);
        }
        let prompt = s.pause_prompt();
        let (footer, style) = if let Some(notice) = self.notice {
            (notice, theme.accent())
        } else if prompt && !pause::prompt_fits(beside) {
            // No room beside the board: the question takes the footer.
            (pause::PROMPT_LINE, theme.accent())
        } else if hidden {
            // Paused: Esc resumes (the pause menu is open).
            ("Esc resume   Ctrl+C quit", theme.dim())
        } else if s.bot_playing() {
            ("BOT PLAYING - press B to take over", theme.accent())
        } else if s.bot_available() {
            ("B bot plays   Esc pause   Ctrl+C quit", theme.dim())
        } else if game.descent().is_some() {
            // Descent and Ascent are never snapshotted.
            ("Esc pause   Ctrl+C quit", theme.dim())
        } else if super::retry::at_once(game.mode().kind)
            && let Some(retry) = super::retry::hint(&self.settings.keys, "retry")
        {
            // Survival is not snapshotted; Ctrl+S keeps its savepoint all the same.
            let save = if game.mode().can_snapshot() {
                "snapshot"
            } else {
                "savepoint"
            };
            retry_footer =
                sfmt!(64; "{}   Esc pause   Ctrl+S {}   Ctrl+C quit", retry.as_str(), save);
            (retry_footer.as_str(), theme.dim())
        } else {
            ("Esc pause   Ctrl+S snapshot   Ctrl+C quit", theme.dim())
        };
        draw::put_centered(buf, r, y0 + height - 1, footer, style);

        // The locked pieces by type, left of the stats when the terminal leaves room (Descent
        // locks none).
        let margin = r.x.saturating_sub(area.x);
        if margin > PieceCountsView::MIN_W && !hidden && game.descent().is_none() {
            let w = PieceCountsView::MIN_W;
            let at = Rect::new(r.x - w - 1, y0 + 6, w, 7).intersection(area);
            let counts = PieceCountsView {
                stats: game.stats(),
                theme,
            };
            counts.render(at, buf);
        }

        self.overlay(cells, buf, theme, t);
        if prompt && pause::prompt_fits(beside) {
            // The game runs on behind the question: it goes beside the board, never over it.
            pause::draw_prompt(buf, beside, theme);
        }
    }
}

/// What the game screen and the replay viewer share: hold, stats and action text on the left,
/// the board, the next queue on the right, in an area of [`size`] below its title row.
#[derive(Debug)]
pub struct Playfield<'a> {
    pub game: &'a Game,
    pub fx: &'a Effects,
    /// Game time.
    pub t: u64,
    pub settings: &'a Settings,
    pub theme: Theme,
    /// Paused: the pieces are hidden.
    pub hidden: bool,
    /// Blindfold: the stack is hidden (see [`BoardView::blind`]).
    pub blind: bool,
    /// A custom game's preview count (otherwise the player's setting).
    pub preview: Option<u8>,
    /// The board's scale ([`pick_scale`]).
    pub scale: Scale,
}

/// Rows the left column (hold box, stats, action text) takes below the title row; the rows
/// after it are free (the replay viewer writes its clock there).
pub const LEFT_ROWS_END: u16 = 7 + STATS_ROWS + ACTION_ROWS;

impl Playfield<'_> {
    /// Where the stats go in `r` (the screen's centred area) with the board at `scale`, and
    /// their rows' spacing.
    fn stats_at(r: Rect, theme: Theme, scale: Scale) -> (Rect, u16) {
        let n = side_times(r, theme, scale);
        let step = n.min(2);
        let at = Rect::new(r.x, stats_top(r.y, n), left_w(n), STATS_ROWS * step);
        (at.intersection(r), step)
    }

    /// Where the board (its frame included) goes in `r` with the board at `scale`.
    fn board_at(r: Rect, theme: Theme, scale: Scale) -> Rect {
        let n = side_times(r, theme, scale);
        let (bw, bh) = board_size(theme, scale);
        Rect::new(r.x + left_w(n) + 1, r.y + 1, bw, bh).intersection(r)
    }

    /// The stats column's widget.
    fn stats(&self) -> StatsView<'_> {
        StatsView {
            game: self.game,
            t: self.t,
            last_lock: self.fx.last_lock_time(),
            recent: [self.fx.recent_pieces(5), self.fx.recent_pieces(10)],
            theme: self.theme,
        }
    }

    /// The board's widget.
    fn board(&self) -> BoardView<'_> {
        BoardView {
            game: self.game,
            fx: self.fx,
            t: self.t,
            theme: self.theme,
            ghost: self.settings.ghost,
            trail: self.settings.drop_trail,
            hidden: self.hidden,
            blind: self.blind,
            scale: self.scale,
        }
    }

    /// Draws into `r` (the screen's centred area, title row first); returns the area of the
    /// board's cells.
    pub fn draw(&self, buf: &mut Buffer, r: Rect) -> Rect {
        let Playfield {
            game,
            fx,
            t,
            settings,
            theme,
            hidden,
            blind: _,
            preview,
            scale,
        } = *self;
        let n = side_times(r, theme, scale);
        let (width, _) = size_with(theme, scale, n);
        let (x0, y0) = (r.x, r.y);
        let left = left_w(n);
        // Below the hold box: the stats, then the action text.
        let (stats_at, step) = Self::stats_at(r, theme, scale);
        let stats_y = stats_top(y0, n);
        let hold = HoldView {
            piece: game.hold_piece(),
            used: !game.can_hold(),
            theme,
            hidden,
        };
        if let Some(p) = game.puzzle_state() {
            // Puzzle mode has no hold: the stage, its name and the attempt instead.
            let at = Rect::new(x0, y0 + 1, left, HoldView::height(n)).intersection(r);
            let title = sfmt!(24; "STAGE {}/{}", p.stage, minotty_engine::puzzle::STAGE_COUNT);
            let inner = draw::frame(buf, at, theme, title.as_str(), theme.dim());
            draw::put(buf, inner, inner.x, inner.y, p.name, theme.accent());
            let attempt =
                sfmt!(24; "attempt {}/{}", p.attempt, minotty_engine::puzzle::MAX_ATTEMPTS);
            let style = if p.attempt > 1 {
                theme.bad()
            } else {
                theme.dim()
            };
            draw::put(buf, inner, inner.x, inner.y + 1, attempt.as_str(), style);
        } else {
            let hold_at = Rect::new(x0 + left - box_w(n), y0 + 1, box_w(n), HoldView::height(n));
            hold.render_scaled(hold_at.intersection(r), buf, n);
        }

        self.stats().render_spaced(stats_at, buf, step);
        let action = ActionView { fx, t, theme };
        let action_at = Rect::new(x0, stats_y + 1 + STATS_ROWS * step, left, ACTION_ROWS);
        action.render(action_at.intersection(r), buf);

        let board_at = Self::board_at(r, theme, scale);
        self.board().render(board_at, buf);

        let count = if game.mode().is_puzzle() {
            // Puzzle mode: every piece the stage has left (its whole queue), as many as fit.
            game.preview().count().min(MAX_PUZZLE_PREVIEW)
        } else {
            usize::from(preview.unwrap_or(settings.preview))
        };
        let compact = theme.half_blocks() && scale == Scale::ONE;
        let next = NextView {
            game,
            count,
            theme,
            hidden,
            compact,
        };
        let height = NextView::height_scaled(count, compact, n);
        let next_at = Rect::new(x0 + width - box_w(n), y0 + 1, box_w(n), height);
        next.render_scaled(next_at.intersection(r), buf, n);
        cells_area(board_at, theme, scale)
    }
}

impl GameView<'_> {
    /// What goes over the board with its cells at `cells`: the dialogs of a game that stands
    /// still (over a 1x board's room when the board is compact), and "GO!" over the cells
    /// themselves when they have room for it (never past them: a running game's frames may
    /// redraw the board alone).
    fn overlay(&self, board_cells: Rect, buf: &mut Buffer, theme: Theme, t: u64) {
        let s = self.session;
        let cells = overlay_area(board_cells, theme, buf.area);
        if let Some(to) = self.leave.filter(|_| s.is_paused()) {
            let stores = super::leave::stores(s.game().mode().kind);
            super::leave::draw(buf, cells, to, stores, self.kept, theme);
        } else if s.is_paused() {
            let unranked = s.pause_unranks() && s.game().paused();
            let retry = super::retry::hint(&self.settings.keys, "retries")
                .filter(|_| super::retry::at_once(s.game().mode().kind));
            let retry = retry.as_ref().map(StackStr::as_str);
            pause::draw(buf, cells, self.pause_cursor, unranked, retry, theme);
        } else if let Some(n) = s.countdown() {
            big_digit(buf, cells, n, theme);
        } else if let Some((reason, won)) = s.game().outcome() {
            let inner = draw::dialog(buf, cells, 17, 5, theme, "");
            let style = if won { theme.good() } else { theme.bad() };
            let text = game_outcome_text(s.game(), reason, won);
            draw::put_centered(buf, inner, inner.y, text, style);
            draw::put_centered(buf, inner, inner.y + 2, "Enter: results", theme.dim());
        } else if Effects::go(t) && board_cells.width >= 8 {
            let inner = draw::dialog(buf, board_cells, 8, 3, theme, "");
            draw::put_centered(buf, inner, inner.y, "GO!", theme.accent());
        }
    }
}

/// 3 x 5 bitmaps of the countdown digits 1, 2 and 3.
const DIGITS: [[&str; 5]; 3] = [
    [".#.", "##.", ".#.", ".#.", "###"],
    ["###", "..#", "###", "#..", "###"],
    ["###", "..#", ".##", "..#", "###"],
];

/// Draws a big countdown digit in the middle of the board.
fn big_digit(buf: &mut Buffer, cells: Rect, n: u64, theme: Theme) {
    let Some(rows) = usize::try_from(n)
        .ok()
        .and_then(|n| n.checked_sub(1))
        .and_then(|i| DIGITS.get(i))
    else {
        return;
    };
    let at = draw::centered(cells, 12, 7);
    draw::clear(buf, at);
    for (dy, row) in rows.iter().enumerate() {
        for (dx, c) in row.chars().enumerate() {
            if c == '#' {
                let x = at.x.saturating_add(3 + dx as u16 * 2);
                let y = at.y.saturating_add(1 + dy as u16);
                draw::put(buf, at, x, y, theme.block(), theme.accent());
            }
        }
    }
}
