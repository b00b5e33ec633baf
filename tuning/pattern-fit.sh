#!/usr/bin/env bash
# Fit the pattern weights of each variant to the self-play shards of
# tuning/pattern-data.sh and install them in weights/ (issue 14):
#   tuning/pattern-fit.sh                  # every variant
#   tuning/pattern-fit.sh brazilian        # one variant
# DATA (default tuning/out/patterns) is where the shards are. The
# built-in weights of Russian and Brazilian are each a second generation
# (tuning/README.md, "Russian: a second generation of data" and
# "Brazilian: a second generation"): games played with the weights of the
# generation before and scored by a search with them, labels a quarter the
# game's result and three quarters the search, L2 0.002. Russian reads the
# 13 shards of SCORED2 (tuning/out/scored2-d10, depth 10), Brazilian those
# of SCORED (tuning/out/scored2, depth 8). The report of each fit
# goes to tuning/out/<variant>-patterns.txt and its loss plot to
# tuning/plots/<variant>-patterns.svg. Rebuild the engine afterwards
# (cargo build --release): the weights are compiled in.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-tuning/out/patterns}
SCORED=${SCORED:-tuning/out/scored2}
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
    brazilian) echo "--result 0.25 --l2 0.002 $SCORED/$1" ;;
    *) echo "$DATA/$1" ;;
  esac
}
for v in "${variants[@]}"; do
  # shellcheck disable=SC2046 # data_of gives separate words
  $T --quiet fit-patterns --variant "$v" --out "tuning/out/$v-patterns.bin" \
    --plot "tuning/plots/$v-patterns.svg" $(data_of "$v") | tee "tuning/out/$v-patterns.txt"
  cp "tuning/out/$v-patterns.bin" "weights/$v-patterns.bin"
done
