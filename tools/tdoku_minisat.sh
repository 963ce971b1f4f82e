#!/bin/sh
# tdoku's MiniSat figures (%no_guess and guesses per puzzle) reproduced through the lab: each
# puzzle's uniqueness asked of MiniSat by the sat-ext backend, one encoding at a time, with the
# lab's root propagation off (MiniSat sees the whole puzzle) and the givens as unit clauses.
# docs/strength.md ("tdoku's MiniSat figures") shows the figures and how they were made.
#
#   tools/tdoku_minisat.sh [N17 [NHARD]]
#
# N17, NHARD: how many puzzles of 17_clue.txt and forum_hardest_1905_11plus.txt (default 5000
# and 1000; 0 for all), spread over the file: every k-th puzzle from the first, k the file's
# count divided by N (both files are sorted, so their first puzzles are alike). Environment:
# LAB (default target/release/sudoku-lab), DATA (default ../shared/data/9x9), SAT_CMD (default
# "minisat -no-pre"), TASK (default unique, as tdoku; or solve), JOBS (default 2), ENC17 and
# ENCHARD (the encodings run on each set; empty skips the set).
# Prints one row per set and encoding: set, encoding, puzzles, no_guess_pct,
# guesses_per_puzzle, conflicts_per_puzzle.
set -eu
here=$(dirname "$0")
LAB=${LAB:-target/release/sudoku-lab}
DATA=${DATA:-../shared/data/9x9}
SAT_CMD=${SAT_CMD:-minisat -no-pre}
TASK=${TASK:-unique}
JOBS=${JOBS:-2}
ENC17=${ENC17-minimal efficient extended triad}
ENCHARD=${ENCHARD-minimal efficient extended triad}
N17=${1:-5000}
NHARD=${2:-1000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

spread() { # FILE N: N puzzles spread over the file (all for 0), comments left out
    grep -v '^#' "$1" > "$tmp/all.txt"
    total=$(wc -l < "$tmp/all.txt")
    if [ "$2" -eq 0 ] || [ "$2" -ge "$total" ]; then
        cat "$tmp/all.txt"
    else
        awk -v k=$((total / $2)) -v n="$2" 'NR % k == 1 % k && taken++ < n' "$tmp/all.txt"
    fi
}
spread "$DATA/17_clue.txt" "$N17" > "$tmp/17_clue.txt"
spread "$DATA/forum_hardest_1905_11plus.txt" "$NHARD" > "$tmp/forum_hardest_11plus.txt"

printf 'set\tencoding\tpuzzles\tno_guess_pct\tguesses_per_puzzle\tconflicts_per_puzzle\n'
run() { # SET ENCODINGS
    for enc in $2; do
        printf '%s\t' "$1"
        "$LAB" "$TASK" --json --backend sat-ext --sat-cmd "$SAT_CMD" --no-propagate \
            --no-simplify --encoding "$enc" --jobs "$JOBS" "$tmp/$1.txt" |
            python3 "$here/effort_summary.py" "$enc"
    done
}
run 17_clue "$ENC17"
run forum_hardest_11plus "$ENCHARD"
