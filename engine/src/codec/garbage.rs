//! A mode's [`GarbageSettings`]' binary form, in replays of format 4: every value as a
//! varint (each enum as its index in its `ALL`), read back through [`GarbageSettings::new`],
//! so a replay's settings are clamped like a host's.

use super::{Reader, put};
use crate::garbage_settings::{
    BackToBack, Blocking, ComboTable, GarbageDraft, GarbageSettings, SpinBonus,
};
use crate::replay::ReplayError;

fn index<T: PartialEq>(all: &[T], v: &T) -> u64 {
    all.iter().position(|x| x == v).unwrap_or(0) as u64
}

pub(crate) fn write_garbage(w: &mut Vec<u8>, g: &GarbageSettings) {
    let v = g.values();
    for n in [
        u64::from(v.multiplier),
        u64::from(v.multiplier_increase),
        u64::from(v.multiplier_margin),
        u64::from(v.cap),
        u64::from(v.cap_increase),
        u64::from(v.cap_margin),
        u64::from(v.messiness),
        u64::from(v.hole_size),
        index(Blocking::ALL, &v.blocking),
        index(BackToBack::ALL, &v.b2b),
        index(ComboTable::ALL, &v.combo),
        index(SpinBonus::ALL, &v.spins),
        u64::from(v.all_clear),
        u64::from(v.opener),
    ] {
        put(w, n);
    }
}

pub(crate) fn read_garbage(r: &mut Reader<'_>) -> Result<GarbageSettings, ReplayError> {
    fn pick<T: Copy>(all: &[T], i: u64) -> Result<T, ReplayError> {
        usize::try_from(i)
            .ok()
            .and_then(|i| all.get(i).copied())
            .ok_or(ReplayError::Malformed("garbage setting"))
    }
    let draft = GarbageDraft {
        multiplier: r.small("garbage multiplier")?,
        multiplier_increase: r.small("garbage multiplier")?,
        multiplier_margin: r.small("garbage margin")?,
        cap: r.small("garbage cap")?,
        cap_increase: r.small("garbage cap")?,
        cap_margin: r.small("garbage margin")?,
        messiness: r.small("messiness")?,
        hole_size: r.small("hole size")?,
        blocking: pick(Blocking::ALL, r.var()?)?,
        b2b: pick(BackToBack::ALL, r.var()?)?,
        combo: pick(ComboTable::ALL, r.var()?)?,
        spins: pick(SpinBonus::ALL, r.var()?)?,
        all_clear: r.small("all clear")?,
        opener: r.small("opener")?,
    };
    Ok(GarbageSettings::new(draft))
}
