/*
 * continue.c - `nsmc continue`: continuation of a model's periodic orbits
 * in one parameter.
 *
 *     nsmc continue FILE.nsm --param NAME=FROM:TO --out-dir DIR
 *                   [--period EXPR] [--periods K] [--ds S] [--ds-min S]
 *                   [--ds-max S] [--max-points N] [--tol X] [--transient N]
 *                   [--start V,V,...] [--set NAME=VALUE]... [--plot COLUMN]
 *                   [--no-plot] [-q] [-v] [--switch-pd]
 *                   [--curve fold|flip|grazing --param2 NAME2=FROM:TO]
 *
 * The model is compiled in memory and built, with the continuation
 * program's main (runtime/programs/contprog.c) instead of the simulator's, into a
 * program cached like `nsmc run`'s simulators (run.c); nsmc then becomes
 * that program (execv), which follows the branch through the C API's
 * nsm_sim_continue (runtime/studies/continuation.c).  The options after FILE.nsm
 * are the program's; see docs/studies.md, "Continuation".
 *
 * Exit status: 0 ok, 1 an error in the model or the command line, 2 an
 * internal error (the generated C did not compile), 3 the continuation
 * failed.
 */
#include <stdio.h>

#include "arena.h"
#include "cli.h"
#include "run.h"

/* The usage text of `nsmc continue`. */
static void continue_usage(FILE *f)
{
    fputs("usage: nsmc continue FILE.nsm --param NAME=FROM:TO --out-dir DIR\n"
          "                     [--period EXPR] [--periods K] [--ds S] [--ds-min S]\n"
          "                     [--ds-max S] [--max-points N] [--tol X] [--transient N]\n"
          "                     [--start V,V,...] [--set NAME=VALUE]... [--plot COLUMN]\n"
          "                     [--no-plot] [-q] [-v] [--switch-pd]\n"
          "                     [--curve fold|flip|grazing --param2 NAME2=FROM:TO]\n"
          "Pseudo-arclength continuation of the periodic orbit of K (default 1) forcing\n"
          "periods EXPR (default 2*pi/omega) from NAME = FROM toward TO, stable and\n"
          "unstable, by Newton's method on the exact flow with the monodromy matrix;\n"
          "folds, period doublings, Neimark-Sacker points and grazings are located to\n"
          "--tol (default 1e-10) in the parameter.  The first orbit is found from the\n"
          "state after --transient (200) periods from --start (default the model's init).\n"
          "DIR receives branch.csv and the diagram continuation.gp/.png/.svg (stable\n"
          "solid, unstable dashed, special points marked).  --switch-pd: at the first\n"
          "period doubling the branch goes on along the doubled orbit.  --curve: the\n"
          "curve of the branch's first fold, period-doubling or grazing point in\n"
          "(NAME, NAME2) from NAME2 = FROM toward TO, into curve.csv and\n"
          "curve.gp/.png/.svg.  docs/studies.md.\n", f);
}

/* Entry from main.c for `nsmc continue ...` (argv[0] is "continue"). */
int continue_main(int argc, char **argv)
{
    run_stop_catch();
    const char *input = NULL;
    int verbose = 0, help = run_study_args(argc, argv, &input, &verbose,
                                             cli_continue_valued);
    if (help < 0)
        return 1;
    if (!input) {
        if (!help)
            fputs("nsmc continue: error: no model file given\n", stderr);
        continue_usage(help ? stdout : stderr);
        return help ? 0 : 1;
    }
    /* every option before the compile, as nsmc run checks its own */
    int words = run_program_words("continue", argc, argv, input, nsm_continue_words_check);
    if (words)
        return words;
    if (run_study_input_check("continue", argc, argv, input, cli_continue_valued))
        return 1;
    Arena *a = arena_new();
    int status = 0;
    const char *bin = run_build_continue(input, verbose, a, &status);
    if (!bin) {
        arena_free(a);
        return status;
    }
    return run_exec_program(bin, "continue", argc, argv, input, a);
}
