//! Cursor moves in the fewest bytes: the length of an absolute move and the relative one
//! (carriage return, backspaces, `CSI n A/B/C/D`) it is weighed against.

use ratatui::layout::Position;

/// The bytes of `CSI <y+1>;<x+1>H` (`CSI <y+1>H` in the first column).
pub(super) fn absolute_move_len(x: u16, y: u16) -> usize {
    let row = 3 + digits(u32::from(y) + 1);
    if x == 0 {
        row
    } else {
        row + 1 + digits(u32::from(x) + 1)
    }
}

/// Appends a move from `at` to `to` made of carriage return, backspace and cursor up, down,
/// forward and back (`CSI n A/B/C/D`, the count left out when it is 1).
pub(super) fn relative_move(out: &mut Vec<u8>, at: Position, to: Position) {
    use std::io::Write;
    let csi = |out: &mut Vec<u8>, n: u16, f: u8| {
        out.extend_from_slice(b"\x1b[");
        if n != 1 {
            let _ = write!(out, "{n}");
        }
        out.push(f);
    };
    if to.y > at.y {
        csi(out, to.y - at.y, b'B');
    } else if to.y < at.y {
        csi(out, at.y - to.y, b'A');
    }
    if to.x > at.x {
        csi(out, to.x - at.x, b'C');
    } else if to.x < at.x {
        // Back to the first column and forward, or straight back: whichever is shorter.
        let back = 3 + if at.x - to.x == 1 {
            0
        } else {
            digits(u32::from(at.x - to.x))
        };
        let cr = 1 + match to.x {
            0 => 0,
            1 => 3,
            n => 3 + digits(u32::from(n)),
        };
        // Backspace moves one column left (never past the first, never wrapping): a byte a
        // column, shorter than `CSI n D` for up to three columns.
        let backspaces = usize::from(at.x - to.x);
        if cr <= back && cr < backspaces {
            out.push(b'\r');
            if to.x > 0 {
                csi(out, to.x, b'C');
            }
        } else if backspaces <= back {
            out.extend(std::iter::repeat_n(b'\x08', backspaces));
        } else {
            csi(out, at.x - to.x, b'D');
        }
    }
}

/// The decimal digits of `v`.
fn digits(v: u32) -> usize {
    v.checked_ilog10().map_or(1, |d| d as usize + 1)
}
