#!/usr/bin/env bash
# Search scores for the self-play shards of tuning/pattern-data.sh, for a fit
# that blends the outcomes with a deeper search (`fit-patterns --result`):
# DATA/<variant>/shard-<i>.data -> SCORED/<variant>/shard-<i>.data, each
# position searched to DEPTH with the hand-shaped evaluation and the pattern
# weights of commit REV (default ffdae1a: the weights fitted to the outcomes
# alone, which made the scores of the built-in Russian weights), taken from
# git so that the scores stay the same whatever weights are built in now.
# Resumable like pattern-data.sh (a shard is written to .part and renamed
# when whole), and deterministic: a shard's scores are the same on every
# machine (for the same search code).
#   tuning/pattern-rescore.sh russian            # every shard there is
#   SHARDS=8 DEPTH=10 tuning/pattern-rescore.sh brazilian
# DATA (default tuning/out/patterns), SCORED (tuning/out/scored), DEPTH (8),
# REV (ffdae1a), SHARDS (all), THREADS (all cores).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-tuning/out/patterns}
SCORED=${SCORED:-tuning/out/scored}
DEPTH=${DEPTH:-8}
REV=${REV:-ffdae1a}
SHARDS=${SHARDS:-1000000}
THREADS=${THREADS:-$(nproc)}
cargo build --release -q -p shashki-tuning
T=./target/release/shashki-tune
if [ $# -eq 0 ]; then
  echo "usage: tuning/pattern-rescore.sh VARIANT..." >&2
  exit 2
fi
for v in "$@"; do
  mkdir -p "$SCORED/$v"
  eval_weights="$SCORED/$v/patterns-$REV.bin"
  git show "$REV:weights/$v-patterns.bin" > "$eval_weights"
  for ((i = 0; i < SHARDS; i++)); do
    in="$DATA/$v/shard-$i.data"
    out="$SCORED/$v/shard-$i.data"
    [ -f "$in" ] || break
    [ -f "$out" ] && continue
    echo "$(date -u +%FT%TZ) $v shard $i: depth $DEPTH"
    $T --quiet --threads "$THREADS" rescore --depth "$DEPTH" --weights "$eval_weights" --out "$out.part" "$in"
    mv "$out.part" "$out"
  done
done
echo "done: $SCORED"
