#!/usr/bin/env bash
# What measuring search effort costs a backend (docs/benchmarks.md, "Effort counters"): the same
# `solve` run without a meter (text answers) and with one (`--json` answers carry `effort`),
# alternated REPS times on one thread; prints each run's wall seconds and the medians.
# Usage: tools/effort_cost.sh BACKEND FILE [REPS]   (default REPS 7)
set -euo pipefail
cd "$(dirname "$0")/.."
backend=${1:?usage: tools/effort_cost.sh BACKEND FILE [REPS]}
file=${2:?usage: tools/effort_cost.sh BACKEND FILE [REPS]}
reps=${3:-7}
cargo build --release --quiet --bin sudoku-lab
lab=target/release/sudoku-lab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for _ in $(seq "$reps"); do
  for mode in plain metered; do
    flags=()
    [ "$mode" = metered ] && flags=(--json)
    start=$(date +%s.%N)
    "$lab" solve --backend "$backend" --jobs 1 "${flags[@]}" "$file" > /dev/null
    end=$(date +%s.%N)
    echo "$mode $(echo "$end - $start" | bc)" | tee -a "$tmp/times"
  done
done
for mode in plain metered; do
  grep "^$mode " "$tmp/times" | sort -k2 -g | awk -v m="$mode" \
    '{t[NR] = $2} END {printf "%s median %.3f s over %d runs\n", m, t[int((NR + 1) / 2)], NR}'
done
