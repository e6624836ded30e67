//! The account's password and SSH keys, opened from the settings: set or change the password
//! (typed twice, masked; a change first asks for the current one), list the keys, remove one
//! (never the key in use).

use ratatui::buffer::Buffer;
use ratatui::layout::{Margin, Rect};
use ratatui::widgets::Widget;

use super::account_form::{Load, PASSWORD_MAX, PASSWORD_MIN, date, edit, field, load_message};
use super::is_ctrl;
use crate::draw;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::text::sfmt;
use crate::theme::Theme;
use minotty_protocol::KeyView;

/// The state of the keys and password screen.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeysScreen {
    /// Why the screen cannot be used (not registered, offline), if so.
    pub refused: Option<&'static str>,
    pub has_password: bool,
    /// The current password, asked for when the account has one.
    pub current: String,
    /// The new password and its repetition.
    pub password: [String; 2],
    /// The password fields first ([`KeysScreen::fields`] of them: the current password when
    /// there is one, the new one, its repetition), then the keys.
    pub focus: usize,
    /// The keys (fingerprints cleaned).
    pub keys: Vec<KeyView>,
    pub load: Load,
    /// The key waiting for a second Enter to be removed.
    pub confirm: Option<usize>,
    /// The last message, and whether it is good news.
    pub message: Option<(String, bool)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeysAction {
    None,
    Changed,
    SetPassword {
        password: String,
        current: Option<String>,
    },
    RemoveKey(String),
    /// `w` on the keys: unlink every browser linked to the account.
    UnlinkBrowsers,
    Back,
    AskQuit,
}

impl KeysScreen {
    fn say(&mut self, message: &str, good: bool) {
        self.message = Some((message.to_string(), good));
    }

    /// How many password fields there are: the current password too when one is set.
    pub fn fields(&self) -> usize {
        2 + usize::from(self.has_password)
    }

    /// The text of password field `i` (of [`KeysScreen::fields`]).
    fn field_mut(&mut self, i: usize) -> &mut String {
        match (self.has_password, i) {
            (true, 0) => &mut self.current,
            (true, i) => &mut self.password[(i - 1).min(1)],
            (false, i) => &mut self.password[i.min(1)],
        }
    }

    fn clear_fields(&mut self) {
        self.current.clear();
        self.password = Default::default();
        self.focus = 0;
    }

    pub fn handle(&mut self, ev: KeyEvent) -> KeysAction {
        if is_ctrl(ev, 'c') {
            return KeysAction::AskQuit;
        }
        if ev.kind == KeyKind::Release {
            return KeysAction::None;
        }
        if self.refused.is_some() || matches!(self.load, Load::Offline) {
            return match ev.key {
                Key::Esc | Key::Enter | Key::Backspace => KeysAction::Back,
                _ => KeysAction::None,
            };
        }
        let fields = self.fields();
        let rows = fields + self.keys.len();
        match ev.key {
            Key::Esc if self.confirm.is_some() => {
                self.confirm = None;
                self.message = None;
            }
            Key::Esc => return KeysAction::Back,
            Key::Up | Key::BackTab => {
                self.focus = (self.focus + rows - 1) % rows;
                self.confirm = None;
            }
            Key::Down | Key::Tab => {
                self.focus = (self.focus + 1) % rows;
                self.confirm = None;
            }
            Key::Enter if self.focus + 1 < fields => self.focus += 1,
            Key::Enter if self.focus + 1 == fields => return self.submit_password(),
            Key::Enter | Key::Delete | Key::Char('x' | 'X') if self.focus >= fields => {
                return self.remove(self.focus - fields);
            }
            Key::Char('w' | 'W') if self.focus >= fields => {
                self.say("Unlinking your browsers...", true);
                return KeysAction::UnlinkBrowsers;
            }
            _ if self.focus < fields => {
                if !edit(self.field_mut(self.focus), ev, PASSWORD_MAX) {
                    return KeysAction::None;
                }
                self.message = None;
            }
            _ => return KeysAction::None,
        }
        KeysAction::Changed
    }

    fn submit_password(&mut self) -> KeysAction {
        let new = usize::from(self.has_password);
        let [a, b] = &self.password;
        if self.has_password && self.current.is_empty() {
            self.say("Type your current password first.", false);
            self.focus = 0;
        } else if a.chars().count() < PASSWORD_MIN {
            let m = sfmt!(64; "The password needs at least {} characters.", PASSWORD_MIN);
            self.say(m.as_str(), false);
            self.focus = new;
        } else if a != b {
            self.say("The two passwords differ: type them again.", false);
            self.password = Default::default();
            self.focus = new;
        } else {
            let password = a.clone();
            let current = self.has_password.then(|| self.current.clone());
            self.clear_fields();
            self.say("Setting the password...", true);
            return KeysAction::SetPassword { password, current };
        }
        KeysAction::Changed
    }

    fn remove(&mut self, i: usize) -> KeysAction {
        let Some(key) = self.keys.get(i) else {
            return KeysAction::None;
        };
        if key.in_use {
            self.confirm = None;
            self.say(
                "This is the key you are connected with: it cannot be removed.",
                false,
            );
            return KeysAction::Changed;
        }
        if self.confirm == Some(i) {
            self.confirm = None;
            let fingerprint = key.fingerprint.clone();
            self.say("Removing the key...", true);
            return KeysAction::RemoveKey(fingerprint);
        }
        self.confirm = Some(i);
        self.say(
            "Press Enter again to remove this key (Esc: keep it).",
            false,
        );
        KeysAction::Changed
    }

    /// The server's list of keys arrived.
    pub fn arrived(&mut self, keys: Vec<KeyView>) {
        self.keys = keys;
        self.load = Load::Ready;
        self.confirm = None;
        self.focus = self.focus.min(self.fields() - 1 + self.keys.len());
    }

    /// A key was removed.
    /// The server unlinked `count` browsers.
    pub fn browsers_unlinked(&mut self, count: u64) {
        let message = match count {
            0 => "No browser was linked to your account.".to_owned(),
            1 => "Unlinked 1 browser: it plays as a guest now.".to_owned(),
            n => format!("Unlinked {n} browsers: they play as guests now."),
        };
        self.say(&message, true);
    }

    pub fn removed(&mut self, fingerprint: &str) {
        self.keys.retain(|k| k.fingerprint != fingerprint);
        self.focus = self.focus.min(self.fields() - 1 + self.keys.len());
        self.confirm = None;
        self.say("Key removed.", true);
    }
}

/// Draws the keys and password screen.
#[derive(Debug)]
pub struct KeysView<'a> {
    pub state: &'a KeysScreen,
    pub name: &'a str,
    pub theme: Theme,
}

impl Widget for &KeysView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let s = self.state;
        let r = draw::centered(area, 64, 22);
        let inner = draw::frame(buf, r, theme, "ACCOUNT", theme.dim());
        let body = inner.inner(Margin::new(2, 0));
        if let Some(why) = s.refused {
            draw::wrapped(buf, body, inner.y + 2, why, theme.text());
            draw::hint(buf, inner, "Esc back", theme);
            return;
        }
        let title = sfmt!(64; "Player {}", self.name);
        draw::put(buf, body, body.x, inner.y, title.as_str(), theme.title());
        let y = inner.y + 2;
        let state = if s.has_password {
            "PASSWORD (set: give it, then a new one, to change it)"
        } else {
            "PASSWORD (not set)"
        };
        draw::put(buf, body, body.x, y, state, theme.dim());
        let fields: &[(&str, &str)] = if s.has_password {
            &[
                ("Current", s.current.as_str()),
                ("New password", s.password[0].as_str()),
                ("Repeat it", s.password[1].as_str()),
            ]
        } else {
            &[
                ("New password", s.password[0].as_str()),
                ("Repeat it", s.password[1].as_str()),
            ]
        };
        for (i, (label, text)) in fields.iter().enumerate() {
            let y = y + 1 + i as u16;
            field(buf, body, y, 15, label, text, true, s.focus == i, theme);
        }
        // The current password's field pushes the rest down a row.
        let y = y + u16::from(s.has_password);
        let min =
            sfmt!(64; "At least {} characters. It lets a new key join this account.", PASSWORD_MIN);
        let note = Rect::new(body.x, y + 3, body.width, 2).intersection(body);
        draw::wrapped(buf, note, note.y, min.as_str(), theme.dim());
        let y = y + 6;
        draw::put(buf, body, body.x, y, "SSH KEYS", theme.dim());
        let list = Rect::new(body.x, y + 1, body.width, 7).intersection(body);
        match load_message(&s.load) {
            Some(m) => {
                let style = match s.load {
                    Load::Failed(_) => theme.bad(),
                    _ => theme.dim(),
                };
                draw::wrapped(buf, list, list.y, m, style);
            }
            None => {
                let fields = s.fields();
                let first =
                    (s.focus.saturating_sub(fields) + 1).saturating_sub(usize::from(list.height));
                for (i, k) in s.keys.iter().enumerate().skip(first) {
                    let y = list.y + (i - first) as u16;
                    if y >= list.bottom() {
                        break;
                    }
                    let style = if s.focus == i + fields {
                        theme.selected()
                    } else {
                        theme.text()
                    };
                    let line = Rect::new(list.x, y, list.width, 1);
                    for x in line.left()..line.right() {
                        draw::put(buf, line, x, y, " ", style);
                    }
                    let fp = &k.fingerprint;
                    let end = fp.char_indices().nth(18).map_or(fp.len(), |(i, _)| i);
                    let fp = sfmt!(48; "{}...", &fp[..end]);
                    let mut x = draw::put(buf, line, line.x, y, fp.as_str(), style);
                    let added = sfmt!(32; "  added {}", date(k.added_at).as_str());
                    // The key's algorithm, when it fits beside the date and "this key".
                    let alg = short_algorithm(&k.algorithm);
                    let need = 2
                        + alg.chars().count()
                        + added.as_str().len()
                        + if k.in_use { 9 } else { 0 };
                    if !alg.is_empty() && usize::from(x) + need <= usize::from(line.right()) {
                        let alg = sfmt!(16; "  {}", alg);
                        x = draw::put(buf, line, x, y, alg.as_str(), style);
                    }
                    draw::put(buf, line, x, y, added.as_str(), style);
                    if k.in_use {
                        draw::put_right(buf, line, y, "this key", style);
                    }
                }
            }
        }
        if let Some((m, good)) = &s.message {
            let style = if *good { theme.good() } else { theme.bad() };
            let y = inner.bottom().saturating_sub(2);
            draw::put_centered(buf, inner, y, m, style);
        }
        draw::hint(
            buf,
            inner,
            "Up/Down choose   Enter set / remove   w unlink browsers   Esc back",
            theme,
        );
    }
}

/// A key algorithm's name as the keys list shows it: `ssh-ed25519` is `ed25519`, every ECDSA
/// curve `ecdsa`; at most 10 characters.
fn short_algorithm(name: &str) -> &str {
    let name = name.strip_prefix("ssh-").unwrap_or(name);
    let name = if name.starts_with("ecdsa") {
        "ecdsa"
    } else if name.starts_with("sk-ssh-ed25519") {
        "sk-ed25519"
    } else if name.starts_with("sk-ecdsa") {
        "sk-ecdsa"
    } else {
        name
    };
    let end = name.char_indices().nth(10).map_or(name.len(), |(i, _)| i);
    &name[..end]
}
