#!/bin/bash
# make test-slurm: a sharded cohort on a real (private, single-node) Slurm equals one run.
#  1. a generated cohort of 28 recordings of 9 formats (Tests/Slurm/make_cohort.py, a 3-day wrist
#     .cwa from sleepsta-bench, the readers' device fixtures), and one single-machine run over it;
#  2. munged, slurmctld and slurmd started under a temporary folder (Tests/Slurm/cluster.sh);
#  3. round A: `sleepsta slurm --shards 4 --submit` (array of 4, merge+render after it with afterok);
#     every task exits 0 and logs to its own file; the merged database's content (sleepsta digest:
#     every table but the run log, independent of row ids) and every report file equal the single run's;
#  4. round B: the same, but array task 1 is killed (SIGKILL) mid-run: the merge then never starts
#     (DependencyNeverSatisfied) and refuses that shard by hand; task 1 is resubmitted alone
#     (sbatch --array=1) with a new merge after it: the result again equals the single run's;
#  5. every daemon stopped by the PID recorded at its start (also on failure).
# KEEP=1 keeps the temporary folder. Needs root or the Slurm packages installed (make test-slurm).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${SLEEPSTA_BIN:-$REPO/.build/release/sleepsta}
BENCH=${SLEEPSTA_BENCH_BIN:-$REPO/.build/release/sleepsta-bench}
CLUSTER=$REPO/Tests/Slurm/cluster.sh
SHARDS=4
TZ_OPTION=Europe/Berlin
T=$(mktemp -d /tmp/sleepsta-test-slurm.XXXXXX)
chmod 755 "$T"
export SLURM_TEST_DIR=$T/cluster
export SLURM_TEST_PORT=${SLURM_TEST_PORT:-$(( 17000 + ($$ % 1000) * 2 ))}
export SLURM_CONF=$SLURM_TEST_DIR/etc/slurm.conf
T0=$(date +%s.%N)

elapsed() { awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
say() { echo "[test-slurm $(elapsed) s] $*"; }
fail() { say "FAIL: $*"; exit 1; }
cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    "$CLUSTER" stop || rc=1
    # Nothing of ours may survive: every PID recorded at start must be gone.
    for f in "$SLURM_TEST_DIR"/pids/*.pid; do
        [ -e "$f" ] || continue
        p=$(cat "$f"); if [ -e "/proc/$p" ]; then say "still running: $(basename "$f" .pid) pid $p"; rc=1; fi
    done
    if [ "$rc" = 0 ] && [ -z "${KEEP:-}" ]; then rm -rf "$T"; else say "kept $T"; fi
    say "$( [ "$rc" = 0 ] && echo PASSED || echo "FAILED (exit $rc)" )"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

for b in "$BIN" "$BENCH"; do [ -x "$b" ] || fail "$b not built (make test-slurm builds it)"; done

# ---- 1. cohort and the single-machine run ---------------------------------------------------
DATA=$T/Data
python3 "$REPO/Tests/Slurm/make_cohort.py" --out "$DATA" >/dev/null
"$BENCH" generate --work "$T/gen" --days 3 --only-cwa >/dev/null
mv "$T"/gen/*.cwa "$DATA/wrist-3d.cwa"
mkdir -p "$DATA/devices"
for f in spec_activity12.gt3x spec_ax3_packed.cwa spec_ax6_16bit.cwa spec_geneactiv.bin spec_sensorlog.csv \
         spec_sleep-export.csv spec_actilife_raw_timestamps.csv.gz; do
    cp "$REPO/Tests/SleepIngestTests/Fixtures/$f" "$DATA/devices/"
done
FILES=$(find "$DATA" -type f | wc -l)
[ "$FILES" -ge 20 ] || fail "cohort has $FILES recordings, want at least 20"
say "cohort: $FILES recordings, $(du -sm "$DATA" | cut -f1) MB, formats: $(find "$DATA" -type f | sed 's/.*\.//' | sort | uniq -c | tr -s ' ' | tr '\n' ' ')"

t=$(date +%s.%N)
"$BIN" run --data "$DATA" --db "$T/single/single.sqlite" --reports "$T/single/Reports" --tz "$TZ_OPTION" --quiet > "$T/single.out" \
    || fail "the single-machine run exited $? ($(cat "$T/single.out"))"
SINGLE_SECONDS=$(awk -v a="$t" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
"$BIN" digest --db "$T/single/single.sqlite" > "$T/single.digest"
say "single-machine run: $SINGLE_SECONDS s, $(grep '^nights ' "$T/single.digest" | cut -d' ' -f2) nights, $(find "$T/single/Reports" -type f | wc -l) report files"

# ---- 2. the cluster ----------------------------------------------------------------------------
"$CLUSTER" start

# ---- helpers -------------------------------------------------------------------------------------
gone() { [ -z "$(squeue -h -j "$1" -o %i 2>/dev/null)" ]; }
wait_gone() { # wait_gone JOBID [SECONDS]
    local end=$(( $(date +%s) + ${2:-900} ))
    until gone "$1"; do [ "$(date +%s)" -lt "$end" ] || fail "job $1 still queued after ${2:-900} s"; sleep 0.2; done
}
# task_states JOBID -> "K STATE EXITCODE" per array task (or one line for a plain job)
task_states() {
    scontrol -o show job "$1" | sed -E 's/.*ArrayTaskId=([0-9]+).*JobState=([A-Z_]+).*ExitCode=([0-9:]+).*/\1 \2 \3/; t; s/.*JobState=([A-Z_]+).*ExitCode=([0-9:]+).*/- \1 \2/' | sort -n
}
require_ok() { # require_ok JOBID WHAT
    local bad
    bad=$(task_states "$1" | awk '$2 != "COMPLETED" || $3 != "0:0"')
    [ -z "$bad" ] || fail "$2 (job $1) did not complete with exit 0: $bad"
}
compare() { # compare WORK
    "$BIN" digest --db "$1/all.sqlite" > "$1/all.digest"
    diff -u "$T/single.digest" "$1/all.digest" > "$1/digest.diff" || fail "merged database differs from the single run's: $(cat "$1/digest.diff")"
    diff -r -q -x protocol.toml "$T/single/Reports" "$1/Reports" > "$1/reports.diff" || fail "merged reports differ from the single run's: $(head -20 "$1/reports.diff")"
    # protocol.toml names its own database and reports and the command that wrote it; every other line
    # (zone, interval, method, analysis keys, and where each value came from) equals the single run's.
    [ -f "$1/Reports/protocol.toml" ] || fail "the merge job put no protocol.toml beside the merged reports"
    protocol_values() { grep -v -E '^(db|reports) = |^# The protocol of the last ' "$1"; }
    diff -u <(protocol_values "$T/single/Reports/protocol.toml") <(protocol_values "$1/Reports/protocol.toml") > "$1/protocol.diff" \
        || fail "the merged protocol.toml differs from the single run's: $(cat "$1/protocol.diff")"
    grep -q "^db = \"$1/all.sqlite\"" "$1/Reports/protocol.toml" || fail "the merged protocol.toml does not name the merged database: $(grep '^db' "$1/Reports/protocol.toml")"
    say "$(basename "$1"): merged database equals the single run's ($(tail -1 "$1/all.digest" | cut -d' ' -f2) rows in $(( $(wc -l < "$1/all.digest") - 1 )) tables), $(find "$1/Reports" -type f | wc -l) report files identical byte for byte, protocol.toml equal but for its own paths"
}

# ---- 3. round A: submit, merge, render, compare ------------------------------------------------
A=$T/a
t=$(date +%s.%N)
out=$("$BIN" slurm --data "$DATA" --work "$A" --shards $SHARDS --tz "$TZ_OPTION" --submit)
ids=$(echo "$out" | sed -n 's/^array \([0-9]*\) merge \([0-9]*\)$/\1 \2/p')
[ -n "$ids" ] || fail "sleepsta slurm --submit printed no job ids: $out"
read -r ARRAY MERGE <<< "$ids"
say "round A: array job $ARRAY ($SHARDS tasks), merge+render job $MERGE (afterok:$ARRAY)"
wait_gone "$ARRAY"; wait_gone "$MERGE"
ROUND_A=$(awk -v a="$t" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
require_ok "$ARRAY" "array"
require_ok "$MERGE" "merge and render"
for k in $(seq $SHARDS); do
    log=$A/logs/shard-${ARRAY}_$k.out
    [ -f "$log" ] || fail "no log $log for task $k"
    [ -s "$A/shards/shard-$k.sqlite" ] || fail "no shard database for task $k"
done
grep -q "all $SHARDS shards merged" "$A/logs/merge-$MERGE.out" || fail "merge log: $(cat "$A/logs/merge-$MERGE.out")"
say "round A: $SHARDS tasks exited 0 with a log each; merged and rendered in $ROUND_A s from submission"
compare "$A"

# ---- 4. round B: kill task 1 mid-run, resubmit it alone ------------------------------------------
B=$T/b
t=$(date +%s.%N)
"$BIN" slurm --data "$DATA" --work "$B" --shards $SHARDS --tz "$TZ_OPTION" > /dev/null
read -r ARRAY MERGE <<< "$("$B/slurm/submit.sh" | sed -n 's/^array \([0-9]*\) merge \([0-9]*\)$/\1 \2/p')"
say "round B: array job $ARRAY, merge+render job $MERGE"
# Task 1 holds the largest recording (the 3-day .cwa: the largest group goes to shard 1). Kill it
# once its run has begun storing: its runs row exists and is still `running`.
running_row() {
    python3 - "$B/shards/shard-1.sqlite" <<'PY'
import sqlite3, sys
try:
    c = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True, timeout=1)
    sys.exit(0 if c.execute("SELECT COUNT(*) FROM runs WHERE status = 'running'").fetchone()[0] > 0 else 1)
except Exception:
    sys.exit(1)
PY
}
end=$(( $(date +%s) + 300 ))
until [ "$(squeue -h -j "${ARRAY}_1" -o %T 2>/dev/null)" = RUNNING ] && running_row; do
    [ "$(date +%s)" -lt "$end" ] || fail "task 1 never started its run"
    gone "${ARRAY}_1" && fail "task 1 ended before it could be killed"
    sleep 0.05
done
sleep 0.3
scancel --full --signal=KILL "${ARRAY}_1"
end=$(( $(date +%s) + 120 ))
until gone "${ARRAY}_1"; do [ "$(date +%s)" -lt "$end" ] || fail "killed task 1 still queued"; sleep 0.1; done
state=$(task_states "$ARRAY" | awk '$1 == 1')
case "$state" in *COMPLETED*0:0*) fail "task 1 finished before the kill reached it ($state)";; esac
running_row || fail "task 1's shard database shows a finished run: the kill was not mid-run"
say "round B: task 1 killed mid-run (task state, exit code: ${state#1 }; its shard's run row still 'running')"
wait_gone "$ARRAY"
# The controller marks the merge's dependency as failed at its next scheduling pass.
end=$(( $(date +%s) + 90 ))
until [ "$(squeue -h -j "$MERGE" -o %r 2>/dev/null)" = DependencyNeverSatisfied ]; do
    [ "$(date +%s)" -lt "$end" ] || fail "merge job $MERGE: reason '$(squeue -h -j "$MERGE" -o %r 2>/dev/null)', expected DependencyNeverSatisfied"
    gone "$MERGE" && fail "merge job $MERGE ran although task 1 was killed"
    sleep 0.2
done
say "round B: the merge job waits with DependencyNeverSatisfied; cancelled"
scancel "$MERGE"
# merge by hand refuses the killed shard, naming it, and writes nothing
if "$BIN" merge --db "$B/probe.sqlite" --expect $SHARDS "$B"/shards/shard-*.sqlite > "$B/probe.out" 2>&1; then fail "merge accepted a killed shard"; fi
grep -q "shard-1.sqlite.*did not finish" "$B/probe.out" || fail "merge did not name the killed shard: $(cat "$B/probe.out")"
# rerun the failed shard alone, as the README says, and the merge after it
RERUN=$(sbatch --parsable --array=1 "$B/slurm/shards.sbatch"); RERUN=${RERUN%%;*}
MERGE2=$(sbatch --parsable --dependency=afterok:"$RERUN" "$B/slurm/merge.sbatch"); MERGE2=${MERGE2%%;*}
wait_gone "$RERUN"; wait_gone "$MERGE2"
ROUND_B=$(awk -v a="$t" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
require_ok "$RERUN" "resubmitted task 1"
require_ok "$MERGE2" "merge and render after the rerun"
[ -f "$B/logs/shard-${RERUN}_1.out" ] || fail "no log for the resubmitted task"
say "round B: task 1 resubmitted (job $RERUN) and merged (job $MERGE2); $ROUND_B s from submission"
compare "$B"
say "timings: single-machine run $SINGLE_SECONDS s; round A $ROUND_A s; round B (kill, rerun, merge) $ROUND_B s"
