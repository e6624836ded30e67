//! Leaderboards from the store: pages of the store's boards turned into the
//! [`LeaderboardPage`] the UI draws. The values shown (times, scores, ratings, the
//! `leaderboard` command's plain text table) are formatted once, in `minotty_ui::boards`, which
//! `minotty play`'s own scoreboard uses too; the server's callers import them from there.

use minotty_domain::PlayerId;
use minotty_domain::ranked::{self, Season};
use minotty_engine::{ModeKind, RulesetId};
use minotty_protocol::{BoardId, BoardPeriod, BoardRow, LeaderboardPage, PAGE_ROWS};

use minotty_ui::boards::{Figures, board_ruleset, columns, period, rank_cell, rating, solo_values};

use minotty_store::{Board, ClimbEntry, Entry, Page, RatingEntry, Store, StoreError, UnixMs};

/// The figures of a board entry (entries do not keep the level: no board ranks on it).
pub fn entry_figures(e: &Entry) -> Figures {
    Figures {
        time_ms: e.time_ms,
        score: e.score,
        lines: e.lines,
        pieces: e.pieces,
        max_combo: e.max_combo,
        level: 0,
    }
}

fn solo_row(mode: ModeKind, e: &Entry) -> BoardRow {
    BoardRow {
        rank: e.rank,
        name: e.name.to_string(),
        values: solo_values(mode, entry_figures(e)),
        achieved_at: e.achieved_at,
        game: Some(e.game.0),
    }
}

/// A versus board's row: the rating with its deviation grown by the weeks idle since the
/// entry's last series (`minotty_domain::ranked`), the letter among `population` (or the
/// placement), series rated and won.
fn rating_row(e: &RatingEntry, population: &[f64], now: UnixMs) -> BoardRow {
    let deviation = grown_deviation(e, now);
    let letter = ranked::letter(e.rating, deviation, e.all_games, population);
    BoardRow {
        rank: e.rank,
        name: e.name.to_string(),
        values: vec![
            rating(e.rating, deviation),
            rank_cell(letter, e.all_games),
            e.games.to_string(),
            e.wins.to_string(),
        ],
        achieved_at: e.last_match_at,
        game: None,
    }
}

/// A climb board's row: the height, its floor and the run's time.
fn climb_row(e: &ClimbEntry) -> BoardRow {
    let floor = minotty_engine::versus::climb::floor_of(e.height);
    BoardRow {
        rank: e.rank,
        name: e.name.to_string(),
        values: vec![
            format!("{} m", e.height),
            format!(
                "{floor} {}",
                minotty_engine::versus::climb::floor_name(floor)
            ),
            minotty_ui::boards::time(e.time_ms),
        ],
        achieved_at: e.achieved_at,
        game: None,
    }
}

/// `e`'s deviation after the weeks idle since its last series, at `now`.
pub fn grown_deviation(e: &RatingEntry, now: UnixMs) -> f64 {
    let r = minotty_engine::rating::Rating {
        rating: e.rating,
        deviation: e.deviation,
        volatility: e.volatility,
    };
    ranked::idle_grown(r, e.last_match_at, now).deviation
}

/// A page of `rows` rows of `board` (under `ruleset`, see [`board_ruleset`]) from `offset`,
/// with `viewer`'s own row when they are on it.
#[allow(clippy::too_many_arguments)]
pub async fn page(
    store: &Store,
    board: BoardId,
    ruleset: RulesetId,
    period: BoardPeriod,
    offset: u32,
    rows: u32,
    viewer: Option<PlayerId>,
    now: UnixMs,
) -> Result<LeaderboardPage, StoreError> {
    let p = self::period(period);
    let limit = Page {
        offset,
        limit: rows.min(minotty_store::MAX_PAGE),
    };
    let ruleset = board_ruleset(board, ruleset);
    let (total, rows, own) = match board {
        BoardId::Solo(mode) => {
            let solo = Board::new(mode, ruleset);
            let entries = store.leaderboard(solo, p, now, limit).await?;
            let total = store.board_size(solo, p, now).await?;
            let own = match viewer {
                Some(id) => store.rank_of(solo, p, now, id).await?,
                None => None,
            };
            (
                total,
                entries.iter().map(|e| solo_row(mode, e)).collect(),
                own.map(|e| solo_row(mode, &e)),
            )
        }
        // The versus board's middle period is the ranked season (`domain::ranked::Season`).
        BoardId::Versus if period == BoardPeriod::Month => {
            let season = Season::of(now);
            let population = store.rated_population_cached(now).await?;
            let entries = store.season_board(season, limit).await?;
            let total = store.season_board_size(season).await?;
            let own = match viewer {
                Some(id) => store.season_rank_of(id, season).await?,
                None => None,
            };
            let row = |e: &RatingEntry| rating_row(e, &population, now);
            (
                total,
                entries.iter().map(row).collect(),
                own.as_ref().map(row),
            )
        }
        BoardId::Climb => {
            let entries = store.climb_board(p, now, limit).await?;
            let total = store.climb_board_size(p, now).await?;
            let own = match viewer {
                Some(id) => store.climb_rank_of(id, p, now).await?,
                None => None,
            };
            (
                total,
                entries.iter().map(climb_row).collect(),
                own.as_ref().map(climb_row),
            )
        }
        BoardId::Versus => {
            let population = store.rated_population_cached(now).await?;
            let entries = store.rating_board(p, now, limit).await?;
            let total = store.rating_board_size(p, now).await?;
            let own = match viewer {
                Some(id) => store.rating_rank_of(id, p, now).await?,
                None => None,
            };
            let row = |e: &RatingEntry| rating_row(e, &population, now);
            (
                total,
                entries.iter().map(row).collect(),
                own.as_ref().map(row),
            )
        }
    };
    Ok(LeaderboardPage {
        board,
        ruleset,
        period,
        offset,
        total,
        columns: columns(board),
        rows,
        own,
    })
}

/// A page of the size the UI shows.
pub async fn ui_page(
    store: &Store,
    board: BoardId,
    ruleset: RulesetId,
    period: BoardPeriod,
    offset: u32,
    viewer: Option<PlayerId>,
    now: UnixMs,
) -> Result<LeaderboardPage, StoreError> {
    page(
        store, board, ruleset, period, offset, PAGE_ROWS, viewer, now,
    )
    .await
}
