//! Leaderboards: each mode's order, best entry per player, ties, periods, paging, own rank.

use minotty_domain::Period;
use minotty_engine::ModeKind;
use minotty_store::{Account, Entry, Page, Store};
use sqlx::AnyPool;

use crate::support::{DAY, NOW, player, ranked, stats, store};

async fn players(store: &Store, n: u32) -> Vec<Account> {
    let mut all = Vec::new();
    for i in 0..n {
        all.push(player(store, &format!("p{i:02}"), i).await);
    }
    all
}

fn names(board: &[Entry]) -> Vec<String> {
    board
        .iter()
        .map(|e| format!("{}:{}", e.rank, e.name))
        .collect()
}

async fn top(store: &Store, mode: ModeKind, period: Period, now: i64) -> Vec<String> {
    names(
        &store
            .leaderboard(mode, period, now, Page::top(100))
            .await
            .expect("query"),
    )
}

both!(each_mode_ranks_by_its_own_measure);
async fn each_mode_ranks_by_its_own_measure(pool: AnyPool) {
    let store = store(pool).await;
    let p = players(&store, 3).await;
    // (mode, stats of p00, p01, p02) and the expected order.
    let cases = [
        (
            ModeKind::Sprint,
            [
                stats(32_000, 9, 40, 99, 0),
                stats(30_000, 0, 40, 110, 0),
                stats(31_000, 0, 41, 90, 0),
            ],
            "1:p01 2:p02 3:p00",
        ),
        (
            ModeKind::Marathon,
            [
                stats(1, 50_000, 150, 1, 0),
                stats(9, 70_000, 120, 1, 0),
                stats(5, 60_000, 150, 1, 0),
            ],
            "1:p01 2:p02 3:p00",
        ),
        (
            ModeKind::Ultra,
            [
                stats(180_000, 90_000, 1, 1, 0),
                stats(180_000, 10_000, 9, 1, 0),
                stats(180_000, 40_000, 5, 1, 0),
            ],
            "1:p00 2:p02 3:p01",
        ),
        (
            ModeKind::Master,
            [
                stats(300_000, 0, 100, 1, 0),
                stats(100_000, 0, 90, 1, 0),
                stats(290_000, 0, 100, 1, 0),
            ],
            "1:p02 2:p00 3:p01",
        ),
        (
            ModeKind::Cheese,
            [
                stats(90_000, 0, 1, 60, 0),
                stats(1_000, 0, 1, 70, 0),
                stats(50_000, 0, 1, 55, 0),
            ],
            "1:p02 2:p00 3:p01",
        ),
        (
            ModeKind::Combo,
            [
                stats(1, 0, 1, 1, 9),
                stats(1, 0, 1, 1, 30),
                stats(1, 0, 1, 1, 12),
            ],
            "1:p01 2:p02 3:p00",
        ),
    ];
    for (mode, s, want) in cases {
        let games: Vec<_> = p
            .iter()
            .zip(s)
            .map(|(a, s)| ranked(a, mode, s, NOW))
            .collect();
        store.insert_games(&games).await.expect("inserts");
        assert_eq!(
            top(&store, mode, Period::AllTime, NOW).await.join(" "),
            want,
            "{mode:?}"
        );
    }
    // Each mode has its own board.
    let sprint = store
        .leaderboard(ModeKind::Sprint, Period::AllTime, NOW, Page::top(10))
        .await;
    let sprint = sprint.expect("query");
    assert_eq!(sprint.len(), 3);
    assert_eq!((sprint[0].time_ms, sprint[0].pieces), (30_000, 110));
}

both!(a_player_has_one_entry_their_best);
async fn a_player_has_one_entry_their_best(pool: AnyPool) {
    let store = store(pool).await;
    let p = players(&store, 2).await;
    let mode = ModeKind::Sprint;
    let first = store
        .insert_games(&[ranked(&p[0], mode, stats(40_000, 0, 40, 100, 0), NOW)])
        .await;
    assert_eq!(first.expect("inserts")[0].improved, Period::ALL);
    // Worse: stored, but the entry stays.
    let worse = store
        .insert_games(&[ranked(&p[0], mode, stats(45_000, 0, 40, 100, 0), NOW + 1)])
        .await;
    assert!(worse.expect("inserts")[0].improved.is_empty());
    // Equal: the earlier game keeps the entry.
    let equal = store
        .insert_games(&[ranked(&p[0], mode, stats(40_000, 0, 40, 100, 0), NOW + 2)])
        .await;
    assert!(equal.expect("inserts")[0].improved.is_empty());
    store
        .insert_games(&[ranked(&p[1], mode, stats(39_000, 0, 40, 100, 0), NOW)])
        .await
        .expect("inserts");
    let board = store
        .leaderboard(mode, Period::AllTime, NOW, Page::top(10))
        .await
        .expect("query");
    assert_eq!(names(&board), ["1:p01", "2:p00"]);
    assert_eq!((board[1].time_ms, board[1].achieved_at), (40_000, NOW));
    // Better: replaces the entry in every period.
    let better = store
        .insert_games(&[ranked(&p[0], mode, stats(38_000, 0, 40, 100, 0), NOW + 3)])
        .await;
    let better = better.expect("inserts");
    assert_eq!(better[0].improved, Period::ALL);
    for period in Period::ALL {
        let board = store
            .leaderboard(mode, period, NOW + 3, Page::top(10))
            .await
            .expect("query");
        assert_eq!(names(&board), ["1:p00", "2:p01"], "{period:?}");
        assert_eq!(board[0].game, better[0].id);
    }
}

both!(ties_share_a_rank_listed_by_who_got_there_first);
async fn ties_share_a_rank_listed_by_who_got_there_first(pool: AnyPool) {
    let store = store(pool).await;
    let p = players(&store, 6).await;
    let mode = ModeKind::Combo;
    // Combos 20, 15, 15, 15, 10, 10; p04's 15 came first, then p01, then p02.
    let plays = [
        (0, 20, 0),
        (1, 15, 5),
        (2, 15, 9),
        (3, 10, 0),
        (4, 15, 1),
        (5, 10, 0),
    ];
    let games: Vec<_> = plays
        .iter()
        .map(|&(i, combo, t)| ranked(&p[i], mode, stats(1, 0, 1, 1, combo), NOW - 100 + t))
        .collect();
    store.insert_games(&games).await.expect("inserts");
    let want = ["1:p00", "2:p04", "2:p01", "2:p02", "5:p03", "5:p05"];
    assert_eq!(top(&store, mode, Period::AllTime, NOW).await, want);
    // Pages start with the right rank even inside a tie.
    for offset in 0..6u32 {
        let page = store
            .leaderboard(mode, Period::AllTime, NOW, Page { offset, limit: 2 })
            .await
            .expect("query");
        let end = (offset as usize + 2).min(6);
        assert_eq!(names(&page), want[offset as usize..end], "offset {offset}");
    }
    assert!(
        store
            .leaderboard(
                mode,
                Period::AllTime,
                NOW,
                Page {
                    offset: 6,
                    limit: 2
                }
            )
            .await
            .expect("query")
            .is_empty()
    );
    // Own rank agrees with the board for everyone.
    for (i, a) in p.iter().enumerate() {
        let own = store
            .rank_of(mode, Period::AllTime, NOW, a.id)
            .await
            .expect("query")
            .expect("entry");
        let listed = want
            .iter()
            .find(|w| w.ends_with(&format!("p{i:02}")))
            .expect("listed");
        assert_eq!(format!("{}:{}", own.rank, own.name), *listed);
    }
}

both!(periods_count_this_month_and_today_in_utc);
async fn periods_count_this_month_and_today_in_utc(pool: AnyPool) {
    let store = store(pool).await;
    let p = players(&store, 3).await;
    let mode = ModeKind::Marathon;
    let feb_1 = 1_706_745_600_000; // 2024-02-01T00:00Z, the start of NOW's month
    let today = NOW - NOW.rem_euclid(DAY);
    let games = [
        // p00: a great game in January, a fair one earlier this month, a poor one today.
        ranked(&p[0], mode, stats(1, 90_000, 150, 1, 0), feb_1 - 1),
        ranked(&p[0], mode, stats(1, 50_000, 150, 1, 0), feb_1),
        ranked(&p[0], mode, stats(1, 10_000, 150, 1, 0), today),
        // p01: one game yesterday.
        ranked(&p[1], mode, stats(1, 60_000, 150, 1, 0), today - 1),
        // p02: one game today.
        ranked(&p[2], mode, stats(1, 20_000, 150, 1, 0), NOW),
    ];
    store.insert_games(&games).await.expect("inserts");
    assert_eq!(
        top(&store, mode, Period::AllTime, NOW).await,
        ["1:p00", "2:p01", "3:p02"]
    );
    assert_eq!(
        top(&store, mode, Period::Month, NOW).await,
        ["1:p01", "2:p00", "3:p02"]
    );
    assert_eq!(
        top(&store, mode, Period::Today, NOW).await,
        ["1:p02", "2:p00"]
    );
    // Each view shows the best game within its period.
    let month = store
        .rank_of(mode, Period::Month, NOW, p[0].id)
        .await
        .expect("query")
        .expect("entry");
    assert_eq!(
        (month.rank, month.score, month.achieved_at),
        (2, 50_000, feb_1)
    );
    let day = store
        .rank_of(mode, Period::Today, NOW, p[0].id)
        .await
        .expect("query")
        .expect("entry");
    assert_eq!((day.rank, day.score), (2, 10_000));
    assert_eq!(
        store
            .rank_of(mode, Period::Today, NOW, p[1].id)
            .await
            .expect("query"),
        None
    );
    // Yesterday's board is still there, seen from yesterday.
    assert_eq!(top(&store, mode, Period::Today, today - 1).await, ["1:p01"]);
    // Next month starts empty.
    assert!(
        top(&store, mode, Period::Month, NOW + 31 * DAY)
            .await
            .is_empty()
    );
}

both!(own_rank_is_found_outside_the_top_page);
async fn own_rank_is_found_outside_the_top_page(pool: AnyPool) {
    let store = store(pool).await;
    let p = players(&store, 30).await;
    let mode = ModeKind::Sprint;
    // p00 fastest ... p29 slowest.
    let games: Vec<_> = p
        .iter()
        .enumerate()
        .map(|(i, a)| ranked(a, mode, stats(30_000 + 100 * i as u64, 0, 40, 100, 0), NOW))
        .collect();
    store.insert_games(&games).await.expect("inserts");
    let page = store
        .leaderboard(mode, Period::AllTime, NOW, Page::top(10))
        .await
        .expect("query");
    assert_eq!(page.len(), 10);
    assert!(page.iter().all(|e| e.player != p[24].id));
    let own = store
        .rank_of(mode, Period::AllTime, NOW, p[24].id)
        .await
        .expect("query")
        .expect("entry");
    assert_eq!(
        (own.rank, own.name.as_str(), own.time_ms),
        (25, "p24", 32_400)
    );
    let page3 = store
        .leaderboard(
            mode,
            Period::AllTime,
            NOW,
            Page {
                offset: 20,
                limit: 10,
            },
        )
        .await;
    assert_eq!(page3.expect("query")[4], own);
    // A player with no game there has no rank; nor does anyone on another mode's board.
    let newcomer = player(&store, "newcomer", 99).await;
    assert_eq!(
        store
            .rank_of(mode, Period::AllTime, NOW, newcomer.id)
            .await
            .expect("query"),
        None
    );
    assert_eq!(
        store
            .rank_of(ModeKind::Ultra, Period::AllTime, NOW, p[0].id)
            .await
            .expect("query"),
        None
    );
    assert_eq!(
        store
            .board_size(mode, Period::AllTime, NOW)
            .await
            .expect("query"),
        30
    );
    assert_eq!(
        store
            .board_size(mode, Period::Today, NOW + DAY)
            .await
            .expect("query"),
        0
    );
    // Pages are capped.
    let all = store
        .leaderboard(mode, Period::AllTime, NOW, Page::top(1_000))
        .await
        .expect("query");
    assert_eq!(all.len(), 30);
}

both!(ranks_agree_with_the_full_board_after_many_improvements);
async fn ranks_agree_with_the_full_board_after_many_improvements(pool: AnyPool) {
    let store = store(pool).await;
    let p = players(&store, 40).await;
    // A small LCG: repeatable stats that cross bucket boundaries often, improve and regress.
    let mut seed = 12_345u64;
    let mut next = |n: u64| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        (seed >> 33) % n
    };
    for kind in [
        ModeKind::Sprint,
        ModeKind::Marathon,
        ModeKind::Master,
        ModeKind::Combo,
    ] {
        let mut games = Vec::new();
        for _ in 0..300 {
            let a = &p[next(40) as usize];
            let s = stats(
                20_000 + next(5_000),
                next(20_000),
                next(4) as u32 + 97,
                1,
                next(30) as u32,
            );
            games.push(ranked(a, kind, s, NOW - next(3) as i64 * DAY));
        }
        store.insert_games(&games).await.expect("inserts");
        for period in Period::ALL {
            let mut board = Vec::new();
            for offset in (0..).step_by(100) {
                let page = Page { offset, limit: 100 };
                let page = store
                    .leaderboard(kind, period, NOW, page)
                    .await
                    .expect("query");
                if page.is_empty() {
                    break;
                }
                board.extend(page);
            }
            let size = store.board_size(kind, period, NOW).await.expect("query");
            assert_eq!(size, board.len() as u64, "{kind:?} {period:?}");
            for e in &board {
                let better = board.iter().filter(|o| o.rank_key < e.rank_key).count() as u64;
                assert_eq!(e.rank, better + 1, "{kind:?} {period:?} {e:?}");
                let own = store
                    .rank_of(kind, period, NOW, e.player)
                    .await
                    .expect("query");
                assert_eq!(own.as_ref(), Some(e), "{kind:?} {period:?}");
            }
        }
    }
}
