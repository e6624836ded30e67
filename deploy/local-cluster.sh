#!/bin/sh
# The topology of deploy/compose.yaml on one machine, from the distribution's packages and
# without containers: PostgreSQL, nats-server, HAProxy (TCP, PROXY protocol v2, health checks
# on /health) in front of two `minotty serve`.
#
#   apt-get install postgresql nats-server haproxy curl     (Debian 12 / Ubuntu)
#   deploy/local-cluster.sh start       # everything up; prints how to connect
#   deploy/local-cluster.sh status      # each process, each instance's /health
#   deploy/local-cluster.sh restart a   # drain instance a, start it again, wait for /health
#   deploy/local-cluster.sh stop        # everything down, instances drained first
#
# start   starts what is not running and leaves what is (run twice, the second says so and
#         starts nothing). A pid file is only written once its process is up (listening, and
#         for an instance answering /health 200); logs are appended to, never truncated. It
#         refuses (exit 1, starting nothing) when a port it needs is taken by a process that
#         is not this cluster's own, e.g. an instance whose pid file was lost.
# stop    SIGTERM to both instances at once, then waits for each to exit: with NATS an instance
#         drains (its /health answers 503, HAProxy sends it no one new, its running matches
#         finish, at most drain-secs), then restores its players' terminals ("the server is
#         restarting") and stores queued games. Only then HAProxy (players behind it got the
#         drain, not a cut), then nats-server, then PostgreSQL.
# restart NAME   the rolling-upgrade step for one instance (a or b): drains it as `stop`
#         does, starts it again with the same config file ($CLUSTER_DIR/NAME/minotty.toml;
#         MINOTTY_BIN may name a new binary) and waits until its /health answers 200; HAProxy
#         sends it players again after two passing checks (4 s). It refuses (exit 1, the
#         instance left running) while the database does not answer: a new instance cannot
#         start without it, so restarting then would only take the instance out.
#
# Settings (environment): MINOTTY_BIN (default: `minotty` on PATH, else target/release/minotty),
# CLUSTER_DIR (state, logs, pid files; default /tmp/minotty-cluster), CLUSTER_DRAIN_SECS (the
# instances' drain-secs, default 60), and the ports on 127.0.0.1:
#
#   CLUSTER_LB_PORT 2200             the load balancer (players connect here)
#   CLUSTER_STATS_PORT 8404          HAProxy's stats page
#   CLUSTER_A_PORT 2301, CLUSTER_B_PORT 2302                   the two instances
#   CLUSTER_A_METRICS_PORT 9101, CLUSTER_B_METRICS_PORT 9102   their metrics and /health
#   CLUSTER_PG_PORT 55432            PostgreSQL
#   CLUSTER_NATS_PORT 24222, CLUSTER_NATS_MONITOR_PORT 30222   NATS and its monitoring
#
# The ports and drain-secs are written into each instance's config file when `start` starts
# it; `restart` and `stop` read them back from there.
#
# Each instance has its own spool ($CLUSTER_DIR/NAME/spool): games and matches the database
# does not take wait there. A spool is locked by its instance; two sharing one would leave
# the second without a spool.
#
# Files are private (umask 077): the logs, configs and secrets are readable by the user
# running the script only; $CLUSTER_DIR itself is 0755 so that PostgreSQL's user can enter it.
#
# Both instances use one host key: players' ssh remembers one key for the balancer's address,
# and must see the same one whichever instance they land on. `start` creates it (before either
# instance starts, so they never race to create it).
#
# NATS requires a user and password, and the instances share a cluster key (every message
# between them is sealed with it): both are generated on the first start into
# $CLUSTER_DIR/secrets (mode 0600) and written into nats.conf and each instance's config file
# (mode 0600), never printed.
set -eu
# Logs (players' addresses and names), configs and secrets: this user's only.
umask 077

here=$(cd "$(dirname "$0")" && pwd)
dir=${CLUSTER_DIR:-/tmp/minotty-cluster}
lb_port=${CLUSTER_LB_PORT:-2200}
stats_port=${CLUSTER_STATS_PORT:-8404}
pg_port=${CLUSTER_PG_PORT:-55432}
nats_port=${CLUSTER_NATS_PORT:-24222}
nats_monitor_port=${CLUSTER_NATS_MONITOR_PORT:-30222}
a_port=${CLUSTER_A_PORT:-2301}
b_port=${CLUSTER_B_PORT:-2302}
a_metrics_port=${CLUSTER_A_METRICS_PORT:-9101}
b_metrics_port=${CLUSTER_B_METRICS_PORT:-9102}
drain_secs=${CLUSTER_DRAIN_SECS:-60}
# After the drain an instance still restores its players' terminals (at most 6 s) and stores
# the matches and games queued for the database (at most 30 s each) before it exits.
exit_margin=75

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

die() {
    echo "local-cluster.sh: $*" >&2
    exit 1
}

# Runs a PostgreSQL program as the postgres user when we are root (initdb refuses root).
as_pg() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# Whether pid file $1 names a live process whose command line contains $2 (its config file's
# path): a pid file left by a dead process, or whose pid now belongs to another program, is
# not a running process of this cluster.
running() {
    [ -s "$1" ] || return 1
    pid=$(head -n 1 "$1")
    case $pid in '' | *[!0-9]*) return 1 ;; esac
    [ -r "/proc/$pid/cmdline" ] || return 1
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$2"
}

# Whether something listens on TCP port $1 (any address, IPv4 or IPv6).
port_busy() {
    hex=$(printf '%04X' "$1")
    for table in /proc/net/tcp /proc/net/tcp6; do
        [ -r "$table" ] || continue
        awk -v p=":$hex" '$4 == "0A" && substr($2, length($2) - 4) == p { found = 1 }
            END { exit !found }' "$table" && return 0
    done
    return 1
}

# An instance's setting $2 (a key of its config file) as written when it was started.
setting() {
    sed -n "s/^$2 = \"\{0,1\}\([^\"]*\)\"\{0,1\}\$/\1/p" "$dir/$1/minotty.toml" 2>/dev/null
}

ssh_port() { if [ "$1" = a ]; then echo "$a_port"; else echo "$b_port"; fi; }
metrics_port() { if [ "$1" = a ]; then echo "$a_metrics_port"; else echo "$b_metrics_port"; fi; }

# The /health URL of instance $1 (from its config file once it has one).
health_url() {
    addr=$(setting "$1" metrics-listen)
    echo "http://${addr:-127.0.0.1:$(metrics_port "$1")}/health"
}

# The last lines of log $1, to say why something did not start.
log_tail() {
    echo "  the end of $1:" >&2
    tail -n 5 "$1" 2>/dev/null | sed 's/^/    /' >&2 || true
}

# Refuses to start component $1 when one of the ports $2... is taken: it is not running as
# this cluster's (its pid file says so), so the taker is someone else, or ours without its pid
# file (then stop it by hand: its pid is lost).
ports_free() {
    what=$1
    shift
    for p in "$@"; do
        if port_busy "$p"; then
            die "cannot start $what: port $p is already in use by a process that is not this cluster's $what (stop it, or choose other ports: CLUSTER_*_PORT)"
        fi
    done
}

# ---- PostgreSQL ------------------------------------------------------------------------

pg_running() {
    [ -f "$dir/pg/PG_VERSION" ] && as_pg "$(pg_bin)/pg_ctl" -D "$dir/pg" status >/dev/null 2>&1
}

start_postgres() {
    pg=$(pg_bin)
    if pg_running; then
        echo "postgresql  already running, 127.0.0.1:$pg_port (data $dir/pg)"
        return
    fi
    if [ ! -f "$dir/pg/PG_VERSION" ]; then
        mkdir -p "$dir/pg" "$dir/pg-run"
        [ "$(id -u)" = 0 ] && chown postgres:postgres "$dir/pg" "$dir/pg-run"
        chmod 700 "$dir/pg"
        as_pg "$pg/initdb" -D "$dir/pg" -U postgres --auth-local=trust --auth-host=scram-sha-256 >>"$dir/initdb.log"
    fi
    # pg_ctl appends to its log.
    as_pg "$pg/pg_ctl" -D "$dir/pg" -l "$dir/pg-run/postgres.log" -w \
        -o "-p $pg_port -c listen_addresses=127.0.0.1 -k $dir/pg-run" start >/dev/null ||
        { log_tail "$dir/pg-run/postgres.log"; die "postgresql did not start"; }
    # The role and database, once; the password is the local cluster's (not a secret).
    as_pg "$pg/psql" -h "$dir/pg-run" -p "$pg_port" -U postgres -tAc \
        "SELECT 1 FROM pg_roles WHERE rolname = 'minotty'" | grep -q 1 ||
        as_pg "$pg/psql" -h "$dir/pg-run" -p "$pg_port" -U postgres -q \
            -c "CREATE ROLE minotty LOGIN PASSWORD 'minotty'" \
            -c "CREATE DATABASE minotty OWNER minotty"
    echo "postgresql  127.0.0.1:$pg_port (data $dir/pg)"
    started=$((started + 1))
}

# ---- NATS ------------------------------------------------------------------------------

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

# Waits up to $2 seconds until process $1 listens on port $3; fails when it exits first.
wait_listening() {
    i=0
    until port_busy "$3"; do
        kill -0 "$1" 2>/dev/null || return 1
        i=$((i + 1))
        [ $i -gt $(($2 * 10)) ] && return 1
        sleep 0.1
    done
    kill -0 "$1" 2>/dev/null
}

start_nats() {
    if running "$dir/nats.pid" "$dir/nats.conf"; then
        echo "nats-server already running, 127.0.0.1:$nats_port (pid $(cat "$dir/nats.pid"))"
        return
    fi
    rm -f "$dir/nats.pid"
    (umask 077 && cat >"$dir/nats.conf" <<EOF
listen: 127.0.0.1:$nats_port
http: 127.0.0.1:$nats_monitor_port
authorization {
  user: minotty
  password: "$nats_password"
}
EOF
    )
    setsid nats-server -c "$dir/nats.conf" >>"$dir/nats.log" 2>&1 </dev/null &
    pid=$!
    if ! wait_listening "$pid" 10 "$nats_port"; then
        kill "$pid" 2>/dev/null || true
        log_tail "$dir/nats.log"
        die "nats-server did not start"
    fi
    echo "$pid" >"$dir/nats.pid"
    echo "nats-server 127.0.0.1:$nats_port (user minotty, password in $dir/secrets)"
    started=$((started + 1))
}

# ---- the instances ---------------------------------------------------------------------

write_instance_config() {
    name=$1
    mkdir -p "$dir/$name"
    (umask 077 && {
        echo "listen = \"127.0.0.1:$(ssh_port "$name")\""
        echo "metrics-listen = \"127.0.0.1:$(metrics_port "$name")\""
        echo "db = \"$db_url\""
        echo "host-key = \"$dir/host_ed25519\""
        echo "proxy-protocol-from = [\"127.0.0.1/32\"]"
        echo "log-format = \"json\""
        echo "nats = \"nats://127.0.0.1:$nats_port\""
        echo "nats-user = \"minotty\""
        echo "nats-password = \"$nats_password\""
        echo "cluster-key = \"$cluster_key\""
        echo "instance-name = \"$name\""
        # Its own: a spool another instance holds is no spool.
        echo "spool-dir = \"$dir/$name/spool\""
        # SIGTERM (stop, restart) lets running matches finish for at most this long.
        echo "drain-secs = $drain_secs"
    } >"$dir/$name/minotty.toml")
}

# Starts instance $1 from its config file and waits (up to 60 s) for /health 200; the pid
# file is written only then. Its logs are appended to.
launch_instance() {
    name=$1
    conf="$dir/$name/minotty.toml"
    url=$(health_url "$name")
    (cd "$dir/$name" && exec setsid "$bin" serve --config "$conf" \
        >>"$dir/$name/stdout.log" 2>>"$dir/$name/minotty.log" </dev/null) &
    pid=$!
    i=0
    until curl -fsS -m 2 "$url" >/dev/null 2>&1; do
        i=$((i + 1))
        if ! kill -0 "$pid" 2>/dev/null || [ $i -gt 300 ]; then
            kill -TERM "$pid" 2>/dev/null || true
            log_tail "$dir/$name/minotty.log"
            die "minotty $name did not start (no 200 from $url)"
        fi
        sleep 0.2
    done
    echo "$pid" >"$dir/$name/pid"
    running "$dir/$name/pid" "$conf" || die "minotty $name: pid $pid is not the server"
    # 200 and degraded (no spool, say) is up but not well: say so.
    body=$(curl -fsS -m 2 "$url" 2>/dev/null || true)
    case $body in
        ok) ;;
        *) echo "warning: minotty $name is up but $url says: $body (see $dir/$name/minotty.log)" >&2 ;;
    esac
}

start_instance() {
    name=$1
    if running "$dir/$name/pid" "$dir/$name/minotty.toml"; then
        echo "minotty $name   already running (pid $(cat "$dir/$name/pid"))"
        return
    fi
    rm -f "$dir/$name/pid"
    write_instance_config "$name"
    launch_instance "$name"
    echo "minotty $name   127.0.0.1:$(ssh_port "$name"), metrics http://127.0.0.1:$(metrics_port "$name")/metrics (log $dir/$name/minotty.log)"
    started=$((started + 1))
}

# The host key both instances use, created before either starts (so they never race to
# create it).
make_host_key() {
    [ -s "$dir/host_ed25519" ] && return
    "$bin" host-key --host-key "$dir/host_ed25519" >/dev/null ||
        die "cannot create the host key $dir/host_ed25519"
}

# ---- HAProxy ---------------------------------------------------------------------------

start_haproxy() {
    if running "$dir/haproxy.pid" "$dir/haproxy.cfg"; then
        echo "haproxy     already running, 127.0.0.1:$lb_port (pid $(cat "$dir/haproxy.pid"))"
        return
    fi
    rm -f "$dir/haproxy.pid"
    # Docker's DNS first: the servers here are IP addresses.
    sed -e "s/ resolvers docker init-addr [^ ]*//" -e "/^resolvers docker/,/^\$/d" \
        -e "s/minotty-a:2222/127.0.0.1:$a_port/; s/minotty-b:2222/127.0.0.1:$b_port/" \
        -e "s/port 9100 # a/port $a_metrics_port/; s/port 9100 # b/port $b_metrics_port/" \
        -e "s/bind :2222/bind 127.0.0.1:$lb_port/; s/bind :8404/bind 127.0.0.1:$stats_port/" \
        "$here/haproxy.cfg" >"$dir/haproxy.cfg"
    haproxy -c -q -f "$dir/haproxy.cfg"
    setsid haproxy -f "$dir/haproxy.cfg" >>"$dir/haproxy.log" 2>&1 </dev/null &
    pid=$!
    if ! wait_listening "$pid" 10 "$lb_port"; then
        kill "$pid" 2>/dev/null || true
        log_tail "$dir/haproxy.log"
        die "haproxy did not start"
    fi
    echo "$pid" >"$dir/haproxy.pid"
    echo "haproxy     127.0.0.1:$lb_port -> a, b (stats http://127.0.0.1:$stats_port/)"
    started=$((started + 1))
}

# Logs written by an older version of this script (0644) are made private too.
private_logs() {
    for f in "$dir"/*.log "$dir"/a/*.log "$dir"/b/*.log; do
        [ -f "$f" ] && chmod go-rwx "$f"
    done
    return 0
}

# Whether the database instance $1 uses answers a query (as the instance would log in).
database_answers() {
    url=$(setting "$1" db)
    [ -n "$url" ] || return 1
    PGCONNECT_TIMEOUT=5 "$(pg_bin)/psql" -d "$url" -tAc 'SELECT 1' 2>/dev/null | grep -q '^1$'
}

start() {
    need nats-server nats-server
    need haproxy haproxy
    need curl curl
    [ -x "$(pg_bin)/pg_ctl" ] || { echo "missing PostgreSQL: apt-get install postgresql" >&2; exit 1; }
    bin=$(minotty_bin)
    [ -x "$bin" ] || { echo "no minotty at $bin: cargo build --release, or set MINOTTY_BIN" >&2; exit 1; }
    # (The umask would make it 0700: PostgreSQL's user must enter it.)
    [ -d "$dir" ] || { mkdir -p "$dir" && chmod 755 "$dir"; }
    private_logs
    if [ "$(id -u)" = 0 ] && ! runuser -u postgres -- test -x "$dir"; then
        die "the postgres user cannot enter $dir (initdb runs as postgres): chmod 755 it"
    fi
    # Before anything starts: the ports of whatever is not running must be free.
    pg_running || ports_free postgresql "$pg_port"
    running "$dir/nats.pid" "$dir/nats.conf" || ports_free nats-server "$nats_port" "$nats_monitor_port"
    for name in a b; do
        running "$dir/$name/pid" "$dir/$name/minotty.toml" ||
            ports_free "minotty $name" "$(ssh_port "$name")" "$(metrics_port "$name")"
    done
    running "$dir/haproxy.pid" "$dir/haproxy.cfg" || ports_free haproxy "$lb_port" "$stats_port"

    started=0
    make_secrets
    make_host_key
    start_postgres
    start_nats
    db_url="postgres://minotty:minotty@127.0.0.1:$pg_port/minotty"
    echo "database    postgres://minotty:***@127.0.0.1:$pg_port/minotty"
    start_instance a
    start_instance b
    start_haproxy
    echo
    if [ "$started" = 0 ]; then
        echo "the cluster was already running: nothing started"
    fi
    echo "play:    ssh -p $lb_port localhost"
    echo "health:  curl $(health_url a)   metrics: curl http://127.0.0.1:$a_metrics_port/metrics"
    echo "stop:    $0 stop"
}

# ---- stopping --------------------------------------------------------------------------

# Waits up to $2 seconds for process $1 to exit.
wait_exit() {
    i=0
    while kill -0 "$1" 2>/dev/null; do
        i=$((i + 1))
        [ $i -gt $(($2 * 10)) ] && return 1
        sleep 0.1
    done
}

# SIGTERM to instance $1 (when running); prints what it waits for. Sets `pid` (empty when the
# instance was not running).
drain_begin() {
    name=$1
    pid=
    if ! running "$dir/$name/pid" "$dir/$name/minotty.toml"; then
        rm -f "$dir/$name/pid"
        echo "minotty $name was not running"
        return
    fi
    pid=$(cat "$dir/$name/pid")
    secs=$(setting "$name" drain-secs)
    secs=${secs:-$drain_secs}
    kill -TERM "$pid" 2>/dev/null || true
    echo "minotty $name draining (pid $pid): /health answers 503 so HAProxy sends it no one new;" \
        "its running matches finish (at most ${secs} s), then its players' terminals are restored" \
        "and queued games stored; waiting up to $((secs + exit_margin)) s for it to exit"
}

# Waits for instance $1 (pid $2) to exit after drain_begin; SIGKILL past the limit.
drain_end() {
    name=$1
    [ -n "$2" ] || return 0
    secs=$(setting "$name" drain-secs)
    secs=${secs:-$drain_secs}
    if wait_exit "$2" $((secs + exit_margin)); then
        echo "stopped minotty $name"
    else
        echo "minotty $name did not exit within $((secs + exit_margin)) s: killed (see $dir/$name/minotty.log)" >&2
        kill -KILL "$2" 2>/dev/null || true
        wait_exit "$2" 10 || true
    fi
    rm -f "$dir/$name/pid"
}

# SIGTERM to the process of pid file $1 (checked with $2), waits up to 15 s, else SIGKILL.
stop_pidfile() {
    if running "$1" "$2"; then
        pid=$(cat "$1")
        kill -TERM "$pid" 2>/dev/null || true
        wait_exit "$pid" 15 || { kill -KILL "$pid" 2>/dev/null || true; wait_exit "$pid" 5 || true; }
        echo "stopped $3"
    fi
    rm -f "$1"
}

stop() {
    # The instances first, both draining at once, while HAProxy still carries their players.
    drain_begin a
    pid_a=$pid
    drain_begin b
    pid_b=$pid
    drain_end a "$pid_a"
    drain_end b "$pid_b"
    for name in a b; do
        if port_busy "$(ssh_port "$name")"; then
            echo "warning: port $(ssh_port "$name") (minotty $name) is still in use by a process without a pid file here: find it with \`ss -ltnp\` and stop it with SIGTERM" >&2
        fi
    done
    stop_pidfile "$dir/haproxy.pid" "$dir/haproxy.cfg" haproxy
    stop_pidfile "$dir/nats.pid" "$dir/nats.conf" nats-server
    if pg_running; then
        as_pg "$(pg_bin)/pg_ctl" -D "$dir/pg" -m fast -w stop >/dev/null && echo "stopped postgresql"
    fi
}

restart() {
    name=${1:-}
    case $name in
        a) other=b ;;
        b) other=a ;;
        *) echo "usage: $0 restart a|b" >&2; exit 2 ;;
    esac
    need curl curl
    bin=$(minotty_bin)
    [ -x "$bin" ] || die "no minotty at $bin: cargo build --release, or set MINOTTY_BIN"
    [ -s "$dir/$name/minotty.toml" ] || die "minotty $name was never started in $dir: run $0 start"
    private_logs
    # An instance does not start without its database (it exits 1 after 30 s): with the
    # database away, the restart would take the instance out. Refuse, leaving it running.
    if ! database_answers "$name"; then
        db=$(setting "$name" db | sed 's#://\([^:/@]*\):[^@]*@#://\1:***@#')
        die "not restarting minotty $name: its database ($db) does not answer, and a new instance cannot start without it; minotty $name is left as it is (still serving, if it was). Bring the database back (\`$0 start\` starts what is missing), then restart again"
    fi
    echo "database    answers: restarting minotty $name"
    if ! curl -fsS -m 2 "$(health_url "$other")" >/dev/null 2>&1; then
        echo "warning: minotty $other is not healthy: new players have nowhere to go while $name restarts" >&2
    fi
    drain_begin "$name"
    drain_end "$name" "$pid"
    ports_free "minotty $name" "$(ssh_port "$name")" "$(metrics_port "$name")"
    launch_instance "$name"
    echo "minotty $name   back (pid $(cat "$dir/$name/pid")), $(health_url "$name") answers 200; HAProxy sends it players after two passing checks"
}

status() {
    for f in haproxy.pid:haproxy.cfg a/pid:a/minotty.toml b/pid:b/minotty.toml nats.pid:nats.conf; do
        file=${f%%:*}
        if running "$dir/$file" "$dir/${f#*:}"; then
            echo "running  $file ($(head -n 1 "$dir/$file"))"
        else
            echo "down     $file"
        fi
    done
    if pg_running; then
        echo "running  pg/postmaster.pid ($(head -n 1 "$dir/pg/postmaster.pid"))"
    else
        echo "down     pg/postmaster.pid"
    fi
    for name in a b; do
        url=$(health_url "$name")
        code=$(curl -s -m 2 -o /dev/null -w '%{http_code}' "$url" || true)
        if [ "$code" = 000 ] || [ -z "$code" ]; then code="no answer"; fi
        echo "health $name $url  $code"
    done
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    restart) restart "${2:-}" ;;
    status) status ;;
    *) echo "usage: $0 start|stop|status|restart a|b" >&2; exit 2 ;;
esac
