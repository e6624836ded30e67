//! What a climb adds to the match screen (`versus_match.rs`): its title with the floor, and
//! a status line under the boards with the run's height, the next floor, the place among the
//! climbers, grace and fatigue, or the run that just ended with what to do next.

use minotty_engine::versus::climb::floor_name;
use minotty_protocol::ClimbView;

use crate::text::{StackStr, sfmt};

/// The title beside "CLIMB": the floor and its name.
pub fn title(view: &ClimbView) -> StackStr<40> {
    sfmt!(40; "floor {} {}", view.floor, floor_name(view.floor))
}

/// The status line while a run goes on.
pub fn climbing(view: &ClimbView) -> StackStr<120> {
    let next = match view.next_at {
        Some(at) => sfmt!(24; "next floor {} m", at),
        None => sfmt!(24; "top floor"),
    };
    let state = if view.grace_ms > 0 {
        sfmt!(24; "   grace {} s", view.grace_ms.div_ceil(1000))
    } else if view.fatigue {
        sfmt!(24; "   FATIGUE")
    } else {
        sfmt!(24; "")
    };
    sfmt!(120; "{} m   {}   {} of {}{}   Esc forfeit",
        view.height, next.as_str(), ordinal(view.place).as_str(), view.climbers, state.as_str())
}

/// The status line once the run ended (`None` while it goes on or before the server said how
/// high it went).
pub fn ended(view: &ClimbView) -> Option<StackStr<120>> {
    let run = view.ended.as_ref()?;
    let kept = if run.stored { "   on the board" } else { "" };
    Some(
        sfmt!(120; "Climbed {} m, floor {} {}{}   Enter climb again   Esc leave",
        run.height, run.floor, floor_name(run.floor), kept),
    )
}

/// `1st`, `2nd`, `3rd`, `4th`... (0 reads as `-`).
fn ordinal(n: u8) -> StackStr<8> {
    if n == 0 {
        sfmt!(8; "-")
    } else {
        sfmt!(8; "{}{}", n, crate::text::ordinal_suffix(u32::from(n)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use minotty_protocol::ClimbRun;

    #[test]
    fn lines_of_a_climb() {
        let mut view = ClimbView {
            height: 412,
            floor: 4,
            next_at: Some(450),
            grace_ms: 0,
            fatigue: false,
            climbers: 5,
            place: 2,
            ended: None,
        };
        assert_eq!(title(&view).as_str(), "floor 4 Gallery");
        assert_eq!(
            climbing(&view).as_str(),
            "412 m   next floor 450 m   2nd of 5   Esc forfeit"
        );
        assert!(ended(&view).is_none());
        view.grace_ms = 6_100;
        assert!(climbing(&view).as_str().contains("grace 7 s"));
        view.grace_ms = 0;
        view.fatigue = true;
        view.next_at = None;
        assert_eq!(
            climbing(&view).as_str(),
            "412 m   top floor   2nd of 5   FATIGUE   Esc forfeit"
        );
        view.ended = Some(ClimbRun {
            height: 412,
            floor: 4,
            time_ms: 90_000,
            stored: true,
        });
        assert_eq!(
            ended(&view).expect("ended").as_str(),
            "Climbed 412 m, floor 4 Gallery   on the board   Enter climb again   Esc leave"
        );
        for (n, text) in [
            (0, "-"),
            (1, "1st"),
            (3, "3rd"),
            (11, "11th"),
            (12, "12th"),
            (22, "22nd"),
        ] {
            assert_eq!(ordinal(n).as_str(), text);
        }
    }
}
