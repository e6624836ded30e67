//! Names drawn to other players, and the one allowlist of characters they may hold.
//!
//! Every name another player sees goes through [`is_allowed_name_char`]: account names
//! ([`crate::store::PlayerName`], which further narrows it to ASCII), SSH user names
//! ([`DisplayName`]) and anything else a player typed. It is an allowlist by Unicode general
//! category, not a list of known-bad characters: letters, numbers, punctuation, symbols, the
//! ASCII space, and combining marks that follow something they can combine with. Everything
//! else is refused: controls and format characters (bidi overrides and isolates, zero-width
//! spaces and joiners, the soft hyphen, tag characters), private use, unassigned code points,
//! line and paragraph separators, other spaces, and the invisible "fillers" and variation
//! selectors that Unicode files as letters, symbols or marks.
//!
//! Account names are the strict `store::PlayerName`; a `DisplayName` is only ever shown (the
//! name of a guest, or the name offered to a new key on the welcome screen).

use std::fmt;

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
use unicode_width::UnicodeWidthChar;

/// The longest displayed name, in characters.
pub const MAX_NAME_CHARS: usize = 16;

/// The name shown for players whose SSH user name is unusable.
pub const GUEST_NAME: &str = "guest";

/// What marks a guest's name wherever other players see it. No account name can contain it
/// (they are `A-Z a-z 0-9 - _`), so a guest never shows with a registered player's name; it
/// comes first so that a column too narrow for the whole name still shows it.
pub const GUEST_MARK: char = '~';

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

fn is_mark(c: char) -> bool {
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
    if is_invisible_filler(c) {
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

/// Whether every character of `s` is allowed where it stands, and `s` neither starts nor ends
/// with a space (a check for names that must be typed exactly, unlike [`sanitize_display`]).
pub fn is_allowed_name(s: &str) -> bool {
    let mut marks = 0;
    for (i, c) in s.chars().enumerate() {
        if !is_allowed_name_char(c, i == 0, marks) {
            return false;
        }
        marks = if is_mark(c) { marks + 1 } else { 0 };
    }
    !s.starts_with(' ') && !s.ends_with(' ')
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

/// A displayed player name: 1 to 16 characters of the name allowlist.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DisplayName(String);

impl DisplayName {
    /// Keeps what [`sanitize_display`] allows of `raw`; the result is a name when 1 to 16
    /// characters remain. Never panics, whatever `raw` holds.
    pub fn parse(raw: &str) -> Option<DisplayName> {
        // A name longer than the limit is refused rather than cut: look one character past it.
        let cleaned = sanitize_display(raw, MAX_NAME_CHARS + 1);
        let len = cleaned.chars().count();
        if (1..=MAX_NAME_CHARS).contains(&len) {
            Some(DisplayName(cleaned))
        } else {
            None
        }
    }

    /// Like [`DisplayName::parse`], falling back to "guest".
    pub fn parse_or_guest(raw: &str) -> DisplayName {
        DisplayName::parse(raw).unwrap_or_else(|| DisplayName(GUEST_NAME.to_owned()))
    }

    /// The name as other players see it while its player has no account: `~ada`.
    pub fn for_guest(&self) -> String {
        format!("{GUEST_MARK}{}", self.0)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for DisplayName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests;
