//! What a frame must redraw: nothing, only what time alone changes (the game's stats column:
//! its clock, and pieces a second before the first lock), or the whole screen.
//!
//! A front end that keeps what it showed draws a [`Damage::Time`] frame by redrawing only
//! [`crate::App::time_area`] ([`crate::App::render_time`]); every other change redraws all.

/// What changed since the last frame, as far as drawing goes (ordered: `All` covers `Time`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Damage {
    /// Nothing visible.
    #[default]
    None,
    /// Only the game clock's shown value (the game itself, its effects and everything around
    /// it are as the last frame showed them).
    Time,
    /// Anything else: the whole screen.
    All,
}

impl Damage {
    /// Both changes together.
    pub fn and(self, other: Damage) -> Damage {
        self.max(other)
    }

    /// A change that is whole or nothing: `true` is [`Damage::All`].
    pub fn all_if(changed: bool) -> Damage {
        if changed { Damage::All } else { Damage::None }
    }
}

#[cfg(test)]
mod tests {
    use super::Damage;

    #[test]
    fn the_larger_change_wins() {
        assert_eq!(Damage::None.and(Damage::Time), Damage::Time);
        assert_eq!(Damage::Time.and(Damage::All), Damage::All);
        assert_eq!(Damage::All.and(Damage::None), Damage::All);
        assert_eq!(Damage::all_if(false), Damage::None);
        assert_eq!(Damage::all_if(true), Damage::All);
    }
}
