//! One exec command admitted by the handler (`command_budget.rs`), run on its own task: a cast
//! export streamed to the channel (`cast_export.rs`), or any other command's output sent
//! whole (`exec.rs`); then the exit status, EOF and close. A cast export cancelled (its channel
//! closed: the client left) sends nothing more.

use std::sync::Arc;

use minotty_domain::{ClientAddr, PlayerId};
use russh::ChannelId;
use russh::server::Handle;
use tokio_util::sync::CancellationToken;

use super::cast_export::{Requester, Tuning, export};
use super::exec::{self, Outcome};
use super::parse::Command;
use crate::command_budget::{
    CommandBudgets, CommandLimits, ConnectionCommands, ExportSlot, Refused,
};

use crate::services::SharedServices;
use minotty_store::Store;

/// Admits the command `command` of the connection `conn` at `peer` (its token, and its
/// address's), and for a cast export the connection's one export slot (the address's export
/// budget is spent once the export is allowed, in `cast_export.rs`).
pub(crate) fn admit(
    budgets: &CommandBudgets,
    conn: &mut ConnectionCommands,
    peer: ClientAddr,
    limits: &CommandLimits,
    command: &Command,
) -> Result<Option<ExportSlot>, Refused> {
    let now = budgets.now_ms();
    budgets.admit(conn, peer, limits, now)?;
    match command {
        Command::Replay(_) => budgets.begin_export(conn).map(Some),
        _ => Ok(None),
    }
}

/// Who asks, on which channel: what a command takes from its connection.
#[derive(Debug)]
pub(crate) struct Caller {
    pub handle: Handle,
    pub channel: ChannelId,
    /// The client asked for a PTY: line ends are CR LF.
    pub pty: bool,
    /// The account of the connection's key.
    pub account: Option<PlayerId>,
    pub peer: ClientAddr,
    /// The address the player connected to, for the commands `help` shows (`address.rs`).
    pub local: Option<std::net::SocketAddr>,
    /// The web pages' address as this player reaches them (`address::web_base`).
    pub web: Option<String>,
}

/// What the command needs, taken from the connection and the services.
#[derive(Debug)]
pub(crate) struct CommandRun {
    pub handle: Handle,
    pub channel: ChannelId,
    /// The client asked for a PTY: line ends are CR LF.
    pub pty: bool,
    /// The exec request, parsed.
    pub command: Command,
    pub store: Option<Store>,
    /// The live sessions of keys and linked browsers (`web --end` ends the browsers' games).
    pub live: Arc<crate::services::account::LiveKeys>,
    /// The account of the connection's key.
    pub caller: Option<PlayerId>,
    pub peer: ClientAddr,
    /// The address the player connected to, for the commands `help` shows (`address.rs`).
    pub local: Option<std::net::SocketAddr>,
    pub web: Option<String>,
    pub budgets: Arc<CommandBudgets>,
    pub limits: CommandLimits,
    /// The connection's export slot, when the command is `replay`.
    pub export: Option<ExportSlot>,
    /// Cancelled when the channel closes or the connection ends.
    pub cancel: CancellationToken,
}

/// The run of `command` for `caller`, once the connection's and the address's budgets
/// (`services`' `command_budget.rs` buckets, `conn`'s) admit it; refused: the one line that says
/// how long to wait, as the reply.
pub(crate) fn prepare(
    services: &SharedServices,
    limits: CommandLimits,
    conn: &mut ConnectionCommands,
    command: Command,
    caller: Caller,
) -> Result<CommandRun, (Refused, Outcome)> {
    let budgets = &services.account.commands;
    let export = admit(budgets, conn, caller.peer, &limits, &command)
        .map_err(|refused| (refused, Outcome::fail(refused.message())))?;
    Ok(CommandRun {
        handle: caller.handle,
        channel: caller.channel,
        pty: caller.pty,
        command,
        store: services.account.store().cloned(),
        live: Arc::clone(services.account.live_keys()),
        caller: caller.account,
        peer: caller.peer,
        local: caller.local,
        web: caller.web,
        budgets: Arc::clone(budgets),
        limits,
        export,
        cancel: CancellationToken::new(),
    })
}

impl CommandRun {
    pub(crate) async fn run(self) {
        let CommandRun {
            handle,
            channel,
            pty,
            command,
            store,
            live,
            caller,
            peer,
            local,
            web,
            budgets,
            limits,
            export: slot,
            cancel,
        } = self;
        let outcome = match (command, slot) {
            (Command::Replay(Err(message)), Some(slot)) => {
                drop(slot);
                Some(Outcome::fail(message))
            }
            (Command::Replay(Ok(args)), Some(slot)) => {
                let write = |chunk: Vec<u8>| {
                    let handle = handle.clone();
                    async move {
                        let data = if pty { crlf(chunk) } else { chunk };
                        handle.data(channel, data).await.is_ok()
                    }
                };
                let requester = Requester {
                    caller,
                    address: peer,
                    budget: || budgets.take_export(peer, &limits, budgets.now_ms()),
                };
                let done = export(
                    args,
                    store.as_ref(),
                    requester,
                    cancel,
                    Tuning::default(),
                    write,
                )
                .await;
                drop(slot);
                match done {
                    Ok(e) if e.cancelled => None,
                    Ok(_) => Some(Outcome::ok(String::new())),
                    Err(outcome) => Some(outcome),
                }
            }
            (Command::Web(Ok(end)), _) => {
                let to = super::web_link::To {
                    web: web.as_deref(),
                    local,
                };
                Some(super::web_link::run(store.as_ref(), &live, caller, end, to).await)
            }
            (command, _) => Some(exec::dispatch(&command, store.as_ref(), local).await),
        };
        if let Some(outcome) = outcome {
            exec::send(&handle, channel, outcome, pty).await;
        }
    }
}

/// Line ends as a terminal in raw mode wants them (a client that asked for a PTY).
fn crlf(chunk: Vec<u8>) -> Vec<u8> {
    let mut out = Vec::with_capacity(chunk.len() + chunk.len() / 16);
    for b in chunk {
        if b == b'\n' {
            out.push(b'\r');
        }
        out.push(b);
    }
    out
}
