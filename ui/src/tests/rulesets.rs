//! Rulesets on screen: choosing one, the custom options, and the ruleset beside every score.

use minotty_engine::{ModeKind, RulesetId};

use super::*;
use crate::testutil::lines;
use crate::{App, Key};

#[test]
fn dump() {
    let mut a = app();
    press(&mut a, Key::Enter, 0);
    press(&mut a, Key::Right, 0);
    press(&mut a, Key::Right, 0);
    println!("{}", screen(&a));
    for _ in 0..6 {
        press(&mut a, Key::Down, 0);
    }
    println!("{}", screen(&a));
    press(&mut a, Key::Enter, 0);
    println!("{}", screen(&a));
    for _ in 0..18 {
        press(&mut a, Key::Down, 0);
    }
    println!("{}", screen(&a));
    println!("{}", lines(&draw(&a, 60, 24)).join("\n"));
    let _ = (ModeKind::Sprint, RulesetId::Tetrs);
    let _: Option<App> = None;
}
