//! [`RemoteTerminal`]: a session's screen as the client shows it, drawn by ratatui into the
//! thread's scratch buffer and sent as the changes only.

use ratatui::backend::Backend;
use ratatui::buffer::{Buffer, Cell};
use ratatui::layout::Rect;

use minotty_ui::Parts;

use super::ansi::AnsiBackend;
use super::diff::{fill_gaps, group_by_style, take_changes};
use super::shown::Shown;
use super::size::{DRAW_COLS, DRAW_ROWS};

/// A screen's buffer keeps room for this many cells when its window shrinks (a 100x40
/// screen's); beyond four times what it needs, it gives the rest back.
const KEEP_CELLS: usize = 4_000;

/// A ratatui terminal whose output is collected in memory.
///
/// A frame is rendered into a buffer of the thread's ([`SCRATCH`]), then compared with what
/// the client shows (`shown`, the session's one screen-sized buffer), which takes the changes
/// as they are found. The diff computes a unicode width only for cells that changed (ratatui's
/// own computes one for every cell of every frame: that was a quarter of the server's CPU under
/// load). Frames never place a cursor.
///
/// Why the scratch buffer is the thread's: a 100x40 buffer is 4,000 cells of 48 bytes, about
/// 190 KiB. With a render buffer of its own per session, every frame cleared, filled and read
/// one buffer and read and swapped another, cold in memory for any of hundreds of sessions:
/// clearing and comparing were a third of the server's CPU in a versus load. The thread's
/// buffer stays in cache; a session holds only `shown`.
///
/// What is drawn is at most [`DRAW_COLS`] x [`DRAW_ROWS`], the largest screen the UI lays out:
/// a larger window shows that area centred, the rest of it blank (cleared once, at each
/// resize). So a session's buffer, and the thread's, never hold more cells than that,
/// however large the window (a 500x200 one cost 100,000 cells, 4.8 MB, per session).
#[derive(Debug)]
pub struct RemoteTerminal {
    backend: AnsiBackend,
    /// What the client's screen shows, in the drawn area (`shown.area`: where it is in the
    /// window).
    pub(super) shown: Shown,
    /// The parts of the drawn area that the last frame said may change alone (see
    /// [`RemoteTerminal::draw_parts`]); none after a resize.
    parts: Option<Parts>,
    /// What the last frame cost.
    cost: FrameCost,
}

/// What a frame cost, in cells: rendered into (the buffer the frame was drawn in), compared
/// with what the client shows, and written to it. Tests count these instead of timing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameCost {
    pub drawn: usize,
    pub compared: usize,
    pub written: usize,
}

/// Where the drawn area goes in a `cols` x `rows` window: all of it when it is at most the
/// cap, else the cap's size, centred.
fn drawn_area(cols: u16, rows: u16) -> Rect {
    let (w, h) = (cols.min(DRAW_COLS), rows.min(DRAW_ROWS));
    Rect::new((cols - w) / 2, (rows - h) / 2, w, h)
}

thread_local! {
    /// The buffer frames are rendered into on this thread, reused by every session that draws
    /// here (its `content` keeps the capacity of the largest screen drawn).
    static SCRATCH: std::cell::RefCell<Buffer> = std::cell::RefCell::new(Buffer::empty(Rect::ZERO));
}

impl RemoteTerminal {
    pub fn new(cols: u16, rows: u16) -> RemoteTerminal {
        let window = Rect::new(0, 0, cols, rows);
        RemoteTerminal {
            backend: AnsiBackend::new(window.as_size()),
            shown: Shown::new(drawn_area(cols, rows)),
            parts: None,
            cost: FrameCost::default(),
        }
    }

    /// The client's window size.
    pub fn size(&self) -> (u16, u16) {
        (self.backend.size.width, self.backend.size.height)
    }

    /// The size frames are drawn at: the window's, at most [`DRAW_COLS`] x [`DRAW_ROWS`]
    /// (what the App is told to lay out).
    pub fn drawn_size(&self) -> (u16, u16) {
        (self.shown.area.width, self.shown.area.height)
    }

    /// Cells the session's screen buffer holds now.
    pub fn cells(&self) -> usize {
        self.shown.cells.len()
    }

    /// Resizes the drawing area; the next draw repaints everything. The screen's buffer is
    /// reused: a new size allocates only when it is larger than any drawn before, and a much
    /// smaller one gives the memory back.
    pub fn resize(&mut self, cols: u16, rows: u16) {
        self.backend.size = Rect::new(0, 0, cols, rows).as_size();
        let area = drawn_area(cols, rows);
        self.parts = None;
        self.backend.forget_state();
        // Clears the client's screen (attributes reset), which is what an empty buffer shows.
        if let Err(never) = self.backend.clear() {
            match never {}
        }
        self.shown.clear_to(area, KEEP_CELLS);
    }

    /// Cells the screen's buffer can hold without allocating, and where it is (a test shows
    /// that resizing did not move it).
    pub fn capacity(&self) -> (usize, *const ()) {
        (
            self.shown.cells.capacity(),
            self.shown.cells.as_ptr().cast(),
        )
    }

    /// The drawn area, at the origin: what frames are laid out in.
    pub fn drawn_area(&self) -> Rect {
        Rect::new(0, 0, self.shown.area.width, self.shown.area.height)
    }

    /// What the last frame cost.
    pub fn cost(&self) -> FrameCost {
        self.cost
    }

    /// Draws a frame: `render` fills a cleared buffer of the drawn size (its area starts at
    /// the origin, whatever the window); only the cells that changed since the last frame are
    /// written, where the drawn area is in the window.
    pub fn draw(&mut self, render: impl FnOnce(Rect, &mut Buffer)) {
        self.draw_whole(None, render);
    }

    /// [`RemoteTerminal::draw`], saying which `parts` of the drawn area the next frames may
    /// redraw alone ([`RemoteTerminal::draw_parts`]).
    pub fn draw_whole(&mut self, parts: Option<Parts>, render: impl FnOnce(Rect, &mut Buffer)) {
        let origin = self.drawn_area();
        self.cost = FrameCost::default();
        self.render(origin, origin, render);
        self.parts = parts;
    }

    /// Redraws only `which` of the `layout`'s parts (at the origin, as the frames are laid
    /// out): `render` is given the part, the whole drawn area to lay out, and a cleared buffer
    /// of the part to draw in. Only when the frame before said that these parts may change
    /// alone (the rest of the screen is then as it left it); otherwise nothing is drawn and
    /// this says `false`.
    pub fn draw_parts(
        &mut self,
        layout: Parts,
        which: &[Rect],
        mut render: impl FnMut(Rect, Rect, &mut Buffer),
    ) -> bool {
        let origin = self.drawn_area();
        let inside = |part: &Rect| part.intersection(origin) == *part && !part.is_empty();
        if which.is_empty() || self.parts != Some(layout) || !which.iter().all(inside) {
            return false;
        }
        self.cost = FrameCost::default();
        for &part in which {
            self.render(origin, part, |area, buf| render(part, area, buf));
        }
        true
    }

    /// Renders `part` of the `origin`-sized frame into the thread's buffer, then takes and
    /// writes what changed.
    fn render(&mut self, origin: Rect, part: Rect, render: impl FnOnce(Rect, &mut Buffer)) {
        let area = self.shown.area;
        SCRATCH.with_borrow_mut(|next| {
            if next.area.as_size() == part.as_size() {
                next.area = part;
                next.reset();
            } else {
                next.area = part;
                next.content.clear();
                next.content.reserve_exact(part.area() as usize);
                next.content.resize(part.area() as usize, Cell::EMPTY);
            }
            render(origin, next);
            // The same cells, placed where the client shows them.
            next.area = Rect::new(area.x + part.x, area.y + part.y, part.width, part.height);
            let mut changed = take_changes(&mut self.shown, next);
            group_by_style(&mut changed, self.backend.style);
            fill_gaps(&mut changed, next);
            self.cost.drawn += next.content.len();
            self.cost.compared += next.content.len();
            self.cost.written += changed.len();
            if let Err(never) = self.backend.draw(changed.into_iter()) {
                match never {}
            }
        });
    }

    /// The bytes produced since the last call.
    pub fn take_output(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.backend.out)
    }
}
