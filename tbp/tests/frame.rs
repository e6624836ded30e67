//! TBP's frame against the engine's: every piece and orientation round-trips, known locations
//! cover known cells, and the engine's own spawns and locks read as the specification says.

use minotty_engine::board::{HEIGHT, WIDTH};
use minotty_engine::{
    Board, Button, Cell, EventKind, Game, GameConfig, Input, Piece, Placed, Position, Rotation,
};
use minotty_tbp::frame::{board_from_tbp, board_to_tbp, location_to_placed, placed_to_location};
use minotty_tbp::{Location, Orientation, TbpPiece};

fn loc(kind: TbpPiece, orientation: Orientation, x: i32, y: i32) -> Location {
    Location {
        kind,
        orientation,
        x,
        y,
    }
}

/// The cells a TBP location covers, in TBP coordinates (x right, y up from the bottom), sorted.
fn tbp_cells(location: &Location) -> Vec<(i32, i32)> {
    let placed = location_to_placed(location).expect("on the board");
    let mut cells: Vec<(i32, i32)> = placed
        .cells()
        .iter()
        .map(|&(x, y)| (i32::from(x), HEIGHT as i32 - 1 - i32::from(y)))
        .collect();
    cells.sort_unstable();
    cells
}

#[test]
fn every_piece_and_orientation_round_trips() {
    for piece in Piece::ALL {
        assert_eq!(Piece::from(TbpPiece::from(piece)), piece);
        for rotation in Rotation::ALL {
            assert_eq!(Rotation::from(Orientation::from(rotation)), rotation);
            for x in -3i8..=12 {
                for y in -4i8..=42 {
                    let placed = Placed {
                        piece,
                        rotation,
                        x,
                        y,
                    };
                    let location = placed_to_location(placed);
                    assert_eq!(
                        location_to_placed(&location),
                        Some(placed),
                        "{placed:?} -> {location:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn known_locations_cover_known_cells() {
    use Orientation::*;
    use TbpPiece::*;
    // (location, its cells as (x, y) from the bottom-left, sorted)
    let table: &[(Location, &[(i32, i32)])] = &[
        // T: the centre is the middle of the flat side.
        (loc(T, North, 4, 0), &[(3, 0), (4, 0), (4, 1), (5, 0)]),
        (loc(T, South, 4, 1), &[(3, 1), (4, 0), (4, 1), (5, 1)]),
        (loc(T, East, 0, 1), &[(0, 0), (0, 1), (0, 2), (1, 1)]),
        (loc(T, West, 9, 1), &[(8, 1), (9, 0), (9, 1), (9, 2)]),
        // I: the middle-left mino north, middle-top east, middle-right south, middle-bottom west.
        (loc(I, North, 4, 0), &[(3, 0), (4, 0), (5, 0), (6, 0)]),
        (loc(I, South, 5, 0), &[(3, 0), (4, 0), (5, 0), (6, 0)]),
        (loc(I, East, 0, 2), &[(0, 0), (0, 1), (0, 2), (0, 3)]),
        (loc(I, West, 0, 1), &[(0, 0), (0, 1), (0, 2), (0, 3)]),
        // O: bottom-left north, top-left east, top-right south, bottom-right west.
        (loc(O, North, 4, 0), &[(4, 0), (4, 1), (5, 0), (5, 1)]),
        (loc(O, East, 4, 1), &[(4, 0), (4, 1), (5, 0), (5, 1)]),
        (loc(O, South, 5, 1), &[(4, 0), (4, 1), (5, 0), (5, 1)]),
        (loc(O, West, 5, 0), &[(4, 0), (4, 1), (5, 0), (5, 1)]),
        // S, Z, J, L around the centre of their 3x3 box.
        (loc(S, North, 1, 0), &[(0, 0), (1, 0), (1, 1), (2, 1)]),
        (loc(Z, North, 1, 0), &[(0, 1), (1, 0), (1, 1), (2, 0)]),
        (loc(J, North, 1, 0), &[(0, 0), (0, 1), (1, 0), (2, 0)]),
        (loc(L, North, 1, 0), &[(0, 0), (1, 0), (2, 0), (2, 1)]),
        (loc(L, East, 8, 1), &[(8, 0), (8, 1), (8, 2), (9, 0)]),
        (loc(J, West, 9, 1), &[(8, 0), (9, 0), (9, 1), (9, 2)]),
        // The top of the 40-row board.
        (loc(T, North, 4, 38), &[(3, 38), (4, 38), (4, 39), (5, 38)]),
    ];
    for (location, cells) in table {
        assert_eq!(tbp_cells(location), cells.to_vec(), "{location:?}");
    }
}

#[test]
fn far_away_locations_do_not_convert() {
    for (x, y) in [
        (100, 0),
        (-100, 0),
        (4, 1000),
        (4, -1000),
        (i32::MAX, i32::MIN),
    ] {
        assert_eq!(
            location_to_placed(&loc(TbpPiece::T, Orientation::North, x, y)),
            None
        );
    }
}

#[test]
fn the_engine_spawn_is_where_the_specification_says() {
    // "pieces spawn in the North orientation at x=4, roughly y=19".
    for piece in Piece::ALL {
        let game = Game::from_position(GameConfig::default(), &empty_position(piece), 1);
        let spawned = game.active().expect("a piece in play").placed;
        let at = placed_to_location(spawned);
        assert_eq!(at.orientation, Orientation::North, "{piece:?}");
        assert_eq!(at.x, 4, "{piece:?}");
        assert!(
            (18..=20).contains(&at.y),
            "{piece:?} spawns at y = {}",
            at.y
        );
    }
}

fn empty_position(current: Piece) -> Position {
    Position {
        board: Board::new(),
        current,
        next: vec![],
        hold: None,
        combo: 0,
        back_to_back: false,
    }
}

#[test]
fn hard_drops_from_the_spawn_lock_at_the_bottom_centre() {
    // (piece, where a hard drop from the spawn locks on an empty board)
    let table = [
        (Piece::T, loc(TbpPiece::T, Orientation::North, 4, 0)),
        (Piece::I, loc(TbpPiece::I, Orientation::North, 4, 0)),
        (Piece::O, loc(TbpPiece::O, Orientation::North, 4, 0)),
        (Piece::L, loc(TbpPiece::L, Orientation::North, 4, 0)),
    ];
    for (piece, expected) in table {
        let mut game = Game::from_position(GameConfig::default(), &empty_position(piece), 1);
        let events = game
            .update(0, Some(Input::Press(Button::HardDrop)))
            .to_vec();
        let at = events
            .iter()
            .find_map(|e| match e.kind {
                EventKind::Lock { at, .. } => Some(at),
                _ => None,
            })
            .expect("the piece locked");
        assert_eq!(placed_to_location(at), expected);
    }
}

#[test]
fn boards_convert_both_ways_bottom_row_first() {
    let board = Board::from_ascii(&["..........", "T.........", "TTI....##Z"]);
    let rows = board_to_tbp(&board);
    assert_eq!(rows.len(), HEIGHT);
    assert!(rows.iter().all(|r| r.len() == WIDTH));
    let text: Vec<String> = rows[..3]
        .iter()
        .map(|r| {
            r.iter()
                .map(|c| c.map_or('.', |c| format!("{c:?}").chars().next().unwrap_or('?')))
                .collect()
        })
        .collect();
    assert_eq!(text, ["TTI....GGZ", "T.........", ".........."]);
    assert_eq!(board_from_tbp(&rows), board);
    assert_eq!(board_from_tbp(&rows).cell(7, HEIGHT - 1), Cell::Garbage);
    // A short or ragged board reads as far as it goes.
    let short = vec![vec![Some(minotty_tbp::msg::TbpCell::I)]];
    assert_eq!(
        board_from_tbp(&short).cell(0, HEIGHT - 1),
        Cell::Block(Piece::I)
    );
}
