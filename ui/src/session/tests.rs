//! Session tests: clock, countdown, pause, key releases.
