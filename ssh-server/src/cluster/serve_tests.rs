//! A whole `Cluster` on tokio's paused clock (`start_paused`), without a nats-server: its NATS
//! client keeps trying to connect (to a port nothing listens on) and buffers what it is given,
//! so `serve`'s own tasks run on their real timers. Pinned: `serve` listens for one heartbeat
//! and 200 ms before choosing its room code character; its beat task forgets a peer at the
//! first sweep `DEAD_AFTER` after the peer's heartbeat (not the one before); the NATS round
//! trip is measured from the heartbeat sent to its echo.

use std::sync::Arc;
use std::time::Duration;

use tokio::time::{Instant, advance, sleep};

use super::auth::ClusterKey;
use super::wire::{self, Heartbeat};
use super::{
    Cluster, ClusterConfig, DEAD_AFTER, HEARTBEAT_EVERY, MAX_PROXIES, MAX_PROXIES_PER_PEER,
};
use crate::versus::Hub;

/// A cluster whose NATS client never connects (nothing listens on port 1).
async fn offline(name: &str) -> Arc<Cluster> {
    let config = ClusterConfig {
        nats: "nats://127.0.0.1:1".to_owned(),
        auth: None,
        tls: None,
        key: ClusterKey::new("0123456789abcdef0123456789abcdef").expect("long enough"),
        instance_name: name.to_owned(),
        drain: Duration::from_secs(30),
        max_proxies: MAX_PROXIES,
        max_proxies_per_peer: MAX_PROXIES_PER_PEER,
    };
    let client = async_nats::ConnectOptions::new()
        .retry_on_initial_connect()
        .connect(config.nats.as_str())
        .await
        .expect("a client that connects in the background");
    Cluster::with_client(client, &config, format!("{name}-00000001"))
}

fn heartbeat(c: &Cluster, id: &str) -> Vec<u8> {
    let beat = Heartbeat {
        id: id.to_owned(),
        started: c.started - 1,
        draining: false,
        prefix: b'Z',
    };
    wire::encode(&beat).expect("encodes")
}

async fn stop(c: &Cluster) {
    c.stop.cancel();
    c.tasks.close();
    c.tasks.wait().await;
}

#[tokio::test(start_paused = true)]
async fn the_beat_task_forgets_a_silent_peer_at_the_first_sweep_dead_after_its_heartbeat() {
    let c = offline("a").await;
    let hub = Arc::new(Hub::new(None, Some(1)));
    let t0 = Instant::now();
    c.serve(&hub).await.expect("serves, NATS or not");
    // It heard for one heartbeat and a little more before choosing its code character.
    assert_eq!(t0.elapsed(), HEARTBEAT_EVERY + Duration::from_millis(200));
    assert_eq!(c.instances(), 1);
    // A peer (older: it leads the queue) is heard now, at 1.2 s, and never again.
    c.on_heartbeat("b-00000002", wire::HEARTBEAT, &heartbeat(&c, "b-00000002"));
    assert_eq!((c.instances(), c.leader().as_str()), (2, "b-00000002"));
    // The sweeps run on the second from the start: at 4 s it was heard 2.8 s ago, at 5 s
    // 3.8 s ago.
    sleep(t0 + Duration::from_millis(4_500) - Instant::now()).await;
    assert_eq!(c.instances(), 2);
    sleep(Duration::from_secs(1)).await;
    assert_eq!((c.instances(), c.leader()), (1, c.id.clone()));
    assert!(Duration::from_millis(3_800) >= DEAD_AFTER);
    stop(&c).await;
    assert_eq!(c.tasks(), 0);
}

#[tokio::test(start_paused = true)]
async fn the_nats_round_trip_is_the_time_from_the_heartbeat_sent_to_its_echo() {
    let c = offline("a").await;
    assert_eq!(c.nats_rtt(), None);
    c.beat().await;
    advance(Duration::from_millis(3)).await;
    let own = c.id.clone();
    c.on_heartbeat(&own, wire::HEARTBEAT, &heartbeat(&c, &own));
    assert_eq!(c.nats_rtt(), Some(Duration::from_millis(3)));
    // Its own heartbeat makes no peer.
    assert_eq!(c.instances(), 1);
    // An echo without a heartbeat sent since leaves the figure as it was.
    advance(Duration::from_millis(5)).await;
    c.on_heartbeat(&own, wire::HEARTBEAT, &heartbeat(&c, &own));
    assert_eq!(c.nats_rtt(), Some(Duration::from_millis(3)));
}
