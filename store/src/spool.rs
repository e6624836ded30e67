//! The spool: games and versus matches that the database did not take, kept in local files
//! until it does.
//!
//! The game writer and the match recorder put a record here when they give up on it for good,
//! and at shutdown for everything still queued (with the database down, shutdown does not wait
//! for retries that cannot succeed). At start, and every [`REPLAY_EVERY`] while records wait,
//! [`Spool::replay`] stores each record and deletes its file.
//!
//! - One file per record ([`format`]: a versioned header with the body's length and SHA-256),
//!   written to a temporary name, fsynced, renamed into place and the directory fsynced: a
//!   crash leaves either the whole record or a temporary file, which the next start moves
//!   aside. A file that does not decode is moved aside (`aside/`) and logged, never retried.
//! - Bounded: at most [`SpoolLimits::max_records`] files and [`SpoolLimits::max_bytes`]
//!   bytes. A record beyond the bound is refused with an error line and
//!   [`StoreObserver::spool_full`]; its writer then logs it whole (a game with its replay in hex).
//! - Stored once: a record that was stored but not yet deleted (a crash between the two) is
//!   found by its natural key ([`crate::Store::stored_game`], `stored_match`) and only
//!   deleted.
//!
//! One spool directory belongs to one process at a time (the default is beside the host key,
//! which is one instance's own): [`Spool::open`] takes an exclusive lock on its `lock` file and
//! refuses a directory another process holds, so two instances never store one record twice.
//!
//! What the spool does (records waiting, spooled, refused, replayed, set aside) it tells the
//! [`StoreObserver`] it was opened with ([`Spool::open_observed`]).

mod fallback;
pub mod format;
mod replay;
#[cfg(test)]
mod shutdown_tests;
#[cfg(test)]
pub(crate) mod tests;

use std::fs::{self, File, OpenOptions};
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub use fallback::{Fallback, Retries, STOP_PATIENCE};
pub use format::Record;
pub use replay::{Replayed, run_replays};

use crate::{StoreObserver, Unobserved};

/// How often records waiting in the spool are tried again while the server runs.
pub const REPLAY_EVERY: Duration = Duration::from_secs(60);

/// Files of the spool end so; temporary ones start with [`TEMP_PREFIX`].
const EXTENSION: &str = "spool";
const TEMP_PREFIX: &str = ".tmp-";
/// Where records that cannot be read or stored go (inside the spool directory).
const ASIDE: &str = "aside";
/// The file whose lock says which process owns the directory.
const LOCK: &str = "lock";
/// The file [`Spool::open`] writes and removes to find that the directory takes files.
const PROBE: &str = "probe";

/// The bounds of a spool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpoolLimits {
    pub max_records: usize,
    pub max_bytes: u64,
}

impl Default for SpoolLimits {
    /// 10,000 records and 256 MiB (a game's record is a few KiB, a long one a few hundred).
    fn default() -> SpoolLimits {
        SpoolLimits {
            max_records: 10_000,
            max_bytes: 256 << 20,
        }
    }
}

/// Why a record was not spooled.
#[derive(Debug, thiserror::Error)]
pub enum SpoolError {
    #[error(
        "the spool is full ({records} records, {bytes} bytes; at most {max_records}, {max_bytes})"
    )]
    Full {
        records: usize,
        bytes: u64,
        max_records: usize,
        max_bytes: u64,
    },
    #[error("encoding the record: {0}")]
    Encode(#[from] serde_json::Error),
    #[error("{path}: {error}")]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("a blocking task failed: {0}")]
    Task(String),
    #[error("{0}: another process uses this spool (each instance needs its own --spool-dir)")]
    Taken(PathBuf),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> SpoolError + '_ {
    move |error| SpoolError::Io {
        path: path.to_owned(),
        error,
    }
}

/// A spool directory (cheap to clone).
#[derive(Clone, Debug)]
pub struct Spool {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    dir: PathBuf,
    limits: SpoolLimits,
    /// Records in the directory and their bytes (each reserved before it is written).
    usage: Mutex<Usage>,
    next: AtomicU64,
    /// Holds the directory's lock while the spool lives.
    _lock: File,
    /// Told what the spool does.
    observer: Arc<dyn StoreObserver>,
}

#[derive(Clone, Copy, Debug, Default)]
struct Usage {
    records: usize,
    bytes: u64,
}

impl Spool {
    /// Opens (creating, mode 0700) the spool at `dir`, checks that it takes a file, moves aside
    /// the temporary files a crash left and counts the records waiting. A directory another
    /// process holds ([`SpoolError::Taken`]), or one that cannot be created or written, is
    /// refused: the server then runs without a spool, degraded.
    pub fn open(dir: &Path, limits: SpoolLimits) -> Result<Spool, SpoolError> {
        Spool::open_observed(dir, limits, Arc::new(Unobserved))
    }

    /// [`Spool::open`], telling `observer` what the spool does from the start (the records
    /// found waiting first).
    pub fn open_observed(
        dir: &Path,
        limits: SpoolLimits,
        observer: Arc<dyn StoreObserver>,
    ) -> Result<Spool, SpoolError> {
        fs::create_dir_all(dir.join(ASIDE)).map_err(io(dir))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            fs::set_permissions(dir, fs::Permissions::from_mode(0o700)).map_err(io(dir))?;
        }
        let lock_path = dir.join(LOCK);
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(io(&lock_path))?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => return Err(SpoolError::Taken(dir.to_owned())),
            Err(fs::TryLockError::Error(e)) => return Err(io(&lock_path)(e)),
        }
        // A directory that takes no new file (read-only, full) is no spool: found now, not
        // when the first record needs it.
        let probe = dir.join(PROBE);
        File::create(&probe)
            .and_then(|f| f.sync_all())
            .and_then(|()| fs::remove_file(&probe))
            .map_err(io(&probe))?;
        let spool = Spool {
            inner: Arc::new(Inner {
                dir: dir.to_owned(),
                limits,
                usage: Mutex::new(Usage::default()),
                next: AtomicU64::new(0),
                _lock: lock,
                observer,
            }),
        };
        let mut usage = Usage::default();
        for entry in fs::read_dir(dir).map_err(io(dir))? {
            let entry = entry.map_err(io(dir))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with(TEMP_PREFIX) {
                tracing::warn!(file = %name, "a record cut short by a crash: moved aside");
                spool.set_aside(&entry.path(), "cut short by a crash");
            } else if is_record(&entry.path()) {
                usage.records += 1;
                usage.bytes += entry.metadata().map_or(0, |m| m.len());
            }
        }
        *spool.usage() = usage;
        spool.observer().spool_records(usage.records);
        Ok(spool)
    }

    /// The spool's directory.
    pub fn dir(&self) -> &Path {
        &self.inner.dir
    }

    /// Records waiting.
    pub fn len(&self) -> usize {
        self.usage().records
    }

    /// Whether no record waits.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Who is told what the spool does.
    pub(crate) fn observer(&self) -> &dyn StoreObserver {
        self.inner.observer.as_ref()
    }

    fn usage(&self) -> std::sync::MutexGuard<'_, Usage> {
        self.inner
            .usage
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Writes `record` durably; returns its file. Blocks on the disk (see [`Spool::put_async`]).
    pub fn put(&self, record: &Record) -> Result<PathBuf, SpoolError> {
        let bytes = format::encode(record)?;
        let len = bytes.len() as u64;
        {
            let mut usage = self.usage();
            let limits = self.inner.limits;
            if usage.records + 1 > limits.max_records || usage.bytes + len > limits.max_bytes {
                self.observer().spool_full();
                tracing::error!(
                    dir = %self.dir().display(),
                    records = usage.records,
                    bytes = usage.bytes,
                    max_records = limits.max_records,
                    max_bytes = limits.max_bytes,
                    "THE SPOOL IS FULL: a record was not spooled"
                );
                return Err(SpoolError::Full {
                    records: usage.records,
                    bytes: usage.bytes,
                    max_records: limits.max_records,
                    max_bytes: limits.max_bytes,
                });
            }
            usage.records += 1;
            usage.bytes += len;
            self.observer().spool_records(usage.records);
        }
        let written = self.write_file(record.kind(), &bytes);
        match &written {
            Ok(_) => self.observer().spooled(record.kind()),
            Err(_) => self.forget(len),
        }
        written
    }

    /// [`Spool::put`] on the blocking pool.
    pub async fn put_async(&self, record: Record) -> Result<PathBuf, SpoolError> {
        let spool = self.clone();
        tokio::task::spawn_blocking(move || spool.put(&record))
            .await
            .map_err(|e| SpoolError::Task(e.to_string()))?
    }

    /// A temporary file, written and fsynced, renamed into place, the directory fsynced.
    fn write_file(&self, kind: &str, bytes: &[u8]) -> Result<PathBuf, SpoolError> {
        let name = format!(
            "{:013}-{}-{:06}.{kind}.{EXTENSION}",
            crate::unix_now(),
            std::process::id(),
            self.inner.next.fetch_add(1, Ordering::Relaxed)
        );
        let temp = self.dir().join(format!("{TEMP_PREFIX}{name}"));
        let path = self.dir().join(&name);
        let result = (|| {
            let mut file = OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&temp)
                .map_err(io(&temp))?;
            file.write_all(bytes).map_err(io(&temp))?;
            file.sync_all().map_err(io(&temp))?;
            fs::rename(&temp, &path).map_err(io(&path))?;
            sync_dir(self.dir())
        })();
        if result.is_err() {
            let _ = fs::remove_file(&temp);
        }
        result.map(|()| path)
    }

    /// The records waiting, oldest first.
    pub fn pending(&self) -> Result<Vec<PathBuf>, SpoolError> {
        let mut files = Vec::new();
        for entry in fs::read_dir(self.dir()).map_err(io(self.dir()))? {
            let path = entry.map_err(io(self.dir()))?.path();
            if is_record(&path) {
                files.push(path);
            }
        }
        files.sort();
        Ok(files)
    }

    /// The record in `path` (at most the spool's byte bound is read).
    pub fn read(&self, path: &Path) -> Result<Result<Record, format::Corrupt>, SpoolError> {
        let mut bytes = Vec::new();
        File::open(path)
            .map_err(io(path))?
            .take(self.inner.limits.max_bytes)
            .read_to_end(&mut bytes)
            .map_err(io(path))?;
        Ok(format::decode(&bytes))
    }

    /// Deletes a record that was stored.
    pub fn remove(&self, path: &Path) -> Result<(), SpoolError> {
        let len = fs::metadata(path).map_or(0, |m| m.len());
        fs::remove_file(path).map_err(io(path))?;
        sync_dir(self.dir())?;
        self.forget(len);
        Ok(())
    }

    /// Moves `path` into `aside/` (never tried again), saying why in the log.
    pub fn set_aside(&self, path: &Path, why: &str) {
        let Some(name) = path.file_name() else {
            return;
        };
        let to = self.dir().join(ASIDE).join(name);
        let was_record = is_record(path);
        let len = fs::metadata(path).map_or(0, |m| m.len());
        match fs::rename(path, &to)
            .map_err(io(path))
            .and_then(|()| sync_dir(self.dir()))
        {
            Ok(()) => {
                self.observer().spool_aside();
                if was_record {
                    self.forget(len);
                }
                tracing::error!(file = %to.display(), why, "a spooled record was set aside; it is not tried again");
            }
            Err(e) => tracing::error!(error = %e, why, "setting a spooled record aside"),
        }
    }

    /// Takes a record that left the directory off the count.
    fn forget(&self, len: u64) {
        let mut usage = self.usage();
        usage.records = usage.records.saturating_sub(1);
        usage.bytes = usage.bytes.saturating_sub(len);
        self.observer().spool_records(usage.records);
    }
}

fn is_record(path: &Path) -> bool {
    path.is_file()
        && path.extension().is_some_and(|e| e == EXTENSION)
        && !path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with(TEMP_PREFIX))
}

/// Makes a rename or removal in `dir` durable.
fn sync_dir(dir: &Path) -> Result<(), SpoolError> {
    File::open(dir).and_then(|d| d.sync_all()).map_err(io(dir))
}
