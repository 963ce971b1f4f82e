#!/usr/bin/env bash
# Fuzz campaign over every variant kind (docs/fuzz.md, "Variant rules"): for each kind, 4×4 cases
# (6×6 for anti-king and non-consecutive, which no 4×4 grid keeps, and for entropic lines, which
# need a side divisible by 3) carrying rules of that kind,
# answered by dfs and sat, and by dfs, sat and cp (CASES each, default 100000).
# Usage: [KINDS="thermo arrow"] [RUNS="dfs,sat dfs,sat,cp"] tools/fuzz_variants.sh [CASES]
# (cp runs stop a case after 10 s). LAB=PATH runs that binary instead of building
# target/release/sudoku-lab.
set -euo pipefail
cd "$(dirname "$0")/.."
cases=${1:-100000}
if [ -n "${LAB:-}" ]; then lab=$LAB; else
  cargo build --release --quiet --bin sudoku-lab
  lab=target/release/sudoku-lab
fi
kinds=${KINDS:-anti-knight anti-king disjoint-groups extra-region odd even thermo arrow whisper
  renban palindrome kropki xv nonconsecutive negative little-killer sandwich candidates quadruple
  minimum maximum indexer between-line lockout region-sum entropic modular zipper slow-thermo
  nabner double-arrow clone skyscraper x-sum}
runs=${RUNS:-dfs,sat dfs,sat,cp}
for k in $kinds; do
  case $k in anti-king|nonconsecutive|entropic) n=6 ;; *) n=4 ;; esac
  for backends in $runs; do
    case $backends in
      *cp*) seed=2; limit=(--timeout 10) ;;
      *) seed=1; limit=() ;;
    esac
    printf '%-16s %dx%d %-10s ' "$k" "$n" "$n" "$backends"
    $lab fuzz --size "$n" --variants "$k" --backends "$backends" --puzzles "$cases" --seed $seed \
      "${limit[@]}" 2>&1 | tail -1 || true
  done
done
