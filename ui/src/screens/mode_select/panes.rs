//! The mode select's options under a mode's description, for the modes that always play one
//! ruleset: cheese's garbage rows, puzzle's start stage, classic's start level and lock delay
//! (Left/Right, L), and the ruleset the others play.

use minotty_engine::puzzle::{self, STAGE_COUNT};
use minotty_engine::{CHEESE_DEFAULT, CLASSIC_LOCK_DELAY, ModeKind, nes};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::{LOCKED_NOTE, ModeSelect};
use crate::draw;
use crate::rules::{fixed_ruleset, ruleset_name};
use crate::text::sfmt;
use crate::theme::Theme;

/// Draws `kind`'s options in `right` from row `y` (the row after the description's gap).
pub(super) fn draw(
    st: &ModeSelect,
    kind: ModeKind,
    buf: &mut Buffer,
    right: Rect,
    y: u16,
    theme: Theme,
) {
    match kind {
        ModeKind::Cheese => cheese(st, buf, right, y, theme),
        ModeKind::Puzzle => puzzle(st, buf, right, y, theme),
        ModeKind::Classic => classic(st, buf, right, y, theme),
        _ => {
            let name = sfmt!(32; "Ruleset: {}", ruleset_name(fixed_ruleset(kind)));
            draw::put(buf, right, right.x, y, name.as_str(), theme.dim());
            if st.locked(kind) {
                draw::put(buf, right, right.x, y + 2, LOCKED_NOTE, theme.bad());
            }
        }
    }
}

fn cheese(st: &ModeSelect, buf: &mut Buffer, right: Rect, y: u16, theme: Theme) {
    let n = sfmt!(16; "< {} >", st.cheese_rows);
    draw::put(buf, right, right.x, y, "Garbage rows", theme.text());
    draw::put_right(buf, right, y, n.as_str(), theme.selected());
    let note = if st.cheese_rows == CHEESE_DEFAULT {
        "The leaderboard's count. 10 rows show at a time."
    } else {
        "Unranked: the leaderboard digs 20. 10 rows show at a time."
    };
    let at = Rect::new(right.x, y + 1, right.width, 2).intersection(right);
    let wrapped = draw::wrapped(buf, at, y + 1, note, theme.dim());
    let y = y + 2 + wrapped;
    draw::put(buf, right, right.x, y, "Ruleset: standard", theme.dim());
}

fn puzzle(st: &ModeSelect, buf: &mut Buffer, right: Rect, y: u16, theme: Theme) {
    let stage = st.puzzle_stage.clamp(1, st.puzzle_reachable());
    let n = sfmt!(16; "< {} >", stage);
    draw::put(buf, right, right.x, y, "Start at stage", theme.text());
    draw::put_right(buf, right, y, n.as_str(), theme.selected());
    let name = puzzle::stage(stage).name;
    draw::put(buf, right, right.x, y + 1, name, theme.accent());
    let cleared = sfmt!(48; "Cleared {} of {} stages", st.puzzle_cleared, STAGE_COUNT);
    draw::put(buf, right, right.x, y + 3, cleared.as_str(), theme.text());
    let note = "Each stage: place every piece given and leave the board empty. \
                5 attempts per stage, no hold.";
    let at = Rect::new(right.x, y + 4, right.width, 3).intersection(right);
    let wrapped = draw::wrapped(buf, at, y + 4, note, theme.dim());
    let y = y + 5 + wrapped;
    draw::put(
        buf,
        right,
        right.x,
        y,
        "Ruleset: tetrs (Ocular)",
        theme.dim(),
    );
}

/// Classic: the start level (Left/Right) with its speed and first level-up, and the lock delay
/// (L), which unranks.
fn classic(st: &ModeSelect, buf: &mut Buffer, right: Rect, y: u16, theme: Theme) {
    let level = st.classic_level;
    let n = sfmt!(16; "< {} >", level);
    draw::put(buf, right, right.x, y, "Start level", theme.text());
    draw::put_right(buf, right, y, n.as_str(), theme.selected());
    let speed = sfmt!(64; "{} ms a row, the first level-up after {} lines",
        nes::gravity_ms(level), nes::first_level_up(level));
    draw::put(buf, right, right.x, y + 1, speed.as_str(), theme.dim());
    let (on, note) = if st.classic_lock_delay {
        let note = sfmt!(128; "A piece that lands waits {} ms before it locks. Unranked: the \
            leaderboard plays without it.", CLASSIC_LOCK_DELAY);
        ("on", note)
    } else {
        let note = sfmt!(128; "As on the NES: a piece locks at the first step gravity cannot \
            move it down.");
        ("off", note)
    };
    draw::put(buf, right, right.x, y + 3, "Lock delay (L)", theme.text());
    draw::put_right(buf, right, y + 3, on, theme.selected());
    let at = Rect::new(right.x, y + 4, right.width, 2).intersection(right);
    let wrapped = draw::wrapped(buf, at, y + 4, note.as_str(), theme.dim());
    let y = y + 5 + wrapped;
    draw::put(buf, right, right.x, y, "Ruleset: standard", theme.dim());
}
