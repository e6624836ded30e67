//! `?` on a screen: the keys of that screen in a box over it (issue 40 item 7, tetro-tui's
//! per-screen help), closed by any key. Only screens where `?` types nothing have it (not the
//! name and password forms, the room codes, a key being captured, the game itself, where `?`
//! may be a game button); each list says what its screen's handler does.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::draw;
use crate::theme::Theme;

/// The screens with a keys box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    Menu,
    ModeSelect,
    Settings,
    Help,
    Results,
    Doctor,
    Live,
    MatchReplay,
    Board,
    Profile,
    Replay,
}

impl Page {
    /// Every page (the tests draw each).
    #[cfg(test)]
    pub const ALL: [Page; 11] = [
        Page::Menu,
        Page::ModeSelect,
        Page::Settings,
        Page::Help,
        Page::Results,
        Page::Doctor,
        Page::Live,
        Page::MatchReplay,
        Page::Board,
        Page::Profile,
        Page::Replay,
    ];

    /// The box's title.
    pub fn title(self) -> &'static str {
        match self {
            Page::Menu => "KEYS: MENU",
            Page::ModeSelect => "KEYS: CHOOSE A MODE",
            Page::Settings => "KEYS: SETTINGS",
            Page::Help => "KEYS: HELP",
            Page::Results => "KEYS: RESULTS",
            Page::Doctor => "KEYS: DOCTOR",
            Page::Live => "KEYS: LIVE",
            Page::MatchReplay => "KEYS: MATCH REPLAY",
            Page::Board => "KEYS: LEADERBOARDS",
            Page::Profile => "KEYS: PROFILE",
            Page::Replay => "KEYS: REPLAY",
        }
    }

    /// The keys and what each does.
    pub fn keys(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Page::Menu => &[
                ("Up, Down", "choose"),
                ("Enter", "open"),
                ("q, Ctrl+C", "quit (asks first)"),
            ],
            Page::ModeSelect => &[
                ("Up, Down", "choose a mode"),
                ("Left, Right", "its ruleset, rows, stage or level"),
                ("L", "Classic: the lock delay on or off"),
                ("F", "race a friend's best"),
                ("Enter", "start, or Custom's options"),
                ("Del", "Custom: a value back to its default"),
                ("Esc", "back"),
            ],
            Page::Settings => &[
                ("Up, Down", "choose a row"),
                ("Left, Right", "change it"),
                ("Enter", "open or toggle"),
                ("Backspace", "Controls: clear an action's keys"),
                ("Esc", "back"),
            ],
            Page::Help => &[
                ("Up, Down", "scroll"),
                ("PgUp, PgDn", "a page"),
                ("Esc", "back"),
            ],
            Page::Results => &[
                ("Up, Down", "choose"),
                ("Enter", "retry, modes or the menu"),
                ("R", "retry at once (where it applies)"),
                ("Esc", "the menu"),
            ],
            Page::Doctor => &[
                ("r", "check again"),
                ("Up, Down", "scroll"),
                ("Esc", "back"),
            ],
            Page::Live => &[
                ("Up, Down", "choose a game"),
                ("Enter", "watch it"),
                ("t", "the TV: the best game being played"),
                ("n", "watching: the next game"),
                ("Esc", "the list, then back"),
            ],
            Page::MatchReplay => &[
                ("Space", "pause"),
                ("+, -", "speed"),
                ("<, >", "back or on by 5 s"),
                ("r", "from the start"),
                ("Esc", "back"),
            ],
            Page::Board => &[
                ("Left, Right", "the mode"),
                ("Tab", "the period"),
                ("u", "the ruleset (40 lines, marathon, ultra)"),
                ("Up, Down", "choose a row"),
                ("PgUp, PgDn", "a page"),
                ("Enter", "watch the game"),
                ("g", "race it as a ghost"),
                ("r", "load again"),
                ("Esc", "back"),
            ],
            Page::Profile => &[
                ("Up, Down", "choose a game"),
                ("Enter", "watch it"),
                ("c", "charts / lists"),
                ("Left, Right", "charts: the board"),
                ("Esc", "back"),
            ],
            Page::Replay => &[
                ("Space", "pause"),
                ("+, -", "speed by 0.25x"),
                ("], [", "speed by 0.05x"),
                ("=", "speed 1x"),
                ("Left, Right", "back or on by a second"),
                ("1-9", "jump to 10 %...90 %"),
                ("Home, End", "the start, the end"),
                (".", "pause: on to the next input"),
                (",", "pause: on to the next change"),
                ("t", "take over: play on from here"),
                ("r", "from the start"),
                ("Esc", "back"),
            ],
        }
    }
}

/// Draws `page`'s keys in a box centred over `area`.
pub fn draw(buf: &mut Buffer, area: Rect, page: Page, theme: Theme) {
    let keys = page.keys();
    let h = keys.len() as u16 + 4;
    let inner = draw::dialog(buf, area, 60, h, theme, page.title());
    let rows = Rect::new(
        inner.x + 1,
        inner.y,
        inner.width.saturating_sub(2),
        inner.height,
    );
    for (i, (key, what)) in keys.iter().enumerate() {
        let y = rows.y + i as u16;
        draw::put(buf, rows, rows.x, y, key, theme.accent());
        draw::put(buf, rows, rows.x + 13, y, what, theme.text());
    }
    let y = inner.y + inner.height.saturating_sub(1);
    draw::put_centered(buf, inner, y, "any key closes", theme.dim());
}
