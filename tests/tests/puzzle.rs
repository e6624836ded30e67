//! End to end: a player over SSH picks puzzle mode, plays stage 1's stored solution with the
//! default keys, one key at a time like a person, and reads that stage 2 has begun.

use std::time::Duration;

use minotty_engine::puzzle;
use minotty_engine::{
    Button, EventKind, Game, GameConfig, Input, Mode, ModeKind, Placed, RulesetId,
};
use minotty_tests::menu::ada_at_the_modes;
use minotty_tests::{TestServer, WAIT, keys};

/// The default keys of the buttons a short path may use (sonic drop and the half turn have no
/// default key, so the search below does without them).
const KEYS: [(Button, &[u8]); 5] = [
    (Button::Left, keys::LEFT),
    (Button::Right, keys::RIGHT),
    (Button::RotateCw, b"x"),
    (Button::RotateCcw, b"z"),
    (Button::HardDrop, keys::HARD_DROP),
];

/// Where `buttons` pressed on `game` at one instant lock the piece.
fn locks_at(game: &Game, buttons: &[Button]) -> Option<Placed> {
    let mut g = game.clone();
    let t = g.now();
    let mut at = None;
    for &b in buttons {
        for input in [Input::Press(b), Input::Release(b)] {
            for e in g.update(t, Some(input)) {
                if let EventKind::Lock { at: p, .. } = e.kind {
                    at = Some(p);
                }
            }
        }
    }
    at
}

/// The fewest default-key taps (moves and turns, then a hard drop) that lock stage 1's piece
/// where its stored solution puts it.
fn stage_one_keys() -> Vec<Button> {
    let mut game = Game::new(
        GameConfig {
            ruleset: RulesetId::Tetrs,
            mode: Mode::puzzle(1),
            ..GameConfig::default()
        },
        1,
    );
    game.update(0, None);
    let target = puzzle::stage(1).solution().expect("a solution")[0].canonical();
    let moves = [
        Button::Left,
        Button::Right,
        Button::RotateCw,
        Button::RotateCcw,
    ];
    let mut paths: Vec<Vec<Button>> = vec![Vec::new()];
    for _ in 0..=4 {
        for path in &paths {
            let mut with_drop = path.clone();
            with_drop.push(Button::HardDrop);
            if locks_at(&game, &with_drop).map(|p| p.canonical()) == Some(target) {
                return with_drop;
            }
        }
        paths = paths
            .iter()
            .flat_map(|p| {
                moves.iter().map(move |&m| {
                    let mut next = p.clone();
                    next.push(m);
                    next
                })
            })
            .collect();
    }
    panic!("no short path to {target:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_clears_stage_one_over_ssh_and_stage_two_begins() -> anyhow::Result<()> {
    let path = stage_one_keys();
    let server = TestServer::start().await?;
    let (_conn, mut s) = ada_at_the_modes(&server).await?;
    let at = ModeKind::ALL
        .iter()
        .position(|&k| k == ModeKind::Puzzle)
        .expect("puzzle is a mode");
    for _ in 0..at {
        s.send(keys::DOWN).await?;
        s.pump_for(Duration::from_millis(30)).await;
    }
    s.wait_for_text("Start at stage", WAIT).await?;
    assert!(s.contents().contains("First Drop"), "{}", s.contents());
    s.send(keys::ENTER).await?;
    s.wait_for_text("STAGE 1/24", WAIT).await?;
    s.wait_for_text("attempt 1/5", WAIT).await?;
    // The countdown, then the piece; the keys go one at a time, far enough apart that no
    // terminal would take two for a held key.
    s.wait_until("the countdown to end", Duration::from_secs(10), |screen| {
        !screen.contents().contains("GO!")
            && minotty_tests::board::find(screen).is_some_and(|b| b.has_piece)
    })
    .await?;
    s.pump_for(Duration::from_millis(700)).await;
    for b in path {
        let key = KEYS
            .iter()
            .find(|(k, _)| *k == b)
            .map(|(_, bytes)| *bytes)
            .expect("a default key");
        s.send(key).await?;
        s.pump_for(Duration::from_millis(350)).await;
    }
    s.wait_for_text("STAGE 2/24", WAIT).await?;
    let text = s.contents();
    assert!(text.contains(puzzle::stage(2).name), "{text}");
    assert!(text.contains("attempt 1/5"), "{text}");
    assert_eq!(s.quit().await?, Some(0));
    Ok(())
}
