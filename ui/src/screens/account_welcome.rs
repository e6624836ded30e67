//! The welcome screen for a key the server has not seen: choose a player name, or add the key
//! to an existing account with its name and password, or play as a guest this time.

use ratatui::buffer::Buffer;
use ratatui::layout::{Margin, Rect};
use ratatui::widgets::Widget;

use super::account_form::{NAME_MAX, PASSWORD_MAX, edit, field, name_problem, suggested_name};
use super::is_ctrl;
use crate::draw;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::theme::Theme;

/// The state of the welcome screen.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Welcome {
    /// The "I already have an account" form is shown.
    pub link: bool,
    /// The name to register.
    pub name: String,
    /// The link form's name and password.
    pub link_name: String,
    pub password: String,
    /// The link form's field: 0 name, 1 password.
    pub focus: usize,
    /// A request is out.
    pub waiting: bool,
    /// The server's last refusal, cleaned.
    pub error: Option<String>,
    /// The last refusal was the server refusing the name to register (taken, most often):
    /// the screen says that Tab adds this key to the account if it is the player's own.
    pub refused: bool,
}

/// Said under a valid name before Enter: whether it is free is known only once the server
/// answers (there is no asking before), so nothing promises it is.
pub const NAME_VALID: &str = "Press Enter to register it, if no one has it yet";

/// Said under the server's refusal of a name.
pub const NAME_REFUSED: &str = "Is that account yours? Tab adds this key to it.";

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WelcomeAction {
    None,
    Changed,
    Register(String),
    Link { name: String, password: String },
    Guest,
    AskQuit,
}

impl Welcome {
    /// The welcome screen with the SSH user name offered as the player name.
    pub fn new(suggested: &str) -> Welcome {
        Welcome {
            name: suggested_name(suggested),
            ..Welcome::default()
        }
    }

    pub fn handle(&mut self, ev: KeyEvent) -> WelcomeAction {
        if is_ctrl(ev, 'c') {
            return WelcomeAction::AskQuit;
        }
        if ev.kind == KeyKind::Release {
            return WelcomeAction::None;
        }
        let plain = !ev.mods.ctrl && !ev.mods.alt;
        match ev.key {
            Key::Esc if plain => return WelcomeAction::Guest,
            _ if self.waiting => return WelcomeAction::None,
            Key::Tab | Key::BackTab if plain => {
                self.link = !self.link;
                self.error = None;
                self.refused = false;
                self.focus = 0;
            }
            Key::Up | Key::Down if self.link => self.focus = 1 - self.focus.min(1),
            Key::Enter if !self.link => {
                if name_problem(&self.name).is_some() {
                    return WelcomeAction::None;
                }
                self.waiting = true;
                self.error = None;
                self.refused = false;
                return WelcomeAction::Register(self.name.clone());
            }
            Key::Enter if self.focus == 0 => self.focus = 1,
            Key::Enter => {
                if self.link_name.is_empty() {
                    self.focus = 0;
                } else if !self.password.is_empty() {
                    self.waiting = true;
                    self.error = None;
                    self.refused = false;
                    return WelcomeAction::Link {
                        name: self.link_name.clone(),
                        password: self.password.clone(),
                    };
                }
            }
            _ => {
                let changed = match (self.link, self.focus) {
                    (false, _) => edit(&mut self.name, ev, NAME_MAX),
                    (true, 0) => edit(&mut self.link_name, ev, NAME_MAX),
                    (true, _) => edit(&mut self.password, ev, PASSWORD_MAX),
                };
                if !changed {
                    return WelcomeAction::None;
                }
                self.error = None;
                self.refused = false;
            }
        }
        WelcomeAction::Changed
    }

    /// The server refused the name to register (`message`: why, e.g. "that name is taken"):
    /// show why, that Tab links an existing account, and let the player edit again.
    pub fn register_refused(&mut self, message: String) {
        let register = !self.link;
        self.failed(message);
        self.refused = register;
    }

    /// The server refused: show why and let the player edit again.
    pub fn failed(&mut self, message: String) {
        self.waiting = false;
        self.refused = false;
        self.error = Some(message);
        if self.link {
            self.password.clear();
            self.focus = 1;
        }
    }
}

/// Draws the welcome screen.
#[derive(Debug)]
pub struct WelcomeView<'a> {
    pub state: &'a Welcome,
    pub theme: Theme,
}

impl Widget for &WelcomeView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let s = self.state;
        let r = draw::centered(area, 58, 20);
        let title = if s.link {
            "I ALREADY HAVE AN ACCOUNT"
        } else {
            "WELCOME TO MINOTTY"
        };
        let inner = draw::frame(buf, r, theme, title, theme.dim());
        let body = inner.inner(Margin::new(2, 0));
        draw::put_centered(buf, inner, inner.y + 1, theme.minos(), theme.accent());
        let intro = if s.link {
            "Give the name and password of your account to add this SSH key to it."
        } else {
            "Your SSH key is new here. Choose a player name: it keeps your settings, your \
             games and your places on the leaderboards."
        };
        let used = draw::wrapped(buf, body, inner.y + 3, intro, theme.text());
        let y = inner.y + 4 + used;
        let (message, style) = if s.link {
            field(
                buf,
                body,
                y,
                11,
                "Name",
                &s.link_name,
                false,
                s.focus == 0,
                theme,
            );
            field(
                buf,
                body,
                y + 1,
                11,
                "Password",
                &s.password,
                true,
                s.focus == 1,
                theme,
            );
            match &s.error {
                Some(e) => (e.as_str(), theme.bad()),
                None if s.waiting => ("Checking...", theme.dim()),
                None => ("", theme.dim()),
            }
        } else {
            field(buf, body, y, 11, "Name", &s.name, false, true, theme);
            match (&s.error, name_problem(&s.name)) {
                (Some(e), _) => (e.as_str(), theme.bad()),
                _ if s.waiting => ("Registering...", theme.dim()),
                (None, Some(problem)) => (problem, theme.bad()),
                (None, None) => (NAME_VALID, theme.good()),
            }
        };
        let msg_y = y + if s.link { 3 } else { 2 };
        let msg_area = Rect::new(body.x, msg_y, body.width, 3).intersection(body);
        let used = draw::wrapped(buf, msg_area, msg_y, message, style);
        if s.refused && !s.link && s.error.is_some() {
            draw::wrapped(buf, msg_area, msg_y + used, NAME_REFUSED, theme.text());
        }
        let (first, second) = if s.link {
            (
                "Enter sign in   Up/Down field   Tab new name",
                "Esc play as a guest this time",
            )
        } else {
            (
                "Enter register   Tab I already have an account",
                "Esc play as a guest this time",
            )
        };
        let y2 = inner.bottom().saturating_sub(2);
        draw::put_centered(buf, inner, y2, first, theme.dim());
        draw::hint(buf, inner, second, theme);
    }
}
