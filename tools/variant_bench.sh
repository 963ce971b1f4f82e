#!/usr/bin/env bash
# Variant rules (docs/benchmarks.md, "Variant rules"): generates, with fixed seeds, a set of
# unique 9×9 puzzles per variant kind and one mixing kinds, then times dfs, sat and cp on every
# set (solve with the uniqueness check, one thread, the checker included);
# then dlx (it refuses arrows, little killers and sandwiches), each puzzle within 20 s and at most
# 120 s per set; then ilp, slower, on the first ILP_PUZZLES puzzles of every set within 20 s a
# puzzle and ILP_BUDGET (default 60) s per set, under microlp and then, when the binary has the
# `highs` feature, under HiGHS (ILP_SOLVERS="microlp highs" or "highs" picks; the HiGHS figures
# go to bench-ilp-highs-*.csv); then, when PYTHON (default python3) has OR-tools, CP-SAT with
# one worker counts every set to 2 solutions (tools/cpsat_variants.py on the set in the lab's JSON, model building excluded:
# the table's CP-SAT column); and cross-checks dfs, dlx, sat and cp on every set. dfs, sat and cp
# run without a deadline: with one, sat runs on a worker thread, which costs milliseconds on a
# busy machine; dlx and ilp check theirs inside their loops.
# Usage: [PYTHON=/tmp/ortools/bin/python3] tools/variant_bench.sh [COUNT [ILP_PUZZLES]]
#   (puzzles per set, default 20; ilp's puzzles per set, default 5, 0 to skip ilp; sets and
#   CSV files go to target/variants; LAB=PATH runs that binary instead of building
#   target/release/sudoku-lab; `cargo build --release --features highs` makes one with HiGHS)
# KINDS="k1 k2 …" and MIXED=k1,k2,… replace the kinds and the mixed set's kinds, OUT=DIR the
# folder; `KINDS=published` is the kinds of the published puzzles (candidates to x-sum) with
# their own mixed set, in target/variants-published.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-20}
ilp_count=${2:-5}
if [ -n "${LAB:-}" ]; then lab=$LAB; else
  cargo build --release --quiet --bin sudoku-lab
  lab=target/release/sudoku-lab
fi
kinds=${KINDS:-anti-knight anti-king disjoint-groups extra-region odd even thermo arrow whisper
       renban palindrome kropki xv nonconsecutive negative little-killer sandwich}
mixed_kinds=${MIXED:-thermo,arrow,kropki,xv,renban,little-killer}
out=${OUT:-target/variants}
if [ "$kinds" = published ]; then
  kinds="candidates quadruple minimum maximum indexer between-line lockout region-sum entropic
         modular zipper slow-thermo nabner double-arrow clone skyscraper x-sum"
  mixed_kinds=${MIXED:-quadruple,between-line,region-sum,skyscraper,x-sum,clone}
  out=${OUT:-target/variants-published}
fi
mkdir -p "$out"
for k in $kinds; do
  [ -s "$out/$k-$count.jsonl" ] ||
    $lab generate --variants "$k" --unique --seed 1 --count "$count" > "$out/$k-$count.jsonl"
done
mixed="$out/mixed-$count.jsonl"
[ -s "$mixed" ] ||
  $lab generate --variants "$mixed_kinds" --unique --seed 1 --count "$count" > "$mixed"
files=()
for k in $kinds mixed; do files+=("$out/$k-$count.jsonl"); done
# bench exits with 1 when a puzzle was refused or timed out; its table says where.
$lab bench --backends dfs,sat,cp --csv "$out/bench-$count.csv" "${files[@]}" 2>/dev/null || true
$lab bench --backends dlx --timeout 20 --budget 120 --csv "$out/bench-dlx-$count.csv" \
  "${files[@]}" 2>/dev/null || true
if [ "$ilp_count" -gt 0 ]; then
  # ILP_SOLVERS: microlp, then highs when the binary has it (a build with `--features highs`).
  solvers=${ILP_SOLVERS:-microlp}
  if [ -z "${ILP_SOLVERS:-}" ] &&
    $lab bench --backends ilp --ilp-solver highs --max-puzzles 1 "${files[0]}" >/dev/null 2>&1
  then solvers="microlp highs"; fi
  for s in $solvers; do
    echo "== ilp ($s), first $ilp_count puzzles of each set"
    csv="$out/bench-ilp-$ilp_count-of-$count.csv"
    [ "$s" = microlp ] || csv="$out/bench-ilp-$s-$ilp_count-of-$count.csv"
    $lab bench --backends ilp --ilp-solver "$s" --max-puzzles "$ilp_count" --timeout 20 \
      --budget "${ILP_BUDGET:-60}" --csv "$csv" "${files[@]}" 2>/dev/null || true
  done
fi
py=${PYTHON:-python3}
if "$py" -c "import ortools" 2>/dev/null; then
  # In the lab's own JSON (`convert --to json`), which holds every kind the script models.
  for f in "${files[@]}"; do
    echo "== cp-sat $f"
    $lab convert --to json "$f" > "${f%.jsonl}.lab.json"
    "$py" tools/cpsat_variants.py "${f%.jsonl}.lab.json" ||
      echo "tools/cpsat_variants.py failed on $f (exit $?)"
  done
else
  echo "== cp-sat: skipped ($py has no ortools; set PYTHON to a python3 that has it)"
fi
# The same sets cross-checked: every answer of dfs, dlx, sat and cp against the others and the
# checker.
for f in "${files[@]}"; do
  echo "== xcheck $f"
  $lab xcheck -j 1 --backends dfs,dlx,sat,cp --timeout 20 "$f" 2>&1 |
    grep -E "disagreements|^failure|^disagreement" || true
done
