//! Glyphs and colours, chosen from the player's graphics and colour settings.

use minotty_engine::Piece;
use ratatui::style::{Color, Modifier, Style};

use crate::settings::{ColorMode, Graphics, Settings};

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    pub graphics: Graphics,
    pub colors: ColorMode,
}

impl Theme {
    pub fn new(settings: &Settings) -> Theme {
        Theme {
            graphics: settings.graphics,
            colors: settings.colors,
        }
    }

    fn unicode(self) -> bool {
        self.graphics == Graphics::Unicode
    }

    /// One board cell (two columns) holding a block.
    pub fn block(self) -> &'static str {
        if self.unicode() { "██" } else { "[]" }
    }

    /// One board cell holding a block of `piece`: the block, except in monochrome, where each
    /// piece has its own glyph pair since colour cannot tell them apart.
    pub fn piece_block(self, piece: Piece) -> &'static str {
        if self.colors != ColorMode::Monochrome {
            return self.block();
        }
        let i = piece as usize;
        if self.unicode() {
            ["██", "▓▓", "▒▒", "[]", "<>", "{}", "()"][i]
        } else {
            ["##", "[]", "%%", "<>", "{}", "()", "@@"][i]
        }
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

    /// One empty board cell.
    pub fn empty(self) -> &'static str {
        if self.unicode() { " ·" } else { " ." }
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

    /// The colour of a piece's blocks.
    pub fn piece_color(self, piece: Piece) -> Color {
        let i = piece as usize;
        match self.colors {
            ColorMode::Ansi256 => Color::Indexed([51, 226, 129, 46, 196, 33, 208][i]),
            ColorMode::TrueColor => {
                let (r, g, b) = [
                    (0, 230, 230),
                    (240, 220, 0),
                    (170, 60, 240),
                    (60, 220, 60),
                    (235, 40, 40),
                    (40, 110, 255),
                    (250, 150, 20),
                ][i];
                Color::Rgb(r, g, b)
            }
            ColorMode::Monochrome => Color::Reset,
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

    pub fn garbage(self) -> Style {
        Style::new().fg(self.pick(245, (140, 140, 140), Color::Gray))
    }

    pub fn ghost_style(self, piece: Piece) -> Style {
        Style::new().fg(self.piece_color(piece))
    }

    /// Flashing cells (line clears, locks).
    pub fn flash(self) -> Style {
        Style::new()
            .fg(self.pick(231, (255, 255, 255), Color::White))
            .add_modifier(Modifier::BOLD)
    }

    pub fn empty_style(self) -> Style {
        self.dimmed(Style::new().fg(self.pick(238, (64, 64, 64), Color::DarkGray)))
    }

    pub fn text(self) -> Style {
        Style::new()
    }

    pub fn dim(self) -> Style {
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
        Style::new()
            .fg(self.pick(214, (255, 180, 60), Color::Yellow))
            .add_modifier(Modifier::BOLD)
    }

    pub fn title(self) -> Style {
        Style::new().add_modifier(Modifier::BOLD)
    }

    pub fn selected(self) -> Style {
        Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD)
    }

    pub fn good(self) -> Style {
        Style::new()
            .fg(self.pick(82, (90, 230, 90), Color::LightGreen))
            .add_modifier(Modifier::BOLD)
    }

    pub fn bad(self) -> Style {
        Style::new()
            .fg(self.pick(203, (240, 80, 80), Color::LightRed))
            .add_modifier(Modifier::BOLD)
    }

    fn pick(self, indexed: u8, rgb: (u8, u8, u8), basic: Color) -> Color {
        match self.colors {
            ColorMode::Ansi256 => Color::Indexed(indexed),
            ColorMode::TrueColor => Color::Rgb(rgb.0, rgb.1, rgb.2),
            ColorMode::Ansi16 => basic,
            ColorMode::Monochrome => Color::Reset,
        }
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
        for graphics in Graphics::ALL {
            let theme = Theme {
                graphics,
                colors: ColorMode::Monochrome,
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
            };
            assert!(
                Piece::ALL
                    .iter()
                    .all(|&p| colour.piece_block(p) == colour.block())
            );
        }
    }

    #[test]
    fn gems_have_their_own_glyphs_in_every_theme() {
        for graphics in Graphics::ALL {
            for colors in ColorMode::ALL {
                let theme = Theme { graphics, colors };
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
        };
        let b = theme.border();
        for s in [theme.block(), theme.ghost(), theme.empty(), theme.minos()]
            .into_iter()
            .chain([b.top_left, b.horizontal, b.vertical])
        {
            assert!(s.is_ascii(), "{s}");
        }
    }
}
