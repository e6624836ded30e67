//! The heartbeat's timed rules on tokio's paused clock (`start_paused`): the beat's pace, a
//! stalled beat that never holds up the sweep, a peer forgotten exactly [`DEAD_AFTER`] after
//! its last heartbeat (after three missed ones, not one sweep before), and this instance's own
//! link found down exactly [`SILENT_AFTER`] after its heartbeat last came back.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_nats::connection::State;
use tokio::time::{Instant, advance, sleep};
use tokio_util::sync::CancellationToken;

use super::link::{NatsLink, SILENT_AFTER};
use super::liveness::{Heard, forget_dead, heard, pace};
use super::wire::Heartbeat;
use super::{DEAD_AFTER, HEARTBEAT_EVERY, MAX_PEERS, Peer, lock};

const MS: Duration = Duration::from_millis(1);

fn beat(id: &str) -> Heartbeat {
    Heartbeat {
        id: id.to_owned(),
        started: 1,
        draining: false,
        prefix: b'K',
    }
}

fn secs(s: &[u64]) -> Vec<Duration> {
    s.iter().map(|&s| Duration::from_secs(s)).collect()
}

#[tokio::test(start_paused = true)]
async fn a_peer_is_dead_exactly_dead_after_its_last_heartbeat_and_a_beat_renews_it() {
    let mut peers = HashMap::new();
    assert_eq!(heard(&mut peers, beat("b"), Instant::now()), Heard::Joined);
    advance(DEAD_AFTER - MS).await;
    assert!(forget_dead(&mut peers, Instant::now()).is_empty());
    assert!(peers.contains_key("b"));
    advance(MS).await;
    assert_eq!(
        forget_dead(&mut peers, Instant::now()),
        vec!["b".to_owned()]
    );
    assert!(peers.is_empty());

    // Heard again later: its time runs from that heartbeat.
    assert_eq!(heard(&mut peers, beat("b"), Instant::now()), Heard::Joined);
    advance(Duration::from_secs(2)).await;
    assert_eq!(heard(&mut peers, beat("b"), Instant::now()), Heard::Again);
    advance(Duration::from_secs(2)).await;
    assert!(forget_dead(&mut peers, Instant::now()).is_empty());
    advance(DEAD_AFTER - Duration::from_secs(2)).await;
    assert_eq!(forget_dead(&mut peers, Instant::now()).len(), 1);
}

#[tokio::test(start_paused = true)]
async fn a_full_peer_map_takes_no_newcomer_but_hears_its_own() {
    let mut peers = HashMap::new();
    let now = Instant::now();
    for i in 0..MAX_PEERS {
        assert_eq!(
            heard(&mut peers, beat(&format!("p{i}")), now),
            Heard::Joined
        );
    }
    assert_eq!(heard(&mut peers, beat("late"), now), Heard::OverCap);
    assert_eq!(peers.len(), MAX_PEERS);
    advance(DEAD_AFTER - MS).await;
    // A known peer's heartbeat still counts: it outlives the others.
    assert_eq!(heard(&mut peers, beat("p0"), Instant::now()), Heard::Again);
    advance(MS).await;
    assert_eq!(forget_dead(&mut peers, Instant::now()).len(), MAX_PEERS - 1);
    assert_eq!(
        heard(&mut peers, beat("late"), Instant::now()),
        Heard::Joined
    );
    assert_eq!(peers.len(), 2);
}

/// What the beat's loop did: when each sweep came (since the start) and how many peers were
/// left after it, and how many beats it started.
#[derive(Default)]
struct Seen {
    sweeps: Vec<(Duration, usize)>,
    beats: usize,
}

/// Runs [`pace`] over `peers` as the cluster does (a sweep forgets the dead); `stall`: every
/// beat hangs (a link that takes no more).
fn start_pace(
    peers: &Arc<Mutex<HashMap<String, Peer>>>,
    stall: bool,
) -> (
    Arc<Mutex<Seen>>,
    CancellationToken,
    tokio::task::JoinHandle<()>,
) {
    let t0 = Instant::now();
    let seen = Arc::new(Mutex::new(Seen::default()));
    let stop = CancellationToken::new();
    let (beats, sweeps, peers) = (Arc::clone(&seen), Arc::clone(&seen), Arc::clone(peers));
    let task = tokio::spawn(pace(
        stop.clone(),
        move || {
            lock(&beats).beats += 1;
            async move {
                if stall {
                    std::future::pending::<()>().await;
                }
            }
        },
        move |now| {
            let mut peers = lock(&peers);
            forget_dead(&mut peers, now);
            lock(&sweeps).sweeps.push((now - t0, peers.len()));
        },
    ));
    (seen, stop, task)
}

#[tokio::test(start_paused = true)]
async fn the_sweep_forgets_a_peer_after_three_missed_heartbeats_not_one_sweep_before() {
    let t0 = Instant::now();
    let peers = Arc::new(Mutex::new(HashMap::new()));
    // The peer beats on the second, as this instance does; its last heartbeat is at 2 s.
    for at in [0, 1, 2] {
        heard(&mut lock(&peers), beat("b"), t0 + Duration::from_secs(at));
    }
    let (seen, stop, task) = start_pace(&peers, false);
    sleep(Duration::from_millis(6_500)).await;
    stop.cancel();
    task.await.expect("the beat's loop ends when stopped");
    let seen = lock(&seen);
    let sweeps: Vec<(u64, usize)> = seen.sweeps.iter().map(|(t, n)| (t.as_secs(), *n)).collect();
    // Heartbeats due at 3, 4 and 5 s missed: gone at the sweep of 5 s, there at that of 4 s.
    assert_eq!(
        sweeps,
        [(0, 1), (1, 1), (2, 1), (3, 1), (4, 1), (5, 0), (6, 0)]
    );
    assert_eq!(
        seen.sweeps.iter().map(|(t, _)| *t).collect::<Vec<_>>(),
        secs(&[0, 1, 2, 3, 4, 5, 6])
    );
    assert_eq!(seen.beats, 7);
    assert_eq!(DEAD_AFTER, 3 * HEARTBEAT_EVERY);
}

#[tokio::test(start_paused = true)]
async fn a_stalled_beat_is_given_up_after_one_heartbeat_and_the_sweep_still_comes() {
    let peers = Arc::new(Mutex::new(HashMap::new()));
    heard(&mut lock(&peers), beat("b"), Instant::now());
    let (seen, stop, task) = start_pace(&peers, true);
    sleep(Duration::from_millis(4_500)).await;
    {
        let seen = lock(&seen);
        let at: Vec<Duration> = seen.sweeps.iter().map(|(t, _)| *t).collect();
        // Each beat hangs for its whole heartbeat, then the sweep runs; the peer heard at 0
        // is forgotten at 3 s all the same.
        assert_eq!(at, secs(&[1, 2, 3, 4]));
        assert_eq!(seen.sweeps[1].1, 1);
        assert_eq!(seen.sweeps[2].1, 0);
        assert_eq!(seen.beats, 5);
    }
    stop.cancel();
    task.await
        .expect("the beat's loop ends when stopped, even mid-beat");
}

#[tokio::test(start_paused = true)]
async fn the_own_link_is_down_exactly_silent_after_its_heartbeat_last_came_back() {
    let link = NatsLink::new(Instant::now());
    advance(SILENT_AFTER - MS).await;
    assert!(!link.check(&State::Connected, Instant::now()));
    advance(MS).await;
    assert!(link.check(&State::Connected, Instant::now()));
    // The heartbeat back: up at once, and down again SILENT_AFTER later.
    link.echoed(Instant::now());
    assert!(!link.check(&State::Connected, Instant::now()));
    advance(SILENT_AFTER - MS).await;
    assert!(!link.check(&State::Connected, Instant::now()));
    advance(MS).await;
    assert!(link.check(&State::Connected, Instant::now()));
    // Down before the silent peers are dead, in the same sweep.
    assert!(SILENT_AFTER < DEAD_AFTER);
}
