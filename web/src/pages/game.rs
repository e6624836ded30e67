//! A stored game's page, `/game/ID`: its record, and its replay played in the page by the
//! engine itself (`web/player`, built to WebAssembly by `build.rs`), which re-simulates the
//! replay's inputs exactly as the server verified them and draws them on a canvas, with seeking.
//! `?t=SECONDS` (or `?t=end`) opens it at a moment, for sharing one.
//!
//! Who may watch a replay is the terminal's rule (`replay ID`): a game on a leaderboard is
//! anyone's; any other game's page shows its record only.

use std::sync::Arc;

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use minotty_domain::GameId;
use minotty_engine::Stats;
use minotty_store::GameRecord;
use serde::Deserialize;

use super::{Answer, Site, echo, error, player_href, render, store_of, unreadable};
use crate::Web;

/// The replay player's module, when this build has it (`build.rs`).
#[cfg(minotty_player)]
pub const PLAYER: Option<&[u8]> = Some(include_bytes!(concat!(env!("OUT_DIR"), "/player.wasm")));
#[cfg(not(minotty_player))]
pub const PLAYER: Option<&[u8]> = None;

/// The page's script: fetches the replay and the module, draws frames, seeks.
pub const SCRIPT: &str = include_str!("../../assets/replay.js");

/// The longest game time `?t=` opens at (a day): later is the end.
const MAX_START_SECS: u64 = 86_400;

#[derive(Template)]
#[template(path = "game.html")]
struct GamePage {
    site: Site,
    title: String,
    player: String,
    player_href: Option<String>,
    summary: String,
    verdict: String,
    figures: Vec<(&'static str, String)>,
    player_view: PlayerView,
    /// Whether the page loads its script (only with the canvas).
    scripted: bool,
    ssh_replay: String,
}

/// What the page holds where the replay would play.
enum PlayerView {
    /// The canvas and its controls: the replay's address, and where to start (ms or `end`).
    Canvas { replay: String, start: String },
    /// Off the leaderboards: the record only.
    Private,
    /// This build has no player module.
    Missing,
}

#[derive(Debug, Default, Deserialize)]
pub struct GameQuery {
    t: Option<String>,
}

pub async fn game(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    Query(query): Query<GameQuery>,
    headers: HeaderMap,
) -> Response {
    let site = Site::of(&web, &headers);
    match game_page(&web, site, &id, &query).await {
        Ok(page) | Err(page) => page,
    }
}

/// A game's id as its address writes it: digits only, at most 18 of them, not zero.
pub fn parse_id(s: &str) -> Option<GameId> {
    if s.is_empty() || s.len() > 18 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse::<i64>().ok().filter(|&n| n > 0).map(GameId)
}

/// `?t=`: seconds into the game (up to three decimals), or `end`; anything else is the start.
fn start_of(t: Option<&str>) -> String {
    match t {
        Some("end") => "end".into(),
        Some(t) if t.len() <= 12 => {
            let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
            let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
            if whole.is_empty() || !digits(whole) || frac.len() > 3 || !digits(frac) {
                return "0".into();
            }
            let secs: u64 = whole.parse().unwrap_or(MAX_START_SECS).min(MAX_START_SECS);
            let ms: u64 = format!("{frac:0<3}").parse().unwrap_or(0);
            (secs * 1000 + ms).to_string()
        }
        _ => "0".into(),
    }
}

fn missing(site: Site, id: &str) -> Response {
    error(
        site,
        StatusCode::NOT_FOUND,
        "No such game",
        format!("There is no game \"{}\" on this server.", echo(id)),
    )
}

/// The record of a game, and its player's name.
async fn read(web: &Web, site: &Site, id: &str) -> Result<(GameRecord, Option<String>), Response> {
    let game = parse_id(id).ok_or_else(|| missing(site.clone(), id))?;
    let store = store_of(web, site)?;
    let _work = web.db_work(site).await?;
    let record = store
        .game(game)
        .await
        .map_err(|e| unreadable(site.clone(), &e))?
        .ok_or_else(|| missing(site.clone(), id))?;
    let name = store
        .account(record.player)
        .await
        .map_err(|e| unreadable(site.clone(), &e))?
        .map(|a| a.name.to_string());
    Ok((record, name))
}

async fn game_page(web: &Web, site: Site, id: &str, query: &GameQuery) -> Answer {
    let (record, name) = read(web, &site, id).await?;
    let public = record.verdict == "ranked";
    let player_view = match (public, PLAYER) {
        (false, _) => PlayerView::Private,
        (true, None) => PlayerView::Missing,
        (true, Some(_)) => PlayerView::Canvas {
            replay: format!("/game/{}/replay", record.id.0),
            start: start_of(query.t.as_deref()),
        },
    };
    let recent = minotty_ui::boards::recent_game(
        record.id.0,
        record.mode,
        record.ruleset,
        record.ended_at,
        &record.outcome,
        &record.stats,
    );
    let player = name.clone().unwrap_or_else(|| "a deleted account".into());
    let verdict = match (record.verdict.as_str(), &record.verdict_note) {
        ("ranked", _) => "On the leaderboards: its replay was re-simulated and verified.".into(),
        (v, Some(note)) => format!("Not ranked ({v}): {}", echo(note)),
        (v, None) => format!("Not ranked ({v})."),
    };
    let ruleset = if record.ruleset == minotty_domain::home_ruleset(record.mode) {
        String::new()
    } else {
        format!(" · {}", record.ruleset.id())
    };
    Ok(render(&GamePage {
        title: format!("{}{ruleset} by {player}", record.mode.title()),
        player_href: name.as_deref().map(player_href),
        player,
        summary: format!(
            "{} · {} · {}",
            recent.result,
            recent.outcome,
            minotty_ui::boards::date(record.ended_at)
        ),
        verdict,
        figures: figures(&record.stats),
        scripted: matches!(player_view, PlayerView::Canvas { .. }),
        player_view,
        ssh_replay: format!(
            "ssh -t -p {} {} replay {}",
            site.ssh_port, site.host, record.id.0
        ),
        site,
    }))
}

/// The game's figures, as the terminal's results show them.
fn figures(s: &Stats) -> Vec<(&'static str, String)> {
    let pps = if s.time > 0 {
        format!("{:.2}", f64::from(s.pieces) * 1000.0 / s.time as f64)
    } else {
        "-".into()
    };
    let n = |v: u32| minotty_ui::boards::thousands(u64::from(v));
    vec![
        ("Time", minotty_ui::boards::time(s.time)),
        ("Lines", n(s.lines)),
        ("Pieces", n(s.pieces)),
        ("Pieces a second", pps),
        ("Score", minotty_ui::boards::thousands(s.score)),
        ("Level", n(s.level)),
        ("Attack", n(s.attack)),
        ("Tetrises", n(s.tetrises)),
        ("T-spins", n(s.tspins)),
        ("Perfect clears", n(s.perfect_clears)),
        ("Longest combo", n(s.max_combo)),
        ("Longest back-to-back", n(s.max_b2b)),
    ]
}

/// `/game/ID/replay`: the stored replay's bytes, for the page's player (a leaderboard game's
/// only, as its page).
pub async fn replay(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let site = Site::of(&web, &headers);
    let answer: Answer = async {
        let (record, _) = read(&web, &site, &id).await?;
        if record.verdict != "ranked" {
            return Err(missing(site.clone(), &id));
        }
        let store = store_of(&web, &site)?;
        let _work = web.db_work(&site).await?;
        let replay = store
            .replay(record.id)
            .await
            .map_err(|e| unreadable(site.clone(), &e))?
            .ok_or_else(|| missing(site.clone(), &id))?;
        Ok((
            [
                (header::CONTENT_TYPE, "application/octet-stream"),
                (header::CACHE_CONTROL, "public, max-age=86400"),
            ],
            replay.to_bytes(),
        )
            .into_response())
    }
    .await;
    match answer {
        Ok(r) | Err(r) => r,
    }
}

/// `/assets/player.wasm`.
pub async fn module() -> Response {
    match PLAYER {
        Some(bytes) => (
            [
                (header::CONTENT_TYPE, "application/wasm"),
                (header::CACHE_CONTROL, "public, max-age=3600"),
            ],
            bytes,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "this build has no replay player\n").into_response(),
    }
}

/// `/assets/replay.js`.
pub async fn script() -> Response {
    crate::assets::javascript(SCRIPT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_digits_only() {
        assert_eq!(parse_id("42"), Some(GameId(42)));
        for bad in [
            "",
            "0",
            "-1",
            "1e3",
            "４２",
            "12345678901234567890",
            "1 ",
            "0x10",
            "+1",
        ] {
            assert_eq!(parse_id(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_start_is_seconds_or_the_end() {
        let cases = [
            (Some("end"), "end"),
            (Some("12"), "12000"),
            (Some("1.5"), "1500"),
            (Some("0.125"), "125"),
            (Some("99999999999"), "86400000"),
            (Some("1.2345"), "0"),
            (Some(".5"), "0"),
            (Some("-3"), "0"),
            (Some("\"><script>"), "0"),
            (None, "0"),
        ];
        for (t, want) in cases {
            assert_eq!(start_of(t), want, "{t:?}");
        }
    }
}
