//! `replay ID --cast [--size COLSxROWS]`: a stored game as an asciicast v2 file, which
//! `asciinema play` plays. The replay is re-simulated with the engine and the replay viewer's
//! screen (`minotty_ui::ReplayFilm`) is drawn at each moment anything shown changes (at most
//! [`MAX_FPS`] a second, fewer for long games so that no cast has more than [`MAX_FRAMES`]),
//! through the same encoder as a player's frames (`terminal::RemoteTerminal`: only changed
//! cells are written).
//!
//! Who may export what, and the export's bounds, are `cast_export.rs`'s.
//!
//! Bounds: a cast is at most [`MAX_FRAMES`] frames and about [`MAX_BYTES`] bytes (past that,
//! only the last frame), handed out a line at a time ([`film`]): the export
//! (`cast_export.rs`) streams it to the client, never holding it whole.

use minotty_domain::text::echo;
use minotty_engine::{Replay, ReplayError, Time};
use minotty_ui::{MatchFilm, ReplayFilm, Settings};
use ratatui::layout::Rect;

use crate::terminal::RemoteTerminal;

/// The cast's default size, and the sizes `--size` accepts.
pub const DEFAULT_SIZE: (u16, u16) = (80, 24);
pub const MIN_SIZE: (u16, u16) = (40, 16);
pub const MAX_SIZE: (u16, u16) = (200, 60);
/// Frames a second at most.
pub const MAX_FPS: u64 = 30;
/// Frames in one cast at most: a long game is filmed at fewer frames a second.
pub const MAX_FRAMES: u64 = 20_000;
/// Bytes of frames in one cast before it skips to the last frame.
pub const MAX_BYTES: usize = 16 << 20;

/// Clears the screen, hides the cursor and turns off autowrap (as the game does) before the
/// first frame.
const START: &str = "\x1b[0m\x1b[?25l\x1b[?7l\x1b[H\x1b[2J";
/// Gives the viewer's terminal back at the end: attributes reset, autowrap on, cursor shown
/// below the picture.
const END: &str = "\x1b[0m\x1b[?7h\x1b[?25h";

/// What `replay` was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastArgs {
    /// The game's id, or the match's (`of_match`).
    pub game: i64,
    pub cols: u16,
    pub rows: u16,
    /// `mN`: a versus match, every seat's game.
    pub of_match: bool,
    /// `--cast` was given (a game needs it; a match without it opens the viewer).
    pub cast: bool,
}

const USAGE: &str = "usage: replay ID --cast [--size COLSxROWS] (ID: the game number shown in \
                     the replay viewer and the profile), or replay mN [--cast] for versus \
                     match N";

/// `ID --cast [--size COLSxROWS | --size=COLSxROWS]` in any order.
pub fn parse(args: &[&str]) -> Result<CastArgs, String> {
    let mut game = None;
    let mut cast = false;
    let mut of_match = false;
    let mut size = DEFAULT_SIZE;
    let mut rest = args.iter();
    while let Some(&arg) = rest.next() {
        if arg == "--cast" {
            cast = true;
            continue;
        }
        let value = if arg == "--size" {
            Some(*rest.next().ok_or("--size needs a value such as 80x24")?)
        } else {
            arg.strip_prefix("--size=")
        };
        if let Some(value) = value {
            size = parse_size(value)?;
            continue;
        }
        if arg.starts_with('-') {
            return Err(format!("unknown option \"{}\"; {USAGE}", echo(arg)));
        }
        if game.is_some() {
            return Err(format!("unexpected \"{}\"; {USAGE}", echo(arg)));
        }
        let id = arg.strip_prefix('#').unwrap_or(arg);
        if let Some(m) = id.strip_prefix(['m', 'M']) {
            match m.parse::<i64>() {
                Ok(n) if n > 0 && m.bytes().all(|b| b.is_ascii_digit()) => {
                    game = Some(n);
                    of_match = true;
                    continue;
                }
                _ => {
                    return Err(format!(
                        "\"{}\" is not a match ID (m and a number, such as m12); {USAGE}",
                        echo(arg)
                    ));
                }
            }
        }
        match id.parse::<i64>() {
            Ok(n) if n > 0 => game = Some(n),
            _ => {
                return Err(format!(
                    "\"{}\" is not a game ID (a number such as 42); {USAGE}",
                    echo(arg)
                ));
            }
        }
    }
    let Some(game) = game else {
        return Err(format!("which game? {USAGE}"));
    };
    if !cast && !of_match {
        return Err(format!(
            "replays are exported as asciicast files: add --cast; {USAGE}"
        ));
    }
    Ok(CastArgs {
        game,
        cols: size.0,
        rows: size.1,
        of_match,
        cast,
    })
}

fn parse_size(value: &str) -> Result<(u16, u16), String> {
    let bad = || {
        format!(
            "bad size \"{}\": COLSxROWS from {}x{} to {}x{}, such as 80x24",
            echo(value),
            MIN_SIZE.0,
            MIN_SIZE.1,
            MAX_SIZE.0,
            MAX_SIZE.1
        )
    };
    let (c, r) = value.split_once(['x', 'X']).ok_or_else(bad)?;
    let (c, r) = (
        c.parse::<u16>().map_err(|_| bad())?,
        r.parse::<u16>().map_err(|_| bad())?,
    );
    if !(MIN_SIZE.0..=MAX_SIZE.0).contains(&c) || !(MIN_SIZE.1..=MAX_SIZE.1).contains(&r) {
        return Err(bad());
    }
    Ok((c, r))
}

/// The time between frames for a game of `end` ms: 1/[`MAX_FPS`] s, longer when the game
/// would otherwise need more than [`MAX_FRAMES`].
pub fn frame_step(end: Time) -> Time {
    (1000 / MAX_FPS).max(end.div_ceil(MAX_FRAMES))
}

/// What a cast films: a stored game's viewer (`ReplayFilm`) or a match's (`MatchFilm`).
pub trait Film {
    fn position(&self) -> Time;
    fn end(&self) -> Time;
    fn finished(&self) -> bool;
    fn advance_to(&mut self, t: Time);
    fn next_change(&self) -> Option<Time>;
    fn render(&self, area: Rect, buf: &mut ratatui::buffer::Buffer, settings: &Settings);
}

impl Film for ReplayFilm {
    fn position(&self) -> Time {
        ReplayFilm::position(self)
    }
    fn end(&self) -> Time {
        ReplayFilm::end(self)
    }
    fn finished(&self) -> bool {
        ReplayFilm::finished(self)
    }
    fn advance_to(&mut self, t: Time) {
        ReplayFilm::advance_to(self, t);
    }
    fn next_change(&self) -> Option<Time> {
        ReplayFilm::next_change(self)
    }
    fn render(&self, area: Rect, buf: &mut ratatui::buffer::Buffer, settings: &Settings) {
        ReplayFilm::render(self, area, buf, settings);
    }
}

impl Film for MatchFilm {
    fn position(&self) -> Time {
        MatchFilm::position(self)
    }
    fn end(&self) -> Time {
        MatchFilm::end(self)
    }
    fn finished(&self) -> bool {
        MatchFilm::finished(self)
    }
    fn advance_to(&mut self, t: Time) {
        MatchFilm::advance_to(self, t);
    }
    fn next_change(&self) -> Option<Time> {
        MatchFilm::next_change(self)
    }
    fn render(&self, area: Rect, buf: &mut ratatui::buffer::Buffer, settings: &Settings) {
        MatchFilm::render(self, area, buf, settings);
    }
}

/// Draws the film's screen: its bytes as one output event line (`None` when nothing changed).
fn frame(
    film: &dyn Film,
    term: &mut RemoteTerminal,
    area: Rect,
    settings: &Settings,
    prefix: &str,
) -> Option<String> {
    term.draw(|_, buf| film.render(area, buf, settings));
    let data = term.take_output();
    if data.is_empty() {
        return None;
    }
    let mut text = prefix.to_owned();
    text.push_str(&String::from_utf8_lossy(&data));
    Some(event(film.position(), &text))
}

/// One output event at game time `t`: `[seconds, "o", data]` and a line end.
fn event(t: Time, data: &str) -> String {
    // Seconds with millisecond precision: a time written as a decimal of up to 3 places.
    let mut line = serde_json::to_string(&(t as f64 / 1000.0, "o", data))
        .unwrap_or_else(|_| "[0.0, \"o\", \"\"]".to_owned());
    line.push('\n');
    line
}

/// The asciicast v2 text of `replay` (game `game`, played by `player`) at `size`; `timestamp`
/// is the header's (Unix seconds), whole in memory (tests; exports stream with [`film`]).
pub fn cast(
    replay: Replay,
    player: &str,
    game: i64,
    size: (u16, u16),
    timestamp: i64,
) -> Result<String, ReplayError> {
    let mut out = String::new();
    film(
        replay,
        player,
        game,
        size,
        timestamp,
        MAX_BYTES,
        &mut |line| {
            out.push_str(&line);
            true
        },
    )?;
    Ok(out)
}

/// What filming did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Filmed {
    /// Output events drawn (the frames, and the end's).
    pub frames: u64,
    /// Bytes handed to `emit`, the header's included.
    pub bytes: u64,
    /// `emit` said stop: the rest was never drawn.
    pub stopped: bool,
}

/// Films `replay` line by line: the header, then each frame as it is drawn, each handed to
/// `emit` (false: stop at once, nothing more is drawn). Pure and bounded: at most
/// [`MAX_FRAMES`] frames plus the first and the last, and past `max_bytes` of frames straight
/// to the last. A replay that cannot be played fails before anything is emitted.
pub fn film(
    replay: Replay,
    player: &str,
    game: i64,
    size: (u16, u16),
    timestamp: i64,
    max_bytes: usize,
    emit: &mut dyn FnMut(String) -> bool,
) -> Result<Filmed, ReplayError> {
    let film = ReplayFilm::new(replay, player.to_owned(), game)?;
    let ruleset = film.game().ruleset().id.id();
    let mode = film.game().mode().kind.title();
    let title = format!("minotty: {mode} ({ruleset}) by {player}, game {game}");
    Ok(film_any(film, &title, size, timestamp, max_bytes, emit))
}

/// Films match `m` as [`film`] films a game: every seat side by side, the same bounds.
pub fn film_match(
    m: &minotty_protocol::MatchReplay,
    size: (u16, u16),
    timestamp: i64,
    max_bytes: usize,
    emit: &mut dyn FnMut(String) -> bool,
) -> Filmed {
    let film = MatchFilm::new(m);
    let title = format!("minotty: versus match m{}", m.id);
    film_any(film, &title, size, timestamp, max_bytes, emit)
}

/// Films `film` line by line (see [`film`]).
fn film_any(
    mut film: impl Film,
    title: &str,
    size: (u16, u16),
    timestamp: i64,
    max_bytes: usize,
    emit: &mut dyn FnMut(String) -> bool,
) -> Filmed {
    let settings = Settings::default();
    let (cols, rows) = size;
    let area = Rect::new(0, 0, cols, rows);
    let mut term = RemoteTerminal::new(cols, rows);
    let header = serde_json::json!({
        "version": 2,
        "width": cols,
        "height": rows,
        "timestamp": timestamp,
        "title": title,
        "env": { "TERM": "xterm-256color", "SHELL": "minotty" },
    });
    let mut filmed = Filmed::default();
    let mut put = |line: String, filmed: &mut Filmed, frame: bool| {
        filmed.bytes += line.len() as u64;
        filmed.frames += u64::from(frame);
        let go_on = emit(line);
        filmed.stopped |= !go_on;
        go_on
    };
    if !put(format!("{header}\n"), &mut filmed, false) {
        return filmed;
    }
    let step = frame_step(film.end());
    let mut bytes = 0usize;
    let mut last: Option<Time> = None;
    // The first frame, whole.
    if let Some(line) = frame(&film, &mut term, area, &settings, START) {
        bytes += line.len();
        if !put(line, &mut filmed, true) {
            return filmed;
        }
    }
    while !film.finished() {
        let Some(next) = film.next_change() else {
            break;
        };
        let at = match last {
            Some(l) => next.max(l + step),
            None => next.max(step),
        };
        // The end is always a frame: a frame due less than a step before it waits for the
        // end, so that no two frames are closer than a step.
        let at = if at.saturating_add(step) > film.end() {
            film.end()
        } else {
            at
        };
        if bytes > max_bytes {
            // Too much already: straight to the end.
            film.advance_to(film.end());
        } else {
            film.advance_to(at);
        }
        last = Some(film.position());
        if let Some(line) = frame(&film, &mut term, area, &settings, "") {
            bytes += line.len();
            if !put(line, &mut filmed, true) {
                return filmed;
            }
        }
    }
    // Give the terminal back, a moment after the last frame.
    let t = film.position() + 1000;
    put(event(t, END), &mut filmed, true);
    filmed
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn arguments() {
        let ok = |a: &[&str]| parse(a).unwrap();
        assert_eq!(
            ok(&["42", "--cast"]),
            CastArgs {
                game: 42,
                cols: 80,
                rows: 24,
                of_match: false,
                cast: true
            }
        );
        assert_eq!(
            ok(&["--cast", "#7", "--size", "120x40"]),
            CastArgs {
                game: 7,
                cols: 120,
                rows: 40,
                of_match: false,
                cast: true
            }
        );
        assert_eq!(ok(&["--size=40x16", "9", "--cast"]).cols, 40);
        assert_eq!(ok(&["9", "--cast", "--size=200X60"]).rows, 60);
        assert!(parse(&["42"]).unwrap_err().contains("add --cast"));
        assert!(parse(&["--cast"]).unwrap_err().contains("which game"));
        assert!(
            parse(&["abc", "--cast"])
                .unwrap_err()
                .contains("not a game ID")
        );
        assert!(
            parse(&["-5", "--cast"])
                .unwrap_err()
                .contains("unknown option")
        );
        assert!(
            parse(&["0", "--cast"])
                .unwrap_err()
                .contains("not a game ID")
        );
        assert!(
            parse(&["1", "2", "--cast"])
                .unwrap_err()
                .contains("unexpected")
        );
        for size in [
            "39x24", "80x15", "201x24", "80x61", "80", "x", "80x24x2", "99999x1",
        ] {
            assert!(parse(&["1", "--cast", "--size", size]).is_err(), "{size}");
        }
        assert!(parse(&["1", "--cast", "--size"]).is_err());
        assert!(
            !parse(&["\x1b]0;x\x07", "--cast"])
                .unwrap_err()
                .contains('\x1b')
        );
    }

    use minotty_bots::autoplay;
    use minotty_engine::{Game, GameConfig, Mode};

    /// A marathon autoplayed for `pieces` pieces (seed 5), the film of the export tests too.
    pub(crate) fn marathon(pieces: u32) -> Game {
        let mut game = Game::new(
            GameConfig {
                mode: Mode::marathon(),
                ..GameConfig::default()
            },
            5,
        );
        autoplay(&mut game, pieces, 200);
        game
    }

    /// Parses a cast: the header and every event, checking the format as it goes.
    fn events(text: &str) -> (serde_json::Value, Vec<(f64, String)>) {
        let mut lines = text.lines();
        let header: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
        let events = lines
            .map(|l| {
                let (t, kind, data): (f64, String, String) = serde_json::from_str(l).unwrap();
                assert_eq!(kind, "o");
                (t, data)
            })
            .collect();
        (header, events)
    }

    fn screen_of(events: &[(f64, String)], cols: u16, rows: u16) -> String {
        let nz = |n: u16| std::num::NonZeroU16::new(n).unwrap();
        let mut vt = vt100::Parser::new(nz(rows), nz(cols), 0);
        for (_, data) in events {
            vt.process(data.as_bytes());
        }
        vt.screen().contents()
    }

    #[test]
    fn a_cast_plays_the_game_to_its_final_score() {
        let game = marathon(60);
        let score = game.stats().score;
        assert!(score > 0);
        let text = cast(game.replay(), "alice", 42, (80, 24), 1_700_000_000).unwrap();
        let (header, events) = events(&text);
        assert_eq!(header["version"], 2);
        assert_eq!(header["width"], 80);
        assert_eq!(header["height"], 24);
        assert_eq!(header["timestamp"], 1_700_000_000);
        let title = header["title"].as_str().unwrap();
        assert!(
            title.contains("Marathon") && title.contains("alice"),
            "{title}"
        );
        assert!(events.len() > 20, "{} frames", events.len());
        assert!(events.windows(2).all(|w| w[0].0 < w[1].0), "times rise");
        // No two frames closer than a frame step.
        let step = frame_step(game.replay().end) as f64 / 1000.0;
        assert!(events.windows(2).all(|w| w[1].0 - w[0].0 >= step - 1e-9));
        let end = game.replay().end as f64 / 1000.0;
        assert!(
            (events[events.len() - 2].0 - end).abs() < 1e-9,
            "last frame at the end"
        );
        let shown = screen_of(&events, 80, 24);
        let digits = score.to_string();
        let grouped = minotty_ui::boards::thousands(score);
        assert!(
            shown.contains(&digits) || shown.contains(&grouped),
            "score {score} not on\n{shown}"
        );
        assert!(shown.contains("REPLAY FINISHED"), "{shown}");
        assert!(shown.contains("game #42"), "{shown}");
        assert!(shown.contains("alice"), "{shown}");
    }

    #[test]
    fn past_its_byte_bound_a_cast_skips_to_the_last_frame() {
        let game = marathon(60);
        let whole = events(&cast(game.replay(), "ada", 3, (80, 24), 0).unwrap()).1;
        let mut text = String::new();
        film(game.replay(), "ada", 3, (80, 24), 0, 4096, &mut |l| {
            text.push_str(&l);
            true
        })
        .unwrap();
        let (_, cut) = events(&text);
        assert!(
            cut.len() < whole.len() / 2,
            "{} of {}",
            cut.len(),
            whole.len()
        );
        assert!(text.len() < 4096 + 16_384, "{}", text.len());
        let end = game.replay().end as f64 / 1000.0;
        assert!(
            (cut[cut.len() - 2].0 - end).abs() < 1e-9,
            "the last frame is the end"
        );
        assert_eq!(screen_of(&cut, 80, 24), screen_of(&whole, 80, 24));
        assert!(whole.len() as u64 <= MAX_FRAMES + 2);
    }

    #[test]
    fn a_cast_fits_any_allowed_size() {
        let game = marathon(15);
        for (cols, rows) in [MIN_SIZE, MAX_SIZE, (100, 30)] {
            let text = cast(game.replay(), "bob", 1, (cols, rows), 0).unwrap();
            let (header, events) = events(&text);
            assert_eq!(header["width"], cols);
            assert_eq!(header["height"], rows);
            let shown = screen_of(&events, cols, rows);
            assert!(shown.contains("REPLAY"), "{cols}x{rows}:\n{shown}");
        }
    }

    #[test]
    fn long_games_are_filmed_at_fewer_frames() {
        assert_eq!(frame_step(0), 33);
        assert_eq!(frame_step(60_000), 33);
        // A two-hour marathon: one frame every 360 ms at most.
        assert_eq!(frame_step(7_200_000), 360);
        assert!(7_200_000 / frame_step(7_200_000) <= MAX_FRAMES);
    }
}
