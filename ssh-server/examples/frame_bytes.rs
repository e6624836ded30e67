//! What the frames of a solo game cost on the wire, without a network: the App and the
//! server's own terminal encoder (`RemoteTerminal`) driven in simulated time, the way a
//! session paces them (timed frames at most every frame interval, a key's frame at once), with
//! the load tool's pattern of keys (4 a second: left, rotate, right, soft drop). Deterministic:
//! the same arguments give the same bytes, whatever the machine is doing.
//!
//! ```sh
//! cargo run --release -p minotty-server --example frame_bytes -- [COLS ROWS SECONDS] [LOOK]
//! ```
//! prints bytes per second, frames per second, the encoder's time a frame, and where the
//! bytes go (cursor moves, colour changes, synchronized-output brackets, glyphs). LOOK is one
//! of the looks a player can set (`default`, `truecolour`, `ansi16`, `mono`, `ascii`,
//! `electronika`, `gruvbox`, `solarized`, `matrix`, `no-grid`, `grey-locked`, `blindfold`,
//! and the board renderers `half` and `braille`).

use minotty_engine::ModeKind;
use minotty_server::terminal::{RemoteTerminal, frame_bytes};
use minotty_ui::{
    App, AppContext, ColorMode, Damage, Graphics, Key, KeyEvent, KeyKind, Mods, Palette, Settings,
};

/// The settings of a look's name; `None` for a name it does not know.
fn look(name: &str) -> Option<(Settings, bool)> {
    let d = Settings::default();
    let truecolour = ColorMode::TrueColor;
    Some(match name {
        "default" => (d, false),
        "truecolour" => (
            Settings {
                colors: truecolour,
                ..d
            },
            false,
        ),
        "ansi16" => (
            Settings {
                colors: ColorMode::Ansi16,
                ..d
            },
            false,
        ),
        "mono" => (
            Settings {
                colors: ColorMode::Monochrome,
                ..d
            },
            false,
        ),
        "ascii" => (
            Settings {
                graphics: Graphics::Ascii,
                ..d
            },
            false,
        ),
        "electronika" => (
            Settings {
                graphics: Graphics::Electronika,
                ..d
            },
            false,
        ),
        "gruvbox" => (
            Settings {
                palette: Palette::Gruvbox,
                colors: truecolour,
                ..d
            },
            false,
        ),
        "solarized" => (
            Settings {
                palette: Palette::Solarized,
                colors: truecolour,
                ..d
            },
            false,
        ),
        "matrix" => (
            Settings {
                palette: Palette::Matrix,
                colors: truecolour,
                ..d
            },
            false,
        ),
        "no-grid" => (Settings { grid: false, ..d }, false),
        "grey-locked" => (
            Settings {
                color_locked: false,
                ..d
            },
            false,
        ),
        "blindfold" => (d, true),
        "half" => (
            Settings {
                renderer: minotty_ui::settings::Renderer::HalfBlock,
                ..d
            },
            false,
        ),
        "braille" => (
            Settings {
                renderer: minotty_ui::settings::Renderer::Braille,
                ..d
            },
            false,
        ),
        _ => return None,
    })
}

#[derive(Default, Debug)]
struct Tally {
    frames: u64,
    total: u64,
    sync: u64,
    cursor_abs: u64,
    cursor_fwd: u64,
    sgr: u64,
    other_csi: u64,
    dot: u64,
    space: u64,
    blocks: u64,
    text: u64,
}

impl Tally {
    fn add(&mut self, frame: &[u8]) {
        self.frames += 1;
        self.total += frame.len() as u64;
        let mut i = 0;
        while i < frame.len() {
            if frame[i] == 0x1b && frame.get(i + 1) == Some(&b'[') {
                let start = i;
                i += 2;
                while i < frame.len() && !(0x40..=0x7e).contains(&frame[i]) {
                    i += 1;
                }
                let len = (i + 1 - start) as u64;
                let seq = &frame[start..(i + 1).min(frame.len())];
                match frame.get(i) {
                    Some(b'H') => self.cursor_abs += len,
                    Some(b'C') => self.cursor_fwd += len,
                    Some(b'm') => self.sgr += len,
                    Some(b'h' | b'l') if seq.starts_with(b"\x1b[?2026") => self.sync += len,
                    _ => self.other_csi += len,
                }
                i += 1;
                continue;
            }
            let s = &frame[i..];
            if s.starts_with("·".as_bytes()) {
                self.dot += 2;
                i += 2;
            } else if s.starts_with("█".as_bytes()) || s.starts_with("░".as_bytes()) {
                self.blocks += 3;
                i += 3;
            } else if frame[i] == b' ' {
                self.space += 1;
                i += 1;
            } else {
                self.text += 1;
                i += 1;
            }
        }
    }
}

fn press(key: Key) -> KeyEvent {
    KeyEvent {
        key,
        mods: Mods::default(),
        kind: KeyKind::Press,
    }
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let cols = args.first().map_or(80, |&v| v as u16);
    let rows = args.get(1).map_or(24, |&v| v as u16);
    let seconds = args.get(2).copied().unwrap_or(20);
    let name = std::env::args()
        .skip(1)
        .find(|a| a.parse::<u64>().is_err())
        .unwrap_or_else(|| "default".into());
    let Some((settings, blindfold)) = look(&name) else {
        eprintln!("unknown look {name:?}");
        std::process::exit(2);
    };

    let mut app = App::new(AppContext {
        player_name: "load".into(),
        seed: 42,
        ..AppContext::default()
    });
    app.set_size(cols, rows, 0);
    app.set_settings(settings);
    let mut term = RemoteTerminal::new(cols, rows);
    app.play(ModeKind::Sprint, 0);
    if blindfold {
        let ctrl_b = KeyEvent {
            key: Key::Char('b'),
            mods: Mods {
                ctrl: true,
                ..Mods::default()
            },
            kind: KeyKind::Press,
        };
        app.handle_key(ctrl_b, 0);
    }
    let mut encoding = std::time::Duration::ZERO;
    let keys = [Key::Left, Key::Char('x'), Key::Right, Key::Down];
    let interval = app.frame_interval_ms();
    // Measure after the countdown and the first frames: from 5 s on.
    let (from, until) = (5_000u64, 5_000 + seconds * 1000);
    let mut tally = Tally::default();
    let mut next_key = 0u64;
    let mut n = 0usize;
    let mut last_frame: Option<u64> = None;
    let mut now = 0u64;
    let mut key_frame = false;
    // What the frame due redraws (the session's way: only the damaged parts when it can).
    let mut pending = Damage::All;
    while now < until {
        app.tick(now);
        pending = pending.and(app.take_damage());
        let dirty = pending != Damage::None;
        let due = if key_frame {
            now
        } else {
            last_frame.map_or(now, |t| t + interval)
        };
        if dirty && now >= due {
            let started = std::time::Instant::now();
            term.draw_app(&app, pending);
            let bytes = frame_bytes(&[], &term.take_output());
            if now >= from {
                encoding += started.elapsed();
            }
            if now >= from && !bytes.is_empty() {
                tally.add(&bytes);
                if std::env::var_os("DUMP").is_some() && now < from + 3000 {
                    println!(
                        "{now} {}: {}",
                        bytes.len(),
                        String::from_utf8_lossy(&bytes).replace('\x1b', "^")
                    );
                }
            }
            pending = Damage::None;
            key_frame = false;
            last_frame = Some(now);
        }
        if !app.in_game() {
            // A game that ended: retry at once, as the load tool does.
            app.handle_key(press(Key::Char('r')), now);
        }
        let mut wake = next_key;
        if let Some(at) = app.next_wakeup() {
            wake = wake.min(at);
        }
        if pending != Damage::None {
            wake = wake.min(due.max(now + 1));
        }
        now = wake.max(now + 1).min(until);
        if now >= next_key {
            app.handle_key(press(keys[n % keys.len()]), now);
            n += 1;
            next_key = now + 250;
            let damage = app.take_damage();
            if damage != Damage::None {
                pending = pending.and(damage);
                key_frame = true;
            }
        }
    }
    let per_s = |v: u64| v as f64 / seconds as f64;
    println!(
        "{cols}x{rows} {name}, {seconds} s, 4 keys/s: {:.0} bytes/s, {:.1} frames/s, {:.0} bytes/frame, {:.1} us/frame",
        per_s(tally.total),
        per_s(tally.frames),
        tally.total as f64 / tally.frames.max(1) as f64,
        encoding.as_secs_f64() * 1e6 / tally.frames.max(1) as f64
    );
    for (name, v) in [
        ("sync brackets", tally.sync),
        ("cursor absolute", tally.cursor_abs),
        ("cursor forward", tally.cursor_fwd),
        ("colour (SGR)", tally.sgr),
        ("other CSI", tally.other_csi),
        ("grid dots", tally.dot),
        ("spaces", tally.space),
        ("blocks", tally.blocks),
        ("other text", tally.text),
    ] {
        println!(
            "  {name:<16} {:>7.0} B/s  {:>5.1}%",
            per_s(v),
            100.0 * v as f64 / tally.total.max(1) as f64
        );
    }
}
