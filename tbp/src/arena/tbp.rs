//! The arena for any bot (`minotty arena --tbp NAME=COMMAND`): the operator's TBP bots and the
//! built-in levels play battles in pairs, every pair both seatings on the same pieces (both
//! seats draw from one piece seed, and the seating swaps with the seed kept), at one pace for
//! everyone: a piece at most every `1000 / --pps` ms of game time. Game time is simulated (as
//! in the levels' arena); a TBP bot is told each position, given `--think-ms` of wall time,
//! then asked (`suggest`, within `--move-ms`, its empty answers asked again as in a room) and
//! its move is played through the same checks a room makes. A built-in level places the
//! move its brain chooses at the same pace, so levels and bots differ only in their choices.
//!
//! It prints, for each pair, the row player's score (wins plus half the draws) with a 95 %
//! Wilson score interval, and each player's attack per piece. A bot that forfeits loses the
//! match, is ended and reaped, and starts afresh for the next one.

use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::frame::placed_to_location;
use crate::{Move, TbpSpin, TbpState};
use minotty_bots::versus::{Brain, DuelVerdict, Level, battle, duel_verdict};
use minotty_engine::rng::SplitMix;
use minotty_engine::{Button, Game, Input, Spin, Time};

use super::ArenaArgs;
use crate::frontend::{BotSpec, Forfeit, TbpBot, TbpBots, TbpSettings, choose};

/// Someone who plays in the arena.
#[derive(Clone, Debug)]
pub enum Player {
    Level(Level),
    Tbp(BotSpec),
}

impl Player {
    pub fn label(&self) -> String {
        match self {
            Player::Level(l) => format!("L{}", l.number()),
            Player::Tbp(spec) => spec.name.clone(),
        }
    }
}

/// What a run found.
#[derive(Clone, Debug)]
pub struct TbpReport {
    pub players: Vec<Player>,
    pub pps: f64,
    pub elapsed: Duration,
    /// `wins[a][b]`: matches `a` won against `b`; `played[a][b]`: their matches.
    pub wins: Vec<Vec<u32>>,
    pub played: Vec<Vec<u32>>,
    /// Per player: lines of attack sent and pieces placed, in all its matches.
    pub sent: Vec<u64>,
    pub pieces: Vec<u64>,
    /// Per player: matches it lost by forfeiting.
    pub forfeits: Vec<u32>,
    /// Why: the player's index, the reason, how many times.
    pub reasons: Vec<(usize, String, u32)>,
    pub matches: usize,
    pub timed_out: usize,
}

/// The 95 % Wilson score interval of `successes` out of `n` (fractions, 0 to 1).
pub fn wilson(successes: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.96_f64;
    let p = successes / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

impl TbpReport {
    /// The row player's score against the column's: wins plus half the draws, of their matches.
    pub fn score(&self, a: usize, b: usize) -> Option<(f64, u32)> {
        let n = self.played[a][b];
        (n > 0 && a != b).then(|| {
            let drawn = n - self.wins[a][b] - self.wins[b][a];
            (f64::from(self.wins[a][b]) + f64::from(drawn) / 2.0, n)
        })
    }

    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} matches in {:.1} s at {} pieces/s (both seatings on the same pieces; {} decided \
             by the time limit)",
            self.matches,
            self.elapsed.as_secs_f64(),
            self.pps,
            self.timed_out,
        );
        let _ = writeln!(
            out,
            "\nscore of the row against the column (% of their matches, a draw counts half), \
             with its 95 % Wilson score interval:"
        );
        for (a, pa) in self.players.iter().enumerate() {
            for (b, pb) in self.players.iter().enumerate() {
                let Some((score, n)) = self.score(a, b) else {
                    continue;
                };
                let (lo, hi) = wilson(score, f64::from(n));
                let _ = writeln!(
                    out,
                    "{:>16} vs {:<16} {:>5.1} %  [{:.1}, {:.1}]  of {n}",
                    pa.label(),
                    pb.label(),
                    100.0 * score / f64::from(n),
                    100.0 * lo,
                    100.0 * hi,
                );
            }
        }
        let _ = writeln!(
            out,
            "\n{:>16} {:>10} {:>8} {:>8}",
            "player", "attack/pc", "pieces", "forfeits"
        );
        for (i, p) in self.players.iter().enumerate() {
            let app = self.sent[i] as f64 / self.pieces[i].max(1) as f64;
            let _ = writeln!(
                out,
                "{:>16} {:>10.3} {:>8} {:>8}",
                p.label(),
                app,
                self.pieces[i],
                self.forfeits[i]
            );
        }
        for (p, why, count) in &self.reasons {
            let _ = writeln!(
                out,
                "{} forfeited {count}x: {why}",
                self.players[*p].label()
            );
        }
        out
    }
}

/// One match's result.
#[derive(Clone, Debug)]
struct Played {
    winner: Option<usize>,
    timed_out: bool,
    sent: [u32; 2],
    pieces: [u32; 2],
    forfeit: [Option<String>; 2],
}

/// A seat's way of choosing moves.
enum Seat {
    Level(Box<Brain>),
    Tbp(Box<TbpBot>),
}

/// Plays the run (`args.tbp` not empty).
pub fn run(args: &ArenaArgs) -> anyhow::Result<TbpReport> {
    let mut players: Vec<Player> = args.tbp.iter().cloned().map(Player::Tbp).collect();
    players.extend(args.levels.0.iter().copied().map(Player::Level));
    let n = players.len();
    // Every pair with a TBP bot in it (levels among themselves are the levels' arena's).
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .filter(|&(a, _)| matches!(players[a], Player::Tbp(_)))
        .collect();
    anyhow::ensure!(
        !pairs.is_empty(),
        "no pair to play: give --tbp and --levels"
    );
    // Both seatings of a pair share a seed: rounds of 2 matches per pair.
    let rounds = (args.matches / (2 * pairs.len())).max(1);
    let jobs = rounds * pairs.len();
    let threads = args.threads.unwrap_or(1).max(1);
    let defaults = TbpSettings::default();
    let settings = TbpSettings {
        move_time: Duration::from_millis(args.move_ms.max(1)),
        keeper: args.keeper.clone().or(defaults.keeper.clone()),
        ..defaults
    };
    let bots = TbpBots::new(args.tbp.clone(), settings, 2 * threads);
    let piece_ms = (1000.0 / args.pps.max(0.01)).round() as Time;
    let limit = args.limit_secs.max(1) * 1000;
    let think = Duration::from_millis(args.think_ms);
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    let failures = Mutex::new(Vec::new());
    let started = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let runtime = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(r) => r,
                    Err(e) => {
                        if let Ok(mut f) = failures.lock() {
                            f.push(e.to_string());
                        }
                        return;
                    }
                };
                runtime.block_on(async {
                    loop {
                        let job = next.fetch_add(1, Ordering::Relaxed);
                        if job >= jobs {
                            break;
                        }
                        let (a, b) = pairs[job % pairs.len()];
                        let seed = args.seed.wrapping_add(job as u32);
                        for seats in [[a, b], [b, a]] {
                            let who = [&players[seats[0]], &players[seats[1]]];
                            let r = duel(&bots, who, seed, piece_ms, limit, think).await;
                            if let Ok(mut all) = results.lock() {
                                all.push((seats, r));
                            }
                        }
                    }
                });
            });
        }
    });
    if let Some(e) = failures.lock().ok().and_then(|f| f.first().cloned()) {
        anyhow::bail!("a worker could not start: {e}");
    }
    let mut report = TbpReport {
        players,
        pps: args.pps,
        elapsed: started.elapsed(),
        wins: vec![vec![0; n]; n],
        played: vec![vec![0; n]; n],
        sent: vec![0; n],
        pieces: vec![0; n],
        forfeits: vec![0; n],
        reasons: Vec::new(),
        matches: 0,
        timed_out: 0,
    };
    let results = results.into_inner().unwrap_or_default();
    for (seats, r) in results {
        report.matches += 1;
        report.timed_out += usize::from(r.timed_out);
        let [a, b] = seats;
        report.played[a][b] += 1;
        report.played[b][a] += 1;
        if let Some(w) = r.winner {
            report.wins[seats[w]][seats[1 - w]] += 1;
        }
        for (i, &p) in seats.iter().enumerate() {
            report.sent[p] += u64::from(r.sent[i]);
            report.pieces[p] += u64::from(r.pieces[i]);
            if let Some(reason) = &r.forfeit[i] {
                report.forfeits[p] += 1;
                match report
                    .reasons
                    .iter_mut()
                    .find(|(q, why, _)| *q == p && why == reason)
                {
                    Some((_, _, count)) => *count += 1,
                    None => report.reasons.push((p, reason.clone(), 1)),
                }
            }
        }
    }
    Ok(report)
}

/// One battle: `who[0]` against `who[1]`, both seats on the pieces of `seed`.
async fn duel(
    bots: &TbpBots,
    who: [&Player; 2],
    seed: u32,
    piece_ms: Time,
    limit: Time,
    think: Duration,
) -> Played {
    let mut rng = SplitMix::new(seed, 0x7462_7061);
    let pieces = rng.next_u64() as u32;
    let mut m = battle([pieces, pieces], rng.next_u64() as u32);
    let brain_seed = rng.next_u64() as u32;
    let mut forfeit: [Option<String>; 2] = [None, None];
    let mut seats: Vec<Option<Seat>> = Vec::with_capacity(2);
    for (i, p) in who.iter().enumerate() {
        seats.push(match p {
            Player::Level(l) => Some(Seat::Level(Box::new(Brain::new(l.spec(), brain_seed)))),
            Player::Tbp(spec) => match bots.launch(&spec.name).await {
                Some(Ok(bot)) => Some(Seat::Tbp(Box::new(bot))),
                Some(Err(e)) => {
                    tracing::warn!(bot = %spec.name, error = %e, "an arena bot did not start");
                    forfeit[i] = Some(e.to_string());
                    None
                }
                None => None,
            },
        });
    }
    m.update(0);
    for (i, f) in forfeit.iter().enumerate() {
        if f.is_some() {
            m.input(i, 0, Input::Forfeit);
        }
    }
    let mut free_at: [Time; 2] = [0; 2];
    let mut now: Time = 0;
    while !m.is_over() {
        // The next seat to place (a piece in play and its pace allowing), else the games' own
        // next deadline.
        let mut turn: Option<(Time, usize)> = None;
        for (i, at) in free_at.iter().enumerate() {
            if m.game(i)
                .is_some_and(|g| !g.is_over() && g.active().is_some())
            {
                let t = (*at).max(now);
                if turn.is_none_or(|(u, _)| t < u) {
                    turn = Some((t, i));
                }
            }
        }
        let deadline = m.next_deadline();
        let (t, seat) = match (turn, deadline) {
            (Some((t, i)), d) if d.is_none_or(|d| t < d) => (t, Some(i)),
            (_, Some(d)) => (d, None),
            _ => break,
        };
        if t > limit {
            break;
        }
        now = t;
        m.update(t);
        let Some(i) = seat else {
            continue;
        };
        free_at[i] = t + piece_ms.max(1);
        let Some(game) = m.game(i).filter(|g| g.active().is_some()) else {
            continue;
        };
        let chosen = match seats[i].as_mut() {
            Some(Seat::Level(brain)) => Ok(level_buttons(brain, game)),
            Some(Seat::Tbp(bot)) => tbp_buttons(bot, game, think).await,
            None => Err(Forfeit::Exited),
        };
        match chosen {
            Ok(buttons) => {
                for b in buttons {
                    m.input(i, t, Input::Press(b));
                    m.input(i, t, Input::Release(b));
                }
            }
            Err(f) => {
                let name = who[i].label();
                tracing::warn!(bot = %name, reason = %f, "an arena bot forfeits");
                forfeit[i] = Some(f.to_string());
                m.input(i, t, Input::Forfeit);
                if let Some(Seat::Tbp(bot)) = seats[i].take() {
                    bot.finish().await;
                }
            }
        }
    }
    for seat in seats.into_iter().flatten() {
        if let Seat::Tbp(mut bot) = seat {
            let _ = bot.stop().await;
            bot.finish().await;
        }
    }
    let stat = |i: usize| m.game(i).map(|g| *g.stats()).unwrap_or_default();
    let DuelVerdict {
        winner,
        timed_out,
        sent,
    } = duel_verdict(&m);
    Played {
        winner,
        timed_out,
        sent,
        pieces: [stat(0).pieces, stat(1).pieces],
        forfeit,
    }
}

/// The buttons of the built-in brain's choice (a hard drop when it has none).
fn level_buttons(brain: &mut Brain, game: &Game) -> Vec<Button> {
    let chosen = brain.decide(game).and_then(|d| {
        let spin = match d.spin {
            Spin::None => TbpSpin::None,
            Spin::Mini => TbpSpin::Mini,
            Spin::Full => TbpSpin::Full,
        };
        let mv = Move {
            location: placed_to_location(d.target),
            spin,
        };
        choose(game, &[mv]).ok()
    });
    chosen.map_or_else(|| vec![Button::HardDrop], |(_, buttons)| buttons)
}

/// The TBP bot's move: told the position, `think` to think, then asked; played if it can be.
async fn tbp_buttons(
    bot: &mut TbpBot,
    game: &Game,
    think: Duration,
) -> Result<Vec<Button>, Forfeit> {
    let Some(view) = TbpState::of_game(game, bot.preview()) else {
        return Ok(Vec::new());
    };
    bot.tell(&view).await?;
    tokio::time::sleep(think).await;
    let moves = bot.suggest(&view).await?;
    bot.play(game, &moves).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wilson_interval_matches_known_values() {
        let (lo, hi) = wilson(5.0, 10.0);
        assert!(
            (lo - 0.2366).abs() < 1e-3 && (hi - 0.7634).abs() < 1e-3,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(0.0, 10.0);
        assert!(lo == 0.0 && (hi - 0.2775).abs() < 1e-3, "{lo} {hi}");
        let (lo, hi) = wilson(100.0, 100.0);
        assert!(
            (lo - 0.9630).abs() < 1e-3 && (hi - 1.0).abs() < 1e-9,
            "{lo} {hi}"
        );
        assert_eq!(wilson(0.0, 0.0), (0.0, 1.0));
    }
}
