//! Where a reply goes: to the prober when it expects it, else to the session's garbage budget.

use super::prober::Prober;
use super::reply::Reply;
use crate::budget::InputGate;

/// Hands a reply to the prober when one runs and expects it (free); any other reply costs what
/// bytes that make no input cost ([`InputGate::spend_wasted`]), so a client that sends
/// replies nobody asked for gets no more than the garbage budget. Whether the prober took it.
pub fn route_reply(
    prober: Option<&mut Prober>,
    reply: &Reply,
    bytes: usize,
    gate: &mut InputGate,
    now: u64,
) -> bool {
    let taken = prober.is_some_and(|p| p.take(reply, now));
    if !taken {
        gate.spend_wasted(bytes, now);
    }
    taken
}
