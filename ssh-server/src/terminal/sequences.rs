//! The control sequences that frame a session's output: entering and leaving the alternate
//! screen, the kitty keyboard mode, and synchronized output around a frame.

/// Enter the alternate screen, hide the cursor, turn off autowrap, clear, then ask for the kitty
/// keyboard flags followed by the primary device attributes (every terminal answers the latter).
pub const ENTER: &[u8] = b"\x1b[?1049h\x1b[?25l\x1b[?7l\x1b[0m\x1b[H\x1b[2J\x1b[?u\x1b[c";
/// Push kitty keyboard flags 1 + 2 + 8: disambiguate, report event types, all keys as escapes.
pub const KITTY_PUSH: &[u8] = b"\x1b[>11u";
const KITTY_POP: &[u8] = b"\x1b[<u";
const LEAVE: &[u8] = b"\x1b[?2026l\x1b[0m\x1b[?7h\x1b[?25h\x1b[?1049l";
const SYNC_BEGIN: &[u8] = b"\x1b[?2026h";
const SYNC_END: &[u8] = b"\x1b[?2026l";

/// The bytes that give the client its terminal back: keyboard mode popped (when pushed),
/// attributes reset, autowrap on, cursor shown, alternate screen left.
pub fn leave_sequence(kitty_pushed: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(32);
    if kitty_pushed {
        out.extend_from_slice(KITTY_POP);
    }
    out.extend_from_slice(LEAVE);
    out
}

/// Frames shorter than this are sent without synchronized-output brackets: they fit in one
/// SSH packet and one read of the client's terminal, which draws them whole anyway, and the
/// 16 bytes of brackets were a tenth of what a game sends (key answers, a falling piece).
pub const SYNC_MIN: usize = 256;

/// Wraps a frame in synchronized output so the terminal shows it whole (a frame under
/// [`SYNC_MIN`] bytes goes bare), after `prefix` (control sequences that must not be part of
/// the frame).
pub fn frame_bytes(prefix: &[u8], frame: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(prefix.len() + frame.len() + 16);
    out.extend_from_slice(prefix);
    if frame.len() >= SYNC_MIN {
        out.extend_from_slice(SYNC_BEGIN);
        out.extend_from_slice(frame);
        out.extend_from_slice(SYNC_END);
    } else {
        out.extend_from_slice(frame);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaving_restores_the_terminal() {
        let leave = leave_sequence(true);
        assert!(leave.starts_with(b"\x1b[<u"));
        assert!(leave.ends_with(b"\x1b[?25h\x1b[?1049l"));
        assert!(!leave_sequence(false).starts_with(b"\x1b[<u"));
        assert_eq!(frame_bytes(b"p", b""), b"p");
        // A small frame goes bare; a large one inside synchronized output.
        assert_eq!(frame_bytes(b"p", b"f"), b"pf");
        let big = vec![b'x'; SYNC_MIN];
        let wrapped = frame_bytes(b"", &big);
        assert!(wrapped.starts_with(b"\x1b[?2026h") && wrapped.ends_with(b"\x1b[?2026l"));
        assert_eq!(wrapped.len(), SYNC_MIN + 16);
    }
}
