#!/usr/bin/env bash
# Fuzz campaign over every variant kind (docs/fuzz.md, "Variant rules"): for each kind, 4×4 cases
# (6×6 for anti-king and non-consecutive, which no 4×4 grid keeps) carrying rules of that kind,
# answered by dfs and sat (CASES each, default 100000) and by dfs, sat and cp (CASES/10).
# Usage: [KINDS="thermo arrow"] tools/fuzz_variants.sh [CASES]   (cp runs stop a case after 10 s)
set -euo pipefail
cd "$(dirname "$0")/.."
cases=${1:-100000}
cargo build --release --quiet --bin sudoku-lab
lab=target/release/sudoku-lab
kinds=${KINDS:-anti-knight anti-king disjoint-groups extra-region odd even thermo arrow whisper
  renban palindrome kropki xv nonconsecutive negative little-killer sandwich}
for k in $kinds; do
  case $k in anti-king|nonconsecutive) n=6 ;; *) n=4 ;; esac
  printf '%-16s %dx%d dfs,sat    ' "$k" "$n" "$n"
  $lab fuzz --size "$n" --variants "$k" --backends dfs,sat --puzzles "$cases" --seed 1 2>&1 | tail -1 || true
  if [ "$k" != sandwich ]; then
    printf '%-16s %dx%d dfs,sat,cp ' "$k" "$n" "$n"
    $lab fuzz --size "$n" --variants "$k" --backends dfs,sat,cp --puzzles $((cases / 10)) --seed 2 --timeout 10 \
      2>&1 | tail -1 || true
  fi
done
