//! # minotty-local
//!
//! Local play in this terminal (`minotty play [--mode MODE]`): the same [`App`] as over SSH,
//! drawn with ratatui's crossterm backend, offline and without a database. The `minotty`
//! binary (in `ssh-server/`) parses [`PlayArgs`] and calls [`run`].
//!
//! Architecture Invariant: no network and no database in this crate's tree (no russh, sqlx or
//! async-nats; `local/tests/no_server_deps.rs` walks `Cargo.lock` to keep it so).
//!
//! The terminal is put in raw mode on the alternate screen, with the kitty keyboard protocol
//! when the terminal supports it (key releases: smooth DAS/ARR), and restored on every exit
//! path: normal return, error (the guard's `Drop`) and panic (a panic hook).

use std::io::{self, BufWriter, Stdout, Write};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::Context;
use minotty_ui::Response;
use minotty_ui::{App, AppContext, Key, KeyEvent, KeyKind, Mods};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{
    self, Event, KeyCode, KeyEventKind, KeyModifiers, KeyboardEnhancementFlags, ModifierKeyCode,
    PopKeyboardEnhancementFlags, PushKeyboardEnhancementFlags,
};
use ratatui::crossterm::terminal::{
    self, BeginSynchronizedUpdate, EndSynchronizedUpdate, EnterAlternateScreen,
    LeaveAlternateScreen,
};
use ratatui::crossterm::{cursor, execute, queue};

mod args;
mod local;
pub mod save;

pub use args::PlayArgs;
pub use local::Local;
pub use save::SaveFile;

#[cfg(test)]
mod save_tests;

/// How long to sleep at most when the App expects nothing (input still wakes the loop).
const IDLE_POLL: Duration = Duration::from_secs(1);

/// Plays in the local terminal until the player quits (`--descent` unlocks Descent for the
/// run, as finishing Puzzle does).
pub fn run(args: PlayArgs) -> anyhow::Result<()> {
    let save = if args.no_save {
        SaveFile::disabled()
    } else {
        match args.save_file.clone().or_else(save::default_path) {
            Some(path) => SaveFile::open(path, unix_now()),
            None => {
                let mut save = SaveFile::disabled();
                save.problem = Some(
                    "No data directory was found (HOME is not set); this run saves nothing.".into(),
                );
                save
            }
        }
    };
    let name =
        minotty_domain::text::sanitize_display(&std::env::var("USER").unwrap_or_default(), 16);
    let local = Local::new(save, if name.is_empty() { "you".into() } else { name });
    let guard = TerminalGuard::enter()?;
    let kitty = guard.kitty;
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore(kitty);
        previous_hook(info);
    }));
    let result = play(&args, local, kitty);
    drop(guard);
    // Back to the default hook: the terminal is ours no more.
    let _ = std::panic::take_hook();
    if let Ok(Some(problem)) = &result {
        eprintln!("minotty: {problem}");
    }
    result.map(|_| ())
}

/// Raw mode, alternate screen, hidden cursor and (if supported) kitty keyboard flags, undone
/// on drop.
struct TerminalGuard {
    kitty: bool,
}

impl TerminalGuard {
    fn enter() -> anyhow::Result<TerminalGuard> {
        terminal::enable_raw_mode().context("minotty play needs an interactive terminal")?;
        let mut guard = TerminalGuard { kitty: false };
        let mut out = io::stdout();
        execute!(out, EnterAlternateScreen, cursor::Hide)
            .context("entering the alternate screen")?;
        if terminal::supports_keyboard_enhancement().unwrap_or(false) {
            // 1 + 2 + 8: unambiguous escapes, press/repeat/release, every key as an escape code.
            let flags = KeyboardEnhancementFlags::DISAMBIGUATE_ESCAPE_CODES
                | KeyboardEnhancementFlags::REPORT_EVENT_TYPES
                | KeyboardEnhancementFlags::REPORT_ALL_KEYS_AS_ESCAPE_CODES;
            execute!(out, PushKeyboardEnhancementFlags(flags))
                .context("enabling the kitty keyboard protocol")?;
            guard.kitty = true;
        }
        Ok(guard)
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore(self.kitty);
    }
}

/// Puts the terminal back as it was; safe to call more than once.
fn restore(kitty: bool) {
    let mut out = io::stdout();
    if kitty {
        let _ = execute!(out, PopKeyboardEnhancementFlags);
    }
    let _ = execute!(
        out,
        EndSynchronizedUpdate,
        LeaveAlternateScreen,
        cursor::Show
    );
    let _ = terminal::disable_raw_mode();
    let _ = out.flush();
}

/// Plays until the player quits; returns a problem with the save file to print after the
/// terminal is restored, if the last write failed.
fn play(args: &PlayArgs, mut local: Local, kitty: bool) -> anyhow::Result<Option<String>> {
    let start = Instant::now();
    let ms = |at: Instant| u64::try_from(at.duration_since(start).as_millis()).unwrap_or(u64::MAX);
    let mut settings = local.save().settings().unwrap_or_default();
    if let Some(fps) = args.fps {
        settings.frame_rate = fps;
        settings = settings.clamped();
    }
    let (mode, descent) = args.start();
    let mut app = App::new(AppContext {
        player_name: std::env::var("USER").unwrap_or_default(),
        seed: entropy(),
        settings,
        identity: local.identity(),
        descent_unlocked: descent || local.puzzle_completed(),
        ..AppContext::default()
    });
    app.set_release_events(kitty);
    if let Some(problem) = local.take_problem() {
        app.deliver(Response::Notice { message: problem }, 0);
    }
    if let Some(kind) = mode {
        app.play(kind, 0);
    }
    let mut last_problem = None;
    let backend = CrosstermBackend::new(BufWriter::new(io::stdout()));
    let mut term = Terminal::new(backend).context("opening the terminal")?;
    term.clear().context("clearing the screen")?;
    let size = term.size().context("reading the terminal size")?;
    app.set_size(size.width, size.height, 0);
    let mut needs_draw = true;
    let mut last_frame: Option<Instant> = None;
    loop {
        let now = Instant::now();
        app.tick(ms(now));
        serve_locally(&mut app, &mut local, ms(now), &mut last_problem);
        if app.should_quit() {
            if let Some(settings) = app.take_unsaved_settings() {
                last_problem = local.save_settings(&settings).err();
            }
            return Ok(last_problem);
        }
        needs_draw |= app.take_dirty();
        let interval = Duration::from_millis(app.frame_interval_ms());
        let frame_due = last_frame.map_or(now, |t| t + interval);
        if needs_draw && now >= frame_due {
            draw(&mut term, &app)?;
            needs_draw = false;
            last_frame = Some(now);
        }

        let mut wake = now + IDLE_POLL;
        if let Some(at) = app.next_wakeup() {
            wake = wake.min(start + Duration::from_millis(at));
        }
        if needs_draw {
            wake = wake.min(frame_due);
        }
        let timeout = wake.saturating_duration_since(Instant::now());
        if !event::poll(timeout).context("reading the keyboard")? {
            continue;
        }
        // Everything that arrived together is handled before the next frame.
        loop {
            match event::read().context("reading the keyboard")? {
                Event::Key(key) => {
                    if let Some(ev) = convert(key) {
                        app.handle_key(ev, ms(Instant::now()));
                    }
                }
                Event::Resize(..) => {
                    term.autoresize().context("resizing")?;
                    let size = term.size().context("reading the terminal size")?;
                    app.set_size(size.width, size.height, ms(Instant::now()));
                    app.mark_dirty();
                }
                _ => {}
            }
            if !event::poll(Duration::ZERO).context("reading the keyboard")? {
                break;
            }
        }
    }
}

/// Carries out what the App asked for with the local save: a finished game goes on the
/// scoreboard, requests are answered. `problem` keeps the last failure to write the save.
fn serve_locally(app: &mut App, local: &mut Local, now_ms: u64, problem: &mut Option<String>) {
    let unix = unix_now();
    if let Some(game) = app.take_finished_game() {
        let response = local.record(game, unix);
        if let Response::GameRecorded(rec) = &response {
            *problem = rec
                .note
                .as_ref()
                .filter(|n| n.starts_with("not saved"))
                .cloned();
        }
        app.deliver(response, now_ms);
    }
    if app.has_requests() {
        for request in app.take_requests() {
            if let Some(response) = local.answer(request, unix) {
                if let Response::Error { message } = &response {
                    *problem = Some(message.clone());
                }
                app.deliver(response, now_ms);
            }
        }
    }
}

/// One frame, inside synchronized output so the terminal never shows half of it.
fn draw(term: &mut Terminal<CrosstermBackend<BufWriter<Stdout>>>, app: &App) -> anyhow::Result<()> {
    queue!(term.backend_mut(), BeginSynchronizedUpdate).context("drawing")?;
    term.draw(|frame| app.render(frame)).context("drawing")?;
    execute!(term.backend_mut(), EndSynchronizedUpdate).context("drawing")?;
    Ok(())
}

/// A crossterm key event as the UI's abstract key event.
fn convert(k: event::KeyEvent) -> Option<KeyEvent> {
    let key = match k.code {
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Tab => Key::Tab,
        KeyCode::BackTab => Key::BackTab,
        KeyCode::Delete => Key::Delete,
        KeyCode::Insert => Key::Insert,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        KeyCode::F(n) => Key::F(n),
        KeyCode::Modifier(m) => match m {
            ModifierKeyCode::LeftShift | ModifierKeyCode::RightShift => Key::Shift,
            ModifierKeyCode::LeftControl | ModifierKeyCode::RightControl => Key::Ctrl,
            ModifierKeyCode::LeftAlt | ModifierKeyCode::RightAlt => Key::Alt,
            _ => return None,
        },
        _ => return None,
    };
    let kind = match k.kind {
        KeyEventKind::Press => KeyKind::Press,
        KeyEventKind::Repeat => KeyKind::Repeat,
        KeyEventKind::Release => KeyKind::Release,
    };
    let mods = Mods {
        shift: k.modifiers.contains(KeyModifiers::SHIFT),
        ctrl: k.modifiers.contains(KeyModifiers::CONTROL),
        alt: k.modifiers.contains(KeyModifiers::ALT),
    };
    Some(KeyEvent { key, mods, kind })
}

/// The system clock as Unix milliseconds (the save's times; the UI reads no clock).
fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// Seed entropy for games: the UI reads no clock, so the front end brings some.
fn entropy() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyEventState;

    fn ct(code: KeyCode, modifiers: KeyModifiers, kind: KeyEventKind) -> event::KeyEvent {
        event::KeyEvent {
            code,
            modifiers,
            kind,
            state: KeyEventState::NONE,
        }
    }

    #[test]
    fn keys_convert() {
        let ev = convert(ct(
            KeyCode::Char('c'),
            KeyModifiers::CONTROL,
            KeyEventKind::Press,
        ));
        assert_eq!(
            ev,
            Some(KeyEvent {
                key: Key::Char('c'),
                mods: Mods {
                    ctrl: true,
                    ..Mods::default()
                },
                kind: KeyKind::Press,
            })
        );
        let shift = ct(
            KeyCode::Modifier(ModifierKeyCode::LeftShift),
            KeyModifiers::SHIFT,
            KeyEventKind::Release,
        );
        assert_eq!(
            convert(shift).map(|e| (e.key, e.kind)),
            Some((Key::Shift, KeyKind::Release))
        );
        assert_eq!(
            convert(ct(KeyCode::Null, KeyModifiers::NONE, KeyEventKind::Press)),
            None
        );
    }
}
