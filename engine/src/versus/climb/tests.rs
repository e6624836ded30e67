use super::*;

fn at(height: u32, run_ms: u64) -> Climber {
    Climber {
        alive: true,
        height,
        run_ms,
    }
}

#[test]
fn height_counts_lines_and_attack() {
    for (lines, attack, metres) in [(0, 0, 0), (4, 0, 4), (4, 6, 10), (u32::MAX, 1, u32::MAX)] {
        assert_eq!(
            height(lines, attack),
            metres,
            "{lines} lines, {attack} attack"
        );
    }
}

#[test]
fn floors_by_height() {
    // (height, floor, name, next floor at)
    let table = [
        (0, 1, "Ground", Some(50)),
        (49, 1, "Ground", Some(50)),
        (50, 2, "Mezzanine", Some(150)),
        (149, 2, "Mezzanine", Some(150)),
        (150, 3, "Offices", Some(300)),
        (449, 4, "Gallery", Some(450)),
        (650, 6, "Garden", Some(850)),
        (1349, 8, "Antenna", Some(1350)),
        (1650, 10, "Summit", None),
        (u32::MAX, 10, "Summit", None),
    ];
    for (h, floor, name, next) in table {
        assert_eq!(floor_of(h), floor, "{h} m");
        assert_eq!(floor_name(floor_of(h)), name, "{h} m");
        assert_eq!(next_floor_at(h), next, "{h} m");
    }
    assert_eq!(floor_name(0), "Ground");
    assert_eq!(floor_name(200), "Summit");
}

#[test]
fn fatigue_starts_after_eight_minutes_and_grows() {
    let min = 60_000;
    // (run time, garbage lines sent by then)
    let table = [
        (0, 0),
        (8 * min - 1, 0),
        (8 * min, 1),
        (8 * min + 29_999, 1),
        (8 * min + 30_000, 2),
        // Batches 0-3 one line each, 4-7 two each: 4 + 8 = 12 after 8 batches.
        (8 * min + 7 * 30_000, 12),
        (8 * min + 8 * 30_000, 15),
    ];
    for (t, lines) in table {
        assert_eq!(fatigue_lines(t), lines, "at {t} ms");
    }
    assert_eq!(fatigue_batch(0), 1);
    assert_eq!(fatigue_batch(4), 2);
    assert_eq!(fatigue_batch(1000), 8);
    // Any run time is a bounded amount of work and a finite number.
    assert!(fatigue_lines(u64::MAX) > 0);
}

#[test]
fn targeting_factor_by_floor_and_grace() {
    // (climber, weight)
    let table = [
        (at(0, 0), 0),
        (at(0, GRACE_MS - 1), 0),
        (at(0, GRACE_MS), TARGET_BASE + 1),
        (at(150, 60_000), TARGET_BASE + 3),
        (at(1650, 60_000), TARGET_BASE + 10),
        (
            Climber {
                alive: false,
                height: 900,
                run_ms: 60_000,
            },
            0,
        ),
    ];
    for (c, w) in table {
        assert_eq!(weight(&c), w, "{c:?}");
    }
}

#[test]
fn attacks_never_go_to_the_attacker_or_a_newcomer() {
    let mut climb = Climb::new(5);
    let climbers = [at(100, 60_000), at(100, 60_000), at(0, 1_000)];
    for _ in 0..1000 {
        assert_eq!(climb.target(0, &climbers), Some(1));
    }
    // Nobody to hit: alone, or everyone else in grace.
    assert_eq!(climb.target(0, &climbers[..1]), None);
    assert_eq!(climb.target(0, &[at(0, 60_000), at(0, 0)]), None);
    assert_eq!(climb.target(0, &[]), None);
}

#[test]
fn attacks_follow_the_targeting_factors() {
    let mut climb = Climb::new(11);
    // Weights: self 0, ground 3, floor 6 (650 m) 8, floor 10 12: 23 in all.
    let climbers = [
        at(0, 60_000),
        at(0, 60_000),
        at(650, 60_000),
        at(1700, 60_000),
    ];
    let mut hits = [0u32; 4];
    let n = 23_000;
    for _ in 0..n {
        hits[climb.target(0, &climbers).expect("someone")] += 1;
    }
    assert_eq!(hits[0], 0);
    for (i, w) in [(1, 3), (2, 8), (3, 12)] {
        let expected = n * w / 23;
        let off = hits[i].abs_diff(expected);
        assert!(
            off < expected / 10,
            "climber {i}: {} hits, {expected} expected",
            hits[i]
        );
    }
}

#[test]
fn the_same_seed_routes_the_same_attacks() {
    let climbers = [at(10, 60_000), at(400, 60_000), at(900, 60_000)];
    let run = |seed| {
        let mut climb = Climb::new(seed);
        (0..200)
            .map(|i| climb.target(i % 3, &climbers))
            .collect::<Vec<_>>()
    };
    assert_eq!(run(3), run(3));
    assert_ne!(run(3), run(4));
}
