//! Pieces shared by the account screens: text fields, the player-name rules, masked drawing,
//! dates, and the loading state of a screen that waits for the server.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::draw;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::text::{StackStr, sfmt};
use crate::theme::Theme;

/// Player names: 3 to 16 characters (the server's `PlayerName` rules).
pub const NAME_MIN: usize = 3;
pub const NAME_MAX: usize = 16;
/// Passwords: at least 8 characters, at most 128 (the server's rules).
pub const PASSWORD_MIN: usize = 8;
pub const PASSWORD_MAX: usize = 128;
/// The longest server message kept, in characters.
const MESSAGE_MAX: usize = 200;

/// What a screen that asked the server for something shows meanwhile.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Load {
    #[default]
    Loading,
    Ready,
    /// The server said why (already stripped of control characters).
    Failed(String),
    /// There is no server.
    Offline,
}

/// Whether `c` may be part of a player name.
pub fn name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

/// Why `name` is not a valid player name, or `None` when it is.
pub fn name_problem(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        Some("Type a name: 3-16 letters, digits, - or _")
    } else if !name.chars().all(name_char) {
        Some("Only letters, digits, - and _ please")
    } else if name.len() < NAME_MIN {
        Some("At least 3 characters")
    } else if name.len() > NAME_MAX {
        Some("At most 16 characters")
    } else if name.eq_ignore_ascii_case("guest") {
        Some("That name is reserved")
    } else {
        None
    }
}

/// The SSH user name as a name suggestion: the allowed characters, at most 16 of them.
pub fn suggested_name(user: &str) -> String {
    user.chars()
        .filter(|&c| name_char(c))
        .take(NAME_MAX)
        .collect()
}

/// A server message or value made safe to draw: the one allowlist ([`minotty_domain::text`], as
/// [`crate::text::sanitize`] uses), without a name's length cut, cut to a reasonable length.
pub fn clean(s: &str) -> String {
    minotty_domain::text::sanitize_display(s, MESSAGE_MAX)
}

/// Edits a text field with a key: printable characters are added (up to `max`), Backspace
/// removes the last one. Returns whether the field changed.
pub fn edit(field: &mut String, ev: KeyEvent, max: usize) -> bool {
    if ev.kind == KeyKind::Release || ev.mods.ctrl || ev.mods.alt {
        return false;
    }
    match ev.key {
        Key::Backspace => field.pop().is_some(),
        Key::Char(c) if !c.is_control() && field.chars().count() < max => {
            field.push(c);
            true
        }
        _ => false,
    }
}

/// Columns of a text field's box.
pub const FIELD_W: u16 = 20;

/// Draws `label` at the left of `area` on row `y` and a text field after `label_w` columns:
/// the end of `value` (or one `*` per character when `masked`), a cursor when focused.
#[allow(clippy::too_many_arguments)]
pub fn field(
    buf: &mut Buffer,
    area: Rect,
    y: u16,
    label_w: u16,
    label: &str,
    value: &str,
    masked: bool,
    focused: bool,
    theme: Theme,
) {
    let label_style = if focused { theme.accent() } else { theme.dim() };
    draw::put(buf, area, area.x, y, label, label_style);
    let x0 = area.x.saturating_add(label_w);
    let w = FIELD_W.min(area.right().saturating_sub(x0));
    if w < 2 {
        return;
    }
    let boxed = Rect::new(x0, y, w, 1).intersection(area);
    let style = if focused {
        theme.selected()
    } else {
        theme.text()
    };
    for x in boxed.left()..boxed.right() {
        draw::put(buf, boxed, x, y, " ", style);
    }
    // Keep the last `w - 1` characters in view, and room for the cursor.
    let room = usize::from(w - 1);
    let n = value.chars().count();
    let skip = n.saturating_sub(room);
    let mut x = x0;
    if masked {
        for _ in 0..n - skip {
            x = draw::put(buf, boxed, x, y, "*", style);
        }
    } else {
        let start = value
            .char_indices()
            .nth(skip)
            .map_or(value.len(), |(i, _)| i);
        x = draw::put(buf, boxed, x, y, &value[start..], style);
    }
    if focused {
        draw::put(buf, boxed, x, y, "_", style);
    }
}

/// A Unix time in ms as `YYYY-MM-DD` (UTC).
pub fn date(ms: i64) -> StackStr<16> {
    let days = ms.div_euclid(86_400_000);
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    sfmt!(16; "{:04}-{:02}-{:02}", y, m, d)
}

/// The message drawn for a screen's loading state, if any.
pub fn load_message(load: &Load) -> Option<&str> {
    match load {
        Load::Loading => Some("Loading..."),
        Load::Ready => None,
        Load::Failed(m) => Some(m.as_str()),
        Load::Offline => Some("This needs the minotty server: connect over SSH to use it."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_server_rules() {
        assert_eq!(name_problem("ada"), None);
        assert_eq!(name_problem("A-b_9"), None);
        assert!(name_problem("ab").is_some());
        assert!(name_problem("a b c").is_some());
        assert!(name_problem("ädä").is_some());
        assert!(name_problem(&"a".repeat(17)).is_some());
        assert!(name_problem("GUEST").is_some());
        assert_eq!(suggested_name("j.doe@example"), "jdoeexample");
        assert_eq!(suggested_name("..."), "");
        assert_eq!(suggested_name(&"x".repeat(30)).len(), NAME_MAX);
    }

    #[test]
    fn dates_and_cleaning() {
        assert_eq!(date(0).as_str(), "1970-01-01");
        assert_eq!(date(1_763_769_600_000).as_str(), "2025-11-22");
        assert_eq!(date(951_782_400_000).as_str(), "2000-02-29");
        assert_eq!(clean("a\x1b[2J b\u{202E}c\n"), "a[2J bc");
        assert_eq!(clean(&"y".repeat(500)).len(), MESSAGE_MAX);
    }
}
