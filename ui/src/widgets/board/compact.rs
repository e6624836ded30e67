//! The compact board renderers (tetro-tui's "Halfcell" and "Braille"): two cells a character,
//! one above the other, in half blocks; eight cells a character in Braille dots. Both read the
//! same [`Look`]s as the block renderer, so what a cell shows (the piece, the stack, a flash,
//! a gem) is decided once.

use minotty_engine::Placed;
use minotty_engine::board::{BUFFER_HEIGHT, VISIBLE_HEIGHT, WIDTH};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};

use super::{Look, covers, split};
use crate::draw;
use crate::theme::Theme;

/// The Braille characters by dot bits (U+2800 + bits: dots 1-3 down the left column are bits
/// 0-2, dots 4-6 down the right bits 3-5, dots 7 and 8 the bottom row's left and right).
#[rustfmt::skip]
const BRAILLE: [&str; 256] = [
    "⠀", "⠁", "⠂", "⠃", "⠄", "⠅", "⠆", "⠇", "⠈", "⠉", "⠊", "⠋", "⠌", "⠍", "⠎", "⠏",
    "⠐", "⠑", "⠒", "⠓", "⠔", "⠕", "⠖", "⠗", "⠘", "⠙", "⠚", "⠛", "⠜", "⠝", "⠞", "⠟",
    "⠠", "⠡", "⠢", "⠣", "⠤", "⠥", "⠦", "⠧", "⠨", "⠩", "⠪", "⠫", "⠬", "⠭", "⠮", "⠯",
    "⠰", "⠱", "⠲", "⠳", "⠴", "⠵", "⠶", "⠷", "⠸", "⠹", "⠺", "⠻", "⠼", "⠽", "⠾", "⠿",
    "⡀", "⡁", "⡂", "⡃", "⡄", "⡅", "⡆", "⡇", "⡈", "⡉", "⡊", "⡋", "⡌", "⡍", "⡎", "⡏",
    "⡐", "⡑", "⡒", "⡓", "⡔", "⡕", "⡖", "⡗", "⡘", "⡙", "⡚", "⡛", "⡜", "⡝", "⡞", "⡟",
    "⡠", "⡡", "⡢", "⡣", "⡤", "⡥", "⡦", "⡧", "⡨", "⡩", "⡪", "⡫", "⡬", "⡭", "⡮", "⡯",
    "⡰", "⡱", "⡲", "⡳", "⡴", "⡵", "⡶", "⡷", "⡸", "⡹", "⡺", "⡻", "⡼", "⡽", "⡾", "⡿",
    "⢀", "⢁", "⢂", "⢃", "⢄", "⢅", "⢆", "⢇", "⢈", "⢉", "⢊", "⢋", "⢌", "⢍", "⢎", "⢏",
    "⢐", "⢑", "⢒", "⢓", "⢔", "⢕", "⢖", "⢗", "⢘", "⢙", "⢚", "⢛", "⢜", "⢝", "⢞", "⢟",
    "⢠", "⢡", "⢢", "⢣", "⢤", "⢥", "⢦", "⢧", "⢨", "⢩", "⢪", "⢫", "⢬", "⢭", "⢮", "⢯",
    "⢰", "⢱", "⢲", "⢳", "⢴", "⢵", "⢶", "⢷", "⢸", "⢹", "⢺", "⢻", "⢼", "⢽", "⢾", "⢿",
    "⣀", "⣁", "⣂", "⣃", "⣄", "⣅", "⣆", "⣇", "⣈", "⣉", "⣊", "⣋", "⣌", "⣍", "⣎", "⣏",
    "⣐", "⣑", "⣒", "⣓", "⣔", "⣕", "⣖", "⣗", "⣘", "⣙", "⣚", "⣛", "⣜", "⣝", "⣞", "⣟",
    "⣠", "⣡", "⣢", "⣣", "⣤", "⣥", "⣦", "⣧", "⣨", "⣩", "⣪", "⣫", "⣬", "⣭", "⣮", "⣯",
    "⣰", "⣱", "⣲", "⣳", "⣴", "⣵", "⣶", "⣷", "⣸", "⣹", "⣺", "⣻", "⣼", "⣽", "⣾", "⣿",
];

/// The dot bit of the cell `(dx, dy)` of a Braille character's two columns by four rows.
const BRAILLE_DOT: [[u8; 2]; 4] = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]];

/// The colour a look is drawn in (its foreground), if it shows anything; a see-through look
/// (the ghost, a trail) shows only where colours tell it apart from a block.
fn ink(look: Look, theme: Theme) -> Option<Style> {
    match look {
        Look::Solid(_, style) => Some(style),
        Look::Shade(_, style) if theme.half_blocks() => Some(style.add_modifier(Modifier::DIM)),
        Look::Shade(..) | Look::Empty => None,
    }
}

/// One half-block character: the upper cell's look over the lower cell's.
fn half(upper: Look, lower: Look, theme: Theme) -> (&'static str, Style) {
    match (ink(upper, theme), ink(lower, theme)) {
        (None, None) => (split(theme.empty()).1, theme.empty_style()),
        (Some(u), None) => ("▀", u),
        (None, Some(l)) => ("▄", l),
        (Some(u), Some(l)) if u.fg == l.fg => ("█", u),
        (Some(u), Some(l)) => ("▀", u.bg(l.fg.unwrap_or(Color::Reset))),
    }
}

/// Draws `looks` two rows a character into `cells` (10 columns by 10 rows).
pub(super) fn draw_halves(
    buf: &mut Buffer,
    cells: Rect,
    looks: &[[Look; WIDTH]; VISIBLE_HEIGHT],
    theme: Theme,
) {
    for (r, pair) in looks.chunks_exact(2).enumerate() {
        for (x, (&upper, &lower)) in pair[0].iter().zip(&pair[1]).enumerate() {
            let (ch, style) = half(upper, lower, theme);
            let at = (
                cells.x.saturating_add(x as u16),
                cells.y.saturating_add(r as u16),
            );
            draw::put_narrow(buf, cells, at.0, at.1, ch, style);
        }
    }
}

/// Draws `looks` as Braille, two columns by four rows of cells a character, into `cells` (5
/// columns by 5 rows). A character takes the colour of the piece in play (`active`) where it
/// has one of its cells, else of its first filled cell in reading order.
pub(super) fn draw_braille(
    buf: &mut Buffer,
    cells: Rect,
    looks: &[[Look; WIDTH]; VISIBLE_HEIGHT],
    active: Option<Placed>,
    theme: Theme,
) {
    for r in 0..VISIBLE_HEIGHT / 4 {
        for c in 0..WIDTH / 2 {
            let mut bits = 0usize;
            let mut first = None;
            let mut piece = None;
            for (dy, dots) in BRAILLE_DOT.iter().enumerate() {
                for (dx, &dot) in dots.iter().enumerate() {
                    let (x, vy) = (2 * c + dx, 4 * r + dy);
                    let Some(style) = ink(looks[vy][x], theme) else {
                        continue;
                    };
                    bits |= usize::from(dot);
                    first.get_or_insert(style);
                    if covers(active, x, BUFFER_HEIGHT + vy) {
                        piece = Some(style);
                    }
                }
            }
            let (ch, style) = match piece.or(first) {
                Some(style) => (BRAILLE[bits], style),
                None => (split(theme.empty()).1, theme.empty_style()),
            };
            let at = (
                cells.x.saturating_add(c as u16),
                cells.y.saturating_add(r as u16),
            );
            draw::put_narrow(buf, cells, at.0, at.1, ch, style);
        }
    }
}
