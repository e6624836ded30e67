//! A deterministic match: several games advanced in time order in one process, with attacks
//! routed by a [`Router`]. Used by tests and bots; a server runs the same rules with one engine
//! per session and a room task that calls the router.

use super::router::{MatchKind, PlayerView, Router, Targeting};
use crate::event::{Event, EventKind};
use crate::game::{Game, GameConfig};
use crate::input::Input;
use crate::ruleset::Time;

/// What happened in a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchEvent {
    /// An event of one player's game.
    Game { player: usize, event: Event },
    /// `lines` of `from`'s attack went to `to`.
    Attack {
        from: usize,
        to: usize,
        lines: u8,
        time: Time,
    },
    /// `player` is out; `by` gets the KO.
    KnockOut { player: usize, by: Option<usize> },
    /// The match is decided.
    Over { winner: Option<usize> },
}

/// Several games and their router.
#[derive(Clone, Debug)]
pub struct Match {
    router: Router,
    games: Vec<Game>,
    events: Vec<MatchEvent>,
    over: bool,
}

impl Match {
    /// A match between `configs.len()` players. In a race every game gets `seeds[0]`.
    pub fn new(
        kind: MatchKind,
        configs: Vec<GameConfig>,
        seeds: &[u32],
        targeting: &[Targeting],
        router_seed: u32,
    ) -> Match {
        let games = configs
            .into_iter()
            .enumerate()
            .map(|(i, c)| {
                let seed = match kind {
                    MatchKind::Race => seeds.first(),
                    MatchKind::Battle => seeds.get(i),
                };
                Game::new(c, seed.copied().unwrap_or(i as u32))
            })
            .collect::<Vec<_>>();
        let mut targets = targeting.to_vec();
        targets.resize(games.len(), Targeting::default());
        Match {
            router: Router::new(kind, &targets, router_seed),
            games,
            events: Vec::new(),
            over: false,
        }
    }

    /// This match played in teams (`teams[p]`: player `p`'s team, see [`Router::with_teams`]):
    /// attacks go only to the other teams, and the match ends when one team is left.
    pub fn with_teams(mut self, teams: &[u8]) -> Match {
        self.router = self.router.with_teams(teams);
        self
    }

    pub fn game(&self, player: usize) -> Option<&Game> {
        self.games.get(player)
    }

    /// Mutable access to a player's game, for setting up tests and puzzles (e.g.
    /// [`Game::set_board`]). Changes made this way are not part of any replay.
    pub fn game_mut(&mut self, player: usize) -> Option<&mut Game> {
        self.games.get_mut(player)
    }

    pub fn router(&self) -> &Router {
        &self.router
    }

    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The earliest deadline of any game still playing.
    pub fn next_deadline(&self) -> Option<Time> {
        self.games.iter().filter_map(Game::next_deadline).min()
    }

    /// Advances every game to `now`, in time order, routing attacks as they happen.
    pub fn update(&mut self, now: Time) -> &[MatchEvent] {
        self.events.clear();
        self.advance_to(now);
        &self.events
    }

    /// Advances to `now`, then applies `input` to `player`'s game.
    pub fn input(&mut self, player: usize, now: Time, input: Input) -> &[MatchEvent] {
        self.events.clear();
        self.advance_to(now);
        if player < self.games.len() && !self.over {
            self.step(player, now, Some(input));
        }
        &self.events
    }

    fn advance_to(&mut self, target: Time) {
        while !self.over {
            let next = self
                .games
                .iter()
                .enumerate()
                .filter_map(|(i, g)| g.next_deadline().map(|t| (t, i)))
                .min();
            match next {
                Some((t, i)) if t <= target => self.step(i, t, None),
                _ => break,
            }
        }
        if self.over {
            return;
        }
        for i in 0..self.games.len() {
            self.step(i, target, None);
        }
    }

    /// Updates one game and settles everything that follows from it (attacks, knock-outs).
    fn step(&mut self, player: usize, time: Time, input: Option<Input>) {
        let mut pending = vec![(player, input)];
        while let Some((p, input)) = pending.pop() {
            let Some(game) = self.games.get_mut(p) else {
                continue;
            };
            let events: Vec<Event> = game.update(time, input).to_vec();
            for event in events {
                self.events.push(MatchEvent::Game { player: p, event });
                match event.kind {
                    EventKind::AttackSent { lines } => {
                        let views = self.views();
                        if let Some(to) = self.router.route(p, u32::from(lines), time, &views) {
                            self.events.push(MatchEvent::Attack {
                                from: p,
                                to,
                                lines,
                                time,
                            });
                            pending.push((to, Some(Input::Garbage(lines))));
                        }
                    }
                    EventKind::GameOver { won, .. } => self.game_over(p, won),
                    _ => {}
                }
            }
        }
    }

    fn game_over(&mut self, p: usize, won: bool) {
        if self.over {
            return;
        }
        if won {
            // Reached the goal (race: the first to finish wins; battle with a limit: the match
            // ends and the rest are ranked by attack sent).
            self.router.finish(p);
            let mut rest: Vec<usize> = (0..self.games.len()).filter(|&q| q != p).collect();
            match self.router.kind() {
                MatchKind::Race => rest.sort_by_key(|&q| {
                    let s = self.games[q].stats();
                    (std::cmp::Reverse(s.lines), s.time)
                }),
                MatchKind::Battle => rest.sort_by_key(|&q| std::cmp::Reverse(self.router.sent(q))),
            }
            self.router.close(&rest);
        } else {
            let by = self.router.knock_out(p);
            self.events.push(MatchEvent::KnockOut { player: p, by });
        }
        // Once decided, no game is advanced any more: the survivors' games stop where they are.
        if self.router.is_over() {
            self.over = true;
            self.events.push(MatchEvent::Over {
                winner: self.router.winner(),
            });
        }
    }

    fn views(&self) -> Vec<PlayerView> {
        self.games
            .iter()
            .map(|g| {
                let (ready, waiting) = g.garbage().pending();
                PlayerView {
                    stack_height: g.board().stack_height() as u32,
                    pending_garbage: ready + waiting,
                }
            })
            .collect()
    }
}
