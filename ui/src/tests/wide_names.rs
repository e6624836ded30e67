//! Names that are wide on screen: a CJK host (two columns a character) and a guest name with
//! U+FDFD (one character that terminals draw about ten columns wide). The open rooms' columns
//! and the lobby's labels stay where they are, whatever the names.

use minotty_engine::versus::MatchKind;
use ratatui::buffer::Buffer;

use super::open_rooms::{entry, to_open_rooms};
use super::versus::{online, room, seat};
use super::*;
use crate::Response;

/// A CJK name of 24 characters: 48 columns.
const CJK: &str = "漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字";
/// A guest's name made of the bismillah ligature and letters.
const BISMILLAH: &str = "~\u{FDFD}\u{FDFD}x\u{FDFD}y";

/// Where `text` starts on row `y` of `buf` (its first cell), if it is there.
fn column_of(buf: &Buffer, y: u16, text: &str) -> Option<u16> {
    let first = text.chars().next()?.to_string();
    (0..buf.area.width).find(|&x| {
        let mut at = x;
        text.chars().all(|c| {
            let ok = buf
                .cell((at, y))
                .is_some_and(|cell| cell.symbol() == c.to_string());
            at += 1;
            ok
        }) && buf.cell((x, y)).is_some_and(|c| c.symbol() == first)
    })
}

/// The symbols of row `y` from column `x`, `n` cells.
fn cells(buf: &Buffer, y: u16, x: u16, n: u16) -> String {
    (x..x + n)
        .filter_map(|x| buf.cell((x, y)).map(|c| c.symbol().to_owned()))
        .collect()
}

#[test]
fn wide_host_names_keep_the_open_rooms_columns() {
    let mut a = online();
    to_open_rooms(&mut a);
    a.deliver(
        Response::OpenRooms(vec![
            entry("K7PQ3M", "bob", MatchKind::Battle, 2, 4),
            entry("ZX81AB", CJK, MatchKind::Battle, 1, 2),
            entry("QQ22RR", BISMILLAH, MatchKind::Race, 1, 2),
        ]),
        20,
    );
    let buf = draw(&a, 80, 24);
    let header_y = 2;
    let mode_x = column_of(&buf, header_y, "Mode").expect("the header");
    let players_x = column_of(&buf, header_y, "Players").expect("the header");
    for (y, mode, seats) in [
        (4, "Battle", "2/4"),
        (5, "Battle", "1/2"),
        (6, "Race", "1/2"),
    ] {
        let row = lines(&buf)[usize::from(y)].clone();
        assert_eq!(
            column_of(&buf, y, mode),
            Some(mode_x),
            "mode column, row {y}: {row}"
        );
        assert_eq!(
            column_of(&buf, y, seats),
            Some(players_x),
            "seats column, row {y}: {row}"
        );
    }
    // The CJK host is cut to its 16 columns (8 characters), the ligatures are gone.
    let host_x = column_of(&buf, header_y, "Host").expect("the header");
    assert_eq!(
        cells(&buf, 5, host_x, 16).replace(' ', ""),
        "漢字漢字漢字漢字"
    );
    assert_eq!(cells(&buf, 6, host_x, 4).trim_end(), "~xy");
    assert!(!lines(&buf).concat().contains('\u{FDFD}'));
}

#[test]
fn wide_seat_names_keep_the_lobby_labels() {
    let mut a = online();
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Enter, 0);
    a.deliver(
        Response::Room(room(
            vec![
                seat("ada", false, true),
                seat(CJK, true, false),
                seat(BISMILLAH, false, false),
            ],
            Some(0),
            true,
        )),
        0,
    );
    let buf = draw(&a, 80, 24);
    let rows = lines(&buf);
    let y_of = |text: &str| {
        (0..24u16)
            .find(|&y| column_of(&buf, y, text).is_some())
            .unwrap_or_else(|| panic!("{text} not drawn:\n{}", rows.join("\n")))
    };
    let ada = y_of("ada");
    let host_x = column_of(&buf, ada, "host").expect("the host label");
    let ready_x = (0..24u16)
        .find_map(|y| column_of(&buf, y, "READY"))
        .expect("READY");
    let not_ready_x = column_of(&buf, ada, "not ready").expect("not ready");
    // The CJK player's row: READY where the other rows have their state, and the name cut
    // before the label column.
    // (A wide character's second cell is blank: searched one character at a time.)
    let cjk = y_of("漢");
    assert_eq!(
        column_of(&buf, cjk, "READY"),
        Some(ready_x),
        "{}",
        rows.join("\n")
    );
    assert_eq!(ready_x, not_ready_x);
    let name_x = column_of(&buf, cjk, "漢").expect("the name");
    let name = cells(&buf, cjk, name_x, host_x - name_x).replace(' ', "");
    assert_eq!(name, "漢字漢字漢字漢字漢字漢字", "cut to its 24 columns");
    assert!(
        cells(&buf, cjk, host_x - 1, 1) == " ",
        "a gap before the labels: {}",
        rows[usize::from(cjk)]
    );
    // The ligature never reaches the screen; what is left of the name is drawn.
    let guest = y_of("~xy");
    assert_eq!(column_of(&buf, guest, "not ready"), Some(not_ready_x));
    assert!(!rows.concat().contains('\u{FDFD}'));
}
