#!/bin/sh
# Time to depth with 1 and 2 threads over openings of the shipped Russian
# set, as whole `shashki search` processes (the criterion benchmark
# `search/russian/time-to-depth-*` times three positions only).
#
# usage: benches/threads-time-to-depth.sh [DEPTH [RUNS [EVERY]]]
#   DEPTH: search depth (default 15); RUNS: runs per position and thread
#   count, the median is kept (default 5); EVERY: take every EVERY-th
#   opening (default 16: 12 of the 188). Openings whose search ends at once
#   (a forced reply, under 50 ms) are left out of the sums.
set -eu
depth=${1:-15}
runs=${2:-5}
every=${3:-16}
root=$(cd "$(dirname "$0")/.." && pwd)
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
bin="$root/target/release/shashki"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Milliseconds of one search.
ms() {
    start=$(date +%s%N)
    "$bin" search --variant russian --moves "$@" >/dev/null
    end=$(date +%s%N)
    echo $(((end - start) / 1000000))
}

median() {
    sort -n "$1" | sed -n "$(((runs + 1) / 2))p"
}

sum1=0
sum2=0
grep -v '^#' "$root/openings/russian.txt" | awk -v e="$every" 'NF && NR % e == 1' >"$tmp/openings"
while read -r line; do
    : >"$tmp/1"
    : >"$tmp/2"
    i=0
    while [ "$i" -lt "$runs" ]; do
        # shellcheck disable=SC2086 # the moves are separate arguments
        ms $line --depth "$depth" --threads 1 >>"$tmp/1"
        # shellcheck disable=SC2086
        ms $line --depth "$depth" --threads 2 >>"$tmp/2"
        i=$((i + 1))
    done
    t1=$(median "$tmp/1")
    t2=$(median "$tmp/2")
    if [ "$t1" -lt 50 ]; then
        echo "$line: ${t1} ms (forced: left out)"
        continue
    fi
    echo "$line: 1 thread ${t1} ms, 2 threads ${t2} ms"
    sum1=$((sum1 + t1))
    sum2=$((sum2 + t2))
done <"$tmp/openings"
echo "depth $depth, summed medians: 1 thread $sum1 ms, 2 threads $sum2 ms, speed-up $(awk -v a="$sum1" -v b="$sum2" 'BEGIN { printf "%.2f", a / b }')"
