//! The terminal's replies to the doctor's questions, parsed out of the input stream
//! ([`parse_reply`], used by `input.rs`), and the bounded text kept from them.

/// A reply from the terminal to one of the server's questions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `CSI ? flags u`: the kitty keyboard protocol's flags.
    KittyFlags(u8),
    /// `CSI ? ... c`: primary device attributes.
    DeviceAttributes,
    /// `CSI ? mode ; value $ y`: DECRPM.
    Mode { mode: u16, value: u8 },
    /// `CSI row ; col R`: a cursor position report.
    CursorPosition { row: u16, col: u16 },
    /// `DCS > | text ST`: XTVERSION (printable ASCII, at most [`MAX_TEXT`] bytes).
    Version(String),
    /// `DCS 1 $ r ... ST` (valid) or `DCS 0 $ r ... ST`: DECRQSS (its body, bounded likewise).
    Status { valid: bool, body: String },
}

/// Longest text kept from a reply.
pub const MAX_TEXT: usize = 64;

const ST: &[u8] = b"\x1b\\";

/// Parses the reply that ends `raw` (the bytes since the last event; anything before the last
/// sequence's introducer is ignored). `None` for anything that is not one of [`Reply`]'s
/// shapes.
pub fn parse_reply(raw: &[u8]) -> Option<Reply> {
    if let Some(body) = raw.strip_suffix(ST) {
        let start = find_last(body, b"\x1bP")?;
        let body = body.get(start + 2..)?;
        if let Some(text) = body.strip_prefix(b">|") {
            return Some(Reply::Version(printable(text)));
        }
        let valid = match body.get(..3)? {
            b"1$r" => true,
            b"0$r" => false,
            _ => return None,
        };
        return Some(Reply::Status {
            valid,
            body: printable(body.get(3..)?),
        });
    }
    let start = find_last(raw, b"\x1b[")?;
    let seq = raw.get(start + 2..)?;
    let (&last, params) = seq.split_last()?;
    if let Some(params) = params.strip_prefix(b"?") {
        return match last {
            b'u' => Some(Reply::KittyFlags(
                u8::try_from(number(params)?).unwrap_or(u8::MAX),
            )),
            b'c' => params
                .iter()
                .all(|b| b.is_ascii_digit() || *b == b';')
                .then_some(Reply::DeviceAttributes),
            b'y' => {
                let params = params.strip_suffix(b"$")?;
                let mut it = params.split(|&b| b == b';');
                let mode = u16::try_from(number(it.next()?)?).ok()?;
                let value = u8::try_from(number(it.next()?)?).ok()?;
                it.next().is_none().then_some(Reply::Mode { mode, value })
            }
            _ => None,
        };
    }
    if last == b'R' {
        let mut it = params.split(|&b| b == b';');
        let row = u16::try_from(number(it.next()?)?).ok()?;
        let col = u16::try_from(number(it.next()?)?).ok()?;
        return it
            .next()
            .is_none()
            .then_some(Reply::CursorPosition { row, col });
    }
    None
}

fn find_last(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

/// A decimal parameter (at most 9 digits, so it fits in `u32`).
fn number(digits: &[u8]) -> Option<u32> {
    if digits.is_empty() || digits.len() > 9 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(digits).ok()?.parse().ok()
}

/// `bytes` as the ASCII the text policy keeps (others become `?`), at most [`MAX_TEXT`] bytes.
pub fn printable(bytes: &[u8]) -> String {
    bytes
        .iter()
        .take(MAX_TEXT)
        .map(|&b| {
            if minotty_domain::text::is_allowed_ascii(b) {
                char::from(b)
            } else {
                '?'
            }
        })
        .collect()
}

/// Whether a DECRQSS SGR body carries the colour [`RGB_PROBE`](super::RGB_PROBE) set: `38;2;1;2;3`,
/// `38:2:1:2:3` or `38:2::1:2:3` (an empty or 0 colour space), among other attributes.
/// A terminal without 24-bit colour stores a palette index (`38;5;16`) instead.
pub fn carries_rgb(body: &str) -> bool {
    let body = body.strip_suffix('m').unwrap_or(body);
    let numbers: Vec<&str> = body.split([';', ':']).collect();
    numbers.windows(5).enumerate().any(|(i, w)| {
        if w[..2] != ["38", "2"] {
            return false;
        }
        let rest = &numbers[i + 2..];
        let rest = match rest.first() {
            Some(&"" | &"0") if rest.len() >= 4 && rest[1..4] == ["1", "2", "3"] => &rest[1..],
            _ => rest,
        };
        rest.get(..3) == Some(&["1", "2", "3"][..])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reply_shape_parses() {
        let cases: &[(&[u8], Reply)] = &[
            (b"\x1b[?0u", Reply::KittyFlags(0)),
            (b"\x1b[?11u", Reply::KittyFlags(11)),
            (b"\x1b[?999u", Reply::KittyFlags(255)),
            (b"\x1b[?62;22c", Reply::DeviceAttributes),
            (b"\x1b[?1;2c", Reply::DeviceAttributes),
            (
                b"\x1b[?2026;2$y",
                Reply::Mode {
                    mode: 2026,
                    value: 2,
                },
            ),
            (
                b"\x1b[?2026;0$y",
                Reply::Mode {
                    mode: 2026,
                    value: 0,
                },
            ),
            (b"\x1b[24;3R", Reply::CursorPosition { row: 24, col: 3 }),
            (
                b"\x1bP>|tmux 3.3a\x1b\\",
                Reply::Version("tmux 3.3a".into()),
            ),
            (
                b"\x1bP>|WezTerm 20240203-110809-5046fc22\x1b\\",
                Reply::Version("WezTerm 20240203-110809-5046fc22".into()),
            ),
            (
                b"\x1bP1$r0;38:2::1:2:3m\x1b\\",
                Reply::Status {
                    valid: true,
                    body: "0;38:2::1:2:3m".into(),
                },
            ),
            (
                b"\x1bP0$r\x1b\\",
                Reply::Status {
                    valid: false,
                    body: String::new(),
                },
            ),
            // Junk before the reply (a sequence the parser gave up on) is skipped.
            (
                b"\x1b[99\x1b[5;1R",
                Reply::CursorPosition { row: 5, col: 1 },
            ),
        ];
        for (raw, want) in cases {
            assert_eq!(parse_reply(raw).as_ref(), Some(want), "{raw:?}");
        }
    }

    #[test]
    fn hostile_and_truncated_replies_are_not_replies() {
        for raw in [
            &b""[..],
            b"\x1b",
            b"\x1b[",
            b"\x1b[?",
            b"\x1b[?2026$y",
            b"\x1b[?2026;1;1$y",
            b"\x1b[?99999999999;1$y",
            b"\x1b[?x;1$y",
            b"\x1b[5R",
            b"\x1b[1;2;3R",
            b"\x1b[99999;1R",
            b"\x1b[?1;ac",
            b"\x1b[A",
            b"\x1bP>|tmux",
            b"\x1bPq\x1b\\",
            b"\x1b\\",
            b"abc",
        ] {
            assert_eq!(parse_reply(raw), None, "{raw:?}");
        }
        // A huge text is cut; controls never survive.
        let mut raw = b"\x1bP>|".to_vec();
        raw.extend(std::iter::repeat_n(b'x', 1000));
        raw.extend_from_slice(b"\x1b[31m\x07\x1b\\");
        let Some(Reply::Version(v)) = parse_reply(&raw) else {
            panic!()
        };
        assert_eq!(v.len(), MAX_TEXT);
        let Some(Reply::Version(v)) = parse_reply(b"\x1bP>|a\x07\x1b]0;x\x1b\\") else {
            panic!()
        };
        assert!(
            v.bytes().all(|b| b.is_ascii_graphic() || b == b' '),
            "{v:?}"
        );
    }

    #[test]
    fn rgb_in_decrqss_bodies() {
        for (body, yes) in [
            ("0;38:2::1:2:3m", true),
            ("38;2;1;2;3m", true),
            ("0;1;38:2:0:1:2:3m", true),
            ("38:2:1:2:3", true),
            ("0;38;5;16m", false),
            ("0m", false),
            ("38;2;1;2m", false),
            ("48;2;1;2;3m", false),
            ("", false),
        ] {
            assert_eq!(carries_rgb(body), yes, "{body}");
        }
    }
}
