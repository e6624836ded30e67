//! The playfield: 10 x 20 visible cells, each two columns wide, in a frame. Locked cells, the
//! active piece, its ghost, the line-clear flash and the lock flash; in Descent the pegs (grey
//! blocks), the wall stripe (blocks of its colour) and the gems (their own glyphs).

use minotty_engine::board::{BUFFER_HEIGHT, VISIBLE_HEIGHT, WIDTH};
use minotty_engine::{Cell, Game, Gem, Placed, Time};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use crate::draw;
use crate::session::Effects;
use crate::theme::Theme;

/// The board's size on screen, frame included.
pub const BOARD_W: u16 = WIDTH as u16 * 2 + 2;
pub const BOARD_H: u16 = VISIBLE_HEIGHT as u16 + 2;

/// Draws a game's board.
#[derive(Debug)]
pub struct BoardView<'a> {
    pub game: &'a Game,
    pub fx: &'a Effects,
    /// The game time shown.
    pub t: Time,
    pub theme: Theme,
    pub ghost: bool,
    /// Hide the cells (while paused).
    pub hidden: bool,
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
        let rect = Rect::new(area.x, area.y, BOARD_W, BOARD_H).intersection(area);
        let inner = draw::frame(buf, rect, self.theme, "", self.theme.dim());
        let game = self.game;
        let active = game.active().map(|a| a.placed);
        let ghost = if self.ghost { game.ghost() } else { None };
        let lock = self.fx.lock_flash(self.t);
        let clearing = game.clearing_rows();
        let lit = self.fx.clear_lit(self.t);
        for vy in 0..VISIBLE_HEIGHT {
            let y = BUFFER_HEIGHT + vy;
            let row_clearing = clearing & (1u64 << y) != 0;
            for x in 0..WIDTH {
                // Rows being cleared alternate between lit and their own colours; the lock
                // flash does not show on them.
                let lock = if row_clearing { None } else { lock };
                let (glyph, style) = self.cell(x, y, row_clearing && lit, active, ghost, lock);
                let sx = inner.x.saturating_add(2 * x as u16);
                let sy = inner.y.saturating_add(vy as u16);
                draw::put_narrow(buf, inner, sx, sy, glyph, style);
            }
        }
    }
}

impl BoardView<'_> {
    fn cell(
        &self,
        x: usize,
        y: usize,
        flashing_row: bool,
        active: Option<Placed>,
        ghost: Option<Placed>,
        lock: Option<Placed>,
    ) -> (&'static str, Style) {
        let theme = self.theme;
        if self.hidden {
            return (theme.empty(), theme.empty_style());
        }
        if flashing_row {
            return (theme.block(), theme.flash());
        }
        if let Some(p) = active.filter(|_| covers(active, x, y)) {
            return (theme.piece_block(p.piece), theme.piece(p.piece));
        }
        if covers(lock, x, y) {
            return (theme.block(), theme.flash());
        }
        if let Some(gem) = self.game.descent().and_then(|d| d.gem(x, y)) {
            return match gem {
                Gem::Shining(colour) => (theme.gem(), theme.gem_style(colour)),
                Gem::Collected => (theme.collected_gem(), theme.dim()),
            };
        }
        match self.game.board().cell(x, y) {
            Cell::Block(piece) => return (theme.piece_block(piece), theme.piece(piece)),
            Cell::Garbage => return (theme.block(), theme.garbage()),
            Cell::Empty => {}
        }
        if let Some(g) = ghost.filter(|_| covers(ghost, x, y)) {
            return (theme.ghost(), theme.ghost_style(g.piece));
        }
        (theme.empty(), theme.empty_style())
    }
}

/// The inside of the board's frame (the 20 x 20 columns of cells) for an area.
pub fn cells_area(area: Rect) -> Rect {
    draw::inner(Rect::new(area.x, area.y, BOARD_W, BOARD_H).intersection(area))
}
