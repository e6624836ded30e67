//! Drains that protect every player (issue 24, item 2), end to end: `nats-server`, one
//! database, real `minotty serve` processes and real SSH clients.
//!
//! A ranked room opens on the queue's leader (A, the oldest instance), so B's ranked players
//! play in rooms A owns. SIGTERM to B must wait for those matches (not only for rooms B owns),
//! let them end as the games decide, hand B's players nothing new meanwhile, and only then
//! stop; then the same for A (a rolling upgrade of both), and nobody has a rated loss they did
//! not play. A drain that runs out of time abandons the match, unrated, on both sides.

use std::collections::BTreeMap;
use std::time::Duration;

use minotty_tests::across::match_across;
use minotty_tests::autoplay::{K_ENTER, kitty_tap, kitty_text};
use minotty_tests::cluster::{Instance, two_instances};
use minotty_tests::versus::{drop_piece, fields, guest, registered, versus_item, wait_for_play};
use minotty_tests::{Connection, Login, PtySession, WAIT};

/// How long the tests let a drain run (longer than any match here lasts: a drain waits for
/// whole ranked series, three games each, ten seconds apart).
const DRAIN: Duration = Duration::from_secs(300);
/// Games a ranked series of two new players (1500) lasts when one loses every game.
const SERIES_GAMES: usize = 3;

/// `first` (on its instance) queues for a ranked match and waits, then `second` queues on
/// its own: the leader pairs them, and both play.
async fn ranked_pair(first: &mut PtySession, second: &mut PtySession) {
    versus_item(first, 0).await.expect("queues");
    first.wait_for_text("1500", WAIT).await.expect("waits");
    versus_item(second, 0).await.expect("queues");
    wait_for_play(first).await.expect("the first plays");
    wait_for_play(second).await.expect("the second plays");
}

/// Hard-drops piece after piece until the player tops out and the match's results show.
async fn top_out(s: &mut PtySession) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while !s.contents().contains("MATCH RESULTS") {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the player never topped out:\n{}",
            s.contents()
        );
        drop_piece(s).await;
        s.pump_for(Duration::from_millis(60)).await;
    }
}

/// The next game of `s`'s series has started (its results are gone, a board shows).
async fn next_game(s: &mut PtySession) {
    s.wait_until("the series' next game", Duration::from_secs(45), |s| {
        !s.contents().contains("MATCH RESULTS")
    })
    .await
    .expect("the series' next game starts by itself");
    wait_for_play(s).await.expect("plays the next game");
}

/// The signed rating changes a results screen shows ("+162", "-162").
fn rating_changes(text: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .split_whitespace()
        .filter(|t| {
            t.len() > 1
                && (t.starts_with('+') || t.starts_with('-'))
                && t[1..].chars().all(|c| c.is_ascii_digit())
        })
        .map(str::to_owned)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The match between `winner` and `loser` (who topped out) ended as the game decided it, and
/// both screens say so: the winner's "You win!", the loser's "Defeat", nobody "left" (a
/// forfeit), and in a ranked match the same rating changes on both screens.
async fn both_screens_agree(winner: &mut PtySession, loser: &mut PtySession, ranked: bool) {
    winner
        .wait_for_text("You win!", WAIT)
        .await
        .expect("the winner's results");
    loser
        .wait_for_text("Defeat", WAIT)
        .await
        .expect("the loser's results");
    if ranked {
        for s in [&mut *winner, &mut *loser] {
            s.wait_until("the rating changes", WAIT, |s| {
                rating_changes(&s.contents()).len() == 2
            })
            .await
            .expect("both players' rating changes shown");
        }
    }
    let (w, l) = (winner.contents(), loser.contents());
    for text in [&w, &l] {
        assert!(
            !text.contains(" left") && !text.contains("restarting"),
            "a forfeit or a cut:\n{text}"
        );
    }
    assert_eq!(
        rating_changes(&w),
        rating_changes(&l),
        "both screens tell one result:\n{w}\n{l}"
    );
}

/// What the versus leaderboard of the instance at `addr` says of each of `names`: (games,
/// wins); read again (for a while) until `want` of them are listed.
async fn rated(
    addr: std::net::SocketAddr,
    names: &[&str],
    want: usize,
) -> BTreeMap<String, (u32, u32)> {
    let deadline = tokio::time::Instant::now() + WAIT;
    // One connection, read again (new connections every 300 ms would meet the per-address
    // connection budget).
    let conn = Connection::open(addr, "reader", Login::Guest)
        .await
        .expect("connects");
    loop {
        let out = conn
            .exec("leaderboard versus", false)
            .await
            .expect("leaderboard");
        let mut found = BTreeMap::new();
        for line in out.stdout.lines() {
            let tokens: Vec<&str> = line.split_whitespace().collect();
            let Some(at) = tokens.iter().position(|t| names.contains(t)) else {
                continue;
            };
            let Some(pm) = tokens[at..].iter().position(|t| t.starts_with('±')) else {
                continue;
            };
            // After the deviation: the rank ("placement 1/10" or a letter), then the series
            // rated and won, the first two plain numbers.
            let mut nums = tokens[at + pm + 1..]
                .iter()
                .filter_map(|t| t.parse::<u32>().ok());
            if let (Some(games), Some(wins)) = (nums.next(), nums.next()) {
                found.insert(tokens[at].to_owned(), (games, wins));
            }
        }
        if found.len() >= want || tokio::time::Instant::now() > deadline {
            if found.len() < want {
                eprintln!("the versus board:\n{}", out.stdout);
            }
            return found;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}

/// A screen's text as prose: without the frame's borders, lines joined (a wrapped message
/// reads whole).
fn prose(text: &str) -> String {
    text.replace(['│', '┃', '║'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// An instance's log without colours.
fn log_of(i: &Instance) -> String {
    let raw = std::fs::read_to_string(&i.log).unwrap_or_default();
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A player of the draining instance asks for something new from the versus menu (`item`:
/// 0 quick match, 3 watch by code, with `code` typed) and is told the server restarts; no
/// match starts for them.
async fn refused(s: &mut PtySession, item: usize, code: Option<&str>) {
    versus_item(s, item).await.expect("a versus menu entry");
    if let Some(code) = code {
        s.pump_for(Duration::from_millis(100)).await;
        s.send(&kitty_text(&code.to_lowercase()))
            .await
            .expect("types");
        s.send(&kitty_tap(K_ENTER)).await.expect("enter");
    }
    s.wait_for_text("restarting", WAIT)
        .await
        .expect("a draining instance hands its player nothing new");
    s.pump_for(Duration::from_millis(1500)).await;
    let text = s.contents();
    assert!(
        fields(s.screen()).is_empty() && !text.contains("spectating") && !text.contains("1500"),
        "no match, no watching, no queue for a player of a draining instance:\n{text}"
    );
}

/// ann (on A) and bob (on B) registered and paired for a ranked match (in A's room).
async fn ann_and_bob_ranked(
    a: &Instance,
    b: &Instance,
) -> ((Connection, PtySession), (Connection, PtySession)) {
    minotty_tests::versus::ranked_pair(a.addr, b.addr)
        .await
        .expect("ann on A and bob on B, paired for ranked")
}

/// SIGTERM to `i` (`name` in messages) in a task of its own: it drains, then stops; the task
/// hands the instance back once it stopped (see [`drained`]).
fn draining(mut i: Instance, name: &'static str) -> tokio::task::JoinHandle<Instance> {
    tokio::spawn(async move {
        i.stop()
            .await
            .unwrap_or_else(|e| panic!("{name} stops cleanly: {e:#}"));
        i
    })
}

/// The instance `stopping` stops, once it stopped (`what`: the message if it does not within
/// 60 s).
async fn drained(stopping: tokio::task::JoinHandle<Instance>, what: &str) -> Instance {
    tokio::time::timeout(Duration::from_secs(60), stopping)
        .await
        .expect(what)
        .expect("the stopping task")
}

/// Once the store would have had a result (6 s), neither ann nor bob is on the versus board of
/// the instance at `addr`: the match was not rated.
async fn ann_and_bob_not_rated(addr: std::net::SocketAddr) {
    tokio::time::sleep(Duration::from_secs(6)).await;
    let board = rated(addr, &["ann", "bob"], 0).await;
    assert!(
        board.is_empty(),
        "an abandoned match is not rated: {board:?}"
    );
}

/// A rolling upgrade under load. SIGTERM to B while three matches in rooms of A (two ranked,
/// one not) each have a player of B: B waits for them all, its players can start nothing new
/// (a spectator of B in A's room is let go at once), each match ends as its games decide
/// (one player tops out of every game: a ranked series of first to 3 goes on by itself between
/// games, and the drain waits through those pauses), and B stops only then. B starts again;
/// SIGTERM to A with two ranked series in its rooms between players of A and B: the same. At the end every player's
/// rated result is the one they played: a loss for exactly those who topped out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rolling_upgrade_lets_every_match_end_as_played() {
    let Some((shared, mut a, b)) = two_instances(
        "a_rolling_upgrade_lets_every_match_end_as_played",
        None,
        DRAIN,
    )
    .await
    .expect("nats-server, a database and two instances") else {
        return;
    };

    // ---- three matches in rooms of A, each with a player of B ----
    let (_c1, mut ann) = registered(a.addr, "ann").await.expect("ann on A");
    let (_c2, mut bob) = registered(b.addr, "bob").await.expect("bob on B");
    ranked_pair(&mut ann, &mut bob).await;
    let (_c3, mut cat) = registered(a.addr, "cat").await.expect("cat on A");
    let (_c4, mut dan) = registered(b.addr, "dan").await.expect("dan on B");
    ranked_pair(&mut cat, &mut dan).await;
    let ((_c5, mut eve), (_c6, mut fay), code) = match_across(a.addr, b.addr, "eve", "fay").await;
    let (_c7, mut ivy) = guest(b.addr, "ivy").await.expect("ivy on B");
    versus_item(&mut ivy, 3).await.expect("watch by code");
    ivy.pump_for(Duration::from_millis(100)).await;
    ivy.send(&kitty_text(&code.to_lowercase()))
        .await
        .expect("types");
    ivy.send(&kitty_tap(K_ENTER)).await.expect("enter");
    ivy.wait_for_text("spectating", WAIT)
        .await
        .expect("ivy watches the match from B");
    let (_c8, mut gil) = registered(b.addr, "gil").await.expect("gil on B");
    let (_c9, mut hal) = guest(b.addr, "hal").await.expect("hal on B");

    // ---- SIGTERM to B ----
    let stopping = draining(b, "B");
    ivy.wait_for_text("restarting", WAIT)
        .await
        .expect("B's spectator of a match elsewhere is let go, told why");
    refused(&mut gil, 0, None).await;
    refused(&mut hal, 3, Some(&code)).await;
    // The matches go on, and B with them.
    for p in [&mut bob, &mut dan, &mut fay] {
        drop_piece(p).await;
        p.pump_for(Duration::from_millis(300)).await;
        assert!(
            !p.contents().contains("MATCH RESULTS") && !p.contents().contains("closed"),
            "the match goes on while B drains:\n{}",
            p.contents()
        );
    }
    assert!(
        !stopping.is_finished(),
        "B waits for its players' matches in A's rooms"
    );

    // Each ends as its games decide: fay (B) tops out of the unranked match; bob (B) and cat
    // (A) top out of every game of their ranked series, which goes on by itself between
    // games (and B waits through those pauses).
    top_out(&mut fay).await;
    both_screens_agree(&mut eve, &mut fay, false).await;
    for game in 0..SERIES_GAMES {
        if game > 0 {
            next_game(&mut bob).await;
            next_game(&mut cat).await;
        }
        top_out(&mut bob).await;
        top_out(&mut cat).await;
        assert!(
            !stopping.is_finished(),
            "B waits for its players' series (game {game})"
        );
    }
    both_screens_agree(&mut ann, &mut bob, true).await;
    assert!(!stopping.is_finished(), "one series still runs");
    both_screens_agree(&mut dan, &mut cat, true).await;
    let b = drained(stopping, "B stops once its players' matches ended").await;
    let log = log_of(&b);
    assert!(
        log.contains("remote_matches=3") && log.contains("drained: no match is running"),
        "B's drain counted its players' three matches elsewhere:\n{log}"
    );
    assert!(a.is_running());
    drop(b);

    // ---- B is back; SIGTERM to A with two ranked matches in its rooms ----
    let mut b = Instance::start(
        shared.dir.path(),
        &shared.db,
        &shared.nats.url,
        "b2",
        None,
        DRAIN,
    )
    .await
    .expect("B starts again");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let (_d1, mut jon) = registered(a.addr, "jon").await.expect("jon on A");
    let (_d2, mut kit) = registered(b.addr, "kit").await.expect("kit on B");
    ranked_pair(&mut jon, &mut kit).await;
    let (_d3, mut mia) = registered(a.addr, "mia").await.expect("mia on A");
    let (_d4, mut lou) = registered(b.addr, "lou").await.expect("lou on B");
    ranked_pair(&mut mia, &mut lou).await;
    let (_d5, mut ned) = registered(a.addr, "ned").await.expect("ned on A");
    let stopping = draining(a, "A");
    refused(&mut ned, 0, None).await;
    assert!(
        !stopping.is_finished(),
        "A waits for the matches in its rooms"
    );
    for game in 0..SERIES_GAMES {
        if game > 0 {
            next_game(&mut kit).await;
            next_game(&mut mia).await;
        }
        top_out(&mut kit).await;
        top_out(&mut mia).await;
        assert!(
            !stopping.is_finished(),
            "A waits for the series in its rooms (game {game})"
        );
    }
    both_screens_agree(&mut jon, &mut kit, true).await;
    both_screens_agree(&mut lou, &mut mia, true).await;
    let a = drained(stopping, "A stops once its matches ended").await;
    assert!(
        log_of(&a).contains("local_rooms=2"),
        "A's drain counted its two rooms' matches:\n{}",
        log_of(&a)
    );
    assert!(b.is_running());

    // ---- every rated result is the one played ----
    let toppled = ["bob", "cat", "kit", "mia"];
    let winners = ["ann", "dan", "jon", "lou"];
    let all: Vec<&str> = toppled.iter().chain(&winners).copied().collect();
    let board = rated(b.addr, &all, all.len()).await;
    assert_eq!(
        board.len(),
        all.len(),
        "every ranked player is rated: {board:?}"
    );
    let unplayed_losses = board
        .iter()
        .filter(|(name, (games, wins))| games > wins && !toppled.contains(&name.as_str()))
        .count();
    assert_eq!(unplayed_losses, 0, "rated losses nobody played: {board:?}");
    for name in toppled {
        assert_eq!(
            board[name],
            (1, 0),
            "{name} lost the match they topped out in"
        );
    }
    for name in winners {
        assert_eq!(board[name], (1, 1), "{name} won");
    }
    drop((a, b));
    shared.release().await.expect("drops the database");
}

/// B's drain time runs out while its player still plays in a room of A: the match is
/// abandoned, unrated, on both sides (as when an instance is lost), and both players are
/// told so; it is not stored as a forfeit of B's player.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_drain_out_of_time_abandons_the_match_on_both_sides() {
    let Some((shared, a, b)) = two_instances(
        "a_drain_out_of_time_abandons_the_match_on_both_sides",
        None,
        Duration::from_secs(6),
    )
    .await
    .expect("nats-server, a database and two instances") else {
        return;
    };
    let ((_c1, mut ann), (_c2, mut bob)) = ann_and_bob_ranked(&a, &b).await;
    let stopping = draining(b, "B");
    bob.wait_for_text("abandoned", Duration::from_secs(30))
        .await
        .expect("B's player is told the match is abandoned");
    assert!(
        prose(&bob.contents()).contains("not rated"),
        "{}",
        bob.contents()
    );
    ann.wait_for_text("abandoned", Duration::from_secs(30))
        .await
        .expect("A's player is told the match is abandoned");
    let text = prose(&ann.contents());
    assert!(
        text.contains("not rated") && !text.contains("You win!"),
        "{text}"
    );
    let b = drained(stopping, "B stops").await;
    let log = log_of(&b);
    assert!(
        log.contains("remote_matches=1") && log.contains("abandoned"),
        "B's drain waited for the match, then abandoned it:\n{log}"
    );
    // Nothing was rated: neither player is on the board (once A would have stored a result).
    ann_and_bob_not_rated(a.addr).await;
    drop((a, b));
    shared.release().await.expect("drops the database");
}

/// The owner's drain time runs out (A, the leader, owns the ranked room) while its match with
/// a player of B runs: the match is abandoned, unrated, and B's player is told so (not only
/// that the room closed).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_owners_drain_out_of_time_tells_the_other_side_the_match_is_not_rated() {
    let Some((shared, a, b)) = two_instances(
        "an_owners_drain_out_of_time_tells_the_other_side_the_match_is_not_rated",
        None,
        Duration::from_secs(4),
    )
    .await
    .expect("nats-server, a database and two instances") else {
        return;
    };
    let ((_c1, mut ann), (_c2, mut bob)) = ann_and_bob_ranked(&a, &b).await;
    let stopping = draining(a, "A");
    // Told by A's room as it closes ("...: the match is abandoned, not rated"), or, should
    // that not leave A before it exits, by B once A is silent ("...: the match is not rated").
    bob.wait_until("the match is not rated", Duration::from_secs(30), |s| {
        prose(&s.contents()).contains("not rated")
    })
    .await
    .expect("B's player is told the match in A's room is not rated");
    assert!(!bob.contents().contains("You win!"), "{}", bob.contents());
    let a = drained(stopping, "A stops").await;
    assert!(log_of(&a).contains("local_rooms=1"), "{}", log_of(&a));
    // A's own player, whose session A ends, reads the match's fate after the game screen is
    // gone, not only that the server restarts.
    ann.wait_until("the match's fate", Duration::from_secs(30), |s| {
        let text = prose(&s.contents());
        text.contains("minotty: the server is restarting.") && text.contains("abandoned, not rated")
    })
    .await
    .expect("A's player is told the match is abandoned, not rated");
    ann_and_bob_not_rated(b.addr).await;
    drop((a, b));
    shared.release().await.expect("drops the database");
}
