//! The `minotty-bot` binary, spoken to line by line over its stdin and stdout as a frontend
//! would: info, rules, ready, start, suggest, suggestion, play, new_piece ..., stop, quit.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use minotty_engine::{Game, GameConfig};
use minotty_tbp::path::{execute, path_to};
use minotty_tbp::{BotMessage, FrontendMessage, TbpState};

struct Bot {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Bot {
    fn start(args: &[&str]) -> Bot {
        let mut child = Command::new(env!("CARGO_BIN_EXE_minotty-bot"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("minotty-bot starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Bot {
            child,
            stdin,
            stdout,
        }
    }

    fn send(&mut self, message: &FrontendMessage) {
        writeln!(self.stdin, "{}", message.to_line()).expect("written");
        self.stdin.flush().expect("flushed");
    }

    fn recv(&mut self) -> BotMessage {
        let mut line = String::new();
        self.stdout.read_line(&mut line).expect("a line");
        assert!(line.ends_with('\n'), "a whole line: {line:?}");
        serde_json::from_str(&line).expect("a TBP message")
    }
}

#[test]
fn a_whole_game_over_stdin_and_stdout() {
    let mut bot = Bot::start(&[]);
    let BotMessage::Info {
        name,
        version,
        author,
        features,
    } = bot.recv()
    else {
        panic!("info first");
    };
    assert_eq!(
        (name.as_str(), version.as_str(), author.as_str()),
        ("minotty-bot", env!("CARGO_PKG_VERSION"), "minotty")
    );
    assert_eq!(features, ["garbage"], "it takes garbage messages");
    bot.send(&FrontendMessage::Rules);
    assert_eq!(bot.recv(), BotMessage::Ready);

    // Two games in a row, as the life cycle allows (start ... stop, start ... stop).
    for seed in [3, 4] {
        let mut game = Game::new(GameConfig::default(), seed);
        game.update(0, None);
        let view = TbpState::of_game(&game, 5).expect("in play");
        bot.send(&FrontendMessage::Start(view.to_start()));
        // What the bot has been told, advanced as it advances its own.
        let mut known = view;
        while game.stats().pieces < 30 {
            if game.active().is_none() {
                let t = game.next_deadline().expect("a deadline");
                game.update(t, None);
                continue;
            }
            // Tell the bot of every piece that entered the preview since.
            let view = TbpState::of_game(&game, 5).expect("in play");
            assert_eq!(view.board, known.board);
            assert_eq!(view.hold, known.hold);
            assert!(view.queue.iter().zip(&known.queue).all(|(a, b)| a == b));
            for &p in view.queue.iter().skip(known.queue.len()) {
                bot.send(&FrontendMessage::NewPiece { piece: p.into() });
                known.new_piece(p).expect("room");
            }
            bot.send(&FrontendMessage::Suggest);
            let BotMessage::Suggestion { moves } = bot.recv() else {
                panic!("a suggestion");
            };
            assert!(!moves.is_empty() && moves.len() <= 5);
            let buttons = path_to(&game, &moves[0]).expect("the first move is playable");
            bot.send(&FrontendMessage::Play { mv: moves[0] });
            known.play(&moves[0]).expect("plays");
            let t = execute(&mut game, &buttons);
            game.update(t + 200, None);
        }
        assert!(!game.is_over());
        assert!(game.stats().lines >= 8, "{} lines", game.stats().lines);
        bot.send(&FrontendMessage::Stop);
    }
    // Unknown messages and garbage are ignored; the bot still answers.
    bot.send(&FrontendMessage::Unknown);
    writeln!(bot.stdin, "this is not json").expect("written");
    bot.send(&FrontendMessage::Rules);
    assert_eq!(bot.recv(), BotMessage::Ready);
    bot.send(&FrontendMessage::Quit);
    let status = bot.child.wait().expect("exits");
    assert!(status.success(), "{status:?}");
}

#[test]
fn a_suggestion_without_a_position_is_empty() {
    let mut bot = Bot::start(&[]);
    assert!(matches!(bot.recv(), BotMessage::Info { .. }));
    bot.send(&FrontendMessage::Suggest);
    assert_eq!(bot.recv(), BotMessage::Suggestion { moves: vec![] });
    drop(bot.stdin);
    // The end of its input ends the bot.
    assert!(bot.child.wait().expect("exits").success());
}

#[test]
fn bad_arguments_are_refused() {
    for args in [
        &["--fault", "nonsense"][..],
        &["--what"],
        &["--level", "0"],
        &["--level", "8"],
        &["--level"],
    ] {
        let status = Command::new(env!("CARGO_BIN_EXE_minotty-bot"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("runs");
        assert_eq!(status.code(), Some(2), "{args:?}");
    }
}
