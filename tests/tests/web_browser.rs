//! The web pages in a real browser (headless Chromium over WebDriver, `minotty_tests::browser`)
//! against a real `minotty serve`: a leaderboard opens and links its game; the game's page
//! replays it in the page (the engine built to WebAssembly) to the very board the server's
//! re-simulation ends on, plays and pauses, and seeks; screenshots of each page at desktop and
//! phone widths land in `target/screenshots/` for a person to look at.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use minotty_bots::autoplay;
use minotty_domain::{KeyFingerprint, PlayerName, Verdict};
use minotty_engine::{Game, GameConfig, ModeKind};
use minotty_store::{FinishedGame, NewKey, Store};
use minotty_tests::browser::{Browser, browser_available};
use minotty_tests::serve::{serve_command, spawn_accepting};
use serde_json::Value;

const WAIT: Duration = Duration::from_secs(30);

/// The server, killed and reaped however the test ends (a failed assertion too).
struct Reaped(std::process::Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn screenshots() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/screenshots")
}

fn free_addr() -> anyhow::Result<SocketAddr> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?)
}

/// A 40 lines game played by the bot, judged as the server judges it, stored for `alice`.
async fn stored_game(url: &str) -> anyhow::Result<(i64, Game)> {
    let store = Store::open(url).await?;
    let mut game = Game::new(
        GameConfig {
            mode: ModeKind::Sprint.mode(),
            ..GameConfig::default()
        },
        11,
    );
    autoplay(&mut game, 400, 250);
    let key = NewKey {
        fingerprint: KeyFingerprint::parse(&format!("SHA256:{:0>43}", 1)).expect("a fingerprint"),
        algorithm: "ssh-ed25519".into(),
    };
    let account = store
        .register(&PlayerName::parse("alice")?, &key, 0)
        .await?;
    let finished = FinishedGame {
        player: account.id,
        replay: game.replay(),
        stats: *game.stats(),
        outcome: game.outcome(),
        started_at: 1_000,
        ended_at: 1_000 + i64::try_from(game.now())?,
    };
    let verdict = finished.judge();
    assert!(
        matches!(verdict, Verdict::Ranked { .. }),
        "the bot's game ranks: {verdict:?}"
    );
    let stored = store.insert_games(&[(finished, verdict)]).await?;
    Ok((stored[0].id.0, game))
}

/// Waits for the replay's state to be `state`; else fails with what the page says.
async fn wait_state(browser: &Browser, state: &str) -> anyhow::Result<()> {
    let script = format!("return document.getElementById('replay').dataset.state === '{state}'");
    if let Err(e) = browser.wait_for(&script, WAIT).await {
        let said = browser
            .eval("return document.getElementById('status').textContent")
            .await?;
        anyhow::bail!("{e}; the page says {said}");
    }
    Ok(())
}

async fn replay_state(browser: &Browser, field: &str) -> anyhow::Result<Value> {
    browser
        .eval(&format!(
            "return document.getElementById('replay').dataset.{field} ?? null"
        ))
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_games_page_replays_it_to_the_stored_end_in_a_real_browser() -> anyhow::Result<()> {
    if !browser_available("a_games_page_replays_it_to_the_stored_end_in_a_real_browser") {
        return Ok(());
    }
    let dir = tempfile::tempdir()?;
    let url = format!("sqlite://{}", dir.path().join("web.db").display());
    let (id, game) = stored_game(&url).await?;
    let (ssh, web) = (free_addr()?, free_addr()?);
    let log = dir.path().join("server.log");
    let mut cmd = serve_command(ssh, &url, &dir.path().join("host_key"), &log)?;
    cmd.args(["--http-listen", &web.to_string()]);
    let _server = Reaped(spawn_accepting(cmd, ssh, &log, WAIT).await?);
    let result = async {
        let site = format!("http://{web}");
        let mut browser = Browser::start(1280, 900).await?;

        // The board lists the game and links its page.
        browser.open(&format!("{site}/leaderboard/40l")).await?;
        let link = browser
            .eval("return document.querySelector('a[href^=\"/game/\"]')?.getAttribute('href')")
            .await?;
        assert_eq!(link, Value::String(format!("/game/{id}")));
        browser
            .screenshot(&screenshots().join("leaderboard-desktop.png"))
            .await?;
        // The profile, with its charts drawn.
        browser.open(&format!("{site}/player/alice")).await?;
        let charts = browser
            .eval("return document.querySelectorAll('figure.chart svg').length")
            .await?;
        assert_eq!(charts, Value::from(2), "a best chart and a pace chart");
        browser
            .screenshot(&screenshots().join("profile-desktop.png"))
            .await?;
        browser.open(&format!("{site}/leaderboard/versus")).await?;
        browser
            .screenshot(&screenshots().join("ladder-desktop.png"))
            .await?;

        // Opened at its end: the page's own re-simulation ends on the server's board.
        browser.open(&format!("{site}/game/{id}?t=end")).await?;
        wait_state(&browser, "ended").await?;
        let board = game.board().to_ascii().join("/");
        assert!(!board.is_empty());
        assert_eq!(replay_state(&browser, "board").await?, Value::String(board));
        let lines = game.stats().lines.to_string();
        assert_eq!(replay_state(&browser, "lines").await?, Value::String(lines));
        let pieces = game.stats().pieces.to_string();
        assert_eq!(
            replay_state(&browser, "pieces").await?,
            Value::String(pieces)
        );
        browser
            .screenshot(&screenshots().join("game-desktop.png"))
            .await?;

        // From the start: it plays at 4x, pauses, and seeks with the keyboard.
        browser.open(&format!("{site}/game/{id}")).await?;
        wait_state(&browser, "paused").await?;
        browser
            .eval("document.getElementById('speed').value = '4'; return true")
            .await?;
        browser.click("#play").await?;
        browser
            .wait_for(
                "return Number(document.getElementById('replay').dataset.time) > 2000",
                WAIT,
            )
            .await?;
        browser.click("#play").await?;
        let paused = replay_state(&browser, "time").await?;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(
            replay_state(&browser, "time").await?,
            paused,
            "paused stays put"
        );
        assert_eq!(replay_state(&browser, "state").await?, "paused");
        let before: u64 = paused.as_str().unwrap_or("0").parse()?;
        browser
            .eval(
                "document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft', \
                 bubbles: true})); return true",
            )
            .await?;
        let after: u64 = replay_state(&browser, "time")
            .await?
            .as_str()
            .unwrap_or("0")
            .parse()?;
        assert_eq!(after, before - 1000, "the left arrow steps back a second");

        // A phone's width: the same pages, screenshots for a person to look at.
        drop(browser);
        browser = Browser::start(390, 844).await?;
        browser.open(&format!("{site}/game/{id}?t=10")).await?;
        wait_state(&browser, "paused").await?;
        assert_eq!(replay_state(&browser, "time").await?, "10000");
        let overflow = browser
            .eval("return document.documentElement.scrollWidth <= window.innerWidth")
            .await?;
        assert_eq!(overflow, Value::Bool(true), "nothing wider than a phone");
        browser
            .screenshot(&screenshots().join("game-phone.png"))
            .await?;
        browser.open(&format!("{site}/leaderboard/40l")).await?;
        browser
            .screenshot(&screenshots().join("leaderboard-phone.png"))
            .await?;
        browser.open(&format!("{site}/player/alice")).await?;
        browser
            .screenshot(&screenshots().join("profile-phone.png"))
            .await?;
        anyhow::Ok(())
    }
    .await;
    if result.is_err() {
        eprintln!("{}", std::fs::read_to_string(&log).unwrap_or_default());
    }
    result
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_played_over_ssh_is_watched_live_in_a_real_browser() -> anyhow::Result<()> {
    use minotty_tests::{Connection, Login, WAIT as SSH_WAIT, board, keys};
    if !browser_available("a_game_played_over_ssh_is_watched_live_in_a_real_browser") {
        return Ok(());
    }
    let dir = tempfile::tempdir()?;
    let (ssh, web, log, _server) = serve_with_pages(dir.path()).await?;
    let result = async {
        // Ada (a guest to others: `~ada`) plays Marathon over SSH.
        let conn = Connection::open(ssh, "ada", Login::Key).await?;
        let mut ada = conn.play(100, 32).await?;
        ada.skip_welcome().await?;
        ada.send(keys::ENTER).await?;
        ada.wait_for_text("Marathon", SSH_WAIT).await?;
        ada.send(keys::DOWN).await?;
        ada.send(keys::ENTER).await?;
        ada.wait_until("the board with a piece", SSH_WAIT, |sc| {
            board::find(sc).is_some_and(|b| b.has_piece)
        })
        .await?;

        let site = format!("http://{web}");
        let browser = Browser::start(1280, 900).await?;
        browser.open(&format!("{site}/live")).await?;
        let watch = browser
            .eval("return document.querySelector('a[href^=\"/live/\"]')?.getAttribute('href')")
            .await?;
        let watch = watch
            .as_str()
            .ok_or_else(|| anyhow::anyhow!("no game listed"))?;
        browser
            .screenshot(&screenshots().join("live-desktop.png"))
            .await?;
        browser.open(&format!("{site}{watch}")).await?;
        browser
            .wait_for(
                "return document.getElementById('live').dataset.state === 'watching'",
                WAIT,
            )
            .await?;
        let player = browser
            .eval("return document.getElementById('live').dataset.player")
            .await?;
        assert_eq!(player, "~ada");
        // Her pieces land on the page as she drops them.
        for _ in 0..3 {
            ada.send(keys::HARD_DROP).await?;
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
        browser
            .wait_for(
                "return Number(document.getElementById('live').dataset.pieces) >= 3",
                WAIT,
            )
            .await?;
        browser
            .screenshot(&screenshots().join("watch-desktop.png"))
            .await?;
        // Her connection drops: the game waits for her (parked), and the page says so.
        drop(ada);
        conn.close().await;
        browser
            .wait_for(
                "return document.getElementById('live').dataset.state === 'parked'",
                WAIT,
            )
            .await?;
        anyhow::Ok(())
    }
    .await;
    if result.is_err() {
        eprintln!("{}", std::fs::read_to_string(&log).unwrap_or_default());
    }
    result
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_is_played_in_the_browsers_terminal() -> anyhow::Result<()> {
    if !browser_available("the_game_is_played_in_the_browsers_terminal") {
        return Ok(());
    }
    let dir = tempfile::tempdir()?;
    let (_ssh, web, log, _server) = serve_with_pages(dir.path()).await?;
    let result = async {
        let browser = Browser::start(1280, 900).await?;
        browser.open(&format!("http://{web}/play")).await?;
        let rows = "return document.querySelector('.xterm-rows')?.textContent ?? ''";
        let shows = |text: &str| {
            format!("{rows}.replace(/\\s+/g, ' ').includes('{text}')")
                .replacen("return ", "return (", 1)
                .replacen("?? ''", "?? '')", 1)
        };
        browser.wait_for(&shows("M I N O T T Y"), WAIT).await?;
        browser
            .screenshot(&screenshots().join("play-desktop.png"))
            .await?;
        // Enter on Play, then on 40 Lines: the countdown, then the board and its piece.
        let keys = ".xterm-helper-textarea";
        browser.type_into(keys, "\u{E007}").await?;
        browser.wait_for(&shows("CHOOSE A MODE"), WAIT).await?;
        browser.type_into(keys, "\u{E007}").await?;
        browser.wait_for(&shows("HOLD"), WAIT).await?;
        tokio::time::sleep(Duration::from_secs(4)).await;
        for _ in 0..3 {
            browser.type_into(keys, " ").await?;
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
        browser.wait_for(&shows("PIECES 3"), WAIT).await?;
        browser
            .screenshot(&screenshots().join("play-game-desktop.png"))
            .await?;
        anyhow::Ok(())
    }
    .await;
    if result.is_err() {
        eprintln!("{}", std::fs::read_to_string(&log).unwrap_or_default());
    }
    result
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ssh_web_links_a_browser_that_then_plays_as_the_account() -> anyhow::Result<()> {
    if !browser_available("ssh_web_links_a_browser_that_then_plays_as_the_account") {
        return Ok(());
    }
    let dir = tempfile::tempdir()?;
    let (ssh, web, log, _server) = serve_with_pages(dir.path()).await?;
    let result = async {
        let (_game, key, code) = registered_with_code(ssh, web).await?;

        // The link it printed opens the form filled in; linking lands on /play as ada.
        let browser = Browser::start(1280, 900).await?;
        browser
            .open(&format!("http://{web}/link?code={code}"))
            .await?;
        browser
            .screenshot(&screenshots().join("link-desktop.png"))
            .await?;
        browser.click("form button").await?;
        browser
            .wait_for(
                "return document.body.textContent.includes('This browser plays as ada')",
                WAIT,
            )
            .await?;
        // The game greets her by name: the session is hers, not a guest's.
        browser
            .wait_for(
                "return (document.querySelector('.xterm-rows')?.textContent ?? '')\
                 .includes('Hello, ada')",
                WAIT,
            )
            .await?;
        // The code worked once: a second browser gets nothing from it.
        let other = Browser::start(1280, 900).await?;
        other
            .open(&format!("http://{web}/link?code={code}"))
            .await?;
        other.click("form button").await?;
        other
            .wait_for(
                "return document.body.textContent.includes('does not link anything')",
                WAIT,
            )
            .await?;
        // `web --end` unlinks it: on reload the page plays as a guest.
        let conn =
            minotty_tests::Connection::open(ssh, "ada", minotty_tests::Login::With(key)).await?;
        let out = conn.exec("web --end", false).await?;
        assert!(out.stdout.contains("Unlinked 1 browser"), "{out:?}");
        // The game being played in it ends at once, and says why.
        browser
            .wait_for(
                "return document.getElementById('play')?.dataset.state === 'closed'",
                WAIT,
            )
            .await?;
        browser
            .wait_for(
                "return (document.querySelector('.xterm-rows')?.textContent ?? '')\
                 .includes('this browser was unlinked from its account')",
                WAIT,
            )
            .await?;
        browser.open(&format!("http://{web}/play")).await?;
        browser
            .wait_for(
                "return document.body.textContent.includes('You play as a guest here')",
                WAIT,
            )
            .await?;
        anyhow::Ok(())
    }
    .await;
    if result.is_err() {
        eprintln!("{}", std::fs::read_to_string(&log).unwrap_or_default());
    }
    result
}

/// Ada registers with her key over SSH (the welcome screen's name is her SSH user) and asks
/// for a code with `ssh HOST web`: her game's connection (kept open), her key, and the code,
/// whose link it printed. (A connection whose command is done is closed after a grace: each
/// command is a connection of its own.)
async fn registered_with_code(
    ssh: SocketAddr,
    web: SocketAddr,
) -> anyhow::Result<(
    (minotty_tests::Connection, minotty_tests::PtySession),
    minotty_tests::Key,
    String,
)> {
    use minotty_tests::{Connection, Login, WAIT as SSH_WAIT, keys};
    let key = minotty_tests::new_key();
    let first = Connection::open(ssh, "ada", Login::With(key.clone())).await?;
    let mut ada = first.play(100, 32).await?;
    ada.wait_for_text("WELCOME TO MINOTTY", SSH_WAIT).await?;
    ada.send(keys::ENTER).await?;
    ada.wait_for_text("Leaderboards", SSH_WAIT).await?;
    // A connection knows its key's account from its login: the next one is hers.
    let conn = Connection::open(ssh, "ada", Login::With(key.clone())).await?;
    let out = conn.exec("web", false).await?;
    let said = out.stdout.clone();
    let code = said
        .lines()
        .find_map(|l| l.strip_prefix("Your code: "))
        .ok_or_else(|| anyhow::anyhow!("no code in {said:?}"))?
        .to_owned();
    assert!(
        said.contains(&format!("http://{web}/link?code={code}")),
        "{said}"
    );
    conn.close().await;
    Ok(((first, ada), key, code))
}

/// A `minotty serve` with its pages on free ports, over a database in `dir`: the SSH and the
/// pages' addresses, the server's log, and the server.
async fn serve_with_pages(
    dir: &std::path::Path,
) -> anyhow::Result<(SocketAddr, SocketAddr, PathBuf, Reaped)> {
    let url = format!("sqlite://{}", dir.join("web.db").display());
    let (ssh, web) = (free_addr()?, free_addr()?);
    let log = dir.join("server.log");
    let mut cmd = serve_command(ssh, &url, &dir.join("host_key"), &log)?;
    cmd.args(["--http-listen", &web.to_string()]);
    let server = Reaped(spawn_accepting(cmd, ssh, &log, WAIT).await?);
    Ok((ssh, web, log, server))
}

/// A 40 lines game takes about 100 pieces; a few hundred leave room for a bad start.
const MAX_PIECES: u32 = 400;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forty_lines_played_with_keys_in_the_browser_reach_the_leaderboard() -> anyhow::Result<()> {
    use minotty_tests::autoplay::next_move;
    if !browser_available("forty_lines_played_with_keys_in_the_browser_reach_the_leaderboard") {
        return Ok(());
    }
    let dir = tempfile::tempdir()?;
    let (ssh, web, log, _server) = serve_with_pages(dir.path()).await?;
    let result = async {
        let (_game, _key, code) = registered_with_code(ssh, web).await?;
        let browser = Browser::start(1280, 900).await?;
        browser
            .open(&format!("http://{web}/link?code={code}"))
            .await?;
        browser.click("form button").await?;
        let shows = |text: &str| {
            format!(
                "return (document.querySelector('.xterm-rows')?.textContent ?? '')\
                 .replace(/\\s+/g, ' ').includes('{text}')"
            )
        };
        browser.wait_for(&shows("Hello, ada"), WAIT).await?;
        // The server asked the browser's terminal for kitty flags 1 + 2 + 8 (disambiguate,
        // event types, every key an escape code), and the terminal took them (xterm.js keeps
        // them on its core service; the vendored version is pinned).
        let flags = browser
            .eval(
                "const c = window.minottyTerm?._core; \
                 return (c?.coreService ?? c?._coreService)?.kittyKeyboard?.flags ?? null",
            )
            .await?;
        assert_eq!(flags, serde_json::json!(11), "the kitty keyboard flags");
        // Play, then 40 Lines: the keys are the browser's own (kitty keyboard protocol on, so
        // the server reads every press and release, as from kitty or foot).
        let keys = ".xterm-helper-textarea";
        browser.type_into(keys, "\u{E007}").await?;
        browser.wait_for(&shows("CHOOSE A MODE"), WAIT).await?;
        browser.type_into(keys, "\u{E007}").await?;
        browser.wait_for(&shows("HOLD"), WAIT).await?;
        // Each piece: read the terminal's screen, find the best placement, tap its keys.
        let mut last_stack = None;
        let mut pieces = 0;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(300);
        loop {
            anyhow::ensure!(
                tokio::time::Instant::now() < deadline,
                "40 lines not done in 5 minutes after {pieces} pieces"
            );
            let Some(screen) = browser.terminal_screen().await? else {
                continue;
            };
            if screen.screen().contents().contains("Enter: results") {
                break;
            }
            if let Some(next) = next_move(screen.screen()) {
                let next = next?;
                if last_stack.as_ref() != Some(&next.stack) {
                    browser.tap(&next.keys).await?;
                    last_stack = Some(next.stack);
                    pieces += 1;
                    anyhow::ensure!(pieces <= MAX_PIECES, "no goal in {MAX_PIECES} pieces");
                    continue;
                }
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(pieces >= 40 * 10 / 4, "40 lines take at least 100 pieces");
        browser
            .screenshot(&screenshots().join("play-40l-desktop.png"))
            .await?;
        browser.type_into(keys, "\u{E007}").await?;
        browser.wait_for(&shows("Goal reached!"), WAIT).await?;
        browser.wait_for(&shows("NEW PERSONAL BEST"), WAIT).await?;
        // The game is ada's: the 40 lines leaderboard's page lists her first.
        browser
            .open(&format!("http://{web}/leaderboard/40l"))
            .await?;
        let first = browser
            .eval("return document.querySelector('table tbody tr')?.textContent ?? ''")
            .await?;
        let first = first.as_str().unwrap_or_default();
        assert!(first.contains("ada"), "the first row: {first:?}");
        anyhow::Ok(())
    }
    .await;
    if result.is_err() {
        eprintln!("{}", std::fs::read_to_string(&log).unwrap_or_default());
    }
    result
}
