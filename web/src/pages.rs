//! The pages: the start page, every leaderboard (board, ruleset, period) with paging and
//! "find a player", and a player's profile. Each is a typed askama template: every value is
//! escaped where it is written (names, room codes, anything a player typed), and what the
//! store returns is formatted by the same functions as the terminal's screens.

// An error here is the page that says so, handed to axum at once: boxing it gains nothing.
#![allow(clippy::result_large_err)]

use std::sync::Arc;

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use minotty_domain::{PlayerName, ranked_modes};
use minotty_engine::{ModeKind, RulesetId};
use minotty_protocol::{BoardId, BoardPeriod, LeaderboardPage};
use minotty_store::{Store, unix_now};
use serde::Deserialize;

use crate::Web;

mod charts;
pub mod game;
mod player;
mod site;

pub use player::player;
pub use site::Site;

/// Rows of a leaderboard page.
pub const PAGE_ROWS: u32 = 25;
/// The longest value of a query parameter that is read (longer: refused).
const MAX_PARAM: usize = 64;

#[derive(Template)]
#[template(path = "home.html")]
struct HomePage {
    site: Site,
    boards: Vec<Link>,
}

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage {
    site: Site,
    heading: String,
    message: String,
}

#[derive(Template)]
#[template(path = "leaderboard.html")]
struct BoardPage {
    site: Site,
    title: String,
    path: String,
    period: &'static str,
    ruleset: &'static str,
    find: String,
    boards: Vec<Link>,
    periods: Vec<Link>,
    rulesets: Vec<Link>,
    columns: Vec<String>,
    rows: Vec<Row>,
    note: Option<String>,
    /// The ranked ladder's rules (the versus board only).
    ladder: Option<String>,
    summary: String,
    prev: Option<String>,
    next: Option<String>,
}

struct Link {
    href: String,
    title: &'static str,
    short: &'static str,
    current: bool,
}

struct Row {
    rank: u64,
    name: String,
    player_href: String,
    values: Vec<String>,
    date: String,
    game_href: Option<String>,
    found: bool,
}

/// The query of a leaderboard page; every value optional, each checked here.
#[derive(Debug, Default, Deserialize)]
pub struct BoardQuery {
    period: Option<String>,
    ruleset: Option<String>,
    page: Option<String>,
    find: Option<String>,
}

/// A page, or what went wrong as a page.
type Answer = Result<Response, Response>;

pub(crate) fn render(template: &impl Template) -> Response {
    match template.render() {
        Ok(html) => Html(html).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "rendering a page");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                "the page could not be drawn\n",
            )
                .into_response()
        }
    }
}

/// An error page with `status`; `message` is escaped like any value.
pub fn error(site: Site, status: StatusCode, heading: &str, message: String) -> Response {
    let page = ErrorPage {
        site,
        heading: heading.to_owned(),
        message,
    };
    (status, render(&page)).into_response()
}

/// What a visitor typed, for a message: through the one text policy (no control or
/// invisible characters), up to [`MAX_PARAM`] characters; the template escapes the rest.
fn echo(s: &str) -> String {
    minotty_domain::text::sanitize_display(s, MAX_PARAM)
}

/// How the ranked ladder works, from the rules' own constants (`minotty_domain::ranked`).
pub fn ladder_rules() -> String {
    use minotty_domain::ranked::{LETTER_MAX_DEVIATION, LETTERS, PLACEMENT_SERIES, SERIES_BANDS};
    let bands: Vec<String> = SERIES_BANDS
        .iter()
        .map(|&(floor, n)| {
            if floor.is_finite() {
                format!("{n} from {floor:.0}")
            } else {
                format!("{n}")
            }
        })
        .collect();
    let letters: Vec<String> = LETTERS
        .iter()
        .map(|&(share, letter)| {
            if share >= 1.0 {
                format!("{letter} the rest")
            } else {
                format!("{letter} the top {:.0}%", share * 100.0)
            }
        })
        .collect();
    format!(
        "Ranked 1v1 is played in series, first to {} wins (the lower player's rating decides), \
         rated once a series ends. After {PLACEMENT_SERIES} placement series, a player whose \
         rating deviation is at most {LETTER_MAX_DEVIATION:.0} gets a letter by standing: {}. \
         The season tab counts this calendar quarter's series.",
        bands.join(", "),
        letters.join(", ")
    )
}

/// The boards, in the terminal's order: the ranked solo modes, versus, the climb.
fn all_boards() -> Vec<BoardId> {
    let mut boards: Vec<BoardId> = ranked_modes().into_iter().map(BoardId::Solo).collect();
    boards.extend([BoardId::Versus, BoardId::Climb]);
    boards
}

fn board_slug(board: BoardId) -> &'static str {
    match board {
        BoardId::Solo(mode) => mode.id(),
        BoardId::Versus => "versus",
        BoardId::Climb => "climb",
    }
}

fn parse_board(slug: &str) -> Option<BoardId> {
    all_boards()
        .into_iter()
        .find(|&b| board_slug(b) == slug)
        .or_else(|| {
            ModeKind::parse(slug)
                .filter(|m| ranked_modes().contains(m))
                .map(BoardId::Solo)
        })
}

fn period_slug(period: BoardPeriod) -> &'static str {
    match period {
        BoardPeriod::AllTime => "all",
        BoardPeriod::Month => "month",
        BoardPeriod::Today => "today",
    }
}

/// The address of a leaderboard page.
pub fn board_href(board: BoardId, ruleset: RulesetId, period: BoardPeriod, page: u32) -> String {
    let mut href = format!(
        "/leaderboard/{}?period={}",
        board_slug(board),
        period_slug(period)
    );
    if ruleset != RulesetId::Standard {
        href.push_str("&ruleset=");
        href.push_str(ruleset.id());
    }
    if page > 1 {
        href.push_str(&format!("&page={page}"));
    }
    href
}

/// The address of a player's profile (names are letters, digits, `_` and `-`: nothing to
/// encode).
pub fn player_href(name: &str) -> String {
    format!("/player/{name}")
}

/// The address of a stored game's page.
pub fn game_href(id: i64) -> String {
    format!("/game/{id}")
}

pub async fn home(State(web): State<Arc<Web>>, headers: HeaderMap) -> Response {
    let boards = all_boards()
        .into_iter()
        .map(|b| Link {
            href: board_href(b, RulesetId::Standard, BoardPeriod::AllTime, 1),
            title: minotty_ui::boards::title(b),
            short: minotty_ui::boards::board_title(b),
            current: false,
        })
        .collect();
    render(&HomePage {
        site: Site::of(&web, &headers),
        boards,
    })
}

fn store_of<'a>(web: &'a Web, site: &Site) -> Result<&'a Store, Response> {
    web.store.as_ref().ok_or_else(|| {
        error(
            site.clone(),
            StatusCode::SERVICE_UNAVAILABLE,
            "No database",
            "This server keeps no records.".into(),
        )
    })
}

fn unreadable(site: Site, e: &minotty_store::StoreError) -> Response {
    tracing::warn!(error = %e, "a page's read");
    error(
        site,
        StatusCode::SERVICE_UNAVAILABLE,
        "Try again",
        "The records could not be read just now; try again in a moment.".into(),
    )
}

pub async fn leaderboard(
    State(web): State<Arc<Web>>,
    Path(slug): Path<String>,
    Query(query): Query<BoardQuery>,
    headers: HeaderMap,
) -> Response {
    let site = Site::of(&web, &headers);
    match board_page(&web, site, &slug, query).await {
        Ok(page) | Err(page) => page,
    }
}

async fn board_page(web: &Web, site: Site, slug: &str, query: BoardQuery) -> Answer {
    let bad = |message: String| {
        error(
            site.clone(),
            StatusCode::BAD_REQUEST,
            "Not a leaderboard",
            message,
        )
    };
    let Some(board) = parse_board(slug) else {
        let names: Vec<&str> = all_boards().into_iter().map(board_slug).collect();
        return Err(error(
            site,
            StatusCode::NOT_FOUND,
            "Not a leaderboard",
            format!(
                "There is no board \"{}\"; boards: {}.",
                echo(slug),
                names.join(", ")
            ),
        ));
    };
    let period = match query.period.as_deref().map(str::trim) {
        None | Some("") => BoardPeriod::AllTime,
        Some(p) => match minotty_domain::Period::parse(p) {
            Some(p) => minotty_ui::boards::board_period(p),
            None => {
                return Err(bad(format!(
                    "Unknown period \"{}\"; periods: all, month, today.",
                    echo(p)
                )));
            }
        },
    };
    let ruleset = match query.ruleset.as_deref().map(str::trim) {
        None | Some("") => RulesetId::Standard,
        Some(r) => RulesetId::parse(r).ok_or_else(|| {
            bad(format!(
                "Unknown ruleset \"{}\"; rulesets: standard, tui-tetris, tetrs.",
                echo(r)
            ))
        })?,
    };
    let page_no = match query.page.as_deref().map(str::trim) {
        None | Some("") => 1,
        Some(p) => p
            .parse::<u32>()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| bad(format!("\"{}\" is not a page number.", echo(p))))?,
    };
    let find = query.find.unwrap_or_default();
    let find = find.trim();
    let store = store_of(web, &site)?;
    let _work = web.db_work(&site).await?;
    let now = unix_now();
    let offset_of = |page: u32| page.saturating_sub(1).saturating_mul(PAGE_ROWS);
    let read = |offset, viewer| {
        minotty_server::boards::page(
            store, board, ruleset, period, offset, PAGE_ROWS, viewer, now,
        )
    };
    let mut note = None;
    let mut found_rank = None;
    let page = if find.is_empty() {
        read(offset_of(page_no), None).await
    } else {
        let player = match PlayerName::parse(find) {
            Ok(name) => store
                .account_by_name(&name)
                .await
                .map_err(|e| unreadable(site.clone(), &e))?,
            Err(_) => None,
        };
        match player {
            Some(account) => {
                let first = read(0, Some(account.id))
                    .await
                    .map_err(|e| unreadable(site.clone(), &e))?;
                match first.own.as_ref() {
                    Some(own) => {
                        found_rank = Some((own.rank, own.name.clone()));
                        let at = u32::try_from(own.rank.saturating_sub(1) / u64::from(PAGE_ROWS))
                            .unwrap_or(u32::MAX / PAGE_ROWS)
                            .saturating_mul(PAGE_ROWS);
                        read(at, Some(account.id)).await
                    }
                    None => {
                        note = Some(format!("{} has no entry on this board.", account.name));
                        Ok(first)
                    }
                }
            }
            None => {
                note = Some(format!("No player is called \"{}\".", echo(find)));
                read(offset_of(page_no), None).await
            }
        }
    };
    let page = page.map_err(|e| unreadable(site.clone(), &e))?;
    Ok(render(&board_view(
        site, board, period, find, note, found_rank, &page,
    )))
}

#[allow(clippy::too_many_arguments)]
fn board_view(
    site: Site,
    board: BoardId,
    period: BoardPeriod,
    find: &str,
    note: Option<String>,
    found: Option<(u64, String)>,
    page: &LeaderboardPage,
) -> BoardPage {
    // The ruleset the page shows (boards without others show standard).
    let ruleset = page.ruleset;
    let page_no = page.offset / PAGE_ROWS + 1;
    let boards = all_boards()
        .into_iter()
        .map(|b| Link {
            href: board_href(b, RulesetId::Standard, period, 1),
            title: minotty_ui::boards::title(b),
            short: minotty_ui::boards::board_title(b),
            current: b == board,
        })
        .collect();
    let periods = [BoardPeriod::AllTime, BoardPeriod::Month, BoardPeriod::Today]
        .into_iter()
        .map(|p| Link {
            href: board_href(board, ruleset, p, 1),
            title: minotty_ui::boards::period_title(board, p),
            short: minotty_ui::boards::period_title(board, p),
            current: p == period,
        })
        .collect();
    let rulesets = match board {
        BoardId::Solo(mode) => RulesetId::ALL
            .into_iter()
            .filter(|&r| minotty_domain::has_board(mode, r))
            .collect::<Vec<_>>(),
        _ => Vec::new(),
    };
    let rulesets = if rulesets.len() > 1 {
        rulesets
            .into_iter()
            .map(|r| Link {
                href: board_href(board, r, period, 1),
                title: r.id(),
                short: r.id(),
                current: r == ruleset,
            })
            .collect()
    } else {
        Vec::new()
    };
    let rows = page
        .rows
        .iter()
        .map(|r| Row {
            rank: r.rank,
            name: r.name.clone(),
            player_href: player_href(&r.name),
            values: r.values.clone(),
            date: minotty_ui::boards::date(r.achieved_at),
            game_href: r.game.map(game_href),
            found: found
                .as_ref()
                .is_some_and(|(rank, name)| *rank == r.rank && *name == r.name),
        })
        .collect();
    let shown = page.rows.len() as u64;
    let first = u64::from(page.offset) + 1;
    let summary = if shown == 0 {
        format!("{} players on this board.", page.total)
    } else {
        format!(
            "{}-{} of {} players.",
            first,
            u64::from(page.offset) + shown,
            page.total
        )
    };
    let prev = (page_no > 1).then(|| board_href(board, ruleset, period, page_no - 1));
    let next = (u64::from(page.offset) + shown < page.total)
        .then(|| board_href(board, ruleset, period, page_no.saturating_add(1)));
    let title = match board {
        BoardId::Solo(_) if ruleset != RulesetId::Standard => {
            format!("{} · {}", minotty_ui::boards::title(board), ruleset.id())
        }
        _ => minotty_ui::boards::title(board).to_owned(),
    };
    BoardPage {
        site,
        title,
        path: format!("/leaderboard/{}", board_slug(board)),
        period: period_slug(period),
        ruleset: ruleset.id(),
        find: echo(find),
        boards,
        periods,
        rulesets,
        columns: page.columns.clone(),
        rows,
        note,
        ladder: (board == BoardId::Versus).then(ladder_rules),
        summary,
        prev,
        next,
    }
}
