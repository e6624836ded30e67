//! The terminal doctor's server side: the questions the session sends through the player's PTY,
//! the parsing of their replies out of the input stream ([`parse_reply`], used by
//! `input.rs`), and [`Prober`], the state machine that asks, waits (every question has a
//! deadline) and fills in a [`DoctorReport`](minotty_ui::doctor::DoctorReport) for the UI.
//!
//! Every stage ends with a primary device attributes query (`CSI c`), which every terminal
//! answers, and terminals answer in order: when its reply arrives, whatever the stage asked and
//! got no reply to has no answer, without waiting out the deadline. A stage that times out
//! leaves its sentinel and position reports outstanding; when they come late they are eaten
//! (counted), never taken for the next stage's answers.
//!
//! Replies are bounded like any input: the decoder drops a sequence longer than
//! `input::MAX_PENDING`, and a reply no stage expects is charged to the session's garbage
//! budget (`Prober::take` says which were expected).
//!
//! - `reply.rs`: the replies and their parsing ([`parse_reply`], [`printable`]);
//! - `client.rs`: [`ClientInfo`], what the server knows before asking;
//! - `prober.rs`: [`Prober`], the questions and their stages;
//! - `route.rs`: [`route_reply`], a reply to the prober or to the garbage budget;
//! - `plain.rs`: [`plain_report`], the report without a PTY.

mod client;
mod plain;
mod prober;
mod reply;
mod route;

pub use client::ClientInfo;
pub use plain::plain_report;
pub use prober::{Prober, RGB_PROBE, RTT_SAMPLES};
pub use reply::{MAX_TEXT, Reply, carries_rgb, parse_reply, printable};
pub use route::route_reply;

#[cfg(test)]
mod tests;
