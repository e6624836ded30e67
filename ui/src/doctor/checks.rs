//! The lines of the Doctor screen: what was checked in a [`DoctorReport`] and how it went.

use super::{DoctorReport, GLYPHS, Multiplexer, Probe, SLOW_RTT_MS, TrueColor};
use crate::text::{StackStr, sfmt};

/// How a check turned out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    Good,
    Warn,
    Bad,
    /// Information only.
    Info,
    /// Not measured.
    Unknown,
}

impl Mark {
    /// The mark drawn before a check, in ASCII so that it shows in any terminal.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Good => "[ok]",
            Mark::Warn => "[!!]",
            Mark::Bad => "[no]",
            Mark::Info => "[..]",
            Mark::Unknown => "[??]",
        }
    }
}

/// One line of the Doctor screen: what was checked, how it went, in a few words.
#[derive(Clone, Copy, Debug)]
pub struct Check {
    pub name: &'static str,
    pub mark: Mark,
    pub detail: StackStr<72>,
}

/// The checks shown, in order. Allocates nothing (drawn every frame).
pub fn checks(r: &DoctorReport) -> [Check; 7] {
    let c = |name, mark, detail| Check { name, mark, detail };
    let kitty = match &r.kitty_flags {
        Probe::Answer(f) => c(
            "Keyboard",
            Mark::Good,
            sfmt!(72; "kitty keyboard protocol (flags {}): key releases", f),
        ),
        Probe::NoAnswer => c(
            "Keyboard",
            Mark::Warn,
            sfmt!(72; "no kitty keyboard protocol: releases are guessed"),
        ),
        Probe::NotRun => c("Keyboard", Mark::Unknown, sfmt!(72; "not checked")),
    };
    let sync = match &r.sync {
        Probe::Answer(1..=3) => c("Sync output", Mark::Good, sfmt!(72; "mode 2026 supported")),
        Probe::Answer(v) => c(
            "Sync output",
            Mark::Warn,
            sfmt!(72; "mode 2026 not supported (reply {})", v),
        ),
        Probe::NoAnswer => c(
            "Sync output",
            Mark::Warn,
            sfmt!(72; "no answer: frames may tear"),
        ),
        Probe::NotRun => c("Sync output", Mark::Unknown, sfmt!(72; "not checked")),
    };
    let colour = match r.truecolor() {
        TrueColor::Shown => c(
            "True colour",
            Mark::Good,
            sfmt!(72; "24-bit colour shown as sent"),
        ),
        TrueColor::Claimed => c(
            "True colour",
            Mark::Good,
            sfmt!(72; "COLORTERM={} (not confirmed by the terminal)", r.colorterm.as_deref().unwrap_or("")),
        ),
        TrueColor::No => c(
            "True colour",
            Mark::Bad,
            sfmt!(72; "the terminal rounds 24-bit colours: use 256 colours"),
        ),
        TrueColor::Unknown => c(
            "True colour",
            Mark::Unknown,
            sfmt!(72; "unknown (no COLORTERM, no answer)"),
        ),
    };
    let glyphs = match &r.widths {
        Probe::Answer(_) => {
            let wrong = r.wrong_glyphs().count();
            if wrong == 0 {
                c(
                    "Glyph widths",
                    Mark::Good,
                    sfmt!(72; "all {} glyphs one column wide", GLYPHS.len()),
                )
            } else {
                let mut detail = sfmt!(72; "{} wrong:", wrong);
                for (g, w) in r.wrong_glyphs() {
                    let part = sfmt!(24; " {} is {}", g.glyph, w);
                    if detail.len() + part.len() > 72 {
                        break;
                    }
                    detail = sfmt!(72; "{}{}", detail.as_str(), part.as_str());
                }
                c("Glyph widths", Mark::Bad, detail)
            }
        }
        Probe::NoAnswer => c(
            "Glyph widths",
            Mark::Unknown,
            sfmt!(72; "no cursor position reports"),
        ),
        Probe::NotRun => c("Glyph widths", Mark::Unknown, sfmt!(72; "not checked")),
    };
    let mux = match r.multiplexer() {
        Some(Multiplexer::Tmux) => c(
            "Multiplexer",
            Mark::Warn,
            sfmt!(72; "inside {}", r.version.answer().map_or("tmux", String::as_str)),
        ),
        Some(Multiplexer::Screen) => c(
            "Multiplexer",
            Mark::Warn,
            sfmt!(72; "inside GNU screen (TERM={})", r.term.as_deref().unwrap_or("")),
        ),
        None => c("Multiplexer", Mark::Good, sfmt!(72; "none")),
    };
    let rtt = match &r.rtt {
        Probe::Answer(t) => c(
            "Round trip",
            if t.median_ms >= SLOW_RTT_MS {
                Mark::Warn
            } else {
                Mark::Good
            },
            sfmt!(72; "median {} ms, max {} ms ({} samples)", t.median_ms, t.max_ms, t.samples),
        ),
        Probe::NoAnswer => c(
            "Round trip",
            Mark::Bad,
            sfmt!(72; "the terminal answered nothing"),
        ),
        Probe::NotRun => c("Round trip", Mark::Unknown, sfmt!(72; "not checked")),
    };
    let name = r
        .version
        .answer()
        .map(String::as_str)
        .or(r.term_program.as_deref())
        .unwrap_or("?");
    let terminal = c(
        "Terminal",
        Mark::Info,
        sfmt!(72; "{} (TERM={})", name, r.term.as_deref().unwrap_or("?")),
    );
    [terminal, kitty, sync, colour, glyphs, mux, rtt]
}
