//! The MVP messages on the wire, field for field as the specification writes them.

use minotty_tbp::msg::TbpCell;
use minotty_tbp::{
    BotMessage, FrontendMessage, Location, Move, Orientation, Start, TbpPiece, TbpSpin,
};
use serde_json::{Value, json};

fn frontend(v: Value) -> FrontendMessage {
    serde_json::from_value(v).expect("parses")
}

fn bot(v: Value) -> BotMessage {
    serde_json::from_value(v).expect("parses")
}

fn t_move() -> Move {
    Move {
        location: Location {
            kind: TbpPiece::T,
            orientation: Orientation::West,
            x: 3,
            y: 1,
        },
        spin: TbpSpin::Full,
    }
}

#[test]
fn frontend_messages_are_written_as_specified() {
    let mut board = vec![vec![None; 10]; 40];
    board[0][0] = Some(TbpCell::G);
    board[1][9] = Some(TbpCell::L);
    let start = Start {
        hold: None,
        queue: vec![TbpPiece::S, TbpPiece::Z, TbpPiece::O],
        combo: 2,
        back_to_back: true,
        board,
    };
    let table: Vec<(FrontendMessage, Value)> = vec![
        (FrontendMessage::Rules, json!({"type": "rules"})),
        (
            FrontendMessage::Garbage {
                rows: vec![
                    vec![Some(TbpCell::G); 9]
                        .into_iter()
                        .chain([None])
                        .collect(),
                ],
            },
            json!({"type": "garbage", "rows": [["G", "G", "G", "G", "G", "G", "G", "G", "G", null]]}),
        ),
        (FrontendMessage::Stop, json!({"type": "stop"})),
        (FrontendMessage::Suggest, json!({"type": "suggest"})),
        (FrontendMessage::Quit, json!({"type": "quit"})),
        (
            FrontendMessage::NewPiece { piece: TbpPiece::I },
            json!({"type": "new_piece", "piece": "I"}),
        ),
        (
            FrontendMessage::Play { mv: t_move() },
            json!({"type": "play", "move": {
                "location": {"type": "T", "orientation": "west", "x": 3, "y": 1},
                "spin": "full"
            }}),
        ),
    ];
    for (message, expected) in table {
        let line = message.to_line();
        assert!(!line.contains('\n'));
        assert_eq!(
            serde_json::from_str::<Value>(&line).expect("json"),
            expected
        );
        assert_eq!(frontend(expected), message);
    }
    let value: Value =
        serde_json::from_str(&FrontendMessage::Start(start.clone()).to_line()).expect("json");
    assert_eq!(value["type"], "start");
    assert_eq!(value["hold"], Value::Null);
    assert_eq!(value["queue"], json!(["S", "Z", "O"]));
    assert_eq!(value["combo"], 2);
    assert_eq!(value["back_to_back"], true);
    assert_eq!(value["board"].as_array().map(Vec::len), Some(40));
    assert_eq!(value["board"][0][0], "G");
    assert_eq!(value["board"][0][1], Value::Null);
    assert_eq!(value["board"][1][9], "L");
    assert_eq!(frontend(value), FrontendMessage::Start(start));
}

#[test]
fn bot_messages_are_written_as_specified() {
    let table: Vec<(BotMessage, Value)> = vec![
        (BotMessage::Ready, json!({"type": "ready"})),
        (
            BotMessage::Error {
                reason: String::from("unsupported_rules"),
            },
            json!({"type": "error", "reason": "unsupported_rules"}),
        ),
        (
            BotMessage::Info {
                name: String::from("Cold Clear"),
                version: String::from("Gen 14 proto 8"),
                author: String::from("SoRA_X7"),
                features: vec![],
            },
            json!({"type": "info", "name": "Cold Clear", "version": "Gen 14 proto 8",
                   "author": "SoRA_X7", "features": []}),
        ),
        (
            BotMessage::Suggestion {
                moves: vec![t_move()],
            },
            json!({"type": "suggestion", "moves": [{
                "location": {"type": "T", "orientation": "west", "x": 3, "y": 1},
                "spin": "full"
            }]}),
        ),
    ];
    for (message, expected) in table {
        assert_eq!(
            serde_json::from_str::<Value>(&message.to_line()).expect("json"),
            expected
        );
        assert_eq!(bot(expected), message);
    }
}

#[test]
fn unknown_types_and_attributes_are_ignored() {
    assert_eq!(
        frontend(json!({"type": "hello", "x": [1, 2]})),
        FrontendMessage::Unknown
    );
    assert_eq!(bot(json!({"type": "chatter"})), BotMessage::Unknown);
    // Extensions add attributes: the MVP reads past them.
    assert_eq!(
        frontend(json!({"type": "rules", "randomizer": "seven_bag"})),
        FrontendMessage::Rules
    );
    assert_eq!(
        frontend(json!({"type": "suggest", "extra": true})),
        FrontendMessage::Suggest
    );
    let with_move_info = json!({"type": "suggestion", "moves": [{
        "location": {"type": "T", "orientation": "west", "x": 3, "y": 1, "z": 0},
        "spin": "full"
    }], "move_info": {"nodes": 12}});
    assert_eq!(
        bot(with_move_info),
        BotMessage::Suggestion {
            moves: vec![t_move()]
        }
    );
}

#[test]
fn malformed_messages_are_errors() {
    for text in [
        "not json",
        "{}",
        r#"{"type": "suggestion"}"#,
        r#"{"type": "suggestion", "moves": [{"location": {"type": "Q", "orientation": "north", "x": 1, "y": 1}, "spin": "none"}]}"#,
        r#"{"type": "suggestion", "moves": [{"location": {"type": "T", "orientation": "up", "x": 1, "y": 1}, "spin": "none"}]}"#,
        r#"{"type": "suggestion", "moves": [{"location": {"type": "T", "orientation": "north", "x": 1e99, "y": 1}, "spin": "none"}]}"#,
        r#"{"type": "info", "name": "x"}"#,
    ] {
        assert!(
            serde_json::from_str::<BotMessage>(text).is_err(),
            "{text} should not parse"
        );
    }
}

#[test]
fn rules_say_general_garbage_only_to_a_bot_that_takes_it() {
    let with: Value = serde_json::from_str(&FrontendMessage::rules_line(true)).expect("json");
    assert_eq!(with, json!({"type": "rules", "garbage": "general"}));
    let without: Value = serde_json::from_str(&FrontendMessage::rules_line(false)).expect("json");
    assert_eq!(without, json!({"type": "rules"}));
}
