#!/usr/bin/env bash
# Fit the pattern weights of each variant to the self-play shards of
# tuning/pattern-data.sh and install them in weights/ (issue 14):
#   tuning/pattern-fit.sh                  # every variant
#   tuning/pattern-fit.sh brazilian        # one variant
# DATA (default tuning/out/patterns) is where the shards are, SCORED
# (tuning/out/scored) the Brazilian shards with search scores
# (tuning/pattern-rescore.sh brazilian): their labels are half the game's
# result and half what a depth-8 search predicts (the built-in weights:
# shards 0-4). Russian's built-in weights are a second generation
# (tuning/README.md, "Russian: a second generation of data"): the 13 shards
# of SCORED2 (tuning/out/scored2-d10), games played with the first blend's
# weights and scored by a depth-10 search with them, labels a quarter the
# result and three quarters the search, L2 0.002. The report of each fit
# goes to tuning/out/<variant>-patterns.txt and its loss plot to
# tuning/plots/<variant>-patterns.svg. Rebuild the engine afterwards
# (cargo build --release): the weights are compiled in.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-tuning/out/patterns}
SCORED=${SCORED:-tuning/out/scored}
SCORED2=${SCORED2:-tuning/out/scored2-d10}
cargo build --release -q -p shashki-tuning
T=./target/release/shashki-tune
variants=("$@")
if [ ${#variants[@]} -eq 0 ]; then
  variants=(russian brazilian adiyukh-64 adiyukh-80)
fi
mkdir -p tuning/out tuning/plots
data_of() {
  case "$1" in
    russian) echo "--result 0.25 --l2 0.002 $SCORED2/$1" ;;
    brazilian) echo "--result 0.5 $SCORED/$1" ;;
    *) echo "$DATA/$1" ;;
  esac
}
for v in "${variants[@]}"; do
  # shellcheck disable=SC2046 # data_of gives separate words
  $T --quiet fit-patterns --variant "$v" --out "tuning/out/$v-patterns.bin" \
    --plot "tuning/plots/$v-patterns.svg" $(data_of "$v") | tee "tuning/out/$v-patterns.txt"
  cp "tuning/out/$v-patterns.bin" "weights/$v-patterns.bin"
done
