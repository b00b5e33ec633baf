#!/usr/bin/env bash
# Build the endgame tables of a variant up to PIECES pieces on a Slurm
# cluster: one job array a wave (the pairs of one piece count and one
# number of men, from `shashki egdb list`), each wave waiting for the one
# before it (afterok), then a job that runs `egdb verify` on the folder.
# Run it where `sbatch` works, with DIR on a filesystem every node sees.
#
#   VARIANT=russian PIECES=6 DIR=/shared/egdb/russian cluster/egdb.sh
#
# Only what is missing is submitted (`egdb list --missing DIR`), so after
# a failed or cancelled task the same command does what is left; a task
# whose pair is already whole only checks it. A failed task cancels the
# waves after it (--kill-on-invalid-dep), never a wave on tables that are
# not there.
#
# Settings (environment):
#   VARIANT   russian or brazilian (default russian)
#   PIECES    most pieces (default 6)
#   DIR       the tables' folder (default egdb/$VARIANT), shared by the nodes
#   FROM      the smallest piece count submitted (default 2: everything;
#             the counts below it must be in DIR)
#   SHASHKI   the engine binary every node runs (default: shashki on PATH,
#             else this checkout's target/release/shashki), made absolute
#   CPUS      cores a task (default 1); MEM memory a task (default: the
#             cluster's); TIME time limit a task (default: the cluster's)
#   LOGS      the tasks' logs and wave lists (default ${DIR}-logs), shared
#   SBATCH_*  sbatch's own variables (SBATCH_PARTITION, SBATCH_ACCOUNT, ...)
# Prints one line a wave (its job id and tasks) and the verify job's id.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
VARIANT=${VARIANT:-russian}
PIECES=${PIECES:-6}
DIR=${DIR:-egdb/$VARIANT}
FROM=${FROM:-2}
CPUS=${CPUS:-1}
if [ -z "${SHASHKI:-}" ]; then
  SHASHKI=$(command -v shashki || echo "$here/../target/release/shashki")
fi
[ -x "$SHASHKI" ] || { echo "egdb.sh: no engine binary at '$SHASHKI' (set SHASHKI, or cargo build --release)" >&2; exit 2; }
SHASHKI=$(cd "$(dirname "$SHASHKI")" && pwd)/$(basename "$SHASHKI")
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
LOGS=${LOGS:-${DIR}-logs}
mkdir -p "$LOGS"
LOGS=$(cd "$LOGS" && pwd)
command -v sbatch >/dev/null || { echo "egdb.sh: sbatch not found (is this a Slurm login node?)" >&2; exit 2; }
export VARIANT DIR SHASHKI
limits=(--cpus-per-task="$CPUS")
[ -n "${MEM:-}" ] && limits+=(--mem="$MEM")
[ -n "${TIME:-}" ] && limits+=(--time="$TIME")
dep=
for ((n = FROM; n <= PIECES; n++)); do
  for ((m = 0; m <= n; m++)); do
    list="$LOGS/wave-$n-$m.txt"
    "$SHASHKI" egdb list --pieces "$n" --men "$m" --missing "$DIR" > "$list"
    tasks=$(wc -l < "$list")
    if [ "$tasks" -eq 0 ]; then
      echo "wave $n pieces, $m men: whole, nothing to submit"
      continue
    fi
    dep=$(sbatch --parsable --job-name="egdb-$VARIANT-$n-$m" --array=1-"$tasks" \
      "${limits[@]}" --output="$LOGS/%x_%A_%a.log" --export=ALL \
      ${dep:+--dependency=afterok:$dep --kill-on-invalid-dep=yes} \
      "$here/egdb-wave.sbatch" "$list")
    echo "wave $n pieces, $m men: job $dep, $tasks tasks ($(paste -sd ' ' "$list"))"
  done
done
verify=$(sbatch --parsable --job-name="egdb-$VARIANT-verify" "${limits[@]}" \
  --output="$LOGS/%x_%j.log" --export=ALL \
  ${dep:+--dependency=afterok:$dep --kill-on-invalid-dep=yes} \
  --wrap "exec \"\$SHASHKI\" egdb verify --variant \"\$VARIANT\" --dir \"\$DIR\"")
echo "verify: job $verify (log $LOGS/egdb-$VARIANT-verify_$verify.log)"
