//! Snapshots: Ctrl+S in a solo game asks the front end to store one
//! ([`Request::SaveSnapshot`]) and shows how that went in the game's footer; the custom
//! options list the stored ones ([`Request::ListSnapshots`]) to start from.

use minotty_engine::Game;

use super::{App, Screen};
use crate::screens::account_form::clean;
use crate::text::clock;
use crate::{Request, Response};

/// How long a snapshot notice shows in the game's footer.
pub const NOTICE_MS: u64 = 2000;

/// What the footer says while a save is under way, and once it is done.
pub const SAVING: &str = "Saving snapshot...";
pub const SAVED: &str = "Snapshot saved";
/// Before the first piece (or after the end) there is nothing to save.
pub const NOTHING: &str = "No piece in play to snapshot";
/// Descent's lattice and gems are not part of a snapshot.
pub const NOT_DESCENT: &str = "Descent games cannot be snapshotted";
/// A front end with nowhere to keep snapshots answered `Offline`.
pub const OFFLINE: &str = "Snapshots cannot be stored here";

#[derive(Debug, Default)]
pub(super) struct SnapshotState {
    /// The footer message and the front-end time it shows until.
    notice: Option<(String, u64)>,
    /// Save requests not answered yet.
    saving: u32,
    /// A list was asked for and not answered yet.
    listing: bool,
}

impl App {
    /// Ctrl+S in a solo game: asks the front end to store a snapshot of it.
    pub(super) fn take_snapshot(&mut self, now: u64) {
        let Some(s) = self.solo.session() else { return };
        if s.is_versus() {
            return;
        }
        let game = s.game();
        if game.descent().is_some() {
            self.snaps.notice = Some((NOT_DESCENT.to_string(), now + NOTICE_MS));
            return;
        }
        let Some(snapshot) = game.snapshot() else {
            self.snaps.notice = Some((NOTHING.to_string(), now + NOTICE_MS));
            return;
        };
        let label = label(game);
        self.request(Request::SaveSnapshot {
            label,
            snapshot: Box::new(snapshot),
        });
        self.snaps.saving += 1;
        self.snaps.notice = Some((SAVING.to_string(), now + NOTICE_MS));
    }

    /// Asks for the stored snapshots (entering the custom options).
    pub(super) fn load_snapshots(&mut self) {
        if !self.snaps.listing {
            self.snaps.listing = true;
            self.request(Request::ListSnapshots);
        }
    }

    /// Asks to delete a stored snapshot; the answer is the list left.
    pub(super) fn delete_snapshot(&mut self, id: i64) {
        self.snaps.listing = true;
        self.request(Request::DeleteSnapshot { id });
    }

    /// Takes the answers to snapshot requests. `Offline` and `Error` are taken only while a
    /// snapshot request waits for its answer.
    pub(super) fn snapshot_response(&mut self, response: &Response, now: u64) -> bool {
        let note = |s: &mut SnapshotState, text: String| {
            s.saving = s.saving.saturating_sub(1);
            s.notice = Some((text, now + NOTICE_MS));
        };
        match response {
            Response::SnapshotSaved { .. } => note(&mut self.snaps, SAVED.to_string()),
            Response::SnapshotFailed { message } => note(&mut self.snaps, clean(message)),
            Response::Snapshots(list) => {
                self.snaps.listing = false;
                self.menus.modes_mut().set_snapshots(list.clone());
            }
            Response::Offline | Response::Error { .. } if self.snaps.saving > 0 => {
                let text = match response {
                    Response::Error { message } => clean(message),
                    _ => OFFLINE.to_string(),
                };
                note(&mut self.snaps, text);
            }
            Response::Offline | Response::Error { .. } if self.snaps.listing => {
                self.snaps.listing = false;
                self.menus.modes_mut().set_snapshots(Vec::new());
            }
            _ => return false,
        }
        true
    }

    /// The snapshot notice to show on the game screen now, if any.
    pub(super) fn snapshot_notice(&self) -> Option<&str> {
        match &self.snaps.notice {
            Some((text, until)) if self.now < *until && self.screen == Screen::Game => {
                Some(text.as_str())
            }
            _ => None,
        }
    }

    /// When the notice goes away (a redraw is due then).
    pub(super) fn snapshot_wakeup(&self) -> Option<u64> {
        self.snapshot_notice()?;
        self.snaps.notice.as_ref().map(|(_, until)| *until)
    }
}

/// What a snapshot is called: the mode, the game clock and the lines, e.g.
/// "Marathon 1:02.4 14 lines".
fn label(game: &Game) -> String {
    let stats = game.stats();
    format!(
        "{} {} {} lines",
        game.mode().kind.title(),
        clock(game.now()).as_str(),
        stats.lines
    )
}
