//! Snapshots: Ctrl+S in a solo game asks the front end to store one
//! ([`Request::SaveSnapshot`]) and shows how that went in the game's footer; the custom
//! options list the stored ones ([`Request::ListSnapshots`]) to start from.

use minotty_engine::Game;

use super::{App, Screen};
use crate::screens::account_form::clean;
use crate::screens::mode_select::ModeSelect;
use crate::session::GameSession;
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
/// Nor Ascent's.
pub const NOT_ASCENT: &str = "Ascent games cannot be snapshotted";
/// Nor is Survival's rising clock (`Mode::can_snapshot`).
pub const NOT_SURVIVAL: &str = "Survival games cannot be snapshotted";
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

impl SnapshotState {
    /// Ctrl+S in a solo game: asks the front end to store a snapshot of it.
    fn take(&mut self, s: &GameSession, now: u64, requests: &mut Vec<Request>) {
        if s.is_versus() {
            return;
        }
        let game = s.game();
        if !game.mode().can_snapshot() {
            let text = if game.descent().is_some_and(|d| d.climbing()) {
                NOT_ASCENT
            } else if game.descent().is_some() {
                NOT_DESCENT
            } else {
                NOT_SURVIVAL
            };
            self.notice = Some((text.to_string(), now + NOTICE_MS));
            return;
        }
        let Some(snapshot) = game.snapshot() else {
            self.notice = Some((NOTHING.to_string(), now + NOTICE_MS));
            return;
        };
        let label = label(game);
        requests.push(Request::SaveSnapshot {
            label,
            snapshot: Box::new(snapshot),
        });
        self.saving += 1;
        self.notice = Some((SAVING.to_string(), now + NOTICE_MS));
    }

    /// Shows `text` in the game's footer for a moment.
    pub(super) fn show(&mut self, text: &str, now: u64) {
        self.show_for(text, now, NOTICE_MS);
    }

    /// Shows `text` in the game's footer for `ms`.
    pub(super) fn show_for(&mut self, text: &str, now: u64, ms: u64) {
        self.notice = Some((text.to_string(), now + ms));
    }

    /// Asks for the stored snapshots (entering the custom options).
    fn load(&mut self, requests: &mut Vec<Request>) {
        if !self.listing {
            self.listing = true;
            requests.push(Request::ListSnapshots);
        }
    }

    /// Asks to delete a stored snapshot; the answer is the list left.
    fn delete(&mut self, id: i64, requests: &mut Vec<Request>) {
        self.listing = true;
        requests.push(Request::DeleteSnapshot { id });
    }

    /// Takes the answers to snapshot requests (the list goes to the mode select, `modes`).
    /// `Offline` and `Error` are taken only while a snapshot request waits for its answer.
    pub(super) fn on_response(
        &mut self,
        response: &Response,
        now: u64,
        modes: &mut ModeSelect,
    ) -> bool {
        let note = |s: &mut SnapshotState, text: String| {
            s.saving = s.saving.saturating_sub(1);
            s.notice = Some((text, now + NOTICE_MS));
        };
        match response {
            Response::SnapshotSaved { .. } => note(self, SAVED.to_string()),
            Response::SnapshotFailed { message } => note(self, clean(message)),
            Response::Snapshots(list) => {
                self.listing = false;
                modes.set_snapshots(list.clone());
            }
            Response::Offline | Response::Error { .. } if self.saving > 0 => {
                let text = match response {
                    Response::Error { message } => clean(message),
                    _ => OFFLINE.to_string(),
                };
                note(self, text);
            }
            Response::Offline | Response::Error { .. } if self.listing => {
                self.listing = false;
                modes.set_snapshots(Vec::new());
            }
            _ => return false,
        }
        true
    }

    /// The notice to show on the game screen (`on_game`: it shows) at `now`, if any.
    fn notice(&self, now: u64, on_game: bool) -> Option<&str> {
        match &self.notice {
            Some((text, until)) if now < *until && on_game => Some(text.as_str()),
            _ => None,
        }
    }

    /// When the notice goes away (a redraw is due then).
    fn wakeup(&self, now: u64, on_game: bool) -> Option<u64> {
        self.notice(now, on_game)?;
        self.notice.as_ref().map(|(_, until)| *until)
    }
}

impl App {
    /// Ctrl+S in a solo game: asks the front end to store a snapshot of it.
    pub(super) fn take_snapshot(&mut self, now: u64) {
        if let Some(s) = self.solo.session() {
            self.snaps.take(s, now, &mut self.requests);
        }
    }

    /// Asks for the stored snapshots (entering the custom options).
    pub(super) fn load_snapshots(&mut self) {
        self.snaps.load(&mut self.requests);
    }

    /// Asks to delete a stored snapshot; the answer is the list left.
    pub(super) fn delete_snapshot(&mut self, id: i64) {
        self.snaps.delete(id, &mut self.requests);
    }

    /// The snapshot notice to show on the game screen now, if any.
    pub(super) fn snapshot_notice(&self) -> Option<&str> {
        self.snaps.notice(self.now, self.screen == Screen::Game)
    }

    /// When the notice goes away (a redraw is due then).
    pub(super) fn snapshot_wakeup(&self) -> Option<u64> {
        self.snaps.wakeup(self.now, self.screen == Screen::Game)
    }
}

/// What a snapshot is called: the mode, the game clock and the lines, e.g.
/// "Marathon 1:02.4 14 lines".
fn label(game: &Game) -> String {
    let stats = game.stats();
    format!(
        "{} {} {} {}",
        game.mode().kind.title(),
        clock(game.now()).as_str(),
        stats.lines,
        crate::text::plural(stats.lines, "line", "lines")
    )
}
