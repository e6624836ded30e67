//! Client bytes to key events, with termina's streaming parser.
//!
//! Escape sequences may be split across packets, so bytes are fed with "more may follow"; a
//! lone ESC becomes the Escape key when no more bytes arrive within [`ESC_TIMEOUT`]. Garbage
//! cannot grow the parser's buffer: after [`MAX_PENDING`] bytes without an event the parser
//! starts over (termina re-reads its buffer for every byte fed, so this also bounds the work per
//! byte), and a panic inside the parser only loses the rest of that packet. Bytes that end up
//! in no input (garbage, sequences the game has no use for) are counted, so the session can
//! hold them to a budget ([`InputDecoder::take_wasted`]).
//!
//! Replies to the server's questions (device attributes, kitty keyboard flags, and the terminal
//! doctor's position reports, DECRPM, XTVERSION and DECRQSS) are read from the raw bytes of the
//! sequence (`doctor::parse_reply`) and come out as [`Input::Reply`], never as keys; the
//! session charges a reply nobody asked for to the garbage budget.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

use minotty_ui::{Key, KeyEvent, KeyKind, Mods};
use termina::Event;
use termina::event::{KeyCode, KeyEventKind, ModifierKeyCode, Modifiers};

use crate::doctor::{Reply, parse_reply};

/// How long a lone ESC waits for the rest of a sequence before it counts as the Escape key.
pub const ESC_TIMEOUT: Duration = Duration::from_millis(40);

/// Bytes without a completed event after which the parser's buffer is discarded. The longest
/// sequences a terminal sends us (a device-attributes report such as `ESC [ ? 62 ; 22 ; 52 c`,
/// a kitty key event with modifiers and event type) are under 32 bytes.
pub const MAX_PENDING: usize = 64;

/// Bytes of an overlong DCS or OSC string (a reply too long to be one of ours) skipped after
/// it is dropped, up to its terminator, so that its text never turns into keys. A pause of
/// [`ESC_TIMEOUT`] (the flush) ends the skipping too.
pub const MAX_SKIP: usize = 1024;

/// What the session learns from the client's input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Key(KeyEvent),
    /// The terminal answered a question; `bytes` is the reply's length (what it costs the
    /// garbage budget when nobody asked).
    Reply {
        reply: Reply,
        bytes: usize,
    },
}

/// A streaming decoder of one client's input.
#[derive(Debug, Default)]
pub struct InputDecoder {
    parser: termina::Parser,
    /// Bytes fed since the last completed event.
    since_event: usize,
    /// Bytes that ended in no input since the last [`InputDecoder::take_wasted`].
    wasted: usize,
    /// The bytes fed since the last completed event (at most `MAX_PENDING + 1`), read again
    /// for replies termina does not parse (XTVERSION, DECRQSS).
    raw: Vec<u8>,
    /// Bytes still to skip of an overlong string sequence (see [`MAX_SKIP`]), and whether the
    /// last one skipped was ESC (the first half of ST).
    skipping: usize,
    skip_esc: bool,
}

impl InputDecoder {
    pub fn new() -> InputDecoder {
        InputDecoder::default()
    }

    /// Feeds one packet of client bytes; completed inputs are appended to `out`.
    pub fn feed(&mut self, bytes: &[u8], out: &mut Vec<Input>) {
        let result = catch_unwind(AssertUnwindSafe(|| {
            for &byte in bytes {
                if self.skipping > 0 {
                    self.skipping -= 1;
                    self.wasted += 1;
                    let st = byte == 0x07 || (self.skip_esc && byte == b'\\');
                    self.skip_esc = byte == 0x1b;
                    if st {
                        self.skipping = 0;
                    }
                    continue;
                }
                if self.raw.len() <= MAX_PENDING {
                    self.raw.push(byte);
                }
                self.parser.parse(&[byte], true);
                let mut any = false;
                let mut useful = false;
                while let Some(event) = self.parser.pop() {
                    any = true;
                    if let Some(input) = to_input(event, &self.raw) {
                        out.push(input);
                        useful = true;
                    }
                }
                // A DCS reply ends at ST; termina parses none of ours (it drops the sequence).
                if !any
                    && self.raw.ends_with(b"\x1b\\")
                    && let Some(reply) = parse_reply(&self.raw)
                {
                    out.push(Input::Reply {
                        reply,
                        bytes: self.since_event + 1,
                    });
                    any = true;
                    useful = true;
                }
                if any {
                    if !useful {
                        self.wasted += self.since_event + 1;
                    }
                    self.since_event = 0;
                    self.raw.clear();
                } else {
                    self.since_event += 1;
                    if self.since_event > MAX_PENDING {
                        if self.raw.starts_with(b"\x1bP") || self.raw.starts_with(b"\x1b]") {
                            self.skipping = MAX_SKIP;
                            self.skip_esc = false;
                        }
                        self.parser = termina::Parser::default();
                        self.wasted += self.since_event;
                        self.since_event = 0;
                        self.raw.clear();
                    }
                }
            }
        }));
        if result.is_err() {
            tracing::warn!("input parser panicked; input discarded");
            self.reset();
        }
    }

    /// Whether bytes are waiting for the rest of a sequence (call [`InputDecoder::flush`] after
    /// [`ESC_TIMEOUT`] without input).
    pub fn has_pending(&self) -> bool {
        self.since_event > 0 || self.skipping > 0
    }

    /// Treats what is buffered as complete: a lone ESC becomes the Escape key.
    pub fn flush(&mut self, out: &mut Vec<Input>) {
        let before = out.len();
        let result = catch_unwind(AssertUnwindSafe(|| {
            self.parser.parse(&[], false);
            while let Some(event) = self.parser.pop() {
                if let Some(input) = to_input(event, &self.raw) {
                    out.push(input);
                }
            }
        }));
        if result.is_err() {
            tracing::warn!("input parser panicked; input discarded");
        }
        if out.len() > before {
            self.since_event = 0;
        }
        self.reset();
    }

    /// Drops whatever is buffered (e.g. after bytes were discarded mid-sequence).
    pub fn reset(&mut self) {
        self.parser = termina::Parser::default();
        self.wasted += self.since_event;
        self.since_event = 0;
        self.raw.clear();
        self.skipping = 0;
    }

    /// Bytes that ended in no input since the last call.
    pub fn take_wasted(&mut self) -> usize {
        std::mem::take(&mut self.wasted)
    }
}

/// `raw`: the bytes of the sequence that made `event` (and possibly junk before it).
fn to_input(event: Event, raw: &[u8]) -> Option<Input> {
    match event {
        Event::Key(key) => to_key_event(key).map(Input::Key),
        // Pastes arrive only when bracketed paste is on, which we never ask for; mouse and focus
        // reports likewise. Replies are read from their bytes; anything else is ignored.
        Event::Csi(_) | Event::Dcs(_) => parse_reply(raw).map(|reply| Input::Reply {
            reply,
            bytes: raw.len(),
        }),
        _ => None,
    }
}

/// Maps a termina key event to the UI's key event; keys the game has no use for map to `None`.
pub fn to_key_event(event: termina::event::KeyEvent) -> Option<KeyEvent> {
    let key = match event.code {
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Enter => Key::Enter,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Tab => Key::Tab,
        KeyCode::BackTab => Key::BackTab,
        KeyCode::Escape => Key::Esc,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        KeyCode::Insert => Key::Insert,
        KeyCode::Delete => Key::Delete,
        KeyCode::Function(n) => Key::F(n),
        KeyCode::Modifier(m) => match m {
            ModifierKeyCode::LeftShift | ModifierKeyCode::RightShift => Key::Shift,
            ModifierKeyCode::LeftControl | ModifierKeyCode::RightControl => Key::Ctrl,
            ModifierKeyCode::LeftAlt | ModifierKeyCode::RightAlt => Key::Alt,
            _ => return None,
        },
        _ => return None,
    };
    let kind = match event.kind {
        KeyEventKind::Press => KeyKind::Press,
        KeyEventKind::Repeat => KeyKind::Repeat,
        KeyEventKind::Release => KeyKind::Release,
    };
    let mods = Mods {
        shift: event.modifiers.contains(Modifiers::SHIFT),
        ctrl: event.modifiers.contains(Modifiers::CONTROL),
        alt: event.modifiers.contains(Modifiers::ALT),
    };
    Some(KeyEvent { key, mods, kind })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(packets: &[&[u8]]) -> (Vec<Input>, bool) {
        let mut decoder = InputDecoder::new();
        let mut out = Vec::new();
        for p in packets {
            decoder.feed(p, &mut out);
        }
        let pending = decoder.has_pending();
        (out, pending)
    }

    fn press(key: Key) -> Input {
        Input::Key(KeyEvent::press(key))
    }

    #[test]
    fn plain_keys_and_arrows() {
        let (out, pending) = decode(&[b"a\x1b[D\x1b[A\r"]);
        assert_eq!(
            out,
            vec![
                press(Key::Char('a')),
                press(Key::Left),
                press(Key::Up),
                press(Key::Enter)
            ]
        );
        assert!(!pending);
    }

    /// Mobile clients (Blink, Termius) and terminals in application cursor mode send SS3
    /// arrows and keypad keys (`ESC O A`): the same keys as `ESC [ A` (issue 41 item 3), split
    /// across packets too.
    #[test]
    fn application_mode_arrows_are_arrows() {
        let (out, pending) = decode(&[b"\x1bOA\x1bOB\x1bOC\x1bOD\x1bOH\x1bOF"]);
        assert_eq!(
            out,
            vec![
                press(Key::Up),
                press(Key::Down),
                press(Key::Right),
                press(Key::Left),
                press(Key::Home),
                press(Key::End),
            ]
        );
        assert!(!pending);
        let (out, _) = decode(&[b"\x1bO", b"D"]);
        assert_eq!(out, vec![press(Key::Left)]);
    }

    #[test]
    fn sequence_split_across_packets() {
        let (out, _) = decode(&[b"\x1b", b"[", b"B"]);
        assert_eq!(out, vec![press(Key::Down)]);
    }

    #[test]
    fn lone_escape_needs_a_flush() {
        let mut decoder = InputDecoder::new();
        let mut out = Vec::new();
        decoder.feed(b"\x1b", &mut out);
        assert!(out.is_empty());
        assert!(decoder.has_pending());
        decoder.flush(&mut out);
        assert_eq!(out, vec![press(Key::Esc)]);
        assert!(!decoder.has_pending());
    }

    #[test]
    fn kitty_press_repeat_release() {
        // 'a' press, repeat, release; left arrow release with shift.
        let (out, _) = decode(&[b"\x1b[97u\x1b[97;1:2u\x1b[97;1:3u\x1b[1;2:3D"]);
        let kinds: Vec<_> = out
            .iter()
            .map(|i| match i {
                Input::Key(k) => (k.key, k.kind, k.mods.shift),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            kinds,
            vec![
                (Key::Char('a'), KeyKind::Press, false),
                (Key::Char('a'), KeyKind::Repeat, false),
                (Key::Char('a'), KeyKind::Release, false),
                (Key::Left, KeyKind::Release, true),
            ]
        );
    }

    #[test]
    fn negotiation_replies() {
        let (out, _) = decode(&[b"\x1b[?0u\x1b[?62;22c"]);
        assert_eq!(
            out,
            vec![
                Input::Reply {
                    reply: Reply::KittyFlags(0),
                    bytes: 5
                },
                Input::Reply {
                    reply: Reply::DeviceAttributes,
                    bytes: 9
                }
            ]
        );
        let (out, _) = decode(&[b"\x1b[?1;2c"]);
        assert_eq!(
            out,
            vec![Input::Reply {
                reply: Reply::DeviceAttributes,
                bytes: 7
            }]
        );
    }

    fn replies(out: &[Input]) -> Vec<Reply> {
        out.iter()
            .filter_map(|i| match i {
                Input::Reply { reply, .. } => Some(reply.clone()),
                Input::Key(_) => None,
            })
            .collect()
    }

    #[test]
    fn doctor_replies_come_out_as_replies_never_as_keys() {
        // Every shape the doctor asks for, interleaved with keys and split mid-sequence.
        let (out, pending) = decode(&[
            b"a\x1b[?2026;2$y\x1b[24;3R",
            b"\x1bP>|tmux",
            b" 3.3a\x1b",
            b"\\\x1b[Dq\x1bP1$r0;38:2::1:2:3m\x1b\\\x1b[?1;2c",
        ]);
        assert!(!pending);
        let keys: Vec<_> = out
            .iter()
            .filter_map(|i| match i {
                Input::Key(k) => Some(k.key),
                Input::Reply { .. } => None,
            })
            .collect();
        assert_eq!(keys, vec![Key::Char('a'), Key::Left, Key::Char('q')]);
        assert_eq!(
            replies(&out),
            vec![
                Reply::Mode {
                    mode: 2026,
                    value: 2
                },
                Reply::CursorPosition { row: 24, col: 3 },
                Reply::Version("tmux 3.3a".into()),
                Reply::Status {
                    valid: true,
                    body: "0;38:2::1:2:3m".into()
                },
                Reply::DeviceAttributes,
            ]
        );
        // Each reply says how many bytes it was.
        let Some(Input::Reply { bytes, .. }) = out.iter().find(|i| {
            matches!(
                i,
                Input::Reply {
                    reply: Reply::Version(_),
                    ..
                }
            )
        }) else {
            panic!()
        };
        assert_eq!(*bytes, b"\x1bP>|tmux 3.3a\x1b\\".len());
    }

    #[test]
    fn huge_or_truncated_replies_are_dropped_as_garbage() {
        let mut decoder = InputDecoder::new();
        let mut out = Vec::new();
        // An XTVERSION longer than MAX_PENDING never completes: dropped, all of it wasted.
        let mut huge = b"\x1bP>|".to_vec();
        huge.extend(std::iter::repeat_n(b'x', 10 * MAX_PENDING));
        huge.extend_from_slice(b"\x1b\\");
        decoder.feed(&huge, &mut out);
        assert!(replies(&out).is_empty(), "{out:?}");
        assert!(decoder.take_wasted() >= 10 * MAX_PENDING);
        // A truncated position report, then a key: the key still arrives.
        decoder.feed(b"\x1b[24;", &mut out);
        decoder.reset();
        decoder.feed(b"z", &mut out);
        assert_eq!(out, vec![press(Key::Char('z'))]);
        // A reply the parser does not know the shape of (DECRPM of another mode with junk).
        out.clear();
        decoder.feed(b"\x1b[?2026;x$y", &mut out);
        assert!(replies(&out).is_empty());
    }

    #[test]
    fn ctrl_c_is_a_key_with_ctrl() {
        let (out, _) = decode(&[b"\x03"]);
        let Some(Input::Key(k)) = out.first() else {
            panic!("{out:?}")
        };
        assert_eq!(k.key, Key::Char('c'));
        assert!(k.mods.ctrl);
    }

    #[test]
    fn garbage_never_grows_the_buffer_and_input_recovers() {
        let mut junk = b"\x1b]".to_vec();
        junk.extend(std::iter::repeat_n(b'x', 100_000));
        junk.extend_from_slice(b"\x1b[?");
        junk.extend_from_slice(&[0xff, 0xfe, 0x00, b'\x1b', b'[', b'9', b'9']);
        let mut decoder = InputDecoder::new();
        let mut out = Vec::new();
        // termina re-reads what it holds for every byte fed: the work is the sum of what it
        // holds, counted after each byte. Never more than MAX_PENDING + 1 bytes, so 100 KB of
        // garbage costs at most linear work (without the cap: 5 * 10^9 bytes re-read).
        let mut reread = 0usize;
        for byte in &junk {
            decoder.feed(std::slice::from_ref(byte), &mut out);
            assert!(
                decoder.since_event <= MAX_PENDING,
                "{}",
                decoder.since_event
            );
            assert!(
                decoder.raw.len() <= MAX_PENDING + 1,
                "{}",
                decoder.raw.len()
            );
            reread += decoder.since_event;
        }
        assert!(reread <= junk.len() * MAX_PENDING, "{reread}");
        decoder.flush(&mut out);
        out.clear();
        decoder.feed(b"q", &mut out);
        assert_eq!(out, vec![press(Key::Char('q'))]);
    }

    #[test]
    fn bytes_that_make_no_input_are_counted_as_wasted() {
        let mut decoder = InputDecoder::new();
        let mut out = Vec::new();
        // Two useful keys: nothing wasted.
        decoder.feed(b"a\x1b[A", &mut out);
        assert_eq!(out.len(), 2);
        assert_eq!(decoder.take_wasted(), 0);
        // A focus report (3 bytes) parses to an event the game ignores.
        decoder.feed(b"\x1b[I", &mut out);
        assert_eq!(out.len(), 2);
        assert_eq!(decoder.take_wasted(), 3);
        // An unterminated OSC is dropped once it passes MAX_PENDING bytes, all of them wasted;
        // so is a partial sequence dropped on reset.
        let mut junk = b"\x1b]".to_vec();
        junk.extend(std::iter::repeat_n(b'x', MAX_PENDING - 1));
        decoder.feed(&junk, &mut out);
        assert_eq!(out.len(), 2);
        assert_eq!(decoder.take_wasted(), MAX_PENDING + 1);
        decoder.feed(b"\x1b[1;", &mut out);
        decoder.reset();
        assert_eq!(decoder.take_wasted(), 4);
        assert_eq!(decoder.take_wasted(), 0);
        // A lone ESC that becomes the Escape key is not wasted.
        decoder.feed(b"\x1b", &mut out);
        decoder.flush(&mut out);
        assert_eq!(out.last(), Some(&press(Key::Esc)));
        assert_eq!(decoder.take_wasted(), 0);
    }

    #[test]
    fn random_bytes_never_panic() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut decoder = InputDecoder::new();
        let mut out = Vec::new();
        for _ in 0..2000 {
            let mut packet = Vec::new();
            for _ in 0..64 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let b = (state >> 24) as u8;
                packet.push(match b % 4 {
                    0 => b'\x1b',
                    1 => b"[;?0123456789u~ABCDc<>O"[(b as usize / 4) % 23],
                    _ => b,
                });
            }
            decoder.feed(&packet, &mut out);
        }
        decoder.flush(&mut out);
    }
}
