#!/bin/sh
# Cross-instance versus figures for BENCHMARKS.md: a nats-server (the distribution's) and two
# fresh release instances (`--nats`) on loopback sharing one throwaway database (an SQLite file,
# or `DB=postgres://...`, an empty PostgreSQL database), then N players
# from minotty-load in N/2 1v1 rooms, each room's host on instance A and its guest on B, for
# SECONDS seconds. With `--versus-seed` the load tool reports the clear-to-meter latency across
# instances (the tetris on A, the meter on B).
# Usage (from the repository root, after
#   cargo build --release -p minotty -p minotty-tests --bins):
#   tests/bench-cluster.sh N [SECONDS [LOAD-TOOL FLAGS...]]
# e.g. 100 matches:
#   SERVER_ARGS="--versus-seed 1" tests/bench-cluster.sh 200 20 --versus rooms --versus-seed 1
set -eu
N=${1:?number of players}
SECONDS_WINDOW=${2:-30}
[ $# -ge 2 ] && shift 2 || shift $#
BIN=${BIN:-target/release}
DIR=$(mktemp -d /tmp/minotty-cluster.XXXXXX)
PORT_A=${PORT_A:-2310}
PORT_B=${PORT_B:-2311}
NATS_PORT=${NATS_PORT:-4322}
DB=${DB:-sqlite://$DIR/load.db}
# NATS with a password and the cluster key, as a deployment runs them (deploy/README.md).
NATS_PASSWORD=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
MINOTTY_CLUSTER_KEY=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')
export MINOTTY_CLUSTER_KEY MINOTTY_NATS_USER=bench MINOTTY_NATS_PASSWORD=$NATS_PASSWORD
nats-server -a 127.0.0.1 -p "$NATS_PORT" --user bench --pass "$NATS_PASSWORD" >"$DIR/nats.log" 2>&1 &
NATS=$!
LIMITS="--max-per-ip 5000 --max-per-subnet 5000 --max-per-site 5000 --max-connections 5000 \
  --max-startups 500:30:1000 --connect-burst 5000 --connects-per-minute 60000"
sleep 0.5
# shellcheck disable=SC2086
"$BIN/minotty" serve --listen "127.0.0.1:$PORT_A" --db "$DB" \
  --host-key "$DIR/host_key" --nats "nats://127.0.0.1:$NATS_PORT" --instance-name a --drain-secs 5 \
  $LIMITS ${SERVER_ARGS:-} >"$DIR/a.log" 2>&1 &
A=$!
sleep 1
# shellcheck disable=SC2086
"$BIN/minotty" serve --listen "127.0.0.1:$PORT_B" --db "$DB" \
  --host-key "$DIR/host_key" --nats "nats://127.0.0.1:$NATS_PORT" --instance-name b --drain-secs 5 \
  $LIMITS ${SERVER_ARGS:-} >"$DIR/b.log" 2>&1 &
B=$!
trap 'kill -TERM $A $B 2>/dev/null || true; wait $A $B 2>/dev/null || true; kill $NATS 2>/dev/null || true; rm -rf "$DIR"' EXIT
# Both have joined the cluster (each waits a heartbeat to pick its room code character).
sleep 3
"$BIN/minotty-load" --addr "127.0.0.1:$PORT_A" --addr-b "127.0.0.1:$PORT_B" --sessions "$N" \
  --seconds "$SECONDS_WINDOW" --connect-parallel 50 --server-pid "$A" --server-pid-b "$B" "$@"
