//! Ghost races asked for: from the mode select (G on 40 lines or ultra: the player's best) or a
//! leaderboard entry (G: anyone's). The answer starts the race only while the player still
//! waits on the screen they asked from; one that comes later, or elsewhere, is dropped. Why
//! there is no ghost is said on that screen.

use minotty_protocol::GhostWanted;

use super::{App, Screen};
use crate::session::{GameSetup, GhostSource};
use crate::{Request, Response};
use minotty_domain::text::sanitize_display;

/// The most characters of a server's reason drawn.
const MESSAGE_CHARS: usize = 120;

/// The ghost asked for: the screen it was asked from, until the answer.
#[derive(Debug, Default)]
pub(super) struct Asked {
    from: Option<Screen>,
}

impl App {
    /// Asks for a ghost to race from the screen shown.
    pub(super) fn ask_ghost(&mut self, wanted: GhostWanted) {
        self.race.from = Some(self.screen);
        self.request(Request::Ghost(wanted));
    }

    /// Takes a ghost's answer (`None`: taken); any other response goes on.
    pub(super) fn race_response(&mut self, response: Response, now: u64) -> Option<Response> {
        let waiting = self.race.from == Some(self.screen);
        match response {
            Response::Ghost {
                game,
                player,
                replay,
            } => {
                self.race.from = None;
                if !waiting {
                    return None;
                }
                match GameSetup::ghost_race(GhostSource {
                    replay,
                    player,
                    game,
                }) {
                    Ok(setup) => {
                        self.menus.modes_mut().ghost_note = None;
                        if self.screen == Screen::Account {
                            self.account.leave();
                        }
                        self.start(setup, now);
                    }
                    Err(why) => self.ghost_failed(why),
                }
                None
            }
            Response::GhostFailed { message } => {
                self.race.from = None;
                if waiting {
                    // The server's words, through the text policy (longer than a name).
                    self.ghost_failed(sanitize_display(&message, MESSAGE_CHARS));
                }
                None
            }
            other => Some(other),
        }
    }

    /// Says why there is no ghost on the screen it was asked from.
    fn ghost_failed(&mut self, message: String) {
        match self.screen {
            Screen::ModeSelect => self.menus.modes_mut().ghost_note = Some(message),
            Screen::Account => self.account.board_note(message),
            _ => {}
        }
    }
}
