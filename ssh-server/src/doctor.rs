//! The terminal doctor's server side: the questions the session sends through the player's PTY,
//! the parsing of their replies out of the input stream ([`parse_reply`], used by
//! `input.rs`), and [`Prober`], the state machine that asks, waits (every question has a
//! deadline) and fills in a [`DoctorReport`] for the UI.
//!
//! Every stage ends with a primary device attributes query (`CSI c`), which every terminal
//! answers, and terminals answer in order: when its reply arrives, whatever the stage asked and
//! got no reply to has no answer, without waiting out the deadline. A stage that times out
//! leaves its sentinel and position reports outstanding; when they come late they are eaten
//! (counted), never taken for the next stage's answers.
//!
//! Replies are bounded like any input: the decoder drops a sequence longer than
//! `input::MAX_PENDING`, and a reply no stage expects is charged to the session's garbage
//! budget (`Prober::take` says which were expected).

use minotty_ui::doctor::{DoctorReport, GLYPHS, PROBE_DEADLINE_MS, Probe, Rtt};

use crate::budget::InputGate;
use crate::terminal::TermEnv;

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

/// `bytes` as printable ASCII (others become `?`), at most [`MAX_TEXT`] bytes.
pub fn printable(bytes: &[u8]) -> String {
    bytes
        .iter()
        .take(MAX_TEXT)
        .map(|&b| {
            if b == b' ' || b.is_ascii_graphic() {
                char::from(b)
            } else {
                '?'
            }
        })
        .collect()
}

/// Whether a DECRQSS SGR body carries the colour [`RGB_PROBE`] set: `38;2;1;2;3`,
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

/// Sets a foreground colour the terminal reports back through DECRQSS when it keeps 24-bit
/// colours, asks, and resets. Why DECRQSS and not only `COLORTERM`: `COLORTERM` crosses SSH
/// only with `SendEnv` (and an accepting server), so its absence says nothing; a terminal that
/// reports the exact colour back has stored it as sent. Terminals that do not implement
/// DECRQSS (and tmux) do not answer, and the report falls back on `COLORTERM`.
pub const RGB_PROBE: &[u8] = b"\x1b[0m\x1b[38;2;1;2;3m\x1bP$qm\x1b\\\x1b[0m";

/// Kitty keyboard flags, synchronized output's mode, XTVERSION, then the RGB check.
const QUERIES: &[u8] = b"\x1b[?u\x1b[?2026$p\x1b[>q";
/// Primary device attributes: the sentinel every terminal answers.
const DA1: &[u8] = b"\x1b[c";

/// Round trips measured.
pub const RTT_SAMPLES: usize = 5;

/// What the server knows about the client before asking anything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClientInfo {
    pub pty: bool,
    /// `TERM` from the PTY request (printable ASCII, bounded).
    pub term: Option<String>,
    pub env: TermEnv,
    /// The client's SSH version string.
    pub ssh_client: Option<String>,
}

impl ClientInfo {
    /// A report with only what the server knows (nothing asked yet).
    pub fn report(&self) -> DoctorReport {
        DoctorReport {
            pty: self.pty,
            term: self.term.clone(),
            colorterm: self.env.colorterm.clone(),
            term_program: self.env.term_program.clone(),
            lang: self.env.lang.clone(),
            ssh_client: self.ssh_client.clone(),
            ..DoctorReport::default()
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Stage {
    /// Measuring round trips: the DA1 sent at `sent` (ms), or about to send one.
    Rtt {
        sent: Option<u64>,
    },
    Queries {
        sent: Option<u64>,
    },
    Widths {
        sent: Option<u64>,
        next: usize,
    },
    Done,
}

/// The doctor's questions and what came back, one stage at a time. Time is the session's
/// milliseconds; the session writes what [`Prober::next_write`] gives (when no write is in
/// flight), hands every reply to [`Prober::take`], and calls [`Prober::poll`] at
/// [`Prober::deadline`].
#[derive(Debug)]
pub struct Prober {
    report: DoctorReport,
    stage: Stage,
    samples: Vec<u32>,
    /// The row the glyphs are printed on (1-based).
    row: u16,
    widths: Vec<Option<u8>>,
    /// Sentinels and position reports of stages that timed out, still to come.
    stale_da: u32,
    stale_cpr: u32,
}

impl Prober {
    /// Starts asking about a terminal `rows` high.
    pub fn new(info: &ClientInfo, rows: u16) -> Prober {
        Prober {
            report: info.report(),
            stage: Stage::Rtt { sent: None },
            samples: Vec::with_capacity(RTT_SAMPLES),
            row: rows.max(1),
            widths: Vec::with_capacity(GLYPHS.len()),
            stale_da: 0,
            stale_cpr: 0,
        }
    }

    /// The bytes to send now, if the stage has not sent them yet.
    pub fn next_write(&mut self, now: u64) -> Option<Vec<u8>> {
        match &mut self.stage {
            Stage::Rtt { sent } if sent.is_none() => {
                *sent = Some(now);
                Some(DA1.to_vec())
            }
            Stage::Queries { sent } if sent.is_none() => {
                *sent = Some(now);
                let mut out = QUERIES.to_vec();
                out.extend_from_slice(RGB_PROBE);
                out.extend_from_slice(DA1);
                Some(out)
            }
            Stage::Widths { sent, .. } if sent.is_none() => {
                *sent = Some(now);
                let mut out = Vec::with_capacity(GLYPHS.len() * 16 + 16);
                let row = self.row;
                out.extend_from_slice(format!("\x1b[0m\x1b[{row};1H\x1b[2K").as_bytes());
                for g in &GLYPHS {
                    out.extend_from_slice(format!("\x1b[{row};1H").as_bytes());
                    out.extend_from_slice(g.glyph.as_bytes());
                    out.extend_from_slice(b"\x1b[6n");
                }
                out.extend_from_slice(format!("\x1b[{row};1H\x1b[2K").as_bytes());
                out.extend_from_slice(DA1);
                Some(out)
            }
            _ => None,
        }
    }

    /// When the current stage gives up waiting.
    pub fn deadline(&self) -> Option<u64> {
        match self.stage {
            Stage::Rtt { sent } | Stage::Queries { sent } | Stage::Widths { sent, .. } => {
                sent.map(|t| t + PROBE_DEADLINE_MS)
            }
            Stage::Done => None,
        }
    }

    /// Gives up on a stage whose deadline passed.
    pub fn poll(&mut self, now: u64) {
        if self.deadline().is_none_or(|d| now < d) {
            return;
        }
        // Its sentinel (and the rest of its position reports) may still come.
        self.stale_da += 1;
        match self.stage {
            Stage::Rtt { .. } => {
                if self.samples.is_empty() {
                    // Not even DA1: nothing else will answer either.
                    self.report.rtt = Probe::NoAnswer;
                    self.report.kitty_flags = Probe::NoAnswer;
                    self.report.sync = Probe::NoAnswer;
                    self.report.rgb = Probe::NoAnswer;
                    self.report.version = Probe::NoAnswer;
                    self.report.widths = Probe::NoAnswer;
                    self.stage = Stage::Done;
                } else {
                    self.finish_rtt();
                }
            }
            Stage::Queries { .. } => self.finish_queries(),
            Stage::Widths { next, .. } => {
                self.stale_cpr += u32::try_from(GLYPHS.len().saturating_sub(next)).unwrap_or(0);
                self.finish_widths();
            }
            Stage::Done => {}
        }
    }

    /// Takes a reply; whether it was one the current stage expects (otherwise the session
    /// charges it to the input budget).
    pub fn take(&mut self, reply: &Reply, now: u64) -> bool {
        if *reply == Reply::DeviceAttributes && self.stale_da > 0 {
            self.stale_da -= 1;
            return true;
        }
        if matches!(reply, Reply::CursorPosition { .. }) && self.stale_cpr > 0 {
            self.stale_cpr -= 1;
            return true;
        }
        match (&mut self.stage, reply) {
            (Stage::Rtt { sent: Some(at) }, Reply::DeviceAttributes) => {
                let ms = u32::try_from(now.saturating_sub(*at)).unwrap_or(u32::MAX);
                self.samples.push(ms);
                if self.samples.len() >= RTT_SAMPLES {
                    self.finish_rtt();
                } else {
                    self.stage = Stage::Rtt { sent: None };
                }
                true
            }
            (Stage::Queries { sent: Some(_) }, reply) => match reply {
                Reply::KittyFlags(f) if self.report.kitty_flags == Probe::NotRun => {
                    self.report.kitty_flags = Probe::Answer(*f);
                    true
                }
                Reply::Mode { mode: 2026, value } if self.report.sync == Probe::NotRun => {
                    self.report.sync = Probe::Answer(*value);
                    true
                }
                Reply::Version(v) if self.report.version == Probe::NotRun => {
                    self.report.version = Probe::Answer(v.clone());
                    true
                }
                Reply::Status { valid, body } if self.report.rgb == Probe::NotRun => {
                    // An invalid request is no answer about colour.
                    self.report.rgb = if *valid {
                        Probe::Answer(carries_rgb(body))
                    } else {
                        Probe::NoAnswer
                    };
                    true
                }
                Reply::DeviceAttributes => {
                    self.finish_queries();
                    true
                }
                _ => false,
            },
            (
                Stage::Widths {
                    sent: Some(_),
                    next,
                },
                reply,
            ) => match reply {
                Reply::CursorPosition { col, .. } if *next < GLYPHS.len() => {
                    *next += 1;
                    // The glyph was printed from column 1.
                    let w = col.saturating_sub(1);
                    self.widths.push(Some(u8::try_from(w).unwrap_or(u8::MAX)));
                    true
                }
                Reply::DeviceAttributes => {
                    self.finish_widths();
                    true
                }
                _ => false,
            },
            _ => false,
        }
    }

    fn finish_rtt(&mut self) {
        let mut s = self.samples.clone();
        s.sort_unstable();
        if let (Some(&max), Some(&median)) = (s.last(), s.get(s.len() / 2)) {
            self.report.rtt = Probe::Answer(Rtt {
                median_ms: median,
                max_ms: max,
                samples: u8::try_from(s.len()).unwrap_or(u8::MAX),
            });
        } else {
            self.report.rtt = Probe::NoAnswer;
        }
        self.stage = Stage::Queries { sent: None };
    }

    fn finish_queries(&mut self) {
        let r = &mut self.report;
        for p in [&mut r.kitty_flags, &mut r.sync] {
            if *p == Probe::NotRun {
                *p = Probe::NoAnswer;
            }
        }
        if r.rgb == Probe::NotRun {
            r.rgb = Probe::NoAnswer;
        }
        if r.version == Probe::NotRun {
            r.version = Probe::NoAnswer;
        }
        self.stage = Stage::Widths {
            sent: None,
            next: 0,
        };
    }

    fn finish_widths(&mut self) {
        let mut widths = std::mem::take(&mut self.widths);
        widths.resize(GLYPHS.len(), None);
        self.report.widths = if widths.iter().any(Option::is_some) {
            Probe::Answer(widths)
        } else {
            Probe::NoAnswer
        };
        self.stage = Stage::Done;
    }

    pub fn is_done(&self) -> bool {
        self.stage == Stage::Done
    }

    /// The report, once done.
    pub fn into_report(self) -> DoctorReport {
        self.report
    }
}

/// Hands a reply to the prober when one runs and expects it (free); any other reply costs what
/// bytes that make no input cost ([`InputGate::spend_wasted`]), so a client that sends
/// replies nobody asked for gets no more than the garbage budget. Whether the prober took it.
pub fn route_reply(
    prober: Option<&mut Prober>,
    reply: &Reply,
    bytes: usize,
    gate: &mut InputGate,
    now: u64,
) -> bool {
    let taken = prober.is_some_and(|p| p.take(reply, now));
    if !taken {
        gate.spend_wasted(bytes, now);
    }
    taken
}

/// What `ssh HOST doctor` prints without a PTY: what the server knows, the advice that follows
/// from it alone, and how to run the real checks. Nothing is asked: without a PTY the client's
/// terminal is in cooked mode and the replies would be echoed on the player's screen.
pub fn plain_report(info: &ClientInfo) -> String {
    use std::fmt::Write as _;
    let report = info.report();
    let shown = |v: &Option<String>| v.clone().unwrap_or_else(|| "(not sent)".to_owned());
    let mut out = String::new();
    out.push_str("minotty terminal doctor (no terminal: nothing was asked)\n\n");
    let _ = writeln!(
        out,
        "  PTY            {}",
        if info.pty {
            "yes"
        } else {
            "no (ssh -T, or a command without -t)"
        }
    );
    let _ = writeln!(out, "  TERM           {}", shown(&info.term));
    let _ = writeln!(out, "  COLORTERM      {}", shown(&info.env.colorterm));
    let _ = writeln!(out, "  TERM_PROGRAM   {}", shown(&info.env.term_program));
    let _ = writeln!(out, "  LANG           {}", shown(&info.env.lang));
    let _ = writeln!(
        out,
        "  SSH client     {}",
        info.ssh_client.as_deref().unwrap_or("(unknown)")
    );
    let advice: Vec<_> = minotty_ui::doctor::advice(&report).collect();
    if !advice.is_empty() {
        out.push_str("\nWhat to change:\n");
        for a in advice {
            for line in a.lines {
                let _ = writeln!(out, "  {line}");
            }
        }
    }
    out.push_str(
        "\nTo check what your terminal can do (keyboard, synchronized output, colours, glyph\n\
         widths, tmux or screen, round trip), run it with a terminal:\n\n  \
         ssh -t -p PORT HOST doctor\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info() -> ClientInfo {
        ClientInfo {
            pty: true,
            term: Some("xterm-256color".into()),
            env: TermEnv::default(),
            ssh_client: Some("SSH-2.0-OpenSSH_9.6".into()),
        }
    }

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

    /// Runs a prober against a scripted terminal: `answer(stage_bytes)` gives the replies.
    fn run(mut answer: impl FnMut(&[u8]) -> Vec<Reply>, rtt_ms: u64) -> DoctorReport {
        let mut p = Prober::new(&info(), 24);
        let mut now = 0;
        for _ in 0..100 {
            if p.is_done() {
                break;
            }
            if let Some(bytes) = p.next_write(now) {
                let replies = answer(&bytes);
                now += rtt_ms;
                for r in replies {
                    p.take(&r, now);
                }
            } else {
                now = p.deadline().unwrap();
                p.poll(now);
            }
        }
        assert!(p.is_done());
        p.into_report()
    }

    /// A terminal like kitty: answers everything, glyphs one column wide except ◆.
    fn kitty(bytes: &[u8]) -> Vec<Reply> {
        let mut out = Vec::new();
        if bytes.starts_with(b"\x1b[?u") {
            out.push(Reply::KittyFlags(0));
            out.push(Reply::Mode {
                mode: 2026,
                value: 2,
            });
            out.push(Reply::Version("kitty(0.32.2)".into()));
            out.push(Reply::Status {
                valid: true,
                body: "0;38:2:1:2:3m".into(),
            });
        }
        let text = String::from_utf8_lossy(bytes);
        for (i, g) in GLYPHS.iter().enumerate() {
            if text.contains(&format!("H{}\x1b[6n", g.glyph)) {
                let w = if i == 6 { 2 } else { 1 };
                out.push(Reply::CursorPosition {
                    row: 24,
                    col: 1 + w,
                });
            }
        }
        out.push(Reply::DeviceAttributes);
        out
    }

    #[test]
    fn a_terminal_that_answers_everything() {
        let r = run(kitty, 7);
        assert_eq!(r.kitty_flags, Probe::Answer(0));
        assert_eq!(r.sync, Probe::Answer(2));
        assert_eq!(r.rgb, Probe::Answer(true));
        assert_eq!(r.version, Probe::Answer("kitty(0.32.2)".into()));
        assert_eq!(
            r.rtt,
            Probe::Answer(Rtt {
                median_ms: 7,
                max_ms: 7,
                samples: RTT_SAMPLES as u8
            })
        );
        let wrong: Vec<_> = r.wrong_glyphs().map(|(g, w)| (g.glyph, w)).collect();
        assert_eq!(wrong, vec![("◆", 2)]);
        assert_eq!(r.term.as_deref(), Some("xterm-256color"));
    }

    #[test]
    fn tmux_answers_only_some() {
        // What tmux 3.3a answered when tried: XTVERSION, positions, DA1; no kitty flags,
        // no DECRPM, no DECRQSS.
        let r = run(
            |bytes| {
                let mut out = kitty(bytes);
                out.retain(|r| {
                    !matches!(
                        r,
                        Reply::KittyFlags(_) | Reply::Mode { .. } | Reply::Status { .. }
                    )
                });
                for r in &mut out {
                    if let Reply::Version(v) = r {
                        *v = "tmux 3.3a".into();
                    }
                }
                out
            },
            3,
        );
        assert_eq!(r.kitty_flags, Probe::NoAnswer);
        assert_eq!(r.sync, Probe::NoAnswer);
        assert_eq!(r.rgb, Probe::NoAnswer);
        assert_eq!(r.multiplexer(), Some(minotty_ui::doctor::Multiplexer::Tmux));
    }

    #[test]
    fn a_silent_terminal_is_given_up_on_after_one_deadline() {
        let mut p = Prober::new(&info(), 24);
        assert!(p.next_write(0).is_some());
        assert!(p.next_write(0).is_none(), "one write per stage");
        assert_eq!(p.deadline(), Some(PROBE_DEADLINE_MS));
        p.poll(PROBE_DEADLINE_MS - 1);
        assert!(!p.is_done());
        p.poll(PROBE_DEADLINE_MS);
        assert!(p.is_done());
        let r = p.into_report();
        assert_eq!(r.rtt, Probe::NoAnswer);
        assert_eq!(r.kitty_flags, Probe::NoAnswer);
        assert_eq!(r.widths, Probe::NoAnswer);
    }

    #[test]
    fn replies_after_their_deadline_are_not_taken_for_later_ones() {
        let mut p = Prober::new(&info(), 24);
        // Round trips: all five answered.
        for i in 0..RTT_SAMPLES as u64 {
            p.next_write(i * 10);
            assert!(p.take(&Reply::DeviceAttributes, i * 10 + 4));
        }
        // The queries stage times out: the terminal is slow today.
        p.next_write(100);
        p.poll(100 + PROBE_DEADLINE_MS);
        // Now the late answers of that stage arrive, while the widths stage waits.
        let bytes = p.next_write(2000).unwrap();
        assert!(bytes.windows(4).any(|w| w == b"\x1b[6n"));
        assert!(!p.take(&Reply::KittyFlags(1), 2001), "late: not expected");
        assert!(
            p.take(&Reply::DeviceAttributes, 2002),
            "its stale sentinel is eaten"
        );
        assert!(
            !p.is_done(),
            "the stale sentinel did not end the widths stage"
        );
        for _ in 0..GLYPHS.len() {
            assert!(p.take(&Reply::CursorPosition { row: 24, col: 2 }, 2003));
        }
        // One position report too many: not expected.
        assert!(!p.take(&Reply::CursorPosition { row: 24, col: 2 }, 2003));
        assert!(p.take(&Reply::DeviceAttributes, 2004));
        assert!(p.is_done());
        let r = p.into_report();
        assert_eq!(r.kitty_flags, Probe::NoAnswer);
        assert_eq!(r.wrong_glyphs().count(), 0);
        assert!(matches!(r.widths, Probe::Answer(_)));
    }

    #[test]
    fn duplicate_answers_are_not_expected() {
        let mut p = Prober::new(&info(), 24);
        for i in 0..RTT_SAMPLES as u64 {
            p.next_write(i);
            p.take(&Reply::DeviceAttributes, i);
        }
        p.next_write(10);
        assert!(p.take(&Reply::KittyFlags(3), 11));
        assert!(!p.take(&Reply::KittyFlags(1), 11));
        assert!(!p.take(&Reply::Mode { mode: 1, value: 1 }, 11));
        assert!(!p.take(&Reply::CursorPosition { row: 1, col: 1 }, 11));
        assert!(p.take(&Reply::DeviceAttributes, 12));
        assert!(!p.take(&Reply::KittyFlags(1), 13));
    }

    #[test]
    fn a_flood_of_fake_replies_costs_what_garbage_costs() {
        use crate::budget::{INPUT_BYTES_BURST, WASTED_BYTES_BURST};
        use crate::input::{Input, InputDecoder};
        // A client sends 16 KiB of made-up replies (every kind the doctor asks for) while a
        // probe runs, all in one millisecond.
        let fake: &[u8] = b"\x1b[24;3R\x1b[?1;2c\x1b[?2026;2$y\x1bP>|evil\x1b\\\x1b[?11u";
        let mut flood = Vec::new();
        while flood.len() + fake.len() <= INPUT_BYTES_BURST as usize {
            flood.extend_from_slice(fake);
        }
        let mut gate = InputGate::new(0);
        let mut decoder = InputDecoder::new();
        let mut prober = Prober::new(&info(), 24);
        prober.next_write(0);
        let admitted = gate.admit_bytes(flood.len(), 0);
        assert_eq!(admitted, flood.len());
        let mut out = Vec::new();
        decoder.feed(&flood, &mut out);
        let (mut taken, mut charged) = (0, 0);
        for input in &out {
            let Input::Reply { reply, bytes } = input else {
                panic!("a reply became a key: {input:?}")
            };
            if route_reply(Some(&mut prober), reply, *bytes, &mut gate, 0) {
                taken += 1;
            } else {
                charged += bytes;
            }
        }
        // The probe took no more than it asks for: the round trips, one answer of each kind
        // and its sentinel (the widths stage has not sent its questions yet).
        assert!(taken <= RTT_SAMPLES + 5, "{taken} taken");
        assert!(charged > flood.len() - 200);
        // The garbage budget is spent: nothing more is parsed now, exactly as after 16 KiB of
        // garbage, and a second later only its refill is.
        assert_eq!(gate.admit_bytes(100, 0), 0);
        let mut garbage_gate = InputGate::new(0);
        garbage_gate.admit_bytes(flood.len(), 0);
        garbage_gate.spend_wasted(WASTED_BYTES_BURST as usize, 0);
        assert_eq!(garbage_gate.admit_bytes(100, 0), 0);
        for t in [3, 4, 100, 1000] {
            assert_eq!(
                gate.admit_bytes(10, t),
                garbage_gate.admit_bytes(10, t),
                "at {t} ms"
            );
        }
        // Without a probe every reply is charged.
        let mut gate = InputGate::new(0);
        assert!(!route_reply(
            None,
            &Reply::DeviceAttributes,
            9,
            &mut gate,
            0
        ));
    }

    #[test]
    fn the_plain_report_says_what_is_known_and_how_to_ask() {
        let text = plain_report(&ClientInfo {
            pty: false,
            term: None,
            env: TermEnv {
                lang: Some("C".into()),
                ..TermEnv::default()
            },
            ssh_client: Some("SSH-2.0-OpenSSH_9.6".into()),
        });
        assert!(text.contains("PTY            no"));
        assert!(text.contains("COLORTERM      (not sent)"));
        assert!(text.contains("SSH-2.0-OpenSSH_9.6"));
        assert!(text.contains("SendEnv COLORTERM"));
        assert!(text.contains("LANG is not UTF-8"));
        assert!(text.contains("ssh -t -p PORT HOST doctor"));
        assert!(!text.contains('\x1b'));
    }
}
