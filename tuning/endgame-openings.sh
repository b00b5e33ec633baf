#!/usr/bin/env bash
# Endgame starting positions (6-8 pieces) from self-play games, for matches
# with and without endgame tables: openings/<variant>-endgames.txt.
#   tuning/endgame-openings.sh                  # russian and brazilian
#   tuning/endgame-openings.sh brazilian        # one
# Per variant, `shashki match` plays every opening pair of the shipped set
# (openings/<variant>.txt) once per round, at fixed nodes per move, one game
# at a time, the two engines with different node limits so that the two
# games of a pair differ (a single-threaded search to fixed nodes is
# deterministic: the same command gives the same games on every machine).
# `shashki-tune endgames` then takes from each game the first quiet position
# with 6 to 8 pieces and keeps it when a depth-12 search scores it within
# 0.60 of equality (see tuning/README.md). The games go to tuning/out/ (not
# committed); a round whose PDN is already there is not played again.
# ROUNDS (node limits engine1:engine2 per round), SEED, DEPTH and MAX_SCORE
# override the settings.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-"50000:80000 60000:100000"}
SEED=${SEED:-1}
DEPTH=${DEPTH:-12}
MAX_SCORE=${MAX_SCORE:-60}
cargo build --release -p shashki -p shashki-tuning
B=./target/release/shashki
T=./target/release/shashki-tune
mkdir -p tuning/out
variants=("$@")
if [ ${#variants[@]} -eq 0 ]; then
  variants=(russian brazilian)
fi
for v in "${variants[@]}"; do
  # Every opening of the shipped set once with each colour.
  n=$(grep -cv '^\s*\(#\|$\)' "openings/$v.txt")
  pdns=()
  for r in $ROUNDS; do
    n1=${r%:*}
    n2=${r#*:}
    pdn="tuning/out/$v-endgame-games-$n1-$n2-seed$SEED.pdn"
    if [ ! -s "$pdn" ]; then
      $B match --variant "$v" --openings "openings/$v.txt" --games $((2 * n)) \
        --nodes1 "$n1" --nodes2 "$n2" --option1 Threads=1 --option2 Threads=1 \
        --concurrency 1 --seed "$SEED" --pdn-out "$pdn.part" > "$pdn.log"
      mv "$pdn.part" "$pdn"
    fi
    pdns+=("$pdn")
  done
  $T endgames --variant "$v" --pieces 6-8 --depth "$DEPTH" --max-score "$MAX_SCORE" \
    --made-by "tuning/endgame-openings.sh $v (ROUNDS=\"$ROUNDS\" SEED=$SEED DEPTH=$DEPTH MAX_SCORE=$MAX_SCORE)" \
    --out "openings/$v-endgames.txt" "${pdns[@]}"
done
