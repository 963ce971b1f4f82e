#!/bin/bash
# The logic engine's step check over variant rules: `fuzz --backends logic,dfs` on 6x6 and 9x9
# grids, each run with a few kinds mixed (every kind the generator draws appears in some run) and
# one run of Killer cages; every case with one solution has its logic path checked step by step
# against the solution (docs/fuzz.md).
#
# usage: tools/fuzz_logic_variants.sh [BINARY] [SECONDS_PER_RUN]
#        (defaults: target/release/sudoku-lab, 15)
set -u
bin=${1:-target/release/sudoku-lab}
seconds=${2:-15}
groups="thermo,arrow,kropki whisper,renban,xv little-killer,sandwich,odd,even
palindrome,quadruple,between-line region-sum,entropic,modular zipper,slow-thermo,nabner
double-arrow,clone,skyscraper,x-sum minimum,maximum,indexer,lockout
extra-region,disjoint-groups,candidates,negative anti-knight,thermo,arrow"
for size in 6 9; do
  for kinds in $groups; do
    echo "== size $size, variants $kinds"
    "$bin" fuzz --backends logic,dfs --size "$size" --variants "$kinds" --seconds "$seconds" \
      --seed 20261129 --jobs 1 2>&1 | tail -1
  done
  echo "== size $size, killer"
  "$bin" fuzz --backends logic,dfs --size "$size" --killer --seconds "$seconds" \
    --seed 20261129 --jobs 1 2>&1 | tail -1
done
