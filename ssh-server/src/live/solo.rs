//! A session's solo game on the live directory ([`SoloPublisher`]), and the listing of a game
//! parked for its player's return ([`LiveHold`]): its watchers stay on it, and when the player
//! resumes it in a new session, that session publishes it under the same id, so they see it go
//! on (a resumed game is the same game). A game discarded or never taken back ends for them.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use minotty_engine::Game;
use minotty_protocol::{LiveFrame, LiveKind, LiveStats};
use tokio::sync::watch;
use tokio::time::Instant;

use super::{Entry, FRAME_INTERVAL, FrameTx, LiveDirectory, LiveUpdate};

/// A solo game's numbers.
pub fn stats_of(game: &Game) -> LiveStats {
    let s = game.stats();
    LiveStats {
        score: s.score,
        lines: s.lines,
        level: s.level,
        pieces: s.pieces,
        time_ms: game.now(),
    }
}

/// The directory's entry of `player`'s solo game: listed, public, no room.
fn solo_entry(
    player: String,
    game: &Game,
    stats: LiveStats,
    frames: (super::FrameRx, Arc<AtomicUsize>),
    seq: u64,
) -> Entry {
    let config = game.config();
    Entry {
        players: vec![player],
        kind: LiveKind::Solo,
        mode: config.mode.kind,
        ruleset: config.ruleset,
        stats,
        frames,
        seq,
        room: None,
        private: false,
    }
}

/// A solo game as a watcher sees it now.
pub fn frame_of(id: u64, player: &str, game: &Game) -> LiveFrame {
    let config = game.config();
    LiveFrame {
        id,
        player: player.to_owned(),
        mode: config.mode.kind,
        ruleset: config.ruleset,
        board: minotty_protocol::snapshot(game),
        stats: stats_of(game),
        next: game.preview().take(5).map(|p| p as u8 + 1).collect(),
        hold: game.hold_piece().map_or(0, |p| p as u8 + 1),
    }
}

/// A session's solo game on the list.
#[derive(Debug)]
struct Published {
    id: u64,
    /// The App's game number: another number is another game.
    game_no: u64,
    player: String,
    tx: FrameTx,
    watchers: Arc<AtomicUsize>,
    /// Pieces at the last summary update.
    pieces: u32,
    last_frame: Option<Instant>,
    /// Whether the last frame sent had no watcher to see it (the next watcher gets a fresh one).
    stale: bool,
}

/// Publishes a session's solo game (see the module's documentation).
#[derive(Debug)]
pub struct SoloPublisher {
    dir: LiveDirectory,
    listed: Option<Published>,
    /// The listing of the parked game this session was offered, until the player answers.
    held: Option<LiveHold>,
    /// The player resumed it as the App's game of this number: listed under its old id.
    resumed: Option<(u64, LiveHold)>,
}

/// The listing of a parked game: off the list, its watchers still on it (told it is parked).
/// Dropped, it has ended for them: discarded, expired or never taken back.
#[derive(Debug)]
pub struct LiveHold {
    published: Option<Published>,
}

impl Drop for LiveHold {
    fn drop(&mut self) {
        if let Some(p) = self.published.take() {
            // Nothing but the end comes after this: the watchers hear "ended", not "parked".
            p.tx.send_replace(None);
        }
    }
}

impl SoloPublisher {
    pub fn new(dir: LiveDirectory) -> SoloPublisher {
        SoloPublisher {
            dir,
            listed: None,
            held: None,
            resumed: None,
        }
    }

    /// The listed game's id, if any.
    pub fn id(&self) -> Option<u64> {
        self.listed.as_ref().map(|p| p.id)
    }

    /// Brings the listing up to date with the session's game: `game` is the App's solo game in
    /// progress with its number (`App::live_game`), `allowed` the player's setting, `player`
    /// the name others see (asked only when a game is listed).
    pub fn update(
        &mut self,
        game: Option<(u64, &Game)>,
        allowed: bool,
        player: impl FnOnce() -> String,
        now: Instant,
    ) {
        let game = game.filter(|_| allowed);
        // A resumed game is taken up at its first listing; any other outcome ends it for its
        // watchers (another game, none, or the player no longer lets others watch).
        let resumed = self.resumed.take();
        let Some((game_no, game)) = game else {
            self.unlist();
            return;
        };
        if self.listed.as_ref().is_some_and(|p| p.game_no != game_no) {
            self.unlist();
        }
        if self.listed.is_none()
            && let Some((no, mut hold)) = resumed
            && no == game_no
            && let Some(mut p) = hold.published.take()
        {
            let stats = stats_of(game);
            let frames = (p.tx.subscribe(), Arc::clone(&p.watchers));
            let player = p.player.clone();
            let listed = self
                .dir
                .insert_as(p.id, |seq| solo_entry(player, game, stats, frames, seq));
            if listed {
                p.game_no = game_no;
                p.pieces = stats.pieces;
                // Its watchers get the game as it is now at once.
                p.stale = true;
                self.listed = Some(p);
            } else {
                // The id was taken meanwhile (never in practice): the old watchers hear the
                // end, and the game is listed anew.
                hold.published = Some(p);
            }
        }
        let p = match &mut self.listed {
            Some(p) => p,
            None => {
                let player = player();
                let (tx, rx) = watch::channel(None);
                let watchers = Arc::new(AtomicUsize::new(0));
                let stats = stats_of(game);
                let frames = (rx, Arc::clone(&watchers));
                let name = player.clone();
                let id = self
                    .dir
                    .insert(|seq| solo_entry(name, game, stats, frames, seq));
                self.listed.insert(Published {
                    id,
                    game_no,
                    player,
                    tx,
                    watchers,
                    pieces: stats.pieces,
                    last_frame: None,
                    stale: true,
                })
            }
        };
        // The list's numbers: once a piece.
        let pieces = game.stats().pieces;
        if pieces != p.pieces {
            p.pieces = pieces;
            self.dir.update_stats(p.id, stats_of(game));
        }
        // Frames only while someone watches, at most every FRAME_INTERVAL.
        if p.watchers.load(Ordering::Relaxed) == 0 {
            p.stale = true;
            return;
        }
        if !p.stale && p.last_frame.is_some_and(|at| now < at + FRAME_INTERVAL) {
            return;
        }
        let frame = LiveUpdate::Solo(frame_of(p.id, &p.player, game));
        p.tx.send_if_modified(|current| {
            if current.as_deref() == Some(&frame) {
                return false;
            }
            *current = Some(Arc::new(frame));
            true
        });
        p.last_frame = Some(now);
        p.stale = false;
    }

    /// When the session should call [`SoloPublisher::update`] again for a frame (someone
    /// watches); `None` when nothing is due but what the game itself wakes for.
    pub fn next_due(&self) -> Option<Instant> {
        let p = self.listed.as_ref()?;
        if p.watchers.load(Ordering::Relaxed) == 0 {
            return None;
        }
        Some(
            p.last_frame
                .map_or_else(Instant::now, |at| at + FRAME_INTERVAL),
        )
    }

    /// The player dropped and their game is parked for their return: its watchers are told
    /// so (not that it is over), and it leaves the list. The hold goes with the parked game:
    /// the session that resumes it lists it again under the same id ([`SoloPublisher::hold`]).
    /// A game offered to this session and parked again before it was listed (the offer not
    /// answered yet, or just resumed) passes its hold on as it came.
    pub fn park(&mut self) -> Option<LiveHold> {
        let Some(p) = self.listed.take() else {
            return self
                .held
                .take()
                .or_else(|| self.resumed.take().map(|(_, h)| h));
        };
        self.dir.remove(p.id);
        p.tx.send_replace(Some(Arc::new(LiveUpdate::Parked)));
        Some(LiveHold { published: Some(p) })
    }

    /// This session was offered a parked game whose listing is `hold`: kept until the player
    /// answers ([`SoloPublisher::answered`]).
    pub fn hold(&mut self, hold: LiveHold) {
        self.held = Some(hold);
    }

    /// The player answered the offer: `Some(game_no)` resumed it as the App's game of that
    /// number (its listing and watchers go on with it), `None` discarded it (its watchers hear
    /// that it ended).
    pub fn answered(&mut self, resumed: Option<u64>) {
        if let Some(hold) = self.held.take() {
            self.resumed = resumed.map(|no| (no, hold));
        }
    }

    fn unlist(&mut self) {
        if let Some(p) = self.listed.take() {
            self.dir.remove(p.id);
        }
    }
}

impl Drop for SoloPublisher {
    fn drop(&mut self) {
        self.unlist();
    }
}
