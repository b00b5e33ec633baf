#!/usr/bin/env bash
# The cluster scripts on a real Slurm: starts a one-node cluster on this
# machine (munged, slurmctld, slurmd from Debian's packages munge,
# slurmctld, slurmd, slurm-client; a slurm.conf of its own in a scratch
# folder, on ports of its own), then
#   1. builds the tables up to 4 pieces of Russian and of Brazilian with
#      cluster/egdb.sh (12 waves each, as job arrays, and egdb verify) and
#      checks every file byte for byte against a serial `egdb build`;
#   2. cancels a task of one wave of a second Russian build before it runs
#      (the waves after it are cancelled with it), checks that a second
#      submission is refused while the build is queued, resubmits, and checks
#      that only the missing pairs were submitted and the folder is whole
#      and identical;
#   3. plays 2 self-play shards with cluster/gen.sbatch, cancels the second
#      task part-way, resubmits the array (the first shard is skipped), and
#      checks the shards against one serial `shashki-tune gen` of the same
#      games; then rescores them with cluster/rescore.sbatch and checks
#      them against a serial `shashki-tune rescore`.
# Where Slurm cannot start here it says why and is skipped (exit 0); with
# CI set (the CI machine) that is a failure. Needs root (slurmd), the
# release binaries (built first unless PREBUILT is set). About three
# minutes.
#   cluster/test-slurm.sh            # KEEP=1 keeps the scratch folder
set -euo pipefail
cd "$(dirname "$0")/.."
# The scripts' settings come from the environment: none from the caller's.
unset FROM CPUS MEM TIME LOGS VERIFY_MEM VERIFY_TIME FORCE WEIGHTS SHASHKI
for v in $(compgen -e | grep '^SBATCH_' || true); do unset "$v"; done
root=$(pwd)
started=$(date +%s)

skip() {
  if [ -n "${CI:-}" ]; then
    echo "slurm test: FAILED, Slurm cannot run here: $1" >&2
    exit 1
  fi
  echo "slurm test: skipped: $1"
  exit 0
}
fail() {
  echo "slurm test: FAILED: $1" >&2
  exit 1
}
step() { echo "slurm test: $(($(date +%s) - started)) s: $*"; }

for c in munged slurmctld slurmd sbatch squeue scancel scontrol sinfo; do
  command -v "$c" >/dev/null ||
    skip "$c not found (apt-get install munge slurmctld slurmd slurm-client)"
done
[ "$(id -u)" = 0 ] || skip "slurmd needs root"

# The release binaries, built here unless PREBUILT is set (.ci/run builds
# them first as its own user, then runs this as root).
[ -n "${PREBUILT:-}" ] || cargo build --release --locked -q -p shashki -p shashki-tuning
B=$root/target/release/shashki
T=$root/target/release/shashki-tune
[ -x "$B" ] && [ -x "$T" ] || fail "no release binaries at $B and $T (cargo build --release)"

W=$(mktemp -d /tmp/shashki-slurm.XXXXXX)
node=$(hostname -s)
cleanup() {
  [ -f "$W/slurmctld.pid" ] && scancel --full --quiet --user=root 2>/dev/null && sleep 1 || true
  for p in slurmd slurmctld munged; do
    [ -f "$W/$p.pid" ] && kill "$(cat "$W/$p.pid")" 2>/dev/null || true
  done
  if [ -z "${KEEP:-}" ]; then
    sleep 1
    rm -rf "$W"
  else
    echo "slurm test: kept $W"
  fi
}
trap cleanup EXIT

# munge: a key and a socket of this test's own.
dd if=/dev/urandom of="$W/munge.key" bs=1 count=128 status=none
chmod 600 "$W/munge.key"
mkdir -p "$W/munge"
munged --force --key-file="$W/munge.key" --socket="$W/munge/socket" \
  --pid-file="$W/munged.pid" --log-file="$W/munged.log" \
  --seed-file="$W/munge.seed" || skip "munged did not start: $(tail -1 "$W/munged.log" 2>/dev/null)"

# A free pair of ports near 16817.
port=16817
while (echo > /dev/tcp/127.0.0.1/$port) 2>/dev/null ||
  (echo > /dev/tcp/127.0.0.1/$((port + 1))) 2>/dev/null; do
  port=$((port + 2))
done
mkdir -p "$W/state" "$W/spool"
export SLURM_CONF=$W/slurm.conf
cat > "$SLURM_CONF" <<CONF
ClusterName=shashki-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$W/munge/socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
# Tasks and waves start as soon as they can (a test of seconds-long tasks).
SchedulerParameters=sched_interval=1,batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MinJobAge=3600
ReturnToService=2
MpiDefault=none
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool
SlurmctldPidFile=$W/slurmctld.pid
SlurmdPidFile=$W/slurmd.pid
SlurmctldLogFile=$W/slurmctld.log
SlurmdLogFile=$W/slurmd.log
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -i || skip "slurmctld did not start: $(tail -1 "$W/slurmctld.log" 2>/dev/null)"
slurmd || skip "slurmd did not start: $(tail -1 "$W/slurmd.log" 2>/dev/null)"
for _ in $(seq 60); do
  sinfo -h -N -o %T 2>/dev/null | grep -qx idle && break
  sleep 0.5
done
sinfo -h -N -o %T | grep -qx idle ||
  skip "the node did not come up: $(sinfo -h -N -o '%T %E' 2>&1 | head -1); $(tail -1 "$W/slurmd.log")"
step "one-node Slurm up ($(sinfo -V), node $node, $(nproc) CPUs, ports $port-$((port + 1)))"

# Waits until no job of this cluster is pending or running (10 minutes at
# most).
drain() {
  for _ in $(seq 1200); do
    [ -z "$(squeue -h -o %i)" ] && return 0
    sleep 0.5
  done
  squeue >&2
  fail "jobs still queued after 10 minutes"
}
# The state of a job (or array task): COMPLETED, FAILED, CANCELLED, ...
state() { scontrol -o show job "$1" | grep -o 'JobState=[A-Z_]*' | head -1 | cut -d= -f2; }
# Two folders hold the same files, byte for byte.
same_files() {
  diff <(cd "$1" && ls) <(cd "$2" && ls) >/dev/null ||
    fail "$2 holds other files than $1: $(diff <(cd "$1" && ls) <(cd "$2" && ls) | head -3 | tr '\n' ' ')"
  for f in "$1"/*; do
    cmp -s "$f" "$2/$(basename "$f")" || fail "$2/$(basename "$f") differs from the serial build's"
  done
}

# 1. Tables up to 4 pieces, both variants, as job arrays, against serial
# builds.
for v in russian brazilian; do
  "$B" egdb build --variant $v --pieces 4 --threads 1 --dir "$W/serial/$v" > /dev/null 2>&1 ||
    fail "serial egdb build of $v"
done
step "serial builds done ($(ls "$W/serial/russian" | wc -l) files a variant)"
for v in russian brazilian; do
  VARIANT=$v PIECES=4 DIR=$W/slurm/$v SHASHKI=$B cluster/egdb.sh > "$W/submit-$v.txt" ||
    fail "cluster/egdb.sh for $v: $(cat "$W/submit-$v.txt")"
done
drain
for v in russian brazilian; do
  waves=$(grep -c ': job ' "$W/submit-$v.txt")
  [ "$waves" = 13 ] || fail "$v: $waves jobs submitted, not 12 waves and a verify: $(cat "$W/submit-$v.txt")"
  verify=$(sed -n 's/^verify: job \([0-9]*\).*/\1/p' "$W/submit-$v.txt")
  [ "$(state "$verify")" = COMPLETED ] ||
    fail "$v: the verify job ended $(state "$verify"): $(tail -3 "$W/slurm/$v-logs/"*verify*.log)"
  grep -q " files of $v verified in $W/slurm/$v\$" "$W/slurm/$v-logs/"*verify*.log ||
    fail "$v: egdb verify did not pass: $(tail -3 "$W/slurm/$v-logs/"*verify*.log)"
  grep -q "complete: every pair of 2 to 4 pieces of $v is in $W/slurm/$v\$" "$W/slurm/$v-logs/"*verify*.log ||
    fail "$v: the verify job did not find the build complete: $(tail -3 "$W/slurm/$v-logs/"*verify*.log)"
  pairs=$(for n in 2 3 4; do "$B" egdb list --pieces $n; done | wc -l)
  logs=$(ls "$W/slurm/$v-logs/"egdb-$v-[0-9]*.log | wc -l)
  [ "$logs" = "$pairs" ] || fail "$v: $logs task logs, not one for each of the $pairs pairs"
  same_files "$W/serial/$v" "$W/slurm/$v"
done
step "job arrays: Russian and Brazilian to 4 pieces identical to the serial builds, egdb verify passed"

# 2. A task cancelled, the later waves with it, and the resubmission.
R=$W/resume/russian
VARIANT=russian PIECES=4 DIR=$R SHASHKI=$B cluster/egdb.sh > "$W/resume-1.txt"
wave=$(sed -n 's/^wave 4 pieces, 2 men: job \([0-9]*\),.*/\1/p' "$W/resume-1.txt")
[ -n "$wave" ] || fail "no wave 4/2 in $(cat "$W/resume-1.txt")"
scancel "${wave}_2"
# While jobs of the build are queued, a second submission is refused.
if VARIANT=russian PIECES=4 DIR=$R SHASHKI=$B cluster/egdb.sh > "$W/refused.txt" 2>&1; then
  fail "cluster/egdb.sh submitted while the build's jobs were queued: $(cat "$W/refused.txt")"
fi
grep -q "still queued or running" "$W/refused.txt" || fail "no reason given for the refusal: $(cat "$W/refused.txt")"
drain
# (A pending task cancelled keeps no record of its own: that it never ran
# shows in its log, which is not there.)
[ ! -e "$R-logs/egdb-russian-4-2_${wave}_2.log" ] || fail "task ${wave}_2 ran although it was cancelled"
[ -e "$R-logs/egdb-russian-4-2_${wave}_1.log" ] || fail "task ${wave}_1 did not run: $(ls "$R-logs")"
verify=$(sed -n 's/^verify: job \([0-9]*\).*/\1/p' "$W/resume-1.txt")
[ "$(state "$verify")" = CANCELLED ] || fail "verify ran after a cancelled wave: $(state "$verify")"
missing=$("$B" egdb list --pieces 4 --missing "$R" | wc -l)
[ "$missing" -gt 0 ] || fail "every pair was built although a task was cancelled"
VARIANT=russian PIECES=4 DIR=$R SHASHKI=$B cluster/egdb.sh > "$W/resume-2.txt"
drain
submitted=$(sed -n 's/.*job [0-9]*, \([0-9]*\) tasks.*/\1/p' "$W/resume-2.txt" | awk '{ n += $1 } END { print n + 0 }')
[ "$submitted" = "$missing" ] ||
  fail "the resubmission ran $submitted tasks for $missing missing pairs: $(cat "$W/resume-2.txt")"
verify=$(sed -n 's/^verify: job \([0-9]*\).*/\1/p' "$W/resume-2.txt")
[ "$(state "$verify")" = COMPLETED ] || fail "the resubmission's verify ended $(state "$verify")"
same_files "$W/serial/russian" "$R"
step "cancel and resume: $missing pairs left by the cancelled task, resubmitted alone, the folder identical"

# 3. Self-play shards: 2 tasks, the second cancelled part-way, resubmitted;
# then rescored.
export VARIANT=russian SEED=2801 SHARD=${SHARD:-1000} DEPTH=4 TUNE=$T
export OUT=$W/shards IN=$W/shards
"$T" --quiet gen --variant russian --seed $SEED --first 0 --games $((2 * SHARD)) \
  --depth $DEPTH --threads 2 --out "$W/serial-gen.data"
for i in 0 1; do
  "$T" --quiet gen --variant russian --seed $SEED --first $((i * SHARD)) --games "$SHARD" \
    --depth $DEPTH --threads 2 --out "$W/serial-shard-$i.data"
done
# (A run drops repeated positions, so the shards are one run once merged.)
"$T" --quiet merge --out "$W/serial-merged.data" "$W/serial-gen.data"
"$T" --quiet merge --out "$W/serial-shards-merged.data" "$W/serial-shard-0.data" "$W/serial-shard-1.data"
# Two data files hold the same lines past their comments (which name the
# inputs: merge's how many, rescore's their paths).
same_data() { cmp -s <(grep -v '^#' "$1") <(grep -v '^#' "$2"); }
same_data "$W/serial-shards-merged.data" "$W/serial-merged.data" ||
  fail "two serial shards merged are not one serial run (gen's shards by game range)"
step "serial self-play: $((2 * SHARD)) games, as one run and as two shards"
job=$(sbatch --parsable --array=0-1 --output="$W/gen_%A_%a.log" cluster/gen.sbatch)
for _ in $(seq 600); do
  [ "$(state "${job}_1")" = RUNNING ] && break
  sleep 0.1
done
sleep 1
[ "$(state "${job}_1")" = RUNNING ] || fail "gen task 1 was not running a second after it started: $(state "${job}_1")"
scancel "${job}_1"
drain
[ "$(state "${job}_1")" = CANCELLED ] || fail "gen task 1 ended $(state "${job}_1")"
[ ! -f "$OUT/shard-1.data" ] || fail "a cancelled task left a whole-looking shard"
[ -f "$OUT/shard-0.data" ] || fail "gen task 0 wrote no shard: $(cat "$W/gen_${job}_0.log")"
job2=$(sbatch --parsable --array=0-1 --output="$W/gen_%A_%a.log" cluster/gen.sbatch)
drain
grep -q 'is whole, skipped' "$W/gen_${job2}_0.log" || fail "the resubmitted task 0 played its shard again"
for i in 0 1; do
  cmp -s "$OUT/shard-$i.data" "$W/serial-shard-$i.data" || fail "shard $i differs from the serial generator's"
done
"$T" --quiet merge --out "$W/merged.data" "$OUT/shard-0.data" "$OUT/shard-1.data"
same_data "$W/merged.data" "$W/serial-merged.data" || fail "the merged shards differ from the serial run's"
step "self-play array: task 1 cancelled part-way, resubmitted (task 0 skipped), shards identical to the serial generator's"

export OUT=$W/scored
job=$(sbatch --parsable --array=0-1 --output="$W/rescore_%A_%a.log" cluster/rescore.sbatch)
drain
for i in 0 1; do
  [ "$(state "${job}_$i")" = COMPLETED ] || fail "rescore task $i ended $(state "${job}_$i"): $(cat "$W/rescore_${job}_$i.log")"
  "$T" --quiet --threads 2 rescore --depth $DEPTH --out "$W/serial-scored-$i.data" "$W/serial-shard-$i.data"
  same_data "$OUT/shard-$i.data" "$W/serial-scored-$i.data" || fail "rescored shard $i differs from the serial rescore"
done
step "rescore array: identical to the serial rescore"
echo "slurm test: passed in $(($(date +%s) - started)) s"
