#!/usr/bin/env bash
# The small tuning pipeline, a few minutes on a laptop: per variant, self-play
# data, a fit, the loss plot and a tuned-vs-hand-set match, into tuning/out/.
#   tuning/run-small.sh                 # all four variants
#   tuning/run-small.sh russian         # one
# GAMES, DEPTH and PAIRS override the sizes.
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${GAMES:-1000}
DEPTH=${DEPTH:-6}
PAIRS=${PAIRS:-200}
cargo build --release -p shashki-tuning
T=./target/release/shashki-tune
mkdir -p tuning/out
variants=("$@")
if [ ${#variants[@]} -eq 0 ]; then
  variants=(russian brazilian adiyukh-64 adiyukh-80)
fi
for v in "${variants[@]}"; do
  $T gen --variant "$v" --games "$GAMES" --depth "$DEPTH" --out "tuning/out/$v.data"
  $T fit --data "tuning/out/$v.data" --out "tuning/out/$v.txt" --plot "tuning/out/$v-loss.svg"
  echo "against the hand-set weights (tuning/baseline/$v.txt):"
  $T compare --variant "$v" --tuned "tuning/out/$v.txt" --pairs "$PAIRS" --depth "$DEPTH"
  echo "against the current built-in weights (weights/$v.txt):"
  $T compare --variant "$v" --tuned "tuning/out/$v.txt" --baseline "weights/$v.txt" --pairs "$PAIRS" --depth "$DEPTH"
done
echo "tuned weights in tuning/out/<variant>.txt; copy one over weights/<variant>.txt where it beats the built-in ones"
