//! Whether the server reaches what it depends on (the database, NATS), for `/health` and
//! `/metrics`. A dependency the server does not use is never counted; one it uses is up until
//! something finds it unreachable: the probes (`crate::probes`: a cheap query every few
//! seconds, the NATS client's connection state) and the real queries that fail (a login's
//! account look-up) report here, and each change is logged once.
//!
//! While the server serves and a dependency is unreachable, `/health` answers `200` with
//! `degraded: <reasons>`: every instance of a cluster shares the database and NATS, so a
//! balancer that took a degraded instance out of service would take them all out at once and
//! shut out even the guests and solo games that still work. Starting and draining stay `503`.
//!
//! The spool is the instance's own, not shared: an instance with a database but without a
//! spool (its directory held by another process, or not writable) is degraded too, `no spool`
//! (`minotty_spool_available 0`): every game and match the database does not take is then
//! only logged. It stays `200` all the same: it still serves and stores what the database
//! takes, and the usual cause (one spool directory given to several instances, or a volume
//! they share gone read-only) would otherwise take every instance out at once.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicU8, Ordering};

use super::Health;

/// What the server depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dependency {
    Database,
    Nats,
}

impl Dependency {
    const ALL: [Dependency; 2] = [Dependency::Database, Dependency::Nats];

    /// The label value in `/metrics`.
    fn label(self) -> &'static str {
        match self {
            Dependency::Database => "database",
            Dependency::Nats => "nats",
        }
    }

    /// What `/health` says while it is unreachable.
    fn reason(self) -> &'static str {
        match self {
            Dependency::Database => "database unreachable",
            Dependency::Nats => "NATS unreachable",
        }
    }
}

const UNUSED: u8 = 0;
const UP: u8 = 1;
const DOWN: u8 = 2;

/// The state of each dependency.
#[derive(Debug)]
pub struct Dependencies {
    database: AtomicU8,
    nats: AtomicU8,
    /// The spool: `UNUSED` (no database, or not known yet), `UP` (open), `DOWN` (none).
    spool: AtomicU8,
}

impl Default for Dependencies {
    fn default() -> Dependencies {
        Dependencies::new()
    }
}

impl Dependencies {
    /// Nothing used yet.
    pub const fn new() -> Dependencies {
        Dependencies {
            database: AtomicU8::new(UNUSED),
            nats: AtomicU8::new(UNUSED),
            spool: AtomicU8::new(UNUSED),
        }
    }

    /// The server stores into a database, with a spool (`available`) or without one.
    pub fn note_spool(&self, available: bool) {
        self.spool
            .store(if available { UP } else { DOWN }, Ordering::Relaxed);
    }

    fn cell(&self, dep: Dependency) -> &AtomicU8 {
        match dep {
            Dependency::Database => &self.database,
            Dependency::Nats => &self.nats,
        }
    }

    /// `dep` was found reachable (`up`) or not; `true` when it went down or came back (a
    /// dependency noted for the first time counts as used from then on; found up then, that
    /// is no change).
    pub fn note(&self, dep: Dependency, up: bool) -> bool {
        let was = self
            .cell(dep)
            .swap(if up { UP } else { DOWN }, Ordering::Relaxed);
        matches!((was, up), (DOWN, true) | (UP | UNUSED, false))
    }

    /// Whether `dep` is used and was last found unreachable.
    pub fn is_down(&self, dep: Dependency) -> bool {
        self.cell(dep).load(Ordering::Relaxed) == DOWN
    }

    /// The reasons the server is degraded, comma-separated; `None` when it is not.
    pub fn degraded(&self) -> Option<String> {
        let reasons: Vec<&str> = Dependency::ALL
            .into_iter()
            .filter(|&d| self.is_down(d))
            .map(Dependency::reason)
            .chain((self.spool.load(Ordering::Relaxed) == DOWN).then_some("no spool"))
            .collect();
        (!reasons.is_empty()).then(|| reasons.join(", "))
    }

    /// The `minotty_dependency_up` gauge: one line per dependency in use.
    pub fn render(&self, o: &mut String) {
        let _ = writeln!(
            o,
            "# HELP minotty_dependency_up 1 while the server reaches the dependency, 0 while \
             it does not (only dependencies in use are listed).\n\
             # TYPE minotty_dependency_up gauge"
        );
        for dep in Dependency::ALL {
            let state = self.cell(dep).load(Ordering::Relaxed);
            if state != UNUSED {
                let up = u8::from(state == UP);
                let _ = writeln!(
                    o,
                    "minotty_dependency_up{{dependency=\"{}\"}} {up}",
                    dep.label()
                );
            }
        }
        let spool = self.spool.load(Ordering::Relaxed);
        if spool != UNUSED {
            let _ = writeln!(
                o,
                "# HELP minotty_spool_available 1 while the spool takes what the database does \
                 not, 0 when this instance has none (it is then only logged).\n\
                 # TYPE minotty_spool_available gauge\n\
                 minotty_spool_available {}",
                u8::from(spool == UP)
            );
        }
    }

    /// What `/health` answers: the HTTP status and the body.
    pub fn health(&self, health: &Health) -> (u16, String) {
        if !health.is_serving() {
            return (503, format!("{}\n", health.word()));
        }
        match self.degraded() {
            Some(reasons) => (200, format!("degraded: {reasons}\n")),
            None => (200, format!("{}\n", health.word())),
        }
    }
}

/// The process's dependencies.
pub static DEPENDENCIES: Dependencies = Dependencies::new();

/// `dep` was found reachable (`up`) or not: logged when that changes.
pub fn note_dependency(dep: Dependency, up: bool) {
    if DEPENDENCIES.note(dep, up) {
        if up {
            tracing::info!(dependency = dep.label(), "reachable again");
        } else {
            tracing::warn!(
                dependency = dep.label(),
                "unreachable: /health says degraded"
            );
        }
    }
}

/// The server stores into a database with a spool (`available`) or without one: without,
/// `/health` says `degraded: no spool` and `minotty_spool_available` is 0.
pub fn note_spool(available: bool) {
    DEPENDENCIES.note_spool(available);
}

/// The server starts to use `dep` (it reached it at start): listed as up.
pub fn use_dependency(dep: Dependency) {
    let _ =
        DEPENDENCIES
            .cell(dep)
            .compare_exchange(UNUSED, UP, Ordering::Relaxed, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn health_says_degraded_with_the_reasons_and_recovers() {
        let health = Health::new();
        let deps = Dependencies::new();
        assert_eq!(deps.health(&health).0, 503);
        health.set_serving();
        assert_eq!(deps.health(&health), (200, "ok\n".to_owned()));
        assert!(
            !deps.note(Dependency::Database, true),
            "first use: up, no change"
        );
        assert!(!deps.note(Dependency::Database, true));
        assert!(deps.note(Dependency::Database, false));
        assert!(!deps.note(Dependency::Database, false), "logged once");
        assert_eq!(
            deps.health(&health),
            (200, "degraded: database unreachable\n".to_owned())
        );
        deps.note(Dependency::Nats, false);
        assert_eq!(
            deps.health(&health).1,
            "degraded: database unreachable, NATS unreachable\n"
        );
        let mut text = String::new();
        deps.render(&mut text);
        assert!(text.contains("minotty_dependency_up{dependency=\"database\"} 0"));
        assert!(text.contains("minotty_dependency_up{dependency=\"nats\"} 0"));
        assert!(deps.note(Dependency::Database, true));
        assert!(deps.note(Dependency::Nats, true));
        assert_eq!(deps.health(&health).1, "ok\n");
        // Draining is draining, degraded or not.
        deps.note(Dependency::Nats, false);
        health.set_draining();
        assert_eq!(deps.health(&health), (503, "draining\n".to_owned()));
    }

    /// An instance without a spool says so on `/health` and in `/metrics` (before, it said
    /// `ok` and showed nothing).
    #[test]
    fn an_instance_without_a_spool_is_degraded() {
        let health = Health::new();
        health.set_serving();
        let deps = Dependencies::new();
        let gauge = |deps: &Dependencies| {
            let mut text = String::new();
            deps.render(&mut text);
            text.lines()
                .find_map(|l| l.strip_prefix("minotty_spool_available "))
                .map(str::to_owned)
        };
        assert_eq!(gauge(&deps), None, "no store: no spool to speak of");
        deps.note_spool(true);
        assert_eq!(deps.health(&health), (200, "ok\n".to_owned()));
        assert_eq!(gauge(&deps).as_deref(), Some("1"));
        deps.note_spool(false);
        assert_eq!(
            deps.health(&health),
            (200, "degraded: no spool\n".to_owned())
        );
        assert_eq!(gauge(&deps).as_deref(), Some("0"));
        deps.note(Dependency::Database, false);
        assert_eq!(
            deps.health(&health).1,
            "degraded: database unreachable, no spool\n"
        );
    }

    #[test]
    fn only_dependencies_in_use_are_listed() {
        let deps = Dependencies::new();
        let mut text = String::new();
        deps.render(&mut text);
        assert!(!text.contains("dependency=\""), "{text}");
        deps.note(Dependency::Database, true);
        let mut text = String::new();
        deps.render(&mut text);
        assert!(text.contains("minotty_dependency_up{dependency=\"database\"} 1"));
        assert!(!text.contains("dependency=\"nats\""), "{text}");
    }
}
