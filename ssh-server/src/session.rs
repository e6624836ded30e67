//! One player's game session: a task that owns the terminal, the input decoder and the UI
//! `App`. It sleeps until input, a resize, the App's next wakeup, the next allowed frame or
//! shutdown; the russh handler only forwards events to it.
//!
//! What the client sends is held to budgets before it reaches the App ([`InputGate`]): bytes
//! parsed per second, bytes that parse to nothing, key events per second. Window changes are
//! merged: only the latest size is kept, and it is applied once the client stops changing it
//! ([`crate::resize`]).

use std::time::Duration;

use minotty_domain::DisplayName;
use minotty_protocol::Identity;
use minotty_ui::{App, AppContext};
use minotty_ui::{Request, Response};
use russh::ChannelId;
use russh::server::Handle;
use tokio::sync::{mpsc, watch};
use tokio::time::{Instant, sleep_until, timeout};
use tokio_util::sync::CancellationToken;

use crate::budget::InputGate;
use crate::config::Limits;
use crate::doctor::{self, Prober, Reply};
use crate::input::{ESC_TIMEOUT, Input, InputDecoder};
use crate::outbox::Outbox;
use crate::resize::{Check, Resizer};
use crate::services::Services;
use crate::terminal::{self, RemoteTerminal};

mod idle;
mod negotiation;
mod pacing;
mod probe;
mod wake;
use idle::{Doing, IdleEnd, Idleness};
use negotiation::Negotiation;
use pacing::Pacer;
use probe::DoctorProbe;
use wake::Wake;

/// What the handler forwards to the session task.
#[derive(Debug)]
pub enum SessionEvent {
    Input(Vec<u8>),
    /// The client will send no more input.
    Eof,
    /// The client closed the channel.
    Closed,
}

/// Events queued between the handler and the session before the handler waits.
pub const EVENT_QUEUE: usize = 64;

/// How long a session's end waits to store settings the player left unsaved.
const SETTINGS_SAVE_TIMEOUT: Duration = Duration::from_secs(2);

/// How long the goodbye (terminal restore, exit status, close) may take.
const GOODBYE_TIMEOUT: Duration = Duration::from_secs(5);

/// Responses handed to the App in one turn of the loop, so that a flood of them never holds
/// up the player's own input or frames.
const RESPONSE_BATCH: usize = 64;

/// What a session is for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SessionKind {
    /// The game, from the main menu.
    #[default]
    Play,
    /// The game, opened at the Live screen's TV (`ssh -t HOST watch`).
    Tv,
    /// The TV streamed to a client without a terminal (`ssh HOST watch`): frames at 80x24, no
    /// input read, ended by the client, the server or [`crate::live::MAX_WATCH`].
    TvStream,
    /// The game, opened at the terminal doctor (`ssh -t HOST doctor`); leaving it ends the
    /// session.
    Doctor,
}

/// Everything a session starts from.
#[derive(Debug)]
pub struct SessionParams {
    pub handle: Handle,
    pub channel: ChannelId,
    pub player: DisplayName,
    /// Columns and rows of the client's window: from the PTY request, then the latest window
    /// change (clamped here). Only the latest size is ever kept.
    pub size: watch::Receiver<(u32, u32)>,
    /// What the client's environment requests said about its terminal.
    pub env: crate::terminal::TermEnv,
    pub limits: Limits,
    pub shutdown: CancellationToken,
    /// Where a solo game goes when the connection drops, and comes back from (players with a
    /// key only).
    pub reconnect: Option<crate::reconnect::Reconnect>,
    /// The session's accounts and versus services and the channel their answers come on.
    pub services: (Services, mpsc::Receiver<Response>),
    pub kind: SessionKind,
    /// What the terminal doctor starts from (TERM, the client's SSH version), and whether the
    /// session opens on it (`ssh -t HOST doctor`).
    pub doctor: DoctorParams,
    /// The address the player connected to (`address.rs`), for the commands screens print.
    pub local: Option<std::net::SocketAddr>,
}

/// The terminal doctor's part of [`SessionParams`].
#[derive(Clone, Debug, Default)]
pub struct DoctorParams {
    pub term: Option<String>,
    pub ssh_client: Option<String>,
    /// Open on the Doctor screen; leaving it ends the session.
    pub open: bool,
}

/// Why a session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Quit,
    Idle,
    Shutdown,
    ClientEof,
    ClientGone,
    /// The key the player logged in with was removed from its account.
    KeyRemoved,
    /// A watcher reached [`crate::live::MAX_WATCH`].
    WatchLimit,
}

/// Runs the session until the player quits, the client leaves or the server shuts down.
pub async fn run(params: SessionParams, mut events: mpsc::Receiver<SessionEvent>) {
    let SessionParams {
        handle,
        channel,
        player,
        size: mut window,
        env,
        limits,
        shutdown,
        reconnect,
        services: (mut services, mut responses),
        kind,
        doctor: doctor_params,
        local,
    } = params;
    let stream = kind == SessionKind::TvStream;
    let client = doctor::ClientInfo {
        pty: true,
        term: doctor_params.term,
        env: env.clone(),
        ssh_client: doctor_params.ssh_client,
    };
    let start = Instant::now();
    let _open = crate::metrics::session_opened();
    let ms = |at: Instant| u64::try_from(at.duration_since(start).as_millis()).unwrap_or(u64::MAX);

    // The one database wait of a session, before its loop (bounded inside `start`).
    let (identity, stored) = services.account.start().await;
    let player_name = match &identity {
        Identity::Registered { name, .. } => name.clone(),
        _ => player.to_string(),
    };
    // Removing the key (from another session of the account) ends this one.
    let revoked = services.account.revoked();
    let ctx = AppContext {
        player_name,
        seed: rand::random(),
        identity,
        // A running solo game left without input pauses itself; paused, it idles out after
        // another idle timeout (below).
        idle_pause_ms: Some(u64::try_from(limits.idle_timeout.as_millis()).unwrap_or(u64::MAX)),
        open_tv: kind == SessionKind::Tv,
        tv_stream: stream,
        start_doctor: doctor_params.open,
        server_address: local.map(crate::address::ssh_target),
        ..AppContext::default()
    };
    let mut app = match stored {
        Some(settings) => App::with_settings(ctx, settings),
        // A player without stored settings gets 24-bit colour when the terminal says it has
        // it (`COLORTERM`, sent with `SendEnv COLORTERM`).
        None if env.truecolor() => App::with_settings(
            ctx,
            minotty_ui::Settings {
                colors: minotty_ui::ColorMode::TrueColor,
                ..minotty_ui::Settings::default()
            },
        ),
        None => App::new(ctx),
    };
    let (cols, rows) = {
        let (c, r) = *window.borrow_and_update();
        terminal::clamp_size(c, r)
    };
    let mut term = RemoteTerminal::new(cols, rows);
    app.set_size(cols, rows, 0);
    // A game this key left when its connection dropped is offered back.
    if let Some(r) = &reconnect
        && let Some((game, away_ms)) = r.games.take(&r.fingerprint)
    {
        tracing::info!(player = %player, away_ms, "parked game offered");
        app.offer_parked(game, away_ms, ms(Instant::now()));
    }
    let mut decoder = InputDecoder::new();
    let mut gate = InputGate::new(0);
    // Window changes seen and not applied yet.
    let mut resizer = Resizer::new();
    let mut window_open = true;
    let mut outbox = Outbox::new(handle, channel);
    // A stream has no terminal to ask about its keyboard.
    outbox.push_prefix(if stream {
        crate::live::STREAM_ENTER
    } else {
        terminal::ENTER
    });
    let mut negotiation = Negotiation::start(start, stream);
    if stream {
        app.set_release_events(false);
    }
    // The player's solo game on the Live list (while they let others watch).
    let mut publisher = crate::live::SoloPublisher::new(services.live.directory().clone());
    let public_name = player.for_guest();
    let mut kitty_pushed = false;
    let mut needs_draw = true;
    let mut pacer = Pacer::default();
    let mut idleness = Idleness::new(start, stream, limits.idle_timeout);
    let mut esc_deadline: Option<Instant> = None;
    let mut inputs: Vec<Input> = Vec::new();
    // The terminal doctor, once the App asks for it (frames wait while it asks).
    let mut doctor_probe = DoctorProbe::default();
    let mut playing = crate::metrics::Playing::default();
    let mut latency = crate::metrics::InputLatency::default();

    let end = loop {
        let now = Instant::now();
        app.tick(ms(now));
        playing.set(app.in_game(), app.live_game().is_none());
        if app.should_quit() {
            break End::Quit;
        }
        let paused = app.game_paused();
        if negotiation.expire(now) {
            app.set_release_events(false);
        }
        let doing = Doing {
            paused,
            in_game: app.in_game(),
            watching_live: app.watching_live(),
        };
        let (idle_deadline, idle_end) = idleness.check(now, doing);
        match idle_end {
            Some(IdleEnd::WatchLimit) => break End::WatchLimit,
            Some(IdleEnd::Idle) => break End::Idle,
            None => {}
        }
        // The same setting covers the player's versus matches on the Live list.
        services.versus.set_watchable(app.settings().let_watch);
        publisher.update(
            app.live_game(),
            app.settings().let_watch,
            || match app.identity() {
                Identity::Registered { name, .. } => name.clone(),
                _ => public_name.clone(),
            },
            now,
        );

        // Only the latest window size counts; it is applied once the client stops changing it
        // (or a second into a stream of changes that never pauses), however many arrive.
        let mut resize_due = resizer.due();
        if let Some(due) = resize_due
            && now >= due
        {
            let more = window.has_changed().unwrap_or(false);
            let (c, r) = *window.borrow_and_update();
            resize_due = match resizer.check(now, more) {
                Check::Wait(at) => Some(at),
                Check::Apply => {
                    let (cols, rows) = terminal::clamp_size(c, r);
                    if (cols, rows) != term.size() {
                        term.resize(cols, rows);
                        app.set_size(cols, rows, ms(now));
                        app.mark_dirty();
                    }
                    None
                }
            };
        }

        needs_draw |= app.take_dirty();
        // The player's frame-rate setting, never faster than the server allows. It paces the
        // frames that time makes (gravity, clocks, animations); a frame that answers the
        // player's key goes out as soon as no write is in flight, so a key that arrives just
        // after a timed frame never waits for the cap. Keys are bounded by the input gate, so
        // these frames are too.
        let interval =
            Duration::from_millis(app.frame_interval_ms()).max(limits.min_frame_interval);
        let frame_due = pacer.due(now, interval);
        if doctor_probe.may_start(&negotiation, needs_draw || outbox.busy()) {
            doctor_probe.start(Prober::new(&client, term.size().1));
        }
        if let Some(report) = doctor_probe.poll(ms(now)) {
            app.deliver(Response::Doctor(Box::new(report)), ms(now));
            // The probe printed on the screen: repaint all of it.
            let (cols, rows) = term.size();
            term.resize(cols, rows);
            needs_draw = true;
        }
        if doctor_probe.running() {
            if !outbox.busy()
                && let Some(bytes) = doctor_probe.next_write(ms(now))
            {
                outbox.send(bytes);
            }
        } else if !outbox.busy() {
            if needs_draw && now >= frame_due {
                term.draw(|area, buf| app.render_into(area, buf));
                needs_draw = false;
                pacer.drawn(now);
                outbox.send(terminal::frame_bytes(&[], &term.take_output()));
                latency.frame();
            } else if outbox.has_prefix() {
                outbox.send(Vec::new());
            }
        }

        let mut wake = Wake::new(now, idle_deadline);
        let after_start = |at: u64| start + Duration::from_millis(at);
        wake.by(app.next_wakeup().map(after_start));
        if needs_draw && !outbox.busy() && !doctor_probe.running() {
            wake.by(Some(frame_due));
        }
        wake.by(esc_deadline);
        wake.by(resize_due);
        wake.by(publisher.next_due());
        wake.by(negotiation.deadline());
        wake.by(doctor_probe.deadline().map(after_start));
        // The doctor can start on the next turn (the frame drawn above may have been empty,
        // which wakes nothing).
        if doctor_probe.may_start(&negotiation, needs_draw || outbox.busy()) {
            wake.at_once();
        }
        let wake = wake.at();

        // The player's own frames and input come before what others send (a flood of
        // responses is handed over in bounded batches and never starves them).
        tokio::select! {
            biased;
            () = shutdown.cancelled() => break End::Shutdown,
            () = revoked.cancelled() => break End::KeyRemoved,
            sent = outbox.wait() => {
                if sent.is_err() {
                    break End::ClientGone;
                }
            }
            event = events.recv() => match event {
                // A stream reads no input and goes on after the client's EOF.
                Some(SessionEvent::Input(_) | SessionEvent::Eof) if stream => {}
                Some(SessionEvent::Input(bytes)) => {
                    let now = Instant::now();
                    idleness.input(now);
                    let at = ms(now);
                    let admitted = gate.admit_bytes(bytes.len(), at);
                    decoder.feed(bytes.get(..admitted).unwrap_or_default(), &mut inputs);
                    if admitted < bytes.len() {
                        // The rest is discarded: never resume parsing in mid-sequence.
                        decoder.reset();
                        crate::work::input_dropped(bytes.len() - admitted);
                    }
                    esc_deadline = decoder.has_pending().then(|| now + ESC_TIMEOUT);
                }
                Some(SessionEvent::Eof) => break End::ClientEof,
                Some(SessionEvent::Closed) | None => break End::ClientGone,
            },
            Some(response) = responses.recv() => {
                let at = ms(Instant::now());
                app.deliver(response, at);
                for _ in 1..RESPONSE_BATCH {
                    match responses.try_recv() {
                        Ok(response) => app.deliver(response, at),
                        Err(_) => break,
                    }
                }
            }
            changed = window.changed(), if window_open && !resizer.pending() => {
                match changed {
                    Ok(()) => resizer.changed(Instant::now()),
                    Err(_) => window_open = false,
                }
            }
            () = sleep_until(wake) => {
                if esc_deadline.is_some_and(|at| Instant::now() >= at) {
                    esc_deadline = None;
                    decoder.flush(&mut inputs);
                }
            }
        }

        let now_ms = ms(Instant::now());
        gate.spend_wasted(decoder.take_wasted(), now_ms);
        let mut keys_handled = false;
        for input in inputs.drain(..) {
            match input {
                Input::Key(key) => {
                    if gate.admit_key(&key, now_ms) {
                        app.handle_key(key, now_ms);
                        keys_handled = true;
                    }
                }
                Input::Reply {
                    reply: Reply::KittyFlags(_),
                    ..
                } if negotiation.is_waiting() => negotiation.flags(),
                Input::Reply {
                    reply: Reply::DeviceAttributes,
                    ..
                } if negotiation.is_waiting() => {
                    if let Some(flags_seen) = negotiation.attributes() {
                        if flags_seen {
                            outbox.push_prefix(terminal::KITTY_PUSH);
                            kitty_pushed = true;
                        }
                        app.set_release_events(flags_seen);
                        tracing::debug!(kitty = flags_seen, "keyboard protocol negotiated");
                    }
                }
                Input::Reply { reply, bytes } => {
                    // A reply nobody asked for costs what garbage costs.
                    doctor::route_reply(
                        doctor_probe.prober_mut(),
                        &reply,
                        bytes,
                        &mut gate,
                        now_ms,
                    );
                }
            }
        }
        if keys_handled && app.take_dirty() {
            // What changed now answers the keys just handled.
            latency.key(idleness.last_input());
            needs_draw = true;
            pacer.answer_key();
        }
        hand_over(&mut app, &mut services, &mut doctor_probe);
    };
    // The connection dropped: a solo game in progress waits, paused, for the same key.
    if matches!(end, End::ClientEof | End::ClientGone)
        && let Some(r) = &reconnect
        && let Some(game) = app.park_game(ms(Instant::now()))
    {
        tracing::info!(player = %player, mode = game.kind().id(), "game parked");
        r.park(game);
        // Its watchers hear that it waits for its player, not that it is over.
        publisher.parked();
    }
    // A game that ended in the last turn (the loop broke before handing it over: shutdown,
    // EOF, a close) is still stored, and the room still hears the end of a versus game.
    app.tick(ms(Instant::now()));
    hand_over(&mut app, &mut services, &mut doctor_probe);

    // The handler must never wait on a session that no longer reads.
    events.close();
    drop(events);
    // Settings changed but not stored by leaving the settings screen (the player quit, or the
    // connection dropped): stored now, briefly waited for.
    if let Some(settings) = app.take_unsaved_settings() {
        services
            .account
            .save_settings_now(&settings, SETTINGS_SAVE_TIMEOUT)
            .await;
    }
    let (dropped_bytes, dropped_keys) = gate.dropped();
    tracing::info!(
        player = %player,
        reason = ?end,
        seconds = start.elapsed().as_secs(),
        bytes_sent = outbox.bytes_sent(),
        resizes = resizer.applied(),
        dropped_bytes,
        dropped_keys,
        "session ended"
    );
    if end != End::ClientGone {
        let _ = timeout(
            GOODBYE_TIMEOUT,
            goodbye(&mut outbox, end, kitty_pushed, &limits),
        )
        .await;
    }
}

/// Hands what the App produced to the services: a finished solo game goes to the game writer
/// without waiting (what storing it earned comes back as a response), requests are carried out.
/// The terminal doctor's request stays with the session, which owns the terminal.
/// Whether the terminal doctor's probe starts now: it was asked for and none runs, the
/// keyboard negotiation is over (its DA1 reply would be taken for the doctor's), and the frame
/// that says so is out (`frame_pending`: one to draw or a write in flight).
fn hand_over(app: &mut App, services: &mut Services, doctor_probe: &mut DoctorProbe) {
    if let Some(game) = app.take_finished_game() {
        services
            .account
            .submit_game(game, minotty_store::unix_now());
    }
    if app.has_requests() {
        for request in app.take_requests() {
            if request == Request::RunDoctor {
                doctor_probe.want();
            } else {
                services.handle(request);
            }
        }
    }
}

/// Restores the client's terminal, says why the session ended when it was not the player's
/// choice, and ends the channel with an exit status.
async fn goodbye(outbox: &mut Outbox, end: End, kitty_pushed: bool, limits: &Limits) {
    if outbox.drain().await.is_err() {
        return;
    }
    let mut bytes = outbox.take_prefix();
    bytes.extend_from_slice(&terminal::leave_sequence(kitty_pushed));
    let note = match end {
        End::Idle => Some(format!(
            "minotty: disconnected after {} minutes without input\r\n",
            limits.idle_timeout.as_secs().div_ceil(60)
        )),
        End::Shutdown => Some("minotty: the server is restarting, see you in a minute\r\n".into()),
        End::KeyRemoved => Some("minotty: this SSH key was removed from its account\r\n".into()),
        End::WatchLimit => Some(format!(
            "minotty: you watched for {} minutes, come back any time\r\n",
            crate::live::MAX_WATCH.as_secs() / 60
        )),
        End::Quit | End::ClientEof | End::ClientGone => None,
    };
    if let Some(note) = note {
        bytes.extend_from_slice(note.as_bytes());
    }
    let handle = outbox.handle().clone();
    let channel = outbox.channel();
    let _ = handle.data(channel, bytes).await;
    let _ = handle.exit_status_request(channel, 0).await;
    let _ = handle.eof(channel).await;
    let _ = handle.close(channel).await;
}

/// Restores the terminal after the session task failed (a bug): the player is told and the
/// channel closed, so their terminal is usable again.
pub async fn restore_after_failure(handle: Handle, channel: ChannelId) {
    let mut bytes = terminal::leave_sequence(true);
    bytes.extend_from_slice(b"minotty: something went wrong on the server, sorry\r\n");
    let fut = async {
        let _ = handle.data(channel, bytes).await;
        let _ = handle.exit_status_request(channel, 1).await;
        let _ = handle.eof(channel).await;
        let _ = handle.close(channel).await;
    };
    let _ = timeout(GOODBYE_TIMEOUT, fut).await;
}
