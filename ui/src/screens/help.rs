//! Help: the controls as currently bound, the special keys, and how taps and holds are read
//! (in plain words, for terminals that report no key releases). The text wraps to the frame and
//! scrolls with the arrows, so nothing is cut off at any size.

use std::cell::Cell;

use minotty_engine::Button;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::{Nav, is_ctrl, nav};
use crate::draw;
use crate::keymap::Keymap;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::text::{StackStr, sfmt};
use crate::theme::Theme;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HelpAction {
    None,
    /// The text scrolled.
    Moved,
    Back,
    AskQuit,
}

/// The help screen's state: how far it is scrolled. The view records the rows it could show
/// and the rows of text at its last draw, so that scrolling stops at the end of the text.
#[derive(Clone, Debug, Default)]
pub struct HelpScreen {
    pub scroll: u16,
    /// `(visible rows, total rows)` at the last draw.
    shown: Cell<(u16, u16)>,
}

impl HelpScreen {
    /// The furthest the text can scroll, as last drawn.
    fn max_scroll(&self) -> u16 {
        let (visible, total) = self.shown.get();
        total.saturating_sub(visible)
    }

    pub fn handle(&mut self, ev: KeyEvent) -> HelpAction {
        if is_ctrl(ev, 'c') {
            return HelpAction::AskQuit;
        }
        let page = self.shown.get().0.saturating_sub(1).max(1);
        let target = match (ev.kind, ev.key) {
            (KeyKind::Release, _) => return HelpAction::None,
            (_, Key::PageDown) => self.scroll.saturating_add(page),
            (_, Key::PageUp) => self.scroll.saturating_sub(page),
            (_, Key::Home) => 0,
            (_, Key::End) => u16::MAX,
            _ => match nav(ev) {
                Some(Nav::Down) => self.scroll.saturating_add(1),
                Some(Nav::Up) => self.scroll.saturating_sub(1),
                Some(Nav::Back | Nav::Select) => return HelpAction::Back,
                _ => return HelpAction::None,
            },
        };
        let target = target.min(self.max_scroll());
        if target == self.scroll {
            return HelpAction::None;
        }
        self.scroll = target;
        HelpAction::Moved
    }
}

const SPECIAL: [(&str, &str); 10] = [
    ("Pause / resume", "Esc, P"),
    ("Snapshot and savepoint (solo; also in Custom)", "Ctrl+S"),
    ("Load the savepoint back (unranks the game)", "Ctrl+L"),
    ("Undo the last placement (unranks the game)", "Ctrl+Z"),
    ("Blindfold: hide the stack / show it", "Ctrl+B"),
    ("Keep the game's seed for Custom", "Ctrl+E"),
    ("Combo: the bot plays / you do", "B"),
    ("Forfeit the game", "Ctrl+D"),
    ("Quit (asks first)", "Ctrl+C, q in the menu"),
    ("Menus (? lists a screen's keys)", "arrows, Enter, Esc"),
];

/// How taps and holds are read when the terminal reports no key releases (see `release.rs`).
const NO_RELEASES: [&str; 5] = [
    "This terminal does not say when you let go of a key, so minotty reads taps and holds \
     from the presses it sends.",
    "A tap: a key pressed again before your terminal could start repeating it is always a \
     new tap, so two quick taps move two cells. Two quick taps when a repeat could come are \
     told from one by waiting for the next repeat: the second acts up to 80 ms late, never \
     lost.",
    "A hold: your terminal repeats a held key only after its own repeat delay (often 0.25 to \
     0.6 s). From the first repeat the key counts as held: the piece moves a cell, then after \
     DAS slides every ARR. minotty learns your terminal's repeat delay and speed from your \
     first holds.",
    "Letting go: a key counts as released once its repeats stop, or, after a single press \
     that did not repeat, after the release timeout (Settings, 150 ms by default; always \
     shorter than DAS, so a tap never slides).",
    "Kitty, WezTerm, foot and Ghostty report releases: there every hold is exact.",
];
const WITH_RELEASES: &str = "This terminal reports key releases: a tap moves once, and a held \
                             key moves on after DAS, exactly as long as you hold it.";
const CHANGE: &str = "Keys, DAS, ARR and soft drop speed can be changed in Settings.";

/// One row of the help text, before scrolling.
#[derive(Clone, Copy, Debug)]
enum Row<'a> {
    Blank,
    Heading(&'a str),
    Pair(&'a str, StackStr<40>),
    Text(&'a str),
}

/// Splits `s` into lines of at most `width` columns, at spaces (a longer word is cut by the
/// clip when drawn).
fn wrap_text<'a>(s: &'a str, width: u16, out: &mut Vec<Row<'a>>) {
    let mut line: Option<(usize, usize)> = None;
    let mut used = 0u16;
    let mut at = 0usize;
    for word in s.split(' ') {
        let start = at;
        at += word.len() + 1;
        if word.is_empty() {
            continue;
        }
        let w = draw::width(word);
        let end = start + word.len();
        line = match line {
            Some((a, _)) if used + 1 + w <= width => {
                used += 1 + w;
                Some((a, end))
            }
            Some((a, b)) => {
                out.push(Row::Text(s.get(a..b).unwrap_or("")));
                used = w;
                Some((start, end))
            }
            None => {
                used = w;
                Some((start, end))
            }
        };
    }
    if let Some((a, b)) = line {
        out.push(Row::Text(s.get(a..b).unwrap_or("")));
    }
}

/// Every row of the help text at `width` columns.
fn rows(keys: &Keymap, releases: bool, width: u16) -> Vec<Row<'static>> {
    let mut out = vec![Row::Heading("Controls")];
    for b in Button::ALL {
        out.push(Row::Pair(b.name(), keys.describe(b)));
    }
    out.push(Row::Blank);
    if let Some(key) = keys.retry_key() {
        let name = crate::keymap::key_name(key);
        out.push(Row::Pair(
            "Retry (40 lines, ultra, cheese, combo, survival)",
            sfmt!(40; "{}", name.as_str()),
        ));
    }
    for (what, keys) in SPECIAL {
        out.push(Row::Pair(what, sfmt!(40; "{}", keys)));
    }
    out.push(Row::Blank);
    wrap_text(CHANGE, width, &mut out);
    out.push(Row::Blank);
    out.push(Row::Heading("Taps and holds"));
    if releases {
        wrap_text(WITH_RELEASES, width, &mut out);
    } else {
        for (i, paragraph) in NO_RELEASES.iter().enumerate() {
            if i > 0 {
                out.push(Row::Blank);
            }
            wrap_text(paragraph, width, &mut out);
        }
    }
    out
}

/// Draws the help screen.
#[derive(Debug)]
pub struct HelpView<'a> {
    pub state: &'a HelpScreen,
    pub keys: &'a Keymap,
    /// Whether the terminal reports key releases.
    pub releases: bool,
    pub theme: Theme,
}

impl Widget for &HelpView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let r = draw::centered(area, 64, 40);
        let inner = draw::frame(buf, r, theme, "HELP", theme.dim());
        // Text from the first row to above the position line and the key hint.
        let text = Rect::new(
            inner.x + 2,
            inner.y,
            inner.width.saturating_sub(4),
            inner.height.saturating_sub(2),
        );
        let all = rows(self.keys, self.releases, text.width);
        let total = u16::try_from(all.len()).unwrap_or(u16::MAX);
        self.state.shown.set((text.height, total));
        let scroll = self.state.scroll.min(total.saturating_sub(text.height));
        for (i, row) in all.iter().skip(usize::from(scroll)).enumerate() {
            let Ok(i) = u16::try_from(i) else { break };
            if i >= text.height {
                break;
            }
            let y = text.y + i;
            match *row {
                Row::Blank => {}
                Row::Heading(s) => {
                    draw::put(buf, text, text.x, y, s, theme.accent());
                }
                Row::Pair(label, keys) => draw::put_row(
                    buf,
                    text,
                    y,
                    label,
                    keys.as_str(),
                    [theme.text(), theme.title()],
                ),
                Row::Text(s) => {
                    draw::put(buf, text, text.x, y, s, theme.dim());
                }
            }
        }
        let fits = total <= text.height;
        if !fits {
            let last = scroll.saturating_add(text.height).min(total);
            let more = if last < total { "   Down: more" } else { "" };
            let at = sfmt!(48; "rows {}-{} of {}{}", scroll + 1, last, total, more);
            let y = inner.bottom().saturating_sub(2);
            draw::put_centered(buf, inner, y, at.as_str(), theme.dim());
        }
        let hint = if fits {
            "Esc back"
        } else {
            "Up/Down scroll   PgUp/PgDn page   Esc back"
        };
        draw::hint(buf, inner, hint, theme);
    }
}
