//! The advice table: each row says when it applies to a [`DoctorReport`] and what to change.

use super::{DoctorReport, Multiplexer, Probe, SLOW_RTT_MS, TrueColor};

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
    KeysOnGrid,
    KeysMayWait,
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
        id: AdviceId::KeysOnGrid,
        applies: |r| r.keys_on_grid,
        lines: &[
            "Your keys arrive on a 20 ms grid: your ssh holds each up to 20 ms",
            "  (ObscureKeystrokeTiming): connect with -o ObscureKeystrokeTiming=no",
        ],
    },
    Advice {
        id: AdviceId::KeysMayWait,
        applies: |r| !r.keys_on_grid && r.obscures_keys(),
        lines: &[
            "OpenSSH 9.5 and newer hold keys up to 20 ms (ObscureKeystrokeTiming):",
            "  ssh -o ObscureKeystrokeTiming=no, or that line in ~/.ssh/config's Host",
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
