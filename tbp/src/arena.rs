//! The bot arena (`minotty arena`): thousands of bot-vs-bot battles through the engine's
//! `versus::Match` on every core, to tune the bot levels and the garbage rules. It prints how
//! many matches per second it played and who beat whom.
//!
//! Every pair of the chosen levels (and each level against itself) plays the same number of
//! matches, seats alternating; match `i` uses seed `seed + i`, so a run is reproducible
//! whatever the number of threads.
// As in the server it came from: nothing a TBP bot sends is unwrapped.
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use clap::Args;
use minotty_bots::versus::{Duel, Level, duel};

use crate::frontend::BotSpec;

pub mod tbp;

#[derive(Clone, Debug, Args)]
pub struct ArenaArgs {
    /// Matches to play in all.
    #[arg(long, default_value_t = 2000)]
    pub matches: usize,
    /// Levels that play: a range (`1-7`), a list (`2,5,7`) or one level.
    #[arg(long, default_value = "1-7", value_parser = parse_levels)]
    pub levels: LevelSet,
    /// Threads (default: one per core; one with `--tbp`).
    #[arg(long)]
    pub threads: Option<usize>,
    /// A match still going after this many seconds of game time goes to the player who sent
    /// more attack.
    #[arg(long, default_value_t = 180)]
    pub limit_secs: u64,
    /// The first match's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u32,
    /// A Tetris Bot Protocol bot that plays too, `NAME=COMMAND` (repeatable): then each of
    /// these bots plays every other bot and every level of `--levels`, both seatings on the same
    /// pieces, at `--pps` (see `arena/tbp.rs`).
    #[arg(long = "tbp", value_name = "NAME=COMMAND")]
    pub tbp: Vec<BotSpec>,
    /// With `--tbp`: the pieces per second every player places at most (game time).
    #[arg(long, default_value_t = 2.0)]
    pub pps: f64,
    /// With `--tbp`: the wall time a TBP bot thinks on each position before it is asked, ms.
    #[arg(long, default_value_t = 100)]
    pub think_ms: u64,
    /// With `--tbp`: the longest a TBP bot may take to answer, ms (a room's `--tbp-move-ms`).
    #[arg(long, default_value_t = 1000)]
    pub move_ms: u64,
    /// With `--tbp`: the program that keeps each bot (`frontend/keeper.rs`); `None`: the
    /// running binary (`minotty`). Not a flag: tests name `minotty-bot`.
    #[arg(skip)]
    pub keeper: Option<std::path::PathBuf>,
}

/// The levels of a run, in order, without repeats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelSet(pub Vec<Level>);

pub fn parse_levels(s: &str) -> Result<LevelSet, String> {
    let level = |t: &str| {
        t.trim()
            .parse::<u8>()
            .ok()
            .and_then(Level::new)
            .ok_or_else(|| format!("{t:?} is not a level (1-7)"))
    };
    let mut out = Vec::new();
    for part in s.split(',') {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (level(a)?, level(b)?);
                out.extend(Level::ALL.into_iter().filter(|l| (a..=b).contains(l)));
            }
            None => out.push(level(part)?),
        }
    }
    out.sort();
    out.dedup();
    if out.is_empty() {
        return Err("no level".into());
    }
    Ok(LevelSet(out))
}

/// What a run found.
#[derive(Clone, Debug)]
pub struct Report {
    pub levels: Vec<Level>,
    pub threads: usize,
    pub elapsed: Duration,
    /// `wins[a][b]`: matches level index `a` won against level index `b`.
    pub wins: Vec<Vec<u32>>,
    /// `played[a][b]`: matches between them (either seat).
    pub played: Vec<Vec<u32>>,
    pub matches: usize,
    pub draws: usize,
    pub timed_out: usize,
    /// Game time of all matches (ms) and pieces placed, per level: (pieces, ms in game).
    pub game_ms: u64,
    pub pace: Vec<(u64, u64)>,
}

impl Report {
    pub fn matches_per_sec(&self) -> f64 {
        self.matches as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The report as the command prints it: speed, then the win-rate table (row's win rate
    /// against column, in percent of their matches; draws count as half).
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} matches in {:.1} s on {} threads: {:.1} matches/s ({:.0} s of game each on \
             average; {} decided by the time limit, {} draws)",
            self.matches,
            self.elapsed.as_secs_f64(),
            self.threads,
            self.matches_per_sec(),
            self.game_ms as f64 / 1000.0 / self.matches.max(1) as f64,
            self.timed_out,
            self.draws,
        );
        let _ = writeln!(
            out,
            "\nwin rate of the row's level against the column's (%):"
        );
        let _ = write!(out, "{:>8}", "");
        for l in &self.levels {
            let _ = write!(out, "{:>6}", format!("L{}", l.number()));
        }
        let _ = writeln!(out, "{:>10}", "pieces/s");
        for (a, la) in self.levels.iter().enumerate() {
            let _ = write!(out, "{:>8}", format!("L{}", la.number()));
            for b in 0..self.levels.len() {
                let n = self.played[a][b];
                if n == 0 {
                    let _ = write!(out, "{:>6}", "-");
                } else {
                    let won = f64::from(self.wins[a][b]);
                    let drawn = f64::from(n - self.wins[a][b] - self.wins[b][a]);
                    let rate = if a == b {
                        50.0
                    } else {
                        100.0 * (won + drawn / 2.0) / f64::from(n)
                    };
                    let _ = write!(out, "{rate:>6.0}");
                }
            }
            let (pieces, ms) = self.pace[a];
            let _ = writeln!(out, "{:>10.2}", pieces as f64 * 1000.0 / ms.max(1) as f64);
        }
        out
    }
}

/// The pairings of a run: every pair of levels (indices), each level against itself too.
fn pairings(n: usize) -> Vec<(usize, usize)> {
    (0..n).flat_map(|a| (a..n).map(move |b| (a, b))).collect()
}

/// Plays the run.
pub fn run(args: &ArenaArgs) -> Report {
    let levels = args.levels.0.clone();
    let pairs = pairings(levels.len());
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let limit = args.limit_secs.max(1) * 1000;
    let next = AtomicUsize::new(0);
    let started = Instant::now();
    let results: Vec<Vec<(usize, bool, Duel)>> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= args.matches {
                            break;
                        }
                        let pair = i % pairs.len();
                        let (a, b) = pairs[pair];
                        // Seats alternate from one round of pairings to the next.
                        let swap = (i / pairs.len()) % 2 == 1;
                        let seats = if swap { [b, a] } else { [a, b] };
                        let seed = args.seed.wrapping_add(i as u32);
                        let d = duel([levels[seats[0]], levels[seats[1]]], seed, limit);
                        mine.push((pair, swap, d));
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_default())
            .collect()
    });
    let n = levels.len();
    let mut report = Report {
        levels,
        threads,
        elapsed: started.elapsed(),
        wins: vec![vec![0; n]; n],
        played: vec![vec![0; n]; n],
        matches: 0,
        draws: 0,
        timed_out: 0,
        game_ms: 0,
        pace: vec![(0, 0); n],
    };
    for (pair, swap, d) in results.into_iter().flatten() {
        let (a, b) = pairs[pair];
        let seats = if swap { [b, a] } else { [a, b] };
        report.matches += 1;
        report.game_ms += d.time;
        report.timed_out += usize::from(d.timed_out);
        report.played[a][b] += 1;
        if a != b {
            report.played[b][a] += 1;
        }
        match d.winner {
            Some(w) => {
                let (winner, loser) = (seats[w], seats[1 - w]);
                if winner != loser {
                    report.wins[winner][loser] += 1;
                }
            }
            None => report.draws += 1,
        }
        for (seat, &level) in seats.iter().enumerate() {
            report.pace[level].0 += u64::from(d.pieces[seat]);
            report.pace[level].1 += d.time;
        }
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_as_ranges_and_lists() {
        let l = |n| Level::new(n).expect("level");
        assert_eq!(parse_levels("1-7").map(|s| s.0.len()), Ok(7));
        assert_eq!(parse_levels("5,2,2"), Ok(LevelSet(vec![l(2), l(5)])));
        assert_eq!(parse_levels("3-4,7"), Ok(LevelSet(vec![l(3), l(4), l(7)])));
        assert!(parse_levels("0").is_err());
        assert!(parse_levels("2-9").is_err());
        assert!(parse_levels("x").is_err());
    }

    #[test]
    fn a_small_run_counts_every_match_once_and_the_higher_level_wins() {
        let args = ArenaArgs {
            matches: 6,
            levels: parse_levels("1,5").expect("levels"),
            threads: Some(2),
            limit_secs: 120,
            seed: 1,
            tbp: Vec::new(),
            pps: 2.0,
            think_ms: 100,
            move_ms: 1000,
            keeper: None,
        };
        let r = run(&args);
        assert_eq!(r.matches, 6);
        // Three pairings (1-1, 1-5, 5-5), two rounds each.
        assert_eq!(r.played[0][1], 2);
        assert_eq!(r.played[0][0] + r.played[1][1], 4);
        assert_eq!(r.wins[1][0], 2, "{}", r.render());
        let text = r.render();
        assert!(text.contains("6 matches"), "{text}");
        assert!(text.contains("L5"), "{text}");
        // The same run on one thread finds the same.
        let one = run(&ArenaArgs {
            threads: Some(1),
            ..args
        });
        assert_eq!(one.wins, r.wins);
        assert_eq!(one.game_ms, r.game_ms);
    }
}
