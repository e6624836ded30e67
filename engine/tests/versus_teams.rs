//! A 2v2 in one deterministic match simulation with real games: player 0's tetris goes to
//! the other team (player 2), never to the teammate (player 1) whom even targeting
//! would pick first in a free-for-all; the match ends when both players of a team are out,
//! with the other team's players sharing first place.

use minotty_engine::versus::{Match, MatchEvent, MatchKind};
use minotty_engine::{Board, Button, GameConfig, Generator, Input, Mode, Piece, PieceSource, Time};

fn battle_config() -> GameConfig {
    GameConfig {
        mode: Mode::custom(0, false, None),
        ..GameConfig::default()
    }
}

fn seed_starting_with(first: Piece) -> u32 {
    (0..)
        .find(|&s| PieceSource::new(Generator::Bag, s).next_piece() == first)
        .expect("some seed")
}

fn tap(m: &mut Match, p: usize, t: Time, b: Button) -> Vec<MatchEvent> {
    let mut out = m.input(p, t, Input::Press(b)).to_vec();
    out.extend_from_slice(m.input(p, t, Input::Release(b)));
    out
}

/// Player 0's next piece (an I) into a right-hand well over four full rows: a tetris.
fn tetris(m: &mut Match, t: Time) -> Vec<(usize, usize, u8)> {
    let mut lines = vec!["#........."];
    lines.extend(std::iter::repeat_n("#########.", 4));
    m.game_mut(0)
        .expect("p0")
        .set_board(Board::from_ascii(&lines));
    let mut events = tap(m, 0, t, Button::RotateCw);
    for _ in 0..4 {
        events.extend(tap(m, 0, t, Button::Right));
    }
    events.extend(tap(m, 0, t, Button::HardDrop));
    events
        .iter()
        .filter_map(|e| match *e {
            MatchEvent::Attack {
                from, to, lines, ..
            } => Some((from, to, lines)),
            _ => None,
        })
        .collect()
}

fn match_of(teams: &[u8]) -> Match {
    let i_seed = seed_starting_with(Piece::I);
    let mut m = Match::new(
        MatchKind::Battle,
        vec![battle_config(); 4],
        &[i_seed, 5, 6, 7],
        &[],
        1,
    )
    .with_teams(teams);
    m.update(0);
    m
}

#[test]
fn a_tetris_in_a_2v2_goes_to_the_other_team_only() {
    // Free-for-all, even targeting sends the first tetris to seat 1 (all at 0: the lowest).
    let mut ffa = match_of(&[]);
    assert_eq!(tetris(&mut ffa, 10), [(0, 1, 4)]);
    // In teams (0 and 1 against 2 and 3) it goes to 2: never to the teammate.
    let mut m = match_of(&[0, 0, 1, 1]);
    assert_eq!(tetris(&mut m, 10), [(0, 2, 4)]);
    assert_eq!(m.router().received(1), 0, "the teammate got nothing");
    assert_eq!(m.game(1).expect("p1").garbage().pending(), (0, 0));
    assert_ne!(m.game(2).expect("p2").garbage().pending(), (0, 0));
}

#[test]
fn the_match_ends_when_a_whole_team_is_out() {
    let mut m = match_of(&[0, 1, 0, 1]);
    // Topped out by a flood of garbage: 3 first (its team, B, is still in), then 1.
    for (p, t) in [(3usize, 100u64), (1, 200)] {
        m.game_mut(p).expect("p").update(t, Some(Input::Garbage(8)));
        for i in 0..40 {
            m.game_mut(p)
                .expect("p")
                .update(t + 600 + i, Some(Input::Garbage(8)));
            tap(&mut m, p, t + 600 + i, Button::HardDrop);
            if !m.router().is_alive(p) {
                break;
            }
        }
        assert!(!m.router().is_alive(p), "player {p} is out");
        assert_eq!(m.is_over(), p == 1, "over only once B is all out");
    }
    let places: Vec<_> = (0..4).map(|p| m.router().place(p)).collect();
    assert_eq!(places, [Some(1), Some(2), Some(1), Some(2)]);
    assert_eq!(m.router().winning_team(), Some(0));
}
