//! A player's profile as every front end shows it (the account screen over SSH, the profile
//! page on the web): bests with their ranks, recent games and matches, the rating and the
//! ranked standing, the charts' points.

use minotty_domain::{AccountRef, Period, home_ruleset, profile_boards};
use minotty_protocol::{PPS_GAMES, Profile, ProfileBest, RecentGame};
use minotty_store::{Board, GameRecord, Store, StoreError};

use crate::boards;

/// Recent games shown on the profile.
const RECENT_GAMES: u32 = 10;

/// The profile of `account` at `now`.
pub async fn profile(store: &Store, account: AccountRef, now: i64) -> Result<Profile, StoreError> {
    let mut bests = Vec::new();
    // Every mode's home board (standard; tetrs for descent), then the other rulesets'
    // boards the player is on.
    for (mode, ruleset) in profile_boards() {
        let entry = store
            .rank_of(Board::new(mode, ruleset), Period::AllTime, now, account.id)
            .await?;
        if entry.is_none() && ruleset != home_ruleset(mode) {
            continue;
        }
        bests.push(ProfileBest {
            mode,
            ruleset,
            best: entry
                .as_ref()
                .map(|e| minotty_ui::boards::result(mode, boards::entry_figures(e))),
            rank: entry.as_ref().map(|e| e.rank),
            game: entry.as_ref().map(|e| e.game.0),
        });
    }
    let recent = store
        .recent_games(account.id, RECENT_GAMES)
        .await?
        .iter()
        .map(recent_game)
        .collect();
    // The versus matches are stored apart from the solo games (`store/matches.rs`).
    let matches = store
        .match_history(account.id, super::recent_matches::RECENT_MATCHES)
        .await?
        .iter()
        .map(super::recent_matches::recent_match)
        .collect();
    let entry = store
        .rating_rank_of(account.id, Period::AllTime, now)
        .await?;
    let rating = entry
        .as_ref()
        .map(|r| (r.rating, boards::grown_deviation(r, now), r.games));
    let standing = match &entry {
        Some(e) => {
            let season = minotty_domain::Season::of(now);
            let population = store.rated_population_cached(now).await?;
            let in_season = store.season_rank_of(account.id, season).await?;
            let deviation = boards::grown_deviation(e, now);
            let letter = minotty_domain::ranked::letter(e.rating, deviation, e.games, &population);
            Some(minotty_ui::boards::ranked_standing(
                letter,
                e.games,
                &season.name(),
                in_season.map(|s| s.rank),
            ))
        }
        None => None,
    };
    let ranked = store
        .ranked_history(account.id, minotty_ui::profile_charts::HISTORY_GAMES)
        .await?;
    let pace = store.pace_history(account.id, PPS_GAMES as u32).await?;
    Ok(Profile {
        name: account.name,
        bests,
        recent,
        matches,
        rating,
        ranked: standing,
        charts: minotty_ui::profile_charts::profile_charts(&ranked, &pace),
    })
}

fn recent_game(g: &GameRecord) -> RecentGame {
    minotty_ui::boards::recent_game(g.id.0, g.mode, g.ruleset, g.ended_at, &g.outcome, &g.stats)
}
