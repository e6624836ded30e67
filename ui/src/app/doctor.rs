//! The terminal doctor's screen: opened from Settings or at the start (`ssh -t HOST doctor`),
//! it asks the front end to probe the terminal ([`Request::RunDoctor`]) and shows the report.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::{App, Screen};
use crate::keys::KeyEvent;
use crate::screens::doctor::{DoctorAction, DoctorScreen, DoctorView};
use crate::theme::Theme;
use crate::{Request, Response};

/// The doctor's part of the App.
#[derive(Debug, Default)]
pub(super) struct DoctorState {
    pub screen: DoctorScreen,
    /// Where Esc goes back to.
    pub back: Option<Screen>,
    /// Opened by the `doctor` command: leaving it ends the session.
    pub exits: bool,
}

impl App {
    /// Opens the Doctor screen and asks for a report; `back: None` means leaving it quits.
    pub(super) fn open_doctor(&mut self, back: Option<Screen>) {
        self.doctor.back = back;
        self.doctor.exits = back.is_none();
        self.doctor.screen.scroll = 0;
        self.screen = Screen::Doctor;
        self.run_doctor();
    }

    fn run_doctor(&mut self) {
        if self.doctor.screen.running {
            return;
        }
        self.doctor.screen.running = true;
        self.request(Request::RunDoctor);
    }

    pub(super) fn key_doctor(&mut self, ev: KeyEvent) -> bool {
        match self.doctor.screen.handle(ev) {
            DoctorAction::None => return false,
            DoctorAction::Moved => {}
            DoctorAction::Rerun => self.run_doctor(),
            DoctorAction::Back => match self.doctor.back {
                Some(back) => self.screen = back,
                None => self.quit = true,
            },
            DoctorAction::AskQuit => return self.ask_quit(true),
        }
        true
    }

    /// Takes the doctor's answers; whether the response was one.
    pub(super) fn doctor_response(&mut self, response: &Response) -> bool {
        match response {
            Response::Doctor(report) => {
                let s = &mut self.doctor.screen;
                s.report = Some((**report).clone());
                s.running = false;
                s.unavailable = false;
                s.scroll = 0;
                true
            }
            // No one to ask (`minotty play`).
            Response::Offline if self.doctor.screen.running => {
                self.doctor.screen.running = false;
                self.doctor.screen.unavailable = true;
                true
            }
            _ => false,
        }
    }

    pub(super) fn render_doctor(&self, area: Rect, buf: &mut Buffer, theme: Theme) {
        DoctorView {
            state: &self.doctor.screen,
            theme,
            exits: self.doctor.exits,
        }
        .render(area, buf);
    }

    /// Whether the Doctor screen is waiting for a report (tests and front ends).
    pub fn doctor_running(&self) -> bool {
        self.doctor.screen.running
    }
}
