//! The Live feature on its own, without an App: what its keys, ticks and answers do with its
//! state, what they ask of the front end and what they ask of the App.

use minotty_engine::versus::MatchKind;
use minotty_engine::{ModeKind, RulesetId};
use minotty_protocol::{LiveEntry, LiveKind, LiveStats};

use super::{LIST_EVERY_MS, Live, Outcome, TV_ENDED_HOLD_MS, TV_SWITCH_MS};
use crate::keys::{Key, KeyEvent};
use crate::screens::live::LiveView;
use crate::{Request, Response};

fn entry(id: u64, kind: LiveKind) -> LiveEntry {
    LiveEntry {
        id,
        kind,
        players: vec!["ada".into()],
        mode: ModeKind::Marathon,
        ruleset: RulesetId::Standard,
        stats: LiveStats::default(),
        watchers: 0,
    }
}

fn solo(id: u64) -> LiveEntry {
    entry(id, LiveKind::Solo)
}

fn battle(id: u64) -> LiveEntry {
    entry(
        id,
        LiveKind::Match {
            kind: MatchKind::Battle,
        },
    )
}

fn key(live: &mut Live, k: Key, now: u64, requests: &mut Vec<Request>) -> Outcome {
    live.handle_key(KeyEvent::press(k), now, requests)
}

#[test]
fn the_list_asks_for_itself_and_a_solo_game_is_watched() {
    let mut live = Live::default();
    let mut requests = Vec::new();
    live.open(false, 100, &mut requests);
    assert_eq!(requests, [Request::LiveList]);
    assert!(!live.watching());
    requests.clear();
    let list = Response::Live(vec![solo(7), battle(9)]);
    // Shown: the screen changes; the list is kept either way.
    assert!(live.on_response(&list, 200, true, &mut requests));
    assert!(!live.on_response(&list, 200, false, &mut requests));
    assert!(requests.is_empty());

    assert_eq!(
        key(&mut live, Key::Enter, 300, &mut requests),
        Outcome::Changed
    );
    assert_eq!(requests, [Request::WatchLive { id: 7 }]);
    assert!(live.watching());
    assert_eq!(live.state.view, LiveView::Watch);
    requests.clear();

    // Esc goes back to the list: the watched game is let go and the list asked for again.
    assert_eq!(
        key(&mut live, Key::Esc, 400, &mut requests),
        Outcome::Changed
    );
    assert_eq!(requests, [Request::StopWatching, Request::LiveList]);
    assert!(!live.watching());
    requests.clear();
    // Esc on the list: back to the menu (the App shows it), nothing asked.
    assert_eq!(key(&mut live, Key::Esc, 500, &mut requests), Outcome::Back);
    assert!(requests.is_empty());
}

#[test]
fn a_match_is_handed_to_the_app_to_spectate() {
    let mut live = Live::default();
    let mut requests = Vec::new();
    live.open(false, 0, &mut requests);
    live.on_response(&Response::Live(vec![battle(9)]), 0, true, &mut requests);
    requests.clear();
    assert_eq!(
        key(&mut live, Key::Enter, 10, &mut requests),
        Outcome::Spectate(9)
    );
    // The spectator request is the App's to send (through the versus screens).
    assert!(requests.is_empty());
    assert_eq!(
        live.state.message.as_deref(),
        Some("Joining the room as a spectator...")
    );
    // The room's answer clears the note and is left to the versus screens.
    let failed = Response::RoomFailed {
        message: "full".into(),
    };
    assert!(!live.on_response(&failed, 20, true, &mut requests));
    assert_eq!(live.state.message, None);
    assert_eq!(
        key(&mut live, Key::Char('q'), 30, &mut requests),
        Outcome::AskQuit
    );
}

#[test]
fn the_tv_changes_channel_when_its_game_ends_and_when_another_leads() {
    let mut live = Live::default();
    let mut requests = Vec::new();
    live.open(true, 0, &mut requests);
    // Nothing listed yet: nothing to watch.
    assert_eq!(requests, [Request::LiveList]);
    requests.clear();
    live.on_response(
        &Response::Live(vec![solo(1), solo(2)]),
        10,
        true,
        &mut requests,
    );
    assert_eq!(requests, [Request::WatchLive { id: 1 }]);
    requests.clear();

    // Its game ends: the last frame holds, then the next one is watched.
    assert!(live.on_response(&Response::LiveEnded { id: 1 }, 1_000, true, &mut requests));
    // The list is due first (asked at 0), then the end of the hold.
    assert_eq!(live.wakeup(1_000), Some(LIST_EVERY_MS));
    assert!(!live.tick(1_000 + TV_ENDED_HOLD_MS - 1, &mut requests));
    assert_eq!(live.wakeup(1_000), Some(1_000 + TV_ENDED_HOLD_MS));
    assert!(live.tick(1_000 + TV_ENDED_HOLD_MS, &mut requests));
    assert_eq!(requests, [Request::LiveList, Request::WatchLive { id: 2 }]);
    requests.clear();

    // Another game leads the list: after TV_SWITCH_MS on game 2 the TV moves to it.
    let since = 1_000 + TV_ENDED_HOLD_MS;
    live.on_response(
        &Response::Live(vec![solo(3), solo(2)]),
        since + 1,
        true,
        &mut requests,
    );
    assert!(requests.is_empty());
    let at = since + TV_SWITCH_MS;
    assert!(live.tick(at, &mut requests));
    assert_eq!(requests, [Request::LiveList, Request::WatchLive { id: 3 }]);
    // The list is asked for again LIST_EVERY_MS later.
    assert_eq!(live.wakeup(at), Some(at + LIST_EVERY_MS));
}

#[test]
fn frames_of_a_game_not_watched_are_ignored() {
    let mut live = Live::default();
    let mut requests = Vec::new();
    live.open(false, 0, &mut requests);
    assert!(!live.on_response(&Response::LiveEnded { id: 5 }, 0, true, &mut requests));
    assert_eq!(live.state.ended_at, None);
    // Offline (`minotty play`): the list says Live needs a server, only when shown.
    assert!(!live.on_response(&Response::Offline, 0, false, &mut requests));
    assert!(live.on_response(&Response::Offline, 0, true, &mut requests));
    assert_eq!(
        live.state.message.as_deref(),
        Some("Live needs a server: connect with ssh.")
    );
}
