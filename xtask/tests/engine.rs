//! The engine's own rule, kept apart from the exceptions list: its modules form no cycle, and
//! the list may not excuse one.

use std::path::Path;
use xtask::exceptions::{Exception, parse};
use xtask::{cycles, modules::Crate};

#[test]
fn the_engine_has_no_module_cycle_and_none_is_excused() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let engine = Crate::load(&workspace.join("engine/src/lib.rs")).expect("the engine reads");
    let found: Vec<Vec<String>> = cycles::find(&engine.edges())
        .into_iter()
        .map(|c| c.modules.iter().map(|m| m.join("::")).collect())
        .collect();
    assert_eq!(found, Vec::<Vec<String>>::new());

    let listed = std::fs::read_to_string(workspace.join(".ci/layout-exceptions.txt"))
        .expect("the exceptions file");
    let excused: Vec<Exception> = parse(&listed)
        .expect("the exceptions parse")
        .into_iter()
        .filter(|e| matches!(e, Exception::Cycle { krate, .. } if krate == "minotty-engine"))
        .collect();
    assert_eq!(excused, Vec::new());
}
