//! `minotty play`'s save file: the player's settings and a scoreboard of finished games with
//! their replays, kept as one JSON document under the user's data directory
//! (`$XDG_DATA_HOME/minotty/save.json`, else `~/.local/share/minotty/save.json`; on macOS
//! `~/Library/Application Support/minotty`, on Windows `%APPDATA%\minotty`).
//!
//! The file is written whole, to a temporary file in the same directory that is then fsynced
//! and renamed over the old one, so a crash or a full disk never leaves half a save. The
//! temporary file has a random name and is created exclusively (`create_new`: `O_CREAT |
//! O_EXCL`, which never follows a symbolic link planted at the name) with mode 0600, so another
//! user of a shared directory cannot make the write land elsewhere. A file that cannot be
//! parsed is never overwritten: it is moved aside (`save.json.bad-<unix ms>`) and the player
//! is told. A file from a newer minotty is left alone and nothing is saved in that run. The
//! file is bounded: at most [`MAX_GAMES`] games (the oldest that are no board's best go first)
//! and at most [`MAX_FILE_BYTES`] are ever read (a larger file, or anything but a regular file,
//! is moved aside like a damaged one).

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use minotty_engine::{ModeKind, Replay, RulesetId, Snapshot, Stats};
use minotty_ui::Settings;
use serde::{Deserialize, Serialize};

use minotty_ui::stored_settings;

/// The format of the document; a file with a larger number is left alone.
pub const FORMAT: u32 = 1;
/// Games kept (plus every board's best, which is never dropped for room).
pub const MAX_GAMES: usize = 1000;
/// A save file larger than this is not read (64 MiB: about a thousand long replays).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// The document as it is stored.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct SaveData {
    pub format: u32,
    /// The settings in the server's stored form (`stored_settings`), so both read alike.
    #[serde(default)]
    pub settings: Option<serde_json::Value>,
    /// Finished games, oldest first.
    #[serde(default)]
    pub games: Vec<LocalGame>,
    /// The id the next game gets.
    #[serde(default)]
    pub next_game: i64,
    /// Snapshots taken with Ctrl+S, oldest first (at most `store::MAX_SNAPSHOTS`).
    #[serde(default)]
    pub snapshots: Vec<LocalSnapshot>,
    /// The highest puzzle stage cleared (0: none).
    #[serde(default)]
    pub puzzle_cleared: u8,
}

/// One stored snapshot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LocalSnapshot {
    pub id: i64,
    pub label: String,
    /// Unix ms.
    pub created_at: i64,
    /// `Snapshot::to_bytes`, as hexadecimal.
    pub bytes: String,
}

impl LocalSnapshot {
    pub fn snapshot(&self) -> Option<Snapshot> {
        Snapshot::from_bytes(&from_hex(&self.bytes)?).ok()
    }
}

/// One finished game on the local scoreboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LocalGame {
    pub id: i64,
    /// `ModeKind::id` (`40l`, `marathon`, ...).
    pub mode: String,
    /// `RulesetId::id`.
    pub ruleset: String,
    /// Unix ms.
    pub ended_at: i64,
    /// The server's outcome words (`won`, `top_out`, `limit`, ...).
    pub outcome: String,
    pub stats: Stats,
    /// The board key (lower is better) when the game ranks; `None` when it does not.
    pub key: Option<i64>,
    /// Why it does not rank, when it does not.
    #[serde(default)]
    pub note: Option<String>,
    /// The replay's compact bytes, as hexadecimal.
    pub replay: String,
}

impl LocalGame {
    pub fn mode(&self) -> Option<ModeKind> {
        ModeKind::parse(&self.mode)
    }

    pub fn ruleset(&self) -> RulesetId {
        RulesetId::parse(&self.ruleset).unwrap_or(RulesetId::Standard)
    }

    pub fn replay(&self) -> Option<Replay> {
        Replay::from_bytes(&from_hex(&self.replay)?).ok()
    }
}

/// Where the save file lives and what it holds.
#[derive(Debug)]
pub struct SaveFile {
    /// `None`: nothing is written (opted out, or the file could not be used).
    path: Option<PathBuf>,
    pub data: SaveData,
    /// What went wrong with the file, to tell the player once.
    pub problem: Option<String>,
}

/// The default save file of this user, if a data directory can be found.
pub fn default_path() -> Option<PathBuf> {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let dir = if cfg!(windows) {
        env("APPDATA")
    } else if cfg!(target_os = "macos") {
        env("HOME").map(|h| h.join("Library/Application Support"))
    } else {
        env("XDG_DATA_HOME").or_else(|| env("HOME").map(|h| h.join(".local/share")))
    };
    dir.map(|d| d.join("minotty").join("save.json"))
}

impl SaveFile {
    /// A save that keeps everything in memory only (`--no-save`).
    pub fn disabled() -> SaveFile {
        SaveFile {
            path: None,
            data: SaveData {
                format: FORMAT,
                ..SaveData::default()
            },
            problem: None,
        }
    }

    /// Reads the save at `path` (a missing file is an empty save). `now` names a file that is
    /// moved aside.
    pub fn open(path: PathBuf, now: i64) -> SaveFile {
        let mut save = SaveFile::disabled();
        match read(&path) {
            Ok(None) => save.path = Some(path),
            Ok(Some(data)) if data.format > FORMAT => {
                save.problem = Some(format!(
                    "{} was written by a newer minotty; this run saves nothing.",
                    path.display()
                ));
            }
            Ok(Some(data)) => {
                save.data = data;
                save.data.format = FORMAT;
                save.path = Some(path);
            }
            Err(Unreadable::Io(e)) => {
                save.problem = Some(format!(
                    "{} could not be read ({e}); this run saves nothing.",
                    path.display()
                ));
            }
            Err(Unreadable::Invalid(why)) => {
                let aside = aside_name(&path, now);
                match fs::rename(&path, &aside) {
                    Ok(()) => {
                        save.problem = Some(format!(
                            "Your save file was damaged ({why}); it was kept as {} and a new \
                             one started.",
                            aside.display()
                        ));
                        save.path = Some(path);
                    }
                    Err(e) => {
                        save.problem = Some(format!(
                            "{} is damaged ({why}) and could not be moved aside ({e}); this \
                             run saves nothing.",
                            path.display()
                        ));
                    }
                }
            }
        }
        save
    }

    /// Whether anything is written to disk.
    pub fn persistent(&self) -> bool {
        self.path.is_some()
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The stored settings, read forgivingly (`None`: none stored or unreadable).
    pub fn settings(&self) -> Option<Settings> {
        let value = self.data.settings.as_ref()?;
        stored_settings::from_json(&value.to_string())
    }

    pub fn set_settings(&mut self, settings: &Settings) {
        self.data.settings = serde_json::from_str(&stored_settings::to_json(settings)).ok();
    }

    /// Adds a game (its id is given here), drops the oldest games beyond [`MAX_GAMES`] that
    /// are not the best of their board, and returns the id.
    pub fn add_game(&mut self, mut game: LocalGame) -> i64 {
        self.data.next_game = self
            .data
            .next_game
            .max(self.data.games.iter().map(|g| g.id + 1).max().unwrap_or(1));
        game.id = self.data.next_game;
        self.data.next_game += 1;
        self.data.games.push(game);
        self.prune();
        self.data.games.last().map_or(0, |g| g.id)
    }

    fn prune(&mut self) {
        let excess = self.data.games.len().saturating_sub(MAX_GAMES);
        if excess == 0 {
            return;
        }
        let bests: Vec<i64> = board_bests(&self.data.games);
        let mut dropped = 0;
        self.data.games.retain(|g| {
            if dropped < excess && !bests.contains(&g.id) {
                dropped += 1;
                false
            } else {
                true
            }
        });
    }

    /// Writes the save (atomically). Does nothing when the save is not persistent.
    pub fn write(&self) -> io::Result<()> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        fs::create_dir_all(dir)?;
        let text = serde_json::to_vec(&self.data).map_err(io::Error::other)?;
        let (tmp, mut file) = create_temporary(dir, path)?;
        let written = file
            .write_all(&text)
            .and_then(|()| file.sync_all())
            .and_then(|()| {
                drop(file);
                fs::rename(&tmp, path)
            });
        if let Err(e) = written {
            let _ = fs::remove_file(&tmp);
            return Err(e);
        }
        sync_dir(dir);
        Ok(())
    }
}

/// Tries at a fresh random name before giving up.
const TEMPORARY_TRIES: usize = 16;

/// A new temporary file for `path` in `dir`: `.save.json.<random>.tmp`, created exclusively.
fn create_temporary(dir: &Path, path: &Path) -> io::Result<(PathBuf, fs::File)> {
    let name = path
        .file_name()
        .map_or_else(|| "save.json".into(), |n| n.to_string_lossy());
    let mut last = None;
    for _ in 0..TEMPORARY_TRIES {
        let tmp = dir.join(format!(".{name}.{:016x}.tmp", temporary_suffix()));
        match create_private(&tmp) {
            Ok(file) => return Ok((tmp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no temporary file could be created")))
}

#[cfg(not(test))]
fn temporary_suffix() -> u64 {
    rand::random()
}

#[cfg(test)]
thread_local! {
    /// Tests choose the temporary names (to plant links at them); random otherwise.
    pub(crate) static TEMPORARY_SUFFIXES: std::cell::RefCell<Vec<u64>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

#[cfg(test)]
fn temporary_suffix() -> u64 {
    TEMPORARY_SUFFIXES
        .with(|s| s.borrow_mut().pop())
        .unwrap_or_else(rand::random)
}

/// Makes the rename durable (the directory's entry), where the system allows it.
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

impl SaveFile {
    /// Keeps a snapshot (the oldest goes when there are `max` already); returns its id.
    pub fn add_snapshot(
        &mut self,
        label: String,
        snapshot: &Snapshot,
        now: i64,
        max: usize,
    ) -> i64 {
        let id = self
            .data
            .snapshots
            .iter()
            .map(|s| s.id + 1)
            .max()
            .unwrap_or(1);
        self.data.snapshots.push(LocalSnapshot {
            id,
            label,
            created_at: now,
            bytes: to_hex(&snapshot.to_bytes()),
        });
        let excess = self.data.snapshots.len().saturating_sub(max);
        self.data.snapshots.drain(..excess);
        id
    }
}

/// The id of the best game of every board (mode and ruleset) that ranks.
pub fn board_bests(games: &[LocalGame]) -> Vec<i64> {
    let mut best: Vec<(&str, &str, i64, i64)> = Vec::new();
    for g in games {
        let Some(key) = g.key else { continue };
        match best
            .iter_mut()
            .find(|(m, r, _, _)| *m == g.mode && *r == g.ruleset)
        {
            Some(b) if key < b.2 => *b = (&g.mode, &g.ruleset, key, g.id),
            Some(_) => {}
            None => best.push((&g.mode, &g.ruleset, key, g.id)),
        }
    }
    best.into_iter().map(|b| b.3).collect()
}

/// Where a damaged file is moved: `save.json.bad-<now>`, or with `-1`, `-2`... when that is
/// taken (a rename would replace an earlier damaged file).
fn aside_name(path: &Path, now: i64) -> PathBuf {
    let free = |p: &PathBuf| fs::symlink_metadata(p).is_err();
    let first = path.with_extension(format!("json.bad-{now}"));
    if free(&first) {
        return first;
    }
    (1..100)
        .map(|i| path.with_extension(format!("json.bad-{now}-{i}")))
        .find(free)
        .unwrap_or(first)
}

enum Unreadable {
    Io(io::Error),
    Invalid(String),
}

fn read(path: &Path) -> Result<Option<SaveData>, Unreadable> {
    let meta = match fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Unreadable::Io(e)),
    };
    // Not opened at all when it is no regular file (a FIFO would block the open).
    if !meta.is_file() {
        return Err(Unreadable::Invalid("not a regular file".into()));
    }
    let too_large = || Unreadable::Invalid(format!("larger than {} MiB", MAX_FILE_BYTES >> 20));
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_large());
    }
    // The length may have grown since: never more than the bound and a byte are read.
    let file = fs::File::open(path).map_err(Unreadable::Io)?;
    let mut bytes = Vec::new();
    io::Read::read_to_end(&mut io::Read::take(file, MAX_FILE_BYTES + 1), &mut bytes)
        .map_err(Unreadable::Io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large());
    }
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|e| Unreadable::Invalid(e.to_string()))
}

#[cfg(unix)]
fn create_private(path: &Path) -> io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    // `create_new`: O_CREAT | O_EXCL, which fails on anything already at the path, a
    // symbolic link (even a dangling one) included: a link is never followed.
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
}

#[cfg(not(unix))]
fn create_private(path: &Path) -> io::Result<fs::File> {
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
}

/// Lower-case hexadecimal.
pub fn to_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    out
}

/// The bytes of hexadecimal text (`None` for an odd length or a non-hex character).
pub fn from_hex(text: &str) -> Option<Vec<u8>> {
    let digits = text.as_bytes();
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    let nibble = |c: u8| {
        char::from(c)
            .to_digit(16)
            .and_then(|d| u8::try_from(d).ok())
    };
    digits
        .chunks_exact(2)
        .map(|p| Some(nibble(p[0])? << 4 | nibble(p[1])?))
        .collect()
}
