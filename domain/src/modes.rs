//! Which ruleset each mode plays, under which rulesets it has a leaderboard, and what its
//! boards measure: one table ([`TABLE`]), read by the UI's mode menu, the server's boards and
//! profiles, the judge and `minotty play` alike.
//!
//! A mode either takes the ruleset the player chose (40 lines, marathon, ultra, endless,
//! custom) or always plays one (master, cheese, combo, classic and survival `standard`; puzzle
//! descent and ascent `tetrs`: puzzle's stages are built on Ocular's kicks, and they are what
//! descent's and ascent's pieces climb by; classic replaces the ruleset's gravity, scoring and lock down
//! with the NES game's, so one board under the main ruleset says it all, and survival digs
//! cheese's garbage as cheese does). A mode's boards are a separate column: endless and custom take a ruleset but
//! have no board, puzzle has its progress per account instead.

use minotty_engine::{ModeKind, RulesetId, Stats};

/// Which ruleset a mode plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plays {
    /// The ruleset the player chose.
    Chosen,
    /// Always this one.
    Fixed(RulesetId),
}

/// What a mode's boards rank a game on (the ranking's key: `ranking::rank_key`), what a game
/// must have achieved in it to rank, and the figure its charts draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// The time to the goal, less is better (40 lines).
    Time,
    /// Points, more is better (marathon, ultra); rank buckets of 2^`bucket_shift` points.
    Points { bucket_shift: u32 },
    /// Lines, more is better, then the time, less is better (master).
    LinesThenTime,
    /// Pieces to the goal, fewer is better (cheese).
    Pieces,
    /// The longest combo (combo).
    Combo,
    /// Gems, more is better: the mode's score, a point each (descent).
    Gems,
    /// The time the game lasted, more is better (survival); it counts once a garbage row was
    /// dug (a game that dug none was only waiting for the garbage to top it out).
    TimeSurvived,
    /// Nothing: the mode has no leaderboard (custom, endless, puzzle).
    Unranked,
}

impl Measure {
    /// The figure a chart shows for a game with `stats`: the time, lines, pieces or the
    /// longest combo where that is the measure, the score otherwise.
    pub fn figure(self, stats: &Stats) -> u64 {
        match self {
            Measure::Time | Measure::TimeSurvived => stats.time,
            Measure::LinesThenTime => u64::from(stats.lines),
            Measure::Pieces => u64::from(stats.pieces),
            Measure::Combo => u64::from(stats.max_combo),
            Measure::Points { .. } | Measure::Gems | Measure::Unranked => stats.score,
        }
    }

    /// What [`Measure::figure`] is called.
    pub fn figure_name(self) -> &'static str {
        match self {
            Measure::Time | Measure::TimeSurvived => "time",
            Measure::LinesThenTime => "lines",
            Measure::Pieces => "pieces",
            Measure::Combo => "combo",
            Measure::Gems => "gems",
            Measure::Points { .. } | Measure::Unranked => "score",
        }
    }

    /// What a game with `stats` lacks to count in this measure (none: it achieved something;
    /// the goal measures, time and pieces, need their goal instead, which the judge checks).
    pub fn lacks(self, stats: &Stats) -> Option<&'static str> {
        let (lacks, what) = match self {
            Measure::LinesThenTime => (stats.lines == 0, "no line cleared"),
            Measure::Points { .. } => (stats.score == 0, "no points scored"),
            Measure::Combo => (stats.max_combo == 0, "no combo"),
            Measure::Gems => (stats.score == 0, "no gem collected"),
            Measure::TimeSurvived => (stats.garbage_cleared == 0, "no garbage row dug"),
            Measure::Time | Measure::Pieces | Measure::Unranked => return None,
        };
        lacks.then_some(what)
    }

    /// Whether the smaller figure is the better one (40 lines' time, cheese's pieces), so that
    /// a chart draws it upwards.
    pub fn lower_is_better(self) -> bool {
        matches!(self, Measure::Time | Measure::Pieces)
    }

    /// Whether the figure is a time in ms (40 lines', survival's), written as a clock.
    pub fn is_time(self) -> bool {
        matches!(self, Measure::Time | Measure::TimeSurvived)
    }
}

/// What a board (and a game's result) shows first of a game of the mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shows {
    /// Its time ("Time").
    Time,
    /// Its score ("Score").
    Score,
    /// Its lines and time ("Result").
    LinesAndTime,
    /// Its pieces ("Pieces").
    Pieces,
    /// Its longest combo ("Combo").
    Combo,
    /// Its gems, the score ("Gems").
    Gems,
    /// The stage it reached ("Result").
    Stage,
}

/// What a board shows second of a game, after its [`Shows`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Second {
    /// Pieces per second ("PPS").
    Pps,
    /// Lines cleared ("Lines").
    Lines,
    /// Its time ("Time").
    Time,
    /// Pieces locked ("Pieces").
    Pieces,
}

/// What the game screens do differently by mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    /// The retry key starts a fresh game at once during play (no question).
    pub retry_at_once: bool,
    /// A game left early is stored (the others are dropped: a goal not reached, a custom or
    /// puzzle game, mean nothing unfinished).
    pub left_games_stored: bool,
    /// A leaderboard game may be raced as a ghost.
    pub races_ghosts: bool,
    /// The clock shows tenths (so does any timed custom mode's).
    pub clock_tenths: bool,
}

const NO_FLAGS: Flags = Flags {
    retry_at_once: false,
    left_games_stored: false,
    races_ghosts: false,
    clock_tenths: false,
};

/// One row of [`TABLE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModeRules {
    pub kind: ModeKind,
    pub plays: Plays,
    /// The rulesets with a board of this mode, its home board first; empty for a mode without
    /// a leaderboard.
    pub boards: &'static [RulesetId],
    /// What its boards measure ([`Measure::Unranked`] exactly when `boards` is empty).
    pub measure: Measure,
    /// What a game's result says, and a board's columns after rank and name.
    pub shows: (Shows, Option<Second>),
    pub flags: Flags,
}

const ALL_RULESETS: &[RulesetId] = &[RulesetId::Standard, RulesetId::TuiTetris, RulesetId::Tetrs];
const STANDARD: &[RulesetId] = &[RulesetId::Standard];
const TETRS: &[RulesetId] = &[RulesetId::Tetrs];

/// Every mode, in [`ModeKind::ALL`]'s order.
pub const TABLE: [ModeRules; 13] = [
    row(
        ModeKind::Sprint,
        Plays::Chosen,
        ALL_RULESETS,
        Measure::Time,
        (Shows::Time, Some(Second::Pps)),
        Flags {
            retry_at_once: true,
            races_ghosts: true,
            clock_tenths: true,
            ..NO_FLAGS
        },
    ),
    row(
        ModeKind::Marathon,
        Plays::Chosen,
        ALL_RULESETS,
        Measure::Points { bucket_shift: 11 },
        (Shows::Score, Some(Second::Lines)),
        Flags {
            left_games_stored: true,
            ..NO_FLAGS
        },
    ),
    row(
        ModeKind::Ultra,
        Plays::Chosen,
        ALL_RULESETS,
        Measure::Points { bucket_shift: 10 },
        (Shows::Score, Some(Second::Lines)),
        Flags {
            retry_at_once: true,
            left_games_stored: true,
            races_ghosts: true,
            clock_tenths: true,
        },
    ),
    row(
        ModeKind::Master,
        FIXED_STANDARD,
        STANDARD,
        Measure::LinesThenTime,
        (Shows::LinesAndTime, Some(Second::Pps)),
        Flags {
            left_games_stored: true,
            clock_tenths: true,
            ..NO_FLAGS
        },
    ),
    row(
        ModeKind::Cheese,
        FIXED_STANDARD,
        STANDARD,
        Measure::Pieces,
        (Shows::Pieces, Some(Second::Time)),
        Flags {
            retry_at_once: true,
            clock_tenths: true,
            ..NO_FLAGS
        },
    ),
    row(
        ModeKind::Combo,
        FIXED_STANDARD,
        STANDARD,
        Measure::Combo,
        (Shows::Combo, Some(Second::Pieces)),
        Flags {
            retry_at_once: true,
            left_games_stored: true,
            ..NO_FLAGS
        },
    ),
    row(
        ModeKind::Custom,
        Plays::Chosen,
        &[],
        Measure::Unranked,
        (Shows::LinesAndTime, None),
        NO_FLAGS,
    ),
    row(
        ModeKind::Endless,
        Plays::Chosen,
        &[],
        Measure::Unranked,
        (Shows::Score, Some(Second::Lines)),
        Flags {
            left_games_stored: true,
            ..NO_FLAGS
        },
    ),
    row(
        ModeKind::Puzzle,
        FIXED_TETRS,
        &[],
        Measure::Unranked,
        (Shows::Stage, None),
        NO_FLAGS,
    ),
    row(
        ModeKind::Descent,
        FIXED_TETRS,
        TETRS,
        Measure::Gems,
        (Shows::Gems, None),
        Flags {
            left_games_stored: true,
            ..NO_FLAGS
        },
    ),
    row(
        ModeKind::Classic,
        FIXED_STANDARD,
        STANDARD,
        Measure::Points { bucket_shift: 11 },
        (Shows::Score, Some(Second::Lines)),
        Flags {
            left_games_stored: true,
            ..NO_FLAGS
        },
    ),
    row(
        ModeKind::Survival,
        FIXED_STANDARD,
        STANDARD,
        Measure::TimeSurvived,
        (Shows::Time, Some(Second::Lines)),
        Flags {
            retry_at_once: true,
            left_games_stored: true,
            clock_tenths: true,
            ..NO_FLAGS
        },
    ),
    row(
        ModeKind::Ascent,
        FIXED_TETRS,
        TETRS,
        Measure::Gems,
        (Shows::Gems, None),
        Flags {
            left_games_stored: true,
            ..NO_FLAGS
        },
    ),
];

const FIXED_STANDARD: Plays = Plays::Fixed(RulesetId::Standard);
const FIXED_TETRS: Plays = Plays::Fixed(RulesetId::Tetrs);

const fn row(
    kind: ModeKind,
    plays: Plays,
    boards: &'static [RulesetId],
    measure: Measure,
    shows: (Shows, Option<Second>),
    flags: Flags,
) -> ModeRules {
    ModeRules {
        kind,
        plays,
        boards,
        measure,
        shows,
        flags,
    }
}

// The table holds every kind at its discriminant's index, checked when compiling.
const _: () = {
    let mut i = 0;
    while i < TABLE.len() {
        assert!(TABLE[i].kind as usize == i && ModeKind::ALL[i] as usize == i);
        // A mode has boards exactly when its boards measure something.
        let unranked = matches!(TABLE[i].measure, Measure::Unranked);
        assert!(unranked == TABLE[i].boards.is_empty());
        i += 1;
    }
    assert!(TABLE.len() == ModeKind::ALL.len());
};

/// The row of `kind`.
pub fn rules(kind: ModeKind) -> &'static ModeRules {
    &TABLE[kind as usize]
}

/// What `kind`'s boards measure.
pub fn measure(kind: ModeKind) -> Measure {
    rules(kind).measure
}

/// Whether a preset of `kind` plays the ruleset the player chose (else [`fixed_ruleset`]).
pub fn takes_ruleset(kind: ModeKind) -> bool {
    rules(kind).plays == Plays::Chosen
}

/// The ruleset a preset that does not take one plays (`standard` for the modes that do).
pub fn fixed_ruleset(kind: ModeKind) -> RulesetId {
    match rules(kind).plays {
        Plays::Fixed(r) => r,
        Plays::Chosen => RulesetId::Standard,
    }
}

/// The ruleset a preset of `kind` plays when the player's chosen one is `chosen`.
pub fn preset_ruleset(kind: ModeKind, chosen: RulesetId) -> RulesetId {
    match rules(kind).plays {
        Plays::Fixed(r) => r,
        Plays::Chosen => chosen,
    }
}

/// Modes with boards: `many` picks those with a board under more than one ruleset.
const fn select<const N: usize>(many: bool) -> [ModeKind; N] {
    let mut out = [ModeKind::Sprint; N];
    let (mut i, mut n) = (0, 0);
    while i < TABLE.len() {
        let boards = TABLE[i].boards.len();
        if (many && boards > 1) || (!many && boards > 0) {
            out[n] = TABLE[i].kind;
            n += 1;
        }
        i += 1;
    }
    assert!(n == N, "the count does not match the table");
    out
}

/// The modes with a leaderboard, in the table's order (what the leaderboards' tabs list).
pub const RANKED: [ModeKind; 10] = select(false);
const RULESET_MODES: [ModeKind; 3] = select(true);

/// The modes with a leaderboard.
pub fn ranked_modes() -> [ModeKind; 10] {
    RANKED
}

/// The modes that also have boards under rulesets other than their home one.
pub fn ruleset_modes() -> [ModeKind; 3] {
    RULESET_MODES
}

/// The ruleset of a mode's one board (or of its first, for the modes of [`ruleset_modes`]):
/// descent's and ascent's are `tetrs`, every other mode's `standard` (a mode without a board too).
pub fn home_ruleset(mode: ModeKind) -> RulesetId {
    rules(mode)
        .boards
        .first()
        .copied()
        .unwrap_or(RulesetId::Standard)
}

/// Whether `mode` has a board under `ruleset`.
pub fn has_board(mode: ModeKind, ruleset: RulesetId) -> bool {
    rules(mode).boards.contains(&ruleset)
}

/// Every board of a profile in the order it lists them: each mode's home board, then the
/// other rulesets' boards, ruleset by ruleset.
pub fn profile_boards() -> Vec<(ModeKind, RulesetId)> {
    let home = ranked_modes().map(|m| (m, home_ruleset(m)));
    let others = RulesetId::ALL.into_iter().flat_map(|r| {
        ruleset_modes()
            .into_iter()
            .filter(move |&m| r != home_ruleset(m) && has_board(m, r))
            .map(move |m| (m, r))
    });
    home.into_iter().chain(others).collect()
}

#[cfg(test)]
mod tests;
