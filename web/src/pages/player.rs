//! A player's profile page: the same profile as the terminal's account screen
//! (`minotty_server::services::account::profile`), bests linked to their boards and replays.

use std::sync::Arc;

use askama::Template;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use minotty_domain::PlayerName;
use minotty_protocol::{BoardId, BoardPeriod};
use minotty_store::unix_now;

use super::{Answer, Site, board_href, echo, error, game_href, render, store_of, unreadable};
use crate::Web;

#[derive(Template)]
#[template(path = "player.html")]
struct PlayerPage {
    site: Site,
    name: String,
    rating: Option<String>,
    bests: Vec<Best>,
    recent: Vec<Recent>,
    matches: Vec<Match>,
    /// The terminal profile's charts: each board's best over time, then the pace.
    charts: Vec<super::charts::Chart>,
    width: f64,
    height: f64,
}

struct Best {
    board: String,
    board_href: String,
    best: String,
    rank: String,
    game_href: Option<String>,
}

struct Recent {
    date: String,
    mode: &'static str,
    result: String,
    outcome: String,
    href: String,
}

struct Match {
    date: String,
    kind: String,
    result: String,
    outcome: String,
}

pub async fn player(
    State(web): State<Arc<Web>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Response {
    let site = Site::of(&web, &headers);
    match player_page(&web, site, &name).await {
        Ok(page) | Err(page) => page,
    }
}

async fn player_page(web: &Web, site: Site, name: &str) -> Answer {
    let missing = |site: Site| {
        error(
            site,
            StatusCode::NOT_FOUND,
            "No such player",
            format!("No player is called \"{}\".", echo(name)),
        )
    };
    let Ok(parsed) = PlayerName::parse(name) else {
        return Err(missing(site));
    };
    let store = store_of(web, &site)?;
    let _work = web.db_work(&site).await?;
    let account = store
        .account_by_name(&parsed)
        .await
        .map_err(|e| unreadable(site.clone(), &e))?
        .ok_or_else(|| missing(site.clone()))?;
    let now = unix_now();
    let account = minotty_domain::AccountRef {
        id: account.id,
        name: account.name.to_string(),
    };
    let profile = minotty_server::services::account::profile::profile(store, account, now)
        .await
        .map_err(|e| unreadable(site.clone(), &e))?;
    let bests = profile
        .bests
        .iter()
        .map(|b| {
            let board = BoardId::Solo(b.mode);
            let title = if b.ruleset == minotty_domain::home_ruleset(b.mode) {
                b.mode.title().to_owned()
            } else {
                format!("{} · {}", b.mode.title(), b.ruleset.id())
            };
            Best {
                board: title,
                board_href: board_href(board, b.ruleset, BoardPeriod::AllTime, 1),
                best: b.best.clone().unwrap_or_else(|| "-".into()),
                rank: b.rank.map_or_else(|| "-".into(), |r| format!("#{r}")),
                game_href: b.game.map(game_href),
            }
        })
        .collect();
    let recent = profile
        .recent
        .iter()
        .map(|g| Recent {
            date: minotty_ui::boards::date(g.ended_at),
            mode: g.mode.title(),
            result: g.result.clone(),
            outcome: g.outcome.clone(),
            href: game_href(g.game),
        })
        .collect();
    let matches = profile
        .matches
        .iter()
        .map(|m| Match {
            date: minotty_ui::boards::date(m.ended_at),
            kind: m.kind.clone(),
            result: m.result.clone(),
            outcome: m.outcome.clone(),
        })
        .collect();
    let rating = match (&profile.rating, &profile.ranked) {
        (Some((rating, deviation, games)), ranked) => Some(format!(
            "Ranked 1v1: {rating:.0} ± {deviation:.0} over {games} games{}",
            ranked
                .as_deref()
                .map(|r| format!(" · {r}"))
                .unwrap_or_default()
        )),
        (None, _) => None,
    };
    let mut charts: Vec<super::charts::Chart> = profile
        .charts
        .bests
        .iter()
        .filter(|h| !h.points.is_empty())
        .map(super::charts::best)
        .collect();
    if !profile.charts.pps.is_empty() {
        charts.push(super::charts::pps(&profile.charts.pps));
    }
    Ok(render(&PlayerPage {
        site,
        name: profile.name,
        rating,
        bests,
        recent,
        matches,
        charts,
        width: super::charts::WIDTH,
        height: super::charts::HEIGHT,
    }))
}
