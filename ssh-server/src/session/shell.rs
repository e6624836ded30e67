//! The session's async shell: it starts the session (the one database wait), then turns the
//! loop: reads the clock, lets the [`Session`] decide, starts its writes, and waits for
//! whatever comes first. Every decision is the `Session`'s (`core.rs`); this file only waits
//! and does the IO, on tokio's clock (so tests run it on the paused clock).

use std::sync::Arc;
use std::time::Duration;

use minotty_protocol::Identity;
use minotty_ui::{App, AppContext};
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep_until, timeout};

use super::client::Client;
use super::core::{Event, Session, Start};
use super::outbox::Outbox;
use super::{End, GOODBYE_TIMEOUT, SessionEvent, SessionKind, Setup};
use crate::doctor;

/// How long a session's end waits to store settings the player left unsaved.
const SETTINGS_SAVE_TIMEOUT: Duration = Duration::from_secs(2);

/// Responses handed to the App in one turn of the loop, so that a flood of them never holds
/// up the player's own input or frames.
const RESPONSE_BATCH: usize = 64;

/// Runs the session on `client` until the player quits, the client leaves or the server
/// shuts down.
pub(crate) async fn run(
    setup: Setup,
    client: Arc<dyn Client>,
    mut events: mpsc::Receiver<SessionEvent>,
) {
    let Setup {
        player,
        size: mut window,
        env,
        limits,
        shutdown,
        reconnect,
        services: (services, mut responses),
        kind,
        doctor: doctor_params,
        local,
        web,
    } = setup;
    let stream = kind == SessionKind::TvStream;
    let start = Instant::now();
    let _open = crate::metrics::session_opened();

    // The one database wait of a session, before its loop (bounded inside `start`).
    let (identity, stored) = services.account.start().await;
    let player_name = match &identity {
        Identity::Registered { name, .. } => name.clone(),
        _ => player.to_string(),
    };
    // Removing the key (from another session of the account) ends this one; so does
    // unlinking the browser it plays in.
    let revoked = services.account.revoked();
    let browser = services.account.is_browser();
    let ctx = AppContext {
        player_name,
        seed: rand::random(),
        identity,
        // A running solo game left without input pauses itself; paused, it idles out after
        // another idle timeout (below).
        idle_pause_ms: Some(u64::try_from(limits.idle_timeout.as_millis()).unwrap_or(u64::MAX)),
        open_tv: kind == SessionKind::Tv,
        open_match: match kind {
            SessionKind::Match(id) => Some(id),
            _ => None,
        },
        tv_stream: stream,
        start_doctor: doctor_params.open,
        server_address: local.map(crate::address::ssh_target),
        web_address: web,
        ..AppContext::default()
    };
    let app = match stored {
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
    let size = *window.borrow_and_update();
    let client_info = doctor::ClientInfo {
        pty: true,
        term: doctor_params.term,
        env,
        ssh_client: doctor_params.ssh_client,
    };
    let mut session = Session::new(
        start,
        app,
        Start {
            services,
            size,
            stream,
            limits: limits.clone(),
            client: client_info,
            public_name: player.for_guest(),
            unix_start: minotty_store::unix_now(),
        },
    );
    // A game this key left when its connection dropped is offered back.
    if let Some(r) = &reconnect
        && let Some((parked, away_ms)) = r.games.take(&r.key)
    {
        tracing::info!(player = %player, away_ms, "parked game offered");
        let at = session.ms(Instant::now());
        session.offer_parked(parked, away_ms, at);
    }
    let mut outbox = Outbox::new(client);

    let end = loop {
        let now = Instant::now();
        if let Err(end) = session.begin(now) {
            break end;
        }
        if session.resize_due(now) {
            let more = window.has_changed().unwrap_or(false);
            let size = *window.borrow_and_update();
            session.on_resize(now, size, more);
        }
        let plan = session.plan(now);
        if let Some(bytes) = plan.write {
            outbox.send(bytes);
        }

        // The player's own frames and input come before what others send (a flood of
        // responses is handed over in bounded batches and never starves them).
        let event = tokio::select! {
            biased;
            () = shutdown.cancelled() => Event::Shutdown,
            () = revoked.cancelled() => if browser {
                Event::BrowserUnlinked
            } else {
                Event::KeyRemoved
            },
            sent = outbox.wait() => Event::Written(sent),
            event = events.recv() => Event::Client(event.unwrap_or(SessionEvent::Closed)),
            Some(response) = responses.recv() => {
                let mut batch = vec![response];
                while batch.len() < RESPONSE_BATCH {
                    match responses.try_recv() {
                        Ok(response) => batch.push(response),
                        Err(_) => break,
                    }
                }
                Event::Responses(batch)
            }
            changed = window.changed(), if session.wants_window_changes() => match changed {
                Ok(()) => Event::WindowChanged,
                Err(_) => Event::WindowClosed,
            },
            () = sleep_until(plan.wake) => Event::Woke,
        };
        let now = Instant::now();
        if let Some(end) = session.on_event(now, event) {
            break end;
        }
        session.after_event(now);
    };
    session.finish(Instant::now(), end, reconnect.as_ref(), &player);

    // The handler must never wait on a session that no longer reads.
    events.close();
    drop(events);
    // Settings changed but not stored by leaving the settings screen (the player quit, or the
    // connection dropped): stored now, briefly waited for.
    if let Some(settings) = session.app_mut().take_unsaved_settings() {
        session
            .services_mut()
            .account
            .save_settings_now(&settings, SETTINGS_SAVE_TIMEOUT)
            .await;
    }
    let (resizes, (dropped_bytes, dropped_keys)) = session.counts();
    tracing::info!(
        player = %player,
        reason = ?end,
        seconds = start.elapsed().as_secs(),
        bytes_sent = outbox.bytes_sent(),
        resizes,
        dropped_bytes,
        dropped_keys,
        "session ended"
    );
    if end != End::ClientGone {
        let bytes = session.goodbye(end, &limits);
        let _ = timeout(GOODBYE_TIMEOUT, goodbye(&mut outbox, bytes)).await;
    }
}

/// Writes the session's last bytes once the write in flight is out, and ends the channel
/// with an exit status.
async fn goodbye(outbox: &mut Outbox, bytes: Vec<u8>) {
    if outbox.drain().await.is_err() {
        return;
    }
    let client = Arc::clone(outbox.client());
    let _ = client.data(bytes).await;
    client.close(0).await;
}
