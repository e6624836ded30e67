//! The playfield: 10 x 20 visible cells in a frame (or, in the Electronika 60 style, in the
//! well `<! ... !>` over `<!====!>` and `\/\/\/`). Locked cells, the active piece, its ghost,
//! the line-clear flash, the lock flash and a hard drop's trail, at any [`Scale`]; in Descent
//! the pegs (grey blocks), the wall stripe (blocks of its colour) and the gems (their own
//! glyphs). The compact renderers (half blocks, Braille) are in `board/compact.rs`.

mod compact;

use minotty_engine::board::{BUFFER_HEIGHT, VISIBLE_HEIGHT, WIDTH};
use minotty_engine::{Cell, Game, Gem, Placed, Time};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use crate::draw;
use crate::session::Effects;
use crate::settings::Renderer;
use crate::theme::Theme;

/// The board's size on screen at 1x, frame included (the Electronika 60 well is two columns
/// wider: see [`board_size`]).
pub const BOARD_W: u16 = WIDTH as u16 * 2 + 2;
pub const BOARD_H: u16 = VISIBLE_HEIGHT as u16 + 2;

/// How big a board cell is drawn: `k` columns wide and `k / 2` rows tall, so 2 is the usual
/// two columns by one row (1x), 4 is four by two (2x) and 6 six by three (3x). Only whole
/// cells: half-block sizes (three columns by a row and a half) drew cells of uneven heights,
/// one row and two rows by turns, and smeared cheese holes across them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Scale(u8);

impl Scale {
    /// Two columns by one row.
    pub const ONE: Scale = Scale(2);
    /// The largest scale offered (three times 1x).
    pub const MAX: Scale = Scale(6);

    /// Columns per cell, and half rows per cell.
    pub fn k(self) -> u16 {
        u16::from(self.0)
    }

    /// The scales offered, largest first: 3x, 2x, 1x.
    pub fn offered() -> impl Iterator<Item = Scale> {
        (Scale::ONE.0..=Scale::MAX.0).rev().step_by(2).map(Scale)
    }

    /// How many times 1x this is (1, 2 or 3).
    pub fn times(self) -> u16 {
        self.k() / 2
    }
}

/// The board's size on screen, frame (or well) included. The compact renderers have one size
/// whatever the scale (see [`Renderer`]).
pub fn board_size(theme: Theme, scale: Scale) -> (u16, u16) {
    let (w, h) = (WIDTH as u16, VISIBLE_HEIGHT as u16);
    match theme.renderer() {
        Renderer::HalfBlock => return (w + 2, h / 2 + 2),
        Renderer::Braille => return (w / 2 + 2, h / 4 + 2),
        Renderer::Blocks => {}
    }
    let cells_w = WIDTH as u16 * scale.k();
    let cells_h = VISIBLE_HEIGHT as u16 * scale.k() / 2;
    if theme.electronika() {
        (cells_w + 4, cells_h + 2)
    } else {
        (cells_w + 2, cells_h + 2)
    }
}

/// Where the cells are inside a board drawn at `area`'s top-left corner.
pub fn cells_area(area: Rect, theme: Theme, scale: Scale) -> Rect {
    let (w, h) = board_size(theme, scale);
    let rect = Rect::new(area.x, area.y, w, h).intersection(area);
    if theme.electronika() {
        Rect::new(
            rect.x.saturating_add(2),
            rect.y,
            rect.width.saturating_sub(4),
            rect.height.saturating_sub(2),
        )
    } else {
        draw::inner(rect)
    }
}

/// Draws a game's board.
#[derive(Debug)]
pub struct BoardView<'a> {
    pub game: &'a Game,
    pub fx: &'a Effects,
    /// The game time shown.
    pub t: Time,
    pub theme: Theme,
    pub ghost: bool,
    /// Draw hard drops' trails.
    pub trail: bool,
    /// Hide the cells (while paused).
    pub hidden: bool,
    /// Blindfold: the stack (and the ghost, which would show its surface) hidden, the piece
    /// in play alone drawn.
    pub blind: bool,
    pub scale: Scale,
}

/// What one board cell shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Look {
    Empty,
    /// A solid cell: a block, garbage, a flash.
    Solid(&'static str, Style),
    /// A see-through cell: the ghost, a drop trail.
    Shade(&'static str, Style),
}

/// Whether `placed` covers board cell `(x, y)`.
fn covers(placed: Option<Placed>, x: usize, y: usize) -> bool {
    placed.is_some_and(|p| {
        p.cells()
            .iter()
            .any(|&(cx, cy)| cx as isize == x as isize && cy as isize == y as isize)
    })
}

impl Widget for &BoardView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let (w, h) = board_size(theme, self.scale);
        let rect = Rect::new(area.x, area.y, w, h).intersection(area);
        let cells = cells_area(area, theme, self.scale);
        if theme.electronika() {
            well(buf, rect, cells, theme);
        } else {
            draw::frame(buf, rect, theme, "", theme.dim());
        }
        let mut looks = [[Look::Empty; WIDTH]; VISIBLE_HEIGHT];
        self.fill(&mut looks);
        match theme.renderer() {
            Renderer::Blocks => self.draw_glyphs(buf, cells, &looks),
            Renderer::HalfBlock => compact::draw_halves(buf, cells, &looks, theme),
            Renderer::Braille => {
                let active = self.game.active().map(|a| a.placed);
                compact::draw_braille(buf, cells, &looks, active, theme);
            }
        }
    }
}

/// The Electronika 60's well around `cells`: `<!` and `!>` beside every row, `<!====!>`
/// under them and `\/\/\/` below.
fn well(buf: &mut Buffer, rect: Rect, cells: Rect, theme: Theme) {
    let style = theme.dim();
    let right = cells.right();
    for y in cells.top()..cells.bottom() {
        draw::put(buf, rect, rect.x, y, "<!", style);
        draw::put(buf, rect, right, y, "!>", style);
    }
    let floor = cells.bottom();
    draw::put(buf, rect, rect.x, floor, "<!", style);
    draw::put(buf, rect, right, floor, "!>", style);
    for x in (cells.left()..cells.right()).step_by(2) {
        draw::put(buf, rect, x, floor, "==", style);
        draw::put(buf, rect, x, floor.saturating_add(1), "\\/", style);
    }
}

impl BoardView<'_> {
    /// What every visible cell shows.
    fn fill(&self, looks: &mut [[Look; WIDTH]; VISIBLE_HEIGHT]) {
        if self.hidden {
            return;
        }
        let game = self.game;
        let active = game.active().map(|a| a.placed);
        let ghost = if self.ghost && !self.blind {
            game.ghost()
        } else {
            None
        };
        let lock = self.fx.lock_flash(self.t);
        let clearing = game.clearing_rows();
        let lit = self.fx.clear_lit(self.t);
        let trail = if self.trail {
            self.fx.drop_trail(self.t)
        } else {
            None
        };
        for (vy, row) in looks.iter_mut().enumerate() {
            let y = BUFFER_HEIGHT + vy;
            let row_clearing = clearing & (1u64 << y) != 0;
            for (x, look) in row.iter_mut().enumerate() {
                // Rows being cleared alternate between lit and their own colours; the lock
                // flash does not show on them.
                let lock = if row_clearing { None } else { lock };
                *look = self.cell(x, y, row_clearing && lit, active, ghost, lock);
                if *look == Look::Empty
                    && let Some(tr) = &trail
                    && let Some(stage) = tr.stage(x, y)
                {
                    *look = Look::Shade(self.theme.trail(stage), self.theme.piece(tr.piece));
                }
            }
        }
    }

    fn cell(
        &self,
        x: usize,
        y: usize,
        flashing_row: bool,
        active: Option<Placed>,
        ghost: Option<Placed>,
        lock: Option<Placed>,
    ) -> Look {
        let theme = self.theme;
        if flashing_row {
            return Look::Solid(theme.flash_block(), theme.flash());
        }
        if let Some(p) = active.filter(|_| covers(active, x, y)) {
            return Look::Solid(theme.piece_block(p.piece), theme.piece(p.piece));
        }
        if covers(lock, x, y) {
            return Look::Solid(theme.flash_block(), theme.flash());
        }
        if let Some(gem) = self.game.descent().and_then(|d| d.gem(x, y)) {
            return match gem {
                Gem::Shining(colour) => Look::Solid(theme.gem(), theme.gem_style(colour)),
                Gem::Collected => Look::Solid(theme.collected_gem(), theme.dim()),
            };
        }
        match self.game.board().cell(x, y) {
            _ if self.blind => {}
            Cell::Block(piece) => {
                return Look::Solid(theme.piece_block(piece), theme.locked(piece));
            }
            Cell::Garbage => return Look::Solid(theme.block(), theme.garbage()),
            Cell::Empty => {}
        }
        if let Some(g) = ghost.filter(|_| covers(ghost, x, y)) {
            return Look::Shade(theme.ghost(), theme.ghost_style(g.piece));
        }
        Look::Empty
    }

    /// Each cell is its two-column glyph stretched over `k` columns (each
    /// character `k / 2` times: `[]` becomes `[[]]`, one big block) on `k / 2` rows; an empty
    /// cell shows its dot once, at its bottom right.
    fn draw_glyphs(&self, buf: &mut Buffer, cells: Rect, looks: &[[Look; WIDTH]; VISIBLE_HEIGHT]) {
        let theme = self.theme;
        let n = self.scale.k() / 2;
        for (vy, row) in looks.iter().enumerate() {
            for (x, look) in row.iter().enumerate() {
                let sx = cells.x.saturating_add(x as u16 * 2 * n);
                let sy = cells.y.saturating_add(vy as u16 * n);
                for dy in 0..n {
                    let at_y = sy.saturating_add(dy);
                    let last_row = dy + 1 == n;
                    for dx in 0..2 * n {
                        let (ch, style) = match *look {
                            Look::Solid(g, style) | Look::Shade(g, style) => {
                                let (left, right) = split(g);
                                (if dx < n { left } else { right }, style)
                            }
                            Look::Empty if last_row && dx + 1 == 2 * n => {
                                (split(theme.empty()).1, theme.empty_style())
                            }
                            Look::Empty => (" ", theme.empty_style()),
                        };
                        let at_x = sx.saturating_add(dx);
                        draw::put_narrow(buf, cells, at_x, at_y, ch, style);
                    }
                }
            }
        }
    }
}

/// A two-column glyph's two characters ("[]" -> "[", "]").
pub(crate) fn split(glyph: &'static str) -> (&'static str, &'static str) {
    let cut = glyph.char_indices().nth(1).map_or(glyph.len(), |(i, _)| i);
    (
        glyph.get(..cut).unwrap_or(glyph),
        glyph.get(cut..).unwrap_or(""),
    )
}
