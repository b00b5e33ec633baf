#!/bin/sh
# Instructions executed by the perft speed suite (the positions of
# engine-tests/testdata/speed-suite.txt, each to its depth, one thread), as
# counted by valgrind's callgrind: repeatable on a busy machine where the
# criterion times (`cargo bench --bench perft -- speed-suite`) are not.
#
# usage: benches/speed-suite-callgrind.sh [DEPTH]
#   DEPTH: overrides the suite's depth (default: the file's, 10). Prints
#   each position's node count and instructions, then the totals. Each
#   position runs as its own `shashki perft` process, start-up included
#   (about 0.3 M instructions each). Takes about a minute at depth 10.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
suite="$root/engine-tests/testdata/speed-suite.txt"
[ -r "$suite" ] || { echo "error: cannot read $suite" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "error: valgrind is not installed" >&2; exit 2; }
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
bin="$root/target/release/shashki"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

total_ir=0
total_nodes=0
grep -v '^#' "$suite" | while IFS=';' read -r variant name fen depth; do
    [ -n "$variant" ] || continue
    depth=${1:-$depth}
    out="$tmp/$name.out"
    nodes=$(valgrind --tool=callgrind --callgrind-out-file="$out" \
        "$bin" perft --variant "$variant" --fen "$fen" --depth "$depth" 2>/dev/null |
        sed -n 's/^nodes //p')
    ir=$(sed -n 's/^summary: //p' "$out")
    total_ir=$((total_ir + ir))
    total_nodes=$((total_nodes + nodes))
    printf '%-12s depth %2s %12s nodes %14s instructions\n' "$name" "$depth" "$nodes" "$ir"
    printf '%s %s\n' "$total_nodes" "$total_ir" >"$tmp/totals"
done
read -r total_nodes total_ir <"$tmp/totals"
printf '%-12s %21s nodes %14s instructions (%s per node)\n' total "$total_nodes" "$total_ir" \
    "$(awk "BEGIN { printf \"%.2f\", $total_ir / $total_nodes }")"
