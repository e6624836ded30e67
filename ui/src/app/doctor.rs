//! The terminal doctor's screen: opened from Settings or at the start (`ssh -t HOST doctor`),
//! it asks the front end to probe the terminal ([`Request::RunDoctor`]) and shows the report.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::{App, Screen};
use crate::keygrid::{self, KeyGrid};
use crate::keys::KeyEvent;
use crate::screens::doctor::{DoctorAction, DoctorScreen, DoctorView};
use crate::theme::Theme;
use crate::{Request, Response};

/// The doctor's part of the App.
#[derive(Debug, Default)]
pub(super) struct DoctorState {
    screen: DoctorScreen,
    /// Where Esc goes back to.
    back: Option<Screen>,
    /// Opened by the `doctor` command: leaving it ends the session.
    exits: bool,
    /// Whether the player's keys arrive on OpenSSH's keystroke grid (`keygrid.rs`).
    grid: KeyGrid,
    /// The grid was found and the player not yet told in a game.
    grid_untold: bool,
}

/// How long the game's footer says that keys are on the grid (ms).
pub(super) const GRID_NOTICE_MS: u64 = 8_000;

/// What a key on the Doctor screen asks of the App.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    Ignored,
    Changed,
    /// Show this screen (Esc, back where the doctor was opened from).
    Show(Screen),
    /// Esc on a doctor opened by the `doctor` command: the session ends.
    Quit,
    AskQuit,
}

impl DoctorState {
    /// Opens the Doctor screen (the App shows it) and asks for a report; `back: None` means
    /// leaving it quits.
    pub(super) fn open(&mut self, back: Option<Screen>, requests: &mut Vec<Request>) {
        self.back = back;
        self.exits = back.is_none();
        self.screen.scroll = 0;
        self.run(requests);
    }

    fn run(&mut self, requests: &mut Vec<Request>) {
        if self.screen.running {
            return;
        }
        self.screen.running = true;
        requests.push(Request::RunDoctor);
    }

    pub(super) fn handle_key(&mut self, ev: KeyEvent, requests: &mut Vec<Request>) -> Outcome {
        match self.screen.handle(ev) {
            DoctorAction::None => Outcome::Ignored,
            DoctorAction::Moved => Outcome::Changed,
            DoctorAction::Rerun => {
                self.run(requests);
                Outcome::Changed
            }
            DoctorAction::Back => match self.back {
                Some(back) => Outcome::Show(back),
                None => Outcome::Quit,
            },
            DoctorAction::AskQuit => Outcome::AskQuit,
        }
    }

    /// Takes the doctor's answers; whether the response was one.
    pub(super) fn on_response(&mut self, response: &Response) -> bool {
        match response {
            Response::Doctor(report) => {
                let s = &mut self.screen;
                let mut report = (**report).clone();
                report.keys_on_grid = self.grid.detected();
                s.report = Some(report);
                s.running = false;
                s.unavailable = false;
                s.scroll = 0;
                true
            }
            // No one to ask (`minotty play`).
            Response::Offline if self.screen.running => {
                self.screen.running = false;
                self.screen.unavailable = true;
                true
            }
            _ => false,
        }
    }

    pub(super) fn draw(&self, area: Rect, buf: &mut Buffer, theme: Theme) {
        DoctorView {
            state: &self.screen,
            theme,
            exits: self.exits,
        }
        .render(area, buf);
    }
}

impl App {
    /// Opens the Doctor screen and asks for a report; `back: None` means leaving it quits.
    pub(super) fn open_doctor(&mut self, back: Option<Screen>) {
        self.doctor.open(back, &mut self.requests);
        self.screen = Screen::Doctor;
    }

    pub(super) fn key_doctor(&mut self, ev: KeyEvent) -> bool {
        match self.doctor.handle_key(ev, &mut self.requests) {
            Outcome::Ignored => return false,
            Outcome::Changed => {}
            Outcome::Show(back) => self.screen = back,
            Outcome::Quit => self.quit = true,
            Outcome::AskQuit => return self.ask_quit(true),
        }
        true
    }

    /// A key arrived at `t` (ms): once the keys are found on OpenSSH's grid, the game's footer
    /// says so (the first game after, if none runs) and the doctor gives the advice.
    pub(super) fn note_arrival(&mut self, t: u64) {
        let d = &mut self.doctor;
        if d.grid.observe(t) {
            d.grid_untold = true;
        }
        if d.grid_untold && self.screen == Screen::Game {
            d.grid_untold = false;
            self.snaps
                .show_for(keygrid::NOTICE, self.now, GRID_NOTICE_MS);
            self.dirty = true;
        }
    }

    /// Whether the Doctor screen is waiting for a report (tests and front ends).
    pub fn doctor_running(&self) -> bool {
        self.doctor.screen.running
    }
}
