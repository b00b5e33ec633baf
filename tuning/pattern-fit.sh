#!/usr/bin/env bash
# Fit the pattern weights of each variant to the self-play shards of
# tuning/pattern-data.sh and install them in weights/ (issue 14):
#   tuning/pattern-fit.sh                  # every variant
#   tuning/pattern-fit.sh brazilian        # one variant
# DATA (default tuning/out/patterns) is where the shards are; the report of
# each fit goes to tuning/out/<variant>-patterns.txt and its loss plot to
# tuning/plots/<variant>-patterns.svg. Rebuild the engine afterwards
# (cargo build --release): the weights are compiled in.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-tuning/out/patterns}
cargo build --release -q -p shashki-tuning
T=./target/release/shashki-tune
variants=("$@")
if [ ${#variants[@]} -eq 0 ]; then
  variants=(russian brazilian adiyukh-64 adiyukh-80)
fi
mkdir -p tuning/out tuning/plots
for v in "${variants[@]}"; do
  $T --quiet fit-patterns --variant "$v" --out "tuning/out/$v-patterns.bin" \
    --plot "tuning/plots/$v-patterns.svg" "$DATA/$v" | tee "tuning/out/$v-patterns.txt"
  cp "tuning/out/$v-patterns.bin" "weights/$v-patterns.bin"
done
