//! The pages over a real throwaway database, driven through the router as a browser would
//! ask: every board and period, paging and "find a player", profiles; and the attacker's
//! requests (markup and SQL in every place a request can carry text: the path, the query, the
//! Host header), none of which reaches a page unescaped, changes the database or fails
//! the server.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use minotty_bots::autoplay;
use minotty_domain::{PlayerName, Verdict};
use minotty_engine::{Game, GameConfig, ModeKind};
use minotty_store::{FinishedGame, Store, both};
use minotty_web::{CSP, Web, router};
use sqlx::AnyPool;
use tower::ServiceExt;

mod common;
use common::{get, key};

/// Players on the 40 lines board: more than a page.
const PLAYERS: u32 = 30;

/// `PLAYERS` players (`p00`..), each with the same real 40 lines game, ranked by their
/// number (`p00` fastest).
async fn seeded(pool: AnyPool) -> Store {
    let store = Store::from_pool(pool).await.expect("store");
    let mut game = Game::new(
        GameConfig {
            mode: ModeKind::Sprint.mode(),
            ..GameConfig::default()
        },
        7,
    );
    autoplay(&mut game, 400, 200);
    let (reason, won) = game.outcome().expect("the game ended");
    for i in 0..PLAYERS {
        let name = PlayerName::parse(&format!("p{i:02}")).expect("a name");
        let account = store.register(&name, &key(i), 0).await.expect("registered");
        let finished = FinishedGame {
            player: account.id,
            replay: game.replay(),
            stats: *game.stats(),
            outcome: Some((reason, won)),
            started_at: 0,
            ended_at: 1_000 + i64::from(i),
        };
        let key = 60_000 + i64::from(i);
        store
            .insert_games(&[(finished, Verdict::Ranked { key })])
            .await
            .expect("stored");
    }
    store
}

/// The rows of a board page, as (rank, name) in order.
fn rows(html: &str) -> Vec<(u64, String)> {
    html.split("<tr")
        .skip(1)
        .filter_map(|row| {
            let cells: Vec<&str> = row.split("<td>").skip(1).collect();
            let rank = cells.first()?.split('<').next()?.parse().ok()?;
            let name = cells
                .get(1)?
                .split('>')
                .nth(1)?
                .split('<')
                .next()?
                .to_owned();
            Some((rank, name))
        })
        .collect()
}

both!(boards_page_and_find_a_player);
async fn boards_page_and_find_a_player(pool: AnyPool) {
    let store = seeded(pool).await;
    let web = Arc::new(Web::new(Some(store), 2222));
    let (status, html, headers) = get(&web, "/leaderboard/40l", "example.org:8080").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        headers.get(header::CONTENT_SECURITY_POLICY).expect("a CSP"),
        CSP
    );
    assert!(!CSP.contains("unsafe-inline"));
    assert!(html.contains("ssh -p 2222 example.org"), "the connect line");
    let first = rows(&html);
    assert_eq!(first.len(), 25);
    assert_eq!(first[0], (1, "p00".to_owned()));
    assert_eq!(first[24], (25, "p24".to_owned()));
    assert!(html.contains("1-25 of 30 players."), "{html}");
    assert!(
        html.contains("href=\"/leaderboard/40l?period=all&#38;page=2\""),
        "a next link"
    );

    let (_, html, _) = get(&web, "/leaderboard/40l?period=all&page=2", "x").await;
    let second = rows(&html);
    assert_eq!(second.len(), 5);
    assert_eq!(second[0], (26, "p25".to_owned()));
    assert!(html.contains("rel=\"prev\""));
    assert!(!html.contains("rel=\"next\""));

    // "Find a player" opens the page holding them, their row marked.
    let (_, html, _) = get(&web, "/leaderboard/40l?find=p27", "x").await;
    assert_eq!(rows(&html).first().map(|r| r.0), Some(26));
    assert!(html.contains("class=\"found\""));
    let found = html.split("class=\"found\"").nth(1).expect("the row");
    assert!(found.split("</tr>").next().expect("row").contains("p27"));
    let (_, html, _) = get(&web, "/leaderboard/40l?find=nobody", "x").await;
    assert!(
        html.contains("No player is called &#34;nobody&#34;."),
        "{html}"
    );
    let (_, html, _) = get(&web, "/leaderboard/marathon?find=p03", "x").await;
    assert!(html.contains("p03 has no entry on this board."));

    // Every board and period answers, empty or not.
    for board in [
        "40l", "marathon", "ultra", "master", "cheese", "combo", "descent", "classic", "survival",
        "ascent", "versus", "climb",
    ] {
        for period in ["all", "month", "today"] {
            let (status, html, _) =
                get(&web, &format!("/leaderboard/{board}?period={period}"), "x").await;
            assert_eq!(status, StatusCode::OK, "{board} {period}: {html}");
        }
    }
    let (status, html, _) = get(&web, "/leaderboard/40l?ruleset=tui-tetris", "x").await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("No games yet."));

    // The ranked ladder says how it works, from the rules' constants.
    let (status, html, _) = get(&web, "/leaderboard/versus", "x").await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains("first to 3, 5 from 1600, 7 from 1900 wins"),
        "{html}"
    );
    assert!(html.contains("X the top 1%, SS the top 5%"), "{html}");
    assert!(html.contains("D the rest"), "{html}");
    let (_, html, _) = get(&web, "/leaderboard/40l", "x").await;
    assert!(!html.contains("class=\"note ladder\""));

    // A profile: the best with its rank and replay, the recent game.
    let (status, html, _) = get(&web, "/player/p03", "x").await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("<h1>p03</h1>"));
    assert!(html.contains("#4"), "p03 ranks 4th: {html}");
    assert!(html.contains("href=\"/game/"), "a replay link");
    // The terminal profile's charts, as SVG: the 40 lines best over time, the pace.
    assert!(html.contains("<h2>Progress</h2>"), "{html}");
    let svgs = html.matches("<svg").count();
    assert_eq!(svgs, 2, "a best chart and a pace chart: {html}");
    assert!(html.contains("<polyline points=\""), "{html}");
    assert!(
        html.contains("aria-label=\"40 Lines: personal best from"),
        "{html}"
    );
    assert!(html.contains("Pieces a second, latest games"));
    let (status, _, _) = get(&web, "/player/nobody", "x").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// What an attacker can put in a request: markup, quotes, SQL, control bytes and overlong
/// values in the path, every query parameter and the Host header.
const HOSTILE: [&str; 8] = [
    "<script>alert(1)</script>",
    "\"><img src=x onerror=alert(1)>",
    "'; DROP TABLE players; --",
    "p00' OR '1'='1",
    "javascript:alert(1)",
    "\u{1b}[2J\u{7}",
    "%00%ff%fe",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
];

fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

both!(hostile_requests_are_escaped_refused_and_harmless);
async fn hostile_requests_are_escaped_refused_and_harmless(pool: AnyPool) {
    let store = seeded(pool).await;
    let web = Arc::new(Web::new(Some(store.clone()), 2222));
    for bad in HOSTILE {
        let e = encode(bad);
        let uris = [
            format!("/leaderboard/{e}"),
            format!("/player/{e}"),
            format!("/leaderboard/40l?find={e}"),
            format!("/leaderboard/40l?period={e}"),
            format!("/leaderboard/40l?ruleset={e}"),
            format!("/leaderboard/40l?page={e}"),
            format!("/{e}"),
        ];
        for uri in uris {
            let (status, html, _) = get(&web, &uri, "x").await;
            assert!(
                [
                    StatusCode::OK,
                    StatusCode::BAD_REQUEST,
                    StatusCode::NOT_FOUND
                ]
                .contains(&status),
                "{uri}: {status}"
            );
            for raw in ["<script", "<img", "\u{1b}"] {
                assert!(!html.contains(raw), "{uri} wrote {raw:?} raw:\n{html}");
            }
        }
        // A Host header the pages do not believe: the connect line says localhost.
        let request = Request::builder()
            .uri("/")
            .header(header::HOST, bad.replace(['\u{1b}', '\u{7}'], "x"))
            .body(Body::empty())
            .expect("a request");
        let response = router(Arc::clone(&web))
            .oneshot(request)
            .await
            .expect("an answer");
        let body = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .expect("body");
        let html = String::from_utf8(body.to_vec()).expect("utf-8");
        assert!(html.contains("ssh -p 2222 localhost"), "{bad:?}");
        assert!(!html.contains("<script") && !html.contains("<img"));
    }
    // Pages past the end, and a page number past any board: empty pages, not errors.
    for page in ["2", "4294967295"] {
        let (status, html, _) = get(&web, &format!("/leaderboard/40l?page={page}"), "x").await;
        assert_eq!(status, StatusCode::OK, "{page}");
        if page != "2" {
            assert!(rows(&html).is_empty());
        }
    }
    let (status, _, _) = get(&web, "/leaderboard/40l?page=4294967296", "x").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // Nothing was changed: every player still there, the board whole.
    let (_, html, _) = get(&web, "/leaderboard/40l?page=2", "x").await;
    assert_eq!(rows(&html).last(), Some(&(30, "p29".to_owned())));
    assert!(
        store
            .account_by_name(&PlayerName::parse("p00").expect("name"))
            .await
            .expect("read")
            .is_some()
    );
}

/// Without a database the pages say so; with one, a request body past the limit is refused.
#[tokio::test]
async fn no_database_and_oversized_bodies() {
    let web = Arc::new(Web::new(None, 2222));
    let (status, html, _) = get(&web, "/leaderboard/40l", "x").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(html.contains("This server keeps no records."));
    let (status, _, _) = get(&web, "/", "x").await;
    assert_eq!(status, StatusCode::OK);
    let request = Request::builder()
        .method("POST")
        .uri("/")
        .header(
            header::CONTENT_LENGTH,
            (minotty_web::MAX_BODY + 1).to_string(),
        )
        .body(Body::from(vec![b'a'; minotty_web::MAX_BODY + 1]))
        .expect("a request");
    let response = router(web).oneshot(request).await.expect("an answer");
    assert!(response.status().is_client_error(), "{}", response.status());
}

/// `POST /link` with `code`: the answer's status and `Set-Cookie`.
async fn redeem(web: &Arc<Web>, code: &str) -> (StatusCode, String) {
    let request = Request::builder()
        .method("POST")
        .uri("/link")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(format!("code={code}")))
        .expect("a request");
    let response = router(Arc::clone(web))
        .oneshot(request)
        .await
        .expect("an answer");
    let cookie = response
        .headers()
        .get(header::SET_COOKIE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    (response.status(), cookie)
}

both!(the_session_cookie_is_secure_behind_https);
/// A redeemed code sets the session cookie HttpOnly and SameSite; `Secure` too when players
/// reach the pages over HTTPS (`--web-url https://...`), and not over plain HTTP, where a
/// browser would drop a Secure cookie.
async fn the_session_cookie_is_secure_behind_https(pool: AnyPool) {
    let store = Store::from_pool(pool).await.expect("store");
    let ada = store
        .register(&PlayerName::parse("ada").expect("a name"), &key(1), 0)
        .await
        .expect("registered");
    let now = i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after 1970")
            .as_millis(),
    )
    .expect("ms");
    for (url, secure) in [
        (None, false),
        (Some("http://minotty.example"), false),
        (Some("https://minotty.example"), true),
    ] {
        let mut web = Web::new(Some(store.clone()), 2222);
        if let Some(url) = url {
            web = web.with_public_url(url);
        }
        let web = Arc::new(web);
        store
            .new_web_code(ada.id, "ABCD-EFGH", now)
            .await
            .expect("a code");
        let (status, cookie) = redeem(&web, "ABCD-EFGH").await;
        assert_eq!(status, StatusCode::SEE_OTHER, "{url:?}");
        assert!(cookie.starts_with("minotty_session="), "{cookie}");
        assert!(cookie.contains("; HttpOnly; SameSite=Lax"), "{cookie}");
        assert_eq!(cookie.ends_with("; Secure"), secure, "{url:?}: {cookie}");
    }
}
