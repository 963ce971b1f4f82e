#!/usr/bin/env bash
# `cp`'s optimize figures (docs/benchmarks.md, "Constraint programming"), under each
# --cp-objective-bound in the same run: the NOIP 2009 samples, pyramid50, the random-weights set
# and the empty 9×9 pyramid. Needs only the repository. One thread; wall clock per puzzle, the
# model built and the answer checked.
# Usage: tools/cp_optimize_bench.sh   (LAB=PATH runs that binary instead of building
# target/release/sudoku-lab; BOUNDS="reduced-costs none" the bounds, in that order)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${LAB:-}" ]; then lab=$LAB; else
  cargo build --release --quiet --bin sudoku-lab
  lab=target/release/sudoku-lab
fi
# A time-out (exit 3) is a figure here, not a failure of the script: hence `|| true`.
row() { grep -E " cp " || true; }
for bound in ${BOUNDS:-reduced-costs none}; do
  opt=(--backends cp --task optimize --cp-objective-bound "$bound" --timeout 60)
  echo "== --cp-objective-bound $bound: NOIP 2009 samples, pyramid50, random weights"
  $lab bench "${opt[@]}" tests/data/cases/noip2009/sample*.in | row || true
  $lab bench "${opt[@]}" --weights pyramid tests/data/pyramid50.txt | row || true
  $lab bench "${opt[@]}" --weights tests/data/weights-random9.txt tests/data/random-weighted9.txt | row || true
  echo "== --cp-objective-bound $bound: the empty 9×9 pyramid, --timeout 120"
  TIMEFORMAT="wall %R s"
  time (echo "................................................................................." \
    | $lab optimize -j 1 --backend cp --cp-objective-bound "$bound" --weights pyramid \
        --timeout 120 || true) 2>&1
done
