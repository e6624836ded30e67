//! The terminal doctor's findings as plain data ([`DoctorReport`], filled in by a front end
//! that can ask the player's terminal), the checks the Doctor screen shows, and the advice
//! they call for ([`ADVICE`], one table: each row says when it applies and what to change).
//!
//! The UI never probes: the SSH server sends the questions through the player's PTY and
//! answers [`crate::Request::RunDoctor`] with a report.

use crate::text::{StackStr, sfmt};

/// How long a front end waits for each answer before it counts as "no answer".
pub const PROBE_DEADLINE_MS: u64 = 1_500;

/// Round trips from this median on are worth a word to the player.
pub const SLOW_RTT_MS: u32 = 100;

/// The answer to one question put to the terminal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Probe<T> {
    /// Not asked (no PTY, or not run yet).
    #[default]
    NotRun,
    /// Asked; nothing came back before the deadline.
    NoAnswer,
    Answer(T),
}

impl<T> Probe<T> {
    pub fn answer(&self) -> Option<&T> {
        match self {
            Probe::Answer(v) => Some(v),
            _ => None,
        }
    }
}

/// A glyph the game draws and the columns the UI gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Glyph {
    pub glyph: &'static str,
    pub name: &'static str,
    pub width: u8,
}

const fn g(glyph: &'static str, name: &'static str) -> Glyph {
    Glyph {
        glyph,
        name,
        width: 1,
    }
}

/// Every non-ASCII glyph the Unicode graphics draw (`theme.rs`, `draw.rs`, the widgets and
/// screens), each assumed one column wide. A braille cell stands for the whole braille block of
/// the opponents' micro boards.
pub const GLYPHS: [Glyph; 18] = [
    g("█", "full block (pieces)"),
    g("▀", "upper half block (large boards)"),
    g("▄", "lower half block (large boards)"),
    g("▓", "dark shade (monochrome pieces)"),
    g("▒", "medium shade (trail)"),
    g("░", "light shade (ghost)"),
    g("◆", "diamond (Descent gems)"),
    g("◇", "white diamond (Descent)"),
    g("▮", "vertical rectangle (Electronika)"),
    g("·", "middle dot (empty cells)"),
    g("─", "box drawing horizontal"),
    g("│", "box drawing vertical"),
    g("┌", "box drawing corner"),
    g("┐", "box drawing corner"),
    g("└", "box drawing corner"),
    g("┘", "box drawing corner"),
    g("→", "arrow (versus)"),
    g("⣿", "braille (mini boards)"),
];

/// Round trips measured with device-attribute queries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rtt {
    pub median_ms: u32,
    pub max_ms: u32,
    pub samples: u8,
}

/// Everything the doctor learned about the player's terminal. Strings are the server's, already
/// reduced to short printable ASCII.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DoctorReport {
    /// The client asked for a PTY.
    pub pty: bool,
    /// `TERM` from the PTY request.
    pub term: Option<String>,
    /// The environment the client sent (`SendEnv`).
    pub colorterm: Option<String>,
    pub term_program: Option<String>,
    pub lang: Option<String>,
    /// The client's SSH version string (`SSH-2.0-OpenSSH_9.6`).
    pub ssh_client: Option<String>,
    /// The kitty keyboard flags reply to `CSI ? u`.
    pub kitty_flags: Probe<u8>,
    /// The DECRPM value for mode 2026 (0 unknown mode, 1 set, 2 reset, 3 always set, 4 always
    /// reset).
    pub sync: Probe<u8>,
    /// Whether the DECRQSS reply for SGR carried the 24-bit colour just set.
    pub rgb: Probe<bool>,
    /// The XTVERSION reply (`tmux 3.4`, `WezTerm 20240203-...`).
    pub version: Probe<String>,
    /// The measured width of each of [`GLYPHS`] (`None`: its position report did not come).
    pub widths: Probe<Vec<Option<u8>>>,
    pub rtt: Probe<Rtt>,
}

/// A terminal multiplexer between the game and the player's terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Multiplexer {
    Tmux,
    /// `TERM=screen*` without any sign of tmux: GNU screen (or a tmux too old to say).
    Screen,
}

/// How sure the doctor is about 24-bit colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrueColor {
    /// The terminal reported back the exact RGB colour it was given.
    Shown,
    /// Only `COLORTERM` says so.
    Claimed,
    /// The terminal reported a different (approximated) colour.
    No,
    Unknown,
}

fn starts_with_ci(s: &str, prefix: &str) -> bool {
    s.get(..prefix.len())
        .is_some_and(|p| p.eq_ignore_ascii_case(prefix))
}

impl DoctorReport {
    pub fn multiplexer(&self) -> Option<Multiplexer> {
        let term = self.term.as_deref().unwrap_or("");
        let tmux = self
            .version
            .answer()
            .is_some_and(|v| starts_with_ci(v, "tmux"))
            || self
                .term_program
                .as_deref()
                .is_some_and(|p| p.eq_ignore_ascii_case("tmux"))
            || starts_with_ci(term, "tmux");
        if tmux {
            Some(Multiplexer::Tmux)
        } else if starts_with_ci(term, "screen") {
            Some(Multiplexer::Screen)
        } else {
            None
        }
    }

    /// WezTerm, by its own answer or by `TERM_PROGRAM`.
    pub fn is_wezterm(&self) -> bool {
        self.version
            .answer()
            .is_some_and(|v| starts_with_ci(v, "wezterm"))
            || self
                .term_program
                .as_deref()
                .is_some_and(|p| p.eq_ignore_ascii_case("wezterm"))
    }

    /// Whether the terminal speaks the kitty keyboard protocol (and so reports releases).
    pub fn kitty(&self) -> bool {
        matches!(self.kitty_flags, Probe::Answer(_))
    }

    /// Whether the terminal knows synchronized output (mode 2026 set or reset, or always set).
    pub fn sync_supported(&self) -> bool {
        matches!(self.sync, Probe::Answer(1..=3))
    }

    pub fn colorterm_says_truecolor(&self) -> bool {
        self.colorterm
            .as_deref()
            .is_some_and(|v| v.eq_ignore_ascii_case("truecolor") || v.eq_ignore_ascii_case("24bit"))
    }

    /// The DECRQSS answer is the stronger evidence: a terminal that reports back the exact
    /// colour stores it; `COLORTERM` is only what the environment claims, and often does not
    /// cross SSH at all.
    pub fn truecolor(&self) -> TrueColor {
        match self.rgb {
            Probe::Answer(true) => TrueColor::Shown,
            Probe::Answer(false) => TrueColor::No,
            _ if self.colorterm_says_truecolor() => TrueColor::Claimed,
            _ => TrueColor::Unknown,
        }
    }

    /// The glyphs whose measured width differs from the UI's, with the width measured.
    pub fn wrong_glyphs(&self) -> impl Iterator<Item = (&'static Glyph, u8)> + '_ {
        let widths = self.widths.answer().map(Vec::as_slice).unwrap_or(&[]);
        GLYPHS
            .iter()
            .zip(widths)
            .filter_map(|(g, w)| w.filter(|&w| w != g.width).map(|w| (g, w)))
    }

    /// Whether `LANG` was sent and names something other than UTF-8.
    pub fn lang_not_utf8(&self) -> bool {
        self.lang.as_deref().is_some_and(|l| {
            let l = l.to_ascii_lowercase();
            !(l.contains("utf-8") || l.contains("utf8"))
        })
    }

    /// Whether the terminal answered anything at all (the round trips are DA1, which every
    /// terminal answers).
    pub fn answered(&self) -> bool {
        matches!(self.rtt, Probe::Answer(_))
    }
}

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

/// Which piece of advice (for tests and logs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdviceId {
    WezTermKitty,
    TmuxKeys,
    TmuxSync,
    TmuxRgb,
    SendEnvColorterm,
    ColoursRounded,
    GlyphWidth,
    LangNotUtf8,
    NoSync,
    NoKitty,
    Screen,
    SlowRtt,
    Silent,
}

/// One row of advice: when it applies and the lines the player acts on.
#[derive(Clone, Copy, Debug)]
pub struct Advice {
    pub id: AdviceId,
    pub applies: fn(&DoctorReport) -> bool,
    pub lines: &'static [&'static str],
}

fn outside_mux(r: &DoctorReport) -> bool {
    r.multiplexer().is_none()
}

fn in_tmux(r: &DoctorReport) -> bool {
    r.multiplexer() == Some(Multiplexer::Tmux)
}

/// The advice table. Option names are the programs' own (WezTerm's `enable_kitty_keyboard`,
/// tmux's `extended-keys` and `terminal-features` with its `extkeys`, `sync` and `RGB`
/// features, OpenSSH's `SendEnv`).
pub const ADVICE: &[Advice] = &[
    Advice {
        id: AdviceId::WezTermKitty,
        applies: |r| r.answered() && r.is_wezterm() && !r.kitty() && outside_mux(r),
        lines: &[
            "WezTerm: add  config.enable_kitty_keyboard = true  to wezterm.lua",
            "  (then the game gets key releases: exact DAS and soft drop)",
        ],
    },
    Advice {
        id: AdviceId::TmuxKeys,
        applies: |r| r.answered() && in_tmux(r) && !r.kitty(),
        lines: &[
            "tmux: set -s extended-keys on",
            "      set -as terminal-features 'xterm*:extkeys'",
            "  (tmux passes no key releases: the game guesses them from repeats)",
        ],
    },
    Advice {
        id: AdviceId::TmuxSync,
        applies: |r| r.answered() && in_tmux(r) && !r.sync_supported(),
        lines: &["tmux: set -as terminal-features ',*:sync'   (tmux 3.2 or later)"],
    },
    Advice {
        id: AdviceId::TmuxRgb,
        applies: |r| r.answered() && in_tmux(r) && r.truecolor() != TrueColor::Shown,
        lines: &["tmux: set -as terminal-features ',*:RGB'   (24-bit colour through tmux)"],
    },
    Advice {
        id: AdviceId::SendEnvColorterm,
        applies: |r| r.colorterm.is_none() && r.truecolor() != TrueColor::No,
        lines: &[
            "ssh did not send COLORTERM: add  SendEnv COLORTERM  to this host",
            "  in ~/.ssh/config (this server accepts it), or pick Colours:",
            "  truecolour in Settings if your terminal has 24-bit colour",
        ],
    },
    Advice {
        id: AdviceId::ColoursRounded,
        applies: |r| r.truecolor() == TrueColor::No,
        lines: &["Your terminal rounds 24-bit colours: pick Colours: 256 colours in Settings"],
    },
    Advice {
        id: AdviceId::GlyphWidth,
        applies: |r| r.wrong_glyphs().next().is_some(),
        lines: &[
            "Some glyphs are not one column wide here: pick Graphics: ASCII in Settings,",
            "  or turn off \"ambiguous-width characters are wide\" in your terminal",
        ],
    },
    Advice {
        id: AdviceId::LangNotUtf8,
        applies: DoctorReport::lang_not_utf8,
        lines: &["LANG is not UTF-8: use a UTF-8 locale, or Graphics: ASCII in Settings"],
    },
    Advice {
        id: AdviceId::NoSync,
        applies: |r| r.answered() && outside_mux(r) && !r.sync_supported(),
        lines: &[
            "No synchronized output: frames may tear while pieces fall; kitty,",
            "  WezTerm, foot, Ghostty and Alacritty draw each frame whole",
        ],
    },
    Advice {
        id: AdviceId::NoKitty,
        applies: |r| r.answered() && outside_mux(r) && !r.kitty() && !r.is_wezterm(),
        lines: &[
            "No key releases: the game guesses them (Settings: Release timeout);",
            "  kitty, WezTerm, foot, Ghostty and Alacritty report real ones",
        ],
    },
    Advice {
        id: AdviceId::Screen,
        applies: |r| r.multiplexer() == Some(Multiplexer::Screen),
        lines: &[
            "GNU screen hides key releases and synchronized output from the game:",
            "  play outside screen (or in tmux with the settings it lists)",
        ],
    },
    Advice {
        id: AdviceId::SlowRtt,
        applies: |r| r.rtt.answer().is_some_and(|t| t.median_ms >= SLOW_RTT_MS),
        lines: &[
            "Slow round trip: every key shows that much later and DAS starts late;",
            "  a nearer server or a wired connection helps, a bigger DAS hides it",
        ],
    },
    Advice {
        id: AdviceId::Silent,
        applies: |r| r.rtt == Probe::NoAnswer,
        lines: &[
            "Your terminal answered none of the questions: the checks are guesses.",
            "  Is something between you and the server eating replies?",
        ],
    },
];

/// The advice rows that apply to `report`, in table order.
pub fn advice(report: &DoctorReport) -> impl Iterator<Item = &'static Advice> + '_ {
    ADVICE.iter().filter(move |a| (a.applies)(report))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A terminal with everything: kitty keyboard, sync, exact colour, right widths, fast.
    fn good() -> DoctorReport {
        DoctorReport {
            pty: true,
            term: Some("xterm-kitty".into()),
            colorterm: Some("truecolor".into()),
            term_program: None,
            lang: Some("en_US.UTF-8".into()),
            ssh_client: Some("SSH-2.0-OpenSSH_9.6".into()),
            kitty_flags: Probe::Answer(0),
            sync: Probe::Answer(2),
            rgb: Probe::Answer(true),
            version: Probe::Answer("kitty(0.32.2)".into()),
            widths: Probe::Answer(vec![Some(1); GLYPHS.len()]),
            rtt: Probe::Answer(Rtt {
                median_ms: 12,
                max_ms: 20,
                samples: 5,
            }),
        }
    }

    fn ids(r: &DoctorReport) -> Vec<AdviceId> {
        advice(r).map(|a| a.id).collect()
    }

    fn tmux() -> DoctorReport {
        DoctorReport {
            term: Some("tmux-256color".into()),
            version: Probe::Answer("tmux 3.3a".into()),
            kitty_flags: Probe::NoAnswer,
            sync: Probe::NoAnswer,
            rgb: Probe::NoAnswer,
            ..good()
        }
    }

    #[test]
    fn a_good_terminal_gets_no_advice_and_every_check_good() {
        let r = good();
        assert_eq!(ids(&r), vec![]);
        let checks = checks(&r);
        for c in &checks[1..] {
            assert_eq!(c.mark, Mark::Good, "{} {:?}", c.name, c.detail);
        }
        assert_eq!(
            checks[0].detail.as_str(),
            "kitty(0.32.2) (TERM=xterm-kitty)"
        );
    }

    #[test]
    fn advice_wezterm_without_kitty_keyboard() {
        let r = DoctorReport {
            term_program: Some("WezTerm".into()),
            version: Probe::NoAnswer,
            kitty_flags: Probe::NoAnswer,
            ..good()
        };
        assert_eq!(ids(&r), vec![AdviceId::WezTermKitty]);
        assert!(
            advice(&r).next().unwrap().lines[0].contains("config.enable_kitty_keyboard = true")
        );
        // Once the keyboard protocol answers, nothing is left to say.
        let fixed = DoctorReport {
            kitty_flags: Probe::Answer(0),
            ..r
        };
        assert_eq!(ids(&fixed), vec![]);
    }

    #[test]
    fn advice_tmux_keys_sync_and_rgb() {
        let r = tmux();
        assert_eq!(
            ids(&r),
            vec![AdviceId::TmuxKeys, AdviceId::TmuxSync, AdviceId::TmuxRgb]
        );
        let text: Vec<&str> = advice(&r).flat_map(|a| a.lines.iter().copied()).collect();
        assert!(text.iter().any(|l| l.contains("set -s extended-keys on")));
        assert!(text.iter().any(|l| l.contains("',*:sync'")));
        assert!(text.iter().any(|l| l.contains("',*:RGB'")));
        // Each goes away with its feature.
        let synced = DoctorReport {
            sync: Probe::Answer(2),
            rgb: Probe::Answer(true),
            ..tmux()
        };
        assert_eq!(ids(&synced), vec![AdviceId::TmuxKeys]);
        // TERM alone (an old tmux without XTVERSION) is enough to know.
        let old = DoctorReport {
            version: Probe::NoAnswer,
            ..tmux()
        };
        assert_eq!(old.multiplexer(), Some(Multiplexer::Tmux));
    }

    #[test]
    fn advice_send_env_colorterm() {
        let r = DoctorReport {
            colorterm: None,
            ..good()
        };
        assert_eq!(ids(&r), vec![AdviceId::SendEnvColorterm]);
        assert!(advice(&r).next().unwrap().lines[0].contains("SendEnv COLORTERM"));
        // Unknown colour (no answer) still gets it; a terminal that rounds colours does not.
        let unknown = DoctorReport {
            rgb: Probe::NoAnswer,
            ..r.clone()
        };
        assert!(ids(&unknown).contains(&AdviceId::SendEnvColorterm));
        let rounded = DoctorReport {
            rgb: Probe::Answer(false),
            ..r
        };
        assert!(!ids(&rounded).contains(&AdviceId::SendEnvColorterm));
    }

    #[test]
    fn advice_colours_rounded() {
        let r = DoctorReport {
            rgb: Probe::Answer(false),
            ..good()
        };
        assert_eq!(r.truecolor(), TrueColor::No);
        assert_eq!(ids(&r), vec![AdviceId::ColoursRounded]);
        assert_eq!(checks(&r)[3].mark, Mark::Bad);
    }

    #[test]
    fn advice_glyph_width() {
        let mut widths = vec![Some(1); GLYPHS.len()];
        widths[6] = Some(2); // ◆ drawn two columns wide
        widths[9] = None; // no report for ·: not counted as wrong
        let r = DoctorReport {
            widths: Probe::Answer(widths),
            ..good()
        };
        assert_eq!(ids(&r), vec![AdviceId::GlyphWidth]);
        let wrong: Vec<_> = r.wrong_glyphs().map(|(g, w)| (g.glyph, w)).collect();
        assert_eq!(wrong, vec![("◆", 2)]);
        let c = checks(&r)[4];
        assert_eq!(c.mark, Mark::Bad);
        assert_eq!(c.detail.as_str(), "1 wrong: ◆ is 2");
    }

    #[test]
    fn advice_lang_not_utf8() {
        for (lang, applies) in [
            ("C", true),
            ("en_US.ISO-8859-1", true),
            ("de_DE.utf8", false),
            ("en_US.UTF-8", false),
        ] {
            let r = DoctorReport {
                lang: Some(lang.into()),
                ..good()
            };
            assert_eq!(ids(&r).contains(&AdviceId::LangNotUtf8), applies, "{lang}");
        }
    }

    #[test]
    fn advice_no_sync_outside_a_multiplexer() {
        for v in [0, 4] {
            let r = DoctorReport {
                sync: Probe::Answer(v),
                ..good()
            };
            assert_eq!(ids(&r), vec![AdviceId::NoSync], "reply {v}");
        }
        let r = DoctorReport {
            sync: Probe::NoAnswer,
            ..good()
        };
        assert_eq!(ids(&r), vec![AdviceId::NoSync]);
    }

    #[test]
    fn advice_no_kitty_keyboard_elsewhere() {
        let r = DoctorReport {
            kitty_flags: Probe::NoAnswer,
            version: Probe::Answer("XTerm(388)".into()),
            ..good()
        };
        assert_eq!(ids(&r), vec![AdviceId::NoKitty]);
        assert_eq!(checks(&r)[1].mark, Mark::Warn);
    }

    #[test]
    fn advice_gnu_screen() {
        let r = DoctorReport {
            term: Some("screen.xterm-256color".into()),
            version: Probe::NoAnswer,
            kitty_flags: Probe::NoAnswer,
            sync: Probe::NoAnswer,
            ..good()
        };
        assert_eq!(r.multiplexer(), Some(Multiplexer::Screen));
        assert_eq!(ids(&r), vec![AdviceId::Screen]);
    }

    #[test]
    fn advice_slow_round_trip() {
        let slow = |median_ms| DoctorReport {
            rtt: Probe::Answer(Rtt {
                median_ms,
                max_ms: 400,
                samples: 5,
            }),
            ..good()
        };
        assert_eq!(ids(&slow(SLOW_RTT_MS)), vec![AdviceId::SlowRtt]);
        assert_eq!(ids(&slow(SLOW_RTT_MS - 1)), vec![]);
        assert_eq!(checks(&slow(150))[6].mark, Mark::Warn);
    }

    #[test]
    fn advice_silent_terminal() {
        let r = DoctorReport {
            kitty_flags: Probe::NoAnswer,
            sync: Probe::NoAnswer,
            rgb: Probe::NoAnswer,
            version: Probe::NoAnswer,
            widths: Probe::NoAnswer,
            rtt: Probe::NoAnswer,
            ..good()
        };
        // Nothing answered: no advice built on missing answers, only that.
        assert_eq!(ids(&r), vec![AdviceId::Silent]);
    }

    #[test]
    fn every_row_is_reached_by_some_test_report() {
        // The tests above, gathered: every row of the table applies to one of them.
        let mut seen = Vec::new();
        let reports = [
            tmux(),
            DoctorReport {
                term_program: Some("WezTerm".into()),
                version: Probe::NoAnswer,
                kitty_flags: Probe::NoAnswer,
                colorterm: None,
                rgb: Probe::Answer(false),
                lang: Some("C".into()),
                sync: Probe::NoAnswer,
                widths: Probe::Answer(vec![Some(2); GLYPHS.len()]),
                rtt: Probe::Answer(Rtt {
                    median_ms: 300,
                    max_ms: 300,
                    samples: 1,
                }),
                ..good()
            },
            DoctorReport {
                colorterm: None,
                kitty_flags: Probe::NoAnswer,
                ..good()
            },
            DoctorReport {
                term: Some("screen".into()),
                version: Probe::NoAnswer,
                ..good()
            },
            DoctorReport {
                rtt: Probe::NoAnswer,
                ..good()
            },
        ];
        for r in &reports {
            seen.extend(ids(r));
        }
        for row in ADVICE {
            assert!(seen.contains(&row.id), "{:?} never applies", row.id);
        }
        // Every line fits the Doctor screen at 80 columns.
        for row in ADVICE {
            for line in row.lines {
                assert!(crate::draw::width(line) <= 76, "{line}");
            }
        }
    }
}
