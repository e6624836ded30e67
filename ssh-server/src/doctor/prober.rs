//! [`Prober`]: the doctor's questions, one stage at a time (round trips, the queries, the
//! glyph widths), each with a deadline, and what came back.

use minotty_ui::doctor::{DoctorReport, GLYPHS, PROBE_DEADLINE_MS, Probe, Rtt};

use super::client::ClientInfo;
use super::reply::{Reply, carries_rgb};

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
