#!/usr/bin/env bash
# Cross-checks the `cp` backend against `dfs` (docs/backends.md, "What the cross-checks found"):
# the default settings on every 9×9 set, then each --cp-alldiff level under each
# --cp-house-cover form, on the forum sets. Needs ../shared/data/9x9. One thread per run.
# Usage: tools/cp_xcheck.sh [default|levels|all] [SET...]   (default: all; SET names a forum set
# for `levels`, e.g. forum_hardest_1106; default both). TIMEOUT=SECONDS bounds each puzzle's search:
# a puzzle cut off is counted as a time-out in the summary, never as an answer. LEVELS and COVERS
# narrow the `levels` runs (default: "value bounds domain" and "clauses linear none"). LAB=PATH runs that
# binary instead of building target/release/sudoku-lab.
set -uo pipefail
cd "$(dirname "$0")/.."
data=../shared/data/9x9
[ -d "$data" ] || { echo "tools/cp_xcheck.sh: $data is missing (the public 9×9 sets)" >&2; exit 2; }
what=${1:-all}
shift || true
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(forum_hardest_1106 forum_hardest_1905_11plus)
limit=()
[ -n "${TIMEOUT:-}" ] && limit=(--timeout "$TIMEOUT")
if [ -n "${LAB:-}" ]; then lab=$LAB; else
  cargo build --release --quiet --bin sudoku-lab
  lab=target/release/sudoku-lab
fi
summary() { grep -E "disagreements|^all +cp" || true; }
if [ "$what" = default ] || [ "$what" = all ]; then
  for set in 17_clue magictour_top1465 forum_hardest_1905_11plus forum_hardest_1106 serg_benchmark; do
    echo "== $set: dfs,cp, default settings, unique"
    $lab xcheck -j 1 --backends dfs,cp "$data/$set.txt" 2>&1 | summary
  done
  echo "== test_puzzles.counts: dfs,cp, default settings, count to 1000"
  $lab xcheck -j 1 --task count --limit 1000 --backends dfs,cp "$data/test_puzzles.counts" 2>&1 | summary
  echo "== serg_benchmark: dfs,cp, default settings, count to 1000"
  $lab xcheck -j 1 --task count --limit 1000 --backends dfs,cp "$data/serg_benchmark.txt" 2>&1 | summary
fi
if [ "$what" = levels ] || [ "$what" = all ]; then
  for set in "${sets[@]}"; do
    for level in ${LEVELS:-value bounds domain}; do
      for cover in ${COVERS:-clauses linear none}; do
        echo "== $set: dfs,cp --cp-alldiff $level --cp-house-cover $cover ${limit[*]}, unique"
        # --allow-unsound: domain is unsound in huub 100.1, and this is what shows it.
        $lab xcheck -j 1 --backends dfs,cp --cp-alldiff $level --allow-unsound \
          --cp-house-cover $cover "${limit[@]}" "$data/$set.txt" 2>&1 | summary
      done
    done
  done
fi
