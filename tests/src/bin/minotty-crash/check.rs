//! What a player saw acknowledged, and the check of the database after the crash.

use std::collections::HashMap;
use std::path::Path;

use anyhow::Context;
use sqlx::Connection;
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};

/// A game the server said it stored, as its results screen showed it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Acked {
    pub player: String,
    pub pieces: i64,
    pub lines: i64,
    pub score: i64,
    /// The game time as the screen shows it (`m:ss.t`).
    pub time: String,
}

/// Whether a results screen shows the server's `GameRecorded` answer: a rank, a new personal
/// best, or the server's reason why the stored game is not ranked ("not ranked: ..."; the
/// screen's own "Paused: not ranked" is drawn before any answer and does not count).
pub fn acknowledged(screen: &str) -> bool {
    screen.contains("Global rank #")
        || screen.contains("NEW PERSONAL BEST")
        || screen.contains("not ranked: ")
}

/// Reads the results table ("Time", "Score", "Lines", "Pieces" rows) off the screen.
pub fn parse_results(player: &str, screen: &str) -> anyhow::Result<Acked> {
    let value = |label: &str| -> anyhow::Result<String> {
        screen
            .lines()
            .find_map(|line| {
                let words: Vec<&str> = line
                    .split_whitespace()
                    .filter(|w| !w.chars().all(|c| "│║|".contains(c)))
                    .collect();
                (words.len() == 2 && words[0] == label).then(|| words[1].to_owned())
            })
            .with_context(|| format!("no {label:?} row"))
    };
    let number = |label: &str| -> anyhow::Result<i64> {
        let v = value(label)?;
        v.replace(',', "")
            .parse()
            .with_context(|| format!("{label} {v:?}"))
    };
    Ok(Acked {
        player: player.to_owned(),
        pieces: number("Pieces")?,
        lines: number("Lines")?,
        score: number("Score")?,
        time: value("Time")?,
    })
}

/// Game time as the results screen writes it (`ui::text::clock`, under an hour).
fn clock(ms: i64) -> String {
    let secs = ms / 1000;
    if secs >= 3600 {
        format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
    } else {
        format!("{}:{:02}.{}", secs / 60, secs % 60, ms / 100 % 10)
    }
}

/// What the database holds after the crash.
#[derive(Debug)]
pub struct Report {
    pub acked: usize,
    pub stored: usize,
    pub missing: Vec<Acked>,
    pub players: usize,
    pub expected_players: usize,
    pub integrity: Vec<String>,
    pub foreign_key_problems: usize,
    /// Games stored that ended in the last second before a kill.
    pub last_second: usize,
}

impl Report {
    pub fn passed(&self) -> bool {
        self.missing.is_empty()
            && self.integrity == ["ok"]
            && self.foreign_key_problems == 0
            && self.players == self.expected_players
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "games acknowledged:     {}", self.acked)?;
        writeln!(
            f,
            "games in the database:  {} ({} more than acknowledged: their answer never reached the player)",
            self.stored,
            self.stored as i64 - (self.acked - self.missing.len()) as i64
        )?;
        writeln!(
            f,
            "stored in the last second before a kill: {}",
            self.last_second
        )?;
        writeln!(f, "acknowledged, missing:  {}", self.missing.len())?;
        for game in self.missing.iter().take(20) {
            writeln!(f, "  missing: {game:?}")?;
        }
        writeln!(
            f,
            "players in the database: {} of {}",
            self.players, self.expected_players
        )?;
        writeln!(f, "PRAGMA integrity_check: {}", self.integrity.join("; "))?;
        write!(
            f,
            "PRAGMA foreign_key_check: {} problems",
            self.foreign_key_problems
        )
    }
}

/// Opens the database file and checks every acknowledged game is there, and the file's
/// integrity.
pub async fn check_database(
    path: &Path,
    acked: &[Acked],
    expected_players: usize,
    kills_ms: &[i64],
) -> anyhow::Result<Report> {
    let options = SqliteConnectOptions::new().filename(path);
    let mut db = SqliteConnection::connect_with(&options)
        .await
        .with_context(|| format!("opening {}", path.display()))?;
    let integrity: Vec<String> = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_all(&mut db)
        .await?;
    let foreign_key_problems = sqlx::query("PRAGMA foreign_key_check")
        .fetch_all(&mut db)
        .await?
        .len();
    let players: i64 = sqlx::query_scalar("SELECT count(*) FROM players")
        .fetch_one(&mut db)
        .await?;
    let mut last_second = 0;
    for &kill in kills_ms {
        let n: i64 =
            sqlx::query_scalar("SELECT count(*) FROM games WHERE ended_at BETWEEN ? AND ?")
                .bind(kill - 1000)
                .bind(kill)
                .fetch_one(&mut db)
                .await?;
        last_second += n as usize;
    }
    let rows: Vec<(String, i64, i64, i64, i64)> = sqlx::query_as(
        "SELECT p.name, g.pieces, g.lines, g.score, g.time_ms \
         FROM games g JOIN players p ON p.id = g.player_id",
    )
    .fetch_all(&mut db)
    .await?;
    let stored = rows.len();
    let mut in_db: HashMap<Acked, usize> = HashMap::new();
    for (player, pieces, lines, score, time_ms) in rows {
        let game = Acked {
            player,
            pieces,
            lines,
            score,
            time: clock(time_ms),
        };
        *in_db.entry(game).or_default() += 1;
    }
    let mut missing = Vec::new();
    for game in acked {
        match in_db.get_mut(game) {
            Some(n) if *n > 0 => *n -= 1,
            _ => missing.push(game.clone()),
        }
    }
    db.close().await?;
    Ok(Report {
        acked: acked.len(),
        stored,
        missing,
        players: players as usize,
        expected_players,
        integrity,
        foreign_key_problems,
        last_second,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_read_off_the_screen() {
        let screen = "  │      Time                 0:04.7      │\n\
                      │      Score                  1,230      │\n\
                      │      Lines                      0      │\n\
                      │      Pieces                    11      │\n\
                      │      Pieces per second       2.34      │\n\
                      │         not ranked: goal not reached   │";
        assert!(acknowledged(screen));
        assert!(!acknowledged("Paused: not ranked"));
        let game = parse_results("crash1", screen).unwrap();
        assert_eq!(
            game,
            Acked {
                player: "crash1".into(),
                pieces: 11,
                lines: 0,
                score: 1230,
                time: "0:04.7".into()
            }
        );
        assert_eq!(clock(4_765), "0:04.7");
        assert_eq!(clock(65_000), "1:05.0");
    }
}
