#!/usr/bin/env bash
# The final matches of issue 27: this checkout's engine against the issue's
# parent commit built from git, 2 s + 0.02 s, one thread each, from the
# shipped openings. This engine probes the six-piece tables, the parent the
# five-piece ones (what each had).
#   tuning/against-parent.sh                 # russian brazilian adiyukh-64 adiyukh-80
#   tuning/against-parent.sh russian         # one
# TABLES6 (a folder with russian/ and brazilian/ up to six pieces) and
# TABLES5 (the same, up to five) are required for Russian and Brazilian;
# the Adiyukh variants have no tables. The parent is built once into
# tuning/out/parent (a git worktree; not committed). PARENT, GAMES (400;
# 200 for Adiyukh), TC and SEED_<variant> override the settings; the games
# go to tuning/out/parent-<variant>-seed<S>.pdn and the match's report to
# the .log beside it. Run on an otherwise idle machine: both engines play on
# a clock, two games at a time on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
PARENT=${PARENT:-0a57745}
TC=${TC:-2+0.02}
declare -A SEEDS=([russian]=${SEED_russian:-6001} [brazilian]=${SEED_brazilian:-6002}
  [adiyukh-64]=${SEED_adiyukh_64:-6003} [adiyukh-80]=${SEED_adiyukh_80:-6004})
mkdir -p tuning/out
cargo build --release -p shashki
NEW=$PWD/target/release/shashki
OLD=$PWD/tuning/out/parent/target/release/shashki
if [ ! -x "$OLD" ]; then
  [ -d tuning/out/parent ] || git worktree add --detach tuning/out/parent "$PARENT"
  (cd tuning/out/parent && cargo build --release -p shashki)
fi
variants=("$@")
if [ ${#variants[@]} -eq 0 ]; then
  variants=(russian brazilian adiyukh-64 adiyukh-80)
fi
for v in "${variants[@]}"; do
  seed=${SEEDS[$v]:?"unknown variant '$v' (russian, brazilian, adiyukh-64 or adiyukh-80)"}
  tables=()
  case $v in
    russian | brazilian)
      tables=(--option1 "EGDB Path=${TABLES6:?set TABLES6 to the six-piece folder}"
        --option2 "EGDB Path=${TABLES5:?set TABLES5 to the five-piece folder}")
      games=${GAMES:-400} ;;
    *) games=${GAMES:-200} ;;
  esac
  out=tuning/out/parent-$v-seed$seed
  "$NEW" match --engine1 "$NEW" --engine2 "$OLD" --name1 new --name2 parent \
    "${tables[@]}" --variant "$v" --tc "$TC" --concurrency 2 --games "$games" \
    --seed "$seed" --pdn-out "$out.pdn" | tee "$out.log"
done
