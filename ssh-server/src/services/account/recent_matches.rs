//! The profile's versus matches: each stored match from the player's seat, as they read it
//! ("won vs bob", "+14 rating").

use minotty_engine::versus::MatchKind;
use minotty_protocol::RecentMatch;

use minotty_store::MatchLine;

/// Matches shown on the profile.
pub(super) const RECENT_MATCHES: u32 = 5;

/// `1st`, `2nd`, `3rd`, `4th`, ... `11th`, `21st`.
fn ordinal(n: u32) -> String {
    format!("{n}{}", minotty_ui::ordinal_suffix(n))
}

pub(super) fn recent_match(m: &MatchLine) -> RecentMatch {
    let result = match (m.seats, m.place, &m.opponent) {
        (2, 1, Some(o)) => format!("won vs {o}"),
        (2, _, Some(o)) => format!("lost to {o}"),
        (n, place, _) => format!("{} of {n}", ordinal(place)),
    };
    let outcome = match m.rating {
        Some((before, after)) if m.ranked => {
            let d = (after - before).round() as i64;
            if d < 0 {
                format!("{d} rating")
            } else {
                format!("+{d} rating")
            }
        }
        _ if m.forfeited => "left".to_owned(),
        _ => "unranked".to_owned(),
    };
    RecentMatch {
        id: m.id.0,
        kind: match m.kind {
            MatchKind::Battle => "battle",
            MatchKind::Race => "race",
        }
        .to_owned(),
        ended_at: m.ended_at,
        result,
        outcome,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use minotty_store::MatchId;

    #[test]
    fn a_match_reads_from_the_players_seat() {
        let line = |place, seats, rating, ranked| MatchLine {
            id: MatchId(3),
            kind: MatchKind::Battle,
            ranked,
            ended_at: 0,
            place,
            seats,
            forfeited: false,
            opponent: Some("bob".into()),
            rating,
        };
        let won = recent_match(&line(1, 2, Some((1500.0, 1513.6)), true));
        assert_eq!(
            (won.result.as_str(), won.outcome.as_str()),
            ("won vs bob", "+14 rating")
        );
        let lost = recent_match(&line(2, 2, Some((1500.0, 1490.6)), true));
        assert_eq!(
            (lost.result.as_str(), lost.outcome.as_str()),
            ("lost to bob", "-9 rating")
        );
        let third = recent_match(&line(3, 4, None, false));
        assert_eq!(
            (third.result.as_str(), third.outcome.as_str()),
            ("3rd of 4", "unranked")
        );
        assert_eq!(ordinal(11), "11th");
        assert_eq!(ordinal(22), "22nd");
    }
}
