#!/usr/bin/env bash
# Variant rules (docs/benchmarks.md, "Variant rules"): generates, with fixed seeds, a set of
# unique 9×9 puzzles per variant kind and one mixing kinds, then times dfs, sat and cp on every
# set (solve with the uniqueness check, one thread, the checker included; cp refuses sandwiches)
# and cross-checks the three on every set.
# Usage: tools/variant_bench.sh [COUNT]   (puzzles per set, default 20; sets go to target/variants)
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
$lab bench --backends dfs,sat,cp --csv "$out/bench-$count.csv" "${files[@]}" 2>/dev/null
# The same sets cross-checked: every answer of dfs, sat and cp against the others and the checker.
for f in "${files[@]}"; do
  echo "== xcheck $f"
  $lab xcheck -j 1 --backends dfs,sat,cp "$f" 2>&1 | grep -E "disagreements|^failure|^disagreement" || true
done
