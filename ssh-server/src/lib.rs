//! # minotty-server
//!
//! The SSH game server (binary `minotty`): russh sessions on tokio, one task per player that
//! owns the terminal and the UI, and a sqlx store. The binary parses flags and sets up logging;
//! everything else is here so tests can start a server on `127.0.0.1:0` with [`server::run`].
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

pub mod address;
pub mod arena;
pub mod boards;
pub mod budget;
pub mod cast;
pub mod cast_export;
pub mod cluster;
pub mod command_budget;
mod command_run;
pub mod config;
pub mod doctor;
pub mod exec;
pub mod handler;
pub mod host_key;
pub mod input;
pub mod limits;
pub mod live;
pub mod metrics;
mod outbox;
pub mod probes;
pub mod proxy_protocol;
pub mod reconnect;
pub mod refusal;
pub mod resize;
pub mod server;
pub mod services;
pub mod session;
pub mod socket;
pub mod spool;
pub mod store;
pub mod tbp;
pub mod terminal;
pub mod versus;
pub mod work;

pub use config::Limits;
pub use host_key::HostKey;
pub use server::{ServerConfig, run};
pub use store::Store;

/// The SSH version string the server sends.
pub const SERVER_ID: &str = concat!("SSH-2.0-minotty_", env!("CARGO_PKG_VERSION"));
