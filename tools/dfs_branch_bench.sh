#!/usr/bin/env bash
# `dfs` branching rules on variant puzzles (docs/benchmarks.md, "`dfs` branching: dom against
# dom/wdeg"): generates, with fixed seeds, COUNT unique 9×9 puzzles per variant kind (the kinds of
# tools/variant_bench.sh and of the published puzzles, each with its mixed set), then times
# `bench --backends dfs` under each rule of RULES (default "dom wdeg"), alternately, RUNS times
# (default 3), and prints per set the guesses per puzzle and the median over the runs of each
# run's median and maximum time (tools/dfs_branch_summary.py).
# Usage: [RULES="dom wdeg"] [RUNS=3] [LAB=PATH] tools/dfs_branch_bench.sh [COUNT]
#   (sets and CSV files go to target/dfs-branch; LAB runs that binary instead of building
#   target/release/sudoku-lab)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-20}
runs=${RUNS:-3}
rules=${RULES:-dom wdeg}
if [ -n "${LAB:-}" ]; then lab=$LAB; else
  cargo build --release --quiet --bin sudoku-lab
  lab=target/release/sudoku-lab
fi
out=target/dfs-branch
mkdir -p "$out"
gen() { # NAME KINDS
  [ -s "$out/$1-$count.jsonl" ] ||
    $lab generate --variants "$2" --unique --seed 1 --count "$count" > "$out/$1-$count.jsonl"
}
for k in anti-knight anti-king disjoint-groups extra-region odd even thermo arrow whisper renban \
         palindrome kropki xv nonconsecutive negative little-killer sandwich \
         candidates quadruple minimum maximum indexer between-line lockout region-sum entropic \
         modular zipper slow-thermo nabner double-arrow clone skyscraper x-sum; do
  gen "$k" "$k"
done
gen mixed thermo,arrow,kropki,xv,renban,little-killer
gen mixed-published quadruple,between-line,region-sum,skyscraper,x-sum,clone
files=("$out"/*-"$count".jsonl)
for i in $(seq "$runs"); do
  for rule in $rules; do
    $lab bench --backends dfs --dfs-branch "$rule" --csv "$out/$rule-$i.csv" "${files[@]}" \
      > /dev/null
  done
done
python3 tools/dfs_branch_summary.py "$out" $rules
