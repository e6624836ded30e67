//! Strings into the name checks: the display name made of any SSH user name
//! (`DisplayName::parse`) and the strict account name (`PlayerName::parse`), from random
//! Unicode weighted towards what misleads a terminal or a reader: controls, bidirectional
//! controls, zero-width and other invisible characters, tag characters, combining marks,
//! variation selectors, private use, wide characters and look-alikes.
//!
//! Checks: no panic; a display name is 1 to 16 characters, trimmed, and holds none of the
//! characters in [`unsafe_char`]; an account name is 3 to 16 of `A-Z a-z 0-9 - _`.

use minotty_domain::{DisplayName, PlayerName};

use super::{Figures, Rng};

/// Code point ranges to draw from, with what they are.
const CLASSES: &[(u32, u32)] = &[
    (0x20, 0x7e),       // ASCII printable
    (0x00, 0x1f),       // C0 controls
    (0x7f, 0x9f),       // DEL and C1 controls
    (0x200b, 0x200f),   // zero-width space/joiners, LRM, RLM
    (0x202a, 0x202e),   // bidi embeddings and overrides
    (0x2066, 0x2069),   // bidi isolates
    (0x061c, 0x061c),   // Arabic letter mark (bidi)
    (0x2028, 0x2029),   // line and paragraph separators
    (0x2060, 0x2064),   // word joiner, invisible operators
    (0xfeff, 0xfeff),   // byte-order mark
    (0x00ad, 0x00ad),   // soft hyphen
    (0x180e, 0x180e),   // Mongolian vowel separator
    (0x115f, 0x1160),   // Hangul fillers
    (0x3164, 0x3164),   // Hangul filler
    (0xe0000, 0xe007f), // tag characters
    (0x0300, 0x036f),   // combining diacritical marks
    (0x20d0, 0x20ff),   // combining marks for symbols
    (0xfe00, 0xfe0f),   // variation selectors
    (0xe0100, 0xe01ef), // variation selectors supplement
    (0xe000, 0xf8ff),   // private use
    (0xfff9, 0xfffb),   // interlinear annotation
    (0xfffc, 0xfffd),   // object and replacement characters
    (0x1d173, 0x1d17a), // musical formatting controls
    (0x4e00, 0x9fff),   // CJK (double width)
    (0x1f300, 0x1f6ff), // emoji
    (0x0400, 0x04ff),   // Cyrillic (look-alikes)
    (0x00a0, 0x00a0),   // no-break space
    (0x2000, 0x200a),   // typographic spaces
    (0x3000, 0x3000),   // ideographic space
    (0x0000, 0x10ffff), // anything
];

/// Whether a displayed name must not hold `c`: controls, format characters (bidirectional
/// controls, zero-width characters, tags and the like), line and paragraph separators,
/// variation selectors, private use and noncharacters.
pub fn unsafe_char(c: char) -> bool {
    let cp = u32::from(c);
    c.is_control()
        || is_format(cp)
        || matches!(cp, 0x2028 | 0x2029)
        || matches!(cp, 0xfe00..=0xfe0f | 0xe0100..=0xe01ef)
        || matches!(cp, 0xe000..=0xf8ff | 0xf0000..=0x10ffff)
        || matches!(cp, 0xfdd0..=0xfdef)
        || cp & 0xfffe == 0xfffe
}

/// Unicode's format characters (general category Cf), as of Unicode 15.
fn is_format(cp: u32) -> bool {
    matches!(cp,
        0x00ad
        | 0x0600..=0x0605
        | 0x061c
        | 0x06dd
        | 0x070f
        | 0x0890..=0x0891
        | 0x08e2
        | 0x180e
        | 0x200b..=0x200f
        | 0x202a..=0x202e
        | 0x2060..=0x2064
        | 0x2066..=0x206f
        | 0xfeff
        | 0xfff9..=0xfffb
        | 0x110bd
        | 0x110cd
        | 0x13430..=0x1343f
        | 0x1bca0..=0x1bca3
        | 0x1d173..=0x1d17a
        | 0xe0001
        | 0xe0020..=0xe007f
    )
}

/// A random string of up to `max` characters.
pub(super) fn string(rng: &mut Rng, max: u64) -> String {
    let len = rng.below(max + 1);
    let mut s = String::new();
    for _ in 0..len {
        let (lo, hi) = *rng.pick(CLASSES);
        let c = char::from_u32(rng.range(u64::from(lo), u64::from(hi)) as u32);
        s.push(c.unwrap_or('\u{fffd}'));
    }
    s
}

pub(super) fn case(rng: &mut Rng, figures: &mut Figures) -> Result<(), String> {
    let max = if rng.one_in(100) { 5000 } else { 40 };
    let raw = string(rng, max);
    figures.units += raw.chars().count() as u64;
    if let Some(name) = DisplayName::parse(&raw) {
        figures.accepted += 1;
        let shown = name.as_str();
        let count = shown.chars().count();
        if !(1..=16).contains(&count) {
            return Err(format!(
                "display name {shown:?} of {raw:?} has {count} characters"
            ));
        }
        if let Some(c) = shown.chars().find(|c| unsafe_char(*c)) {
            return Err(format!(
                "display name of {raw:?} keeps U+{:04X}: {shown:?}",
                u32::from(c)
            ));
        }
        if shown.trim() != shown {
            return Err(format!("display name {shown:?} is not trimmed"));
        }
    }
    // Account names are mostly tried on near-valid input: ASCII with a stray character.
    let account = if rng.one_in(2) {
        let mut s: String = (0..rng.range(0, 18))
            .map(|_| *rng.pick(b"abcXYZ019-_"))
            .map(char::from)
            .collect();
        if rng.one_in(2) {
            let at = rng.below(s.len() as u64 + 1) as usize;
            s.insert_str(at, &string(rng, 2));
        }
        s
    } else {
        raw
    };
    if let Ok(name) = PlayerName::parse(&account) {
        let s = name.as_str();
        let ok = (3..=16).contains(&s.len())
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !ok {
            return Err(format!("account name {s:?} accepted"));
        }
    }
    Ok(())
}
