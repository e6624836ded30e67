use super::*;

/// Reads a score sequence: one letter per game, its winner (`a` = seat 0, ...; `-` nobody).
fn play(settings: &SeriesSettings, players: usize, games: &str) -> Vec<bool> {
    let mut s = Series::new(players);
    games
        .chars()
        .map(|c| {
            let w = (c != '-').then(|| (c as u8 - b'a') as usize);
            s.record(settings, w)
        })
        .collect()
}

/// Score sequences -> the game that ends the series (1-based; 0: not over) and its winner.
#[test]
fn series_tables() {
    // (first_to, win_by, players, games, over after game, winner)
    type Row<'a> = (u8, u8, usize, &'a str, usize, Option<usize>);
    let rows: &[Row] = &[
        // One game: today's match.
        (1, 1, 2, "a", 1, Some(0)),
        (1, 1, 2, "b", 1, Some(1)),
        (1, 1, 3, "c", 1, Some(2)),
        (1, 1, 2, "-", 1, None),
        // First to 3.
        (3, 1, 2, "aaa", 3, Some(0)),
        (3, 1, 2, "abab", 0, None),
        (3, 1, 2, "ababa", 5, Some(0)),
        (3, 1, 2, "bbab", 4, Some(1)),
        // First to 7, win by 1 (League): 7-6 wins.
        (7, 1, 2, "abababababab", 0, None),
        (7, 1, 2, "abababababab" /* 6-6 */, 0, None),
        (7, 1, 2, "ababababababa", 13, Some(0)),
        // Win by 2: 3-2 is not enough, 4-2 is.
        (3, 2, 2, "ababa", 0, None),
        (3, 2, 2, "ababaa", 6, Some(0)),
        (3, 2, 2, "aabb", 0, None),
        (3, 2, 2, "aabbbb", 6, Some(1)),
        // ... never endless: the cap (2*(3-1)+1+2 = 7 games) ends it, the leader wins.
        (3, 2, 2, "abababa", 7, Some(0)),
        (3, 2, 2, "ababab" /* 3-3 at game 6 */, 0, None),
        // A tie at the cap: the one who won last among the tied.
        (1, 1, 2, "-", 1, None),
        (2, 1, 3, "abc-", 4, Some(2)),
        (2, 1, 3, "abca", 4, Some(0)),
        // Games nobody won count towards the cap: it ends without a winner.
        (3, 1, 2, "-----", 5, None),
        (3, 1, 2, "----", 0, None),
        // Three players, first to 2.
        (2, 1, 3, "abcb", 4, Some(1)),
        (2, 1, 3, "aa", 2, Some(0)),
        // A series over takes no more games.
        (1, 1, 2, "ab", 1, Some(0)),
    ];
    for &(first_to, win_by, players, games, ends, winner) in rows {
        let settings = SeriesSettings::new(first_to, win_by, 0);
        let over = play(&settings, players, games);
        let first_over = over.iter().position(|&o| o).map_or(0, |i| i + 1);
        assert_eq!(first_over, ends, "first to {first_to} by {win_by}: {games}");
        assert!(over[first_over.max(1) - 1..].iter().all(|&o| o) || ends == 0);
        let mut s = Series::new(players);
        for c in games.chars() {
            s.record(&settings, (c != '-').then(|| (c as u8 - b'a') as usize));
        }
        if ends > 0 {
            assert_eq!(
                s.winner(),
                winner,
                "first to {first_to} by {win_by}: {games}"
            );
            assert_eq!(
                s.games(),
                ends as u32,
                "{games}: no game counted after the end"
            );
        }
    }
}

#[test]
fn the_cap_bounds_every_series() {
    let rows: &[(u8, u8, usize, u32)] = &[
        (1, 1, 2, 1),
        (3, 1, 2, 5),
        (7, 1, 2, 13),
        (7, 2, 2, 15),
        (7, 3, 8, 53),
        (2, 1, 3, 4),
    ];
    for &(first_to, win_by, players, cap) in rows {
        let settings = SeriesSettings::new(first_to, win_by, 0);
        assert_eq!(max_games(&settings, players), cap);
        // The worst order (winners in turn) still ends by the cap.
        let mut s = Series::new(players);
        let mut n = 0;
        while !s.record(&settings, Some(n as usize % players)) {
            n += 1;
        }
        assert!(n < cap, "{first_to}/{win_by}/{players}: {n}");
    }
}

#[test]
fn settings_are_clamped() {
    type Three = (u8, u8, u8);
    let rows: &[(Three, Three)] = &[
        ((0, 0, 0), (1, 1, 0)),
        ((1, 1, 0), (1, 1, 0)),
        ((7, 3, 5), (7, 3, 5)),
        ((8, 4, 6), (7, 3, 5)),
        ((u8::MAX, u8::MAX, u8::MAX), (7, 3, 5)),
    ];
    for &((f, w, s), want) in rows {
        let got = SeriesSettings::new(f, w, s);
        assert_eq!((got.first_to(), got.win_by(), got.stock()), want);
    }
}

/// Stock: (lives, lives used before this top-out) -> respawn or out.
#[test]
fn stock_knock_outs() {
    let rows: &[(u8, u8, TopOut)] = &[
        (0, 0, TopOut::Out),
        (1, 0, TopOut::Respawn { left: 0 }),
        (1, 1, TopOut::Out),
        (3, 0, TopOut::Respawn { left: 2 }),
        (3, 2, TopOut::Respawn { left: 0 }),
        (3, 3, TopOut::Out),
        (3, 9, TopOut::Out),
        (5, 4, TopOut::Respawn { left: 0 }),
    ];
    for &(stock, used, want) in rows {
        let settings = SeriesSettings::new(1, 1, stock);
        assert_eq!(top_out(&settings, used), want, "stock {stock}, used {used}");
    }
}

#[cfg(feature = "serde")]
#[test]
fn serde_reads_old_forms_and_clamps() {
    let s: SeriesSettings = serde_json::from_str("{}").unwrap();
    assert_eq!(s, SeriesSettings::default());
    let s: SeriesSettings =
        serde_json::from_str(r#"{"first_to":200,"win_by":0,"stock":9}"#).unwrap();
    assert_eq!(s, SeriesSettings::new(7, 1, 5));
}

/// A leaver concedes: (players, games won by seat, leaver, winner of the series).
#[test]
fn a_leaver_concedes_the_series() {
    let rows: &[(usize, &[usize], usize, Option<usize>)] = &[
        // 1v1 first to 3: the one who stays wins, whatever the score.
        (2, &[], 0, Some(1)),
        (2, &[], 1, Some(0)),
        (2, &[0, 0], 0, Some(1)),
        (2, &[1, 1], 0, Some(1)),
        (2, &[0, 1], 1, Some(0)),
        // Three players: the best of the others, a tie to the one who won last.
        (3, &[0, 1, 2], 0, Some(2)),
        (3, &[1, 1, 2], 1, Some(2)),
        (3, &[1, 1, 0], 1, Some(0)),
        (3, &[2, 1], 2, Some(1)),
        (3, &[], 0, Some(1)),
        // A seat out of range concedes nothing.
        (2, &[0], 5, None),
    ];
    let settings = SeriesSettings::new(3, 1, 0);
    for &(players, games, leaver, winner) in rows {
        let mut s = Series::new(players);
        for &w in games {
            s.record(&settings, Some(w));
        }
        assert!(!s.is_over());
        assert_eq!(s.concede(leaver), winner, "{players} {games:?} {leaver}");
        assert_eq!(s.is_over(), winner.is_some());
        assert_eq!(s.winner(), winner);
    }
    // A series already over keeps its winner.
    let mut s = Series::new(2);
    for _ in 0..3 {
        s.record(&settings, Some(1));
    }
    assert_eq!(s.concede(1), Some(1));
}
