//! `ssh HOST replay ID --cast` over a real SSH connection: the asciicast it prints parses,
//! plays to the game's final score (also in the real `asciinema`), and the command refuses
//! what it must (another player's unranked game, unknown and malformed IDs, no `--cast`).

use std::process::Command;

use minotty_bots::autoplay;
use minotty_domain::{KeyFingerprint, PlayerName, Unranked, Verdict, rank_key};
use minotty_engine::{Game, GameConfig, Mode};
use minotty_store::{FinishedGame, NewKey};
use minotty_tests::{Connection, Login, TestServer, new_key};
use russh::keys::HashAlg;

const NOW: i64 = 1_709_212_455_678;

/// A marathon game played by the engine's bot for `pieces` pieces.
fn marathon(pieces: u32) -> Game {
    let mut game = Game::new(
        GameConfig {
            mode: Mode::marathon(),
            ..GameConfig::default()
        },
        3,
    );
    autoplay(&mut game, pieces, 150);
    game
}

fn lines(cast: &str) -> Vec<serde_json::Value> {
    cast.lines()
        .map(|l| serde_json::from_str(l).expect("every line is JSON"))
        .collect()
}

#[tokio::test]
async fn a_stored_game_exports_as_an_asciicast_that_asciinema_plays() -> anyhow::Result<()> {
    let server = TestServer::start().await?;
    let store = server.store().await?;
    let key = new_key();
    let fingerprint = key.public_key().fingerprint(HashAlg::Sha256).to_string();
    let ada = store
        .register(
            &PlayerName::parse("ada")?,
            &NewKey {
                fingerprint: KeyFingerprint::parse(&fingerprint).expect("a fingerprint"),
                algorithm: "ssh-ed25519".into(),
            },
            NOW,
        )
        .await?;
    let game = marathon(40);
    let finished = FinishedGame {
        player: ada.id,
        replay: game.replay(),
        stats: *game.stats(),
        outcome: game.outcome(),
        started_at: NOW - 60_000,
        ended_at: NOW,
    };
    let ranked = Verdict::Ranked {
        key: rank_key(finished.replay.mode.kind, &finished.stats).expect("ranked mode"),
    };
    let unranked = Verdict::Unranked(Unranked::Unfinished);
    let stored = store
        .insert_games(&[(&finished, ranked), (&finished, unranked)])
        .await?;
    let (public, private) = (stored[0].id.0, stored[1].id.0);

    // Anyone (a guest) exports the ranked game.
    let guest = Connection::open(server.addr, "guest", Login::Guest).await?;
    let out = guest
        .exec(&format!("replay {public} --cast"), false)
        .await?;
    assert_eq!(out.status, Some(0), "{}", out.stderr);
    assert!(out.stderr.is_empty(), "{}", out.stderr);
    let cast = lines(&out.stdout);
    assert_eq!(cast[0]["version"], 2);
    assert_eq!(cast[0]["width"], 80);
    assert_eq!(cast[0]["height"], 24);
    let times: Vec<f64> = cast[1..].iter().map(|e| e[0].as_f64().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] < w[1]), "times rise");
    assert!(cast[1..].iter().all(|e| e[1] == "o"));

    // The real asciinema reads it, and what it prints ends on the final score.
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("game.cast");
    std::fs::write(&path, &out.stdout)?;
    // `asciinema cat` opens /dev/tty: `script` gives it a terminal of its own.
    let cat = Command::new("script")
        .arg("-qec")
        .arg(format!("asciinema cat {}", path.display()))
        .arg("/dev/null")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("script (util-linux) and asciinema are installed (.ci/run installs asciinema)");
    assert!(
        cat.status.success(),
        "{}",
        String::from_utf8_lossy(&cat.stderr)
    );
    let mut vt = vt100::Parser::new(
        std::num::NonZeroU16::new(24).unwrap(),
        std::num::NonZeroU16::new(80).unwrap(),
        0,
    );
    vt.process(&cat.stdout);
    let screen = vt.screen().contents();
    let score = game.stats().score;
    assert!(score > 0);
    let grouped = minotty_ui::boards::thousands(score);
    assert!(
        screen.contains(&score.to_string()) || screen.contains(&grouped),
        "score {score} not on\n{screen}"
    );
    assert!(screen.contains("REPLAY FINISHED"), "{screen}");
    assert!(screen.contains(&format!("game #{public}")), "{screen}");

    // A size of its own.
    let big = guest
        .exec(&format!("replay {public} --cast --size 120x40"), false)
        .await?;
    assert_eq!(big.status, Some(0), "{}", big.stderr);
    assert_eq!(lines(&big.stdout)[0]["width"], 120);

    // The unranked game: not for a guest, but for its player's key.
    let refused = guest
        .exec(&format!("replay {private} --cast"), false)
        .await?;
    assert_eq!(refused.status, Some(1));
    assert!(refused.stdout.is_empty());
    assert!(
        refused.stderr.contains("only its player"),
        "{}",
        refused.stderr
    );
    let owner = Connection::open(server.addr, "ada", Login::With(key)).await?;
    let mine = owner
        .exec(&format!("replay {private} --cast"), false)
        .await?;
    assert_eq!(mine.status, Some(0), "{}", mine.stderr);
    assert_eq!(lines(&mine.stdout)[0]["version"], 2);

    // Clear refusals, each one line with exit status 1.
    for (command, says) in [
        ("replay 999999 --cast", "no game 999999"),
        ("replay abc --cast", "not a game ID"),
        (&format!("replay {public}") as &str, "add --cast"),
        ("replay --cast", "which game"),
        (&format!("replay {public} --cast --size 10x10"), "bad size"),
    ] {
        // A connection each: one holds a few channels at once.
        let conn = Connection::open(server.addr, "guest", Login::Guest).await?;
        let out = conn.exec(command, false).await?;
        conn.close().await;
        assert_eq!(out.status, Some(1), "{command}");
        assert!(out.stdout.is_empty(), "{command}");
        assert_eq!(out.stderr.lines().count(), 1, "{command}: {}", out.stderr);
        assert!(out.stderr.contains(says), "{command}: {}", out.stderr);
    }
    guest.close().await;
    owner.close().await;
    Ok(())
}
