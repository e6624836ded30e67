//! Text helpers: [`sanitize`] for player-provided strings (the one allowlist of
//! [`minotty_domain::text`]), and [`StackStr`], a fixed-capacity
//! string formatted on the stack so that drawing a frame allocates nothing of its own.

use minotty_domain::text::sanitize_display;
/// Where a name is cut to a column's width (columns, not characters: a CJK name of 16
/// characters is 32 columns). Every place that draws a player's name in a column cuts it so.
pub use minotty_domain::text::{fit_width, width};
use std::fmt::{self, Write};

/// The longest player name the UI draws, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// A player-provided string (a name, a room's code, a label) made safe to draw: what the one
/// text policy ([`minotty_domain::text`]) allows of it, cut to [`MAX_NAME_CHARS`] characters.
/// Nothing that moves the cursor or changes the terminal's state survives (escape sequences
/// lose their ESC), nor bidi overrides, zero-width characters or private-use characters.
pub fn sanitize(s: &str) -> String {
    sanitize_display(s, MAX_NAME_CHARS)
}

/// `one` when `n` is 1, else `many`: "1 line", "0 lines", "2 lines".
pub fn plural(n: impl Into<u64>, one: &'static str, many: &'static str) -> &'static str {
    if n.into() == 1 { one } else { many }
}

/// A string of at most `N` bytes that lives on the stack. Writing past the capacity truncates
/// at a character boundary instead of failing, which is what a fixed-width display wants.
#[derive(Clone, Copy)]
pub struct StackStr<const N: usize> {
    buf: [u8; N],
    len: usize,
}

impl<const N: usize> StackStr<N> {
    pub const fn new() -> Self {
        StackStr {
            buf: [0; N],
            len: 0,
        }
    }

    /// Formats `args` into a new string.
    pub fn format(args: fmt::Arguments<'_>) -> Self {
        let mut s = Self::new();
        // Writing into a StackStr never fails: overflow truncates.
        let _ = s.write_fmt(args);
        s
    }

    pub fn as_str(&self) -> &str {
        // Only whole UTF-8 characters are ever copied in, see `write_str`.
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl<const N: usize> Default for StackStr<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> Write for StackStr<N> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for c in s.chars() {
            let w = c.len_utf8();
            if self.len + w > N {
                break;
            }
            c.encode_utf8(&mut self.buf[self.len..self.len + w]);
            self.len += w;
        }
        Ok(())
    }
}

impl<const N: usize> fmt::Debug for StackStr<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

/// Formats into a [`StackStr`] of the given capacity: `sfmt!(16; "{}", x)`.
macro_rules! sfmt {
    ($n:literal; $($arg:tt)*) => {
        $crate::text::StackStr::<$n>::format(format_args!($($arg)*))
    };
}
pub(crate) use sfmt;

/// The suffix of `n` as an ordinal: `st` (1st, 21st), `nd`, `rd`, else `th` (11th-13th too).
pub fn ordinal_suffix(n: u32) -> &'static str {
    match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    }
}

/// A game-clock reading as `m:ss.t` (or `h:mm:ss` from one hour on).
/// A running clock at the resolution `step_ms` ticks at (see `session::clock_step_ms`): tenths
/// for a step under a second, else whole seconds ("1:23"), so no digit is shown that does not
/// move.
pub fn running_clock(ms: u64, step_ms: u64) -> StackStr<16> {
    let secs = ms / 1000;
    if step_ms < 1000 || secs >= 3600 {
        clock(ms)
    } else {
        sfmt!(16; "{}:{:02}", secs / 60, secs % 60)
    }
}

pub fn clock(ms: u64) -> StackStr<16> {
    let tenths = ms / 100;
    let secs = ms / 1000;
    if secs >= 3600 {
        sfmt!(16; "{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
    } else {
        sfmt!(16; "{}:{:02}.{}", secs / 60, secs % 60, tenths % 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitize_strips_controls_and_bidi() {
        assert_eq!(sanitize("ab\x1b[2Jcd"), "ab[2Jcd");
        assert_eq!(sanitize("x\ny\tz\u{7f}\u{9b}"), "xyz");
        assert_eq!(sanitize("evil\u{202E}gnp.exe"), "evilgnp.exe");
        assert_eq!(sanitize("  zero\u{200B}width  "), "zerowidth");
        assert_eq!(sanitize("名前"), "名前");
        assert_eq!(sanitize(&"a".repeat(100)).len(), MAX_NAME_CHARS);
    }

    #[test]
    fn stack_str_truncates_on_char_boundary() {
        let s = sfmt!(5; "ab{}", "éé");
        assert_eq!(s.as_str(), "abé");
        assert_eq!(sfmt!(8; "{}", 12345).as_str(), "12345");
    }

    #[test]
    fn clock() {
        assert_eq!(super::clock(0).as_str(), "0:00.0");
        assert_eq!(super::clock(83_456).as_str(), "1:23.4");
        assert_eq!(super::clock(3_723_000).as_str(), "1:02:03");
    }
}
