#!/usr/bin/env bash
# Build the endgame tables of a variant up to PIECES pieces on a Slurm
# cluster: one job array a wave (the pairs of one piece count and one
# number of men, from `shashki egdb list`), each wave waiting for the one
# before it (afterok), then a job (cluster/egdb-verify.sbatch) that runs
# `egdb verify` on the folder and checks that no pair is missing. Run it
# where `sbatch` works, with DIR on a filesystem every node sees.
#
#   VARIANT=russian PIECES=6 DIR=/shared/egdb/russian cluster/egdb.sh
#
# Only what is missing is submitted (`egdb list --missing DIR`), so after
# a failed or cancelled task the same command, run once no job of the
# build is queued or running, does what is left (it refuses while one is;
# FORCE=1 submits anyway). A task whose pair is already whole only checks
# it. A failed task cancels the waves after it (--kill-on-invalid-dep),
# never a wave on tables that are not there.
#
# Settings (environment):
#   VARIANT   russian or brazilian (default russian)
#   PIECES    most pieces, 2 to 8 (default 6)
#   DIR       the tables' folder (default egdb/$VARIANT), shared by the nodes
#   FROM      the smallest piece count submitted (default 2: everything;
#             the counts below it must be in DIR)
#   SHASHKI   the engine binary every node runs (default: this checkout's
#             target/release/shashki if built, else shashki on PATH)
#   CPUS      cores a task (default 1); MEM memory a task (default: the
#             cluster's); TIME time limit a task (default: the cluster's)
#   VERIFY_MEM, VERIFY_TIME  the same for the verify job (it reads every
#             file: about 2 bytes a position, 5.4 GB up to six pieces)
#   LOGS      the tasks' logs and wave lists (default ${DIR}-logs), shared
#   SBATCH_*  sbatch's own variables (SBATCH_PARTITION, SBATCH_ACCOUNT, ...)
# Prints the binary, one line a wave (its job id and tasks) and the verify
# job's id.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
die() {
  echo "egdb.sh: $*" >&2
  exit 2
}
VARIANT=${VARIANT:-russian}
PIECES=${PIECES:-6}
DIR=${DIR:-egdb/$VARIANT}
FROM=${FROM:-2}
CPUS=${CPUS:-1}
case $VARIANT in russian | brazilian) ;; *) die "VARIANT '$VARIANT' has no tables (russian or brazilian)" ;; esac
[[ $PIECES =~ ^[0-9]+$ ]] && [ "$PIECES" -ge 2 ] && [ "$PIECES" -le 8 ] || die "PIECES '$PIECES' is not a piece count from 2 to 8"
[[ $FROM =~ ^[0-9]+$ ]] && [ "$FROM" -ge 2 ] && [ "$FROM" -le "$PIECES" ] || die "FROM '$FROM' is not a piece count from 2 to PIECES ($PIECES)"
[[ $CPUS =~ ^[1-9][0-9]*$ ]] || die "CPUS '$CPUS' is not a number of cores"
if [ -z "${SHASHKI:-}" ]; then
  if [ -x "$here/../target/release/shashki" ]; then
    SHASHKI=$here/../target/release/shashki
  else
    SHASHKI=$(command -v shashki) || die "no engine binary (cargo build --release, or set SHASHKI)"
  fi
fi
SHASHKI=$(command -v "$SHASHKI") || die "no engine binary at '$SHASHKI'"
SHASHKI=$(cd "$(dirname "$SHASHKI")" && pwd)/$(basename "$SHASHKI")
"$SHASHKI" egdb list --help 2>/dev/null | grep -q -- --missing ||
  die "$SHASHKI has no 'egdb list --missing' (an older build: cargo build --release)"
command -v sbatch >/dev/null || die "sbatch not found (is this a Slurm login node?)"
if [ -z "${FORCE:-}" ]; then
  queued=$(squeue -h -u "$(id -un)" -o %j | grep -c "^egdb-$VARIANT-" || true)
  [ "$queued" -eq 0 ] ||
    die "$queued jobs of an egdb-$VARIANT build are still queued or running (squeue -u $(id -un)): wait for them, or scancel them, then run this again (FORCE=1 submits anyway)"
fi
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
LOGS=${LOGS:-${DIR}-logs}
mkdir -p "$LOGS"
LOGS=$(cd "$LOGS" && pwd)
export VARIANT DIR SHASHKI PIECES
echo "binary: $SHASHKI"

# Every wave's list first, each run's own files (a task reads its line
# when it starts, so a list must not change under a queued array).
run=$(date -u +%Y%m%dT%H%M%SZ)-$$
waves=()
for ((n = FROM; n <= PIECES; n++)); do
  for ((m = 0; m <= n; m++)); do
    list="$LOGS/wave-$n-$m.$run.txt"
    "$SHASHKI" egdb list --pieces "$n" --men "$m" --missing "$DIR" > "$list"
    waves+=("$n $m $list")
  done
done

limits=(--cpus-per-task="$CPUS")
[ -n "${MEM:-}" ] && limits+=(--mem="$MEM")
[ -n "${TIME:-}" ] && limits+=(--time="$TIME")
submitted=()
trap '[ ${#submitted[@]} -eq 0 ] || { echo "egdb.sh: failed; cancelling the jobs it submitted: ${submitted[*]}" >&2; scancel "${submitted[@]}"; }' ERR
dep=
for wave in "${waves[@]}"; do
  read -r n m list <<< "$wave"
  tasks=$(wc -l < "$list")
  if [ "$tasks" -eq 0 ]; then
    echo "wave $n pieces, $m men: whole, nothing to submit"
    rm -f "$list"
    continue
  fi
  dep=$(sbatch --parsable --job-name="egdb-$VARIANT-$n-$m" --array=1-"$tasks" \
    "${limits[@]}" --output="$LOGS/%x_%A_%a.log" --export=ALL \
    ${dep:+--dependency=afterok:$dep --kill-on-invalid-dep=yes} \
    "$here/egdb-wave.sbatch" "$list")
  dep=${dep%%;*}
  submitted+=("$dep")
  echo "wave $n pieces, $m men: job $dep, $tasks tasks ($(paste -sd ' ' "$list"))"
done
vlimits=(--cpus-per-task="$CPUS")
[ -n "${VERIFY_MEM:-}" ] && vlimits+=(--mem="$VERIFY_MEM")
[ -n "${VERIFY_TIME:-}" ] && vlimits+=(--time="$VERIFY_TIME")
verify=$(sbatch --parsable --job-name="egdb-$VARIANT-verify" "${vlimits[@]}" \
  --output="$LOGS/%x_%j.log" --export=ALL \
  ${dep:+--dependency=afterok:$dep --kill-on-invalid-dep=yes} \
  "$here/egdb-verify.sbatch")
verify=${verify%%;*}
echo "verify: job $verify (log $LOGS/egdb-$VARIANT-verify_$verify.log)"
