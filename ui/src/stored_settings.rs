//! A player's settings as the JSON text the store keeps (the UI's `Settings` is plain data
//! without serde, so its stored form is written out here, field by field, with stable names).
//!
//! ```json
//! {"version":1,"keys":{"left":["left"],"hard_drop":["up","char: "],"retry":["char:r"]},
//!  "handling":{"das":133,"arr":10,"sdf":20,"das_cut":20},"preview":5,"ghost":true,
//!  "graphics":"unicode","colors":"256","frame_rate":60,"show_fps":false,"release_timeout_ms":150,
//!  "ruleset":"tetrs","drop_trail":true,"board_size":"auto","let_watch":true,"ghost_view":"beside",
//!  "palette":"gruvbox","grid":true,"color_locked":false,"renderer":"half"}
//! ```
//!
//! `hard_drop_guard`, `das_cut`, `double_tap` and `move_under_lock` are written only when on (not
//! 0, not false). Reading is forgiving: a missing or unreadable field keeps its default, unknown fields are
//! ignored, and the result is clamped to the ranges the UI offers, so settings written by an
//! older or newer server still load.

use crate::settings::{GhostView, Palette, Renderer};
use crate::{BoardSize, ColorMode, Graphics, Key, Keymap, Settings};
use minotty_engine::{Button, Handling, RulesetId};
use serde_json::{Map, Value, json};

/// The version of this form.
const VERSION: u64 = 1;

/// The retry key's entry among the keys (an array of at most one key, like a button's).
const RETRY_ID: &str = "retry";

/// Reads the retry key into `map` (whose buttons are read). Settings stored before retry was
/// a binding have none: R, the key it was, unless a button has R (then the button kept it, as
/// it did then, and no key retries). A stored empty array is no retry key.
fn read_retry(map: &mut Keymap, stored: Option<&Value>) {
    match stored.and_then(Value::as_array) {
        Some(keys) => {
            let key = keys.iter().filter_map(Value::as_str).find_map(parse_key);
            // A key a button has stays the button's (the stored form keeps them apart), and
            // a menu key (written by hand) cannot retry.
            let free = |k: &Key| map.lookup(*k).is_none() && crate::keymap::may_retry(*k);
            if let Some(key) = key.filter(free) {
                map.bind_retry(key);
            }
        }
        None => {
            let r = Key::Char(crate::keymap::DEFAULT_RETRY);
            if map.lookup(r).is_none() {
                map.bind_retry(r);
            }
        }
    }
}

fn button_id(b: Button) -> &'static str {
    match b {
        Button::Left => "left",
        Button::Right => "right",
        Button::RotateCw => "rotate_cw",
        Button::RotateCcw => "rotate_ccw",
        Button::Rotate180 => "rotate_180",
        Button::SoftDrop => "soft_drop",
        Button::HardDrop => "hard_drop",
        Button::SonicDrop => "sonic_drop",
        Button::Hold => "hold",
        Button::TeleportLeft => "teleport_left",
        Button::TeleportRight => "teleport_right",
    }
}

fn key_id(key: Key) -> String {
    let named = match key {
        Key::Char(c) => return format!("char:{c}"),
        Key::F(n) => return format!("f{n}"),
        Key::Up => "up",
        Key::Down => "down",
        Key::Left => "left",
        Key::Right => "right",
        Key::Enter => "enter",
        Key::Esc => "esc",
        Key::Backspace => "backspace",
        Key::Tab => "tab",
        Key::BackTab => "backtab",
        Key::Delete => "delete",
        Key::Insert => "insert",
        Key::Home => "home",
        Key::End => "end",
        Key::PageUp => "pageup",
        Key::PageDown => "pagedown",
        Key::Shift => "shift",
        Key::Ctrl => "ctrl",
        Key::Alt => "alt",
    };
    named.to_owned()
}

fn parse_key(s: &str) -> Option<Key> {
    if let Some(rest) = s.strip_prefix("char:") {
        let mut chars = rest.chars();
        let c = chars.next()?;
        return (chars.next().is_none() && !c.is_control()).then_some(Key::Char(c));
    }
    Some(match s {
        "up" => Key::Up,
        "down" => Key::Down,
        "left" => Key::Left,
        "right" => Key::Right,
        "enter" => Key::Enter,
        "esc" => Key::Esc,
        "backspace" => Key::Backspace,
        "tab" => Key::Tab,
        "backtab" => Key::BackTab,
        "delete" => Key::Delete,
        "insert" => Key::Insert,
        "home" => Key::Home,
        "end" => Key::End,
        "pageup" => Key::PageUp,
        "pagedown" => Key::PageDown,
        "shift" => Key::Shift,
        "ctrl" => Key::Ctrl,
        "alt" => Key::Alt,
        _ => {
            let n: u8 = s.strip_prefix('f')?.parse().ok()?;
            return (1..=24).contains(&n).then_some(Key::F(n));
        }
    })
}

fn graphics_id(g: Graphics) -> &'static str {
    match g {
        Graphics::Unicode => "unicode",
        Graphics::Ascii => "ascii",
        Graphics::Electronika => "electronika60",
    }
}

fn board_size_id(b: BoardSize) -> &'static str {
    match b {
        BoardSize::Auto => "auto",
        BoardSize::One => "1x",
    }
}

fn colors_id(c: ColorMode) -> &'static str {
    match c {
        ColorMode::Ansi256 => "256",
        ColorMode::TrueColor => "truecolor",
        ColorMode::Ansi16 => "16",
        ColorMode::Monochrome => "mono",
    }
}

/// The stored form of `settings`.
pub fn to_json(settings: &Settings) -> String {
    let mut keys = Map::new();
    for b in Button::ALL {
        let bound: Vec<Value> = settings
            .keys
            .keys(b)
            .map(|k| Value::String(key_id(k)))
            .collect();
        keys.insert(button_id(b).to_owned(), Value::Array(bound));
    }
    let retry = settings.keys.retry_key().map(|k| Value::String(key_id(k)));
    keys.insert(
        RETRY_ID.to_owned(),
        Value::Array(retry.into_iter().collect()),
    );
    let h = &settings.handling;
    let mut handling = Map::new();
    handling.insert("das".into(), h.das.into());
    handling.insert("arr".into(), h.arr.into());
    handling.insert("sdf".into(), h.sdf.into());
    // Written only when on, so that settings without them keep their stored text.
    for (name, v) in [
        ("hard_drop_guard", h.hard_drop_guard),
        ("das_cut", h.das_cut),
        ("double_tap", h.double_tap),
    ] {
        if v != 0 {
            handling.insert(name.into(), v.into());
        }
    }
    if h.move_under_lock {
        handling.insert("move_under_lock".into(), true.into());
    }
    json!({
        "version": VERSION,
        "keys": keys,
        "handling": handling,
        "preview": settings.preview,
        "ghost": settings.ghost,
        "graphics": graphics_id(settings.graphics),
        "colors": colors_id(settings.colors),
        "frame_rate": settings.frame_rate,
        "show_fps": settings.show_fps,
        "release_timeout_ms": settings.release_timeout_ms,
        "ruleset": settings.ruleset.id(),
        "drop_trail": settings.drop_trail,
        "board_size": board_size_id(settings.board_size),
        "let_watch": settings.let_watch,
        "ghost_view": settings.ghost_view.id(),
        "palette": settings.palette.id(),
        "grid": settings.grid,
        "color_locked": settings.color_locked,
        "renderer": settings.renderer.id(),
        "flashes": settings.flashes,
    })
    .to_string()
}

/// Settings read back from their stored form; `None` when the text is not a JSON object.
pub fn from_json(text: &str) -> Option<Settings> {
    let value: Value = serde_json::from_str(text).ok()?;
    let obj = value.as_object()?;
    let mut s = Settings::default();
    let uint = |v: Option<&Value>| v.and_then(Value::as_u64);
    if let Some(keys) = obj.get("keys").and_then(Value::as_object) {
        let mut map = Keymap::empty();
        for b in Button::ALL {
            let bound = keys.get(button_id(b)).and_then(Value::as_array);
            for key in bound.into_iter().flatten().filter_map(Value::as_str) {
                if let Some(key) = parse_key(key) {
                    map.bind(b, key);
                }
            }
        }
        read_retry(&mut map, keys.get(RETRY_ID));
        s.keys = map.upgraded();
    }
    if let Some(h) = obj.get("handling").and_then(Value::as_object) {
        let d = Handling::default();
        let get = |name: &str, default: u32| {
            uint(h.get(name)).map_or(default, |v| u32::try_from(v).unwrap_or(u32::MAX))
        };
        s.handling = Handling {
            das: get("das", d.das),
            arr: get("arr", d.arr),
            sdf: get("sdf", d.sdf),
            hard_drop_guard: get("hard_drop_guard", d.hard_drop_guard),
            das_cut: get("das_cut", d.das_cut),
            double_tap: get("double_tap", d.double_tap),
            move_under_lock: h
                .get("move_under_lock")
                .and_then(Value::as_bool)
                .unwrap_or(d.move_under_lock),
        };
    }
    if let Some(v) = uint(obj.get("preview")) {
        s.preview = u8::try_from(v).unwrap_or(u8::MAX);
    }
    if let Some(v) = obj.get("ghost").and_then(Value::as_bool) {
        s.ghost = v;
    }
    if let Some(g) = obj.get("graphics").and_then(Value::as_str) {
        s.graphics = Graphics::ALL
            .into_iter()
            .find(|x| graphics_id(*x) == g)
            .unwrap_or(s.graphics);
    }
    if let Some(c) = obj.get("colors").and_then(Value::as_str) {
        s.colors = ColorMode::ALL
            .into_iter()
            .find(|x| colors_id(*x) == c)
            .unwrap_or(s.colors);
    }
    if let Some(v) = uint(obj.get("frame_rate")) {
        s.frame_rate = u16::try_from(v).unwrap_or(u16::MAX);
    }
    // Settings stored before the FPS counter existed have none: hidden.
    if let Some(v) = obj.get("show_fps").and_then(Value::as_bool) {
        s.show_fps = v;
    }
    if let Some(v) = uint(obj.get("release_timeout_ms")) {
        s.release_timeout_ms = u16::try_from(v).unwrap_or(u16::MAX);
    }
    // Settings stored before rulesets existed have none: `standard`.
    if let Some(r) = obj.get("ruleset").and_then(Value::as_str) {
        s.ruleset = RulesetId::parse(r).unwrap_or(s.ruleset);
    }
    // Settings stored before the drop trail and board sizes existed: trail on, size auto.
    if let Some(v) = obj.get("drop_trail").and_then(Value::as_bool) {
        s.drop_trail = v;
    }
    // Settings stored before the Live screen existed: others may watch.
    if let Some(v) = obj.get("let_watch").and_then(Value::as_bool) {
        s.let_watch = v;
    }
    if let Some(b) = obj.get("board_size").and_then(Value::as_str) {
        s.board_size = BoardSize::ALL
            .into_iter()
            .find(|x| board_size_id(*x) == b)
            .unwrap_or(s.board_size);
    }
    // Settings stored before ghost races existed: the ghost's board beside.
    if let Some(v) = obj.get("ghost_view").and_then(Value::as_str) {
        s.ghost_view = GhostView::ALL
            .into_iter()
            .find(|x| x.id() == v)
            .unwrap_or(s.ghost_view);
    }
    // Settings stored before palettes, the grid and grey locked tiles: classic, dots, colour.
    if let Some(v) = obj.get("palette").and_then(Value::as_str) {
        s.palette = Palette::ALL
            .into_iter()
            .find(|x| x.id() == v)
            .unwrap_or(s.palette);
    }
    if let Some(v) = obj.get("grid").and_then(Value::as_bool) {
        s.grid = v;
    }
    if let Some(v) = obj.get("color_locked").and_then(Value::as_bool) {
        s.color_locked = v;
    }
    if let Some(v) = obj.get("flashes").and_then(Value::as_bool) {
        s.flashes = v;
    }
    // Settings stored before the renderers: blocks.
    if let Some(v) = obj.get("renderer").and_then(Value::as_str) {
        s.renderer = Renderer::ALL
            .into_iter()
            .find(|x| x.id() == v)
            .unwrap_or(s.renderer);
    }
    Some(s.clamped())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_palette_grid_and_locked_colour_are_stored_and_older_settings_keep_the_look() {
        for palette in Palette::ALL {
            let s = Settings {
                palette,
                grid: false,
                color_locked: false,
                ..Settings::default()
            };
            let text = to_json(&s);
            let want = format!("\"palette\":\"{}\"", palette.id());
            assert!(text.contains(&want), "{text}");
            assert!(text.contains("\"grid\":false") && text.contains("\"color_locked\":false"));
            assert_eq!(from_json(&text), Some(s));
        }
        let old = r#"{"version":1,"colors":"256"}"#;
        let read = from_json(old).expect("reads");
        assert_eq!(
            (read.palette, read.grid, read.color_locked),
            (Palette::Classic, true, true)
        );
        let odd = r#"{"version":1,"palette":"neon","grid":"yes","color_locked":7}"#;
        let read = from_json(odd).expect("reads");
        assert_eq!(
            (read.palette, read.grid, read.color_locked),
            (Palette::Classic, true, true),
            "unknown values keep the defaults"
        );
    }

    #[test]
    fn monochrome_is_stored_and_older_settings_keep_their_colours() {
        let s = Settings {
            colors: ColorMode::Monochrome,
            ..Settings::default()
        };
        let text = to_json(&s);
        assert!(text.contains("\"colors\":\"mono\""), "{text}");
        assert_eq!(from_json(&text), Some(s));
        let old = r#"{"version":1,"colors":"16","frame_rate":30}"#;
        let read = from_json(old).expect("reads");
        assert_eq!((read.colors, read.frame_rate), (ColorMode::Ansi16, 30));
        // No "show_fps" in older settings: the counter stays hidden.
        assert!(!read.show_fps);
        let shown = Settings {
            show_fps: true,
            ..Settings::default()
        };
        let text = to_json(&shown);
        assert!(text.contains("\"show_fps\":true"), "{text}");
        assert_eq!(from_json(&text), Some(shown));
    }

    #[test]
    fn electronika_trail_and_board_size_are_stored_and_older_settings_keep_defaults() {
        let s = Settings {
            graphics: Graphics::Electronika,
            drop_trail: false,
            board_size: BoardSize::One,
            ..Settings::default()
        };
        let text = to_json(&s);
        assert!(text.contains("\"graphics\":\"electronika60\""), "{text}");
        assert!(text.contains("\"drop_trail\":false"), "{text}");
        assert!(text.contains("\"board_size\":\"1x\""), "{text}");
        assert_eq!(from_json(&text), Some(s));
        // Settings stored before these existed (this is what the last server wrote).
        let old = r#"{"version":1,"graphics":"ascii","colors":"256","frame_rate":60,
            "show_fps":false,"release_timeout_ms":150,"ruleset":"tetrs"}"#;
        let read = from_json(old).expect("reads");
        assert_eq!(read.graphics, Graphics::Ascii);
        assert!(read.drop_trail, "trail on by default");
        assert_eq!(read.board_size, BoardSize::Auto);
        // Unreadable values keep their defaults; an unknown style keeps Unicode.
        let odd = r#"{"graphics":"vectrex","drop_trail":"no","board_size":"9x"}"#;
        let read = from_json(odd).expect("reads");
        assert_eq!(read.graphics, Graphics::Unicode);
        assert!(read.drop_trail);
        assert_eq!(read.board_size, BoardSize::Auto);
    }

    #[test]
    fn letting_others_watch_is_stored_and_older_settings_let_them() {
        let shy = Settings {
            let_watch: false,
            ..Settings::default()
        };
        let text = to_json(&shy);
        assert!(text.contains("\"let_watch\":false"), "{text}");
        assert_eq!(from_json(&text), Some(shy));
        // Stored before the Live screen existed, or unreadable: others may watch.
        let old = r#"{"version":1,"graphics":"ascii","drop_trail":false,"board_size":"1x"}"#;
        assert!(from_json(old).expect("reads").let_watch);
        let odd = r#"{"let_watch":"nope"}"#;
        assert!(from_json(odd).expect("reads").let_watch);
    }

    /// The default keys no longer bind a bare Shift (terminals cannot send it alone) and soft
    /// drop now steps up to instant: settings an earlier server stored load as they were, the
    /// player's Shift and instant soft drop included; only settings without keys get the new
    /// defaults.
    #[test]
    fn settings_stored_before_the_new_defaults_load_unchanged() {
        let old = r#"{"version":1,"keys":{"left":["left"],"right":["right"],
            "rotate_cw":["char:d","char:x"],"rotate_ccw":["char:a","char:z"],"rotate_180":[],
            "soft_drop":["down"],"hard_drop":["up","char: "],"sonic_drop":[],
            "hold":["char:c","shift"]},"handling":{"das":90,"arr":0,"sdf":0},"preview":5,
            "ghost":true,"graphics":"unicode","colors":"256","frame_rate":60,"show_fps":false,
            "release_timeout_ms":150,"ruleset":"standard","drop_trail":true,
            "board_size":"auto","let_watch":true}"#;
        let read = from_json(old).expect("reads");
        assert_eq!(read.keys.lookup(Key::Shift), Some((Button::Hold, 1)));
        assert_eq!(read.keys.describe(Button::Hold).as_str(), "C, Shift");
        assert_eq!(
            read.handling,
            Handling {
                das: 90,
                arr: 0,
                sdf: 0,
                ..Handling::default()
            }
        );
        assert_eq!(from_json(&to_json(&read)), Some(read.clone()));
        let no_keys = r#"{"version":1,"handling":{"das":90,"arr":0,"sdf":0}}"#;
        let read = from_json(no_keys).expect("reads");
        assert_eq!(read.keys, Keymap::default());
        assert_eq!(read.keys.lookup(Key::Shift), None);
    }

    /// Settings stored before retry was a binding load with R, the key it was, unless a button
    /// had R (the button kept it then, and keeps it); a stored retry key round-trips, and so
    /// does none.
    #[test]
    fn the_retry_key_loads_with_r_when_old_and_round_trips() {
        let old = r#"{"version":1,"keys":{"left":["left"],"hold":["char:c"]}}"#;
        let read = from_json(old).expect("reads");
        assert_eq!(read.keys.retry_key(), Some(Key::Char('r')));
        let r_holds = r#"{"version":1,"keys":{"hold":["char:c","char:r"]}}"#;
        let read = from_json(r_holds).expect("reads");
        assert_eq!(read.keys.lookup(Key::Char('r')), Some((Button::Hold, 1)));
        assert_eq!(read.keys.retry_key(), None);

        let mut s = Settings::default();
        s.keys.bind_retry(Key::F(5));
        let text = to_json(&s);
        assert!(text.contains("\"retry\":[\"f5\"]"), "{text}");
        let read = from_json(&text).expect("reads");
        assert_eq!(read.keys.retry_key(), Some(Key::F(5)));
        assert_eq!(read, s);
        s.keys.bind(Button::Hold, Key::F(5));
        let text = to_json(&s);
        assert!(text.contains("\"retry\":[]"), "{text}");
        assert_eq!(from_json(&text), Some(s.clone()));
        // Defaults store R.
        assert!(to_json(&Settings::default()).contains("\"retry\":[\"char:r\"]"));
        // A stored retry key a button also has (written by hand) stays the button's.
        let both = r#"{"keys":{"hold":["char:c","char:q"],"retry":["char:q"]}}"#;
        let read = from_json(both).expect("reads");
        assert_eq!(read.keys.lookup(Key::Char('q')), Some((Button::Hold, 1)));
        assert_eq!(read.keys.retry_key(), None);
        let menu_key = r#"{"keys":{"retry":["enter"]}}"#;
        assert_eq!(from_json(menu_key).expect("reads").keys.retry_key(), None);
    }

    /// The minotty keys saved before the preset had a half turn load as today's preset
    /// (issue 36): S turns 180°, and the keys are still "minotty".
    #[test]
    fn the_minotty_keys_stored_before_the_half_turn_read_as_today_s() {
        let mut old = Settings::default();
        old.keys.clear(Button::Rotate180);
        let text = to_json(&old);
        assert!(text.contains("\"rotate_180\":[]"), "{text}");
        assert_eq!(from_json(&text).expect("reads").keys, Keymap::default());
    }

    #[test]
    fn settings_round_trip() {
        let mut s = Settings::default();
        assert_eq!(from_json(&to_json(&s)), Some(s.clone()));
        s.keys.bind(Button::Rotate180, Key::Char('q'));
        s.keys.bind(Button::SonicDrop, Key::F(5));
        s.keys.bind(Button::TeleportLeft, Key::F(6));
        s.keys.bind(Button::TeleportRight, Key::F(7));
        s.keys.set_up_rotates(true);
        s.keys.bind(Button::Hold, Key::Char(' '));
        s.handling = Handling {
            das: 100,
            arr: 0,
            sdf: 0,
            hard_drop_guard: 120,
            das_cut: 30,
            double_tap: 150,
            move_under_lock: true,
        };
        s.preview = 3;
        s.ghost = false;
        s.graphics = Graphics::Ascii;
        s.colors = ColorMode::Ansi16;
        s.frame_rate = 30;
        s.release_timeout_ms = 200;
        s.ruleset = RulesetId::TuiTetris;
        let s = s.clamped();
        let text = to_json(&s);
        assert!(
            text.contains("\"rotate_180\":[\"char:s\",\"char:q\"]"),
            "{text}"
        );
        assert!(text.contains("\"ruleset\":\"tui-tetris\""), "{text}");
        assert_eq!(from_json(&text), Some(s));
    }

    #[test]
    fn reading_is_forgiving() {
        assert_eq!(from_json("not json"), None);
        assert_eq!(from_json("[1]"), None);
        assert_eq!(from_json("{}"), Some(Settings::default()));
        let s = from_json(
            r#"{"preview":99,"ghost":"yes","graphics":"ascii","colors":"bogus",
               "keys":{"left":["char:j","nonsense","char:ab"],"future_button":["up"]},
               "extra":1}"#,
        )
        .unwrap();
        assert_eq!(s.preview, 6, "clamped to the most the UI shows");
        assert!(s.ghost);
        assert_eq!(s.graphics, Graphics::Ascii);
        assert_eq!(s.colors, ColorMode::default());
        assert_eq!(
            s.keys.keys(Button::Left).collect::<Vec<_>>(),
            [Key::Char('j')]
        );
        assert_eq!(s.keys.keys(Button::Right).count(), 0);
        assert_eq!(
            s.ruleset,
            RulesetId::Standard,
            "no ruleset stored: standard"
        );
        let tetrs = from_json(r#"{"ruleset":"tetrs"}"#).unwrap();
        assert_eq!(tetrs.ruleset, RulesetId::Tetrs);
        let unknown = from_json(r#"{"ruleset":"nes","preview":3}"#).unwrap();
        assert_eq!((unknown.ruleset, unknown.preview), (RulesetId::Standard, 3));
    }
}
