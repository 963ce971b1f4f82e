// Uniqueness checks of 9x9 puzzles by MiniSat 2.2's core solver used as a library, the way
// tdoku's benchmark uses it: one solver holds the empty grid's formula, each puzzle's givens are
// assumptions, a second solve under a blocking clause proves uniqueness, and the solver is kept
// from puzzle to puzzle (learned clauses, activities and saved phases carry over), rebuilt after
// 20 puzzles. It measures what separates the lab's `sat-ext` figures from tdoku's
// (docs/strength.md, "tdoku's MiniSat figures"); it is not part of the lab.
//
// Build, with MiniSat's sources (https://github.com/niklasso/minisat) in $MINISAT:
//   g++ -O2 -fpermissive -w -I"$MINISAT" tools/minisat_harness.cc "$MINISAT"/minisat/core/Solver.cc \
//       "$MINISAT"/minisat/utils/System.cc "$MINISAT"/minisat/utils/Options.cc -o minisat_harness
// Run:
//   sudoku-lab encode --to dimacs --no-simplify --encoding E EMPTY9 -o empty.cnf
//   minisat_harness empty.cnf PUZZLES [--fresh] [--flip] [--units]
// --fresh: a new solver for every puzzle (both solves of a puzzle still share it);
// --flip: every variable's sign flipped, so that "cell c holds d" is a negative literal, as in
//         tdoku's wrapper (MiniSat's first choice for a variable, false, then places a digit);
// --units: the givens as unit clauses of a fresh solver (implies --fresh), as `sat-ext
//         --no-simplify` writes them.
// Prints one line per puzzle: solutions found (at most 2), guesses (decisions, less one per
// model found, as tdoku counts them) and conflicts.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "minisat/core/Solver.h"

using Minisat::Lit;
using Minisat::Solver;

static std::vector<std::vector<int>> read_cnf(const char *path, int &n_vars) {
    std::ifstream in(path);
    if (!in) {
        std::fprintf(stderr, "cannot read %s\n", path);
        std::exit(2);
    }
    std::vector<std::vector<int>> clauses;
    std::vector<int> clause;
    std::string line;
    n_vars = 0;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == 'c') continue;
        std::istringstream words(line);
        if (line[0] == 'p') {
            std::string p, cnf;
            words >> p >> cnf >> n_vars;
            continue;
        }
        int x;
        while (words >> x) {
            if (x == 0) {
                clauses.push_back(clause);
                clause.clear();
            } else {
                clause.push_back(x);
            }
        }
    }
    return clauses;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: minisat_harness CNF PUZZLES [--fresh] [--flip] [--units]\n");
        return 2;
    }
    bool fresh = false, flip = false, units = false;
    for (int i = 3; i < argc; i++) {
        fresh |= !std::strcmp(argv[i], "--fresh");
        flip |= !std::strcmp(argv[i], "--flip");
        units |= !std::strcmp(argv[i], "--units");
    }
    fresh |= units;
    int n_vars;
    const std::vector<std::vector<int>> clauses = read_cnf(argv[1], n_vars);
    auto lit = [&](int x) { return Minisat::mkLit(std::abs(x) - 1, (x < 0) != flip); };

    std::unique_ptr<Solver> s;
    int puzzles_on_solver = 0;
    auto rebuild = [&]() {
        s.reset(new Solver());
        for (int v = 0; v < n_vars; v++) s->newVar();
        for (const auto &c : clauses) {
            Minisat::vec<Lit> lits;
            for (int x : c) lits.push(lit(x));
            s->addClause(lits);
        }
        puzzles_on_solver = 0;
    };

    std::ifstream in(argv[2]);
    std::string line;
    while (std::getline(in, line)) {
        if (line.size() < 81 || line[0] == '#') continue;
        if (!s || fresh || puzzles_on_solver == 20) rebuild();
        puzzles_on_solver++;
        Minisat::vec<Lit> assumptions;
        for (int cell = 0; cell < 81; cell++) {
            char c = line[cell];
            if (c < '1' || c > '9') continue;
            Lit given = lit(cell * 9 + (c - '0'));
            if (units) {
                s->addClause(given);
            } else {
                assumptions.push(given);
            }
        }
        // Blocking clauses hold only while this puzzle's activator is assumed false.
        Minisat::Var activator = s->newVar();
        assumptions.push(Minisat::mkLit(activator, true));
        uint64_t decisions = s->decisions, conflicts = s->conflicts;
        int models = 0;
        while (models < 2 && s->solve(assumptions)) {
            models++;
            Minisat::vec<Lit> block;
            block.push(Minisat::mkLit(activator));
            for (int x = 1; x <= 729; x++)
                if (s->modelValue(lit(x)) == Minisat::l_True) block.push(~lit(x));
            s->addClause(block);
        }
        s->addClause(Minisat::mkLit(activator));
        std::printf("%d %llu %llu\n", models,
                    (unsigned long long)(s->decisions - decisions - models),
                    (unsigned long long)(s->conflicts - conflicts));
    }
    return 0;
}
