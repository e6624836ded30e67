//! The session on tokio's paused clock: the real shell (`shell.rs`) driven through its event
//! channel, its window watch and its shutdown token, writing to an in-memory client that
//! counts the writes (each write is one frame, or the goodbye); and the [`Session`] struct's
//! methods on injected instants. No real sleeps: time moves only when the test moves it (or
//! when every task waits, to the next timer).

use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use minotty_domain::DisplayName;
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::client::{Client, ClientFuture};
use super::core::{Event, Session, Start};
use super::{EVENT_QUEUE, End, SessionEvent, SessionKind, Setup};
use crate::config::Limits;
use crate::services::{Login, Services, SharedServices};

/// What the client received: each write with the (paused) time it was made, and when the
/// channel was closed.
#[derive(Debug, Default)]
struct Received {
    writes: Vec<(Instant, Vec<u8>)>,
    closed: Option<Instant>,
}

/// An in-memory client: every write completes at once.
#[derive(Debug, Default)]
struct Recorder(Mutex<Received>);

impl Recorder {
    fn lock(&self) -> std::sync::MutexGuard<'_, Received> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn writes(&self) -> usize {
        self.lock().writes.len()
    }

    fn closed(&self) -> Option<Instant> {
        self.lock().closed
    }

    fn last_write(&self) -> String {
        let received = self.lock();
        let bytes = received.writes.last().map(|(_, b)| b.clone());
        String::from_utf8_lossy(&bytes.unwrap_or_default()).into_owned()
    }
}

impl Client for Arc<Recorder> {
    fn data(&self, bytes: Vec<u8>) -> ClientFuture<Result<(), ()>> {
        self.lock().writes.push((Instant::now(), bytes));
        Box::pin(async { Ok(()) })
    }

    fn close(&self, _exit_status: u32) -> ClientFuture<()> {
        self.lock().closed = Some(Instant::now());
        Box::pin(async {})
    }
}

const IDLE: Duration = Duration::from_secs(60);

pub(super) fn limits() -> Limits {
    Limits {
        idle_timeout: IDLE,
        ..Limits::default()
    }
}

/// A guest's services on a server without a database.
pub(super) fn services() -> (Services, mpsc::Receiver<minotty_ui::Response>) {
    let login = Login {
        ssh_user: "ada".into(),
        identity: crate::services::Identity::Guest,
        peer: IpAddr::V4(Ipv4Addr::LOCALHOST).into(),
        account: None,
    };
    Services::new(&SharedServices::default(), login)
}

/// A running session at 80x24 and what drives it.
struct Running {
    client: Arc<Recorder>,
    events: mpsc::Sender<SessionEvent>,
    window: watch::Sender<(u32, u32)>,
    shutdown: CancellationToken,
    task: tokio::task::JoinHandle<()>,
    start: Instant,
}

fn run_session() -> Running {
    run_session_with(limits())
}

fn run_session_with(limits: Limits) -> Running {
    let client = Arc::new(Recorder::default());
    let (events, rx) = mpsc::channel(EVENT_QUEUE);
    let (window, size) = watch::channel((80, 24));
    let shutdown = CancellationToken::new();
    let setup = Setup {
        player: DisplayName::parse_or_guest("ada"),
        size,
        env: crate::terminal::TermEnv::default(),
        limits,
        shutdown: shutdown.clone(),
        reconnect: None,
        services: services(),
        kind: SessionKind::Play,
        doctor: super::DoctorParams::default(),
        local: None,
        web: None,
    };
    let start = Instant::now();
    let task = tokio::spawn(super::shell::run(setup, Arc::new(Arc::clone(&client)), rx));
    Running {
        client,
        events,
        window,
        shutdown,
        task,
        start,
    }
}

/// Lets the session run until `at` on the paused clock (it may wake on its own before).
async fn until(at: Instant) {
    tokio::time::sleep_until(at).await;
    // Whatever became due at `at` runs before the test looks.
    for _ in 0..10 {
        tokio::task::yield_now().await;
    }
}

const DOWN: &[u8] = b"\x1b[B";

/// The main menu at rest draws one frame and nothing more while nothing happens.
#[tokio::test(start_paused = true)]
async fn a_menu_at_rest_draws_once() {
    let s = run_session();
    until(s.start + Duration::from_secs(30)).await;
    assert_eq!(s.client.writes(), 1, "the first frame only");
    assert!(s.client.closed().is_none());
}

/// Ten bursts of twenty keys each within a simulated second draw one frame per burst (a
/// burst is handled in one turn; its frame answers all its keys): 10 frames for 200 keys,
/// not one per key.
#[tokio::test(start_paused = true)]
async fn bursts_of_keys_draw_one_frame_each_at_most() {
    let s = run_session();
    until(s.start + Duration::from_secs(1)).await;
    let before = s.client.writes();
    let t1 = Instant::now();
    for burst in 0..10u32 {
        s.events
            .send(SessionEvent::Input(DOWN.repeat(20)))
            .await
            .expect("the session reads");
        until(t1 + Duration::from_millis(100) * (burst + 1)).await;
    }
    let frames = s.client.writes() - before;
    assert_eq!(frames, 10, "{frames} frames for 10 bursts");
    // The frames answer keys: none is drawn after the bursts while nothing happens.
    until(t1 + Duration::from_secs(10)).await;
    assert_eq!(s.client.writes() - before, frames);
}

/// The idle timeout closes the session exactly the configured time after its start (its
/// last input), with the note that says why; not a millisecond before.
#[tokio::test(start_paused = true)]
async fn the_idle_timeout_closes_the_session_after_exactly_the_configured_time() {
    let s = run_session();
    until(s.start + IDLE - Duration::from_millis(1)).await;
    assert!(s.client.closed().is_none(), "open a millisecond before");
    tokio::time::timeout(Duration::from_secs(5), s.task)
        .await
        .expect("the session ends")
        .expect("the session task");
    assert_eq!(s.client.closed(), Some(s.start + IDLE));
    let last = s.client.last_write();
    assert!(
        last.ends_with("minotty: disconnected after 1 minutes without input\r\n"),
        "{last:?}"
    );
}

/// Input moves the idle deadline: the session lives an idle timeout after the last key.
#[tokio::test(start_paused = true)]
async fn input_moves_the_idle_deadline() {
    let s = run_session();
    until(s.start + Duration::from_secs(30)).await;
    s.events
        .send(SessionEvent::Input(DOWN.to_vec()))
        .await
        .expect("the session reads");
    let key_at = Instant::now();
    until(s.start + IDLE + Duration::from_secs(1)).await;
    assert!(s.client.closed().is_none(), "the key came 30 s in");
    tokio::time::timeout(Duration::from_secs(60), s.task)
        .await
        .expect("the session ends")
        .expect("the session task");
    assert_eq!(s.client.closed(), Some(key_at + IDLE));
}

/// A burst of window changes is applied once, when the client stops: one repaint.
#[tokio::test(start_paused = true)]
async fn a_resize_redraws_once() {
    let s = run_session();
    until(s.start + Duration::from_secs(1)).await;
    assert_eq!(s.client.writes(), 1);
    for (i, size) in [(100, 30), (110, 35), (120, 40)].into_iter().enumerate() {
        s.window.send_replace(size);
        until(s.start + Duration::from_secs(1) + Duration::from_millis(10) * (i as u32 + 1)).await;
    }
    until(s.start + Duration::from_secs(5)).await;
    assert_eq!(s.client.writes(), 2, "one repaint for three changes");
    // The repaint is of the whole screen, at the last size: the menu's box centred on
    // 120x40 (its bottom-left corner at row 30, column 39), which 80x24 has no room for.
    let repaint = s.client.last_write();
    assert!(repaint.contains("\x1b[2J"), "{repaint:?}");
    assert!(repaint.contains("\x1b[30;39H└"), "{repaint:?}");
    // The same size again is no change: nothing drawn.
    s.window.send_replace((120, 40));
    until(s.start + Duration::from_secs(10)).await;
    assert_eq!(s.client.writes(), 2);
}

/// On shutdown the player is told, the channel closed and the session task ends.
#[tokio::test(start_paused = true)]
async fn a_shutdown_notice_reaches_the_player_and_the_session_ends() {
    let s = run_session();
    until(s.start + Duration::from_secs(1)).await;
    s.shutdown.cancel();
    tokio::time::timeout(Duration::from_secs(5), s.task)
        .await
        .expect("the session ends")
        .expect("the session task");
    let last = s.client.last_write();
    assert!(
        last.ends_with("minotty: the server is restarting, see you in a minute\r\n"),
        "{last:?}"
    );
    assert_eq!(s.client.closed(), Some(s.start + Duration::from_secs(1)));
}

/// The client closing its channel ends the session without a goodbye.
#[tokio::test(start_paused = true)]
async fn a_closed_channel_ends_the_session_without_a_goodbye() {
    let s = run_session();
    until(s.start + Duration::from_secs(1)).await;
    s.events
        .send(SessionEvent::Closed)
        .await
        .expect("the session reads");
    tokio::time::timeout(Duration::from_secs(5), s.task)
        .await
        .expect("the session ends")
        .expect("the session task");
    assert_eq!(s.client.writes(), 1, "the first frame only");
    assert!(s.client.closed().is_none());
}

/// A session struct at `t0`, 80x24, without a shell.
fn session(t0: Instant) -> Session {
    let (services, _responses) = services();
    let app = minotty_ui::App::new(minotty_ui::AppContext::default());
    Session::new(
        t0,
        app,
        Start {
            services,
            size: (80, 24),
            stream: false,
            limits: limits(),
            client: crate::doctor::ClientInfo::default(),
            public_name: "~ada".into(),
            unix_start: 1_700_000_000,
        },
    )
}

/// The first frame goes out with the terminal's setup in front of it; no second write
/// starts while it is in flight; nothing is drawn again until something changes.
#[tokio::test(start_paused = true)]
async fn the_struct_draws_the_first_frame_once_and_waits_for_its_write() {
    let t0 = Instant::now();
    let mut s = session(t0);
    assert_eq!(s.begin(t0), Ok(()));
    let first = s.plan(t0).write.expect("the first frame");
    assert!(first.starts_with(crate::terminal::ENTER));
    assert_eq!(s.begin(t0), Ok(()));
    assert_eq!(s.plan(t0).write, None, "a write is in flight");
    assert_eq!(s.on_event(t0, Event::Written(Ok(()))), None);
    s.after_event(t0);
    let t1 = t0 + Duration::from_millis(20);
    assert_eq!(s.begin(t1), Ok(()));
    assert_eq!(s.plan(t1).write, None, "nothing changed");
}

/// Idleness on injected instants: the session ends at `t0 + IDLE`, not before.
#[tokio::test(start_paused = true)]
async fn the_struct_idles_out_at_its_deadline() {
    let t0 = Instant::now();
    let mut s = session(t0);
    assert_eq!(s.begin(t0), Ok(()));
    let plan = s.plan(t0);
    assert!(plan.wake <= t0 + IDLE);
    assert_eq!(s.begin(t0 + IDLE - Duration::from_millis(1)), Ok(()));
    assert_eq!(s.begin(t0 + IDLE), Err(End::Idle));
}

/// Shutdown and key removal are values the struct ends on; a lone ESC waits for the rest of
/// its sequence until the ESC timeout, which is the next wakeup.
#[tokio::test(start_paused = true)]
async fn the_struct_ends_on_shutdown_and_wakes_for_a_lone_escape() {
    let t0 = Instant::now();
    let mut s = session(t0);
    assert_eq!(s.on_event(t0, Event::Shutdown), Some(End::Shutdown));
    assert_eq!(s.on_event(t0, Event::KeyRemoved), Some(End::KeyRemoved));
    assert_eq!(
        s.on_event(t0, Event::BrowserUnlinked),
        Some(End::BrowserUnlinked)
    );
    assert_eq!(
        s.on_event(t0, Event::Client(SessionEvent::Eof)),
        Some(End::ClientEof)
    );
    let t1 = t0 + Duration::from_secs(2);
    assert_eq!(s.begin(t1), Ok(()));
    let _ = s.plan(t1);
    assert_eq!(s.on_event(t1, Event::Written(Ok(()))), None);
    assert_eq!(
        s.on_event(t1, Event::Client(SessionEvent::Input(b"\x1b".to_vec()))),
        None
    );
    s.after_event(t1);
    assert_eq!(s.begin(t1), Ok(()));
    assert_eq!(s.plan(t1).wake, t1 + crate::input::ESC_TIMEOUT);
}

/// Window changes on injected instants: due once the client is quiet, applied once.
#[tokio::test(start_paused = true)]
async fn the_struct_applies_a_resize_once_the_client_is_quiet() {
    let t0 = Instant::now();
    let mut s = session(t0);
    assert_eq!(s.begin(t0), Ok(()));
    let _ = s.plan(t0);
    assert_eq!(s.on_event(t0, Event::Written(Ok(()))), None);
    assert!(s.wants_window_changes());
    assert_eq!(s.on_event(t0, Event::WindowChanged), None);
    assert!(!s.wants_window_changes(), "a change is pending");
    assert!(!s.resize_due(t0));
    let quiet = t0 + crate::resize::RESIZE_QUIET;
    assert!(s.resize_due(quiet));
    s.on_resize(quiet, (100, 30), false);
    assert_eq!(s.term_size(), (100, 30));
    assert_eq!(s.begin(quiet), Ok(()));
    assert!(s.plan(quiet).write.is_some(), "the repaint");
    assert_eq!(s.counts().0, 1, "one size applied");
}

/// Frames a game in play draws on its own in 5 simulated seconds, past its start, with the
/// server's frame cap `min_frame_interval`.
async fn game_frames_in_five_seconds(min_frame_interval: Duration) -> usize {
    let s = run_session_with(Limits {
        min_frame_interval,
        ..limits()
    });
    until(s.start + Duration::from_secs(1)).await;
    // Play, then the first mode.
    for _ in 0..2 {
        s.events
            .send(SessionEvent::Input(b"\r".to_vec()))
            .await
            .expect("the session reads");
        until(Instant::now() + Duration::from_millis(100)).await;
    }
    let before = s.client.writes();
    until(Instant::now() + Duration::from_secs(5)).await;
    s.client.writes() - before
}

/// In a game, time makes frames (the countdown, gravity, clocks): at most one per frame
/// interval of the server's cap. Capped at 2 frames/s, 5 seconds draw at most 11 frames
/// (one on each side of every interval), where the default cap lets the same game draw
/// more than that.
#[tokio::test(start_paused = true)]
async fn frames_in_a_game_are_paced_to_the_cap() {
    let capped = game_frames_in_five_seconds(Duration::from_millis(500)).await;
    let free = game_frames_in_five_seconds(Limits::default().min_frame_interval).await;
    assert!(capped >= 5, "a game in play draws on its own: {capped}");
    assert!(capped <= 11, "{capped} frames in 5 s at 2 frames/s");
    assert!(free > 11, "the same game at the default cap: {free}");
}

/// Two sessions that started 3 ms apart draw the frames that time makes (the countdown, the
/// clock's tenths, gravity) on the server's shared beat: every such frame of one is a whole
/// number of beats from every such frame of the other (without the beat, each session's
/// tenths fall 3 ms off the other's), so the runtime wakes once for both.
#[tokio::test(start_paused = true)]
async fn sessions_draw_what_time_makes_on_a_shared_beat() {
    let a = run_session();
    until(Instant::now() + Duration::from_millis(3)).await;
    let b = run_session();
    for _ in 0..2 {
        for s in [&a, &b] {
            s.events
                .send(SessionEvent::Input(b"\r".to_vec()))
                .await
                .expect("the session reads");
        }
        until(Instant::now() + Duration::from_millis(100)).await;
    }
    let from = Instant::now();
    until(from + Duration::from_secs(8)).await;
    let timed = |s: &Running| -> Vec<Instant> {
        let received = s.client.lock();
        received
            .writes
            .iter()
            .map(|(at, _)| *at)
            .filter(|&at| at > from)
            .collect()
    };
    let (ta, tb) = (timed(&a), timed(&b));
    assert!(
        ta.len() >= 40 && tb.len() >= 40,
        "{} and {} frames",
        ta.len(),
        tb.len()
    );
    let beat = Duration::from_millis(8).as_nanos();
    for &x in &ta {
        for &y in &tb {
            let apart = if x > y { x - y } else { y - x };
            assert_eq!(apart.as_nanos() % beat, 0, "frames {apart:?} apart");
        }
    }
    for s in [a, b] {
        s.shutdown.cancel();
        let _ = s.task.await;
    }
}

/// A server restart that ends a versus match in progress says so in the last line the player
/// reads (the match's own screen is gone by then): abandoned, not rated.
#[tokio::test(start_paused = true)]
async fn a_shutdown_during_a_match_says_the_match_is_abandoned() {
    use minotty_engine::versus::MatchKind;
    use minotty_ui::{Key, KeyEvent};

    let t0 = Instant::now();
    let mut s = session(t0);
    let app = s.app_mut();
    for key in [Key::Down, Key::Enter] {
        app.handle_key(KeyEvent::press(key), 0);
    }
    app.deliver(
        minotty_ui::Response::MatchStart(minotty_protocol::MatchStart {
            teams: Vec::new(),
            kind: MatchKind::Battle,
            mode: minotty_engine::Mode::custom(1, false, None),
            seed: 3,
            players: vec!["ada".into(), "bob".into()],
            you: Some(0),
            countdown_ms: 3000,
            ranked: true,
            game: Default::default(),
        }),
        0,
    );
    app.tick(3500);
    let bye = String::from_utf8_lossy(&s.goodbye(End::Shutdown, &limits())).into_owned();
    assert!(
        bye.ends_with(
            "minotty: the server is restarting. Your match is abandoned, not rated. See you in a \
             minute\r\n"
        ),
        "{bye:?}"
    );
}

/// The session reads no clock: a finished game's date is the wall clock the shell read at
/// the start plus the session's age on tokio's clock.
#[tokio::test(start_paused = true)]
async fn a_games_date_is_the_start_plus_the_sessions_age() {
    let t0 = Instant::now();
    let s = session(t0);
    assert_eq!(s.unix_at(t0), 1_700_000_000);
    assert_eq!(s.unix_at(t0 + Duration::from_millis(90_999)), 1_700_000_090);
}
