//! What a frame of a running game costs the server: rendering, comparing with what the client
//! shows and encoding the changes (`RemoteTerminal::draw_app`), for a tick of 40 lines' clock
//! in tenths (a frame of the stats column alone) and for a key that moves the piece (the board
//! and the stats), at 80x24 and at 500x200 (drawn at most 295x64); and both frames when drawn
//! whole, as before frames followed damage.
//!
//! `cargo bench -p minotty-server --bench frames`

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use minotty_engine::ModeKind;
use minotty_server::terminal::RemoteTerminal;
use minotty_ui::{App, AppContext, Damage, Key, KeyEvent, KeyKind};
use std::hint::black_box;

/// A 40 lines game at `cols` x `rows`, past its countdown, with its first frame drawn.
fn game(cols: u16, rows: u16) -> (App, RemoteTerminal, u64) {
    let mut app = App::new(AppContext {
        player_name: "ada".into(),
        seed: 3,
        ..AppContext::default()
    });
    let mut term = RemoteTerminal::new(cols, rows);
    let (w, h) = term.drawn_size();
    app.set_size(w, h, 0);
    app.play(ModeKind::Sprint, 0);
    let mut now = 0;
    while now < 3_050 {
        now = app.next_wakeup().unwrap_or(now + 10).max(now + 1);
        app.tick(now);
    }
    app.take_damage();
    term.draw_app(&app, Damage::All);
    term.take_output();
    (app, term, now)
}

/// Moves the clock on by a tenth (and on again while the piece's fall or anything but the
/// clock changes, so that what is measured is the clock's frame); a game that topped out is
/// started again.
fn next_tenth(app: &mut App, term: &mut RemoteTerminal, now: &mut u64) {
    loop {
        if app.game().is_none_or(minotty_engine::Game::is_over) {
            let (cols, rows) = term.size();
            (*app, *term, *now) = game(cols, rows);
        }
        *now += 100;
        app.tick(*now);
        match app.take_damage() {
            Damage::Time => return,
            Damage::None => {}
            damage => {
                term.draw_app(app, damage);
                term.take_output();
            }
        }
    }
}

fn frames(c: &mut Criterion) {
    let mut group = c.benchmark_group("frame");
    for (cols, rows) in [(80u16, 24u16), (500, 200)] {
        let size = format!("{cols}x{rows}");
        group.bench_function(BenchmarkId::new("clock_tick", &size), |b| {
            let (mut app, mut term, mut now) = game(cols, rows);
            b.iter_custom(|iters| {
                let mut spent = std::time::Duration::ZERO;
                for _ in 0..iters {
                    next_tenth(&mut app, &mut term, &mut now);
                    let start = std::time::Instant::now();
                    term.draw_app(black_box(&app), Damage::Time);
                    black_box(term.take_output());
                    spent += start.elapsed();
                }
                spent
            });
        });
        group.bench_function(BenchmarkId::new("clock_tick_whole", &size), |b| {
            let (mut app, mut term, mut now) = game(cols, rows);
            b.iter_custom(|iters| {
                let mut spent = std::time::Duration::ZERO;
                for _ in 0..iters {
                    next_tenth(&mut app, &mut term, &mut now);
                    let start = std::time::Instant::now();
                    term.draw_app(black_box(&app), Damage::All);
                    black_box(term.take_output());
                    spent += start.elapsed();
                }
                spent
            });
        });
        for (name, whole) in [("key", false), ("key_whole", true)] {
            group.bench_function(BenchmarkId::new(name, &size), |b| {
                let (mut app, mut term, now) = game(cols, rows);
                let mut left = true;
                b.iter(|| {
                    let key = if left { Key::Left } else { Key::Right };
                    left = !left;
                    app.handle_key(KeyEvent::press(key), now);
                    app.handle_key(
                        KeyEvent {
                            kind: KeyKind::Release,
                            ..KeyEvent::press(key)
                        },
                        now,
                    );
                    let damage = app.take_damage();
                    let damage = if whole { Damage::All } else { damage };
                    term.draw_app(black_box(&app), damage);
                    black_box(term.take_output());
                });
            });
        }
    }
    group.finish();
}

criterion_group!(benches, frames);
criterion_main!(benches);
