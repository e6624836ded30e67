//! The name allowlist, one table row per class of character.

use super::*;
use crate::text::MAX_MARKS_IN_A_ROW;

/// Characters refused anywhere in a name, with the class each stands for.
const REFUSED: &[(char, &str)] = &[
    ('\u{0}', "NUL"),
    ('\u{7}', "bell"),
    ('\u{1b}', "escape"),
    ('\n', "line feed"),
    ('\t', "tab"),
    ('\u{7f}', "delete"),
    ('\u{85}', "C1 next line"),
    ('\u{9b}', "C1 CSI"),
    ('\u{061C}', "Arabic letter mark (bidi)"),
    ('\u{200E}', "left-to-right mark"),
    ('\u{200F}', "right-to-left mark"),
    ('\u{202A}', "left-to-right embedding"),
    ('\u{202B}', "right-to-left embedding"),
    ('\u{202C}', "pop directional formatting"),
    ('\u{202D}', "left-to-right override"),
    ('\u{202E}', "right-to-left override"),
    ('\u{2066}', "left-to-right isolate"),
    ('\u{2067}', "right-to-left isolate"),
    ('\u{2068}', "first strong isolate"),
    ('\u{2069}', "pop directional isolate"),
    ('\u{200B}', "zero-width space"),
    ('\u{200C}', "zero-width non-joiner"),
    ('\u{200D}', "zero-width joiner"),
    ('\u{2060}', "word joiner"),
    ('\u{FEFF}', "byte-order mark"),
    ('\u{E0001}', "language tag"),
    ('\u{E0041}', "tag latin capital A"),
    ('\u{E007F}', "cancel tag"),
    ('\u{115F}', "Hangul choseong filler"),
    ('\u{1160}', "Hangul jungseong filler"),
    ('\u{3164}', "Hangul filler"),
    ('\u{FFA0}', "halfwidth Hangul filler"),
    ('\u{2800}', "braille pattern blank"),
    ('\u{2028}', "line separator"),
    ('\u{2029}', "paragraph separator"),
    ('\u{00AD}', "soft hyphen"),
    ('\u{FE00}', "variation selector 1"),
    ('\u{FE0F}', "variation selector 16"),
    ('\u{E0100}', "variation selector 17"),
    ('\u{E01EF}', "variation selector 256"),
    ('\u{034F}', "combining grapheme joiner"),
    ('\u{180E}', "Mongolian vowel separator"),
    ('\u{00A0}', "no-break space"),
    ('\u{2003}', "em space"),
    ('\u{3000}', "ideographic space"),
    ('\u{E000}', "private use"),
    ('\u{F0000}', "supplementary private use"),
    ('\u{FFFF}', "noncharacter"),
    ('\u{0378}', "unassigned"),
    ('\u{FFF9}', "interlinear annotation anchor"),
];

/// Characters allowed anywhere, including first.
const ALLOWED: &[(char, &str)] = &[
    ('a', "ASCII letter"),
    ('Z', "ASCII capital"),
    ('7', "digit"),
    ('_', "connector punctuation"),
    ('-', "dash"),
    ('(', "open punctuation"),
    ('!', "other punctuation"),
    ('«', "initial quote"),
    ('+', "math symbol"),
    ('€', "currency"),
    ('^', "modifier symbol"),
    ('♥', "other symbol"),
    ('😀', "emoji"),
    ('é', "precomposed letter"),
    ('ж', "Cyrillic"),
    ('名', "CJK ideograph"),
    ('ا', "Arabic letter"),
    ('Ⅻ', "letter number"),
    ('½', "other number"),
    ('ʰ', "modifier letter"),
];

#[test]
fn every_refused_class_is_refused_first_and_later() {
    for (c, class) in REFUSED {
        assert!(!is_allowed_name_char(*c, true, 0), "{class} first");
        assert!(
            !is_allowed_name_char(*c, false, 0),
            "{class} after a letter"
        );
        let raw = format!("ab{c}cd");
        assert_eq!(sanitize_display(&raw, 16), "abcd", "{class}");
        assert_eq!(
            DisplayName::parse(&raw).as_ref().map(DisplayName::as_str),
            Some("abcd"),
            "{class}"
        );
        assert!(!is_allowed_name(&raw), "{class}");
    }
}

#[test]
fn every_allowed_class_is_kept() {
    for (c, class) in ALLOWED {
        assert!(is_allowed_name_char(*c, true, 0), "{class}");
        let raw = format!("{c}x{c}");
        assert_eq!(sanitize_display(&raw, 16), raw, "{class}");
        assert!(is_allowed_name(&raw), "{class}");
    }
}

#[test]
fn combining_marks_need_a_base_and_do_not_pile_up() {
    let acute = '\u{0301}';
    assert!(!is_allowed_name_char(acute, true, 0), "a leading mark");
    assert!(is_allowed_name_char(acute, false, 0));
    assert!(is_allowed_name_char(acute, false, MAX_MARKS_IN_A_ROW - 1));
    assert!(!is_allowed_name_char(acute, false, MAX_MARKS_IN_A_ROW));
    // A decomposed "é" stays, a mark left leading by dropped characters or spaces goes.
    let cases: &[(&str, &str)] = &[
        ("e\u{301}va", "e\u{301}va"),
        ("\u{301}eva", "eva"),
        ("\u{202E}\u{301}eva", "eva"),
        ("  \u{301}eva", "eva"),
        (
            "z\u{301}\u{302}\u{303}\u{304}\u{305}o",
            "z\u{301}\u{302}\u{303}o",
        ),
        // A Devanagari cluster with a vowel sign (a spacing mark).
        ("नमस्ते", "नमस्ते"),
    ];
    for (raw, want) in cases {
        assert_eq!(sanitize_display(raw, 16), *want, "{raw:?}");
    }
    assert!(!is_allowed_name("\u{301}eva"));
    assert!(is_allowed_name("e\u{301}va"));
}

#[test]
fn display_names_are_cleaned_cut_and_marked_for_guests() {
    let cases: &[(&str, Option<&str>)] = &[
        ("alice", Some("alice")),
        ("  bob  ", Some("bob")),
        ("\x1b[31mred", Some("[31mred")),
        ("a\u{202E}b", Some("ab")),
        ("", None),
        ("\x07\x08", None),
        ("   ", None),
        ("\u{3164}\u{3164}", None),
        ("\u{2800}", None),
        ("\u{200B}\u{200D}\u{FEFF}", None),
        ("0123456789abcdef", Some("0123456789abcdef")),
        ("0123456789abcdefg", None),
        ("ünïcødé", Some("ünïcødé")),
        ("ada lovelace", Some("ada lovelace")),
        ("ada\u{00A0}lovelace", Some("adalovelace")),
    ];
    for (raw, want) in cases {
        assert_eq!(
            DisplayName::parse(raw).as_ref().map(DisplayName::as_str),
            *want,
            "{raw:?}"
        );
    }
    assert_eq!(DisplayName::parse_or_guest("\n").as_str(), "guest");
    assert_eq!(DisplayName::parse_or_guest("ada").for_guest(), "~ada");
    assert_eq!(DisplayName::parse_or_guest("").for_guest(), "~guest");
}

#[test]
fn sanitizing_never_panics_and_always_yields_an_allowed_name() {
    // Every code point class boundary, in every order, cut at every length.
    let all: Vec<char> = REFUSED
        .iter()
        .chain(ALLOWED)
        .map(|(c, _)| *c)
        .chain(['\u{301}', ' ', '\u{10FFFF}', '\u{D7FF}', '\u{E000}'])
        .collect();
    for (i, a) in all.iter().enumerate() {
        for b in &all[i..] {
            for max in [0, 1, 2, 16] {
                let raw: String = [*a, *b, '\u{301}', *a].iter().collect();
                let s = sanitize_display(&raw, max);
                assert!(s.chars().count() <= max, "{raw:?}");
                assert!(s.is_empty() || is_allowed_name(&s), "{raw:?} -> {s:?}");
            }
        }
    }
}
