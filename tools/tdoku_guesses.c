/* tdoku's guess counts on a puzzle file, for the effort table of docs/benchmarks.md: every
 * 81-character line (`#` lines skipped) solved by tdoku's SolveSudoku with a count limit (1 = solve,
 * 2 = solve + uniqueness check, as `sudoku-lab bench --task unique`), at most MAX lines, and the
 * share of puzzles it solved without a guess and its mean guesses (its `num_guesses`).
 *
 * Nothing of tdoku is in this repository: build against a checkout of github.com/t-dillon/tdoku
 * kept outside it (as ../shared/tools/peer-bench/build-tdoku-rate.sh does for tdoku-rate):
 *   g++ -O3 -march=native -std=c++17 -c $TDOKU/src/solver_dpll_triad_simd.cc -o simd.o
 *   g++ -O3 -march=native -std=c++17 -c $TDOKU/src/util.cc -o util.o
 *   gcc -O3 -I$TDOKU -c tools/tdoku_guesses.c -o guesses.o
 *   g++ -o /tmp/tdoku-guesses guesses.o simd.o util.o
 *
 * usage: tdoku-guesses [LIMIT] [MAX] < FILE
 * prints: puzzles N no_guess_pct P guesses_per_puzzle G */
#include "include/tdoku.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    size_t limit = argc > 1 ? strtoull(argv[1], NULL, 10) : 2;
    size_t max = argc > 2 ? strtoull(argv[2], NULL, 10) : (size_t)-1;
    char *line = NULL;
    size_t len = 0, n = 0, no_guess = 0, total = 0;
    char solution[82];
    while (n < max && getline(&line, &len, stdin) != -1) {
        if (strlen(line) < 81 || line[0] == '#') continue;
        char p[82];
        memcpy(p, line, 81);
        p[81] = 0;
        size_t guesses = 0;
        SolveSudoku(p, limit, 0, solution, &guesses);
        n++;
        total += guesses;
        no_guess += guesses == 0;
    }
    printf("puzzles %zu no_guess_pct %.2f guesses_per_puzzle %.3f\n", n, 100.0 * no_guess / n,
           (double)total / n);
    return 0;
}
