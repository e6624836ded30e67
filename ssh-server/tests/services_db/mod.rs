//! A session's services over a throwaway database (from `store_db`), without SSH: the shared
//! services with a game writer, a login, the next answer, a real 40 lines game. One setup for
//! the test files that talk to `Services` as the session task does.

#![allow(dead_code)]

use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;

use minotty_bots::autoplay;
use minotty_domain::AccountRef;
use minotty_domain::KeyFingerprint;
use minotty_engine::{Game, GameConfig, ModeKind};
use minotty_server::services::account::SharedAccounts;
use minotty_server::services::{Login, Services, SharedServices};
use minotty_store::{GameWriter, Store, WriterConfig};
use minotty_ui::FinishedGame;
use minotty_ui::{Request, Response};
use tokio::sync::mpsc;

pub const KEY1: &str = "SHA256:0000000000000000000000000000000000000000001";
pub const KEY2: &str = "SHA256:0000000000000000000000000000000000000000002";

/// The services every session shares: accounts over `store`, with a game writer.
pub fn shared(store: &Store) -> SharedServices {
    let (writer, _task) = GameWriter::spawn(store.clone(), WriterConfig::default());
    SharedServices {
        account: SharedAccounts::new(Some(store.clone()), Some(writer)),
        ..SharedServices::default()
    }
}

/// ada logging in from loopback, with an Ed25519 key `fingerprint` (or none).
pub fn login(fingerprint: Option<&str>, account: Option<AccountRef>) -> Login {
    Login {
        ssh_user: "ada".into(),
        identity: minotty_server::services::Identity::of_key(
            fingerprint.map(|f| KeyFingerprint::parse(f).expect("a fingerprint")),
            "ssh-ed25519",
        ),
        peer: IpAddr::V4(Ipv4Addr::LOCALHOST).into(),
        account,
    }
}

/// The next answer, waited for generously.
pub async fn next(rx: &mut mpsc::Receiver<Response>) -> Response {
    tokio::time::timeout(Duration::from_secs(10), rx.recv())
        .await
        .expect("an answer in time")
        .expect("the channel is open")
}

/// Sends `request` and waits for the next answer.
pub async fn ask(
    s: &mut Services,
    rx: &mut mpsc::Receiver<Response>,
    request: Request,
) -> Response {
    s.handle(request);
    next(rx).await
}

/// A real 40 lines game of `seed`, played to the goal by the engine's bot.
pub fn forty_lines(seed: u32) -> FinishedGame {
    let mut game = Game::new(
        GameConfig {
            mode: ModeKind::Sprint.mode(),
            ..GameConfig::default()
        },
        seed,
    );
    autoplay(&mut game, 400, 200);
    let (reason, won) = game.outcome().expect("the game ended");
    assert!(won, "the bot clears 40 lines");
    FinishedGame {
        kind: ModeKind::Sprint,
        replay: game.replay(),
        stats: *game.stats(),
        reason,
        won,
    }
}
