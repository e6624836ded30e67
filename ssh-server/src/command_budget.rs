//! Budgets of exec commands (`ssh HOST leaderboard`, `replay ID --cast`, `help`, ...): token
//! buckets ([`crate::budget::TokenBucket`]) per connection and per client address (IPv4
//! address, IPv6 /64), and for cast exports one at a time per connection and a bucket of their
//! own per address. A command past its budget is refused with one line saying how long to
//! wait, before it reads anything from the database.
//!
//! Architecture Invariant: time comes in as the caller's milliseconds ([`CommandBudgets::now_ms`]
//! in the server), so the budgets are tested exactly.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use minotty_domain::{AddressKey, ClientAddr, TokenBucket};

/// The budgets, as configured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommandLimits {
    /// Commands per address: a burst, then this many a minute (`--command-burst`,
    /// `--commands-per-minute`).
    pub burst: u32,
    pub per_minute: u32,
    /// Cast exports per address: a burst, then this many a minute (`--cast-export-burst`,
    /// `--cast-exports-per-minute`).
    pub export_burst: u32,
    pub exports_per_minute: u32,
}

impl Default for CommandLimits {
    fn default() -> CommandLimits {
        CommandLimits {
            burst: 20,
            per_minute: 30,
            export_burst: 3,
            exports_per_minute: 1,
        }
    }
}

/// One connection's commands: a burst of at most this many (and its address's)...
pub const CONNECTION_BURST: u32 = 10;
/// ...then at most this many a minute (and its address's).
pub const CONNECTION_PER_MINUTE: u32 = 20;

/// Addresses whose budgets are remembered; past this, addresses with full buckets are
/// forgotten first, and when none is, commands of new addresses are refused.
const MAX_ADDRESSES: usize = 65_536;

/// Why a command was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The connection spent its budget; a token comes back in `wait_ms` (0: never).
    Connection { wait_ms: u64 },
    /// The address spent its budget.
    Address { wait_ms: u64 },
    /// A cast export runs on this connection already.
    ExportRunning,
    /// The address spent its exports.
    Exports { wait_ms: u64 },
}

impl Refused {
    /// The line the client reads (on stderr, with exit status 1).
    pub fn message(self) -> String {
        let wait = |ms: u64| match ms {
            0 => "later".to_owned(),
            ms => format!("in {} s", ms.div_ceil(1000)),
        };
        match self {
            Refused::Connection { wait_ms } => format!(
                "too many commands on this connection; try again {}",
                wait(wait_ms)
            ),
            Refused::Address { wait_ms } => format!(
                "too many commands from your address; try again {}",
                wait(wait_ms)
            ),
            Refused::ExportRunning => {
                "a replay export is already running on this connection: one at a time".to_owned()
            }
            Refused::Exports { wait_ms } => format!(
                "too many replay exports from your address; try again {}",
                wait(wait_ms)
            ),
        }
    }
}

#[derive(Debug)]
struct AddressBudget {
    commands: TokenBucket,
    exports: TokenBucket,
}

/// The budgets of every address, shared by all connections.
#[derive(Debug)]
pub struct CommandBudgets {
    born: Instant,
    addresses: Mutex<HashMap<AddressKey, AddressBudget>>,
    admitted: AtomicU64,
    refused: AtomicU64,
}

impl Default for CommandBudgets {
    fn default() -> CommandBudgets {
        CommandBudgets {
            born: Instant::now(),
            addresses: Mutex::default(),
            admitted: AtomicU64::new(0),
            refused: AtomicU64::new(0),
        }
    }
}

/// One connection's side: its bucket (made with its first command) and whether a cast export
/// runs.
#[derive(Debug, Default)]
pub struct ConnectionCommands {
    bucket: Option<TokenBucket>,
    exporting: Arc<AtomicBool>,
}

/// The connection's one export, running until this drops.
#[derive(Debug)]
pub struct ExportSlot(Arc<AtomicBool>);

impl Drop for ExportSlot {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

impl CommandBudgets {
    /// Milliseconds since the budgets were made: the clock of [`CommandBudgets::admit`].
    pub fn now_ms(&self) -> u64 {
        u64::try_from(self.born.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Commands admitted and refused so far.
    pub fn counts(&self) -> (u64, u64) {
        (
            self.admitted.load(Ordering::Relaxed),
            self.refused.load(Ordering::Relaxed),
        )
    }

    /// Runs `f` on `ip`'s budget (made full at `now_ms` when new); `None` when the map is full
    /// of addresses that all have spent something.
    fn with_address<T>(
        &self,
        ip: ClientAddr,
        limits: &CommandLimits,
        now_ms: u64,
        f: impl FnOnce(&mut AddressBudget) -> T,
    ) -> Option<T> {
        let key = ip.key();
        let mut map = self
            .addresses
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if map.len() >= MAX_ADDRESSES && !map.contains_key(&key) {
            // An address whose buckets are full again is no different from a new one.
            map.retain(|_, b| !b.commands.is_full(now_ms) || !b.exports.is_full(now_ms));
            if map.len() >= MAX_ADDRESSES {
                return None;
            }
        }
        let budget = map.entry(key).or_insert_with(|| AddressBudget {
            commands: TokenBucket::per_minute(limits.burst, limits.per_minute, now_ms),
            exports: TokenBucket::per_minute(
                limits.export_burst,
                limits.exports_per_minute,
                now_ms,
            ),
        });
        Some(f(budget))
    }

    /// Takes a command's token from the connection `conn` and its address `ip`, both or
    /// neither.
    pub fn admit(
        &self,
        conn: &mut ConnectionCommands,
        ip: ClientAddr,
        limits: &CommandLimits,
        now_ms: u64,
    ) -> Result<(), Refused> {
        let verdict = self.decide(conn, ip, limits, now_ms);
        let counter = if verdict.is_ok() {
            &self.admitted
        } else {
            &self.refused
        };
        counter.fetch_add(1, Ordering::Relaxed);
        verdict
    }

    fn decide(
        &self,
        conn: &mut ConnectionCommands,
        ip: ClientAddr,
        limits: &CommandLimits,
        now_ms: u64,
    ) -> Result<(), Refused> {
        let bucket = conn.bucket.get_or_insert_with(|| {
            TokenBucket::per_minute(
                CONNECTION_BURST.min(limits.burst),
                CONNECTION_PER_MINUTE.min(limits.per_minute),
                now_ms,
            )
        });
        if bucket.available(now_ms) == 0 {
            return Err(Refused::Connection {
                wait_ms: bucket.wait_ms(now_ms),
            });
        }
        let taken = self.with_address(ip, limits, now_ms, |b| {
            if b.commands.try_take(now_ms) {
                Ok(())
            } else {
                Err(Refused::Address {
                    wait_ms: b.commands.wait_ms(now_ms),
                })
            }
        });
        match taken {
            Some(Ok(())) => {
                bucket.try_take(now_ms);
                Ok(())
            }
            Some(Err(refused)) => Err(refused),
            None => Err(Refused::Address { wait_ms: 0 }),
        }
    }

    /// The connection's one cast export: refused while one runs on it.
    pub fn begin_export(&self, conn: &ConnectionCommands) -> Result<ExportSlot, Refused> {
        if conn.exporting.swap(true, Ordering::AcqRel) {
            self.refused.fetch_add(1, Ordering::Relaxed);
            return Err(Refused::ExportRunning);
        }
        Ok(ExportSlot(Arc::clone(&conn.exporting)))
    }

    /// Takes an export's token from the address `ip` (once the export is allowed, before the
    /// replay is read).
    pub fn take_export(
        &self,
        ip: ClientAddr,
        limits: &CommandLimits,
        now_ms: u64,
    ) -> Result<(), Refused> {
        let taken = self.with_address(ip, limits, now_ms, |b| {
            if b.exports.try_take(now_ms) {
                Ok(())
            } else {
                Err(Refused::Exports {
                    wait_ms: b.exports.wait_ms(now_ms),
                })
            }
        });
        let verdict = taken.unwrap_or(Err(Refused::Exports { wait_ms: 0 }));
        if verdict.is_err() {
            self.refused.fetch_add(1, Ordering::Relaxed);
        }
        verdict
    }
}

#[cfg(test)]
#[path = "command_budget_tests.rs"]
mod tests;
