//! # minotty-server
//!
//! The SSH game server (binary `minotty`): russh sessions on tokio, one task per player that
//! owns the terminal and the UI, and the store (`minotty-store`). The binary parses flags and sets
//! up logging; everything else is here so tests can start a server on `127.0.0.1:0` with
//! [`ssh::server::run`].
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

pub mod address;
pub mod boards;
pub mod budget;
pub mod cast;
pub mod cluster;
pub mod command_budget;
pub mod commands;
pub mod config;
pub mod core;
pub mod doctor;
pub mod host_key;
pub mod input;
pub mod live;
pub mod match_replays;
pub mod metrics;
pub mod probes;
pub mod reconnect;
pub mod redact;
pub mod resize;
pub mod services;
pub mod session;
pub mod shares;
pub mod ssh;
pub mod terminal;
pub mod versus;
pub mod work;

pub use config::Limits;
pub use core::{Core, ServerConfig, start};
pub use host_key::HostKey;
pub use ssh::server::{run, serve};

/// The SSH version string the server sends.
pub const SERVER_ID: &str = concat!("SSH-2.0-minotty_", env!("CARGO_PKG_VERSION"));
