use minotty_engine::{Button, Game, GameConfig, Input, Mode, Piece, Playback, Replay, Time};

use super::frame::{self, ACTIVE, HEADER};
use super::*;

/// A game of `n` pieces played by a fixed pattern of taps (an LCG picks the moves), recorded.
fn recorded(mode: Mode, seed: u32, n: u32) -> Replay {
    let mut game = Game::new(
        GameConfig {
            mode,
            ..GameConfig::default()
        },
        seed,
    );
    let mut t = 0;
    let mut x = seed;
    game.update(0, None);
    for _ in 0..n {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        let moves = [Button::Left, Button::Right, Button::RotateCw, Button::Hold];
        for k in 0..(x >> 16) % 4 {
            let b = moves[((x >> (20 + k)) % 4) as usize];
            t += 40;
            game.update(t, Some(Input::Press(b)));
            t += 30;
            game.update(t, Some(Input::Release(b)));
        }
        t += 50 + u64::from((x >> 24) % 200);
        game.update(t, Some(Input::Press(Button::HardDrop)));
        t += 20;
        game.update(t, Some(Input::Release(Button::HardDrop)));
        if game.is_over() {
            break;
        }
    }
    game.update(t + 500, None);
    game.replay()
}

fn sprint(seed: u32) -> Replay {
    recorded(Mode::sprint(), seed, 120)
}

#[test]
fn the_end_is_the_servers_re_simulation() {
    for seed in [1, 7, 42, 9_001] {
        let replay = sprint(seed);
        let played = replay.play().unwrap();
        let mut viewer = Viewer::open(&replay.to_bytes()).unwrap();
        viewer.seek(Time::MAX);
        assert_eq!(viewer.now(), replay.end);
        assert_eq!(viewer.game().stats(), played.stats(), "seed {seed}");
        assert_eq!(viewer.game().board(), played.board(), "seed {seed}");
        assert_eq!(viewer.game().outcome(), played.outcome());
        assert_eq!(viewer.board_text(), played.board().to_ascii().join("/"));
        assert!(!viewer.board_text().is_empty(), "a game leaves a stack");
    }
}

#[test]
fn any_order_of_seeks_shows_what_playing_straight_shows() {
    let replay = sprint(42);
    let end = replay.end;
    let mut viewer = Viewer::new(replay.clone()).unwrap();
    let mut x = 5u64;
    for step in 0..300 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        // Small steps forward (playing), with a jump anywhere now and then (seeking).
        let t = if step % 7 == 0 {
            (x >> 8) % (end + 1)
        } else {
            (viewer.now() + 16 * (x >> 28)).min(end)
        };
        viewer.seek(t);
        let mut straight = Playback::new(replay.clone()).unwrap();
        straight.advance_to(t);
        assert_eq!(viewer.now(), t);
        assert_eq!(viewer.game().board(), straight.game().board(), "at {t}");
        assert_eq!(viewer.game().stats(), straight.game().stats(), "at {t}");
        assert_eq!(
            viewer.game().active().map(|a| a.placed),
            straight.game().active().map(|a| a.placed),
            "at {t}"
        );
        assert_eq!(viewer.frame(), Frame::of(straight.game(), end), "at {t}");
    }
}

#[test]
fn a_long_game_keeps_a_bounded_number_of_checkpoints() {
    // An hour of nothing pressed in zen-like gravity: the replay's length alone sets the count.
    let mut replay = sprint(3);
    replay.end = 3_600_000;
    let mut viewer = Viewer::new(replay.clone()).unwrap();
    viewer.seek(Time::MAX);
    assert!(
        viewer.checkpoints() <= MAX_CHECKPOINTS,
        "{}",
        viewer.checkpoints()
    );
    let taken = viewer.checkpoints();
    // Seeking back and playing on again takes none twice.
    viewer.seek(1_000);
    viewer.seek(Time::MAX);
    assert_eq!(viewer.checkpoints(), taken);
    // A short game: one each CHECKPOINT_EVERY.
    let short = sprint(4);
    let mut viewer = Viewer::new(short.clone()).unwrap();
    viewer.seek(Time::MAX);
    assert_eq!(
        viewer.checkpoints() as u64,
        1 + short.end / CHECKPOINT_EVERY,
        "end {}",
        short.end
    );
}

#[test]
fn bytes_that_are_not_a_replay_are_refused() {
    let good = sprint(9).to_bytes();
    let mut cases: Vec<Vec<u8>> = vec![
        vec![],
        b"<script>alert(1)</script>".to_vec(),
        vec![0xff; 4096],
        vec![0; MAX_REPLAY_BYTES + 1],
    ];
    for cut in [1, 4, good.len() / 2, good.len() - 1] {
        cases.push(good[..cut].to_vec());
    }
    for (i, bytes) in cases.iter().enumerate() {
        assert!(Viewer::open(bytes).is_err(), "case {i} opened");
    }
    assert!(Viewer::open(&good).is_ok());
}

#[test]
fn a_frame_shows_the_piece_in_play_at_the_top_and_the_queue() {
    let replay = sprint(11);
    let viewer = Viewer::new(replay).unwrap();
    let frame = viewer.frame();
    let w = &frame.0;
    assert_eq!(w[frame::W_LAYOUT], frame::LAYOUT);
    assert_eq!((w[frame::W_WIDTH], w[frame::W_ROWS]), (10, ROWS as u32));
    let game = viewer.game();
    let active = game.active().expect("a piece spawned at 0").placed;
    let code = Piece::ALL.iter().position(|&p| p == active.piece).unwrap() as u32 + 1;
    let shown: Vec<usize> = (0..ROWS * 10)
        .filter(|&i| frame.cells()[i] == ACTIVE + code)
        .collect();
    assert_eq!(shown.len(), 4, "{:?}", frame.cells());
    // The spawn rows are the two just above the visible field or the field's top rows.
    assert!(shown.iter().all(|&i| i / 10 < ROWS_ABOVE + 2), "{shown:?}");
    let queue: Vec<u32> = game.preview().take(6).map(|p| p as u32 + 1).collect();
    let count = w[frame::W_PREVIEW_COUNT] as usize;
    assert_eq!(&w[frame::W_PREVIEW..frame::W_PREVIEW + count], &queue[..]);
    assert_eq!(w.len(), HEADER + ROWS * 10);
}

#[test]
fn the_exported_functions_open_seek_and_report() {
    let replay = sprint(21);
    let bytes = replay.to_bytes();
    let buffer = abi::mt_buffer(bytes.len() as u32);
    assert!(!buffer.is_null());
    assert!(abi::mt_buffer((MAX_REPLAY_BYTES + 1) as u32).is_null());
    // What the script does: write into the buffer it was given (here, through the same
    // thread-local the pointer points into).
    abi::fill_for_test(&bytes);
    assert_eq!(abi::mt_open(), abi::OPENED);
    assert_eq!(u64::from(abi::mt_end()), replay.end);
    abi::mt_seek(u32::MAX);
    let played = replay.play().unwrap();
    abi::mt_text();
    assert_eq!(abi::text_for_test(), played.board().to_ascii().join("/"));
    abi::fill_for_test(b"not a replay");
    assert_eq!(abi::mt_open(), abi::MALFORMED);
    assert_eq!(abi::mt_end(), 0);
}
