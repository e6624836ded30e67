//! Finesse faults of small scripted games whose counts are known: each script is pressed on a
//! real 40-lines game, and the count comes from re-simulating that game's replay.

use minotty_bots::{Finesse, finesse};
use minotty_engine::{Button, Game, GameConfig, Input, Mode, Piece, RulesetId};

use Button::{Hold, Left, Right, Rotate180, RotateCcw, RotateCw, SoftDrop};

/// One step of a script.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// Pressed and released at one instant.
    Tap(Button),
    /// Pressed, held `ms`, released.
    HoldFor(Button, u64),
    /// Pressed twice before its release, as a terminal's key repeat does.
    Repeated(Button),
    /// Hard drop, then the wait for the next piece.
    Drop,
}

use Step::{Drop, HoldFor, Repeated, Tap};

/// A started standard 40-lines game whose first piece is `first`.
fn game(first: Piece) -> Game {
    let config = GameConfig {
        ruleset: RulesetId::Standard,
        mode: Mode::sprint(),
        ..GameConfig::default()
    };
    (0..)
        .map(|seed| {
            let mut g = Game::new(config.clone(), seed);
            g.update(0, None);
            g
        })
        .find(|g| g.active().is_some_and(|a| a.placed.piece == first))
        .expect("a seed deals it first")
}

fn play(first: Piece, script: &[Step]) -> (Game, Finesse) {
    let mut g = game(first);
    let mut t = 10;
    for &step in script {
        match step {
            Tap(b) => {
                g.update(t, Some(Input::Press(b)));
                g.update(t, Some(Input::Release(b)));
            }
            HoldFor(b, ms) => {
                g.update(t, Some(Input::Press(b)));
                t += ms;
                g.update(t, Some(Input::Release(b)));
            }
            Repeated(b) => {
                g.update(t, Some(Input::Press(b)));
                g.update(t + 1, Some(Input::Press(b)));
                t += 1;
                g.update(t, Some(Input::Release(b)));
            }
            Drop => {
                g.update(t, Some(Input::Press(Button::HardDrop)));
                g.update(t, Some(Input::Release(Button::HardDrop)));
                t += 500;
                g.update(t, None);
            }
        }
        t += 5;
    }
    let f = finesse(&g.replay()).expect("the game's own replay plays");
    (g, f)
}

#[test]
fn finesse_faults_of_scripted_pieces() {
    // (what, first piece, script, pieces locked, faults)
    let table: &[(&str, Piece, &[Step], u32, u32)] = &[
        ("a hard drop where it appears", Piece::T, &[Drop], 1, 0),
        (
            "one shift to its column",
            Piece::T,
            &[Tap(Left), Drop],
            1,
            0,
        ),
        (
            "left then right: back where it was",
            Piece::T,
            &[Tap(Left), Tap(Right), Drop],
            1,
            1,
        ),
        ("a quarter turn", Piece::T, &[Tap(RotateCcw), Drop], 1, 0),
        (
            "a quarter turn the long way round",
            Piece::T,
            &[Tap(RotateCw), Tap(RotateCw), Tap(RotateCw), Drop],
            1,
            1,
        ),
        ("a half turn", Piece::J, &[Tap(Rotate180), Drop], 1, 0),
        (
            "a half turn done twice the long way",
            Piece::J,
            &[Tap(RotateCw), Tap(RotateCw), Drop],
            1,
            1,
        ),
        (
            "a vertical Z turned the far way and shifted back",
            Piece::Z,
            &[Tap(RotateCw), Tap(Left), Drop],
            1,
            1,
        ),
        (
            "a vertical Z turned the near way",
            Piece::Z,
            &[Tap(RotateCcw), Drop],
            1,
            0,
        ),
        ("a hold", Piece::T, &[Tap(Hold), Drop], 1, 0),
        (
            "a shift wasted before a hold is not counted",
            Piece::T,
            &[Tap(Left), Tap(Hold), Drop],
            1,
            0,
        ),
        (
            "after a hold the new piece is judged",
            Piece::T,
            &[Tap(Hold), Tap(Left), Tap(Right), Drop],
            1,
            1,
        ),
        (
            "auto-shift to the wall is one press",
            Piece::T,
            &[HoldFor(Left, 1_000), Drop],
            1,
            0,
        ),
        (
            "tapping to the wall column by column is as few",
            Piece::T,
            &[Tap(Left), Tap(Left), Tap(Left), Drop],
            1,
            0,
        ),
        (
            "a soft drop before a hard drop",
            Piece::T,
            &[HoldFor(SoftDrop, 300), Drop],
            1,
            1,
        ),
        (
            "a key repeat is not a second press",
            Piece::T,
            &[Repeated(Left), Drop],
            1,
            0,
        ),
        (
            "two pieces, the second wasteful",
            Piece::T,
            &[Tap(Right), Drop, Tap(RotateCw), Tap(RotateCcw), Drop],
            2,
            1,
        ),
    ];
    for &(what, first, script, pieces, faults) in table {
        let (g, got) = play(first, script);
        assert_eq!(
            got,
            Finesse { pieces, faults },
            "{what}: {script:?}\n{:?}",
            g.board()
        );
        assert_eq!(g.stats().pieces, pieces, "{what}: the script locked them");
    }
}

/// The count is the replay's: the same game read back from its binary form gives the same.
#[test]
fn finesse_is_a_function_of_the_replay() {
    let (g, f) = play(Piece::T, &[Tap(Left), Tap(Right), Drop, Tap(Left), Drop]);
    let bytes = g.replay().to_bytes();
    let back = minotty_engine::Replay::from_bytes(&bytes).expect("reads back");
    assert_eq!(finesse(&back), Ok(f));
    assert_eq!(
        f,
        Finesse {
            pieces: 2,
            faults: 1
        }
    );
}

/// The auto-shift case really slides to the wall: it leaves the board three taps leave.
#[test]
fn the_held_shift_reaches_the_wall_the_taps_reach() {
    let (held, f) = play(Piece::T, &[HoldFor(Left, 1_000), Drop]);
    let (tapped, _) = play(Piece::T, &[Tap(Left), Tap(Left), Tap(Left), Drop]);
    let (one, _) = play(Piece::T, &[Tap(Left), Tap(Left), Drop]);
    assert_eq!(held.board(), tapped.board());
    assert_ne!(
        held.board(),
        one.board(),
        "three taps reach the wall, two do not"
    );
    assert_eq!(
        f,
        Finesse {
            pieces: 1,
            faults: 0
        }
    );
}
