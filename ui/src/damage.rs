//! What a frame must redraw: nothing, only what time alone changes (the game's stats column:
//! its clock, and pieces a second before the first lock), the board and those stats (the
//! piece moved, rotated or fell), or the whole screen.
//!
//! A front end that keeps what it showed draws a partial frame by redrawing only the
//! [`Parts`] that [`crate::App::parts`] gives: [`Parts::time`] for [`Damage::Time`]
//! ([`crate::App::render_time`]), with [`Parts::board`] for [`Damage::Board`]
//! ([`crate::App::render_board`]); every other change redraws all.

use ratatui::layout::Rect;

/// What changed since the last frame, as far as drawing goes (ordered: each covers the ones
/// before it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Damage {
    /// Nothing visible.
    #[default]
    None,
    /// Only the game clock's shown value (the game itself, its effects and everything around
    /// it are as the last frame showed them).
    Time,
    /// What lies on the board (the piece in play, its ghost, the settled cells and the
    /// effects drawn on them) and the stats; the hold box, the queue, the action text, the
    /// piece counts and everything else are as the last frame showed them.
    Board,
    /// Anything else: the whole screen.
    All,
}

impl Damage {
    /// Both changes together.
    pub fn and(self, other: Damage) -> Damage {
        self.max(other)
    }

    /// A change that is whole or nothing: `true` is [`Damage::All`].
    pub fn all_if(changed: bool) -> Damage {
        if changed { Damage::All } else { Damage::None }
    }
}

/// Where the parts that partial frames redraw lie on a screen (see [`crate::App::parts`]):
/// what is drawn there is drawn by those parts alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parts {
    /// The board with its frame, then the stats column: [`Damage::Time`] redraws the stats,
    /// [`Damage::Board`] both, the stats last (so that a frame ends in the style of the
    /// clock's digits, which the next tick then writes without a colour change).
    rects: [Rect; 2],
}

impl Parts {
    pub fn new(time: Rect, board: Rect) -> Parts {
        Parts {
            rects: [board, time],
        }
    }

    /// The stats column.
    pub fn time(&self) -> Rect {
        self.rects[1]
    }

    /// The board, its frame included.
    pub fn board(&self) -> Rect {
        self.rects[0]
    }

    /// The parts that a frame of `damage` redraws (none for [`Damage::All`], which is whole,
    /// nor for [`Damage::None`]).
    pub fn of(&self, damage: Damage) -> &[Rect] {
        match damage {
            Damage::None | Damage::All => &[],
            Damage::Time => &self.rects[1..],
            Damage::Board => &self.rects,
        }
    }
}

#[cfg(test)]
mod tests {
    use ratatui::layout::Rect;

    use super::{Damage, Parts};

    #[test]
    fn the_larger_change_wins() {
        assert_eq!(Damage::None.and(Damage::Time), Damage::Time);
        assert_eq!(Damage::Time.and(Damage::Board), Damage::Board);
        assert_eq!(Damage::Board.and(Damage::All), Damage::All);
        assert_eq!(Damage::All.and(Damage::None), Damage::All);
        assert_eq!(Damage::all_if(false), Damage::None);
        assert_eq!(Damage::all_if(true), Damage::All);
    }

    #[test]
    fn a_board_frame_redraws_the_board_and_the_stats() {
        let (time, board) = (Rect::new(0, 3, 18, 7), Rect::new(19, 1, 22, 22));
        let parts = Parts::new(time, board);
        assert_eq!(parts.of(Damage::Time), &[time]);
        assert_eq!(parts.of(Damage::Board), &[board, time], "the stats last");
        assert!(parts.of(Damage::All).is_empty());
        assert!(parts.of(Damage::None).is_empty());
    }
}
