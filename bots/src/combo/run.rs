//! The combo bot on its own model, fed by a piece generator: how its strength is measured
//! (`examples/combo_table.rs`), the way the tetrs seed measured its bot.

use std::collections::VecDeque;

use super::model::WellId;
use super::search::{Choice, ComboBot};
use super::value::Knowledge;
use super::well::Well;
use minotty_engine::generator::{Generator, PieceSource};
use minotty_engine::piece::Piece;

/// One run of the bot from combo mode's start well.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// Pieces placed, every one of them clearing a line: the length of the combo as the tetrs
    /// seed counts it (the engine's combo index of the last clear is one less). A piece that
    /// only went into the hold is not counted.
    pub placed: u64,
    /// The run stopped at `cap` pieces, still alive.
    pub capped: bool,
}

/// Everything the bot decides from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub well: WellId,
    /// The piece in play.
    pub current: Piece,
    pub hold: Option<Piece>,
    /// The hold has not been used for the piece in play.
    pub can_hold: bool,
    /// The preview the bot looks at, soonest first.
    pub queue: Vec<Piece>,
    /// What is known of the pieces after the last of `queue`.
    pub knowledge: Knowledge,
}

impl ComboBot {
    /// [`ComboBot::choose`] for a [`Position`].
    pub fn choose_at(&self, p: &Position) -> Option<Choice> {
        self.choose(p.well, p.current, p.hold, p.can_hold, &p.queue, p.knowledge)
    }

    /// Plays combo mode on the model with the pieces `generator` deals for `seed`, seeing the
    /// piece in play, the hold and `lookahead` pieces of preview, until nothing keeps the combo
    /// or `cap` pieces are placed. With the 7-bag the bot knows which pieces are left in the
    /// current bag (every dealt piece was shown in the preview); with other generators it
    /// treats the unseen pieces as uniformly random. The hold starts empty. `start` is the well
    /// to start from ([`Well::START`] is combo mode's); `None` if the model does not know it.
    pub fn run(
        &self,
        generator: Generator,
        seed: u32,
        lookahead: usize,
        start: Well,
        cap: u64,
    ) -> Option<Run> {
        self.run_observed(generator, seed, lookahead, start, cap, |_| {})
    }

    /// [`ComboBot::run`], showing `observe` every position the bot decides in (benchmarks
    /// replay them).
    pub fn run_observed(
        &self,
        generator: Generator,
        seed: u32,
        lookahead: usize,
        start: Well,
        cap: u64,
        observe: impl FnMut(&Position),
    ) -> Option<Run> {
        let source = PieceSource::new(generator, seed);
        let bag = generator == Generator::Bag;
        self.run_pieces(source, bag, lookahead, start, cap, observe)
    }

    /// [`ComboBot::run_observed`] with the pieces of `source`, a 7-bag when `bag` (the bot then
    /// knows what is left of each bag), otherwise taken as uniformly random. `source` is meant
    /// to be endless, as generators are (should it end, I pieces follow).
    pub fn run_pieces(
        &self,
        mut source: impl Iterator<Item = Piece>,
        bag: bool,
        lookahead: usize,
        start: Well,
        cap: u64,
        mut observe: impl FnMut(&Position),
    ) -> Option<Run> {
        let mut well = self.model().id(start)?;
        let mut recent: VecDeque<Piece> = VecDeque::with_capacity(8);
        let mut dealt = 0usize;
        let mut deal = |recent: &mut VecDeque<Piece>, dealt: &mut usize| {
            let p = source.next().unwrap_or(Piece::I);
            *dealt += 1;
            if recent.len() == 7 {
                recent.pop_front();
            }
            recent.push_back(p);
            p
        };
        let mut current = deal(&mut recent, &mut dealt);
        let mut queue: VecDeque<Piece> = (0..lookahead)
            .map(|_| deal(&mut recent, &mut dealt))
            .collect();
        let mut position = Position {
            well,
            current,
            hold: None,
            can_hold: true,
            queue: Vec::with_capacity(lookahead),
            knowledge: Knowledge::Uniform,
        };
        let mut hold: Option<Piece> = None;
        let mut can_hold = true;
        let mut placed = 0;
        while placed < cap {
            let knowledge = if bag {
                Knowledge::bag_after(dealt, recent.iter().copied())
            } else {
                Knowledge::Uniform
            };
            position.well = well;
            position.current = current;
            position.hold = hold;
            position.can_hold = can_hold;
            position.queue.clear();
            position.queue.extend(queue.iter().copied());
            position.knowledge = knowledge;
            observe(&position);
            let Some(choice) = self.choose_at(&position) else {
                break;
            };
            let mut next = |queue: &mut VecDeque<Piece>, recent: &mut VecDeque<Piece>| {
                queue.push_back(deal(recent, &mut dealt));
                queue.pop_front().unwrap_or(Piece::I)
            };
            if choice.hold {
                match hold.replace(current) {
                    Some(held) => current = held,
                    None => current = next(&mut queue, &mut recent),
                }
            }
            let Some(t) = choice.placement else {
                can_hold = false;
                continue;
            };
            well = t.to;
            placed += 1;
            current = next(&mut queue, &mut recent);
            can_hold = true;
        }
        Some(Run {
            placed,
            capped: placed >= cap,
        })
    }
}
