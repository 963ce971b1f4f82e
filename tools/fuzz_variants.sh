#!/usr/bin/env bash
# Fuzz campaign over every variant kind (docs/fuzz.md, "Variant rules"): for each kind, 4×4 cases
# carrying rules of that kind, answered by dfs and sat (CASES each, default 100000) and by dfs,
# sat and cp (CASES/10), one seed per run.
# Usage: tools/fuzz_variants.sh [CASES]
set -euo pipefail
cd "$(dirname "$0")/.."
cases=${1:-100000}
cargo build --release --quiet --bin sudoku-lab
lab=target/release/sudoku-lab
for k in anti-knight anti-king disjoint-groups extra-region odd even thermo arrow whisper renban \
         palindrome kropki xv nonconsecutive negative little-killer sandwich; do
  printf '%-16s dfs,sat    ' "$k"
  $lab fuzz --size 4 --variants "$k" --backends dfs,sat --puzzles "$cases" --seed 1 2>&1 | tail -1
  if [ "$k" != sandwich ]; then
    printf '%-16s dfs,sat,cp ' "$k"
    $lab fuzz --size 4 --variants "$k" --backends dfs,sat,cp --puzzles $((cases / 10)) --seed 2 2>&1 | tail -1
  fi
done
