#!/usr/bin/env bash
# Published puzzles (docs/benchmarks.md, "Published puzzles"): every f-puzzles document of
# tests/data/published/ that the lab reads, put on one line each into one JSON Lines set, then
# timed under dfs, sat and cp (unique: solve with the uniqueness check, one thread, the checker
# included, each puzzle within 10 s) and, when PYTHON (default python3) has OR-tools, CP-SAT
# with one worker counting each to 2 solutions (tools/cpsat_variants.py on the same set in the
# lab's own JSON, `convert --to json`, with the setters' solutions: model building excluded).
# Documents the lab refuses are listed and left out of the set.
# Usage: [PYTHON=/path/to/python3] tools/published_bench.sh
#   (the set and CSV go to target/published; LAB=PATH runs that binary instead of building
#   target/release/sudoku-lab)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${LAB:-}" ]; then lab=$LAB; else
  cargo build --release --quiet --bin sudoku-lab
  lab=target/release/sudoku-lab
fi
out=target/published
mkdir -p "$out"
set_file="$out/published.jsonl"
: > "$set_file"
refused=0
for f in tests/data/published/*.json; do
  if $lab solve --backend dfs --timeout 1 "$f" > /dev/null 2>&1 ||
     [ $? -eq 3 ]; then
    python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))))' "$f" >> "$set_file"
  else
    refused=$((refused + 1))
    echo "refused: $f"
  fi
done
echo "== $(wc -l < "$set_file") documents read, $refused refused"
# bench exits with 1 when a puzzle was refused or timed out; its table says where.
$lab bench --backends dfs,sat,cp --timeout 10 --csv "$out/bench.csv" "$set_file" || true
py=${PYTHON:-python3}
if "$py" -c "import ortools" 2>/dev/null; then
  $lab convert --to json "$set_file" > "$out/published-lab.jsonl" 2>/dev/null
  echo "== cp-sat $out/published-lab.jsonl"
  "$py" tools/cpsat_variants.py "$out/published-lab.jsonl" ||
    echo "tools/cpsat_variants.py failed (exit $?)"
else
  echo "== cp-sat: skipped ($py has no ortools; set PYTHON to a python3 that has it)"
fi
