//! Puzzle progress on its own, without an App: what opening the mode select asks for, and when
//! the puzzle counts as completed.

use minotty_engine::RulesetId;
use minotty_engine::puzzle::STAGE_COUNT;
use minotty_protocol::Identity;

use super::{completed, open_modes};
use crate::Request;
use crate::app::menus::Menus;

fn registered() -> Identity {
    Identity::Registered {
        name: "ada".into(),
        has_password: true,
    }
}

#[test]
fn the_mode_select_asks_for_the_progress_once_and_the_bests_each_time() {
    let mut menus = Menus::new(RulesetId::default(), false);
    let mut requests = Vec::new();
    open_modes(&mut menus, &registered(), &mut requests);
    assert_eq!(requests, [Request::Bests, Request::PuzzleProgress]);
    requests.clear();
    open_modes(&mut menus, &registered(), &mut requests);
    assert_eq!(requests, [Request::Bests]);
}

#[test]
fn a_guest_has_no_bests_but_is_asked_for_the_progress() {
    let mut menus = Menus::new(RulesetId::default(), false);
    let mut requests = Vec::new();
    open_modes(&mut menus, &Identity::Guest, &mut requests);
    assert_eq!(requests, [Request::PuzzleProgress]);
    requests.clear();
    open_modes(&mut menus, &Identity::Guest, &mut requests);
    assert!(requests.is_empty());
}

#[test]
fn the_puzzle_is_completed_only_with_its_last_stage_cleared() {
    let mut menus = Menus::new(RulesetId::default(), false);
    assert!(!completed(menus.modes()));
    menus.modes_mut().note_puzzle_cleared(STAGE_COUNT - 1);
    assert!(!completed(menus.modes()));
    menus.modes_mut().note_puzzle_cleared(STAGE_COUNT);
    assert!(completed(menus.modes()));
}
