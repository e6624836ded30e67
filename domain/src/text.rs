//! The one text policy: every string drawn to a player that another player, another instance
//! or an external program chose (names, room views, bot names and bot info, messages) passes
//! this allowlist. The names of this crate ([`crate::names`], [`crate::PlayerName`]) use it, and
//! so does every helper of the UI and the server that cleans text before drawing it
//! (`minotty_ui::sanitize` and the message cleaners built on it): there is no other list of
//! characters.
//!
//! It is an allowlist by Unicode general category, not a list of known-bad characters:
//! letters, numbers, punctuation, symbols, the ASCII space, and combining marks that follow
//! something they can combine with. Everything else is refused: controls and format characters
//! (escape sequences lose their ESC, bidi overrides and isolates, zero-width spaces and
//! joiners, the soft hyphen, tag characters), private use, unassigned code points, line and
//! paragraph separators, other spaces, and the invisible "fillers" and variation selectors that
//! Unicode files as letters, symbols or marks.

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
use unicode_width::UnicodeWidthChar;

/// Combining marks allowed in a row after one base character: enough for any script's
/// clusters, too few to stack "zalgo" text over the rows above and below a name.
pub const MAX_MARKS_IN_A_ROW: usize = 3;

/// Characters that Unicode files as letters, symbols or marks but that draw nothing (or modify
/// the glyph before them), so a name made of them looks empty or like someone else's.
fn is_invisible_filler(c: char) -> bool {
    matches!(c,
        '\u{115F}' | '\u{1160}'           // Hangul choseong and jungseong fillers
        | '\u{3164}' | '\u{FFA0}'         // Hangul filler, halfwidth Hangul filler
        | '\u{2800}'                      // braille pattern blank
        | '\u{034F}'                      // combining grapheme joiner
        | '\u{17B4}' | '\u{17B5}'         // Khmer inherent vowels
        | '\u{180B}'..='\u{180F}'         // Mongolian free variation selectors, vowel separator
        | '\u{FE00}'..='\u{FE0F}'         // variation selectors
        | '\u{E0100}'..='\u{E01EF}'       // variation selectors supplement
        | '\u{E0000}'..='\u{E007F}'       // tag characters
    )
}

/// Characters that terminals draw several cells wide while Unicode (and so every width
/// computation here, ratatui's too) counts them one: the Arabic word ligatures, U+FDFD
/// "bismillah" above all (about ten cells in common fonts). A name holding one spills over
/// the columns beside it, so they are refused.
fn is_overwide(c: char) -> bool {
    matches!(c, '\u{FDFA}' | '\u{FDFB}' | '\u{FDFD}')
}

/// The width of `s` in terminal columns: two for a wide (CJK) character, none for a
/// combining mark, one for the rest (what ratatui lays text out by).
pub fn width(s: &str) -> usize {
    s.chars().map(|c| c.width().unwrap_or(0)).sum()
}

/// The longest start of `s` that is at most `cols` columns wide: where a name drawn in a
/// column of that width is cut. A wide character that would straddle the edge is left out
/// whole, and the combining marks after the last character kept stay with it.
pub fn fit_width(s: &str, cols: usize) -> &str {
    let mut used = 0;
    for (i, c) in s.char_indices() {
        let w = c.width().unwrap_or(0);
        if used + w > cols {
            return &s[..i];
        }
        used += w;
    }
    s
}

/// Whether `c` is a combining mark (it draws over the character before it).
pub fn is_mark(c: char) -> bool {
    matches!(
        c.general_category(),
        GeneralCategory::NonspacingMark
            | GeneralCategory::SpacingMark
            | GeneralCategory::EnclosingMark
    )
}

/// Whether `c` may appear in a name drawn to another player, when `marks_before` combining
/// marks directly precede it and `first` says whether it would be the name's first character.
///
/// A mark is allowed only after a base character (not first, and at most
/// [`MAX_MARKS_IN_A_ROW`] in a row); every other allowed character draws at least one cell.
pub fn is_allowed_name_char(c: char, first: bool, marks_before: usize) -> bool {
    use GeneralCategory as G;
    if is_invisible_filler(c) || is_overwide(c) {
        return false;
    }
    match c.general_category() {
        G::UppercaseLetter
        | G::LowercaseLetter
        | G::TitlecaseLetter
        | G::ModifierLetter
        | G::OtherLetter
        | G::DecimalNumber
        | G::LetterNumber
        | G::OtherNumber
        | G::ConnectorPunctuation
        | G::DashPunctuation
        | G::OpenPunctuation
        | G::ClosePunctuation
        | G::InitialPunctuation
        | G::FinalPunctuation
        | G::OtherPunctuation
        | G::MathSymbol
        | G::CurrencySymbol
        | G::ModifierSymbol
        | G::OtherSymbol => c.width().is_some_and(|w| w >= 1),
        G::NonspacingMark | G::SpacingMark | G::EnclosingMark => {
            !first && marks_before < MAX_MARKS_IN_A_ROW
        }
        // Of the spaces only U+0020: the others (no-break, em, ideographic, ...) let a name
        // pass for another with a plain space, or look empty.
        G::SpaceSeparator => c == ' ',
        G::LineSeparator
        | G::ParagraphSeparator
        | G::Control
        | G::Format
        | G::Surrogate
        | G::PrivateUse
        | G::Unassigned => false,
    }
}

/// `raw` made safe to draw to another player: the characters [`is_allowed_name_char`] refuses
/// are dropped, then surrounding spaces and marks left leading are removed, and the result is
/// cut to `max_chars` characters. May be empty.
pub fn sanitize_display(raw: &str, max_chars: usize) -> String {
    let mut kept = String::with_capacity(raw.len().min(4 * max_chars + 4));
    let mut marks = 0;
    let mut first = true;
    for c in raw.chars() {
        if !is_allowed_name_char(c, first, marks) {
            continue;
        }
        // A mark after a space would lead the name once the space is trimmed.
        if first && c == ' ' {
            continue;
        }
        first = false;
        marks = if is_mark(c) { marks + 1 } else { 0 };
        kept.push(c);
    }
    // Marks combine with what precedes them, so cutting after any character is safe; spaces
    // left at the end are trimmed.
    let cut = kept
        .char_indices()
        .nth(max_chars)
        .map_or(kept.len(), |(i, _)| i);
    kept.truncate(cut);
    kept.trim_end_matches(' ').to_owned()
}

/// Whether the byte `b` is an ASCII character the allowlist keeps (a letter, digit,
/// punctuation, symbol or the space): the allowlist narrowed to ASCII, for values that must
/// stay plain ASCII (a terminal's replies shown by the doctor, a client's environment
/// variables). The same list, not a second one: it asks [`is_allowed_name_char`].
pub fn is_allowed_ascii(b: u8) -> bool {
    b.is_ascii() && is_allowed_name_char(char::from(b), false, 0)
}

/// The longest untrusted word echoed back in a message, in characters.
pub const MAX_ECHO_CHARS: usize = 64;

/// An untrusted word (an exec command's argument or option) as a message echoes it back to
/// the client: what the allowlist allows of it, at most [`MAX_ECHO_CHARS`] characters.
pub fn echo(word: &str) -> String {
    sanitize_display(word, MAX_ECHO_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ascii_the_allowlist_keeps_is_the_printable_ascii() {
        for b in 0..=u8::MAX {
            assert_eq!(
                is_allowed_ascii(b),
                b == b' ' || b.is_ascii_graphic(),
                "byte {b:#04x}"
            );
        }
    }

    #[test]
    fn names_are_cut_by_columns_not_characters() {
        assert_eq!(width("ada"), 3);
        assert_eq!(width("漢字"), 4);
        assert_eq!(width("e\u{301}"), 1);
        assert_eq!(fit_width("ada lovelace", 3), "ada");
        // Four columns hold two CJK characters; five do not hold half of a third.
        assert_eq!(fit_width("漢字漢字", 4), "漢字");
        assert_eq!(fit_width("漢字漢字", 5), "漢字");
        assert_eq!(fit_width("a漢", 2), "a");
        // A mark stays with its character.
        assert_eq!(fit_width("e\u{301}x", 1), "e\u{301}");
        assert_eq!(fit_width("short", 80), "short");
        assert_eq!(fit_width("", 0), "");
        // The ligatures drawn ten cells wide never reach a screen.
        assert_eq!(sanitize_display("a\u{FDFD}b\u{FDFA}\u{FDFB}", 24), "ab");
    }

    #[test]
    fn an_echoed_word_passes_the_allowlist() {
        assert_eq!(echo("rm"), "rm");
        assert_eq!(echo("--size=80x24"), "--size=80x24");
        assert_eq!(echo("\x1b]0;pwned\x07"), "]0;pwned");
        assert_eq!(echo(&"é".repeat(100)), "é".repeat(MAX_ECHO_CHARS));
        // The two copies this replaces (`exec.rs`, `cast.rs`) dropped only controls, so a
        // bidi override or a zero-width space reached the client's terminal: no longer.
        assert_eq!(echo("evil\u{202E}gnp.exe"), "evilgnp.exe");
        assert_eq!(echo("zero\u{200B}width\u{E000}"), "zerowidth");
    }
}
