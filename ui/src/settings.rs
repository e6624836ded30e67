//! A player's settings: controls, handling, and how the game looks. Plain data (no serde yet),
//! so the accounts work can load and store them however it likes.

use minotty_engine::game::MAX_PREVIEW;
use minotty_engine::{Handling, RulesetId};

use crate::keymap::Keymap;

/// How cells and frames are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Graphics {
    /// Full blocks and box-drawing characters.
    #[default]
    Unicode,
    /// Only printable ASCII, for consoles without good fonts.
    Ascii,
    /// The look of the 1984 original on the Electronika 60: green on black, the well drawn
    /// with `<!` and `!>`, empty cells as ` .`, blocks as `[]`.
    Electronika,
}

impl Graphics {
    pub const ALL: [Graphics; 3] = [Graphics::Unicode, Graphics::Ascii, Graphics::Electronika];

    pub fn label(self) -> &'static str {
        match self {
            Graphics::Unicode => "Unicode",
            Graphics::Ascii => "ASCII",
            Graphics::Electronika => "Electronika 60",
        }
    }
}

/// How big the game screen's board is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum BoardSize {
    /// The largest scale at which the whole game screen fits the terminal.
    #[default]
    Auto,
    /// Always the smallest: a cell is two columns by one row.
    One,
}

impl BoardSize {
    pub const ALL: [BoardSize; 2] = [BoardSize::Auto, BoardSize::One];

    pub fn label(self) -> &'static str {
        match self {
            BoardSize::Auto => "auto",
            BoardSize::One => "1x",
        }
    }
}

/// How a raced ghost is drawn (40 lines and ultra ghost races).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum GhostView {
    /// Its own board beside the player's (where the terminal has room; else an outline).
    #[default]
    Beside,
    /// An outline of its stack on the player's board.
    Outline,
}

impl GhostView {
    pub const ALL: [GhostView; 2] = [GhostView::Beside, GhostView::Outline];

    pub fn label(self) -> &'static str {
        match self {
            GhostView::Beside => "beside",
            GhostView::Outline => "outline",
        }
    }

    /// Its stored name.
    pub fn id(self) -> &'static str {
        self.label()
    }
}

/// Which colour palette the terminal is assumed to have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ColorMode {
    /// The xterm 256-colour palette: what almost every terminal reached over SSH supports.
    #[default]
    Ansi256,
    /// 24-bit colour.
    TrueColor,
    /// The 16 basic colours (the terminal's own theme decides their look).
    Ansi16,
    /// No colour at all: pieces are told apart by their glyphs (as tetrs' monochrome).
    Monochrome,
}

impl ColorMode {
    pub const ALL: [ColorMode; 4] = [
        ColorMode::Ansi256,
        ColorMode::TrueColor,
        ColorMode::Ansi16,
        ColorMode::Monochrome,
    ];

    pub fn label(self) -> &'static str {
        match self {
            ColorMode::Ansi256 => "256 colours",
            ColorMode::TrueColor => "truecolour",
            ColorMode::Ansi16 => "16 colours",
            ColorMode::Monochrome => "monochrome",
        }
    }
}

/// How the board's cells are drawn (tetro-tui's renderers; the compact two need Unicode
/// graphics: ASCII and Electronika 60 draw blocks whatever this says).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Renderer {
    /// A cell two columns by a row (at any board size).
    #[default]
    Blocks,
    /// Two cells a character, one above the other (`▀` `▄` `█`): a cell one column by half a
    /// row, the board 12 columns by 12 rows with its frame.
    HalfBlock,
    /// Eight cells a character (Braille dots, two by four): the board 7 columns by 7 rows;
    /// a character takes the colour of the piece in play where it has a cell of it, else of
    /// its first filled cell.
    Braille,
}

impl Renderer {
    pub const ALL: [Renderer; 3] = [Renderer::Blocks, Renderer::HalfBlock, Renderer::Braille];

    pub fn label(self) -> &'static str {
        match self {
            Renderer::Blocks => "blocks",
            Renderer::HalfBlock => "half blocks",
            Renderer::Braille => "Braille",
        }
    }

    /// Its stored name.
    pub fn id(self) -> &'static str {
        match self {
            Renderer::Blocks => "blocks",
            Renderer::HalfBlock => "half",
            Renderer::Braille => "braille",
        }
    }
}

/// The colours of the pieces (in 256 colours and truecolour; 16 colours keep the terminal's
/// own, but for The Matrix's greens).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Palette {
    /// minotty's own: the guideline's colours.
    #[default]
    Classic,
    /// Gruvbox's warm retro colours.
    Gruvbox,
    /// Solarized's accent colours.
    Solarized,
    /// Every piece a shade of green, as on the film's screens.
    Matrix,
}

impl Palette {
    pub const ALL: [Palette; 4] = [
        Palette::Classic,
        Palette::Gruvbox,
        Palette::Solarized,
        Palette::Matrix,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Palette::Classic => "classic",
            Palette::Gruvbox => "Gruvbox",
            Palette::Solarized => "Solarized",
            Palette::Matrix => "The Matrix",
        }
    }

    /// Its stored name.
    pub fn id(self) -> &'static str {
        match self {
            Palette::Classic => "classic",
            Palette::Gruvbox => "gruvbox",
            Palette::Solarized => "solarized",
            Palette::Matrix => "matrix",
        }
    }

    /// The pieces' colours in the xterm 256-colour palette (I, O, T, S, Z, J, L): the
    /// themes' own 256-colour versions where they publish one (Gruvbox's and Solarized's),
    /// else `None` (the nearest xterm colour to each RGB is taken).
    pub fn xterm(self) -> Option<[u8; 7]> {
        match self {
            Palette::Classic => Some([51, 226, 129, 46, 196, 33, 208]),
            Palette::Gruvbox => Some([108, 214, 175, 142, 167, 66, 208]),
            Palette::Solarized => Some([37, 136, 61, 64, 160, 33, 166]),
            Palette::Matrix => None,
        }
    }

    /// The pieces' colours as RGB, in the order of `Piece::ALL` (I, O, T, S, Z, J, L).
    pub fn rgb(self) -> [(u8, u8, u8); 7] {
        match self {
            Palette::Classic => [
                (0, 230, 230),
                (240, 220, 0),
                (170, 60, 240),
                (60, 220, 60),
                (235, 40, 40),
                (40, 110, 255),
                (250, 150, 20),
            ],
            Palette::Gruvbox => [
                (131, 165, 152),
                (250, 189, 47),
                (211, 134, 155),
                (184, 187, 38),
                (251, 73, 52),
                (69, 133, 136),
                (254, 128, 25),
            ],
            Palette::Solarized => [
                (42, 161, 152),
                (181, 137, 0),
                (108, 113, 196),
                (133, 153, 0),
                (220, 50, 47),
                (38, 139, 210),
                (203, 75, 22),
            ],
            Palette::Matrix => [
                (0, 255, 65),
                (0, 143, 17),
                (0, 200, 50),
                (120, 255, 120),
                (0, 100, 0),
                (60, 180, 60),
                (170, 255, 170),
            ],
        }
    }
}

/// The frame rates offered, in frames per second.
pub const FRAME_RATES: [u16; 6] = [15, 24, 30, 45, 60, 120];

/// Bounds of the handling settings shown in the settings screen.
pub const MAX_DAS: u32 = 500;
pub const MAX_ARR: u32 = 200;
pub const MAX_SDF: u32 = 40;
/// "Ignore hard drop after a clear" and the DAS cut delay, in the settings screen (ms; the
/// engine allows up to 1 s of either).
pub const MAX_HARD_DROP_GUARD: u32 = 500;
pub const MAX_DAS_CUT: u32 = 300;
/// The longest double-tap window the settings screen offers (ms; the engine allows 500).
pub const MAX_DOUBLE_TAP: u32 = 300;
/// Bounds of the key-release timeout for terminals that do not report releases.
pub const RELEASE_TIMEOUT_RANGE: (u16, u16) = (50, 500);

/// Everything a player can set.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Settings {
    pub keys: Keymap,
    /// DAS, ARR, soft-drop factor, the hard-drop guard after a clear and the DAS cut delay; they
    /// run in the engine, so they apply from the next game.
    pub handling: Handling,
    /// Next pieces shown, `0..=6`.
    pub preview: u8,
    pub ghost: bool,
    /// A brief fading trail over the columns a hard-dropped piece fell through.
    pub drop_trail: bool,
    pub graphics: Graphics,
    pub board_size: BoardSize,
    /// How a raced ghost is drawn.
    pub ghost_view: GhostView,
    pub colors: ColorMode,
    /// The most frames per second a front end should send.
    pub frame_rate: u16,
    /// Whether the game screen shows the frames per second drawn for this player.
    pub show_fps: bool,
    /// For terminals that report no key releases: how long after a key's last press (without
    /// repeats seen yet) it counts as released.
    pub release_timeout_ms: u16,
    /// The ruleset last chosen for 40 lines, marathon, ultra and custom games (other modes
    /// always play `standard`).
    pub ruleset: RulesetId,
    /// Whether the player's solo games are listed on other players' Live screen (and can be
    /// watched there).
    pub let_watch: bool,
    /// The pieces' colours.
    pub palette: Palette,
    /// The dots of empty cells (off: empty cells are blank).
    pub grid: bool,
    /// Locked blocks keep their piece's colour (off: every locked block is grey, the piece
    /// in play alone in colour).
    pub color_locked: bool,
    /// How the board's cells are drawn.
    pub renderer: Renderer,
    /// The lock flash and the cleared rows' blinking (off with the trail: reduced motion).
    pub flashes: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            keys: Keymap::default(),
            handling: Handling::default(),
            preview: 5,
            ghost: true,
            drop_trail: true,
            graphics: Graphics::Unicode,
            board_size: BoardSize::Auto,
            ghost_view: GhostView::Beside,
            colors: ColorMode::Ansi256,
            frame_rate: 60,
            show_fps: false,
            release_timeout_ms: 150,
            ruleset: RulesetId::Standard,
            let_watch: true,
            palette: Palette::Classic,
            grid: true,
            color_locked: true,
            renderer: Renderer::Blocks,
            flashes: true,
        }
    }
}

impl Settings {
    /// The same settings brought into the ranges the UI offers (e.g. after loading old data).
    pub fn clamped(mut self) -> Settings {
        self.handling = Handling {
            das: self.handling.das.min(MAX_DAS),
            arr: self.handling.arr.min(MAX_ARR),
            sdf: self.handling.sdf.min(MAX_SDF),
            hard_drop_guard: self.handling.hard_drop_guard.min(MAX_HARD_DROP_GUARD),
            das_cut: self.handling.das_cut.min(MAX_DAS_CUT),
            double_tap: self.handling.double_tap.min(MAX_DOUBLE_TAP),
            move_under_lock: self.handling.move_under_lock,
        };
        self.preview = self.preview.min(MAX_PREVIEW as u8);
        self.frame_rate = self.frame_rate.clamp(FRAME_RATES[0], FRAME_RATES[5]);
        self.release_timeout_ms = self
            .release_timeout_ms
            .clamp(RELEASE_TIMEOUT_RANGE.0, RELEASE_TIMEOUT_RANGE.1);
        self
    }

    /// Milliseconds between frames at the player's frame rate.
    pub fn frame_interval_ms(&self) -> u64 {
        1000 / u64::from(self.frame_rate.max(1))
    }
}

/// Steps a value through `options` by `dir` (-1 or +1), wrapping around.
pub fn cycle<T: Copy + PartialEq>(options: &[T], current: T, dir: i32) -> T {
    let n = options.len() as i32;
    if n == 0 {
        return current;
    }
    let i = options.iter().position(|&o| o == current).unwrap_or(0) as i32;
    options[(i + dir).rem_euclid(n) as usize]
}

/// Adds `delta` to `value`, keeping it within `lo..=hi`.
pub fn step(value: u32, delta: i32, lo: u32, hi: u32) -> u32 {
    let v = i64::from(value) + i64::from(delta);
    v.clamp(i64::from(lo), i64::from(hi)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clamping_and_cycling() {
        let s = Settings {
            preview: 40,
            frame_rate: 0,
            handling: Handling {
                das: 9999,
                arr: 9999,
                sdf: 9999,
                hard_drop_guard: 9999,
                das_cut: 9999,
                double_tap: 9999,
                move_under_lock: true,
            },
            release_timeout_ms: 1,
            ..Settings::default()
        }
        .clamped();
        assert_eq!(s.preview, 6);
        assert_eq!(s.frame_rate, 15);
        assert_eq!(s.handling.das, MAX_DAS);
        assert_eq!(s.handling.hard_drop_guard, MAX_HARD_DROP_GUARD);
        assert_eq!(s.handling.das_cut, MAX_DAS_CUT);
        assert_eq!(s.handling.double_tap, MAX_DOUBLE_TAP);
        let d = Settings::default().handling;
        assert_eq!((d.hard_drop_guard, d.das_cut), (0, 0), "off by default");
        assert_eq!(
            (d.double_tap, d.move_under_lock),
            (0, false),
            "off by default"
        );
        assert_eq!(s.release_timeout_ms, 50);
        assert_eq!(
            cycle(&ColorMode::ALL, ColorMode::Monochrome, 1),
            ColorMode::Ansi256
        );
        assert_eq!(cycle(&FRAME_RATES, 15, -1), 120);
        assert_eq!(step(5, -10, 0, 100), 0);
        assert_eq!(step(95, 10, 0, 100), 100);
        assert_eq!(Settings::default().frame_interval_ms(), 16);
    }
}
