#!/usr/bin/env bash
# SAT pair encodings (docs/benchmarks.md, "SAT pair encodings"): generates, with fixed seeds, the
# variant sets whose rules are pairs of cells (the same files as tools/variant_bench.sh), then
# times `sat` on each set under `--pair-encoding direct` and `--pair-encoding order`, the two
# back to back on one set before the next set (bench has no way to run one backend under two
# option sets in one run), one thread, solve with the uniqueness check, the checker included, no
# deadline; and prints the median and the maximum per set and encoding from the CSV files.
# Usage: tools/sat_pair_bench.sh [COUNT]
#   (puzzles per set, default 20; sets and CSV files go to target/variants; LAB=PATH runs that
#   binary instead of building target/release/sudoku-lab)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-20}
if [ -n "${LAB:-}" ]; then lab=$LAB; else
  cargo build --release --quiet --bin sudoku-lab
  lab=target/release/sudoku-lab
fi
out=target/variants
mkdir -p "$out"
kinds="thermo whisper kropki xv negative nonconsecutive renban palindrome"
for k in $kinds; do
  [ -s "$out/$k-$count.jsonl" ] ||
    $lab generate --variants "$k" --unique --seed 1 --count "$count" > "$out/$k-$count.jsonl"
done
[ -s "$out/mixed-$count.jsonl" ] ||
  $lab generate --variants thermo,arrow,kropki,xv,renban,little-killer --unique --seed 1 \
    --count "$count" > "$out/mixed-$count.jsonl"
encodings="direct order"
for k in $kinds mixed; do
  for e in $encodings; do
    # bench exits with 1 when a puzzle failed or was answered wrongly; its table says where.
    $lab bench --backends sat --pair-encoding "$e" --csv "$out/sat-pair-$e-$k-$count.csv" \
      "$out/$k-$count.jsonl" 2>/dev/null >/dev/null || echo "bench $e $k: exit $?"
  done
done
# One row per set: median / max µs under each encoding, and the failures if any.
printf '%-16s' set
for e in $encodings; do printf ' | %-24s' "$e median / max"; done
echo
for k in $kinds mixed; do
  printf '%-16s' "$k"
  for e in $encodings; do
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
      { bad = $col["timed_out"] + $col["refused"] + $col["failed"]
        printf " | %8.0f µs / %8.0f µs%s", $col["median_us"], $col["max_us"],
          bad ? " (" bad " not answered)" : "" }' "$out/sat-pair-$e-$k-$count.csv"
  done
  echo
done
