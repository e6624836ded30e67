//! The player's personal bests for the mode select: asked each time it opens (a game may have
//! been stored since), kept cleaned of control characters.

use super::App;
use crate::screens::account_form::clean;
use crate::{Request, Response};
use minotty_protocol::{Identity, ModeBest};

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

    /// Takes a [`Response::Bests`] (`None`), or hands any other response back.
    pub(super) fn bests_response(&mut self, response: Response) -> Option<Response> {
        let Response::Bests(bests) = response else {
            return Some(response);
        };
        self.modes.bests = bests
            .into_iter()
            .map(|b| ModeBest {
                best: clean(&b.best),
                ..b
            })
            .collect();
        self.dirty = true;
        None
    }
}
