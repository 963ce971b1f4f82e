#!/usr/bin/env bash
# What the `cmd` backend's line protocol costs per puzzle (docs/benchmarks.md, "cmd: tdoku through
# the line protocol"). Usage: tools/bench_cmd.sh TDOKU_SOLVE [N]
#   TDOKU_SOLVE  tdoku's example/solve, built as docs/benchmarks.md says
#   N            puzzles per set (default 10000)
# Same run, one thread, task solve: dfs, tdoku's example solver through `cmd` (via
# examples/line_adapter), and tdoku's own loop on the same puzzles; then the protocol alone: the
# solved grids of the same puzzles (nothing left to search) through dfs and through `cmd` with
# examples/line_solver, whose difference is one round trip of the protocol plus its parsing.
set -euo pipefail
cd "$(dirname "$0")/.."
solve=${1:?usage: tools/bench_cmd.sh TDOKU_SOLVE [N]}
n=${2:-10000}
TIMEFORMAT="%3R s"
cargo build --release --quiet --bin sudoku-lab --example line_solver --example line_adapter
lab=target/release/sudoku-lab
adapter="target/release/examples/line_adapter stdbuf -oL $solve 1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for set in 17_clue magictour_top1465 forum_hardest_1905_11plus; do
  awk -v n="$n" '!/^#/ && k++ < n' "../shared/data/9x9/$set.txt" > "$tmp/$set.txt"
  echo "== $set: dfs and tdoku through cmd"
  $lab bench --task solve --backends dfs,cmd --cmd "$adapter" "$tmp/$set.txt"
  echo "== $set: tdoku's own loop (read, solve, print), wall time"
  time "$solve" 1 < "$tmp/$set.txt" > /dev/null
done
echo "== the protocol alone: solved grids through dfs, cmd (line_solver), cmd (line_adapter + tdoku)"
$lab solve -j 1 "$tmp/17_clue.txt" > "$tmp/solved.txt"
$lab bench --task solve --backends dfs,cmd --cmd target/release/examples/line_solver "$tmp/solved.txt"
$lab bench --task solve --backends cmd --cmd "$adapter" "$tmp/solved.txt"
