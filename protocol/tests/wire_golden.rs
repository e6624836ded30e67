//! The cluster's wire form of the protocol, pinned: instances of different versions relay
//! these messages to each other over NATS as JSON, so a sample of every serde type and every
//! variant must keep encoding to exactly these bytes (and decode back to the same value).

use minotty_engine::versus::MatchKind;
use minotty_engine::{Game, GameConfig, Mode, ModeKind, Replay};
use minotty_protocol::{
    BoardSnapshot, MatchResult, MatchStart, OpenRoomEntry, OpponentView, Progress, Report,
    ResultRow, RoomLimit, RoomSettings, RoomState, RoomView, SeatView,
};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// `value` encodes to `golden` and `golden` decodes back to `value`.
fn pinned<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(value: &T, golden: &str) {
    let json = serde_json::to_string(value).expect("encodes");
    assert_eq!(json, golden);
    let back: T = serde_json::from_str(golden).expect("decodes");
    assert_eq!(&back, value);
}

fn board() -> BoardSnapshot {
    let mut rows = vec![[0u8; 10]; 20];
    rows[18] = [8, 8, 8, 8, 0, 8, 8, 8, 8, 8];
    rows[19] = [1, 2, 3, 4, 5, 6, 7, 8, 0, 8];
    BoardSnapshot { rows }
}

fn progress() -> Progress {
    Progress {
        lines: 12,
        pieces: 34,
        attack_sent: 5,
        garbage_received: 6,
        time_ms: 78_901,
        pending_garbage: 2,
        hold: 3,
        next: [1, 2, 3, 4, 5],
        lives: 0,
    }
}

/// A fresh sprint game's replay under version 2 of `standard` (the version the pin was taken
/// at: the wire form is pinned, not which version new games play), its mode 40 lines' preset
/// of then (whose level rose).
fn replay() -> Replay {
    let config = GameConfig {
        mode: ModeKind::Sprint.preset_at(2),
        ..GameConfig::default()
    };
    Game::of_version(config, 1234, 2)
        .expect("version 2 plays")
        .replay()
}

fn options() -> RoomSettings {
    RoomSettings::new(MatchKind::Battle, 4, RoomLimit::Lines(40))
}

fn seat(name: &str, bot: Option<u8>) -> SeatView {
    SeatView {
        team: None,
        name: name.into(),
        ready: true,
        host: bot.is_none(),
        connected: true,
        rating: Some(1512),
        bot,
    }
}

fn opponent() -> OpponentView {
    OpponentView {
        seat: 1,
        name: "bob".into(),
        board: board(),
        progress: progress(),
        alive: true,
        place: Some(2),
        kos: 1,
        target: Some(0),
    }
}

fn result_row() -> ResultRow {
    ResultRow {
        seat: 0,
        name: "ada".into(),
        place: 1,
        kos: 2,
        attack_per_minute: 41.5,
        pieces_per_second: 2.25,
        lines: 40,
        attack_sent: 30,
        garbage_received: 9,
        forfeited: false,
        rating: Some((1500.0, 1516.25)),
        time_ms: 61_234,
        pieces: 101,
    }
}

const BOARD: &str = "\"00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000088880888881234567808\"";

#[test]
fn room_options_and_every_limit() {
    pinned(&RoomLimit::None, r#""None""#);
    pinned(&RoomLimit::Lines(40), r#"{"Lines":40}"#);
    pinned(&RoomLimit::Seconds(120), r#"{"Seconds":120}"#);
    pinned(
        &options(),
        r#"{"kind":"Battle","max_players":4,"limit":{"Lines":40}}"#,
    );
    pinned(
        &RoomSettings::new(MatchKind::Race, 2, RoomLimit::None),
        r#"{"kind":"Race","max_players":2,"limit":"None"}"#,
    );
}

#[test]
fn boards_and_progress() {
    pinned(&board(), BOARD);
    pinned(&BoardSnapshot { rows: vec![] }, r#""""#);
    pinned(
        &progress(),
        r#"{"lines":12,"pieces":34,"attack_sent":5,"garbage_received":6,"time_ms":78901,"pending_garbage":2,"hold":3,"next":[1,2,3,4,5]}"#,
    );
}

#[test]
fn every_report() {
    let p = r#"{"lines":12,"pieces":34,"attack_sent":5,"garbage_received":6,"time_ms":78901,"pending_garbage":2,"hold":3,"next":[1,2,3,4,5]}"#;
    pinned(&Report::Attack { lines: 4 }, r#"{"Attack":{"lines":4}}"#);
    pinned(&Report::Board(board()), &format!(r#"{{"Board":{BOARD}}}"#));
    pinned(
        &Report::Progress(progress()),
        &format!(r#"{{"Progress":{p}}}"#),
    );
    pinned(
        &Report::Finished {
            won: true,
            progress: progress(),
        },
        &format!(r#"{{"Finished":{{"won":true,"progress":{p}}}}}"#),
    );
    pinned(
        &Report::Forfeited {
            progress: progress(),
        },
        &format!(r#"{{"Forfeited":{{"progress":{p}}}}}"#),
    );
    pinned(
        &Report::Replay(Box::new(replay())),
        &format!(r#"{{"Replay":{}}}"#, REPLAY),
    );
}

/// A fresh sprint game's replay (the engine pins its own serde form; this is it inside a report).
const REPLAY: &str = r#"{"ruleset":"Standard","version":2,"mode":{"kind":"Sprint","start_level":0,"level_increase":true,"gravity":"Levels","limits":[{"stat":"Lines","value":40,"win":true}],"start_board":"Empty","end_on_no_clear":false},"seed":1234,"handling":{"das":150,"arr":50,"sdf":10},"tuning":{"rotation":null,"generator":null,"lock_delay":null,"ground_cap":null,"line_clear_delay":null,"appearance_delay":null,"hard_drop_delay":null,"no_soft_drop_lock":false},"inputs":[],"end":0}"#;

#[test]
fn rooms_and_every_state() {
    pinned(&RoomState::Lobby, r#""Lobby""#);
    pinned(&RoomState::Playing, r#""Playing""#);
    pinned(&RoomState::Results, r#""Results""#);
    pinned(
        &RoomView {
            code: "K7PQ".into(),
            options: options(),
            seats: vec![seat("ada", None), seat("bot 3", Some(3))],
            spectators: 2,
            you: Some(0),
            host: true,
            state: RoomState::Lobby,
            ranked: false,
            listed: true,
            tbp_bots: vec!["cold-clear".into()],
        },
        r#"{"code":"K7PQ","options":{"kind":"Battle","max_players":4,"limit":{"Lines":40}},"seats":[{"name":"ada","ready":true,"host":true,"connected":true,"rating":1512,"bot":null},{"name":"bot 3","ready":true,"host":false,"connected":true,"rating":1512,"bot":3}],"spectators":2,"you":0,"host":true,"state":"Lobby","ranked":false,"listed":true,"tbp_bots":["cold-clear"]}"#,
    );
    pinned(
        &OpenRoomEntry {
            code: "K7PQ".into(),
            host: "ada".into(),
            kind: MatchKind::Race,
            players: 1,
            seats: 4,
        },
        r#"{"code":"K7PQ","host":"ada","kind":"Race","players":1,"seats":4}"#,
    );
}

#[test]
fn a_match_from_start_to_results() {
    pinned(
        &MatchStart {
            teams: Vec::new(),
            kind: MatchKind::Battle,
            mode: Mode::custom(0, true, None),
            seed: 99,
            players: vec!["ada".into(), "bob".into()],
            you: None,
            countdown_ms: 3000,
            ranked: true,
            game: Default::default(),
        },
        r#"{"kind":"Battle","mode":{"kind":"Custom","start_level":0,"level_increase":true,"gravity":"Levels","limits":[],"start_board":"Empty","end_on_no_clear":false},"seed":99,"players":["ada","bob"],"you":null,"countdown_ms":3000,"ranked":true}"#,
    );
    pinned(
        &opponent(),
        r#"{"seat":1,"name":"bob","board":"00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000088880888881234567808","progress":{"lines":12,"pieces":34,"attack_sent":5,"garbage_received":6,"time_ms":78901,"pending_garbage":2,"hold":3,"next":[1,2,3,4,5]},"alive":true,"place":2,"kos":1,"target":0}"#,
    );
    pinned(
        &MatchResult {
            teams: Vec::new(),
            kind: MatchKind::Race,
            rows: vec![
                result_row(),
                ResultRow {
                    forfeited: true,
                    rating: None,
                    ..result_row()
                },
            ],
            you: Some(0),
            ranked: false,
            series: None,
        },
        r#"{"kind":"Race","rows":[{"seat":0,"name":"ada","place":1,"kos":2,"attack_per_minute":41.5,"pieces_per_second":2.25,"lines":40,"attack_sent":30,"garbage_received":9,"forfeited":false,"rating":[1500.0,1516.25],"time_ms":61234,"pieces":101},{"seat":0,"name":"ada","place":1,"kos":2,"attack_per_minute":41.5,"pieces_per_second":2.25,"lines":40,"attack_sent":30,"garbage_received":9,"forfeited":true,"rating":null,"time_ms":61234,"pieces":101}],"you":0,"ranked":false}"#,
    );
}

/// Messages from instances that predate a field still decode, with the field's default.
#[test]
fn older_instances_fields_default() {
    let old_progress = r#"{"lines":1,"pieces":2,"attack_sent":3,"garbage_received":4,"time_ms":5,"pending_garbage":6}"#;
    let p: Progress = serde_json::from_str(old_progress).expect("decodes");
    assert_eq!((p.hold, p.next), (0, [0; 5]));
    let old_row = r#"{"seat":0,"name":"ada","place":1,"kos":0,"attack_per_minute":1.0,"pieces_per_second":1.0,"lines":0,"attack_sent":0,"garbage_received":0,"forfeited":false,"rating":null}"#;
    let r: ResultRow = serde_json::from_str(old_row).expect("decodes");
    assert_eq!((r.time_ms, r.pieces), (0, 0));
}

/// A room's view relayed by a peer instance: settings out of the rooms' bounds are clamped as
/// they are read (a peer's word is never believed), settings that are not settings refuse the
/// whole message.
#[test]
fn a_peers_room_settings_are_clamped_or_refused() {
    let view = |options: &str| {
        format!(
            r#"{{"code":"K7PQ","options":{options},"seats":[],"spectators":0,"you":null,"host":false,"state":"Lobby","ranked":false,"tbp_bots":[]}}"#
        )
    };
    let read: RoomView = serde_json::from_str(&view(
        r#"{"kind":"Battle","max_players":40,"limit":{"Seconds":1}}"#,
    ))
    .expect("clamped, not refused");
    assert_eq!(
        read.options,
        RoomSettings::new(MatchKind::Battle, 8, RoomLimit::Seconds(10))
    );
    assert_eq!(
        (read.options.max_players(), read.options.limit()),
        (8, RoomLimit::Seconds(10))
    );
    let race: RoomView = serde_json::from_str(&view(
        r#"{"kind":"Race","max_players":1,"limit":{"Lines":99999}}"#,
    ))
    .expect("clamped, not refused");
    assert_eq!(
        (race.options.max_players(), race.options.limit()),
        (2, RoomLimit::None)
    );
    for options in [
        r#"{"kind":"Battle","max_players":999,"limit":"None"}"#,
        r#"{"kind":"Chaos","max_players":2,"limit":"None"}"#,
        r#"{"kind":"Battle","max_players":2,"limit":{"Lines":"40; DROP TABLE matches"}}"#,
    ] {
        assert!(
            serde_json::from_str::<RoomView>(&view(options)).is_err(),
            "{options} was read"
        );
    }
}
