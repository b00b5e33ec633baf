#!/usr/bin/env bash
# Fit the pattern weights of each variant to the self-play shards of
# tuning/pattern-data.sh and install them in weights/ (issue 14):
#   tuning/pattern-fit.sh                  # every variant
#   tuning/pattern-fit.sh brazilian        # one variant
# DATA (default tuning/out/patterns) is where the shards are, SCORED
# (tuning/out/scored) the Russian and Brazilian shards with search scores
# (tuning/pattern-rescore.sh russian brazilian): their labels are half the
# game's result and half what a depth-8 search predicts (the built-in
# weights: Russian shards 0-12, Brazilian 0-4); the report of each fit
# goes to tuning/out/<variant>-patterns.txt and its loss plot to
# tuning/plots/<variant>-patterns.svg. Rebuild the engine afterwards
# (cargo build --release): the weights are compiled in.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-tuning/out/patterns}
SCORED=${SCORED:-tuning/out/scored}
cargo build --release -q -p shashki-tuning
T=./target/release/shashki-tune
variants=("$@")
if [ ${#variants[@]} -eq 0 ]; then
  variants=(russian brazilian adiyukh-64 adiyukh-80)
fi
mkdir -p tuning/out tuning/plots
data_of() {
  case "$1" in
    russian | brazilian) echo "--result 0.5 $SCORED/$1" ;;
    *) echo "$DATA/$1" ;;
  esac
}
for v in "${variants[@]}"; do
  # shellcheck disable=SC2046 # data_of gives separate words
  $T --quiet fit-patterns --variant "$v" --out "tuning/out/$v-patterns.bin" \
    --plot "tuning/plots/$v-patterns.svg" $(data_of "$v") | tee "tuning/out/$v-patterns.txt"
  cp "tuning/out/$v-patterns.bin" "weights/$v-patterns.bin"
done
