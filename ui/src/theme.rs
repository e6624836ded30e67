//! Glyphs and colours, chosen from the player's graphics and colour settings.

use minotty_engine::Piece;
use ratatui::style::{Color, Modifier, Style};

use crate::settings::{ColorMode, Graphics, Palette, Renderer, Settings};

/// The characters of a box frame.
#[derive(Clone, Copy, Debug)]
pub struct BorderSet {
    pub top_left: &'static str,
    pub top_right: &'static str,
    pub bottom_left: &'static str,
    pub bottom_right: &'static str,
    pub horizontal: &'static str,
    pub vertical: &'static str,
}

const UNICODE_BORDER: BorderSet = BorderSet {
    top_left: "┌",
    top_right: "┐",
    bottom_left: "└",
    bottom_right: "┘",
    horizontal: "─",
    vertical: "│",
};

const ASCII_BORDER: BorderSet = BorderSet {
    top_left: "+",
    top_right: "+",
    bottom_left: "+",
    bottom_right: "+",
    horizontal: "-",
    vertical: "|",
};

/// How everything is drawn for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Theme {
    pub graphics: Graphics,
    pub colors: ColorMode,
    pub palette: Palette,
    /// Empty cells are blank (the grid setting off).
    pub no_grid: bool,
    /// Locked blocks are grey (the "colour locked tiles" setting off).
    pub plain_locked: bool,
    /// The board renderer chosen (see [`Theme::renderer`] for the one drawn).
    pub renderer: Renderer,
}

impl Theme {
    pub fn new(settings: &Settings) -> Theme {
        Theme {
            graphics: settings.graphics,
            colors: settings.colors,
            palette: settings.palette,
            no_grid: !settings.grid,
            plain_locked: !settings.color_locked,
            renderer: settings.renderer,
        }
    }

    /// The board renderer drawn: the one chosen under Unicode graphics, blocks under ASCII and
    /// Electronika 60 (whose glyphs are the point).
    pub fn renderer(self) -> Renderer {
        if self.unicode() {
            self.renderer
        } else {
            Renderer::Blocks
        }
    }

    fn unicode(self) -> bool {
        self.graphics == Graphics::Unicode
    }

    /// The Electronika 60 look: everything green (on black, painted by [`Theme::background`]).
    pub fn electronika(self) -> bool {
        self.graphics == Graphics::Electronika
    }

    /// Whether boards may be drawn with half blocks (odd scales): only where every cell is a
    /// solid colour, so Unicode in colour. ASCII, Electronika and monochrome tell cells apart
    /// by glyph and scale by whole cells only.
    pub fn half_blocks(self) -> bool {
        self.unicode() && self.colors != ColorMode::Monochrome
    }

    /// The background the game screen paints first, if any: black for the Electronika 60
    /// (unless monochrome, which keeps the terminal's own colours).
    pub fn background(self) -> Option<Color> {
        (self.electronika() && self.colors != ColorMode::Monochrome).then_some(Color::Black)
    }

    /// Green, bright or dim, in the palette (the Electronika 60's phosphor).
    fn green(self, bright: bool) -> Color {
        if bright {
            self.pick(83, (90, 255, 90), Color::LightGreen)
        } else {
            self.pick(28, (0, 140, 0), Color::Green)
        }
    }

    /// One board cell (two columns) holding a block.
    pub fn block(self) -> &'static str {
        if self.unicode() { "██" } else { "[]" }
    }

    /// One board cell holding a block of `piece`: the block, except in monochrome, where each
    /// piece has its own glyph pair since colour cannot tell them apart.
    pub fn piece_block(self, piece: Piece) -> &'static str {
        // The original drew every piece alike.
        if self.colors != ColorMode::Monochrome || self.electronika() {
            return self.block();
        }
        let i = piece as usize;
        if self.unicode() {
            ["██", "▓▓", "▒▒", "[]", "<>", "{}", "()"][i]
        } else {
            ["##", "[]", "%%", "<>", "{}", "()", "@@"][i]
        }
    }

    /// One cell lit by a flash (line clears, locks).
    pub fn flash_block(self) -> &'static str {
        if self.electronika() {
            "▮▮"
        } else {
            self.block()
        }
    }

    /// One cell of a hard drop's trail at `stage` (one step today: 0).
    pub fn trail(self, stage: usize) -> &'static str {
        let glyphs = if self.unicode() {
            ["▒▒", "░░"]
        } else {
            ["''", "''"]
        };
        glyphs[stage.min(1)]
    }

    /// One board cell holding a Descent gem not yet collected: its own glyph in every theme,
    /// so that monochrome and ASCII tell gems from pegs and pieces too.
    pub fn gem(self) -> &'static str {
        if self.unicode() { "◆◆" } else { "$$" }
    }

    /// One board cell holding a collected Descent gem.
    pub fn collected_gem(self) -> &'static str {
        if self.unicode() { "◇◇" } else { "oo" }
    }

    /// A gem's style: its current colour (bold, which is all monochrome has).
    pub fn gem_style(self, colour: Piece) -> Style {
        self.piece(colour).add_modifier(Modifier::BOLD)
    }

    /// One cell of the ghost piece.
    pub fn ghost(self) -> &'static str {
        if self.unicode() { "░░" } else { "::" }
    }

    /// The separator dot between words of a title ("·", or "-" in ASCII).
    pub fn dot(self) -> &'static str {
        if self.unicode() { "·" } else { "-" }
    }

    /// One empty board cell: a dot of the grid, or blank without it.
    pub fn empty(self) -> &'static str {
        match (self.no_grid, self.unicode()) {
            (true, _) => "  ",
            (false, true) => " ·",
            (false, false) => " .",
        }
    }

    pub fn border(self) -> BorderSet {
        if self.unicode() {
            UNICODE_BORDER
        } else {
            ASCII_BORDER
        }
    }

    /// A short decorative line of minos for titles.
    pub fn minos(self) -> &'static str {
        if self.unicode() {
            "▄▄▄▄ ▄█▀ ▀█▄ ▄█▄ ▄▄█ █▄▄ ██"
        } else {
            "#### ##. .## .#. ..# #.. ##"
        }
    }

    /// The colour of a piece's blocks, in the player's palette.
    pub fn piece_color(self, piece: Piece) -> Color {
        let i = piece as usize;
        if self.electronika() {
            return self.green(true);
        }
        let (r, g, b) = self.palette.rgb()[i];
        match self.colors {
            ColorMode::Ansi256 => match self.palette.xterm() {
                Some(table) => Color::Indexed(table[i]),
                None => Color::Indexed(xterm_index(r, g, b)),
            },
            ColorMode::TrueColor => Color::Rgb(r, g, b),
            ColorMode::Monochrome => Color::Reset,
            ColorMode::Ansi16 if self.palette == Palette::Matrix => {
                [Color::LightGreen, Color::Green][i % 2]
            }
            ColorMode::Ansi16 => [
                Color::LightCyan,
                Color::LightYellow,
                Color::LightMagenta,
                Color::LightGreen,
                Color::LightRed,
                Color::LightBlue,
                Color::Yellow,
            ][i],
        }
    }

    pub fn piece(self, piece: Piece) -> Style {
        Style::new().fg(self.piece_color(piece))
    }

    /// A locked block of `piece`: its colour, or grey when locked tiles are not coloured.
    pub fn locked(self, piece: Piece) -> Style {
        if self.plain_locked {
            self.garbage()
        } else {
            self.piece(piece)
        }
    }

    pub fn garbage(self) -> Style {
        if self.electronika() {
            return Style::new().fg(self.green(false));
        }
        Style::new().fg(self.pick(245, (140, 140, 140), Color::Gray))
    }

    pub fn ghost_style(self, piece: Piece) -> Style {
        if self.electronika() {
            return self.dim();
        }
        Style::new().fg(self.piece_color(piece))
    }

    /// Flashing cells (line clears, locks).
    pub fn flash(self) -> Style {
        let white = self.pick(231, (255, 255, 255), Color::White);
        let fg = if self.electronika() {
            self.green(true)
        } else {
            white
        };
        Style::new().fg(fg).add_modifier(Modifier::BOLD)
    }

    pub fn empty_style(self) -> Style {
        if self.electronika() {
            return self.dimmed(Style::new().fg(self.green(false)));
        }
        self.dimmed(Style::new().fg(self.pick(238, (64, 64, 64), Color::DarkGray)))
    }

    pub fn text(self) -> Style {
        if self.electronika() {
            return Style::new().fg(self.green(true));
        }
        Style::new()
    }

    pub fn dim(self) -> Style {
        if self.electronika() {
            return self.dimmed(Style::new().fg(self.green(false)));
        }
        self.dimmed(Style::new().fg(self.pick(244, (128, 128, 128), Color::DarkGray)))
    }

    /// Monochrome has no grey: it dims with the terminal's faint attribute instead.
    fn dimmed(self, style: Style) -> Style {
        if self.colors == ColorMode::Monochrome {
            style.add_modifier(Modifier::DIM)
        } else {
            style
        }
    }

    pub fn accent(self) -> Style {
        let fg = if self.electronika() {
            self.green(true)
        } else {
            self.pick(214, (255, 180, 60), Color::Yellow)
        };
        Style::new().fg(fg).add_modifier(Modifier::BOLD)
    }

    pub fn title(self) -> Style {
        self.text().add_modifier(Modifier::BOLD)
    }

    pub fn selected(self) -> Style {
        self.text()
            .add_modifier(Modifier::REVERSED | Modifier::BOLD)
    }

    pub fn good(self) -> Style {
        let fg = if self.electronika() {
            self.green(true)
        } else {
            self.pick(82, (90, 230, 90), Color::LightGreen)
        };
        Style::new().fg(fg).add_modifier(Modifier::BOLD)
    }

    pub fn bad(self) -> Style {
        let fg = if self.electronika() {
            self.green(true)
        } else {
            self.pick(203, (240, 80, 80), Color::LightRed)
        };
        Style::new().fg(fg).add_modifier(Modifier::BOLD)
    }

    fn pick(self, indexed: u8, rgb: (u8, u8, u8), basic: Color) -> Color {
        if self.palette == Palette::Matrix && self.colors != ColorMode::Monochrome {
            return matrix_green(self.colors, rgb, basic);
        }
        match self.colors {
            ColorMode::Ansi256 => Color::Indexed(indexed),
            ColorMode::TrueColor => Color::Rgb(rgb.0, rgb.1, rgb.2),
            ColorMode::Ansi16 => basic,
            ColorMode::Monochrome => Color::Reset,
        }
    }
}

/// The xterm 256-colour index nearest to an RGB colour: the 6x6x6 cube (16-231) or the grey
/// ramp (232-255), by squared distance.
pub fn xterm_index(r: u8, g: u8, b: u8) -> u8 {
    const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
    let near = |v: u8| {
        (0..6)
            .min_by_key(|&i| (i32::from(LEVELS[i]) - i32::from(v)).abs())
            .unwrap_or(0)
    };
    let dist = |(x, y, z): (u8, u8, u8)| {
        let d = |p: u8, q: u8| (i32::from(p) - i32::from(q)).pow(2);
        d(x, r) + d(y, g) + d(z, b)
    };
    let (ci, cj, ck) = (near(r), near(g), near(b));
    let cube = (LEVELS[ci], LEVELS[cj], LEVELS[ck]);
    let cube_index = 16 + 36 * ci as u8 + 6 * cj as u8 + ck as u8;
    let grey_step = ((u32::from(r) + u32::from(g) + u32::from(b)) / 3).saturating_sub(3) / 10;
    let grey_step = grey_step.min(23) as u8;
    let grey = 8 + 10 * grey_step;
    if dist((grey, grey, grey)) < dist(cube) {
        232 + grey_step
    } else {
        cube_index
    }
}

/// The Matrix palette's stand-in for the UI colour `rgb`: a green as bright as it.
fn matrix_green(colors: ColorMode, rgb: (u8, u8, u8), basic: Color) -> Color {
    let light = (u32::from(rgb.0) + u32::from(rgb.1) + u32::from(rgb.2)) / 3;
    match colors {
        ColorMode::TrueColor => Color::Rgb(0, (light + 60).min(255) as u8, 0),
        ColorMode::Ansi256 => Color::Indexed(xterm_index(0, (light + 60).min(255) as u8, 0)),
        _ if basic == Color::Reset => Color::Reset,
        _ if light > 128 => Color::LightGreen,
        _ => Color::Green,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_palette_gives_distinct_piece_colours() {
        for colors in ColorMode::ALL {
            if colors == ColorMode::Monochrome {
                continue;
            }
            let theme = Theme {
                graphics: Graphics::Unicode,
                colors,
                ..Theme::default()
            };
            let mut seen: Vec<Color> = Piece::ALL.map(|p| theme.piece_color(p)).to_vec();
            seen.dedup();
            assert_eq!(seen.len(), 7, "{colors:?}");
            let ok = seen.iter().all(|c| match colors {
                ColorMode::Ansi256 => matches!(c, Color::Indexed(_)),
                ColorMode::TrueColor => matches!(c, Color::Rgb(..)),
                ColorMode::Ansi16 => !matches!(c, Color::Indexed(_) | Color::Rgb(..)),
                ColorMode::Monochrome => false,
            });
            assert!(ok, "{colors:?}");
        }
    }

    #[test]
    fn monochrome_has_no_colour_and_tells_pieces_apart_by_glyph() {
        // The Electronika 60 draws every piece alike, as the original did.
        for graphics in [Graphics::Unicode, Graphics::Ascii] {
            let theme = Theme {
                graphics,
                colors: ColorMode::Monochrome,
                ..Theme::default()
            };
            let mut glyphs: Vec<&str> = Piece::ALL.map(|p| theme.piece_block(p)).to_vec();
            glyphs.sort_unstable();
            glyphs.dedup();
            assert_eq!(glyphs.len(), 7, "{graphics:?}");
            for p in Piece::ALL {
                assert_eq!(theme.piece_color(p), Color::Reset);
                assert_eq!(crate::draw::width(theme.piece_block(p)), 2);
                if graphics == Graphics::Ascii {
                    assert!(theme.piece_block(p).is_ascii());
                }
            }
            for style in [theme.dim(), theme.accent(), theme.good(), theme.bad()] {
                assert!(matches!(style.fg, None | Some(Color::Reset)), "{style:?}");
            }
            // Elsewhere every piece has the one block glyph.
            let colour = Theme {
                graphics,
                colors: ColorMode::Ansi256,
                ..Theme::default()
            };
            assert!(
                Piece::ALL
                    .iter()
                    .all(|&p| colour.piece_block(p) == colour.block())
            );
        }
    }

    #[test]
    fn electronika_is_green_on_black_or_the_terminals_own_in_monochrome() {
        for colors in ColorMode::ALL {
            let theme = Theme {
                graphics: Graphics::Electronika,
                colors,
                ..Theme::default()
            };
            let styles = [
                theme.text(),
                theme.dim(),
                theme.accent(),
                theme.good(),
                theme.bad(),
                theme.flash(),
                theme.empty_style(),
                theme.garbage(),
                theme.piece(Piece::T),
                theme.ghost_style(Piece::I),
            ];
            for style in styles {
                let fg = style.fg.unwrap_or(Color::Reset);
                let ok = match colors {
                    ColorMode::Ansi256 => matches!(fg, Color::Indexed(83 | 28)),
                    ColorMode::TrueColor => matches!(fg, Color::Rgb(r, g, b) if g > r && g > b),
                    ColorMode::Ansi16 => matches!(fg, Color::Green | Color::LightGreen),
                    ColorMode::Monochrome => fg == Color::Reset,
                };
                assert!(ok, "{colors:?} {style:?}");
            }
            let black = colors != ColorMode::Monochrome;
            assert_eq!(theme.background(), black.then_some(Color::Black));
            assert_eq!(theme.block(), "[]");
            assert_eq!(theme.empty(), " .");
            assert!(Piece::ALL.iter().all(|&p| theme.piece_block(p) == "[]"));
            assert!(!theme.half_blocks());
        }
        let unicode = Theme::new(&Settings::default());
        assert_eq!(unicode.background(), None);
        assert!(unicode.half_blocks());
    }

    #[test]
    fn gems_have_their_own_glyphs_in_every_theme() {
        for graphics in Graphics::ALL {
            for colors in ColorMode::ALL {
                let theme = Theme {
                    graphics,
                    colors,
                    ..Theme::default()
                };
                let mut others: Vec<&str> = Piece::ALL.map(|p| theme.piece_block(p)).to_vec();
                others.extend([theme.block(), theme.ghost(), theme.empty()]);
                for g in [theme.gem(), theme.collected_gem()] {
                    assert!(!others.contains(&g), "{graphics:?} {colors:?}: {g}");
                    assert_eq!(crate::draw::width(g), 2);
                    if graphics == Graphics::Ascii {
                        assert!(g.is_ascii());
                    }
                }
                assert_ne!(theme.gem(), theme.collected_gem());
            }
        }
    }

    #[test]
    fn ascii_glyphs_are_ascii() {
        let theme = Theme {
            graphics: Graphics::Ascii,
            colors: ColorMode::Ansi16,
            ..Theme::default()
        };
        let b = theme.border();
        let trail = [theme.trail(0), theme.trail(1), theme.trail(2)];
        for s in [theme.block(), theme.ghost(), theme.empty(), theme.minos()]
            .into_iter()
            .chain(trail)
            .chain([b.top_left, b.horizontal, b.vertical])
        {
            assert!(s.is_ascii(), "{s}");
        }
    }
}
