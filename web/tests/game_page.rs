//! A game's page and its replay over a real throwaway database: a leaderboard game's page
//! holds the player (when this build has it) and serves the stored replay's bytes; a game off
//! the leaderboards shows its record only; hostile ids and times are refused or ignored,
//! escaped where echoed. The page's script reads frames at the offsets the player writes them.

use std::sync::Arc;

use axum::http::{StatusCode, header};
use minotty_bots::autoplay;
use minotty_domain::{PlayerName, Unranked, Verdict};
use minotty_engine::{Game, GameConfig, ModeKind};
use minotty_store::{FinishedGame, Store, both};
use minotty_web::Web;
use minotty_web::pages::game::{PLAYER, SCRIPT};
use minotty_web_player::frame;
use sqlx::AnyPool;

mod common;
use common::{get, get_bytes, key};

/// A bot's 40 lines game stored twice for `ada`: ranked, and as history only. Their ids.
async fn two_games(store: &Store) -> (Game, i64, i64) {
    let mut game = Game::new(
        GameConfig {
            mode: ModeKind::Sprint.mode(),
            ..GameConfig::default()
        },
        5,
    );
    autoplay(&mut game, 400, 200);
    let account = store
        .register(&PlayerName::parse("ada").expect("a name"), &key(1), 0)
        .await
        .expect("registered");
    let finished = || FinishedGame {
        player: account.id,
        replay: game.replay(),
        stats: *game.stats(),
        outcome: game.outcome(),
        started_at: 0,
        ended_at: 5_000,
    };
    let stored = store
        .insert_games(&[
            (finished(), Verdict::Ranked { key: 1 }),
            (finished(), Verdict::Unranked(Unranked::Tuned)),
        ])
        .await
        .expect("stored");
    (game, stored[0].id.0, stored[1].id.0)
}

both!(a_leaderboard_games_page_plays_its_replay);
async fn a_leaderboard_games_page_plays_its_replay(pool: AnyPool) {
    let store = Store::from_pool(pool).await.expect("store");
    let (game, ranked, history) = two_games(&store).await;
    let web = Arc::new(Web::new(Some(store.clone()), 2222));

    let (status, html, _) = get(&web, &format!("/game/{ranked}"), "example.org").await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("<h1>40 Lines by ada</h1>"), "{html}");
    assert!(html.contains("href=\"/player/ada\""));
    assert!(
        html.contains("<th scope=\"row\">Lines</th><td>40</td>"),
        "{html}"
    );
    assert!(html.contains(&format!("ssh -t -p 2222 example.org replay {ranked}")));
    let holds_player = html.contains(&format!("data-replay=\"/game/{ranked}/replay\""));
    assert_eq!(holds_player, PLAYER.is_some(), "{html}");
    assert_eq!(html.contains("src=\"/assets/replay.js\""), PLAYER.is_some());
    if PLAYER.is_none() {
        assert!(html.contains("built without the replay player"));
    }

    let (status, bytes, headers) = get_bytes(&web, &format!("/game/{ranked}/replay")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_TYPE], "application/octet-stream");
    assert_eq!(
        bytes,
        game.replay().to_bytes(),
        "the stored replay, as stored"
    );

    // Off the leaderboards: the record, no replay (its player watches it in the terminal).
    let (status, html, _) = get(&web, &format!("/game/{history}"), "x").await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("not on a leaderboard"), "{html}");
    assert!(html.contains("Not ranked (unranked)"), "{html}");
    assert!(!html.contains("data-replay"));
    let (status, _, _) = get_bytes(&web, &format!("/game/{history}/replay")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // A shared moment opens there; anything else as `t` opens at the start.
    if PLAYER.is_some() {
        for (t, start) in [("12.5", "12500"), ("end", "end"), ("%22%3E%3Cb%3E", "0")] {
            let (_, html, _) = get(&web, &format!("/game/{ranked}?t={t}"), "x").await;
            assert!(html.contains(&format!("data-start=\"{start}\"")), "{t}");
        }
    }
}

both!(hostile_game_ids_are_refused_and_escaped);
async fn hostile_game_ids_are_refused_and_escaped(pool: AnyPool) {
    let store = Store::from_pool(pool).await.expect("store");
    let (_, ranked, _) = two_games(&store).await;
    let web = Arc::new(Web::new(Some(store.clone()), 2222));
    let ids = [
        "0".to_owned(),
        "-1".into(),
        "abc".into(),
        (ranked + 1_000).to_string(),
        "99999999999999999999999".into(),
        "1%20OR%201=1".into(),
        "%3Cscript%3Ealert(1)%3C%2Fscript%3E".into(),
        "%1B%5B2J".into(),
    ];
    for id in &ids {
        for path in [format!("/game/{id}"), format!("/game/{id}/replay")] {
            let (status, html, _) = get(&web, &path, "x").await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
            assert!(!html.contains("<script"), "{path}: {html}");
            assert!(!html.contains('\u{1b}'), "{path}");
        }
    }
    let (status, _, _) = get(&web, &format!("/game/{ranked}"), "x").await;
    assert_eq!(status, StatusCode::OK, "the real game is still there");
}

#[tokio::test]
async fn the_player_module_is_served_when_built() {
    let web = Arc::new(Web::new(None, 2222));
    let (status, bytes, headers) = get_bytes(&web, "/assets/player.wasm").await;
    match PLAYER {
        Some(module) => {
            assert_eq!(status, StatusCode::OK);
            assert_eq!(headers[header::CONTENT_TYPE], "application/wasm");
            assert_eq!(bytes, module);
            assert!(bytes.starts_with(b"\0asm"), "a WebAssembly module");
        }
        None => assert_eq!(status, StatusCode::NOT_FOUND),
    }
    // `MINOTTY_WEB_PLAYER=required` (CI) fails the build without it; this says so again.
    if option_env!("MINOTTY_WEB_PLAYER") == Some("required") {
        assert!(PLAYER.is_some(), "the replay player was required");
    }
    let (status, bytes, headers) = get_bytes(&web, "/assets/replay.js").await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap_or("")
            .starts_with("text/javascript")
    );
    assert_eq!(bytes, SCRIPT.as_bytes());
}

/// The script's copy of each frame offset is the player's.
#[test]
fn the_script_reads_frames_where_the_player_writes_them() {
    let constants = [
        ("LAYOUT", frame::LAYOUT as usize),
        ("HEADER", frame::HEADER),
        ("W_LAYOUT", frame::W_LAYOUT),
        ("W_WIDTH", frame::W_WIDTH),
        ("W_ROWS", frame::W_ROWS),
        ("W_TIME", frame::W_TIME),
        ("W_END", frame::W_END),
        ("W_LINES", frame::W_LINES),
        ("W_SCORE_LOW", frame::W_SCORE_LOW),
        ("W_SCORE_HIGH", frame::W_SCORE_HIGH),
        ("W_PIECES", frame::W_PIECES),
        ("W_LEVEL", frame::W_LEVEL),
        ("W_ATTACK", frame::W_ATTACK),
        ("W_HOLD", frame::W_HOLD),
        ("W_PREVIEW_COUNT", frame::W_PREVIEW_COUNT),
        ("W_PREVIEW", frame::W_PREVIEW),
        ("W_OVER", frame::W_OVER),
        ("W_CLEARING", frame::W_CLEARING),
        ("ACTIVE", frame::ACTIVE as usize),
        ("GHOST", frame::GHOST as usize),
        ("HOLD_USED", frame::HOLD_USED as usize),
        ("ROWS_ABOVE", minotty_web_player::ROWS_ABOVE),
    ];
    for (name, value) in constants {
        let written = format!("{name} = {value}");
        let found = SCRIPT
            .split([',', ';', '\n'])
            .map(|s| s.trim().trim_start_matches("const ").trim())
            .any(|s| s == written);
        assert!(found, "replay.js should say `{written}`");
    }
}
