//! Frames that redraw only what time or a move changed ([`RemoteTerminal::draw_app`]) leave
//! the client's screen exactly as whole frames do (today's path), cell for cell and byte
//! stream for byte stream, over random sessions; and a clock tick costs a few cells and
//! bytes, a move the board's and the stats' (counted).

use minotty_engine::ModeKind;
use minotty_ui::settings::Renderer;
use minotty_ui::{App, AppContext, Damage, Graphics, Key, KeyEvent, KeyKind, Settings};
use proptest::prelude::*;

use super::{FrameCost, RemoteTerminal};

fn app(graphics: Graphics, renderer: Renderer) -> App {
    App::new(AppContext {
        player_name: "ada".into(),
        seed: 11,
        settings: Settings {
            graphics,
            renderer,
            ..Settings::default()
        },
        ..AppContext::default()
    })
}

/// What a terminal emulator shows after `bytes`, a line per row: each cell's text and look.
/// A blank shows only its background (and the modifiers seen on a blank: underline,
/// inverse), so its foreground and weight are left out: the frames write blanks in whatever
/// style the terminal is in when that looks the same.
fn shown(cols: u16, rows: u16, bytes: &[u8]) -> String {
    let nz = |v: u16| std::num::NonZeroU16::new(v).expect("not zero");
    let mut parser = vt100::Parser::new(nz(rows), nz(cols), 0);
    parser.process(bytes);
    let screen = parser.screen();
    let mut out = String::new();
    for row in 0..rows {
        for col in 0..cols {
            let Some(c) = screen.cell(row, col) else {
                continue;
            };
            let text = c.contents();
            let blank = text.trim().is_empty();
            let look = if blank {
                format!("{:?}/{}{}", c.bgcolor(), c.underline(), c.inverse())
            } else {
                let fg = c.fgcolor();
                let bg = c.bgcolor();
                format!(
                    "{fg:?}/{bg:?}/{}{}{}{}",
                    c.bold(),
                    c.italic(),
                    c.underline(),
                    c.inverse()
                )
            };
            out.push_str(&format!("[{text}|{look}]"));
        }
        out.push('\n');
    }
    out
}

/// One App drawn two ways: `whole` redraws everything every frame (as before damage), `damaged`
/// as a session does. Each frame is checked: the same cells kept, and the same screen on the
/// client after all bytes so far.
struct Pair {
    app: App,
    whole: RemoteTerminal,
    damaged: RemoteTerminal,
    whole_bytes: Vec<u8>,
    damaged_bytes: Vec<u8>,
    /// The partial frames drawn: their damage, costs and bytes.
    partial: Vec<(Damage, FrameCost, usize)>,
    frames: usize,
}

impl Pair {
    fn new(graphics: Graphics, kind: ModeKind, (cols, rows): (u16, u16)) -> Pair {
        Pair::drawn(graphics, Renderer::Blocks, kind, (cols, rows))
    }

    /// [`Pair::new`] with the board drawn by `renderer`.
    fn drawn(
        graphics: Graphics,
        renderer: Renderer,
        kind: ModeKind,
        (cols, rows): (u16, u16),
    ) -> Pair {
        let mut app = app(graphics, renderer);
        app.set_size(cols, rows, 0);
        app.play(kind, 0);
        Pair {
            app,
            whole: RemoteTerminal::new(cols, rows),
            damaged: RemoteTerminal::new(cols, rows),
            whole_bytes: Vec::new(),
            damaged_bytes: Vec::new(),
            partial: Vec::new(),
            frames: 0,
        }
    }

    fn frame(&mut self) {
        let damage = self.app.take_damage();
        if damage == Damage::None {
            return;
        }
        self.frames += 1;
        let app = &self.app;
        self.whole.draw(|area, buf| app.render_into(area, buf));
        self.whole_bytes.extend(self.whole.take_output());
        self.damaged.draw_app(app, damage);
        let out = self.damaged.take_output();
        let cost = self.damaged.cost();
        if cost.drawn < self.damaged.drawn_area().area() as usize {
            assert_ne!(damage, Damage::All, "frame {}: a whole change", self.frames);
            self.partial.push((damage, cost, out.len()));
        }
        self.damaged_bytes.extend(out);
        if self.whole.shown != self.damaged.shown {
            let w = self.whole.shown.area.width as usize;
            let at = (0..self.whole.shown.cells.len())
                .find(|&i| self.whole.shown.cells[i] != self.damaged.shown.cells[i])
                .map(|i| (i % w, i / w));
            panic!(
                "frame {} ({damage:?}): the kept cells differ first at {at:?}",
                self.frames
            );
        }
    }

    /// Follows the App's wakeups up to `until`, a frame after each.
    fn run_to(&mut self, until: u64) {
        while let Some(w) = self.app.next_wakeup().filter(|&w| w <= until) {
            self.app.tick(w);
            self.frame();
        }
        self.app.tick(until);
        self.frame();
    }

    /// The partial frames of `damage`: costs and bytes.
    fn partial_of(&self, damage: Damage) -> Vec<(FrameCost, usize)> {
        let of = self.partial.iter().filter(|(d, _, _)| *d == damage);
        of.map(|&(_, cost, bytes)| (cost, bytes)).collect()
    }

    fn key(&mut self, key: Key, now: u64) {
        self.app.handle_key(KeyEvent::press(key), now);
        self.app.handle_key(
            KeyEvent {
                kind: KeyKind::Release,
                ..KeyEvent::press(key)
            },
            now,
        );
        self.frame();
    }

    fn resize(&mut self, (cols, rows): (u16, u16), now: u64) {
        for term in [&mut self.whole, &mut self.damaged] {
            term.resize(cols, rows);
        }
        let (w, h) = self.damaged.drawn_size();
        self.app.set_size(w, h, now);
        self.app.mark_dirty();
        self.frame();
    }

    fn assert_same_screen(&self) {
        let (cols, rows) = self.whole.size();
        assert_eq!(
            shown(cols, rows, &self.whole_bytes),
            shown(cols, rows, &self.damaged_bytes),
            "the client's screens differ"
        );
    }
}

const KEYS: [Key; 10] = [
    Key::Left,
    Key::Right,
    Key::Up,
    Key::Down,
    Key::Char(' '),
    Key::Char('c'),
    Key::Char('x'),
    Key::Char('z'),
    Key::Char('b'),
    Key::Esc,
];

const MODES: [ModeKind; 8] = [
    ModeKind::Sprint,
    ModeKind::Ultra,
    ModeKind::Marathon,
    ModeKind::Cheese,
    ModeKind::Master,
    ModeKind::Combo,
    ModeKind::Endless,
    ModeKind::Puzzle,
];

const SIZES: [(u16, u16); 4] = [(80, 24), (100, 40), (140, 64), (500, 200)];

/// A step of a random session: time passing, a key, or a window change.
#[derive(Clone, Debug)]
enum Step {
    Wait(u64),
    Key(usize, u64),
    Resize(usize),
}

fn steps() -> impl Strategy<Value = Vec<Step>> {
    let step = prop_oneof![
        4 => (1..1_500u64).prop_map(Step::Wait),
        6 => (0..KEYS.len(), 0..400u64).prop_map(|(k, d)| Step::Key(k, d)),
        1 => (0..SIZES.len()).prop_map(Step::Resize),
    ];
    proptest::collection::vec(step, 1..40)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn frames_of_what_time_or_a_move_changed_show_what_whole_frames_show(
        mode in 0..MODES.len(),
        size in 0..SIZES.len(),
        graphics in 0..Graphics::ALL.len(),
        renderer in 0..Renderer::ALL.len(),
        steps in steps(),
    ) {
        let mut pair = Pair::drawn(
            Graphics::ALL[graphics],
            Renderer::ALL[renderer],
            MODES[mode],
            SIZES[size],
        );
        let mut now = 0;
        pair.run_to(now);
        for step in steps {
            match step {
                Step::Wait(ms) => {
                    now += ms;
                    pair.run_to(now);
                }
                Step::Key(k, delay) => {
                    now += delay;
                    pair.run_to(now);
                    pair.key(KEYS[k], now);
                }
                Step::Resize(s) => pair.resize(SIZES[s], now),
            }
        }
        pair.assert_same_screen();
    }
}

/// An untouched 40 lines at 80x24 for 10 s: every tenth of the clock after the first is a
/// frame of the stats column alone: at most its 18 x 7 cells compared, a cell or two written,
/// under 16 bytes.
#[test]
fn a_clock_tick_costs_a_few_cells_and_bytes() {
    let mut pair = Pair::new(Graphics::Unicode, ModeKind::Sprint, (80, 24));
    pair.run_to(13_000);
    pair.assert_same_screen();
    // The countdown (3 s), then 10 s of tenths; the gravity's frames (the piece falls a row a
    // second at level 1) are the board's.
    let ticks = pair.partial_of(Damage::Time);
    assert!(ticks.len() >= 85, "{} clock frames", ticks.len());
    let whole = (80 * 24) as usize;
    for (cost, bytes) in &ticks[1..] {
        assert!(cost.compared <= 18 * 7, "{cost:?}");
        assert!(cost.compared * 10 < whole, "{cost:?}");
        assert!(cost.written <= 3, "{cost:?}");
        assert!(*bytes < 16, "{bytes} bytes: {cost:?}");
    }
    let falls = pair.partial_of(Damage::Board);
    assert!(
        falls.len() >= 8,
        "{} frames of the piece's fall",
        falls.len()
    );
    // Whole frames compare the whole screen.
    assert!(pair.frames > pair.partial.len());
}

/// Moving, turning and soft-dropping the piece (40 lines at 80x24) redraws the board and the
/// stats alone: at most the board's 22 x 22 cells and the stats' 18 x 7 compared, a third of
/// the screen, and only the cells the piece and its ghost left or reached written.
#[test]
fn a_move_costs_the_board_and_the_stats() {
    let mut pair = Pair::new(Graphics::Unicode, ModeKind::Sprint, (80, 24));
    pair.run_to(3_500);
    let before = pair.partial.len();
    let mut now = 3_500;
    for key in [
        Key::Left,
        Key::Right,
        Key::Char('x'),
        Key::Down,
        Key::Char('z'),
        Key::Right,
    ] {
        now += 150;
        pair.run_to(now);
        let n = pair.partial.len();
        pair.key(key, now);
        assert_eq!(pair.partial.len(), n + 1, "{key:?}: a partial frame");
        let (damage, cost, bytes) = pair.partial[n];
        assert_eq!(damage, Damage::Board, "{key:?}");
        assert!(cost.compared <= 22 * 22 + 18 * 7, "{key:?}: {cost:?}");
        assert!(cost.compared * 3 < 80 * 24, "{key:?}: {cost:?}");
        assert!(cost.written <= 24, "{key:?}: {cost:?}");
        assert!(bytes < 160, "{key:?}: {bytes} bytes, {cost:?}");
    }
    assert!(pair.partial.len() > before);
    // A hard drop locks the piece: the queue, the counts and the hold box change.
    let n = pair.partial.len();
    pair.key(Key::Char(' '), now + 100);
    assert_eq!(pair.partial.len(), n, "a lock draws the whole screen");
    pair.assert_same_screen();
}

/// A compact board (half blocks, Braille) keeps the partial frames: a move redraws the board
/// and the stats alone, fewer cells than blocks' (a 12 x 12 or 7 x 7 board), and the screen
/// ends as whole frames leave it.
#[test]
fn a_move_on_a_compact_board_costs_its_board_and_the_stats() {
    for (renderer, board) in [(Renderer::HalfBlock, 12 * 12), (Renderer::Braille, 7 * 7)] {
        let mut pair = Pair::drawn(Graphics::Unicode, renderer, ModeKind::Sprint, (80, 24));
        pair.run_to(3_500);
        let mut now = 3_500;
        for key in [Key::Left, Key::Right, Key::Char('x'), Key::Down] {
            now += 150;
            pair.run_to(now);
            let n = pair.partial.len();
            pair.key(key, now);
            assert_eq!(
                pair.partial.len(),
                n + 1,
                "{renderer:?} {key:?}: a partial frame"
            );
            let (damage, cost, _) = pair.partial[n];
            assert_eq!(damage, Damage::Board, "{renderer:?} {key:?}");
            assert!(
                cost.compared <= board + 18 * 7,
                "{renderer:?} {key:?}: {cost:?}"
            );
        }
        pair.assert_same_screen();
    }
}

/// Where something lies over the game (the pause menu), frames are whole; resumed, the
/// clock's are partial again. (Ultra's clock counts down in tenths; in marathon, whose clock
/// shows seconds, each second's tick comes with the piece's fall a row: whole frames.)
#[test]
fn paused_games_draw_whole_frames_and_resumed_ones_partial_again() {
    let mut pair = Pair::new(Graphics::Ascii, ModeKind::Ultra, (100, 40));
    pair.run_to(8_000);
    let before = pair.partial.len();
    assert!(before >= 40, "{before} partial frames in 5 s of ultra");
    pair.key(Key::Esc, 8_000);
    pair.run_to(12_000);
    assert_eq!(pair.partial.len(), before, "paused: nothing moves by time");
    pair.key(Key::Esc, 12_000);
    pair.run_to(20_000);
    assert!(
        pair.partial.len() > before,
        "resumed: the clock's frames are partial again"
    );
    pair.assert_same_screen();
}
