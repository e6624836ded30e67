//! A session's state and decisions, with time coming in: every method takes the current
//! instant and returns what to do (bytes to write, when to wake, why the session ends); the
//! async shell (`shell.rs`) reads the clock, waits and does the IO.
//!
//! One turn of the shell is: [`Session::begin`] (the App's clock, idle, the Live list), the
//! window size when [`Session::resize_due`] asks for it ([`Session::on_resize`]),
//! [`Session::plan`] (a frame or a doctor's write, and the next wakeup), one [`Event`] from
//! whatever woke the shell ([`Session::on_event`]), and [`Session::after_event`] (keys and
//! replies to the App, its requests to the services).

use std::time::Duration;

use minotty_protocol::Identity;
use minotty_ui::{App, Damage, Request, Response};
use tokio::time::Instant;

use super::idle::{Doing, IdleEnd, Idleness};
use super::negotiation::Negotiation;
use super::pacing::Pacer;
use super::probe::DoctorProbe;
use super::wake::Wake;
use super::{End, SessionEvent};
use crate::budget::InputGate;
use crate::config::Limits;
use crate::doctor::{self, Prober, Reply};
use crate::input::{ESC_TIMEOUT, Input, InputDecoder};
use crate::live::SoloPublisher;
use crate::resize::{Check, Resizer};
use crate::services::Services;
use crate::terminal::{self, RemoteTerminal};

/// What woke the shell, as a value.
#[derive(Debug)]
pub(crate) enum Event {
    /// The handler forwarded something from the client.
    Client(SessionEvent),
    /// Answers of the services, at most a batch of them.
    Responses(Vec<Response>),
    /// The write in flight completed (`Ok`) or the channel is gone.
    Written(Result<(), super::outbox::ChannelGone>),
    /// The client changed its window size (the size is read when it is applied).
    WindowChanged,
    /// The handler dropped the window size's sender: no more changes come.
    WindowClosed,
    /// The wakeup [`Plan::wake`] asked for.
    Woke,
    /// The server shuts down.
    Shutdown,
    /// The key the player logged in with was removed from its account.
    KeyRemoved,
    /// The browser the player plays in was unlinked from its account.
    BrowserUnlinked,
}

/// What a turn decided before the shell waits.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Plan {
    /// Bytes to start writing (never while a write is in flight).
    pub write: Option<Vec<u8>>,
    /// When to wake if nothing else happens.
    pub wake: Instant,
}

/// Everything the session holds between turns.
#[derive(Debug)]
pub(crate) struct Session {
    app: App,
    services: Services,
    term: RemoteTerminal,
    start: Instant,
    unix_start: i64,
    stream: bool,
    min_frame_interval: Duration,
    client: doctor::ClientInfo,
    decoder: InputDecoder,
    gate: InputGate,
    /// Window changes seen and not applied yet.
    resizer: Resizer,
    window_open: bool,
    /// Control bytes to send before the next frame.
    prefix: Vec<u8>,
    /// A write is in flight (the shell's outbox holds it).
    busy: bool,
    negotiation: Negotiation,
    /// The player's solo game on the Live list (while they let others watch).
    publisher: SoloPublisher,
    public_name: String,
    kitty_pushed: bool,
    needs_draw: bool,
    /// What the pending frame must redraw: [`Damage::Time`] or [`Damage::Board`] when
    /// only the App's parts changed since the last frame ([`crate::terminal::RemoteTerminal::draw_app`]).
    pending: Damage,
    pacer: Pacer,
    idleness: Idleness,
    /// When idleness ends the session, as of the last [`Session::begin`].
    idle_deadline: Instant,
    esc_deadline: Option<Instant>,
    inputs: Vec<Input>,
    /// The terminal doctor, once the App asks for it (frames wait while it asks).
    doctor_probe: DoctorProbe,
    playing: crate::metrics::Playing,
    latency: crate::metrics::InputLatency,
}

/// What the session starts from, besides its App (built by `super::new_app`).
#[derive(Debug)]
pub(crate) struct Start {
    pub services: Services,
    pub size: (u32, u32),
    pub stream: bool,
    pub limits: Limits,
    pub client: doctor::ClientInfo,
    pub public_name: String,
    /// The wall clock (Unix seconds) at `start`, read by the shell: the session reads no
    /// clock of its own, and a finished game's date is this plus the session's age.
    pub unix_start: i64,
}

impl Session {
    /// A session started at `start` (its App's clock counts from there).
    pub(crate) fn new(start: Instant, mut app: App, s: Start) -> Session {
        let (cols, rows) = terminal::clamp_size(s.size.0, s.size.1);
        let term = RemoteTerminal::new(cols, rows);
        // The App lays out the drawn area (at most the UI's largest screen), not the window.
        let (w, h) = term.drawn_size();
        app.set_size(w, h, 0);
        // A stream has no terminal to ask about its keyboard.
        let prefix = if s.stream {
            crate::live::STREAM_ENTER
        } else {
            terminal::ENTER
        }
        .to_vec();
        if s.stream {
            app.set_release_events(false);
        }
        let publisher = SoloPublisher::new(s.services.live.directory().clone());
        Session {
            app,
            services: s.services,
            term,
            start,
            unix_start: s.unix_start,
            stream: s.stream,
            min_frame_interval: s.limits.min_frame_interval,
            client: s.client,
            decoder: InputDecoder::new(),
            gate: InputGate::new(0),
            resizer: Resizer::new(),
            window_open: true,
            prefix,
            busy: false,
            negotiation: Negotiation::start(start, s.stream),
            publisher,
            public_name: s.public_name,
            kitty_pushed: false,
            needs_draw: true,
            pending: Damage::All,
            pacer: Pacer::default(),
            idleness: Idleness::new(start, s.stream, s.limits.idle_timeout),
            idle_deadline: start + s.limits.idle_timeout,
            esc_deadline: None,
            inputs: Vec::new(),
            doctor_probe: DoctorProbe::default(),
            playing: crate::metrics::Playing::default(),
            latency: crate::metrics::InputLatency::default(),
        }
    }

    /// Milliseconds since the session started (the App's clock).
    pub(crate) fn ms(&self, at: Instant) -> u64 {
        u64::try_from(at.duration_since(self.start).as_millis()).unwrap_or(u64::MAX)
    }

    /// Unix seconds at `at`, from the wall clock the shell read at the start.
    pub(crate) fn unix_at(&self, at: Instant) -> i64 {
        let age = i64::try_from(at.duration_since(self.start).as_secs()).unwrap_or(i64::MAX);
        self.unix_start.saturating_add(age)
    }

    /// The client's window size, as the terminal has it.
    #[cfg(test)]
    pub(crate) fn term_size(&self) -> (u16, u16) {
        self.term.size()
    }

    /// The terminal the session draws into (tests count its cells).
    #[cfg(test)]
    pub(crate) fn term(&self) -> &RemoteTerminal {
        &self.term
    }

    /// Offers the player a game parked by an earlier connection (`at`: App time); its
    /// watchers wait for the answer.
    pub(crate) fn offer_parked(&mut self, parked: crate::reconnect::Parked, away_ms: u64, at: u64) {
        self.app.offer_parked(parked.game, away_ms, at);
        if let Some(hold) = parked.live {
            self.publisher.hold(hold);
        }
    }

    pub(crate) fn app_mut(&mut self) -> &mut App {
        &mut self.app
    }

    pub(crate) fn services_mut(&mut self) -> &mut Services {
        &mut self.services
    }

    /// The first part of a turn: the App's clock, quitting, the keyboard negotiation's
    /// deadline, idleness and the Live list. `Err` says why the session ends.
    pub(crate) fn begin(&mut self, now: Instant) -> Result<(), End> {
        self.app.tick(self.ms(now));
        self.playing
            .set(self.app.in_game(), self.app.live_game().is_none());
        if self.app.should_quit() {
            return Err(End::Quit);
        }
        let paused = self.app.game_paused();
        if self.negotiation.expire(now) {
            self.app.set_release_events(false);
        }
        let doing = Doing {
            paused,
            in_game: self.app.in_game(),
            watching_live: self.app.watching_live(),
        };
        let (idle_deadline, idle_end) = self.idleness.check(now, doing);
        self.idle_deadline = idle_deadline;
        match idle_end {
            Some(IdleEnd::WatchLimit) => return Err(End::WatchLimit),
            Some(IdleEnd::Idle) => return Err(End::Idle),
            None => {}
        }
        // The same setting covers the player's versus matches on the Live list.
        let let_watch = self.app.settings().let_watch;
        self.services.versus.set_watchable(let_watch);
        if !self.app.parked_offered() {
            self.publisher.answered(self.app.resumed_game());
        }
        let (app, public_name) = (&self.app, &self.public_name);
        self.publisher.update(
            app.live_game(),
            let_watch,
            || match app.identity() {
                Identity::Registered { name, .. } => name.clone(),
                _ => public_name.clone(),
            },
            now,
        );
        Ok(())
    }

    /// Whether a window change waits to be applied at `now`: then the shell reads the latest
    /// size and calls [`Session::on_resize`].
    pub(crate) fn resize_due(&self, now: Instant) -> bool {
        self.resizer.due().is_some_and(|due| now >= due)
    }

    /// The latest window size `(cols, rows)`, and whether it changed again since the change
    /// that made the resize due (`more`). Only the latest size counts; it is applied once the
    /// client stops changing it (or a second into a stream of changes that never pauses).
    pub(crate) fn on_resize(&mut self, now: Instant, (c, r): (u32, u32), more: bool) {
        if let Check::Apply = self.resizer.check(now, more) {
            let (cols, rows) = terminal::clamp_size(c, r);
            if (cols, rows) != self.term.size() {
                self.term.resize(cols, rows);
                let (w, h) = self.term.drawn_size();
                self.app.set_size(w, h, self.ms(now));
                self.app.mark_dirty();
            }
        }
    }

    /// Whether the shell listens for window changes (none is pending, the sender is there).
    pub(crate) fn wants_window_changes(&self) -> bool {
        self.window_open && !self.resizer.pending()
    }

    /// The rest of the turn: the doctor's probe, the frame (paced), and the next wakeup.
    pub(crate) fn plan(&mut self, now: Instant) -> Plan {
        let at = self.ms(now);
        match self.app.take_damage() {
            Damage::All => self.redraw_all(),
            Damage::None => {}
            part => self.damaged(part),
        }
        // The player's frame-rate setting, never faster than the server allows. It paces the
        // frames that time makes (gravity, clocks, animations); a frame that answers the
        // player's key goes out as soon as no write is in flight, so a key that arrives just
        // after a timed frame never waits for the cap. Keys are bounded by the input gate, so
        // these frames are too.
        let interval =
            Duration::from_millis(self.app.frame_interval_ms()).max(self.min_frame_interval);
        let frame_due = self.pacer.due(now, interval);
        if self
            .doctor_probe
            .may_start(&self.negotiation, self.needs_draw || self.busy)
        {
            let rows = self.term.size().1;
            self.doctor_probe.start(Prober::new(&self.client, rows));
        }
        if let Some(report) = self.doctor_probe.poll(at) {
            self.app.deliver(Response::Doctor(Box::new(report)), at);
            // The probe printed on the screen: repaint all of it.
            let (cols, rows) = self.term.size();
            self.term.resize(cols, rows);
            self.redraw_all();
        }
        let mut write = None;
        if self.doctor_probe.running() {
            if !self.busy
                && let Some(bytes) = self.doctor_probe.next_write(at)
            {
                write = self.send(bytes);
            }
        } else if !self.busy {
            if self.needs_draw && now >= frame_due {
                self.term.draw_app(&self.app, self.pending);
                self.needs_draw = false;
                self.pending = Damage::None;
                self.pacer.drawn(now);
                let frame = terminal::frame_bytes(&[], &self.term.take_output());
                write = self.send(frame);
                self.latency.frame();
            } else if !self.prefix.is_empty() {
                write = self.send(Vec::new());
            }
        }
        Plan {
            write,
            wake: self.next_wakeup(now, frame_due),
        }
    }

    /// The next frame redraws the whole screen.
    fn redraw_all(&mut self) {
        self.needs_draw = true;
        self.pending = Damage::All;
    }

    /// The next frame redraws `part` of the screen (with what was pending already).
    fn damaged(&mut self, part: Damage) {
        self.pending = self.pending.and(part);
        self.needs_draw = true;
    }

    /// The queued prefix followed by `frame`, to write now (nothing when both are empty).
    fn send(&mut self, frame: Vec<u8>) -> Option<Vec<u8>> {
        let mut bytes = std::mem::take(&mut self.prefix);
        if bytes.is_empty() {
            bytes = frame;
        } else {
            bytes.extend_from_slice(&frame);
        }
        if bytes.is_empty() {
            return None;
        }
        self.busy = true;
        Some(bytes)
    }

    /// The earliest of everything due, within the idle deadline.
    fn next_wakeup(&self, now: Instant, frame_due: Instant) -> Instant {
        let mut wake = Wake::new(now, self.idle_deadline);
        let after_start = |at: u64| self.start + Duration::from_millis(at);
        wake.on_beat(self.app.next_wakeup().map(after_start));
        if self.needs_draw && !self.busy && !self.doctor_probe.running() {
            // A key's frame is due now; a timed one waits for the beat.
            if frame_due <= now {
                wake.by(Some(frame_due));
            } else {
                wake.on_beat(Some(frame_due));
            }
        }
        wake.by(self.esc_deadline);
        wake.by(self.resizer.due());
        wake.by(self.publisher.next_due());
        wake.by(self.negotiation.deadline());
        wake.by(self.doctor_probe.deadline().map(after_start));
        // The doctor can start on the next turn (the frame drawn above may have been empty,
        // which wakes nothing).
        if self
            .doctor_probe
            .may_start(&self.negotiation, self.needs_draw || self.busy)
        {
            wake.at_once();
        }
        wake.at()
    }

    /// What woke the shell. `Some` ends the session.
    pub(crate) fn on_event(&mut self, now: Instant, event: Event) -> Option<End> {
        match event {
            Event::Shutdown => return Some(End::Shutdown),
            Event::KeyRemoved => return Some(End::KeyRemoved),
            Event::BrowserUnlinked => return Some(End::BrowserUnlinked),
            Event::Written(Ok(())) => self.busy = false,
            Event::Written(Err(_)) => return Some(End::ClientGone),
            // A stream reads no input and goes on after the client's EOF.
            Event::Client(SessionEvent::Input(_) | SessionEvent::Eof) if self.stream => {}
            Event::Client(SessionEvent::Input(bytes)) => self.on_input(now, &bytes),
            Event::Client(SessionEvent::Eof) => return Some(End::ClientEof),
            Event::Client(SessionEvent::Closed) => return Some(End::ClientGone),
            Event::Responses(responses) => {
                let at = self.ms(now);
                for response in responses {
                    self.app.deliver(response, at);
                }
            }
            Event::WindowChanged => self.resizer.changed(now),
            Event::WindowClosed => self.window_open = false,
            Event::Woke => {
                if self.esc_deadline.is_some_and(|at| now >= at) {
                    self.esc_deadline = None;
                    self.decoder.flush(&mut self.inputs);
                }
            }
        }
        None
    }

    /// Bytes from the client, held to the input budgets and decoded.
    fn on_input(&mut self, now: Instant, bytes: &[u8]) {
        self.idleness.input(now);
        let at = self.ms(now);
        let admitted = self.gate.admit_bytes(bytes.len(), at);
        self.decoder
            .feed(bytes.get(..admitted).unwrap_or_default(), &mut self.inputs);
        if admitted < bytes.len() {
            // The rest is discarded: never resume parsing in mid-sequence.
            self.decoder.reset();
            crate::work::input_dropped(bytes.len() - admitted);
        }
        self.esc_deadline = self.decoder.has_pending().then(|| now + ESC_TIMEOUT);
    }

    /// The end of a turn: decoded keys and terminal replies go where they belong, and what
    /// the App produced to the services.
    pub(crate) fn after_event(&mut self, now: Instant) {
        let now_ms = self.ms(now);
        self.gate.spend_wasted(self.decoder.take_wasted(), now_ms);
        let mut keys_handled = false;
        for input in std::mem::take(&mut self.inputs) {
            match input {
                Input::Key(key) => {
                    if self.gate.admit_key(&key, now_ms) {
                        self.app.handle_key(key, now_ms);
                        keys_handled = true;
                    }
                }
                Input::Reply {
                    reply: Reply::KittyFlags(_),
                    ..
                } if self.negotiation.is_waiting() => self.negotiation.flags(),
                Input::Reply {
                    reply: Reply::DeviceAttributes,
                    ..
                } if self.negotiation.is_waiting() => {
                    if let Some(flags_seen) = self.negotiation.attributes() {
                        if flags_seen {
                            self.prefix.extend_from_slice(terminal::KITTY_PUSH);
                            self.kitty_pushed = true;
                        }
                        self.app.set_release_events(flags_seen);
                        tracing::debug!(kitty = flags_seen, "keyboard protocol negotiated");
                    }
                }
                Input::Reply { reply, bytes } => {
                    // A reply nobody asked for costs what garbage costs.
                    doctor::route_reply(
                        self.doctor_probe.prober_mut(),
                        &reply,
                        bytes,
                        &mut self.gate,
                        now_ms,
                    );
                }
            }
        }
        let damage = if keys_handled {
            self.app.take_damage()
        } else {
            Damage::None
        };
        if damage != Damage::None {
            // What changed now answers the keys just handled.
            self.latency.key(self.idleness.last_input());
            self.damaged(damage);
            self.pacer.answer_key();
        }
        self.hand_over(now);
    }

    /// Hands what the App produced to the services: a finished solo game goes to the game
    /// writer without waiting (what storing it earned comes back as a response), requests are
    /// carried out. The terminal doctor's request stays with the session, which owns the
    /// terminal.
    fn hand_over(&mut self, now: Instant) {
        if let Some(game) = self.app.take_finished_game() {
            let at = self.unix_at(now);
            self.services.account.submit_game(game, at);
        }
        if self.app.has_requests() {
            for request in self.app.take_requests() {
                if request == Request::RunDoctor {
                    self.doctor_probe.want();
                } else {
                    self.services.handle(request);
                }
            }
        }
    }

    /// The session ended (`end`) at `now`: a solo game in progress is parked when the
    /// connection dropped, and a game that ended in the last turn is handed over.
    pub(crate) fn finish(
        &mut self,
        now: Instant,
        end: End,
        reconnect: Option<&crate::reconnect::Reconnect>,
        player: &minotty_domain::DisplayName,
    ) {
        // The connection dropped: a solo game in progress waits, paused, for the same key.
        if matches!(end, End::ClientEof | End::ClientGone)
            && let Some(r) = reconnect
            && let Some(game) = self.app.park_game(self.ms(now))
        {
            tracing::info!(player = %player, mode = game.kind().id(), "game parked");
            // Its watchers hear that it waits for its player, not that it is over, and stay
            // with it: the session that resumes it lists it under the same id.
            let live = self.publisher.park();
            r.park(crate::reconnect::Parked { game, live });
        }
        // A game that ended in the last turn (the loop broke before handing it over:
        // shutdown, EOF, a close) is still stored, and the room still hears the end of a
        // versus game.
        self.app.tick(self.ms(now));
        self.hand_over(now);
    }

    /// Window changes applied, and the input the budgets dropped (bytes, keys).
    pub(crate) fn counts(&self) -> (u64, (u64, u64)) {
        (self.resizer.applied(), self.gate.dropped())
    }

    /// The last bytes of a session: what is queued, the terminal restored, and why the
    /// session ended when it was not the player's choice.
    pub(crate) fn goodbye(&mut self, end: End, limits: &Limits) -> Vec<u8> {
        let mut bytes = std::mem::take(&mut self.prefix);
        bytes.extend_from_slice(&terminal::leave_sequence(self.kitty_pushed));
        let note = match end {
            End::Idle => Some(format!(
                "minotty: disconnected after {} minutes without input\r\n",
                limits.idle_timeout.as_secs().div_ceil(60)
            )),
            // What becomes of a match (abandoned, or its result standing) is said after the
            // screen that showed it is gone.
            End::Shutdown => Some(match self.app.farewell() {
                Some(line) => {
                    format!("minotty: the server is restarting. {line} See you in a minute\r\n")
                }
                None => "minotty: the server is restarting, see you in a minute\r\n".into(),
            }),
            End::KeyRemoved => {
                Some("minotty: this SSH key was removed from its account\r\n".into())
            }
            End::BrowserUnlinked => Some(
                "minotty: this browser was unlinked from its account; reload the page to play \
                 as a guest\r\n"
                    .into(),
            ),
            End::WatchLimit => Some(format!(
                "minotty: you watched for {} minutes, come back any time\r\n",
                crate::live::MAX_WATCH.as_secs() / 60
            )),
            End::Quit | End::ClientEof | End::ClientGone => None,
        };
        if let Some(note) = note {
            bytes.extend_from_slice(note.as_bytes());
        }
        bytes
    }
}
