//! The options of a custom game: the ruleset and every value a [`Tuning`] can override, the
//! player's handling and preview for this game, and the mode (start level, level increase, one
//! limit, an optional seed).
//!
//! Defaults come from the chosen ruleset ([`Ruleset::get`]); a value the player never changed,
//! or stepped back to the ruleset's, stays `None` in the `Tuning` (the replay then records no
//! override). Handling and preview default to the player's own settings.

use minotty_engine::game::MAX_PREVIEW;
use minotty_engine::ruleset::{LockDown, MAX_DELAY, SoftDrop};
use minotty_engine::{Generator, Handling, Mode, RotationSystem, Ruleset, RulesetId, Stat, Tuning};

mod presets;

pub use presets::PRESETS;

use crate::rules::{GeneratorKind, generator_name, rotation_label, ruleset_name};
use crate::settings::{MAX_ARR, MAX_DAS, MAX_SDF, Settings, cycle, step};
use crate::text::{StackStr, clock, sfmt};

/// The limit of a custom game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitKind {
    None,
    Time,
    Lines,
    Pieces,
    Score,
    Level,
}

impl LimitKind {
    pub const ALL: [LimitKind; 6] = [
        LimitKind::None,
        LimitKind::Time,
        LimitKind::Lines,
        LimitKind::Pieces,
        LimitKind::Score,
        LimitKind::Level,
    ];

    pub fn label(self) -> &'static str {
        ["none", "time", "lines", "pieces", "score", "level"][self as usize]
    }

    /// The engine stat, the step and the range of the value (time in seconds).
    fn spec(self) -> Option<(Stat, u32, u32, u32)> {
        match self {
            LimitKind::None => None,
            LimitKind::Time => Some((Stat::Time, 30, 10, 3600)),
            LimitKind::Lines => Some((Stat::Lines, 10, 1, 9999)),
            LimitKind::Pieces => Some((Stat::Pieces, 10, 1, 9999)),
            LimitKind::Score => Some((Stat::Score, 5000, 1000, 9_999_000)),
            LimitKind::Level => Some((Stat::Level, 1, 1, 30)),
        }
    }
}

/// One row of the options, top to bottom. Some rows only show when they apply (the stock
/// rows for a stock generator, the ground cap for timer lock down...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opt {
    /// Empty board, or one of the stored snapshots (handled by the mode select screen, which
    /// holds the list; shown only when there is one).
    StartFrom,
    Ruleset,
    /// tetro-tui's gameplay slots (`custom/presets.rs`): several rows at once.
    Preset,
    Rotation,
    Generator,
    StockBags,
    Restock,
    Snap,
    Das,
    Arr,
    Sdf,
    LockDelay,
    GroundCap,
    LineClearDelay,
    AppearanceDelay,
    HardDropDelay,
    SoftDropLock,
    Preview,
    StartLevel,
    LevelIncrease,
    Limit,
    LimitValue,
    Seed,
    Start,
}

impl Opt {
    pub const ALL: [Opt; 24] = [
        Opt::StartFrom,
        Opt::Ruleset,
        Opt::Preset,
        Opt::Rotation,
        Opt::Generator,
        Opt::StockBags,
        Opt::Restock,
        Opt::Snap,
        Opt::Das,
        Opt::Arr,
        Opt::Sdf,
        Opt::LockDelay,
        Opt::GroundCap,
        Opt::LineClearDelay,
        Opt::AppearanceDelay,
        Opt::HardDropDelay,
        Opt::SoftDropLock,
        Opt::Preview,
        Opt::StartLevel,
        Opt::LevelIncrease,
        Opt::Limit,
        Opt::LimitValue,
        Opt::Seed,
        Opt::Start,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Opt::StartFrom => "Start from",
            Opt::Ruleset => "Ruleset",
            Opt::Preset => "Gameplay preset",
            Opt::Rotation => "Rotation",
            Opt::Generator => "Pieces",
            Opt::StockBags => "  bags in stock",
            Opt::Restock => "  restock at",
            Opt::Snap => "  recency snap",
            Opt::Das => "DAS",
            Opt::Arr => "ARR",
            Opt::Sdf => "Soft drop factor",
            Opt::LockDelay => "Lock delay",
            Opt::GroundCap => "Ground time cap",
            Opt::LineClearDelay => "Line clear delay",
            Opt::AppearanceDelay => "Appearance delay",
            Opt::HardDropDelay => "Hard drop delay",
            Opt::SoftDropLock => "Soft drop locks",
            Opt::Preview => "Preview",
            Opt::StartLevel => "Start level",
            Opt::LevelIncrease => "Level increase",
            Opt::Limit => "Limit",
            Opt::LimitValue => "Limit value",
            Opt::Seed => "Seed",
            Opt::Start => "Start",
        }
    }
}

/// A shown value and whether it differs from its default (drawn with a mark).
pub type Shown = (StackStr<32>, bool);

/// The options of a custom game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CustomOptions {
    /// The rule values the player picked, kept across ruleset switches; they may equal the
    /// ruleset's own ([`CustomOptions::tuning`] keeps only those that differ).
    pub choices: Tuning,
    /// `None`: the player's own handling and preview settings.
    pub das: Option<u32>,
    pub arr: Option<u32>,
    pub sdf: Option<u32>,
    pub preview: Option<u8>,
    pub start_level: u32,
    pub level_increase: bool,
    pub limit: LimitKind,
    /// The value of each limit kind, kept while the player switches between them.
    pub values: [u32; 6],
    pub seed: Option<u32>,
    /// The stored snapshot to start from (its id), or `None` for an empty board.
    pub start_from: Option<i64>,
    /// Whether any snapshot is stored: "Start from" only shows then.
    pub has_snapshots: bool,
}

impl Default for CustomOptions {
    fn default() -> Self {
        CustomOptions {
            choices: Tuning::default(),
            das: None,
            arr: None,
            sdf: None,
            preview: None,
            start_level: 0,
            level_increase: true,
            limit: LimitKind::None,
            values: [0, 180, 40, 100, 50_000, 15],
            seed: None,
            start_from: None,
            has_snapshots: false,
        }
    }
}

/// Steps of the delays (ms) and their ranges.
const DELAY_STEP: i32 = 10;
const LOCK_DELAY_RANGE: (u32, u32) = (50, 5000);
const GROUND_CAP_RANGE: (u32, u32) = (250, 20_000);
const GROUND_CAP_STEP: i32 = 250;
const SNAP_STEP: i32 = 25;
const SNAP_MAX: u32 = 1000;
const MAX_BAGS: u32 = 4;

impl CustomOptions {
    pub fn value(&self) -> u32 {
        self.values[self.limit as usize]
    }

    pub fn mode(&self) -> Mode {
        let limit = self.limit.spec().map(|(stat, ..)| {
            let v = u64::from(self.value());
            (stat, if stat == Stat::Time { v * 1000 } else { v })
        });
        Mode::custom(self.start_level, self.level_increase, limit)
    }

    /// The overrides of `ruleset`: only values that differ from it are `Some`.
    pub fn tuning(&self, ruleset: RulesetId) -> Tuning {
        let r = Ruleset::get(ruleset);
        let differs = |v: Option<u32>, d: u32| v.filter(|&v| v != d);
        let timer = matches!(r.lock, LockDown::Timer { .. });
        let cap = match r.lock {
            LockDown::Timer { ground_cap } => ground_cap,
            LockDown::Extended { .. } | LockDown::Gravity => 0,
        };
        Tuning {
            rotation: self.choices.rotation.filter(|&x| x != r.rotation),
            generator: self.choices.generator.filter(|&g| g != r.generator),
            lock_delay: differs(self.choices.lock_delay, r.lock_delay),
            ground_cap: differs(self.choices.ground_cap, cap).filter(|_| timer),
            line_clear_delay: differs(self.choices.line_clear_delay, r.line_clear_delay),
            appearance_delay: differs(self.choices.appearance_delay, r.appearance_delay),
            hard_drop_delay: differs(self.choices.hard_drop_delay, r.hard_drop_delay),
            no_soft_drop_lock: self.choices.no_soft_drop_lock && tetrs_soft_drop(r),
        }
    }

    /// The handling of this game: the player's, with the values changed here.
    pub fn handling(&self, yours: Handling) -> Option<Handling> {
        if self.das.is_none() && self.arr.is_none() && self.sdf.is_none() {
            return None;
        }
        Some(Handling {
            das: self.das.unwrap_or(yours.das),
            arr: self.arr.unwrap_or(yours.arr),
            sdf: self.sdf.unwrap_or(yours.sdf),
            ..yours
        })
    }

    /// Whether row `opt` applies under `ruleset` with the generator chosen.
    pub fn shows(&self, opt: Opt, ruleset: RulesetId) -> bool {
        let r = Ruleset::get(ruleset);
        let generator = self.choices.generator.unwrap_or(r.generator);
        match opt {
            Opt::StockBags | Opt::Restock => matches!(generator, Generator::Stock { .. }),
            Opt::Snap => matches!(generator, Generator::Recency { .. }),
            Opt::GroundCap => matches!(r.lock, LockDown::Timer { .. }),
            Opt::SoftDropLock => tetrs_soft_drop(r),
            Opt::LimitValue => self.limit != LimitKind::None,
            Opt::StartFrom => self.has_snapshots,
            _ => true,
        }
    }

    /// The rows shown under `ruleset`, in order (no allocation: a filtered iterator).
    pub fn rows(&self, ruleset: RulesetId) -> impl Iterator<Item = Opt> + '_ {
        Opt::ALL
            .into_iter()
            .filter(move |&o| self.shows(o, ruleset))
    }

    /// The row at index `i` of the rows shown, if any.
    pub fn row(&self, i: usize, ruleset: RulesetId) -> Option<Opt> {
        self.rows(ruleset).nth(i)
    }

    pub fn row_count(&self, ruleset: RulesetId) -> usize {
        self.rows(ruleset).count()
    }

    /// Steps `opt` by `dir` (-1 or +1). The ruleset row changes `ruleset`.
    pub fn change(&mut self, opt: Opt, dir: i32, ruleset: &mut RulesetId, settings: &Settings) {
        let r = Ruleset::get(*ruleset);
        let delay = |v: Option<u32>, d: u32, lo: u32, hi: u32, by: i32| {
            Some(step(v.unwrap_or(d), dir * by, lo, hi))
        };
        match opt {
            Opt::Ruleset => *ruleset = cycle(&RulesetId::ALL, *ruleset, dir),
            Opt::Preset => self.step_preset(dir),
            Opt::Rotation => {
                self.choices.rotation = Some(cycle(
                    &RotationSystem::ALL,
                    self.choices.rotation.unwrap_or(r.rotation),
                    dir,
                ));
            }
            Opt::Generator => {
                let now = GeneratorKind::of(self.choices.generator.unwrap_or(r.generator));
                let next = cycle(&GeneratorKind::ALL, now, dir);
                self.choices.generator = Some(if GeneratorKind::of(r.generator) == next {
                    r.generator
                } else {
                    next.default_generator()
                });
            }
            Opt::StockBags | Opt::Restock => {
                if let Generator::Stock {
                    multiplicity,
                    restock,
                } = self.choices.generator.unwrap_or(r.generator)
                {
                    let (mut m, mut k) = (u32::from(multiplicity), u32::from(restock));
                    if opt == Opt::StockBags {
                        m = step(m, dir, 1, MAX_BAGS);
                    } else {
                        k = step(k, dir, 0, 7 * m - 1);
                    }
                    k = k.min(7 * m - 1);
                    self.choices.generator = Some(Generator::Stock {
                        multiplicity: m as u8,
                        restock: k as u8,
                    });
                }
            }
            Opt::Snap => {
                if let Generator::Recency { snap_centi } =
                    self.choices.generator.unwrap_or(r.generator)
                {
                    let s = step(u32::from(snap_centi), dir * SNAP_STEP, 0, SNAP_MAX);
                    self.choices.generator = Some(Generator::Recency {
                        snap_centi: s as u16,
                    });
                }
            }
            Opt::Das => self.das = delay(self.das, settings.handling.das, 0, MAX_DAS, 10),
            Opt::Arr => self.arr = delay(self.arr, settings.handling.arr, 0, MAX_ARR, 5),
            Opt::Sdf => self.sdf = delay(self.sdf, settings.handling.sdf, 0, MAX_SDF, 1),
            Opt::LockDelay => {
                let (lo, hi) = LOCK_DELAY_RANGE;
                self.choices.lock_delay =
                    delay(self.choices.lock_delay, r.lock_delay, lo, hi, DELAY_STEP);
            }
            Opt::GroundCap => {
                let (lo, hi) = GROUND_CAP_RANGE;
                let d = ground_cap(r);
                self.choices.ground_cap =
                    delay(self.choices.ground_cap, d, lo, hi, GROUND_CAP_STEP);
            }
            Opt::LineClearDelay => {
                let d = r.line_clear_delay;
                self.choices.line_clear_delay =
                    delay(self.choices.line_clear_delay, d, 0, 1000, DELAY_STEP);
            }
            Opt::AppearanceDelay => {
                let d = r.appearance_delay;
                self.choices.appearance_delay =
                    delay(self.choices.appearance_delay, d, 0, 1000, DELAY_STEP);
            }
            Opt::HardDropDelay => {
                let d = r.hard_drop_delay;
                self.choices.hard_drop_delay =
                    delay(self.choices.hard_drop_delay, d, 0, 1000, DELAY_STEP);
            }
            Opt::SoftDropLock => self.choices.no_soft_drop_lock = !self.choices.no_soft_drop_lock,
            Opt::Preview => {
                let p = u32::from(self.preview.unwrap_or(settings.preview));
                self.preview = Some(step(p, dir, 0, MAX_PREVIEW as u32) as u8);
            }
            Opt::StartLevel => self.start_level = step(self.start_level, dir, 0, 30),
            Opt::LevelIncrease => self.level_increase = !self.level_increase,
            Opt::Limit => self.limit = cycle(&LimitKind::ALL, self.limit, dir),
            Opt::LimitValue => {
                if let Some((_, by, lo, hi)) = self.limit.spec() {
                    let v = &mut self.values[self.limit as usize];
                    *v = step(*v, dir * by as i32, lo, hi);
                }
            }
            Opt::Seed | Opt::Start | Opt::StartFrom => {}
        }
        debug_assert!(MAX_DELAY >= GROUND_CAP_RANGE.0);
    }

    /// Puts `opt` back to its default (the ruleset's, or the player's setting).
    pub fn reset(&mut self, opt: Opt) {
        match opt {
            Opt::Preset => self.clear_preset(),
            Opt::Rotation => self.choices.rotation = None,
            Opt::Generator | Opt::StockBags | Opt::Restock | Opt::Snap => {
                self.choices.generator = None
            }
            Opt::Das => self.das = None,
            Opt::Arr => self.arr = None,
            Opt::Sdf => self.sdf = None,
            Opt::LockDelay => self.choices.lock_delay = None,
            Opt::GroundCap => self.choices.ground_cap = None,
            Opt::LineClearDelay => self.choices.line_clear_delay = None,
            Opt::AppearanceDelay => self.choices.appearance_delay = None,
            Opt::HardDropDelay => self.choices.hard_drop_delay = None,
            Opt::SoftDropLock => self.choices.no_soft_drop_lock = false,
            Opt::Preview => self.preview = None,
            Opt::Seed => self.seed = None,
            Opt::StartFrom => self.start_from = None,
            _ => {}
        }
    }

    /// The value of `opt` as shown, and whether it was changed from its default.
    pub fn shown(&self, opt: Opt, ruleset: RulesetId, settings: &Settings) -> Shown {
        let r = Ruleset::get(ruleset);
        let ms = |v: Option<u32>, d: u32| {
            (
                sfmt!(32; "{} ms", v.unwrap_or(d)),
                v.is_some_and(|v| v != d),
            )
        };
        let generator = self.choices.generator.unwrap_or(r.generator);
        match opt {
            Opt::Ruleset => (sfmt!(32; "{}", ruleset_name(ruleset)), false),
            Opt::Preset => match self.preset() {
                Some(i) => (sfmt!(32; "{}", PRESETS[i].name), true),
                None => (sfmt!(32; "-"), false),
            },
            Opt::Rotation => {
                let x = self.choices.rotation.unwrap_or(r.rotation);
                (rotation_label(x, r.turns_180), x != r.rotation)
            }
            Opt::Generator => {
                let name = match GeneratorKind::of(generator) {
                    GeneratorKind::Stock => sfmt!(32; "stock"),
                    GeneratorKind::Recency => sfmt!(32; "recency"),
                    _ => generator_name(generator),
                };
                (
                    name,
                    GeneratorKind::of(generator) != GeneratorKind::of(r.generator),
                )
            }
            Opt::StockBags | Opt::Restock => {
                let Generator::Stock {
                    multiplicity,
                    restock,
                } = generator
                else {
                    return (sfmt!(32; "-"), false);
                };
                let text = if opt == Opt::StockBags {
                    sfmt!(32; "{} x 7", multiplicity)
                } else if restock == 0 {
                    sfmt!(32; "when empty")
                } else {
                    sfmt!(32; "{} left", restock)
                };
                (text, generator != r.generator)
            }
            Opt::Snap => match generator {
                Generator::Recency { snap_centi } => (
                    sfmt!(32; "{}.{:02}", snap_centi / 100, snap_centi % 100),
                    generator != r.generator,
                ),
                _ => (sfmt!(32; "-"), false),
            },
            Opt::Das => ms(self.das, settings.handling.das),
            Opt::Arr => ms(self.arr, settings.handling.arr),
            Opt::Sdf => {
                let d = settings.handling.sdf;
                let v = self.sdf.unwrap_or(d);
                let text = if v == 0 {
                    sfmt!(32; "instant")
                } else {
                    sfmt!(32; "{}x", v)
                };
                (text, v != d)
            }
            Opt::LockDelay => ms(self.choices.lock_delay, r.lock_delay),
            Opt::GroundCap => ms(self.choices.ground_cap, ground_cap(r)),
            Opt::LineClearDelay => ms(self.choices.line_clear_delay, r.line_clear_delay),
            Opt::AppearanceDelay => ms(self.choices.appearance_delay, r.appearance_delay),
            Opt::HardDropDelay => ms(self.choices.hard_drop_delay, r.hard_drop_delay),
            Opt::SoftDropLock => {
                let text = if self.choices.no_soft_drop_lock {
                    "no"
                } else {
                    "yes"
                };
                (sfmt!(32; "{}", text), self.choices.no_soft_drop_lock)
            }
            Opt::Preview => {
                let d = settings.preview;
                let v = self.preview.unwrap_or(d);
                (sfmt!(32; "{}", v), v != d)
            }
            Opt::StartLevel => (sfmt!(32; "{}", self.start_level), self.start_level != 0),
            Opt::LevelIncrease => (
                sfmt!(32; "{}", if self.level_increase { "on" } else { "off" }),
                !self.level_increase,
            ),
            // No limit of its own: a snapshot's game keeps its mode's goal (`custom_setup`).
            Opt::Limit if self.limit == LimitKind::None && self.start_from.is_some() => {
                (sfmt!(32; "snapshot's"), false)
            }
            Opt::Limit => (sfmt!(32; "{}", self.limit.label()), false),
            Opt::LimitValue => (
                match self.limit {
                    LimitKind::None => sfmt!(32; "-"),
                    LimitKind::Time => {
                        sfmt!(32; "{}", clock(u64::from(self.value()) * 1000).as_str())
                    }
                    _ => sfmt!(32; "{}", self.value()),
                },
                false,
            ),
            Opt::Seed => match self.seed {
                Some(s) => (sfmt!(32; "{}", s), true),
                None => (sfmt!(32; "random"), false),
            },
            // The label of the snapshot is drawn by the mode select screen, which has the list.
            Opt::StartFrom => match self.start_from {
                None => (sfmt!(32; "empty"), false),
                Some(_) => (sfmt!(32; "snapshot"), true),
            },
            Opt::Start => (StackStr::new(), false),
        }
    }
}

fn ground_cap(r: &Ruleset) -> u32 {
    match r.lock {
        LockDown::Timer { ground_cap } => ground_cap,
        LockDown::Extended { .. } | LockDown::Gravity => 0,
    }
}

/// Whether the ruleset's soft drop locks on the ground (tetrs), so "no soft drop lock" means
/// something.
fn tetrs_soft_drop(r: &Ruleset) -> bool {
    matches!(r.soft_drop, SoftDrop::TetrsFactor)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untouched_options_tune_nothing() {
        let c = CustomOptions::default();
        for id in RulesetId::ALL {
            assert!(c.tuning(id).is_default(), "{id:?}");
        }
        assert_eq!(c.handling(Handling::default()), None);
    }

    #[test]
    fn values_back_at_the_ruleset_default_stay_none() {
        let mut c = CustomOptions::default();
        let s = Settings::default();
        let mut id = RulesetId::Tetrs;
        c.change(Opt::LockDelay, 1, &mut id, &s);
        assert_eq!(c.tuning(id).lock_delay, Some(510));
        c.change(Opt::LockDelay, -1, &mut id, &s);
        assert_eq!(c.tuning(id).lock_delay, None, "500 is tetrs' own");
        c.change(Opt::GroundCap, -1, &mut id, &s);
        assert_eq!(c.tuning(id).ground_cap, Some(2750));
        assert_eq!(
            c.tuning(RulesetId::Standard).ground_cap,
            None,
            "no ground cap under extended lock down"
        );
        c.change(Opt::SoftDropLock, 1, &mut id, &s);
        assert!(c.tuning(id).no_soft_drop_lock);
        assert!(!c.tuning(RulesetId::Standard).no_soft_drop_lock);
        c.change(Opt::Ruleset, 1, &mut id, &s);
        assert_eq!(id, RulesetId::Standard, "wraps around");
    }

    #[test]
    fn generators_and_their_rows() {
        let mut c = CustomOptions::default();
        let s = Settings::default();
        let mut id = RulesetId::Standard;
        assert!(!c.shows(Opt::StockBags, id) && !c.shows(Opt::Snap, id));
        c.change(Opt::Generator, 1, &mut id, &s);
        assert_eq!(
            c.choices.generator,
            Some(Generator::Stock {
                multiplicity: 2,
                restock: 7
            })
        );
        assert!(c.shows(Opt::StockBags, id) && c.shows(Opt::Restock, id));
        c.change(Opt::StockBags, -1, &mut id, &s);
        assert_eq!(
            c.choices.generator,
            Some(Generator::Stock {
                multiplicity: 1,
                restock: 6
            }),
            "restock stays below the stock"
        );
        c.change(Opt::Generator, 1, &mut id, &s);
        c.change(Opt::Snap, 1, &mut id, &s);
        assert_eq!(
            c.choices.generator,
            Some(Generator::Recency { snap_centi: 275 })
        );
        // Under tetrs recency is the ruleset's own: back to its snap, no override.
        let mut c = CustomOptions::default();
        let mut id = RulesetId::Tetrs;
        c.change(Opt::Generator, 1, &mut id, &s);
        c.change(Opt::Generator, -1, &mut id, &s);
        assert_eq!(c.tuning(id).generator, None);
        assert_eq!(
            c.row_count(id),
            Opt::ALL.len() - 4,
            "snap shows, stock, limit and start from (no snapshot stored) do not"
        );
    }
}
