//! A [`Tuning`]'s binary form, in replays of format 2 and in snapshots.

use super::{Reader, put};
use crate::generator::Generator;
use crate::kicks::RotationSystem;
use crate::replay::ReplayError;
use crate::ruleset::Tuning;

/// `None` as 0, a value as itself + 1.
fn put_opt(w: &mut Vec<u8>, v: Option<u32>) {
    put(w, v.map_or(0, |v| u64::from(v) + 1));
}

pub(crate) fn write_tuning(w: &mut Vec<u8>, t: &Tuning) {
    w.push(match t.rotation {
        None => 0,
        Some(RotationSystem::Super) => 1,
        Some(RotationSystem::Classic) => 2,
        Some(RotationSystem::Ocular) => 3,
        Some(RotationSystem::ClassicL) => 4,
    });
    match t.generator {
        None => w.push(0),
        Some(Generator::Bag) => w.push(1),
        Some(Generator::Stock {
            multiplicity,
            restock,
        }) => {
            w.push(2);
            w.push(multiplicity);
            w.push(restock);
        }
        Some(Generator::Recency { snap_centi }) => {
            w.push(3);
            put(w, u64::from(snap_centi));
        }
        Some(Generator::Uniform) => w.push(4),
        Some(Generator::BalanceRelative) => w.push(5),
    }
    for v in [
        t.lock_delay,
        t.ground_cap,
        t.line_clear_delay,
        t.appearance_delay,
        t.hard_drop_delay,
    ] {
        put_opt(w, v);
    }
    w.push(u8::from(t.no_soft_drop_lock));
}

pub(crate) fn read_tuning(r: &mut Reader<'_>) -> Result<Tuning, ReplayError> {
    let rotation = match r.byte()? {
        0 => None,
        1 => Some(RotationSystem::Super),
        2 => Some(RotationSystem::Classic),
        3 => Some(RotationSystem::Ocular),
        4 => Some(RotationSystem::ClassicL),
        _ => return Err(ReplayError::Malformed("rotation system")),
    };
    let generator = match r.byte()? {
        0 => None,
        1 => Some(Generator::Bag),
        2 => Some(Generator::Stock {
            multiplicity: r.byte()?,
            restock: r.byte()?,
        }),
        3 => Some(Generator::Recency {
            snap_centi: r.small("snap")?,
        }),
        4 => Some(Generator::Uniform),
        5 => Some(Generator::BalanceRelative),
        _ => return Err(ReplayError::Malformed("generator")),
    };
    let mut opt = || -> Result<Option<u32>, ReplayError> {
        match r.var()? {
            0 => Ok(None),
            v => u32::try_from(v - 1)
                .map(Some)
                .map_err(|_| ReplayError::Malformed("tuning")),
        }
    };
    let (lock_delay, ground_cap, line_clear_delay, appearance_delay, hard_drop_delay) =
        (opt()?, opt()?, opt()?, opt()?, opt()?);
    let no_soft_drop_lock = r.flag()?;
    Ok(Tuning {
        rotation,
        generator,
        lock_delay,
        ground_cap,
        line_clear_delay,
        appearance_delay,
        hard_drop_delay,
        no_soft_drop_lock,
    })
}
