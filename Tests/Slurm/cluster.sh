#!/bin/bash
# cluster.sh start|stop — a private single-node Slurm (munged, slurmctld, slurmd) for `make test-slurm`,
# run as ordinary processes under $SLURM_TEST_DIR: no systemd, no cgroups, nothing under /etc.
# The recipe and its pitfalls are in ../shared/SLURM.md. Daemons are stopped only by the PIDs
# recorded at start ($SLURM_TEST_DIR/pids), never by name.
#   SLURM_TEST_DIR   folder for config, state, logs, sockets and PID files (required)
#   SLURM_TEST_PORT  slurmctld port (slurmd uses PORT+1); default 16817
set -euo pipefail
D=${SLURM_TEST_DIR:?set SLURM_TEST_DIR}
PORT=${SLURM_TEST_PORT:-16817}
CONF=$D/etc/slurm.conf
SOCK=$D/munge/munge.socket
export SLURM_CONF=$CONF

say() { echo "[cluster] $*"; }
die() {
    say "ERROR: $*"
    for f in munged slurmctld slurmd; do [ -f "$D/log/$f.log" ] && { echo "--- $f.log (last lines)"; tail -n 15 "$D/log/$f.log"; }; done
    exit 1
}
# recorded NAME -> the recorded PID when that process is alive (not a zombie) and is NAME
recorded() {
    local f=$D/pids/$1.pid p
    p=$(cat "$f" 2>/dev/null) || return 1   # munged removes its PID file as it exits
    [ -n "$p" ] && [ -r "/proc/$p/stat" ] || return 1
    [ "$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null)" != Z ] || return 1
    tr '\0' ' ' < "/proc/$p/cmdline" | grep -q -- "$1" || return 1
    echo "$p"
}
wait_until() { # wait_until SECONDS DESCRIPTION COMMAND...
    local limit=$1 what=$2; shift 2
    local end=$(( $(date +%s) + limit ))
    until "$@" >/dev/null 2>&1; do
        [ "$(date +%s)" -lt "$end" ] || die "no $what after $limit s"
        sleep 0.1
    done
}

start() {
    for b in munged munge unmunge slurmctld slurmd sbatch squeue scontrol sinfo scancel; do
        command -v "$b" >/dev/null || die "$b not found: apt-get install --no-install-recommends slurmctld slurmd slurm-client munge"
    done
    mkdir -p "$D"/{etc,munge,log,pids,state,spool}
    chmod 755 "$D" "$D/munge"   # munged refuses a socket folder others cannot enter
    [ -s "$D/munge/munge.key" ] || dd if=/dev/urandom of="$D/munge/munge.key" bs=1024 count=1 2>/dev/null
    chmod 600 "$D/munge/munge.key"
    local me hw
    me=$(id -un)
    hw=$(slurmd -C 2>/dev/null | sed -n '1s/^NodeName=[^ ]* //p')
    [ -n "$hw" ] || hw="CPUs=$(nproc)"
    cat > "$CONF" <<CONF
ClusterName=sleepstatest
SlurmctldHost=localhost
SlurmUser=$me
SlurmdUser=$me
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCK
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool/%n
SlurmctldPidFile=$D/pids/slurmctld.daemonpid
SlurmdPidFile=$D/pids/slurmd.daemonpid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$D/log/jobcomp.txt
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SlurmdTimeout=300
MinJobAge=300
NodeName=localhost NodeAddr=127.0.0.1 $hw State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF
    echo "export SLURM_CONF=$CONF" > "$D/env.sh"

    if ! recorded munged >/dev/null; then
        rm -f "$SOCK" "$SOCK.lock"
        munged --socket="$SOCK" --key-file="$D/munge/munge.key" --pid-file="$D/pids/munged.pid" \
               --seed-file="$D/munge/munged.seed" --log-file="$D/log/munged.log" || die "munged did not start"
    fi
    wait_until 30 "munge credential round trip" bash -c "munge -S '$SOCK' -n | unmunge -S '$SOCK'"
    say "munged pid $(cat "$D/pids/munged.pid")"

    if ! recorded slurmctld >/dev/null; then
        setsid nohup slurmctld -D -f "$CONF" >> "$D/log/slurmctld.stdout" 2>&1 < /dev/null &
        echo $! > "$D/pids/slurmctld.pid"
    fi
    wait_until 30 "slurmctld answering" bash -c "scontrol ping | grep -q 'is UP'"
    say "slurmctld pid $(cat "$D/pids/slurmctld.pid") on port $PORT"

    if ! recorded slurmd >/dev/null; then
        setsid nohup slurmd -D -N localhost -f "$CONF" >> "$D/log/slurmd.stdout" 2>&1 < /dev/null &
        echo $! > "$D/pids/slurmd.pid"
    fi
    node_ready() {
        case "$(sinfo -h -n localhost -o %T 2>/dev/null)" in
            idle|mixed|allocated) return 0 ;;
            drain*|down*|fail*) scontrol update nodename=localhost state=resume >/dev/null 2>&1; return 1 ;;
            *) return 1 ;;
        esac
    }
    local end=$(( $(date +%s) + 30 ))
    until node_ready; do [ "$(date +%s)" -lt "$end" ] || die "node localhost not idle after 30 s"; sleep 0.1; done
    say "slurmd pid $(cat "$D/pids/slurmd.pid"); node localhost $(sinfo -h -n localhost -o '%T, %c CPUs')"
}

stop_one() { # TERM, up to 15 s, then KILL; waits until the process is gone (reaped), not just a zombie
    local p i
    if ! p=$(recorded "$1"); then rm -f "$D/pids/$1.pid"; return 0; fi
    kill -TERM "$p" 2>/dev/null || true
    for i in $(seq 150); do recorded "$1" >/dev/null || break; sleep 0.1; done
    if recorded "$1" >/dev/null; then kill -KILL "$p" 2>/dev/null || true; say "$1 (pid $p) needed SIGKILL"; fi
    for i in $(seq 100); do [ -e "/proc/$p" ] || break; sleep 0.05; done
    rm -f "$D/pids/$1.pid"
    say "$1 (pid $p) stopped"
}

stop() {
    [ -d "$D/pids" ] || return 0
    if recorded slurmctld >/dev/null; then
        scancel --full --user="$(id -un)" 2>/dev/null || true
        for i in $(seq 100); do [ -z "$(squeue -h -t PD,R,CG,S,CF 2>/dev/null)" ] && break; sleep 0.1; done
    fi
    stop_one slurmd
    stop_one slurmctld
    stop_one munged
    rm -f "$SOCK" "$SOCK.lock"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
