#!/bin/sh
# Server load figures for BENCHMARKS.md ("Server load"): a fresh release server on loopback with
# a throwaway database and host key, then N players from minotty-load for SECONDS seconds.
# The web pages listen on WEB_PORT (PORT + 80) with the bounds raised as SSH's are, so that
# `--web-sessions M` adds M players over the browser terminal's WebSocket, e.g. 500 SSH players
# beside 1,000 in the browser:
#   tests/bench-server.sh 500 20 --web-sessions 1000
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
WEB_PORT=${WEB_PORT:-$((PORT + 80))}
"$BIN/minotty" serve --listen "127.0.0.1:$PORT" --db "sqlite://$DIR/load.db" \
  --host-key "$DIR/host_key" --max-per-ip 5000 --max-per-subnet 5000 --max-per-site 5000 \
  --max-connections 5000 --max-startups 500:30:1000 --connect-burst 5000 --connects-per-minute 60000 \
  --http-listen "127.0.0.1:$WEB_PORT" --http-max-connections 6000 --http-max-per-ip 6000 \
  --http-requests-per-sec 5000 \
  ${SERVER_ARGS:-} >"$DIR/server.log" 2>&1 &
SERVER=$!
trap 'kill -TERM $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true; rm -rf "$DIR"' EXIT
sleep 1
"$BIN/minotty-load" --addr "127.0.0.1:$PORT" --sessions "$N" --seconds "$SECONDS_WINDOW" \
  --connect-parallel 50 --server-pid "$SERVER" --web "127.0.0.1:$WEB_PORT" "$@"
