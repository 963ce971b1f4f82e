#!/bin/sh
# MiniSat on the CNF with every variable's sign flipped, its model flipped back: the lab's
# x(cell, digit) becomes the negative literal, as in tdoku's MiniSat wrapper, so that MiniSat's
# default decision (a variable false) places a digit instead of removing one.
#   sudoku-lab ... --backend sat-ext --sat-cmd "tools/minisat_flipped.sh -no-pre {} {out}"
# Arguments: MiniSat's options, then the CNF file and the answer file.
set -eu
n=$#
out=$(eval echo "\${$n}")
cnf=$(eval echo "\${$((n - 1))}")
opts=""
i=1
while [ "$i" -le $((n - 2)) ]; do
    opts="$opts $(eval echo "\${$i}")"
    i=$((i + 1))
done
flip='{ if ($0 ~ /^[-0-9]/) { for (i = 1; i <= NF; i++) if ($i != 0) $i = -$i } print }'
awk "$flip" "$cnf" > "$cnf.flipped"
status=0
# shellcheck disable=SC2086
minisat $opts "$cnf.flipped" "$out.flipped" || status=$?
awk "$flip" "$out.flipped" > "$out"
exit "$status"
