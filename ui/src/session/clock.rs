//! The game clock's resolution: what it shows, and so how often it asks for a frame.

/// The game clock ticks at the resolution it is shown at, on its own: a redraw each time the
/// shown value changes, never more for the clock (a tick that changes nothing visible draws
/// nothing). Tenths where players race the clock (40 lines, ultra, master:
/// [`minotty_engine::Mode::timed`]; and cheese, dug against the clock), whole seconds elsewhere
/// (marathon, endless, combo...), where the clock is only information and ten frames a second
/// would double what a player costs the server (BENCHMARKS.md, "The game clock's tenths").
pub fn clock_step_ms(mode: &minotty_engine::Mode) -> u64 {
    if mode.timed() || minotty_domain::modes::rules(mode.kind).flags.clock_tenths {
        100
    } else {
        1000
    }
}
