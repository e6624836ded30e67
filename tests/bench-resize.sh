#!/bin/sh
# Window-change flood figures for BENCHMARKS.md ("Window changes"): a fresh release server on
# loopback with a throwaway database and host key, then minotty-resize-bench against it.
# Usage (from the repository root, after
#   cargo build --release -p minotty -p minotty-tests --bins):
#   tests/bench-resize.sh [BENCH FLAGS...]      e.g. tests/bench-resize.sh --changes 20000
set -eu
BIN=${BIN:-target/release}
SERVER_BIN=${SERVER_BIN:-$BIN/minotty}
DIR=$(mktemp -d /tmp/minotty-resize.XXXXXX)
PORT=${PORT:-2310}
"$SERVER_BIN" serve --listen "127.0.0.1:$PORT" --db "sqlite://$DIR/resize.db" \
  --host-key "$DIR/host_key" ${SERVER_ARGS:-} >"$DIR/server.log" 2>&1 &
SERVER=$!
trap 'kill -TERM $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true; rm -rf "$DIR"' EXIT
sleep 1
"$BIN/minotty-resize-bench" --addr "127.0.0.1:$PORT" --server-pid "$SERVER" "$@"
