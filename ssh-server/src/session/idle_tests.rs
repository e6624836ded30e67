use super::*;

const IDLE: Duration = Duration::from_secs(600);

fn menu() -> Doing {
    Doing::default()
}

/// A player in the menu idles out exactly an idle timeout after their last key.
#[test]
fn the_menu_idles_out_after_the_last_key() {
    let t0 = Instant::now();
    let mut idle = Idleness::new(t0, false, IDLE);
    assert_eq!(idle.check(t0, menu()), (t0 + IDLE, None));
    let key = t0 + Duration::from_secs(100);
    idle.input(key);
    let almost = key + IDLE - Duration::from_millis(1);
    assert_eq!(idle.check(almost, menu()), (key + IDLE, None));
    assert_eq!(
        idle.check(key + IDLE, menu()),
        (key + IDLE, Some(IdleEnd::Idle))
    );
}

/// A game in play never idles out; paused, it idles out an idle timeout after the pause.
#[test]
fn a_game_idles_out_from_its_pause() {
    let t0 = Instant::now();
    let mut idle = Idleness::new(t0, false, IDLE);
    let playing = Doing {
        in_game: true,
        ..Doing::default()
    };
    let late = t0 + IDLE * 3;
    assert_eq!(idle.check(late, playing).1, None);
    let paused = Doing {
        paused: true,
        in_game: true,
        ..Doing::default()
    };
    assert_eq!(idle.check(late, paused), (late + IDLE, None));
    // Still paused: the pause is not counted again.
    let later = late + IDLE / 2;
    assert_eq!(idle.check(later, paused), (late + IDLE, None));
    assert_eq!(
        idle.check(late + IDLE, paused),
        (late + IDLE, Some(IdleEnd::Idle))
    );
}

/// A watcher has no idle timeout but the longest watch from their last key; a stream from
/// its start, whatever arrives.
#[test]
fn watchers_and_streams_end_at_the_longest_watch() {
    let t0 = Instant::now();
    let max = crate::live::MAX_WATCH;
    let watching = Doing {
        watching_live: true,
        ..Doing::default()
    };
    let mut idle = Idleness::new(t0, false, IDLE);
    assert_eq!(idle.check(t0 + IDLE, watching), (t0 + max, None));
    let key = t0 + Duration::from_secs(30);
    idle.input(key);
    assert_eq!(
        idle.check(key + max, watching),
        (key + max, Some(IdleEnd::WatchLimit))
    );

    let mut stream = Idleness::new(t0, true, IDLE);
    stream.input(key);
    assert_eq!(
        stream.check(t0 + max - Duration::from_millis(1), menu()).1,
        None
    );
    assert_eq!(
        stream.check(t0 + max, menu()),
        (t0 + max, Some(IdleEnd::WatchLimit))
    );
}
