//! The player's personal bests for the mode select: asked each time it opens (a game may have
//! been stored since). The answer goes to the menus, cleaned of control characters (see
//! `menus.rs`).

use super::App;
use crate::Request;
use minotty_protocol::Identity;

impl App {
    /// Asks for the bests, when the player has any to be asked for.
    pub(super) fn ask_bests(&mut self) {
        if matches!(
            self.identity,
            Identity::Registered { .. } | Identity::Local { .. }
        ) {
            self.request(Request::Bests);
        }
    }
}
