//! Time per suggestion of minotty-bot: in process (`brain::suggest`), and through the real
//! `minotty-bot` process (a `suggest` written to its stdin until the `suggestion` is read from
//! its stdout), over marathon games played with its own first suggestion.
//!
//! `cargo build --release -p minotty-tbp && cargo run --release -p minotty-tbp --example bot_speed`
//! (add `-- 7` to time `minotty-bot --level 7`, the engine's versus brain at that level).

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use minotty_engine::{Game, GameConfig, Mode};
use minotty_tbp::path::{execute, path_to};
use minotty_tbp::{BotMessage, FrontendMessage, TbpState, brain};

const GAMES: u32 = 4;
const PIECES: u32 = 250;

fn main() {
    let level = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .and_then(minotty_bots::versus::Level::new);
    let mut versus = level.map(|l| brain::VersusBrain::new(l, 1));
    let mut inproc = Vec::new();
    let mut lines = 0;
    let mut pieces = 0;
    for seed in 1..=GAMES {
        let mut game = marathon(seed);
        while let Some(view) = next_view(&mut game) {
            let started = Instant::now();
            let moves = match versus.as_mut() {
                Some(v) => v.suggest(&view),
                None => brain::suggest(&view),
            };
            inproc.push(started.elapsed());
            if !play(&mut game, &moves) {
                break;
            }
        }
        lines += game.stats().lines;
        pieces += game.stats().pieces;
    }
    match level {
        Some(l) => report(&format!("in process (VersusBrain, {l})"), &mut inproc),
        None => report("in process (brain::suggest)", &mut inproc),
    }
    println!("  {pieces} pieces, {lines} lines over {GAMES} games");

    let exe = std::env::current_exe().expect("this example's path");
    let bot_path = exe
        .parent()
        .and_then(|examples| examples.parent())
        .map(|dir| dir.join("minotty-bot"))
        .expect("the target directory");
    let level_args: Vec<String> = level
        .map(|l| vec![String::from("--level"), l.number().to_string()])
        .unwrap_or_default();
    let mut child = Command::new(&bot_path)
        .args(&level_args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e} (build it first)", bot_path.display()));
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    let mut send = |m: &FrontendMessage| {
        writeln!(stdin, "{}", m.to_line()).expect("written");
        stdin.flush().expect("flushed");
    };
    let mut recv = || {
        line.clear();
        stdout.read_line(&mut line).expect("read");
        serde_json::from_str::<BotMessage>(&line).expect("a message")
    };
    recv();
    send(&FrontendMessage::Rules);
    recv();
    let mut round_trips = Vec::new();
    for seed in 1..=GAMES {
        let mut game = marathon(seed);
        while let Some(view) = next_view(&mut game) {
            send(&FrontendMessage::Start(view.to_start()));
            let started = Instant::now();
            send(&FrontendMessage::Suggest);
            let BotMessage::Suggestion { moves } = recv() else {
                panic!("a suggestion");
            };
            round_trips.push(started.elapsed());
            send(&FrontendMessage::Stop);
            if !play(&mut game, &moves) {
                break;
            }
        }
    }
    send(&FrontendMessage::Quit);
    let _ = child.wait();
    report(
        "through the process (suggest -> suggestion)",
        &mut round_trips,
    );
}

fn marathon(seed: u32) -> Game {
    let mut game = Game::new(
        GameConfig {
            mode: Mode::marathon(),
            ..GameConfig::default()
        },
        seed,
    );
    game.update(0, None);
    game
}

/// The bot's view of the next piece in play, or `None` at the end.
fn next_view(game: &mut Game) -> Option<TbpState> {
    while !game.is_over() && game.stats().pieces < PIECES {
        if let Some(view) = TbpState::of_game(game, 5) {
            return Some(view);
        }
        let t = game.next_deadline()?;
        game.update(t, None);
    }
    None
}

fn play(game: &mut Game, moves: &[minotty_tbp::Move]) -> bool {
    let Some(buttons) = moves.first().and_then(|m| path_to(game, m)) else {
        return false;
    };
    let t = execute(game, &buttons);
    game.update(t + 100, None);
    true
}

fn report(what: &str, times: &mut [Duration]) {
    times.sort_unstable();
    let n = times.len().max(1);
    let mean = times.iter().sum::<Duration>() / n as u32;
    let at = |q: f64| times[((n as f64 * q) as usize).min(n - 1)];
    println!(
        "{what}: {} suggestions, mean {:?}, p50 {:?}, p99 {:?}, max {:?}",
        times.len(),
        mean,
        at(0.5),
        at(0.99),
        times.last().copied().unwrap_or_default()
    );
}
