#!/bin/sh
# The topology of deploy/compose.yaml on one machine, from the distribution's packages and
# without containers: PostgreSQL, nats-server, HAProxy (TCP, PROXY protocol v2, health checks
# on /health) in front of two `minotty serve`.
#
#   apt-get install postgresql nats-server haproxy     (Debian 12 / Ubuntu)
#   deploy/local-cluster.sh start      # everything up; prints how to connect
#   deploy/local-cluster.sh status     # each process, each instance's /health
#   deploy/local-cluster.sh stop       # everything down (the state directory stays)
#
# Settings (environment): MINOTTY_BIN (default: `minotty` on PATH, else target/release/minotty),
# CLUSTER_DIR (state, logs, pid files; default /tmp/minotty-cluster).
#
# Ports on 127.0.0.1: 2200 the load balancer (players connect here), 2301 and 2302 the two
# instances, 9101 and 9102 their metrics and health, 55432 PostgreSQL, 24222 NATS (30222 its
# monitoring), 8404 HAProxy's stats page.
#
# Both instances use one host key: players' ssh remembers one key for the balancer's address,
# and must see the same one whichever instance they land on.
#
# NATS requires a user and password, and the instances share a cluster key (every message
# between them is sealed with it): both are generated on the first start into
# $CLUSTER_DIR/secrets (mode 0600) and written into nats.conf and each instance's config file
# (mode 0600), never printed.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
dir=${CLUSTER_DIR:-/tmp/minotty-cluster}
lb_port=2200
pg_port=55432
nats_port=24222
drain_secs=60

minotty_bin() {
    if [ -n "${MINOTTY_BIN:-}" ]; then echo "$MINOTTY_BIN"
    elif command -v minotty >/dev/null 2>&1; then command -v minotty
    else echo "$here/../target/release/minotty"
    fi
}

pg_bin() {
    # The newest installed PostgreSQL's programs (pg_ctl is not on PATH on Debian).
    for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        echo "$d"; return
    done
    dirname "$(command -v pg_ctl)"
}

need() {
    command -v "$1" >/dev/null 2>&1 || { echo "missing $1: apt-get install $2" >&2; exit 1; }
}

# Runs a PostgreSQL program as the postgres user when we are root (initdb refuses root).
as_pg() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# Waits up to 20 s for an HTTP 200 from $1.
wait_healthy() {
    i=0
    until curl -fsS "$1" >/dev/null 2>&1; do
        i=$((i + 1))
        if [ $i -gt 100 ]; then echo "no answer from $1" >&2; return 1; fi
        sleep 0.2
    done
}

start_postgres() {
    pg=$(pg_bin)
    if [ ! -f "$dir/pg/PG_VERSION" ]; then
        mkdir -p "$dir/pg" "$dir/pg-run"
        [ "$(id -u)" = 0 ] && chown postgres:postgres "$dir/pg" "$dir/pg-run"
        chmod 700 "$dir/pg"
        as_pg "$pg/initdb" -D "$dir/pg" -U postgres --auth-local=trust --auth-host=scram-sha-256 >"$dir/initdb.log"
    fi
    if ! as_pg "$pg/pg_ctl" -D "$dir/pg" status >/dev/null 2>&1; then
        as_pg "$pg/pg_ctl" -D "$dir/pg" -l "$dir/pg-run/postgres.log" -w \
            -o "-p $pg_port -c listen_addresses=127.0.0.1 -k $dir/pg-run" start >/dev/null
    fi
    # The role and database, once; the password is the local cluster's (not a secret).
    as_pg "$pg/psql" -h "$dir/pg-run" -p $pg_port -U postgres -tAc \
        "SELECT 1 FROM pg_roles WHERE rolname = 'minotty'" | grep -q 1 ||
        as_pg "$pg/psql" -h "$dir/pg-run" -p $pg_port -U postgres -q \
            -c "CREATE ROLE minotty LOGIN PASSWORD 'minotty'" \
            -c "CREATE DATABASE minotty OWNER minotty"
    echo "postgresql  127.0.0.1:$pg_port (data $dir/pg)"
}

# The NATS password and the cluster key, generated once (random hex).
make_secrets() {
    if [ ! -s "$dir/secrets" ]; then
        (umask 077 && {
            echo "nats_password=$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')"
            echo "cluster_key=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')"
        } >"$dir/secrets")
    fi
    nats_password=$(sed -n 's/^nats_password=//p' "$dir/secrets")
    cluster_key=$(sed -n 's/^cluster_key=//p' "$dir/secrets")
}

start_nats() {
    (umask 077 && cat >"$dir/nats.conf" <<EOF
listen: 127.0.0.1:$nats_port
http: 127.0.0.1:$((nats_port + 6000))
authorization {
  user: minotty
  password: "$nats_password"
}
EOF
    )
    nats-server -c "$dir/nats.conf" \
        -l "$dir/nats.log" -P "$dir/nats.pid" >/dev/null 2>&1 &
    i=0
    until [ -s "$dir/nats.pid" ]; do i=$((i + 1)); [ $i -gt 50 ] && break; sleep 0.1; done
    echo "nats-server 127.0.0.1:$nats_port (user minotty, password in $dir/secrets)"
}

# One instance: $1 name, $2 SSH port, $3 metrics port. Its settings go in its config file.
start_instance() {
    name=$1 port=$2 mport=$3
    mkdir -p "$dir/$name"
    (umask 077 && {
        echo "listen = \"127.0.0.1:$port\""
        echo "metrics-listen = \"127.0.0.1:$mport\""
        echo "db = \"$db_url\""
        echo "host-key = \"$dir/host_ed25519\""
        echo "proxy-protocol-from = [\"127.0.0.1/32\"]"
        echo "log-format = \"json\""
        echo "nats = \"nats://127.0.0.1:$nats_port\""
        echo "nats-user = \"minotty\""
        echo "nats-password = \"$nats_password\""
        echo "cluster-key = \"$cluster_key\""
        echo "instance-name = \"$name\""
        # SIGTERM (stop) lets running matches finish for at most this long.
        echo "drain-secs = $drain_secs"
    } >"$dir/$name/minotty.toml")
    (cd "$dir/$name" && exec setsid "$bin" serve --config "$dir/$name/minotty.toml" \
        >"$dir/$name/stdout.log" 2>"$dir/$name/minotty.log" </dev/null) &
    echo $! >"$dir/$name/pid"
    wait_healthy "http://127.0.0.1:$mport/health"
    echo "minotty $name   127.0.0.1:$port, metrics http://127.0.0.1:$mport/metrics (log $dir/$name/minotty.log)"
}

start_haproxy() {
    sed -e "s/minotty-a:2222/127.0.0.1:2301/; s/minotty-b:2222/127.0.0.1:2302/" \
        -e "s/port 9100 # a/port 9101/; s/port 9100 # b/port 9102/" \
        -e "s/bind :2222/bind 127.0.0.1:$lb_port/; s/bind :8404/bind 127.0.0.1:8404/" \
        "$here/haproxy.cfg" >"$dir/haproxy.cfg"
    haproxy -c -q -f "$dir/haproxy.cfg"
    setsid haproxy -f "$dir/haproxy.cfg" >"$dir/haproxy.log" 2>&1 </dev/null &
    echo $! >"$dir/haproxy.pid"
    echo "haproxy     127.0.0.1:$lb_port -> a, b (stats http://127.0.0.1:8404/)"
}

start() {
    need nats-server nats-server
    need haproxy haproxy
    need curl curl
    [ -x "$(pg_bin)/pg_ctl" ] || { echo "missing PostgreSQL: apt-get install postgresql" >&2; exit 1; }
    bin=$(minotty_bin)
    [ -x "$bin" ] || { echo "no minotty at $bin: cargo build --release, or set MINOTTY_BIN" >&2; exit 1; }
    mkdir -p "$dir"
    make_secrets
    start_postgres
    start_nats
    db_url="postgres://minotty:minotty@127.0.0.1:$pg_port/minotty"
    echo "database    postgres://minotty:***@127.0.0.1:$pg_port/minotty"
    start_instance a 2301 9101
    start_instance b 2302 9102
    start_haproxy
    echo
    echo "play:    ssh -p $lb_port localhost"
    echo "health:  curl http://127.0.0.1:9101/health   metrics: curl http://127.0.0.1:9101/metrics"
    echo "stop:    $0 stop"
}

# SIGTERM to the process in pid file $1 ($2 its name), then waits for it, at most $3 seconds.
stop_pidfile() {
    if [ -s "$1" ]; then
        pid=$(cat "$1")
        if kill -TERM "$pid" 2>/dev/null; then
            # minotty lets its matches finish (drain-secs), restores its players' terminals and
            # stores queued games first.
            i=0
            while kill -0 "$pid" 2>/dev/null && [ $i -lt $(($3 * 10)) ]; do i=$((i + 1)); sleep 0.1; done
            echo "stopped $2"
        fi
        rm -f "$1"
    fi
}

stop() {
    stop_pidfile "$dir/haproxy.pid" haproxy 15
    # Both drain at once.
    stop_pidfile "$dir/a/pid" "minotty a" $((drain_secs + 15)) &
    stop_pidfile "$dir/b/pid" "minotty b" $((drain_secs + 15))
    wait
    stop_pidfile "$dir/nats.pid" nats-server 15
    if [ -f "$dir/pg/postmaster.pid" ]; then
        as_pg "$(pg_bin)/pg_ctl" -D "$dir/pg" -m fast -w stop >/dev/null && echo "stopped postgresql"
    fi
}

status() {
    for f in haproxy.pid a/pid b/pid nats.pid pg/postmaster.pid; do
        if [ -s "$dir/$f" ] && kill -0 "$(head -n 1 "$dir/$f")" 2>/dev/null; then
            echo "running  $f ($(head -n 1 "$dir/$f"))"
        else
            echo "down     $f"
        fi
    done
    for p in 9101 9102; do
        code=$(curl -s -m 2 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$p/health" || true)
        if [ "$code" = 000 ] || [ -z "$code" ]; then code="no answer"; fi
        echo "health 127.0.0.1:$p  $code"
    done
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    status) status ;;
    *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
