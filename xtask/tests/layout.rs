//! The layout check on small fixture trees: the cycles and long files it must find, and the
//! ones it must not.

use std::path::Path;
use tempfile::TempDir;
use xtask::exceptions::{Exception, parse};
use xtask::{MAX_LINES, Target, check};

/// A crate `fixture` with these files under `src/`.
fn tree(files: &[(&str, &str)]) -> TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (path, text) in files {
        let path = dir.path().join("src").join(path);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("dirs");
        std::fs::write(path, text).expect("write");
    }
    dir
}

fn problems(dir: &Path, exceptions: &[Exception]) -> Vec<String> {
    let target = Target {
        name: "fixture".into(),
        root: dir.join("src/lib.rs"),
    };
    check(dir, &[target], exceptions).expect("the tree reads")
}

/// The first line of each problem (the details follow on indented lines).
fn headlines(problems: &[String]) -> Vec<&str> {
    problems
        .iter()
        .map(|p| p.lines().next().unwrap_or(""))
        .collect()
}

#[test]
fn a_cycle_between_top_level_modules_is_found() {
    let dir = tree(&[
        ("lib.rs", "mod a;\nmod b;\nmod c;\n"),
        ("a.rs", "use crate::b::B;\npub struct A(B);\n"),
        // The way back goes through a function body and a nested module path.
        (
            "b.rs",
            "pub struct B;\nfn f() { let _ = super::a::A(B); }\n",
        ),
        ("c.rs", "use crate::a::A;\n"),
    ]);
    let found = problems(dir.path(), &[]);
    assert_eq!(headlines(&found), ["module cycle in crate fixture: a, b"]);
    assert!(
        found[0].contains("a -> b: `crate::b::B` in src/a.rs"),
        "{found:?}"
    );
    assert!(
        found[0].contains("b -> a: `super::a::A` in src/b.rs"),
        "{found:?}"
    );
}

#[test]
fn a_cycle_through_a_re_export_and_a_mod_rs_is_found() {
    let dir = tree(&[
        ("lib.rs", "mod a;\nmod b;\npub use b::Thing;\n"),
        ("a/mod.rs", "mod inner;\n"),
        // `crate::Thing` is `b::Thing`, re-exported at the root.
        ("a/inner.rs", "pub fn f(_: crate::Thing) {}\n"),
        ("b.rs", "pub struct Thing;\nuse crate::a;\n"),
    ]);
    assert_eq!(
        headlines(&problems(dir.path(), &[])),
        ["module cycle in crate fixture: a, b"]
    );
}

#[test]
fn a_cycle_between_nested_siblings_is_found() {
    let dir = tree(&[
        ("lib.rs", "pub mod game;\n"),
        ("game.rs", "mod actions;\nmod lockdown;\n"),
        (
            "game/actions.rs",
            "use super::lockdown::bottom;\npub enum Cause { A }\n",
        ),
        (
            "game/lockdown.rs",
            "pub fn bottom(_: super::actions::Cause) {}\n",
        ),
    ]);
    assert_eq!(
        headlines(&problems(dir.path(), &[])),
        ["module cycle in crate fixture: game::actions, game::lockdown"]
    );
}

#[test]
fn parents_children_tests_and_other_crates_make_no_cycle() {
    let dir = tree(&[
        ("lib.rs", "mod a;\nmod b;\npub use a::A;\n"),
        // A module and its children use each other freely: they are one module.
        ("a.rs", "mod child;\npub use child::A;\nuse crate::b::B;\n"),
        (
            "a/child.rs",
            "use super::*;\npub struct A;\nfn f() { let _ = crate::a::A; }\n",
        ),
        // Test code may use anything; std and other crates are not modules of this one.
        (
            "b.rs",
            "pub struct B;\nuse std::fmt;\n#[cfg(test)]\nmod tests {\n    use crate::a::A;\n}\n#[cfg(test)]\nfn helper() { let _ = crate::A; }\n",
        ),
    ]);
    assert_eq!(problems(dir.path(), &[]), Vec::<String>::new());
}

#[test]
fn a_long_file_is_found_and_blank_lines_do_not_count() {
    let long = "// x\n".repeat(MAX_LINES + 1);
    let within = "// x\n\n".repeat(MAX_LINES);
    let dir = tree(&[
        (
            "lib.rs",
            "mod long;\nmod within;\n#[cfg(test)]\nmod tests;\n",
        ),
        ("long.rs", &long),
        ("within.rs", &within),
        // A test-only file is not checked.
        ("tests.rs", &long),
    ]);
    assert_eq!(
        problems(dir.path(), &[]),
        ["src/long.rs: 601 non-blank lines, more than 600: split it by concept"]
    );
}

#[test]
fn listed_exceptions_excuse_only_what_they_list_and_only_shrink() {
    let long = "// x\n".repeat(700);
    let dir = tree(&[
        ("lib.rs", "mod a;\nmod b;\nmod c;\nmod long;\n"),
        ("a.rs", "use crate::b::B;\npub struct A;\n"),
        ("b.rs", "pub struct B;\nuse crate::a::A;\n"),
        ("c.rs", "\n"),
        ("long.rs", &long),
    ]);
    let excused =
        parse("long src/long.rs 700 -- to be split\ncycle fixture a b c -- to be broken\n")
            .expect("exceptions");
    assert_eq!(problems(dir.path(), &excused), Vec::<String>::new());

    // The file may not grow past its listed count.
    let tight = parse("long src/long.rs 650 -- to be split\ncycle fixture a b -- later\n")
        .expect("exceptions");
    assert_eq!(
        problems(dir.path(), &tight),
        ["src/long.rs: 700 non-blank lines, more than its listed 650 (a listed file may not grow)"]
    );

    // A cycle exception excuses only cycles among its own modules.
    let other = parse("long src/long.rs 700 -- x\ncycle fixture a c -- x\n").expect("exceptions");
    assert_eq!(
        headlines(&problems(dir.path(), &other)),
        [
            "module cycle in crate fixture: a, b",
            "exception for the cycle a, c in crate fixture: no such cycle any more; remove it"
        ]
    );

    // Once the file is split and the cycle broken, their exceptions must go.
    std::fs::write(dir.path().join("src/long.rs"), "// short\n").expect("write");
    std::fs::write(dir.path().join("src/b.rs"), "pub struct B;\n").expect("write");
    assert_eq!(
        problems(dir.path(), &excused),
        [
            "src/long.rs: 1 non-blank lines, within 600: remove its exception",
            "exception for the cycle a, b, c in crate fixture: no such cycle any more; remove it"
        ]
    );
}
