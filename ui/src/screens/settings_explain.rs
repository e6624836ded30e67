//! What each settings row means, in plain words, shown under the list for the selected row
//! (instead of one fixed note), and the soft drop steps up to instant.

use minotty_engine::Button;

use crate::settings::{MAX_SDF, step};

/// The explanation of settings row `i` (see `ROWS` in `settings.rs`).
pub fn row(i: usize) -> &'static str {
    match i {
        0 => "Which keys move, rotate, drop and hold, and ready-made key sets (TETR.IO-like).",
        1 => {
            "DAS: how long a held Left or Right waits before the piece slides on its own. \
              Default 150 ms, from the standard rules. From the next game."
        }
        2 => {
            "ARR: once sliding, the time between moves; 0 ms goes straight to the wall. \
              Default 50 ms, from the standard rules. From the next game."
        }
        3 => {
            "How many times faster than falling a soft drop goes; the last step drops \
              straight down. Default 10x, from the standard rules. From the next game."
        }
        4 => {
            "Prevent accidental hard drop: a hard drop within this long of a line clear \
              does nothing. Off by default. From the next game."
        }
        5 => {
            "DAS cut: after a piece appears or turns, a held Left or Right waits this long \
              before it slides again. Off by default. From the next game."
        }
        6 => "How many of the coming pieces show beside the board.",
        7 => "A faint outline of where the piece would land.",
        8 => {
            "Unicode blocks, plain ASCII for consoles without good fonts, or the look of \
              the 1984 original."
        }
        9 => {
            "Which colours your terminal can show. Monochrome tells pieces apart by their \
              glyphs."
        }
        10 => "The most screens per second sent to you; lower it on a slow connection.",
        11 => "Shows the frames per second you receive on the game screen.",
        12 => {
            "For terminals without key releases: a key pressed once counts as let go \
               after this long (always below DAS, so a tap moves once). Help says more."
        }
        13 => {
            "All: a hard drop's trail, the lock flash, cleared rows blinking. No trail: the \
              flashes only. None: nothing moves that the game does not (reduced motion)."
        }
        14 => "auto: the biggest board the terminal fits. 1x: always the smallest.",
        15 => {
            "A raced ghost (40 lines, ultra): its own board beside yours, or an outline on yours."
        }
        16 => "Whether your solo games are listed on the Live screen for others to watch.",
        17 => "The pieces' colours: classic, Gruvbox, Solarized or The Matrix's greens.",
        18 => "The dots that mark the board's empty cells, or none.",
        19 => "Whether locked blocks keep their piece's colour or all turn grey.",
        20 => {
            "Blocks two columns by a row; half blocks (two cells a character) or Braille \
              (eight a character) for a small board on a small screen. Needs Unicode."
        }
        21 => {
            "Left or Right pressed twice within this long teleports the piece to the wall \
              (rulesets with sonic drop). Off by default. From the next game."
        }
        22 => {
            "Keeps DAS and ARR below the lock delay, so that a piece on the ground can \
              always move before it locks (tetrs does so always). From the next game."
        }
        23 => "Checks what your terminal does: colours, key releases, key repeat, size.",
        24 => "Your password and the SSH keys that sign you in.",
        25 => "Every setting and key back to its default. Asks first and says what changes.",
        _ => "Changes apply at once; DAS, ARR and soft drop from the next game.",
    }
}

/// The explanation of row `cursor` of the controls list (the buttons, Retry, then the extra
/// rows).
pub fn remap_row(cursor: usize) -> &'static str {
    match cursor.checked_sub(Button::ALL.len()) {
        None => {
            "Enter: add a key (up to 3). Backspace: clear this action's keys. A key \
                 taken from another action is said here."
        }
        Some(0) => {
            "The key that starts the game again at once in 40 lines, ultra, cheese and \
                 combo (and from results). Enter: change it. Backspace: no retry key."
        }
        Some(1) => "Whether Up rotates clockwise (then Space hard-drops) or hard-drops.",
        Some(2) => {
            "Ready-made keys: minotty, TETR.IO-like, Control+ (minotty's with Q/E \
                    teleport, W sonic drop), Guideline, Vim (HJKL). Asks before replacing yours."
        }
        Some(3) => "The minotty keys back. Asks first if yours are your own.",
        _ => "Back to the settings.",
    }
}

/// The soft drop factor one step from `sdf` in direction `dir`: `1..=MAX_SDF`, then instant
/// (stored as 0, the engine's "drop to the floor at once"), at the top of the range.
pub fn step_sdf(sdf: u32, dir: i32) -> u32 {
    let rank = if sdf == 0 { MAX_SDF + 1 } else { sdf };
    match step(rank, dir, 1, MAX_SDF + 1) {
        r if r > MAX_SDF => 0,
        r => r,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn soft_drop_steps_up_to_instant_and_back() {
        assert_eq!(step_sdf(MAX_SDF - 1, 1), MAX_SDF);
        assert_eq!(step_sdf(MAX_SDF, 1), 0);
        assert_eq!(step_sdf(0, 1), 0);
        assert_eq!(step_sdf(0, -1), MAX_SDF);
        assert_eq!(step_sdf(1, -1), 1);
        assert_eq!(step_sdf(10, 1), 11);
    }
}
