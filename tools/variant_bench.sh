#!/usr/bin/env bash
# Variant rules (docs/benchmarks.md, "Variant rules"): generates, with fixed seeds, a set of
# unique 9×9 puzzles per variant kind and one mixing kinds, then times dfs, sat and cp on every
# set (solve with the uniqueness check, one thread, the checker included; cp refuses sandwiches)
# and cross-checks the three on every set. When PYTHON (default python3) has OR-tools, CP-SAT with
# one worker counts every set to 2 solutions too (tools/cpsat_variants.py, model building
# excluded): the anchor of the table's CP-SAT column.
# Usage: [PYTHON=/tmp/ortools/bin/python3] tools/variant_bench.sh [COUNT]
#        (puzzles per set, default 20; sets go to target/variants)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-20}
cargo build --release --quiet --bin sudoku-lab
lab=target/release/sudoku-lab
out=target/variants
mkdir -p "$out"
kinds="anti-knight anti-king disjoint-groups extra-region odd even thermo arrow whisper renban
       palindrome kropki xv nonconsecutive negative little-killer sandwich"
for k in $kinds; do
  [ -s "$out/$k-$count.jsonl" ] ||
    $lab generate --variants "$k" --unique --seed 1 --count "$count" > "$out/$k-$count.jsonl"
done
mixed="$out/mixed-$count.jsonl"
[ -s "$mixed" ] ||
  $lab generate --variants thermo,arrow,kropki,xv,renban,little-killer --unique --seed 1 \
    --count "$count" > "$mixed"
files=()
for k in $kinds mixed; do files+=("$out/$k-$count.jsonl"); done
# cp refuses the sandwich set, so bench exits with 2: go on to CP-SAT and the cross-checks.
$lab bench --backends dfs,sat,cp --csv "$out/bench-$count.csv" "${files[@]}" 2>/dev/null ||
  echo "(bench exited with $?: cp refuses sandwiches)"
py=${PYTHON:-python3}
if "$py" -c "import ortools" 2>/dev/null; then
  for f in "${files[@]}"; do
    echo "== cp-sat $f"
    "$py" tools/cpsat_variants.py "$f" || echo "tools/cpsat_variants.py failed on $f (exit $?)"
  done
else
  echo "== cp-sat: skipped ($py has no ortools; set PYTHON to a python3 that has it)"
fi
# The same sets cross-checked: every answer of dfs, sat and cp against the others and the checker.
for f in "${files[@]}"; do
  echo "== xcheck $f"
  $lab xcheck -j 1 --backends dfs,sat,cp "$f" 2>&1 | grep -E "disagreements|^failure|^disagreement" || true
done
