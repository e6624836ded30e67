//! Leaderboards from the store: pages of the store's boards turned into the
//! [`LeaderboardPage`] the UI draws. The values shown (times, scores, ratings, the
//! `leaderboard` command's plain text table) are formatted once, in `minotty_ui::boards`, which
//! `minotty play`'s own scoreboard uses too; the server's callers import them from there.

use minotty_domain::PlayerId;
use minotty_engine::{ModeKind, RulesetId};
use minotty_protocol::{BoardId, BoardPeriod, BoardRow, LeaderboardPage, PAGE_ROWS};

use minotty_ui::boards::{Figures, board_ruleset, columns, period, rating, solo_values};

use minotty_store::{Board, Entry, Page, RatingEntry, Store, StoreError, UnixMs};

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

fn rating_row(e: &RatingEntry) -> BoardRow {
    BoardRow {
        rank: e.rank,
        name: e.name.to_string(),
        values: vec![
            rating(e.rating, e.deviation),
            e.games.to_string(),
            e.wins.to_string(),
        ],
        achieved_at: e.last_match_at,
        game: None,
    }
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
        BoardId::Versus => {
            let entries = store.rating_board(p, now, limit).await?;
            let total = store.rating_board_size(p, now).await?;
            let own = match viewer {
                Some(id) => store.rating_rank_of(id, p, now).await?,
                None => None,
            };
            (
                total,
                entries.iter().map(rating_row).collect(),
                own.as_ref().map(rating_row),
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
