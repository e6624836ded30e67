//! Where a player would share something, the screens show its web page when the front end
//! says where the pages are (`AppContext::web_address`): a leaderboard game's results, the
//! profile, a replay being watched. Without pages, no link; a game off the leaderboards has no
//! public page, so no link either.

use minotty_engine::ModeKind;
use minotty_protocol::{BoardPeriod, GameRecorded, Identity, Profile, Request, Response};

use super::account::{SPRINT, bot_replay, page};
use super::*;

const WEB: &str = "http://127.0.0.1:8080";

fn with_web(web: Option<&str>) -> App {
    App::new(AppContext {
        player_name: "ada".into(),
        seed: 7,
        identity: Identity::Registered {
            name: "ada".into(),
            has_password: false,
        },
        web_address: web.map(str::to_owned),
        ..AppContext::default()
    })
}

/// `a`'s 40 lines game given up at once and its results shown, recorded as game 77 with
/// `note` (none: on the leaderboard).
fn results(a: &mut App, note: Option<&str>) -> String {
    a.play(ModeKind::Sprint, 0);
    a.tick(COUNTDOWN_MS);
    a.handle_key(ctrl('d'), COUNTDOWN_MS + 10);
    press(a, Key::Enter, COUNTDOWN_MS + 20);
    a.deliver(
        Response::GameRecorded(GameRecorded {
            game: 77,
            personal_best: false,
            rank: note.is_none().then_some(3),
            note: note.map(str::to_owned),
            previous_best: None,
        }),
        COUNTDOWN_MS + 30,
    );
    screen(a)
}

#[test]
fn a_leaderboard_games_results_show_its_page() {
    let s = results(&mut with_web(Some(WEB)), None);
    assert!(s.contains("RESULTS: 40 Lines"), "{s}");
    assert!(s.contains("http://127.0.0.1:8080/game/77"), "{s}");

    let s = results(&mut with_web(Some(WEB)), Some("not ranked: a custom game"));
    assert!(!s.contains("/game/77"), "no public page: {s}");
    let s = results(&mut with_web(None), None);
    assert!(!s.contains("/game/"), "no pages: {s}");

    // Too long for the box with its scheme: without it; longer still: nothing.
    let long = "https://play.minotty-game.example";
    let s = results(&mut with_web(Some(long)), None);
    assert!(s.contains("play.minotty-game.example/game/77"), "{s}");
    assert!(!s.contains("https://play"), "{s}");
    let longer = format!("https://{}.example", "x".repeat(40));
    let s = results(&mut with_web(Some(&longer)), None);
    assert!(!s.contains("/game/77"), "{s}");
}

#[test]
fn the_profile_shows_its_page() {
    for (web, shown) in [(Some(WEB), true), (None, false)] {
        let mut a = with_web(web);
        menu_item(&mut a, 3);
        assert_eq!(a.take_requests(), [Request::Profile]);
        let profile = Profile {
            name: "ada".into(),
            bests: Vec::new(),
            recent: Vec::new(),
            matches: Vec::new(),
            rating: None,
            ranked: None,
            charts: Default::default(),
        };
        a.deliver(Response::Profile(profile), 0);
        let s = screen(&a);
        assert!(s.contains("PROFILE"), "{s}");
        assert_eq!(s.contains("http://127.0.0.1:8080/player/ada"), shown, "{s}");
    }
}

#[test]
fn a_replay_shows_its_games_page_under_it() {
    let (replay, _) = bot_replay();
    for (web, shown) in [(Some(WEB), true), (None, false)] {
        let mut a = with_web(web);
        menu_item(&mut a, 2);
        a.deliver(
            Response::Leaderboard(page(SPRINT, BoardPeriod::AllTime, 0, 3)),
            0,
        );
        press(&mut a, Key::Enter, 0);
        assert_eq!(
            a.take_requests().last(),
            Some(&Request::Replay { game: 1001 })
        );
        a.deliver(
            Response::Replay {
                game: 1001,
                player: "bob".into(),
                replay: Box::new(replay.clone()),
            },
            1_000,
        );
        // At 80x24 the replay fills the window: the link takes the hint's place while paused.
        let s = screen(&a);
        assert!(s.contains("REPLAY") && s.contains("Space pause"), "{s}");
        press(&mut a, Key::Char(' '), 1_500);
        let s = screen(&a);
        assert!(s.contains("PAUSED"), "{s}");
        assert_eq!(s.contains("http://127.0.0.1:8080/game/1001"), shown, "{s}");
        // With a row to spare, under the replay all along.
        press(&mut a, Key::Char(' '), 1_600);
        let s = crate::testutil::lines(&draw(&a, 100, 30)).join("\n");
        assert!(s.contains("Space pause"), "{s}");
        assert_eq!(s.contains("http://127.0.0.1:8080/game/1001"), shown, "{s}");
    }
}
