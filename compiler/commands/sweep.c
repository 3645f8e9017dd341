/*
 * sweep.c - `nsmc sweep`: a parameter study of a model.
 *
 *     nsmc sweep FILE.nsm --param NAME=START:STOP:COUNT [--param ...]
 *                --section impact:GAP|period:EXPR|plane:EXPR --out-dir DIR
 *                [--section-period EXPR] [--transient N] [--record N]
 *                [--continue up|down|both] [--jobs N] [--set NAME=VALUE]...
 *                [--method M] [--t-max EXPR] [--plot COLUMN] [-v]
 *
 * The model is compiled in memory and built, with the sweep program's main
 * (runtime/programs/sweep.c) instead of the simulator's, into a program cached
 * like `nsmc run`'s simulators (run.c); nsmc then becomes that program
 * (execv), which runs the grid in process through the C API on --jobs
 * threads, and over the ranks when started by `mpirun -np N nsmc sweep ...`
 * (each rank builds or finds the same cached program).  The options after
 * FILE.nsm are the program's; see docs/studies.md.
 *
 * Exit status: 0 ok, 1 an error in the model or the command line, 2 an
 * internal error (the generated C did not compile), 3 some points failed.
 */
#include <stdio.h>

#include "arena.h"
#include "cli.h"
#include "run.h"

/* Entry from main.c for `nsmc sweep ...` (argv[0] is "sweep"). */
int sweep_main(int argc, char **argv)
{
    run_stop_catch();
    const char *input = NULL;
    int verbose = 0, help = run_study_args(argc, argv, &input, &verbose,
                                             cli_sweep_valued);
    if (help < 0)
        return 1;
    if (!input) {
        fprintf(stderr, "%s", help ? "" : "nsmc sweep: error: no model file given\n");
        fprintf(help ? stdout : stderr,
                "usage: nsmc sweep FILE.nsm --param NAME=START:STOP:COUNT [--param ...]\n"
                "                  --section impact:GAP|period:EXPR|plane:EXPR --out-dir DIR\n"
                "                  [--section-period EXPR] [--transient N] [--record N]\n"
                "                  [--continue up|down|both] [--jobs N] [--set NAME=VALUE]...\n"
                "                  [--method M] [--t-max EXPR] [--plot COLUMN] [-v]\n");
        return help ? 0 : 1;
    }
    /* every option before the compile, as nsmc run checks its own */
    int words = run_program_words("sweep", argc, argv, input, nsm_sweep_words_check);
    if (words)
        return words;
    if (run_study_input_check("sweep", argc, argv, input, cli_sweep_valued))
        return 1;
    Arena *a = arena_new();
    int status = 0;
    const char *bin = run_build_sweep(input, verbose, a, &status);
    if (!bin) {
        arena_free(a);
        return status;
    }
    return run_exec_program(bin, "sweep", argc, argv, input, a);
}
