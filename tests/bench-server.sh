#!/bin/sh
# Server load figures for BENCHMARKS.md ("Server load"): a fresh release server on loopback with
# a throwaway database and host key, then N players from minotty-load for SECONDS seconds.
# Usage (from the repository root, after
#   cargo build --release -p minotty -p minotty-tests --bins):
#   tests/bench-server.sh N [SECONDS [LOAD-TOOL FLAGS...]]
# e.g. 200 players in 100 versus rooms, with the clear-to-meter latency:
#   SERVER_ARGS="--versus-seed 8" tests/bench-server.sh 200 20 --versus rooms --versus-seed 8
set -eu
N=${1:?number of players}
SECONDS_WINDOW=${2:-30}
[ $# -ge 2 ] && shift 2 || shift $#
BIN=${BIN:-target/release}
DIR=$(mktemp -d /tmp/minotty-load.XXXXXX)
PORT=${PORT:-2300}
"$BIN/minotty" serve --listen "127.0.0.1:$PORT" --db "sqlite://$DIR/load.db" \
  --host-key "$DIR/host_key" --max-per-ip 5000 --max-per-subnet 5000 --max-per-site 5000 \
  --max-connections 5000 --max-startups 500:30:1000 --connect-burst 5000 --connects-per-minute 60000 \
  ${SERVER_ARGS:-} >"$DIR/server.log" 2>&1 &
SERVER=$!
trap 'kill -TERM $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true; rm -rf "$DIR"' EXIT
sleep 1
"$BIN/minotty-load" --addr "127.0.0.1:$PORT" --sessions "$N" --seconds "$SECONDS_WINDOW" \
  --connect-parallel 50 --server-pid "$SERVER" "$@"
