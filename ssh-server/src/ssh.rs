//! The SSH edge: the accept loop (`server`), which applies the connection limits (`limits`,
//! `socket`) and reads PROXY headers (`proxy_protocol`) before any cryptography, refuses with
//! a message (`refusal`), and runs each connection with the
//! russh handler (`handler`), which only translates SSH events into session events and exec
//! requests into commands (`crate::commands`).

pub mod handler;
pub mod limits;
pub mod proxy_protocol;
pub mod refusal;
pub mod server;
pub mod socket;
