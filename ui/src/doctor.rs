//! The terminal doctor's findings as plain data ([`DoctorReport`], filled in by a front end
//! that can ask the player's terminal), the checks the Doctor screen shows, and the advice
//! they call for ([`ADVICE`], one table: each row says when it applies and what to change).
//!
//! The UI never probes: the SSH server sends the questions through the player's PTY and
//! answers [`crate::Request::RunDoctor`] with a report.

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
    /// The player's keys were seen arriving on OpenSSH's 20 ms keystroke grid (the App's
    /// `keygrid`, not a probe: the front end leaves it false).
    pub keys_on_grid: bool,
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

    /// The client's OpenSSH version (major, minor), if it is OpenSSH.
    pub fn openssh(&self) -> Option<(u32, u32)> {
        let v = self.ssh_client.as_deref()?.split("OpenSSH_").nth(1)?;
        let mut parts = v.split(|c: char| !c.is_ascii_digit());
        let major = parts.next()?.parse().ok()?;
        let minor = parts.next().and_then(|m| m.parse().ok()).unwrap_or(0);
        Some((major, minor))
    }

    /// Whether the client is an OpenSSH that obscures keystroke timing by default (9.5 on).
    pub fn obscures_keys(&self) -> bool {
        self.openssh().is_some_and(|v| v >= (9, 5))
    }

    /// Whether the terminal answered anything at all (the round trips are DA1, which every
    /// terminal answers).
    pub fn answered(&self) -> bool {
        matches!(self.rtt, Probe::Answer(_))
    }
}

mod advice;
mod checks;

pub use advice::{ADVICE, Advice, AdviceId, advice};
pub use checks::{Check, Mark, checks};

#[cfg(test)]
mod tests;
