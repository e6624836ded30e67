//! A bot-vs-bot battle through [`Match`]: the bots' inputs go to their games at the times the
//! bots choose, attacks are routed by the match's router, and the first knocked out loses.
//! Deterministic: the same levels and seed give the same match. The bot arena (`minotty
//! arena`) plays thousands of these on every core.

use super::{Level, VersusBot};
use minotty_engine::game::GameConfig;
use minotty_engine::mode::Mode;
use minotty_engine::rng::SplitMix;
use minotty_engine::ruleset::Time;
use minotty_engine::versus::{Match, MatchKind};

/// How a duel went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Duel {
    /// The winner's seat (0 or 1); `None`: the time limit came with equal attack sent.
    pub winner: Option<usize>,
    /// The time limit decided it (by attack sent), not a knock-out.
    pub timed_out: bool,
    /// Game time at the end (ms).
    pub time: Time,
    pub pieces: [u32; 2],
    pub lines: [u32; 2],
    /// Attack lines sent (after cancelling).
    pub sent: [u32; 2],
}

/// A two-seat battle in the versus rooms' mode (level 0 rising every 10 lines), each seat
/// dealt from its seed in `seeds`, the attacks routed from `router_seed`: the match the duel
/// and the TBP arena (`minotty_tbp::arena`) play.
pub fn battle(seeds: [u32; 2], router_seed: u32) -> Match {
    let config = GameConfig {
        mode: Mode::custom(0, true, None),
        ..GameConfig::default()
    };
    Match::new(
        MatchKind::Battle,
        vec![config.clone(), config],
        &seeds,
        &[],
        router_seed,
    )
}

/// Plays `levels[0]` against `levels[1]` in a battle (the versus rooms' mode: level 0 rising
/// every 10 lines) until a knock-out or `limit` ms of game time, when the most attack sent
/// wins. Each seat gets its own piece seed and bot seed, derived from `seed`.
pub fn duel(levels: [Level; 2], seed: u32, limit: Time) -> Duel {
    let mut rng = SplitMix::new(seed, 0x6475_656c);
    let mut draw = || rng.next_u64() as u32;
    let seeds = [draw(), draw()];
    let mut m = battle(seeds, draw());
    let mut bots = [
        VersusBot::new(levels[0], draw()),
        VersusBot::new(levels[1], draw()),
    ];
    m.update(0);
    let mut now: Time = 0;
    while !m.is_over() {
        let mut bot: Option<(Time, usize)> = None;
        for (i, b) in bots.iter_mut().enumerate() {
            let Some(g) = m.game(i).filter(|g| !g.is_over()) else {
                continue;
            };
            if let Some(t) = b.poll(g)
                && bot.is_none_or(|(u, _)| t < u)
            {
                bot = Some((t, i));
            }
        }
        let deadline = m.next_deadline();
        // A game's own deadline at the same time comes first: the bot then sees its result.
        match (bot, deadline) {
            (Some((t, i)), d) if d.is_none_or(|d| t < d) => {
                if t > limit {
                    break;
                }
                now = t;
                let input = m.game(i).and_then(|g| bots[i].act(g, t));
                match input {
                    Some(input) => m.input(i, t, input),
                    None => m.update(t),
                };
            }
            (_, Some(d)) => {
                if d > limit {
                    break;
                }
                now = d;
                m.update(d);
            }
            _ => break,
        }
    }
    let stat = |i: usize| m.game(i).map(|g| *g.stats()).unwrap_or_default();
    let (s0, s1) = (stat(0), stat(1));
    let DuelVerdict {
        winner,
        timed_out,
        sent,
    } = duel_verdict(&m);
    Duel {
        winner,
        timed_out,
        time: now,
        pieces: [s0.pieces, s1.pieces],
        lines: [s0.lines, s1.lines],
        sent,
    }
}

/// How a two-seat battle was decided, by its knock-out or, when it ended unfinished, by the
/// attack each seat sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DuelVerdict {
    /// The winner's seat (0 or 1); `None`: unfinished with equal attack sent.
    pub winner: Option<usize>,
    /// The match was not over: the attack sent decided it.
    pub timed_out: bool,
    /// Attack lines sent (after cancelling).
    pub sent: [u32; 2],
}

/// The verdict of the two-seat match `m` as it stands: the router's winner when it is over,
/// else the seat that sent more attack (none on a tie). The duel and the TBP arena
/// (`minotty_tbp::arena`, TBP seats) judge their matches by this one rule.
pub fn duel_verdict(m: &Match) -> DuelVerdict {
    let sent = [m.router().sent(0), m.router().sent(1)];
    if m.is_over() {
        return DuelVerdict {
            winner: m.router().winner(),
            timed_out: false,
            sent,
        };
    }
    let winner = match sent[0].cmp(&sent[1]) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    };
    DuelVerdict {
        winner,
        timed_out: true,
        sent,
    }
}
