#!/bin/sh
# Soak test for RELIABILITY.md: a fresh release server on loopback with a throwaway database,
# PLAYERS solo players from minotty-load for MINUTES minutes (each plays 40 Lines on the load
# tool's schedule and retries when a game ends), and the server sampled every 10 s into a CSV:
# RSS, threads and open file descriptors from /proc, CPU ticks. At the end, a summary over the
# samples after the warm-up (everyone in a game, then WARMUP seconds more): RSS min/max and its
# drift, threads, descriptors and tokio tasks (the server logs them every 10 s) min/max, and the
# load tool's report (players dropped).
# Usage (from the repository root, after
#   cargo build --release -p minotty -p minotty-tests --bins):
#   tests/soak.sh MINUTES PLAYERS        e.g. tests/soak.sh 30 1000
# Environment: PORT (2360), WARMUP (seconds after everyone is in; 120), OUT (directory for the
# CSV and logs; a new one under /tmp, kept).
set -eu
MINUTES=${1:?minutes}
PLAYERS=${2:?players}
BIN=${BIN:-target/release}
PORT=${PORT:-2360}
WARMUP=${WARMUP:-120}
OUT=${OUT:-$(mktemp -d /tmp/minotty-soak.XXXXXX)}
mkdir -p "$OUT"
DB=$(mktemp -d /tmp/minotty-soak-db.XXXXXX)
# The connection limits are raised through the environment (a server without one of these
# limits ignores its variable): every player comes from 127.0.0.1.
export MINOTTY_MAX_CONNECTIONS=5000 MINOTTY_MAX_PER_IP=5000 MINOTTY_MAX_PER_SUBNET=5000 \
  MINOTTY_MAX_PER_SITE=5000 MINOTTY_MAX_STARTUPS=500:30:1000 MINOTTY_CONNECT_BURST=5000 \
  MINOTTY_CONNECTS_PER_MINUTE=60000
RUST_LOG="info,russh=warn,sqlx=warn,minotty::runtime=debug" \
  "$BIN/minotty" serve --listen "127.0.0.1:$PORT" --db "sqlite://$DB/soak.db" \
  --host-key "$DB/host_key" ${SERVER_ARGS:-} >"$OUT/server.log" 2>&1 &
SERVER=$!
LOAD=
cleanup() {
  [ -n "$LOAD" ] && kill -TERM "$LOAD" 2>/dev/null || true
  kill -TERM "$SERVER" 2>/dev/null || true
  wait "$SERVER" 2>/dev/null || true
  rm -rf "$DB"
}
trap cleanup EXIT
sleep 1
"$BIN/minotty-load" --addr "127.0.0.1:$PORT" --sessions "$PLAYERS" --seconds $((MINUTES * 60)) \
  --connect-parallel 50 --server-pid "$SERVER" >"$OUT/load.out" 2>"$OUT/load.err" &
LOAD=$!

# Samples: seconds since start, whether everyone is in a game yet, RSS in KiB, threads, open
# descriptors, CPU ticks (user + system), and the live tokio tasks the server last logged.
CSV="$OUT/soak.csv"
echo "seconds,in_game,rss_kib,threads,fds,cpu_ticks,tasks" >"$CSV"
START=$(date +%s)
while kill -0 "$LOAD" 2>/dev/null; do
  NOW=$(($(date +%s) - START))
  IN=0
  grep -q "measuring for" "$OUT/load.err" 2>/dev/null && IN=1
  RSS=$(awk '/^VmRSS:/ {print $2}' "/proc/$SERVER/status" 2>/dev/null || echo 0)
  THREADS=$(awk '/^Threads:/ {print $2}' "/proc/$SERVER/status" 2>/dev/null || echo 0)
  FDS=$(ls "/proc/$SERVER/fd" 2>/dev/null | wc -l)
  CPU=$(awk '{sub(/.*\) /, ""); print $12 + $13}' "/proc/$SERVER/stat" 2>/dev/null || echo 0)
  TASKS=$(grep -o 'tasks=[0-9]*' "$OUT/server.log" 2>/dev/null | tail -1 | cut -d= -f2)
  echo "$NOW,$IN,$RSS,$THREADS,$FDS,$CPU,${TASKS:-}" >>"$CSV"
  sleep 10
done
wait "$LOAD" && STATUS=0 || STATUS=$?
LOAD=
kill -0 "$SERVER" 2>/dev/null && ALIVE=yes || ALIVE=no

echo "== minotty-load (exit $STATUS) =="
cat "$OUT/load.err" "$OUT/load.out"
echo "== soak: $PLAYERS players, $MINUTES min; samples in $CSV =="
awk -F, -v warmup="$WARMUP" '
  NR == 1 { next }
  $2 == 1 && ready == "" { ready = $1 }
  ready != "" && $1 >= ready + warmup {
    n++
    if (n == 1) { rss0 = $3; t0 = $1 }
    rss1 = $3; t1 = $1
    if (rmin == "" || $3 < rmin) rmin = $3
    if ($3 > rmax) rmax = $3
    if (tmin == "" || $4 < tmin) tmin = $4
    if ($4 > tmax) tmax = $4
    if (fmin == "" || $5 < fmin) fmin = $5
    if ($5 > fmax) fmax = $5
    if ($7 != "") {
      if (kmin == "" || $7 < kmin) kmin = $7
      if ($7 > kmax) kmax = $7
    }
  }
  END {
    if (n == 0) { print "no samples after the warm-up"; exit 1 }
    printf "everyone in game at %d s; %d samples from %d s to %d s\n", ready, n, t0, t1
    printf "RSS: first %.1f MiB, last %.1f MiB, min %.1f MiB, max %.1f MiB; spread (max-min)/min %.2f%%, drift (last-first)/first %+.2f%%\n", \
      rss0 / 1024, rss1 / 1024, rmin / 1024, rmax / 1024, (rmax - rmin) * 100 / rmin, (rss1 - rss0) * 100 / rss0
    printf "threads: min %d, max %d\n", tmin, tmax
    printf "open descriptors: min %d, max %d\n", fmin, fmax
    if (kmin != "") printf "tokio tasks: min %d, max %d\n", kmin, kmax
  }' "$CSV"
echo "server still running at the end: $ALIVE"
