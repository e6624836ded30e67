//! The combo bot at a real [`Game`]: reading the well, the pieces and what the preview has shown
//! of the current bag, and turning a [`Choice`] into the buttons that make it.

use std::sync::OnceLock;

use super::model::{placements_from, spawn};
use super::search::{Choice, ComboBot};
use super::value::{FULL, Knowledge};
use super::well::Well;
use minotty_engine::game::Game;
use minotty_engine::generator::Generator;
use minotty_engine::input::Button;
use minotty_engine::piece::Piece;
use minotty_engine::ruleset::{Ruleset, RulesetId};

/// How many of the latest dealt pieces [`SeenPieces`] remembers (two bags and a bit).
const MEMORY: usize = 16;

/// What a player who watched the game from its first piece has seen: the latest pieces by their
/// deal index (0 for the game's first piece). Only pieces the player was shown count: the piece
/// in play when it came from the queue, and the first `preview` pieces of the queue.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeenPieces {
    ring: [Option<(u64, Piece)>; MEMORY],
}

/// Pieces the game has dealt so far: locked, held, in play and queued.
fn dealt(game: &Game) -> u64 {
    u64::from(game.stats().pieces)
        + u64::from(game.hold_piece().is_some())
        + u64::from(game.active().is_some())
        + game.preview().count() as u64
}

impl SeenPieces {
    pub fn new() -> SeenPieces {
        SeenPieces::default()
    }

    /// Notes what the player sees now with `preview` pieces of preview.
    pub fn observe(&mut self, game: &Game, preview: usize) {
        let queued = game.preview().count() as u64;
        let first = dealt(game) - queued;
        // The piece in play is the last one out of the queue unless it came back from the hold.
        // While the hold is unused for it, it did not. After a hold into an empty hold it did
        // not either: the held piece is then the one before it, and that is how this tells the
        // case from a swap (where the held piece is the last one out of the queue, already
        // seen in play).
        if let Some(a) = game.active()
            && first > 0
        {
            let fresh = game.can_hold()
                || (self.get(first - 1).is_none()
                    && first > 1
                    && self.get(first - 2).is_some()
                    && self.get(first - 2) == game.hold_piece());
            if fresh {
                self.note(first - 1, a.placed.piece);
            }
        }
        for (i, p) in game.preview().take(preview).enumerate() {
            self.note(first + i as u64, p);
        }
    }

    fn note(&mut self, index: u64, piece: Piece) {
        self.ring[index as usize % MEMORY] = Some((index, piece));
    }

    fn get(&self, index: u64) -> Option<Piece> {
        match self.ring[index as usize % MEMORY] {
            Some((i, p)) if i == index => Some(p),
            _ => None,
        }
    }

    /// What is known of the pieces after the first `upto` dealt: for the 7-bag, the pieces left
    /// in the current bag when every piece of it so far was seen; otherwise nothing.
    pub fn knowledge(&self, generator: Generator, upto: u64) -> Knowledge {
        if generator != Generator::Bag {
            return Knowledge::Uniform;
        }
        let mut left = FULL;
        for i in upto - upto % 7..upto {
            match self.get(i) {
                Some(p) => left &= !(1 << p as u8),
                None => return Knowledge::Uniform,
            }
        }
        Knowledge::Bag(left)
    }
}

/// The bot's plan for the piece in play.
#[derive(Clone, Debug, PartialEq)]
pub struct ComboPlan {
    /// The taps, in order (a hold first if it holds).
    pub buttons: Vec<Button>,
    /// The well the placement leaves; `None` for a plain hold (the next decision places).
    pub to: Option<Well>,
    pub choice: Choice,
}

impl ComboBot {
    /// The bot for an unchanged built-in ruleset, built on first use and shared.
    pub fn shared(id: RulesetId) -> &'static ComboBot {
        static BOTS: [OnceLock<ComboBot>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        let i = RulesetId::ALL.iter().position(|&r| r == id).unwrap_or(0);
        BOTS[i].get_or_init(|| ComboBot::new(Ruleset::get(id)))
    }

    /// The shared bot whose model holds for `game` (its ruleset's moves are the built-in
    /// ruleset's), if any.
    pub fn for_game(game: &Game) -> Option<&'static ComboBot> {
        let rules = game.ruleset();
        let base = Ruleset::get(rules.id);
        let same = (
            rules.rotation,
            rules.hidden_rows,
            rules.turns_180,
            rules.sonic_drop,
        ) == (
            base.rotation,
            base.hidden_rows,
            base.turns_180,
            base.sonic_drop,
        ) && rules.o_rotates == base.o_rotates;
        same.then(|| ComboBot::shared(rules.id))
    }

    /// The plan for `game`'s piece in play, looking at `lookahead` pieces of its preview, with
    /// `seen` what the player has seen of the pieces (see [`SeenPieces::observe`]). `None`
    /// when no piece is in play, the board is not a well the model knows, or nothing the bot
    /// can play keeps the combo.
    pub fn plan(&self, game: &Game, lookahead: usize, seen: &SeenPieces) -> Option<ComboPlan> {
        let active = game.active()?;
        if active.dropped {
            return None;
        }
        let board = game.board();
        let well = self.model().id(Well::of_board(board)?)?;
        let current = active.placed.piece;
        let queue: Vec<Piece> = game.preview().take(lookahead).collect();
        let upto = dealt(game) - game.preview().count() as u64 + queue.len() as u64;
        let knowledge = seen.knowledge(game.ruleset().generator, upto);
        // A piece that moved since it spawned reaches what it reaches from where it is.
        let moved = (active.placed != spawn(current))
            .then(|| placements_from(game.ruleset(), board, active.placed));
        let reachable = moved.as_ref().map_or(u64::MAX, |list| {
            list.iter()
                .filter_map(|(w, _)| self.model().id(*w))
                .fold(0, |m, id| m | 1 << id)
        });
        let choice = self.choose_among(
            well,
            current,
            game.hold_piece(),
            game.can_hold(),
            &queue,
            knowledge,
            reachable,
        )?;
        let mut buttons = Vec::new();
        if choice.hold {
            buttons.push(Button::Hold);
        }
        let to = choice.placement.map(|t| self.model().well(t.to));
        if let Some(t) = &choice.placement {
            match (&moved, choice.hold) {
                (Some(list), false) => {
                    let (_, route) = list.iter().find(|(w, _)| Some(*w) == to)?;
                    buttons.extend_from_slice(&route.buttons);
                }
                _ => buttons.extend_from_slice(self.model().route(t)),
            }
        }
        Some(ComboPlan {
            buttons,
            to,
            choice,
        })
    }
}
