#!/usr/bin/env bash
# Self-play data for the pattern evaluation (issue 14): shards of SHARD games
# each, one seed per variant, into DATA/<variant>/shard-<i>.data. Resumable:
# a shard is written to .part and renamed when whole, and a whole shard is
# never played again, so an interrupted run (or the next session) picks up
# at the first missing shard. Shard i of a seed holds games
# [i * SHARD, (i + 1) * SHARD), the same on every machine (see "At scale" in
# tuning/README.md for running the shards as a job array).
#   tuning/pattern-data.sh                     # russian and brazilian, 100 shards each
#   SHARDS=200 tuning/pattern-data.sh russian  # one variant, more shards
#   SHARDS=6 tuning/pattern-data.sh adiyukh-64 adiyukh-80  # the built-in Adiyukh data
# DATA (default tuning/out/patterns), SHARD (10000), SHARDS (100), DEPTH (6),
# THREADS (all cores) override the sizes; SEED (the variant's own, below) the
# seed, and WEIGHTS a weights file both sides play with (default: the
# hand-shaped terms alone), e.g. a later generation played with the
# built-in patterns:
#   DATA=tuning/out/patterns2 SEED=2701 WEIGHTS=weights/russian-patterns.bin \
#     SHARDS=13 tuning/pattern-data.sh russian
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-tuning/out/patterns}
SHARD=${SHARD:-10000}
SHARDS=${SHARDS:-100}
DEPTH=${DEPTH:-6}
THREADS=${THREADS:-$(nproc)}
cargo build --release -q -p shashki-tuning
T=./target/release/shashki-tune
variants=("$@")
if [ ${#variants[@]} -eq 0 ]; then
  variants=(russian brazilian)
fi
seed_of() {
  if [ -n "${SEED:-}" ]; then
    echo "$SEED"
    return
  fi
  case "$1" in
    russian) echo 1401 ;;
    brazilian) echo 1402 ;;
    adiyukh-64) echo 1403 ;;
    adiyukh-80) echo 1404 ;;
    *) echo "unknown variant $1" >&2; exit 2 ;;
  esac
}
# Round-robin over the variants, a shard at a time, so every variant grows.
for ((i = 0; i < SHARDS; i++)); do
  for v in "${variants[@]}"; do
    out="$DATA/$v/shard-$i.data"
    [ -f "$out" ] && continue
    mkdir -p "$DATA/$v"
    echo "$(date -u +%FT%TZ) $v shard $i: games $((i * SHARD))..$(((i + 1) * SHARD - 1)), depth $DEPTH"
    $T --quiet gen --variant "$v" --seed "$(seed_of "$v")" --first $((i * SHARD)) \
      --games "$SHARD" --depth "$DEPTH" --threads "$THREADS" \
      ${WEIGHTS:+--weights "$WEIGHTS"} --out "$out.part"
    mv "$out.part" "$out"
  done
done
echo "done: $DATA"
