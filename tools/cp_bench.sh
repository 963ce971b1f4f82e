#!/usr/bin/env bash
# Same-run figures for the `cp` backend against OR-tools CP-SAT with one worker
# (docs/benchmarks.md, "Constraint programming"). Needs ../shared/data/9x9 and a python3 with
# ortools (`python3 -m venv /tmp/ortools && /tmp/ortools/bin/pip install ortools`, then
# PYTHON=/tmp/ortools/bin/python3). One thread; wall clock per puzzle; model building included
# for cp (and the checker), excluded for CP-SAT.
# Usage: tools/cp_bench.sh [N]   (N puzzles of each 9×9 set, default 100; LAB=PATH runs that
# binary instead of building target/release/sudoku-lab)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100}
py=${PYTHON:-python3}
data=../shared/data/9x9
[ -d "$data" ] || { echo "tools/cp_bench.sh: $data is missing (the public 9×9 sets)" >&2; exit 2; }
if [ -n "${LAB:-}" ]; then lab=$LAB; else
  cargo build --release --quiet --bin sudoku-lab
  lab=target/release/sudoku-lab
fi
row() { grep -E " cp " || true; }
for set in forum_hardest_1106 17_clue magictour_top1465; do
  echo "== $set, first $n, unique (solve + uniqueness)"
  $lab bench --task unique --backends cp --max-puzzles "$n" "$data/$set.txt" | row
  $py tools/cpsat_killer.py "$data/$set.txt" --max "$n"
done
for set in benches/data/killer1000.txt benches/data/killer-hardest50.txt; do
  echo "== $set, unique"
  $lab bench --task unique --backends cp "$set" --timeout 60 | row
  $py tools/cpsat_killer.py "$set"
done
LAB=$lab BOUNDS=reduced-costs tools/cp_optimize_bench.sh
