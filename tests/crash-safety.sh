#!/bin/sh
# Crash safety for RELIABILITY.md: PLAYERS registered players top out short games as fast as
# they can while the release server is SIGKILLed (ROUNDS times, KILL_AFTER seconds of play
# each); after a restart on the same database every game the server acknowledged must be there
# and `PRAGMA integrity_check` must say ok. See tests/src/bin/minotty-crash/main.rs.
# Usage (from the repository root, after
#   cargo build --release -p minotty -p minotty-tests --bins):
#   tests/crash-safety.sh [PLAYERS [KILL_AFTER [ROUNDS]]]     e.g. tests/crash-safety.sh 200 20 3
# Environment: PORT (2350). The database, host key and server logs stay in the directory printed
# first.
set -eu
BIN=${BIN:-target/release}
exec "$BIN/minotty-crash" --bin "$BIN/minotty" --port "${PORT:-2350}" \
  --players "${1:-200}" --kill-after "${2:-20}" --rounds "${3:-1}"
