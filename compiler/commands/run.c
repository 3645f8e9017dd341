/*
 * run.c - `nsmc run`: compile a model, build its simulator, run it, plot.
 *
 *     nsmc run FILE.nsm [--out-dir DIR] [--out FILE.h5] [--set NAME=VALUE]... [--set-file FILE]
 *                       [--plot | --no-plot] [--phase] [--animate] [-q] [--events-max N] [-v]
 *                       [SIMULATOR OPTIONS] [-- SIMULATOR ARGS]
 *     nsmc cache clean;  nsmc --datadir
 *
 *   1. source → parse → sema → derive → emit, in memory;
 *   2. build: the C text is compiled with $CC (default cc) against the
 *      runtime's headers, libnsmcli.a and libnsmrt.a, found relative to this executable
 *      (build tree or install prefix).  The binary is cached under
 *      $XDG_CACHE_HOME/nsm (default ~/.cache/nsm), keyed by a hash of the C
 *      text, the runtime library, its headers and the compiler command, so a
 *      model is rebuilt only when it or the runtime changed;
 *   3. run it with --events DIR/events.csv --out DIR/trajectory.csv, --table
 *      (not with -q), then --set-file and the --set values (later ones win),
 *      the simulator's options given before "--" (sim_valued, sim_flags),
 *      then the arguments after "--"; the simulator prints the event table,
 *      its summary, and a progress bar on a terminal;
 *   4. summarise the events and energy, and plot into DIR (runtime/programs/plot.h).
 *
 * Nothing is lost silently: one run at a time writes into a folder (a lock,
 * DIR/.nsm-run.lock, names the other run); cached binaries carry a checksum
 * checked before every run, and a damaged one is rebuilt with a note;
 * SIGINT, SIGTERM and SIGHUP sent to nsmc are forwarded to the simulator,
 * which stops with whole lines, and nsmc waits for it and reports the
 * interruption; a simulator that could not write its files makes nsmc report
 * that and print no results (the simulator says why through a pipe named by
 * the environment variable NSM_REPORT_FD; see runtime/programs/driver.c).
 *
 * Exit status: 0 ok, 1 an error in the model or the command line (or
 * another run holds the folder, or a figure could not be written, the
 * results whole and summarised), 2 an internal error (the generated C did
 * not compile, the runtime is missing, the simulator crashed), 3 the
 * simulation failed (what it wrote so far is still plotted) or its files
 * could not be written (nothing is summarised), 128 + N interrupted by
 * signal N.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <inttypes.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <dirent.h>
#include <unistd.h>

#include "arena.h"
#include "cli.h"
#include "derive.h"
#include "diag.h"
#include "emit.h"
#include "h5out.h"
#include "nsm/nsm.h"
#include "outdir.h"
#include "nsm_paths.h"
#include "parse.h"
#include "plot.h"
#include "run.h"
#include "sema.h"
#include "setfile.h"
#include "source.h"

enum { MAX_ARGS = 4096 };

typedef struct RunOptions {
    const char *input, *out_dir, *set_file;
    const char *h5;         /* --out FILE.h5: the run also written as HDF5 */
    int plot, phase, animate, verbose, quiet;
    const char **sets;      /* NAME=VALUE strings, in command-line order */
    int nsets;
    const char **sim;       /* simulator options given before "--", with their values */
    int nsim;
    char **extra;           /* after "--", each --NAME=VALUE split (extra_split) */
    int nextra;
    char *xattached;        /* per word of extra: a value split from its --NAME= */
    int set_file_extra;     /* set_file was given after "--" (extra_setfile_take) */
} RunOptions;

/* A growing argv for a child process. */
typedef struct ArgList {
    const char *arg[MAX_ARGS];
    int n;
} ArgList;

/* Appends one argument; returns 0, or 1 when the list is full. */
static int args_add(ArgList *l, const char *a)
{
    if (l->n >= MAX_ARGS - 1)
        return 1;
    l->arg[l->n++] = a;
    l->arg[l->n] = NULL;
    return 0;
}

/* Appends an option and its value: as one word --OPT=VALUE when the value
 * begins with '-' (a name given --out-dir=-x, or a negative number), which
 * the simulator takes as a value only so (cli_value_optionlike); 0, or 1
 * when the list is full. */
static int args_add_pair(ArgList *l, const char *opt, const char *val, Arena *a)
{
    if (val[0] == '-' && val[1] != '\0')
        return args_add(l, arena_printf(a, "%s=%s", opt, val));
    return args_add(l, opt) || args_add(l, val);
}

/* The simulator's options that `nsmc run` passes on as they are: those
 * taking a value, then the flags.  --out, --events and --plot are nsmc
 * run's own business (--out-dir). */
static const char *const sim_valued[] = {
    "--t-end", "--dt", "--method", "--every", "--rtol", "--atol", "--energy-tol",
    "--max-steps", "--max-event-rate", "--stats", "--section", "--section-period",
    "--section-out", "--events-max",
};
static const char *const sim_flags[] = { "--summary", "--no-zeno" };

/* The simulator's other options that take a value (driver.c's sim_valued
 * less the above), given after "--" only. */
static const char *const sim_other_valued[] = {
    "--set", "--set-file", "--out", "--events", "--max-impacts", "--plot", "--animate", "--fps",
    "--frames", "--lyapunov-interval", "--lyapunov-transient", "--lyapunov-out",
};

/* Whether s is in the list of n strings. */
static int in_list(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(s, list[i]))
            return 1;
    return 0;
}

static int sim_takes_value(const char *s);

/* Whether the user gave the simulator --table among its words (before or
 * after "--"): nsmc run then passes it no second one, which the simulator
 * refuses as an option given twice (the user's own two are refused so).
 * A word that is an option's value is no option: `-- --stats=--table`
 * (statistics into a file named --table) left the event table out. */
static int user_table(const RunOptions *o)
{
    for (int i = 0; i < o->nsim; i++) {
        if (!strcmp(o->sim[i], "--table"))
            return 1;
        i += in_list(o->sim[i], sim_valued, sizeof sim_valued / sizeof *sim_valued);
    }
    for (int i = 0; i < o->nextra; i++) {
        if (!strcmp(o->extra[i], "--")) /* the rest is the simulator's to refuse */
            break;
        if (!o->xattached[i] && !strcmp(o->extra[i], "--table"))
            return 1;
        i += i + 1 < o->nextra && sim_takes_value(o->extra[i]);
    }
    return 0;
}

/* Whether s is one of the simulator's options that take a value (the
 * words after "--" it splits as --NAME=VALUE). */
static int sim_takes_value(const char *s)
{
    return in_list(s, sim_valued, sizeof sim_valued / sizeof *sim_valued) ||
        in_list(s, sim_other_valued, sizeof sim_other_valued / sizeof *sim_other_valued);
}

/* The text of `nsmc run --help`. */
static void run_usage(FILE *out)
{
    fputs("usage: nsmc run FILE.nsm [options] [-- SIMULATOR OPTIONS]\n"
          "Compile the model, build its simulator (cached), run it, print the events\n"
          "and plot the results.\n\n"
          "  --out-dir DIR       where results go (default out/<model name>, a name of\n"
          "                      more than 100 characters cut there, with a hash)\n"
          "  --out FILE.h5       also write the run as HDF5 (trajectory, events, model and\n"
          "                      its source, summary; docs/runtime.md)\n"
          "  --set NAME=VALUE    override a parameter, in SI units or with a unit of its\n"
          "                      dimension ('k=2 N/m'); repeatable\n"
          "  --set-file FILE     overrides from a file of NAME = VALUE lines (SI units,\n"
          "                      # comments); --set options take precedence (after\n"
          "                      '--', the simulator's own apply in order)\n"
          "  --plot, --no-plot   draw plots with gnuplot (default) or not\n"
          "  --phase             also draw phase portraits v(x)\n"
          "  --animate           also write DIR/animation.gif, the bodies moving (the\n"
          "                      simulator's --fps F and --frames N go after '--')\n"
          "  -q, --quiet         do not print the event table (the summary stays)\n"
          "  --events-max N      print at most N rows of the event table\n"
          "  -v, --verbose       show the compiler command\n"
          "  -h, --help          this text\n"
          "Simulator options, given here or after '--' (see `nsmc run FILE -- --help`):\n"
          "  --t-end T           end time in s (default: the model's)\n"
          "  --dt H              rk4's step, adaptive's and exact's largest (default: the\n"
          "                      model's dt; exact needs none: --dt 0)\n"
          "  --method M          rk4, adaptive, exact or taylor\n"
          "  --every E           trajectory sampling period in s (0: every step)\n"
          "  --rtol R, --atol A  tolerances of the adaptive method\n"
          "  --energy-tol E      energy balance error that stops the run (0: never)\n"
          "  --max-steps N       fail after N steps\n"
          "  --max-event-rate R  fail when events come faster than R per second\n"
          "  --no-zeno           do not jump over Zeno cascades\n"
          "  --summary           print the energy audit and contact statistics\n"
          "  --stats FILE        write the per-contact statistics as CSV\n"
          "  --section SPEC      record a Poincare section (impact:GAP, period:T, plane:F)\n"
          "  --section-period T  measure the section records' phase in periods T\n"
          "  --section-out FILE  the section's CSV\n"
          "  -- ARGS             everything after it goes to the simulator as it is\n\n"
          "Results in DIR: trajectory.csv, events.csv, plot.png, plot.svg (phase.png,\n"
          "phase.svg), plot.gp; a study's results found there are removed (said).\n"
          "Environment: CC (the C compiler, default cc),\n"
          "XDG_CACHE_HOME (simulator cache, default ~/.cache; under it nsm/).\n"
          "Exit status: 0 ok, 1 error in the model or the command line (or another run\n"
          "holds DIR, or a figure could not be written), 2 internal error, 3 the simulation\n"
          "failed or its files could not be written, 128 + N interrupted by signal N\n"
          "(forwarded to the simulator).\n",
          out);
}

/* An option of nsmc run's own given a second time (its later value would
 * replace the earlier without a word; the simulator's options are checked by
 * the simulator).  1 after the message when prev is set. */
static int run_once(const char *opt, const char *prev, const char *val)
{
    if (!prev)
        return 0;
    fprintf(stderr, "nsmc: error: option %s is given twice ('%s' and '%s'): give it once\n", opt,
            prev, val);
    return 1;
}

/* A flag of nsmc run's own (no value) met a second time: -v with -v or
 * --verbose, --plot with --plot or --no-plot, ... was taken without a word
 * (the later one of --plot and --no-plot winning), where an option with a
 * value given twice is refused.  *prev is the spelling met first (NULL
 * before); 1 after the message. */
static int run_flag_once(const char **prev, const char *s)
{
    if (!*prev) {
        *prev = s;
        return 0;
    }
    if (!strcmp(*prev, s))
        fprintf(stderr, "nsmc: error: option %s is given twice: give each option once\n", s);
    else
        fprintf(stderr, "nsmc: error: options %s and %s are given together: give one of them "
                "once\n", *prev, s);
    return 1;
}

/* Takes `-- --out FILE.h5` as nsmc run's own --out FILE.h5 (removed from
 * the arguments after "--"): the HDF5 file is then named with the results,
 * and in what a stop or a failure says of the folder (it was left out of
 * the results line).  Given both ways, it is an option given twice.  0, or
 * 1 after the message. */
static int extra_h5_take(RunOptions *o)
{
    for (int i = 0; i + 1 < o->nextra; i++) {
        if (strcmp(o->extra[i], "--out") || !h5out_is_h5(o->extra[i + 1]))
            continue;
        if (!o->xattached[i + 1] && cli_value_optionlike(o->extra[i + 1]))
            return cli_value_refuse("nsmc", "--out", o->extra[i + 1]);
        if (run_once("--out", o->h5, o->extra[i + 1]))
            return 1;
        o->h5 = o->extra[i + 1];
        memmove(o->extra + i, o->extra + i + 2, sizeof(char *) * (size_t)(o->nextra - i - 2));
        memmove(o->xattached + i, o->xattached + i + 2, (size_t)(o->nextra - i - 2));
        o->nextra -= 2;
        i--;
    }
    return 0;
}

/* Takes `-- --set-file FILE` as nsmc run's own --set-file FILE for the
 * checks of the run's inputs (it stays in its place among the words after
 * "--", where the simulator's options apply in order): the file was
 * unknown to those checks, and
 * `-- --set-file R/summary.csv` was removed from the folder R as an
 * earlier study's result, `-- --set-file R/plot.gp` replaced by the plots'
 * script, exit 0.  Given both ways, it is an option given twice.  0, or 1
 * after the message. */
static int extra_setfile_take(RunOptions *o)
{
    for (int i = 0; i + 1 < o->nextra; i++) {
        if (strcmp(o->extra[i], "--set-file"))
            continue;
        if (!o->xattached[i + 1] && cli_value_optionlike(o->extra[i + 1]))
            return cli_value_refuse("nsmc", "--set-file", o->extra[i + 1]);
        if (run_once("--set-file", o->set_file, o->extra[i + 1]))
            return 1;
        o->set_file = o->extra[i + 1];
        o->set_file_extra = 1;
    }
    return 0;
}

/* Whether `nsmc WHAT` was given --help or -h beside another word (before a
 * '--', after which the words are the simulator's): refused with the usage
 * line, as `nsmc --help extra` is.  `nsmc run --help extra` printed the
 * help, ignored the rest and exited 0. */
int run_help_refused(const char *what, int argc, char **argv, int (*valued)(const char *))
{
    const char *help = NULL, *other = NULL;
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
        if (!help && (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")))
            help = argv[i];
        else if (!other)
            other = argv[i];
        /* an option's value is the option's to judge: `nsmc sweep M
         * --section --help` was refused as --help beside other words */
        if (valued(argv[i]) && i + 1 < argc)
            i++;
    }
    if (!help || (!other && argc == 2))
        return 0;
    fprintf(stderr, "nsmc: error: '%s %s' takes no other argument ('%s' given)\n"
            "usage: nsmc %s --help\n", what, help, other ? other : argv[argc - 1], what);
    return 1;
}

/* Whether s is one of `nsmc run`'s options that take a value (its own and
 * the simulator's it passes on). */
static int run_valued(const char *s)
{
    static const char *const own[] = { "--out", "--out-dir", "--set", "--set-file" };
    return in_list(s, own, sizeof own / sizeof *own) ||
        in_list(s, sim_valued, sizeof sim_valued / sizeof *sim_valued);
}

/* The simulator's words after "--" (n of them at words) into o->extra,
 * each --NAME=VALUE of an option that takes a value split into --NAME and
 * VALUE, the value marked in o->xattached (it goes back to the simulator
 * as one word when it begins with '-', args_add_pair).  The checks of the
 * outputs read the split words: `-- --stats=M.nsm` replaced the model by
 * the statistics, exit 0, where `-- --stats M.nsm` is refused.  Words
 * after a second "--" are left as they are, as the simulator leaves them. */
static void extra_split(RunOptions *o, char **words, int n, Arena *a)
{
    o->extra = arena_alloc(a, sizeof(char *) * (size_t)(2 * n + 1));
    o->xattached = arena_alloc(a, (size_t)(2 * n + 1));
    o->nextra = 0;
    int done = 0;
    for (int i = 0; i < n; i++) {
        char name[64];
        done = done || !strcmp(words[i], "--");
        if (done || !cli_attached_split(words[i], sim_takes_value, name, sizeof name)) {
            o->xattached[o->nextra] = 0;
            o->extra[o->nextra++] = words[i];
            continue;
        }
        o->xattached[o->nextra] = 0;
        o->extra[o->nextra++] = arena_printf(a, "%s", name);
        o->xattached[o->nextra] = 1;
        o->extra[o->nextra++] = words[i] + strlen(name) + 1;
    }
    o->extra[o->nextra] = NULL;
}

/* Parses `nsmc run` options (argv[0] is "run").  Returns -1 to go on, else
 * an exit status. */
static int run_parse_args(int argc, char **argv, RunOptions *o, Arena *a)
{
    argv = cli_args_attached(argc, argv, run_valued, &argc);   /* --out-dir=-x */
    if (run_help_refused("run", argc, argv, run_valued))
        return 1;
    o->sets = arena_alloc(a, sizeof(char *) * (size_t)(argc + 1));
    o->sim = arena_alloc(a, sizeof(char *) * (size_t)(argc + 1));
    o->plot = 1;
    const char *fl_plot = NULL, *fl_phase = NULL, *fl_anim = NULL, *fl_verbose = NULL,
        *fl_quiet = NULL;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        int has_val = i + 1 < argc;
        const char **fl = !strcmp(s, "--plot") || !strcmp(s, "--no-plot") ? &fl_plot
            : !strcmp(s, "--phase") ? &fl_phase : !strcmp(s, "--animate") ? &fl_anim
            : !strcmp(s, "-v") || !strcmp(s, "--verbose") ? &fl_verbose
            : !strcmp(s, "-q") || !strcmp(s, "--quiet") ? &fl_quiet : NULL;
        if (fl && run_flag_once(fl, s))
            return 1;
        if (!strcmp(s, "--")) {
            extra_split(o, argv + i + 1, argc - i - 1, a);
            break;
        } else if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            run_usage(stdout);
            return 0;
        } else if (!strcmp(s, "--plot")) {
            o->plot = 1;
        } else if (!strcmp(s, "--no-plot")) {
            o->plot = 0;
        } else if (!strcmp(s, "--phase")) {
            o->phase = 1;
        } else if (!strcmp(s, "--animate")) {
            o->animate = 1;
        } else if (!strcmp(s, "-v") || !strcmp(s, "--verbose")) {
            o->verbose = 1;
        } else if (!strcmp(s, "-q") || !strcmp(s, "--quiet")) {
            o->quiet = 1;
        } else if (in_list(s, sim_flags, sizeof sim_flags / sizeof *sim_flags)) {
            o->sim[o->nsim++] = s;
        } else if (in_list(s, sim_valued, sizeof sim_valued / sizeof *sim_valued)) {
            if (!has_val) {
                fprintf(stderr, "nsmc: error: '%s' needs a value (see nsmc run --help)\n", s);
                return 1;
            }
            if ((!strcmp(s, "--stats") || !strcmp(s, "--section-out")) &&
                cli_value_optionlike(argv[i + 1]))
                return cli_value_refuse("nsmc", s, argv[i + 1]);
            o->sim[o->nsim++] = s;
            o->sim[o->nsim++] = argv[++i];
        } else if (!strcmp(s, "--out")) {
            if (!has_val || !h5out_is_h5(argv[i + 1])) {
                fprintf(stderr, "nsmc: error: 'nsmc run --out' takes an HDF5 file, FILE.h5 or "
                        "FILE.hdf5%s%s%s (the CSV files go into the output folder, --out-dir)\n",
                        has_val ? ", not '" : "", has_val ? argv[i + 1] : "", has_val ? "'" : "");
                return 1;
            }
            if (cli_value_optionlike(argv[i + 1]))
                return cli_value_refuse("nsmc", s, argv[i + 1]);
            if (run_once(s, o->h5, argv[i + 1]))
                return 1;
            o->h5 = argv[++i];
        } else if (!strcmp(s, "--out-dir") || !strcmp(s, "--set") || !strcmp(s, "--set-file")) {
            if (!has_val) {
                fprintf(stderr, "nsmc: error: '%s' needs a value (see nsmc run --help)\n", s);
                return 1;
            }
            const char *v = argv[++i];
            if (strcmp(s, "--set") && cli_value_optionlike(v))
                return cli_value_refuse("nsmc", s, v);
            if (!strcmp(s, "--out-dir") && run_once(s, o->out_dir, v))
                return 1;
            if (!strcmp(s, "--set-file") && run_once(s, o->set_file, v))
                return 1;
            if (!strcmp(s, "--out-dir"))
                o->out_dir = v;
            else if (!strcmp(s, "--set-file"))
                o->set_file = v;
            else if (!strchr(v, '=') || v[0] == '=') {
                fprintf(stderr, "nsmc: error: --set needs NAME=VALUE, got '%s'\n", v);
                return 1;
            } else
                o->sets[o->nsets++] = v;
        } else if (s[0] == '-' && s[1] != '\0') {
            fprintf(stderr, "nsmc: error: unknown option '%s' for 'nsmc run' (see nsmc run "
                    "--help; other simulator options go after '--')\n", s);
            return 1;
        } else if (o->input) {
            fprintf(stderr, "nsmc: error: more than one input file ('%s' and '%s')\n", o->input, s);
            return 1;
        } else {
            o->input = s;
        }
    }
    if (!o->input) {
        fputs("nsmc: error: no input file (usage: nsmc run FILE.nsm [options])\n", stderr);
        return 1;
    }
    if (extra_h5_take(o) || extra_setfile_take(o))
        return 1;
    /* as the simulator's "--phase needs --plot DIR": it was taken without
     * a word and drew nothing */
    if (o->phase && !o->plot) {
        fputs("nsmc: error: --phase draws phase portraits beside the plots: it cannot be "
              "given with --no-plot\n", stderr);
        return 1;
    }
    for (int i = 0; i < o->nextra; i++)
        if (!strcmp(o->extra[i], "--events") || (!strcmp(o->extra[i], "--out") &&
                                                 (i + 1 == o->nextra ||
                                                  !h5out_is_h5(o->extra[i + 1])))) {
            fprintf(stderr, "nsmc: error: 'nsmc run' writes the trajectory and the events into "
                    "its output folder; choose it with --out-dir instead of '%s'\n", o->extra[i]);
            return 1;
        }
    return -1;
}

/* Runs the front end and the back end; returns the C text (in a), or NULL
 * with *status set after the diagnostics were printed. */
static char *generate(const char *input, Arena *a, const Model **model, size_t *len, int *status)
{
    Source src = {input, "", 0};
    Diag diag;
    diag_init(&diag, &src, stderr);
    *status = 1;
    if (!source_read(&src, input, a, &diag))
        return NULL;
    Ast *ast = parse_source(&src, a, &diag);
    Model *m = ast ? sema_check(ast, &src, a, &diag) : NULL;
    Derivation *dv = m ? derive_model(m, a, &diag) : NULL;
    if (!dv)
        return NULL;
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    int rc = f ? emit_c_model(dv, f) : 1;
    if (f && fclose(f) != 0)
        rc = 1;
    if (rc != 0) {
        fputs("nsmc: internal error: the C back end failed\n", stderr);
        free(buf);
        *status = 2;
        return NULL;
    }
    char *text = arena_strndup(a, buf, *len);
    free(buf);
    *model = m;
    return text;
}

/* Whether a regular file exists at path. */
static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Creates a directory and its parents, like `mkdir -p`.  Returns 0 or -1. */
static int make_dirs(const char *path, Arena *a)
{
    char *p = arena_strdup(a, path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST)
            return -1;
        *s = '/';
    }
    if (mkdir(p, 0777) != 0 && errno != EEXIST)
        return -1;
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
}

/* The runtime a simulator is built against. */
typedef struct Runtime {
    const char *include;    /* directory holding nsm/nsm.h */
    const char *lib;        /* libnsmrt.a */
    const char *cli;        /* libnsmcli.a, next to it */
} Runtime;

/* The directory of this executable, in a; NULL after a message. */
static const char *exe_dir(Arena *a)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        fprintf(stderr, "nsmc: internal error: cannot locate the nsmc executable: %s\n",
                strerror(errno));
        return NULL;
    }
    exe[n] = '\0';
    *strrchr(exe, '/') = '\0';
    return arena_strdup(a, exe);
}

/* The install prefix of an nsmc in bindir: one ".." per component of the
 * configured bin directory. */
static const char *install_prefix(const char *bindir, Arena *a)
{
    char *prefix = arena_strdup(a, bindir);
    const char *b = NSM_PATH_BINDIR;
    do {
        char *s = strrchr(prefix, '/');
        if (s)
            *s = '\0';
        b = strchr(b, '/');
    } while (b && *++b);
    return *prefix ? prefix : "/";
}

/* Whether nsmc runs from its build tree: libnsmrt.a lies next to it. */
static int in_build_tree(const char *bindir, Arena *a)
{
    return file_exists(arena_printf(a, "%s/libnsmrt.a", bindir)) &&
           file_exists(arena_printf(a, "%s/libnsmcli.a", bindir));
}

/* Finds the runtime relative to this executable: libnsmrt.a next to it (the
 * build tree, headers in the source tree), else <prefix>/<libdir> and
 * <prefix>/<includedir> with prefix the parent of <bindir>.  Returns 0, or 2
 * after a message. */
static int find_runtime(Runtime *rt, Arena *a)
{
    const char *bindir = exe_dir(a);
    if (!bindir)
        return 2;
    rt->lib = arena_printf(a, "%s/libnsmrt.a", bindir);
    rt->include = arena_printf(a, "%s/runtime/include", NSM_PATH_SOURCE_DIR);
    rt->cli = arena_printf(a, "%s/libnsmcli.a", bindir);
    if (in_build_tree(bindir, a) && file_exists(arena_printf(a, "%s/nsm/nsm.h", rt->include)))
        return 0;
    const char *prefix = install_prefix(bindir, a);
    const char *libdir = NSM_PATH_LIBDIR, *incdir = NSM_PATH_INCLUDEDIR;
    rt->lib = libdir[0] == '/' ? arena_printf(a, "%s/libnsmrt.a", libdir)
                               : arena_printf(a, "%s/%s/libnsmrt.a", prefix, libdir);
    rt->include = incdir[0] == '/' ? incdir : arena_printf(a, "%s/%s", prefix, incdir);
    rt->cli = libdir[0] == '/' ? arena_printf(a, "%s/libnsmcli.a", libdir)
                               : arena_printf(a, "%s/%s/libnsmcli.a", prefix, libdir);
    if (file_exists(rt->lib) && file_exists(rt->cli) &&
        file_exists(arena_printf(a, "%s/nsm/nsm.h", rt->include)))
        return 0;
    fprintf(stderr, "nsmc: internal error: cannot find the runtime (looked for %s and "
            "%s/nsm/nsm.h); is nsmc installed completely?\n", rt->lib, rt->include);
    return 2;
}

/* 64-bit FNV-1a taken eight bytes at a time, continued from h over n
 * bytes: each word is folded in by FNV's prime, its high half then folded
 * down so that it reaches the low bits of the later steps; the bytes
 * beyond the last whole word one at a time.  Every run hashes the runtime's
 * libraries (some 5 MB with their debug information) and checks the cached
 * program's 2 MB: byte by byte, a multiplication's latency a byte, that
 * cost some 10 ms of every `nsmc run`, `sweep` and `continue`, 2 % of a
 * 1000-point continuation. */
static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        h = (h ^ w) * 1099511628211u;
        h ^= h >> 32;
    }
    for (; i < n; i++) {
        h ^= s[i];
        h *= 1099511628211u;
    }
    return h;
}

/* Continues the hash over a file's bytes (and its name when unreadable). */
static uint64_t hash_file(uint64_t h, const char *path)
{
    FILE *f = fopen(path, "rb");
    char buf[65536];
    size_t n;
    if (!f)
        return hash_bytes(h, path, strlen(path));
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        h = hash_bytes(h, buf, n);
    fclose(f);
    return h;
}

/* Splits a command such as $CC ("ccache gcc -m64") on blanks into l. */
static void split_words(ArgList *l, const char *cmd, Arena *a)
{
    char *s = arena_strdup(a, cmd);
    for (char *w = strtok(s, " \t"); w; w = strtok(NULL, " \t"))
        args_add(l, w);
}

/* The running child, and the first stop signal nsmc received. */
static volatile sig_atomic_t child_pid, got_signal;

/* Passes a stop signal on to the child and remembers it.  A signal the
 * terminal sent (Ctrl-C: si_code > 0, from the kernel) reached the child's
 * process group already and is not sent twice. */
static void forward_signal(int sig, siginfo_t *info, void *ctx)
{
    (void)ctx;
    if (!got_signal)
        got_signal = sig;
    if (child_pid > 0 && !(info && info->si_code > 0))
        kill((pid_t)child_pid, sig);
}

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

/* The stop signals as a set, for sigprocmask. */
static void stop_set(sigset_t *set)
{
    sigemptyset(set);
    for (int i = 0; i < 3; i++)
        sigaddset(set, stop_signals[i]);
}

/* Installs forward_signal for the stop signals (those not ignored), saving
 * the old actions in old. */
static void forward_install(struct sigaction *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = forward_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; i++) {
        sigaction(stop_signals[i], NULL, &old[i]);
        if (old[i].sa_handler != SIG_IGN)
            sigaction(stop_signals[i], &sa, NULL);
    }
}

/* Restores the actions forward_install saved. */
static void forward_restore(const struct sigaction *old)
{
    for (int i = 0; i < 3; i++)
        sigaction(stop_signals[i], &old[i], NULL);
}

/* Catches the stop signals (those not ignored) from the start of `nsmc
 * run`, `sweep` and `continue`: a request that came while the model was
 * read, checked against the cache or built (before a simulator or a study
 * program had its own handlers) ended nsmc by the signal's own action
 * without a word.  It is now remembered (got_signal) and passed on: to the
 * simulator when it starts (spawn), to the study program across its exec
 * (run_exec_program), or said where nsmc stops (compile_sim).  `nsmc run`
 * keeps the watch after the simulator has run: a request then stops it at
 * the next point where its results are whole (run_stopped_after), where the
 * signal's own action ended nsmc and left its out-dir's lock behind. */
static struct sigaction stop_old[3];

void run_stop_catch(void)
{
    forward_install(stop_old);
}

/* Runs argv as a child process (stdout redirected to stderr when to_stderr,
 * report_fd left open in it when >= 0) and waits for it, passing SIGINT,
 * SIGTERM and SIGHUP on.  The stop signals are blocked from before the
 * fork: a request that comes before the child has its own handlers waits
 * instead of being lost or killing it half-started.  A simulator (sim)
 * keeps them blocked across exec and unblocks them once its handlers are
 * installed (driver.c), so such a request stops it cleanly; any other
 * child gets them unblocked before exec.  The child is also sent SIGTERM
 * if nsmc dies (SIGKILL), so that no simulator outlives it unseen.
 * Returns its exit status, or -1 if it could not run or died by a signal
 * (*sig set). */
static int spawn(const ArgList *l, int to_stderr, int report_fd, int sim, int *sig)
{
    fflush(NULL);
    *sig = 0;
    struct sigaction old[3];
    sigset_t stops;
    stop_set(&stops);
    sigprocmask(SIG_BLOCK, &stops, NULL);
    forward_install(old);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        forward_restore(old);
        sigprocmask(SIG_UNBLOCK, &stops, NULL);
        return -1;
    }
    if (pid == 0) {
        forward_restore(old);
        signal(SIGPIPE, SIG_DFL);    /* ignored by nsmc (main.c), not by what it runs */
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent)     /* nsmc died before the line above */
            _exit(128 + SIGTERM);
#endif
        (void)parent;
        if (!sim)
            sigprocmask(SIG_UNBLOCK, &stops, NULL);
        if (to_stderr)
            dup2(2, 1);
        if (report_fd >= 0) {
            char buf[32];
            snprintf(buf, sizeof buf, "%d", report_fd);
            setenv("NSM_REPORT_FD", buf, 1);
        } else
            unsetenv("NSM_REPORT_FD");
        execvp(l->arg[0], (char *const *)l->arg);
        fprintf(stderr, "nsmc: error: cannot run '%s': %s\n", l->arg[0], strerror(errno));
        _exit(127);
    }
    child_pid = pid;
    sigprocmask(SIG_UNBLOCK, &stops, NULL);   /* a request held since the fork is passed on */
    if (got_signal)   /* arrived between fork and here */
        kill(pid, got_signal);
    int status, rc;
    while ((rc = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    child_pid = 0;
    forward_restore(old);
    if (rc < 0)
        return -1;
    if (WIFSIGNALED(status)) {
        *sig = WTERMSIG(status);
        return -1;
    }
    return WEXITSTATUS(status);
}

/* Writes n bytes to path (a cache entry's file) through a temporary file
 * renamed into place, mode 0600 whatever the umask: under `umask 000` a
 * checksum writable by others let another user match it to a program of
 * theirs.  Returns 0 or -1. */
static int write_atomic(const char *path, const char *text, size_t n, Arena *a)
{
    char *tmp = arena_printf(a, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    int ok = fchmod(fileno(f), 0600) == 0;
    ok &= fwrite(text, 1, n, f) == n;
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* The cache directory: $XDG_CACHE_HOME/nsm, $HOME/.cache/nsm, else
** /tmp/nsm-cache-UID.  A relative XDG_CACHE_HOME or HOME is ignored, as
** the XDG base directory rules say (a relative HOME put the cache under
** the current folder); cache_root_safe checks the folder before use. */
static const char *cache_root(Arena *a)
{
    const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (x && x[0] == '/')
        return arena_printf(a, "%s/nsm", x);
    if (home && home[0] == '/')
        return arena_printf(a, "%s/.cache/nsm", home);
    return arena_printf(a, "/tmp/nsm-cache-%ld", (long)getuid());
}

/* Why the cache's path (its folder, an entry's folder or file) is not safe
** to use, or NULL when it is ours and writable by no one else: nsmc runs
** the programs found there, and /tmp/nsm-cache-UID, or an entry under
** `umask 000`, could be made or replaced by another local user.  One rule
** for the folder and its entries, as the Python package's _path_why: the
** path itself (lstat) must be ours, as a link in a shared folder can be
** swapped by its owner at any time.  A link of ours is then judged by its
** target (stat) where a folder is wanted, as any folder (a cache folder
** linked to another disk is the user's choice); in place of an entry's
** file it is never followed (cache_verify calls it damaged and the entry
** is rebuilt): a link of ours to a simulator any user may write was run.
** A link whose target is missing is left to the caller (stat then
** fails).  *st gets what was judged (the target of a folder's link). */
static const char *cache_path_why(const char *path, int folder, struct stat *st)
{
    if (lstat(path, st) != 0)
        return NULL;
    if (st->st_uid != geteuid())
        return S_ISLNK(st->st_mode) ? "it is a link owned by another user"
                                    : "it is owned by another user";
    if (S_ISLNK(st->st_mode) && (!folder || stat(path, st) != 0))
        return NULL;
    if (folder && !S_ISDIR(st->st_mode))
        return "it is not a folder";
    if (st->st_uid != geteuid())
        return "it is a link to a path owned by another user";
    if (st->st_mode & 022)
        return "it is writable by other users";
    return NULL;
}

/* Checks the cache's path with cache_path_why; noun names it in the
** message ("folder", "entry").  0, or 1 after a message naming the path,
** its owner and its mode: such a path is refused, never run nor rebuilt
** in place. */
static int cache_path_unsafe(const char *noun, const char *path, int folder)
{
    struct stat st;
    const char *why = cache_path_why(path, folder, &st);
    if (!why)
        return 0;
    fprintf(stderr, "nsmc: error: the cache %s %s is not safe to use: %s (owner uid %ld, "
            "mode %04o): another user could plant or replace a program there that nsmc would "
            "run; remove it (nsmc cache clean) or make it yours alone (chmod go-w), or set "
            "XDG_CACHE_HOME to a folder of yours\n",
            noun, path, why, (long)st.st_uid, (unsigned)(st.st_mode & 07777));
    return 1;
}

/* Makes the cache folder root (mode 0700 when made here) and checks it
** with cache_path_unsafe.  0, or 1 after the message. */
static int cache_root_safe(const char *root, Arena *a)
{
    struct stat st;
    if (stat(root, &st) != 0 && errno == ENOENT && lstat(root, &st) != 0 &&
        make_dirs(root, a) == 0)
        chmod(root, 0700);
    if (stat(root, &st) != 0) {
        fprintf(stderr, "nsmc: error: cannot make the cache folder %s: %s (set XDG_CACHE_HOME "
                "to a writable directory)\n", root, strerror(errno));
        return 1;
    }
    return cache_path_unsafe("folder", root, 1);
}

/* Hash (FNV-1a) and size of a file's bytes.  Returns 0, or -1 if it cannot
 * be read. */
static int file_digest(const char *path, uint64_t *h, long long *size)
{
    FILE *f = fopen(path, "rb");
    char buf[65536];
    size_t n;
    if (!f)
        return -1;
    *h = 14695981039346656037u;
    *size = 0;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        *h = hash_bytes(*h, buf, n);
        *size += (long long)n;
    }
    int bad = ferror(f);
    fclose(f);
    return bad ? -1 : 0;
}

/* Why a compile into the cache folder dir, its temporaries in the folder
 * tmp (TMPDIR's), may have failed for want of room: a file-size limit or a
 * file system with less than a simulator's 64 MiB of margin (the linker
 * then fails, and the generated C was blamed as an internal error; so it
 * was for a full TMPDIR, where cc writes its assembly).  The cause into why
 * and 1, else 0. */
static int compile_room(const char *dir, const char *tmp, char *why, size_t len)
{
    const unsigned long long need = 64ull << 20;
    struct rlimit rl;
    struct statvfs fs;
    if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (unsigned long long)rl.rlim_cur < need) {
        snprintf(why, len, "a file-size limit of %llu KiB is set: raise it (ulimit -f)",
                 (unsigned long long)rl.rlim_cur >> 10);
        return 1;
    }
    if (statvfs(dir, &fs) == 0 && (unsigned long long)fs.f_bavail * fs.f_frsize < need) {
        snprintf(why, len, "its file system has %llu KiB free: free some space or set "
                 "XDG_CACHE_HOME to a folder with room",
                 (unsigned long long)fs.f_bavail * fs.f_frsize >> 10);
        return 1;
    }
    if (statvfs(tmp, &fs) == 0 && (unsigned long long)fs.f_bavail * fs.f_frsize < need) {
        snprintf(why, len, "the compiler's temporary folder %s has %llu KiB free: free some "
                 "space or set TMPDIR to a folder with room", tmp,
                 (unsigned long long)fs.f_bavail * fs.f_frsize >> 10);
        return 1;
    }
    return 0;
}

/* The name of the cache entry a checksum file sum belongs to, its
 * folder's ("two_mass-0123..."): written into the checksum, so that another
 * entry's whole binary and checksum copied into this one are not taken for
 * this model's (they were: nsmc run two_mass.nsm ran the other model). */
static const char *cache_key(const char *sum, Arena *a)
{
    const char *end = strrchr(sum, '/');
    if (!end)
        return ".";
    const char *start = end;
    while (start > sum && start[-1] != '/')
        start--;
    return arena_printf(a, "%.*s", (int)(end - start), start);
}

static const char *sig_text(int sig);
static long long cache_remove_entry(const char *dir, Arena *a);

/* A folder of its own for the C compiler's temporaries ($TMPDIR/nsm-cc-XXXXXX,
 * or under /tmp), named to it by TMPDIR while it runs and removed after it:
 * a compiler stopped by a signal removes the temporaries it knows, but
 * one its child (cc1) created after that cleanup stayed in TMPDIR
 * (ccXXXXXX.s).  NULL when none can be made (the compiler then uses
 * TMPDIR as before). */
static const char *cc_tmpdir_make(Arena *a)
{
    const char *t = getenv("TMPDIR");
    char *d = arena_printf(a, "%s/nsm-cc-XXXXXX", t && *t ? t : "/tmp");
    return mkdtemp(d) ? d : NULL;
}

/* Removes cc_tmpdir_make's folder d with whatever a compiler's children
 * still left in it (a child outliving its stopped compiler may still
 * create a file: tried again for up to a second), and gives TMPDIR back
 * its value old (NULL: unset). */
static void cc_tmpdir_remove(const char *d, const char *old, Arena *a)
{
    if (old)
        setenv("TMPDIR", old, 1);
    else
        unsetenv("TMPDIR");
    if (!d)
        return;
    for (int tries = 0; tries < 100 && cache_remove_entry(d, a) < 0 && errno != ENOENT; tries++)
        nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
}

/* Whether the C compiler is the default one: CC unset, empty or "cc".  A
 * compiler or flags of the user's (CC='cc -DX') that fail on the generated C
 * are theirs to fix, not an internal error. */
static int cc_default(void)
{
    const char *cc = getenv("CC");
    if (!cc)
        return 1;
    while (*cc == ' ' || *cc == '\t')
        cc++;
    size_t n = strlen(cc);
    while (n > 0 && (cc[n - 1] == ' ' || cc[n - 1] == '\t'))
        n--;
    return n == 0 || (n == 2 && !strncmp(cc, "cc", 2));
}

/* Appends line (its end cut) to the list first (len bytes), indented, while
 * there is room: one of the compiler's first error lines. */
static void cc_line_add(char *first, size_t len, const char *line)
{
    size_t n = strlen(first), k = strcspn(line, "\r\n");
    if (k > 300)
        k = 300;
    if (n + k + 4 < len)
        snprintf(first + n, len - n, "  %.*s\n", (int)k, line);
}

/* Copies the compiler's output held in log (its standard output and error)
 * to standard error, as it was shown before, and keeps its first three
 * lines that say "error" (else its first three lines) in first (len
 * bytes), for the message that names the compiler.  log is closed. */
static void cc_output_said(FILE *log, char *first, size_t len)
{
    char line[4096], last[4096] = "", any[1024] = "";
    int errors = 0, lines = 0;
    *first = 0;
    rewind(log);
    while (fgets(line, sizeof line, log)) {
        fputs(line, stderr);
        if (errors < 3 && strstr(line, "error") && strcmp(line, last) != 0) {
            cc_line_add(first, len, line);     /* the same line again is said once */
            snprintf(last, sizeof last, "%s", line);
            errors++;
        }
        if (lines < 3 && line[strspn(line, " \t\r\n")]) {
            cc_line_add(any, sizeof any, line);
            lines++;
        }
    }
    fclose(log);
    if (!errors)
        snprintf(first, len, "%s", any);
}

/* Runs the compiler command cmd (spawn) with its output held in a
 * temporary file, then shown on standard error and its first error lines
 * kept in first (len bytes; empty when the output could not be held, and
 * it then goes to standard error as it comes).  The exit status as spawn's. */
static int cc_spawn(const ArgList *cmd, int *sig, char *first, size_t len)
{
    FILE *log = tmpfile();
    int saved = log ? dup(2) : -1;
    *first = 0;
    if (saved < 0 || dup2(fileno(log), 2) < 0) {
        if (saved >= 0)
            close(saved);
        if (log)
            fclose(log);
        return spawn(cmd, 1, -1, 0, sig);
    }
    int rc = spawn(cmd, 1, -1, 0, sig);
    dup2(saved, 2);
    close(saved);
    cc_output_said(log, first, len);
    return rc;
}

/* Whether the file at path is an ELF file whose entry point is 0: a
 * shared library (`CC='cc -shared -fPIC'`) or a relocatable object, not a
 * program.  One was kept in the cache as the simulator, which died of
 * SIGSEGV at every run, said as nsm's internal error.  A program, a PIE
 * among them, has a nonzero entry; a file that is not ELF is judged by
 * the other checks. */
static int elf_without_entry(const char *path)
{
    unsigned char h[32];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(h, 1, sizeof h, f) : 0;
    if (f)
        fclose(f);
    if (n < 28 || memcmp(h, "\177ELF", 4) != 0 || (h[4] != 1 && h[4] != 2))
        return 0;
    size_t len = h[4] == 2 ? 8 : 4;
    if (n < 24 + len)
        return 0;
    for (size_t k = 0; k < len; k++)
        if (h[24 + k] != 0)
            return 0;
    return 1;
}

/* Whether the compiler, which exited 0, made the program tmp (a regular
 * file that can be run); else says so, naming CC when the user chose it,
 * with *status set.  `CC=true` or `cc -fsyntax-only` made none ("cannot
 * write CACHE/M.tmpPID: No such file or directory", the compiler not
 * named), and `cc -c` or `cc -E` made an object file or preprocessed text
 * that was cached as the simulator ("cannot run ...: Permission denied",
 * exit 2, at every later run). */
static int cc_made_program(const char *tmp, const char *csrc, const char *cc, int *status)
{
    struct stat st;
    if (stat(tmp, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (st.st_mode & S_IXUSR) && !elf_without_entry(tmp))
        return 1;
    const char *what = stat(tmp, &st) != 0 ? "no file"
                     : elf_without_entry(tmp) ? "a shared library or object file (an ELF "
                       "file with no entry point)"
                     : "a file that cannot be run";
    *status = cc_default() ? 2 : 1;
    if (!cc_default())
        fprintf(stderr, "nsmc: error: the C compiler named by CC ('%s') exited 0 without "
                "making a program from the generated C (%s): it wrote %s where the program "
                "was asked for (-o); give a C compiler and flags that compile and link, or "
                "unset CC\n", getenv("CC"), csrc, what);
    else
        fprintf(stderr, "nsmc: internal error: the C compiler '%s' exited 0 without making "
                "a program from the generated C (%s): it wrote %s; please report this\n",
                cc, csrc, what);
    return 0;
}
/* Compiles the C text into bin, through a temporary renamed into place
 * after its checksum was written to sum.  Returns bin, or NULL with *status
 * set after a message. */
static const char *compile_sim(ArgList *cmd, int out_slot, int src_slot, const char *what,
                               const char *bin, const char *csrc, const char *sum,
                               const char *ctext, size_t clen, const RunOptions *o, Arena *a,
                               int *status)
{
    if (write_atomic(csrc, ctext, clen, a) != 0) {
        /* a file-size limit (EFBIG, SIGXFSZ ignored by main.c) is named as
         * the compile's own failure names it, not as a folder to change */
        int err = errno;
        char why[256];
        if (err == EFBIG && compile_room(csrc, csrc, why, sizeof why))
            fprintf(stderr, "nsmc: error: cannot write the %s's cache %s: %s: %s\n", what,
                    csrc, strerror(err), why);
        else
            fprintf(stderr, "nsmc: error: cannot write the %s's cache %s: %s "
                    "(set XDG_CACHE_HOME to a writable directory)\n", what, csrc,
                    strerror(err));
        *status = 1;
        return NULL;
    }
    const char *tmp = arena_printf(a, "%s.tmp%ld", bin, (long)getpid());
    cmd->arg[out_slot] = tmp;
    cmd->arg[src_slot] = csrc;
    fprintf(stderr, "nsmc: compiling the %s %s\n", what, bin);
    if (o->verbose) {
        for (int i = 0; i < cmd->n; i++)
            fprintf(stderr, "%s%s", i ? " " : "  ", cmd->arg[i]);
        fputc('\n', stderr);
    }
    const char *old_tmp = getenv("TMPDIR");
    old_tmp = old_tmp ? arena_printf(a, "%s", old_tmp) : NULL;
    const char *cc_tmp = cc_tmpdir_make(a);
    if (cc_tmp)
        setenv("TMPDIR", cc_tmp, 1);
    char first[1200];
    int sig, rc = cc_spawn(cmd, &sig, first, sizeof first);
    cc_tmpdir_remove(cc_tmp, old_tmp, a);
    if (got_signal) {
        /* the compiler, passed the signal, removed its own temporaries; the
         * entry keeps no half of itself (the generated C without its
         * program), so the next command builds it whole */
        unlink(tmp);
        unlink(csrc);
        *status = 128 + got_signal;
        fprintf(stderr, "nsmc: interrupted by %s while compiling the %s: nothing built or "
                "written; the next command compiles it again\n", sig_text(got_signal), what);
        return NULL;
    }
    if (rc != 0) {
        unlink(tmp);
        char dir[4200], why[4400];
        snprintf(dir, sizeof dir, "%s", bin);
        if (strrchr(dir, '/'))
            *strrchr(dir, '/') = 0;
        *status = rc == 127 ? 1 : 2;
        if (rc == 127)
            fprintf(stderr, "nsmc: error: the C compiler '%s' was not found (set CC to "
                    "your C compiler)\n", cmd->arg[0]);
        else if (compile_room(dir, old_tmp && *old_tmp ? old_tmp : "/tmp", why, sizeof why) &&
                 (*status = 1))
            /* a full disk is not the generated C's fault */
            fprintf(stderr, "nsmc: error: the %s could not be built in %s (the compiler's "
                    "message above says why): %s\n", what, dir, why);
        else if (!cc_default() && (*status = 1))
            /* the user's compiler or flags: theirs to fix, not nsm's */
            fprintf(stderr, "nsmc: error: the C compiler named by CC ('%s') failed on the "
                    "generated C (%s)%s\n%s(nsm is built and checked with the default "
                    "compiler: unset CC, or give a C99 compiler and flags that leave the "
                    "runtime's headers as they are)\n", getenv("CC"), csrc,
                    *first ? "; its first errors:" : "", first);
        else
            fprintf(stderr, "nsmc: internal error: the generated C (%s) did not compile with "
                    "'%s'; please report this with the model\n", csrc, cmd->arg[0]);
        return NULL;
    }
    if (!cc_made_program(tmp, csrc, cmd->arg[0], status)) {
        unlink(tmp);
        return NULL;
    }
    uint64_t h;
    long long size;
    const char *failed = tmp;
    const char *line = NULL;
    if (file_digest(tmp, &h, &size) == 0)
        line = arena_printf(a, "%016llx %lld %s\n", (unsigned long long)h, size,
                            cache_key(sum, a));
    if (!line || (failed = tmp, chmod(tmp, 0700) != 0) ||
        (failed = sum, write_atomic(sum, line, strlen(line), a) != 0) ||
        (failed = bin, rename(tmp, bin) != 0)) {
        /* the file that could not be written is named (a failed checksum
         * was reported as the simulator's) */
        fprintf(stderr, "nsmc: error: cannot write %s: %s\n", failed, strerror(errno));
        unlink(tmp);
        *status = 1;
        return NULL;
    }
    return bin;
}

/* Checks a cached binary against the checksum written when it was built.
 * Returns 1 when it is whole, 0 when there is none, -1 when it is damaged
 * (*why says how). */
static int cache_verify(const char *bin, const char *sum, const char **why, Arena *a)
{
    struct stat st;
    if (lstat(bin, &st) != 0)
        return 0;
    if (S_ISLNK(st.st_mode)) {
        *why = "a link, not a file";    /* never followed: see cache_path_why */
        return -1;
    }
    uint64_t h, want_h = 0;
    long long size, want_size = -1;
    char key[256] = "";
    struct stat ss;     /* the checksum likewise never read through a link */
    FILE *f = lstat(sum, &ss) == 0 && S_ISREG(ss.st_mode) ? fopen(sum, "r") : NULL;
    int ok = f && fscanf(f, "%16" SCNx64 " %lld %255s", &want_h, &want_size, key) == 3;
    if (f)
        fclose(f);
    if (!ok)
        *why = "no checksum";
    else if (strcmp(key, cache_key(sum, a)) != 0)
        *why = "its checksum is another entry's";
    else if (!S_ISREG(st.st_mode) || access(bin, X_OK) != 0 || elf_without_entry(bin))
        *why = "not an executable file";
    else if (file_digest(bin, &h, &size) != 0)
        *why = "unreadable";
    else if (size != want_size)
        *why = size == 0 ? "empty" : "truncated or grown";
    else if (h != want_h)
        *why = "checksum mismatch";
    else
        return 1;
    return -1;
}

/* Removes what an entry being rebuilt holds in place of its files: each
 * of bin, sum and csrc that is a file, a link or an empty folder (a
 * folder where a file belongs was said to be rebuilt, then the rename over
 * it failed, "Is a directory", on every later run). */
static void cache_clear(const char *bin, const char *sum, const char *csrc)
{
    const char *paths[3] = { bin, sum, csrc };
    for (int k = 0; k < 3; k++) {
        struct stat st;
        if (lstat(paths[k], &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            rmdir(paths[k]);
        else if (k < 2 || !S_ISREG(st.st_mode))
            unlink(paths[k]);
    }
}

/* Makes the cache entry dir and takes its lock (DIR/.lock), so that one
 * nsmc at a time checks and builds an entry and `nsmc cache clean` leaves it
 * alone meanwhile.  An entry removed by a clean between the folder's making
 * and the lock (the lock then held on a file no longer there) is made again:
 * runs compiling while a clean ran failed with "cannot write the
 * simulator's cache ...: No such file or directory".  So is a folder
 * removed by a clean as make_dirs checks it (its mkdir found it there, its
 * stat no longer): that ended the run, exit 1, with the same message.
 * Returns the lock's descriptor, -1 when no lock could be taken (the build
 * goes on without it), or -2 (errno set) when the folder cannot be made. */
static int cache_lock(const char *dir, Arena *a)
{
    const char *path = arena_printf(a, "%s/.lock", dir);
    for (int tries = 0; tries < 100; tries++) {
        if (mkdir(dir, 0700) == 0)
            chmod(dir, 0700);       /* whatever the umask */
        if (make_dirs(dir, a) != 0) {
            if (errno == ENOENT)
                continue;   /* removed by a clean as it was made: again */
            return -2;
        }
        int lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (lock < 0)
            continue;       /* removed between the two calls: again */
        struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
        while (fcntl(lock, F_SETLKW, &fl) != 0 && errno == EINTR && !got_signal)
            ;
        struct stat held, now;
        if (fstat(lock, &held) == 0 && stat(path, &now) == 0 && held.st_ino == now.st_ino &&
            held.st_dev == now.st_dev)
            return lock;
        close(lock);        /* the entry was cleaned while we waited */
    }
    return -1;
}

/* Ends the build's lock of a cache entry (lock, from cache_lock) and keeps
 * a shared flock on it for as long as this nsmc lives, so that `nsmc cache
 * clean` leaves the entry while the program found there is started and
 * runs (a clean between the build and the exec removed the program: "cannot
 * run ..."); other builders and users of the entry are not held up. */
static void cache_keep(int lock)
{
    if (lock < 0)
        return;
    if (flock(lock, LOCK_SH) != 0) {
        close(lock);
        return;
    }
    struct flock fl = { .l_type = F_UNLCK, .l_whence = SEEK_SET };
    fcntl(lock, F_SETLK, &fl);      /* the descriptor stays open until exit */
}

/* The name of a cache entry's folder and files for a program called name:
 * name, cut to its first 100 bytes.  A model's name may be of any length,
 * but a file's name may not pass 255 bytes: the entry's folder is named
 * NAME-HASH and its files NAME.tmpPID, NAME.sum, so a model named with 239
 * characters or more (232 for its sweep program) could not be run, "cannot
 * write the simulator's cache ...: File name too long (set XDG_CACHE_HOME to
 * a writable directory)".  The hash keeps two names cut alike apart (it
 * covers the C text, which holds the whole name). */
static const char *cache_name(const char *name, Arena *a)
{
    enum { CACHE_NAME_MAX = 100 };
    return strlen(name) <= CACHE_NAME_MAX ? name
           : arena_printf(a, "%.*s", (int)CACHE_NAME_MAX, name);
}

/* Builds the program for C text (`what` names it in messages: the
 * simulator or the sweep program), or finds it in the cache.  Returns the
 * binary's path in a, or NULL with *status set after a message. */
static const char *build(const char *what, const char *name, const char *ctext, size_t clen,
                         const RunOptions *o, const char *extra_libs, Arena *a, int *status)
{
    Runtime rt;
    if ((*status = find_runtime(&rt, a)) != 0)
        return NULL;
    const char *cc = getenv("CC");
    ArgList cmd = {{0}, 0};
    split_words(&cmd, cc && *cc ? cc : "cc", a);
    if (cmd.n == 0)
        split_words(&cmd, "cc", a);
    args_add(&cmd, "-O2");
    args_add(&cmd, "-I");
    args_add(&cmd, rt.include);
    args_add(&cmd, "-o");
    int out_slot = cmd.n;
    args_add(&cmd, "");                 /* the output, set below */
    int src_slot = cmd.n;
    args_add(&cmd, "");                 /* the C file */
    args_add(&cmd, rt.cli);
    args_add(&cmd, rt.lib);
    split_words(&cmd, NSM_CLI_LIBS, a);
    split_words(&cmd, NSM_RUNTIME_LINK_FLAGS, a);
    if (extra_libs)
        split_words(&cmd, extra_libs, a);
    args_add(&cmd, "-lm");

    uint64_t h = 14695981039346656037u;
    h = hash_bytes(h, ctext, clen);
    h = hash_file(h, rt.lib);
    h = hash_file(h, rt.cli);
    h = hash_file(h, arena_printf(a, "%s/nsm/nsm.h", rt.include));
    h = hash_file(h, arena_printf(a, "%s/nsm/model.h", rt.include));
    h = hash_file(h, arena_printf(a, "%s/nsm/cli.h", rt.include));
    for (int i = 0; i < cmd.n; i++)
        h = hash_bytes(h, cmd.arg[i], strlen(cmd.arg[i]) + 1);

    const char *root = cache_root(a);
    if (cache_root_safe(root, a)) {
        *status = 1;
        return NULL;
    }
    name = cache_name(name, a);
    const char *dir = arena_printf(a, "%s/%s-%016llx", root, name, (unsigned long long)h);
    const char *bin = arena_printf(a, "%s/%s", dir, name);
    const char *csrc = arena_printf(a, "%s/%s.c", dir, name);
    const char *sum = arena_printf(a, "%s/%s.sum", dir, name);
    int lock = cache_lock(dir, a);
    if (lock == -2) {
        fprintf(stderr, "nsmc: error: cannot write the simulator's cache %s: %s "
                "(set XDG_CACHE_HOME to a writable directory)\n", dir, strerror(errno));
        *status = 1;
        return NULL;
    }
    if (cache_path_unsafe("entry", dir, 1) || cache_path_unsafe("entry", bin, 0) ||
        cache_path_unsafe("entry", sum, 0)) {
        if (lock >= 0)
            close(lock);
        *status = 1;
        return NULL;
    }
    const char *bad = NULL;
    int v = cache_verify(bin, sum, &bad, a);
    if (v > 0) {
        cache_keep(lock);
        fprintf(stderr, "nsmc: using the cached %s %s\n", what, bin);
        return bin;
    }
    if (v < 0)
        fprintf(stderr, "nsmc: note: the cached %s %s is damaged (%s); rebuilding it\n",
                what, bin, bad);
    if (v <= 0)
        cache_clear(bin, sum, csrc);
    bin = compile_sim(&cmd, out_slot, src_slot, what, bin, csrc, sum, ctext, clen, o, a, status);
    if (bin)
        cache_keep(lock);
    else if (lock >= 0)
        close(lock);
    return bin;
}

/* --set-file is checked here, before any building, then read again by the
 * simulator, which reports unknown names with the file's line. */
static int accept_set(void *ud, const char *name, double value, int line)
{
    (void)ud, (void)name, (void)value, (void)line;
    return 0;
}

/* Splits line (its newline cut) at commas in place; returns the number of
 * fields, at most max. */
static int split_csv(char *line, char **field, int max)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = '\0';
    for (char *p = line; n < max;) {
        field[n++] = p;
        char *c = strchr(p, ',');
        if (!c)
            break;
        *c = '\0';
        p = c + 1;
    }
    return n;
}

/* Summary of the event log: counts per kind and the energy lost.  Lines of
 * any length are read (a gap's name is not limited). */
static void summarize_events(const char *path, FILE *out)
{
    enum { NKIND = NSM_EV_REVERSAL + 1 };
    const char *kinds[NKIND];
    for (int k = 0; k < NKIND; k++)
        kinds[k] = nsm_event_kind_name(k);
    long count[NKIND] = {0}, total = 0;
    double lost = 0;
    char *line = NULL, *field[8];
    size_t cap = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    for (int first = 1; getline(&line, &cap, f) > 0; first = 0) {
        if (first || split_csv(line, field, 8) < 7)
            continue;
        char *end;
        double el = strtod(field[6], &end);
        if (end == field[6])
            continue;
        total++;
        lost += el;
        for (int k = 0; k < NKIND; k++)
            if (!strcmp(field[1], kinds[k]))
                count[k]++;
    }
    free(line);
    fclose(f);
    fprintf(out, "\nevents: %ld", total);
    const char *sep = " (";
    for (int k = 0; k < NKIND; k++)
        if (count[k]) {
            fprintf(out, "%s%ld %s", sep, count[k], kinds[k]);
            sep = ", ";
        }
    if (total)
        fprintf(out, ")");
    fprintf(out, "\nenergy lost in events: %.6g J\n", lost);
}

/* The trajectory column of the model's energy.error output (t is column
 * 0), whatever name the model gives it, or -1 when it has none. */
static int energy_error_column(const Model *m)
{
    for (int k = 0; k < m->n_outputs; k++)
        if (m->outputs[k].kind == OUT_ERROR)
            return k + 1;
    return -1;
}

/* What the simulator's balance check judged, after the energy.error
 * column's numbers: the check's verdict as the simulator reported it
 * (report, NSM_REPORT_FD: "balance: passed" or "balance: not judged
 * (WHY)"), or the failure its message above names (rc 3).  The column's
 * worst sample is relative to the energy met by then; the check judges each
 * step's balance against its tolerance and, where the energies are as small
 * as their rounding, against the rounding floors (docs/energy.md), so a
 * worst sample of 0.02 beside a check that passed read as a failure, and
 * no second opinion is formed here. */
static const char *balance_verdict(const char *report, int rc, char *buf, size_t len)
{
    const char *b = strstr(report, "balance: ");
    if (rc == 3)
        return "; the run failed (the simulator's message above says why)";
    if (!b)
        return "";
    b += strlen("balance: ");
    if (!strncmp(b, "passed\n", 7))
        return "; the simulator's balance check passed at every step (against its tolerance, "
               "or the rounding floors where the energies are as small as their rounding: "
               "docs/energy.md)";
    size_t n = strcspn(b, "\n");
    snprintf(buf, len, "; %.*s by the simulator's balance check", (int)n, b);
    return buf;
}

/* The number of samples and, when the model outputs energy.error (the
 * balance E0 + injected - dissipated - (T + V) relative to the largest
 * energy met so far) in column col (-1: none), its last and largest values
 * and the balance check's verdict (balance_verdict).
 * The column is found by the model's output list, not by its header, so a
 * renamed column (`err = energy.error`) is still summarised.  The rows may
 * be of any length. */
static void summarize_energy(const char *path, int col, const char *report, int rc,
                             FILE *out)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    if (!f)
        return;
    if (getline(&line, &cap, f) <= 0)
        col = -1;
    double worst = 0, last = 0;
    long rows = 0;
    while (getline(&line, &cap, f) > 0) {
        rows++;
        if (col < 0)
            continue;
        char *p = line;
        for (int i = 0; i < col && p; i++)
            p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
        if (!p)
            continue;
        last = strtod(p, NULL);
        if (last > worst || -last > worst)
            worst = last < 0 ? -last : last;
    }
    free(line);
    fclose(f);
    fprintf(out, "samples: %ld\n", rows);
    char buf[200];
    const char *verdict = balance_verdict(report, rc, buf, sizeof buf);
    if (col >= 0 && isnan(last))    /* the energies overflowed: never "-nan" */
        fprintf(out, "energy balance error: not a number at the end (the energies are not finite "
               "there), %.3g at worst before (relative to the largest energy met by then)%s\n",
               worst, verdict);
    else if (col >= 0)
        fprintf(out, "energy balance error: %.3g at the end, %.3g at worst (relative to the largest "
               "energy met by then)%s\n", last, worst, verdict);
}

/* The files a run writes into its folder besides the simulator's named
 * outputs: its two CSV files, then the figures and their scripts, which
 * an earlier run's are removed by name (remove_old_plots). */
static const char *const run_files[] = {
    "trajectory.csv", "events.csv",
    "plot.png", "plot.svg", "phase.png", "phase.svg", "path.png", "path.svg", "plot.gp", "plot.log",
    "animation.gif", "animation.gp"
};
#define RUN_NFILES (sizeof run_files / sizeof *run_files)
#define RUN_FIRST_FIGURE 2

/* Removes the plot files of an earlier run, so that none is left stale
 * (keep_anim: not the animation, which the simulator has just drawn). */
static void remove_old_plots(const char *dir, Arena *a, int keep_anim)
{
    for (size_t i = RUN_FIRST_FIGURE; i < RUN_NFILES; i++)
        if (!keep_anim || strncmp(run_files[i], "animation.", 10))
            unlink(arena_printf(a, "%s/%s", dir, run_files[i]));
}

/* Sets parameter `name` of the model to v in p (for plot_walls). */
static int wall_param(void *ud, const char *name, double v, int line)
{
    (void)line;
    const void **ctx = ud;
    const Model *m = ctx[0];
    double *p = (double *)ctx[1];
    for (int i = 0; i < m->n_params; i++)
        if (!strcmp(m->params[i].name, name))
            p[i] = v;
    return 0;
}

/* The unit of parameter `name` of the model in ctx, for a set file's values. */
static const char *wall_unit(void *ud, const char *name)
{
    const void **ctx = ud;
    const Model *m = ctx[0];
    for (int i = 0; i < m->n_params; i++)
        if (!strcmp(m->params[i].name, name))
            return m->params[i].unit ? m->params[i].unit : "";
    return NULL;
}

/* The walls of a planar model with the run's parameters (the defaults, then
 * --set-file, then every --set, as the simulator takes them), for the path
 * picture.  Returns how many, or -1 when the parameters are not all known
 * here (a --set or --set-file among the simulator's own arguments). */
static int plot_walls(const RunOptions *o, const Model *m, PlotWall *walls, int max, Arena *a)
{
    for (int i = 0; i < o->nextra; i++)
        if (!strncmp(o->extra[i], "--set", 5))
            return -1;
    double *p = arena_alloc(a, sizeof(double) * (size_t)(m->n_params + 1));
    for (int i = 0; i < m->n_params; i++)
        p[i] = m->params[i].number;
    const void *ctx[2] = {m, p};
    char err[256];
    if (o->set_file && setfile_read_units(o->set_file, wall_param, wall_unit, ctx, err, sizeof err))
        return -1;
    for (int k = 0; k < o->nsets; k++) {
        const char *eq = strchr(o->sets[k], '=');
        if (!eq)
            return -1;
        const char *name = arena_strndup(a, o->sets[k], (size_t)(eq - o->sets[k]));
        const char *unit = "";
        for (int i = 0; i < m->n_params; i++)
            if (!strcmp(m->params[i].name, name))
                unit = m->params[i].unit;
        double v;
        if (setfile_value(eq + 1, unit, 0, &v, err, sizeof err))
            return -1;
        wall_param(ctx, name, v, 0);
    }
    ExprEnv env = {p, NULL, 0};
    int n = 0;
    for (int k = 0; k < m->n_walls && n < max; k++) {
        const Wall *w = &m->walls[k];
        PlotWall *pw = &walls[n++];
        pw->name = w->name;
        pw->body = m->planars[w->planar].name;
        pw->nx = expr_eval(w->nx, &env);
        pw->ny = expr_eval(w->ny, &env);
        pw->c = pw->nx * expr_eval(w->px, &env) + pw->ny * expr_eval(w->py, &env);
        pw->r = expr_eval(m->planars[w->planar].radius, &env);
    }
    return n;
}

/* The moving surfaces of one-body gaps on the line (a vibrating table), for
 * the position panel; their coefficients at the parameters' defaults. */
static int plot_surfaces(const Model *m, PlotSurface *surf, int max, Arena *a)
{
    double *p = arena_alloc(a, sizeof(double) * (size_t)(m->n_params + 1));
    for (int i = 0; i < m->n_params; i++)
        p[i] = m->params[i].number;
    ExprEnv env = {p, NULL, 0};
    int n = 0;
    for (int j = 0; j < m->n_gaps && n < max; j++) {
        const Gap *g = &m->gaps[j];
        if (!g->h || g->n_w != 1 || m->bodies[g->w_body[0]].planar >= 0)
            continue;
        surf[n].gap = g->name;
        surf[n].body = m->bodies[g->w_body[0]].name;
        surf[n++].coef = expr_eval(g->w[0], &env);
    }
    return n;
}

/* The model's friction elements for the plot's legend (at most max). */
static int plot_frictions(const Model *m, PlotFriction *fric, int max)
{
    int n = 0;
    for (int k = 0; k < m->n_frictions && n < max; k++, n++) {
        fric[n].name = m->frictions[k].name;
        fric[n].space = 0;
    }
    for (int k = 0; k < m->n_sfrics && n < max; k++, n++) {
        fric[n].name = m->sfrics[k].name;
        fric[n].space = 1;
    }
    return n;
}

/* Draws the plots and says where they are.  1 when a figure could not be
 * written (PLOT_EFAIL, said here), else 0: no gnuplot or nothing to plot is
 * a note, not an error. */
static int plot_results(const RunOptions *o, const Model *m, const char *dir, Arena *a,
                        FILE *out)
{
    const char *traj = arena_printf(a, "%s/trajectory.csv", dir);
    const char *ev = arena_printf(a, "%s/events.csv", dir);
    const char *title = m->title && *m->title ? arena_printf(a, "%s: %s", m->name, m->title)
                                              : m->name;
    char err[1024] = "";
    int flags = PLOT_PNG | PLOT_SVG | (o->phase ? PLOT_PHASE : 0);
    PlotWall walls[64];
    int nw = plot_walls(o, m, walls, 64, a);
    PlotSurface surf[16];
    PlotFriction fric[64];
    PlotScene scene = { walls, nw > 0 ? nw : 0, surf, plot_surfaces(m, surf, 16, a), fric,
                        plot_frictions(m, fric, 64) };
    int rc = plot_draw_scene(dir, traj, ev, title, flags, &scene, err, sizeof err);
    if (rc == PLOT_OK) {
        int phase = o->phase && file_exists(arena_printf(a, "%s/phase.png", dir));
        fprintf(out, "plots: %s/plot.png, %s/plot.svg", dir, dir);
        if (phase)
            fprintf(out, ", %s/phase.png, %s/phase.svg", dir, dir);
        if (file_exists(arena_printf(a, "%s/path.png", dir)))
            fprintf(out, ", %s/path.png, %s/path.svg", dir, dir);
        fprintf(out, " (script %s/plot.gp)\n", dir);
        if (*err)
            fprintf(out, "note: %s\n", err);
        if (nw < 0 && m->n_walls)
            fprintf(out, "note: the walls are not drawn in path.png: the simulator's own arguments "
                   "set parameters\n");
        if (o->phase && !phase)
            fprintf(out, "no phase portrait: no body has both its position and its velocity "
                   "among the outputs\n");
    } else if (rc == PLOT_ESTOP) {
        return 0;   /* plot_stoppable says so */
    } else if (rc == PLOT_EFAIL) {
        /* an error, as the simulator's --plot makes it (exit 1): a warning
         * and exit 0 let a script take the figures as drawn */
        fprintf(stderr, "nsmc: error: the figures could not be drawn: %s; the results in %s "
                "are whole, no figure drawn\n", err, dir);
        return 1;
    } else {
        fprintf(out, "no plot: %s\n", err);
    }
    return 0;
}

/* plot_results with SIGINT, SIGTERM and SIGHUP caught: one that comes while
 * gnuplot draws kills it (plot_stop_watch), so nsmc stops at once and no
 * half figure is left (the default action ended nsmc and left gnuplot
 * drawing into its temporaries).  1 when a stop signal came (got_signal,
 * said here), else 0; *failed: 1 when a figure could not be written. */
static int plot_stoppable(const RunOptions *o, const Model *m, const char *dir, Arena *a,
                          int *failed, FILE *out)
{
    struct sigaction old[3];
    forward_install(old);
    plot_stop_watch(&got_signal);
    *failed = plot_results(o, m, dir, a, out);
    plot_stop_watch(NULL);
    forward_restore(old);
    if (!got_signal)
        return 0;
    fprintf(stderr, "nsmc: interrupted by %s while drawing the figures in %s; the results are "
            "whole, the figures not drawn\n", got_signal == SIGINT ? "SIGINT" :
            got_signal == SIGTERM ? "SIGTERM" : "SIGHUP", dir);
    return 1;
}

/* Reads what the simulator reported through the pipe (nonblocking, its
 * writer closed) into buf. */
static void read_report(int fd, char *buf, size_t len)
{
    size_t n = 0;
    ssize_t r;
    while (n + 1 < len && ((r = read(fd, buf + n, len - 1 - n)) > 0 || (r < 0 && errno == EINTR)))
        if (r > 0)
            n += (size_t)r;
    buf[n] = '\0';
}

/* Name of a signal for messages. */
static const char *sig_text(int sig)
{
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP"
         : sig == SIGKILL ? "SIGKILL" : strsignal(sig);
}

/* What the file at path is after a simulator stopped before it opened its
 * outputs (it removes those it made): an earlier run's file as it was, a
 * FIFO nobody read, or nothing. */
static const char *stopped_file_state(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return "not made";
    if (S_ISFIFO(st.st_mode))
        return "a FIFO, nothing written into it";
    if (S_ISREG(st.st_mode))
        return "an earlier run's, as it was";
    return "not a file of this run (left as it was)";
}

/* The simulator was stopped by signal s before it opened its outputs
 * (waiting for a FIFO's reader, NSM_REPORT_FD's "stopped-unopened"): says
 * that nothing was written and what each result file is (h5: the --out
 * HDF5 file, or NULL); "hold whole lines up to where it stopped" named
 * files that were never written or not made. */
static void stopped_unopened_said(const char *sig, const char *dir, const char *h5)
{
    char traj[4200], ev[4200];
    snprintf(traj, sizeof traj, "%s/trajectory.csv", dir);
    snprintf(ev, sizeof ev, "%s/events.csv", dir);
    fprintf(stderr, "nsmc: interrupted by %s before the simulation started: nothing written; "
            "%s: %s; %s: %s%s%s%s%s\n", sig, traj, stopped_file_state(traj), ev,
            stopped_file_state(ev), h5 ? "; " : "", h5 ? h5 : "", h5 ? ": " : "",
            h5 ? stopped_file_state(h5) : "");
}

/* Whether the result at path is there but no regular file (a FIFO, a
 * device, or a link to one): the simulator wrote into it and it cannot be
 * read back.  events.csv as a link to /dev/null was summarised as
 * "events: 0, energy lost in events: 0 J" after a run of 134 impacts, and
 * trajectory.csv so ended the run with no summary, no figures and no
 * word, exit 0. */
static int run_result_unread(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

/* Whether the result at path is not there (no name at all), after a run
 * that ended well and wrote it: removed or renamed while the simulator
 * ran.  `rm D/trajectory.csv` mid-run ended nsmc run with exit 0 and no
 * word; `rm D/events.csv` gave a summary without its events line that
 * named D/events.csv among the results, and figures without the events. */
static int run_result_gone(const char *path)
{
    struct stat st;
    return lstat(path, &st) != 0 && errno == ENOENT;
}

/* Says that the run's trajectory or events (traj, ev) are gone
 * (run_result_gone): nothing is summarised or drawn. */
static void run_gone_said(const char *traj, const char *ev)
{
    int both = run_result_gone(traj) && run_result_gone(ev);
    fprintf(stderr, "nsmc: error: %s%s%s %s not there: removed or renamed while the simulator "
            "ran (it ended well); the run is not summarised and no figures are drawn (an "
            "earlier run's figures there were removed)\n", both ? traj : "",
            both ? " and " : "", both ? ev : run_result_gone(traj) ? traj : ev,
            both ? "are" : "is");
}

/* The program bin exited 0 without opening its results, which nsm's
 * simulator reports (NSM_REPORT_FD, "outputs-open") before it runs: not a
 * simulator made from the model (CC gave a script or a program of its
 * own).  It was said to have had its trajectory and events "removed or
 * renamed while the simulator ran".  Says so; returns the exit status. */
static int run_not_simulator(const char *bin)
{
    if (!cc_default()) {
        fprintf(stderr, "nsmc: error: the program '%s' that the C compiler named by CC ('%s') "
                "made exited 0 without running the model (it opened none of its results): it "
                "is not a simulator made from the generated C; give a C compiler that compiles "
                "and links it, or unset CC\n", bin, getenv("CC"));
        return 1;
    }
    fprintf(stderr, "nsmc: internal error: the simulator '%s' exited 0 without running the "
            "model (it opened none of its results); please report this\n", bin);
    return 2;
}

/* Says that the run's trajectory or events (traj, ev) were replaced by
 * another file under their names while the simulator ran, as its report
 * says ("result-replaced trajectory|events"): `mv other.csv
 * D/trajectory.csv` mid-run summarised the other file as the run
 * ("samples: 1", exit 0).  Nothing is summarised or drawn. */
static void run_replaced_said(const char *report, const char *traj, const char *ev)
{
    int t = strstr(report, "result-replaced trajectory") != NULL;
    int e = strstr(report, "result-replaced events") != NULL;
    fprintf(stderr, "nsmc: error: %s%s%s %s replaced by another file while the simulator ran "
            "(it ended well): what it wrote there is gone; the run is not summarised and no "
            "figures are drawn (an earlier run's figures there were removed)\n",
            t ? traj : "", t && e ? " and " : "", e ? ev : "", t && e ? "were" : "was");
}

/* Says that the run's trajectory or events (traj, ev) went into what
 * cannot be read back (run_result_unread): nothing is summarised or
 * drawn, and an earlier run's figures were removed. */
static void run_unread_said(const char *traj, const char *ev)
{
    const char *p = run_result_unread(traj) ? traj : ev;
    struct stat st;
    const char *kind = stat(p, &st) != 0 ? "gone" : S_ISFIFO(st.st_mode) ? "a FIFO"
                     : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                     : "not a regular file";
    fprintf(stderr, "nsmc: note: %s is %s: the simulator wrote into it, and it cannot be read "
            "back; the run is not summarised and no figures are drawn (an earlier run's "
            "figures there were removed)\n", p, kind);
}

/* Says how the simulator ended when it did not end by itself (a signal or an
 * interruption, a failed write); returns the exit status, or -1 to go on
 * with the results. */
static int run_outcome(int rc, int sig, const char *report, const char *bin, const char *dir,
                       const char *h5)
{
    if (rc < 0 && (sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGKILL)) {
        fprintf(stderr, "nsmc: the simulator was killed by %s; %s holds what it wrote, "
                "not summarised\n", sig_text(sig), dir);
        return 128 + sig;
    }
    if (rc < 0 && sig && !cc_default() && !strstr(report, "outputs-open")) {
        /* CC='cc -shared -fPIC -Wl,-e,main': a library with an entry point,
         * cached and run, "internal error ... died of signal 11" each time */
        fprintf(stderr, "nsmc: error: the program '%s' that the C compiler named by CC ('%s') "
                "made died of signal %d (%s) before it ran the model: it is not a simulator "
                "made from the generated C; give a C compiler and flags that compile and link "
                "it, or unset CC\n", bin, getenv("CC"), sig, strsignal(sig));
        return 1;
    }
    if (rc < 0 && sig) {
        fprintf(stderr, "nsmc: internal error: the simulator %s died of signal %d (%s)\n", bin,
                sig, strsignal(sig));
        return 2;
    }
    if (rc < 0) {
        fprintf(stderr, "nsmc: internal error: cannot run the simulator %s\n", bin);
        return 2;
    }
    if (rc > 128 || got_signal) {
        int s = rc > 128 ? rc - 128 : got_signal;
        if (strstr(report, "stopped-unopened")) {
            stopped_unopened_said(sig_text(s), dir, h5);
            return rc > 128 ? rc : 128 + s;
        }
        if (strstr(report, "stopped-animation")) {
            fprintf(stderr, "nsmc: interrupted by %s while the animation was drawn: the "
                    "simulation reached its end; %s/trajectory.csv and events.csv are whole, "
                    "no animation was drawn, not summarised\n", sig_text(s), dir);
            return rc > 128 ? rc : 128 + s;
        }
        fprintf(stderr, "nsmc: interrupted by %s: the simulation stopped early; %s/trajectory.csv "
                "and events.csv hold whole lines up to where it stopped, not summarised\n",
                sig_text(s), dir);
        return rc > 128 ? rc : 128 + s;
    }
    if (strstr(report, "write-failed")) {
        fprintf(stderr, "nsmc: error: the simulator could not write its results into %s (see "
                "above); nothing is summarised\n", dir);
        return 3;
    }
    return -1;
}

/* The run's folder dir was moved, removed or replaced (by a file, or a
 * link to another folder) while the simulator ran: its trajectory and
 * events went with the folder it opened them in, and what dir names now
 * is not this run's.  They were summarised, that other folder's earlier
 * figures and study results removed and its trajectory drawn, exit 0 (the
 * events of another run printed as this one's).  Says so and returns the
 * exit status: the signal's when the run was stopped, else 1; nothing is
 * read, removed or drawn. */
static int run_moved_said(int rc, int sig, const char *dir)
{
    int s = rc < 0 ? sig : rc > 128 ? rc - 128 : got_signal;
    fprintf(stderr, "nsmc: error: the output folder '%s' was moved, removed or replaced while "
            "the simulator ran: nothing is summarised, removed or drawn in what stands there "
            "now; this run's trajectory.csv and events.csv are in the folder it started in, "
            "wherever that was moved%s%s%s\n", dir, s ? " (stopped by " : "",
            s ? sig_text(s) : "", s ? ")" : "");
    return s ? 128 + s : 1;
}

/* Whether the simulator run with args writes CSV to its standard output:
 * --out, --events, --stats, --section-out or --lyapunov-out "-", or a
 * --section or --lyapunov whose own output is not named (stdout by
 * default).  nsmc run's report then goes to stderr (as the simulator's
 * --summary does): printed after the CSV on stdout, "events: ..." and
 * "results: ..." became rows of the data a pipe read. */
static int run_stdout_csv(const ArgList *args)
{
    static const char *const outs[] = { "--out", "--events", "--stats", "--section-out",
                                        "--lyapunov-out" };
    int sec = 0, sec_file = 0, lyap = 0, lyap_file = 0, dash = 0;
    for (int i = 1; i < args->n; i++) {
        const char *w = args->arg[i], *eq = strchr(w, '='), *val = NULL;
        char opt[64];
        if (!strcmp(w, "--"))
            break;
        if (!strncmp(w, "--", 2) && eq && (size_t)(eq - w) < sizeof opt) {
            snprintf(opt, sizeof opt, "%.*s", (int)(eq - w), w);
            val = eq + 1;
        } else {
            snprintf(opt, sizeof opt, "%.63s", w);
            if (sim_takes_value(opt) && i + 1 < args->n)
                val = args->arg[++i];
        }
        sec |= !strcmp(opt, "--section");
        lyap |= !strcmp(opt, "--lyapunov");
        if (!val || !in_list(opt, outs, sizeof outs / sizeof *outs))
            continue;
        int std = !strcmp(val, "-");
        if (!strcmp(opt, "--section-out"))
            sec_file = !std;
        else if (!strcmp(opt, "--lyapunov-out"))
            lyap_file = !std;
        dash |= std;
    }
    return dash || (sec && !sec_file) || (lyap && !lyap_file);
}

/* The file an output option of the simulator names among n arguments
 * (the last one given; "-", stdout, is no file), or NULL. */
static const char *sim_output(const char *const *args, int n, const char *opt)
{
    const char *file = NULL;
    for (int i = 0; i + 1 < n; i++)
        if (!strcmp(args[i], opt))
            file = args[i + 1];
    return file && strcmp(file, "-") ? file : NULL;
}

/* The results line: every file the run wrote, the folder's CSV files, the
 * HDF5 file, the animation, and the simulator's other outputs given before
 * or after "--" (--stats, --section-out, --lyapunov-out, --animate: the
 * HDF5 file given after "--" and these were left out). */
static void results_said(const RunOptions *o, const char *dir, Arena *a, FILE *out)
{
    static const char *const opts[] = { "--stats", "--section-out", "--lyapunov-out",
                                        "--animate" };
    fprintf(out, "results: %s/trajectory.csv, %s/events.csv", dir, dir);
    if (o->h5)
        fprintf(out, ", %s", o->h5);
    if (o->animate && file_exists(arena_printf(a, "%s/animation.gif", dir)))
        fprintf(out, ", %s/animation.gif", dir);      /* none drawn without gnuplot */
    for (size_t k = 0; k < sizeof opts / sizeof *opts; k++) {
        const char *f = sim_output(o->sim, o->nsim, opts[k]);
        const char *g = sim_output((const char *const *)o->extra, o->nextra, opts[k]);
        if (g || f)
            fprintf(out, ", %s", g ? g : f);
    }
    fprintf(out, "\n");
}

/* The names of the run's inputs (the model's file, the parameter file) that
 * are files of the folder dir, into own: the clean-up of other studies'
 * results keeps them (a parameter file saved as DIR/summary.csv was
 * removed as a sweep's).  Returns how many. */
static int run_inputs_in(const RunOptions *o, const char *dir, const char **own)
{
    const char *in[2] = { o->input, o->set_file };
    int n = 0;
    for (int k = 0; k < 2; k++) {
        struct stat a, b;
        if (!in[k] || stat(in[k], &a) != 0)
            continue;
        const char *base = strrchr(in[k], '/') ? strrchr(in[k], '/') + 1 : in[k];
        char path[4096];             /* a longer name is not looked for */
        if (snprintf(path, sizeof path, "%s/%s", dir, base) >= (int)sizeof path ||
            stat(path, &b) != 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino)
            continue;
        own[n++] = base;
    }
    return n;
}

/* Removes a study's results from the run's folder dir (outdir_others_remove,
 * the programs' one list, the run's own files excepted) once the run's are in place: a sweep's section.csv
 * and summary.csv, a branch.csv, their figures stayed beside the run's own
 * without a word.  A file the run itself wrote under such a name
 * (`--section-out DIR/section.csv`, `--stats DIR/summary.csv`) is its own
 * and stays, as do the run's inputs. */
static void run_studies_remove(const RunOptions *o, const char *dir)
{
    static const char *const opts[] = { "--stats", "--section-out", "--lyapunov-out",
                                        "--animate", "--out" };
    static const char *const mine[] = { "trajectory.csv", "events.csv", "plot.", "phase.",
                                        "path.", "animation." };
    const char *own[2 * sizeof opts / sizeof *opts + 2 + sizeof mine / sizeof *mine];
    int n = run_inputs_in(o, dir, own);
    for (size_t k = 0; k < sizeof mine / sizeof *mine; k++)
        own[n++] = mine[k];
    for (size_t k = 0; k < sizeof opts / sizeof *opts; k++) {
        const char *f = sim_output(o->sim, o->nsim, opts[k]);
        const char *g = sim_output((const char *const *)o->extra, o->nextra, opts[k]);
        if (f)
            own[n++] = strrchr(f, '/') ? strrchr(f, '/') + 1 : f;
        if (g)
            own[n++] = strrchr(g, '/') ? strrchr(g, '/') + 1 : g;
    }
    outdir_others_remove("nsmc", dir, own, n);
}

/* Whether the output path (a link followed) is the input file in: 1 after
 * the message.  The simulator knows neither the model's file nor the
 * parameter file, and wrote through them: `--stats ball.nsm` replaced the
 * model by its statistics, exit 0. */
static int run_output_is_input(const char *opt, const char *path, const struct stat *in,
                               const char *what, const char *inpath)
{
    struct stat st;
    if (!path || !strcmp(path, "-") || stat(path, &st) != 0 || st.st_dev != in->st_dev ||
        st.st_ino != in->st_ino)
        return 0;
    fprintf(stderr, "nsmc: error: %s '%s' is the %s '%s' itself, which the run would "
            "overwrite: write it elsewhere\n", opt, path, what, inpath);
    return 1;
}

/* Whether the run's own file path in its folder dir (a link followed) is
 * the input file in: 1 after the message, which names the file and the
 * option that names it (it said "--out-dir 'R/plot.gp' is ..."). */
static int run_own_is_input(const char *path, const char *dir, const struct stat *in,
                            const char *what, const char *inpath)
{
    struct stat st;
    if (stat(path, &st) != 0 || st.st_dev != in->st_dev || st.st_ino != in->st_ino)
        return 0;
    fprintf(stderr, "nsmc: error: the run's own file '%s' (in the folder --out-dir '%s') is "
            "the %s '%s' itself, which the run would overwrite: choose another --out-dir or "
            "move the %s\n", path, dir, what, inpath, what);
    return 1;
}

/* The file an animation GIF path writes beside it with the extension ext
 * (its gnuplot script FILE.gp, gnuplot's log FILE.log) in buf, or NULL when
 * path is no GIF's name (the simulator refuses it). */
static const char *run_anim_sibling(const char *path, const char *ext, char *buf, size_t len)
{
    size_t n = strlen(path);
    if (n < 4 || strcasecmp(path + n - 4, ".gif"))
        return NULL;
    snprintf(buf, len, "%.*s.%s", (int)(n - 4), path, ext);
    return buf;
}

/* The outputs a simulator option names among args[0..n) (--stats,
 * --section-out, --out, --animate, --lyapunov-out with their values)
 * checked against in (`-- --lyapunov --lyapunov-out M.nsm` replaced the
 * model by the spectrum, exit 0). */
static int run_args_not_input(const char *const *args, int n, const struct stat *in,
                              const char *what, const char *inpath)
{
    static const char *const outs[] = { "--stats", "--section-out", "--out", "--animate",
                                        "--lyapunov-out" };
    char gp[4200], log[4200];
    for (int i = 0; i + 1 < n; i++)
        if (in_list(args[i], outs, sizeof outs / sizeof *outs) &&
            (run_output_is_input(args[i], args[i + 1], in, what, inpath) ||
             (!strcmp(args[i], "--animate") &&
              (run_output_is_input("--animate's script", run_anim_sibling(args[i + 1], "gp", gp,
                                                                         sizeof gp),
                                   in, what, inpath) ||
               run_output_is_input("--animate's log", run_anim_sibling(args[i + 1], "log", log,
                                                                      sizeof log),
                                   in, what, inpath)))))
            return 1;
    return 0;
}

/* The folder part of path (".", "/" or its text before the last slash,
 * trailing slashes and a leading "./" dropped) into buf. */
static void run_parent(const char *path, char *buf, size_t len)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 0;
    while (n > 1 && path[n - 1] == '/')
        n--;
    if (!slash)
        snprintf(buf, len, ".");
    else if (n == 0)
        snprintf(buf, len, "/");
    else
        snprintf(buf, len, "%.*s", (int)n, path);
    while (!strncmp(buf, "./", 2) && buf[2])
        memmove(buf, buf + 2, strlen(buf + 2) + 1);
}

/* Whether paths a and b name one file: by device and inode when both
 * exist, else by the same last name in one folder (the folders by device
 * and inode when both exist, else by their text). */
static int run_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    const char *na = strrchr(a, '/') ? strrchr(a, '/') + 1 : a;
    const char *nb = strrchr(b, '/') ? strrchr(b, '/') + 1 : b;
    if (strcmp(na, nb))
        return 0;
    char pa[4096], pb[4096];
    run_parent(a, pa, sizeof pa);
    run_parent(b, pb, sizeof pb);
    if (stat(pa, &sa) == 0 && stat(pb, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    return !strcmp(pa, pb);
}

/* The first output a simulator option names among args[0..n) that is one
 * of the files the run writes in dir itself (its figures, their script and
 * log, the animation) or the folder's lock: 1 after the message.  `--stats
 * DIR/plot.svg` ran, exit 0, and the figures' removal took the statistics;
 * `--stats DIR/.nsm-run.lock` wrote them into the lock, exit 0, and every
 * later run into DIR was refused.  An animation's script and log are its
 * own files too: `-- --animate DIR/plot.gif` shared DIR/plot.gp. */
static int run_args_not_own(const char *const *args, int n, const char *dir, Arena *a)
{
    static const char *const outs[] = { "--stats", "--section-out", "--lyapunov-out",
                                        "--animate" };
    for (int i = 0; i + 1 < n; i++) {
        if (!in_list(args[i], outs, sizeof outs / sizeof *outs) || !strcmp(args[i + 1], "-"))
            continue;
        char gp[4200], log[4200];
        const char *paths[3] = { args[i + 1], NULL, NULL };
        if (!strcmp(args[i], "--animate")) {
            paths[1] = run_anim_sibling(args[i + 1], "gp", gp, sizeof gp);
            paths[2] = run_anim_sibling(args[i + 1], "log", log, sizeof log);
        }
        for (int p = 0; p < 3; p++)
            for (size_t f = RUN_FIRST_FIGURE; paths[p] && f <= RUN_NFILES; f++) {
                const char *name = f < RUN_NFILES ? run_files[f] : ".nsm-run.lock";
                if (!run_same_file(paths[p], arena_printf(a, "%s/%s", dir, name)))
                    continue;
                fprintf(stderr, "nsmc: error: %s '%s'%s%s%s is the run's own %s in its folder "
                        "'%s': write it elsewhere\n", args[i], args[i + 1],
                        p ? " (its " : "", p ? paths[p] : "", p ? ")" : "",
                        f < RUN_NFILES ? "file" : "lock", dir);
                return 1;
            }
    }
    return 0;
}

/* Whether the folder paths a and b name one folder: by device and inode
 * when both exist, else by their text with trailing slashes and leading
 * "./" dropped. */
static int run_same_dir(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char ta[4096], tb[4096], pa[4096], pb[4096];
    snprintf(ta, sizeof ta, "%s/x", a);
    snprintf(tb, sizeof tb, "%s/x", b);
    run_parent(ta, pa, sizeof pa);
    run_parent(tb, pb, sizeof pb);
    return !strcmp(pa, pb);
}

/* The simulator's --plot DIR among args[0..n) naming the run's own folder:
 * 1 after the message.  nsmc run draws its plots in its folder itself; the
 * simulator's --plot there was refused as "another run (process N)", N
 * being nsmc run itself, which holds the folder's lock. */
static int run_args_not_plotdir(const char *const *args, int n, const char *dir)
{
    for (int i = 0; i + 1 < n; i++) {
        if (strcmp(args[i], "--plot") || !run_same_dir(args[i + 1], dir))
            continue;
        fprintf(stderr, "nsmc: error: the simulator's --plot '%s' names this run's own folder "
                "(--out-dir '%s'), where nsmc run draws the plots itself: leave out the "
                "simulator's --plot, or give it another folder\n", args[i + 1], dir);
        return 1;
    }
    return 0;
}

/* Refuses, before anything is written, an output that is one of the run's
 * inputs (the model's file, the parameter file) or one of the files the
 * run writes in its folder itself: 1 after the message. */
static int run_outputs_check(const RunOptions *o, const char *dir, Arena *a)
{
    if (run_args_not_own(o->sim, o->nsim, dir, a) ||
        run_args_not_own((const char *const *)o->extra, o->nextra, dir, a) ||
        run_args_not_plotdir(o->sim, o->nsim, dir) ||
        run_args_not_plotdir((const char *const *)o->extra, o->nextra, dir))
        return 1;
    const char *inpath[2] = { o->input, o->set_file };
    const char *what[2] = { "model file", "parameter file" };
    for (int k = 0; k < 2; k++) {
        struct stat in;
        if (!inpath[k] || stat(inpath[k], &in) != 0 || !S_ISREG(in.st_mode))
            continue;
        if (run_output_is_input("--out", o->h5, &in, what[k], inpath[k]) ||
            run_args_not_input(o->sim, o->nsim, &in, what[k], inpath[k]) ||
            run_args_not_input((const char *const *)o->extra, o->nextra, &in, what[k],
                               inpath[k]))
            return 1;
        for (size_t f = 0; f < RUN_NFILES; f++)
            if (run_own_is_input(arena_printf(a, "%s/%s", dir, run_files[f]), dir, &in, what[k],
                                 inpath[k]))
                return 1;
    }
    return 0;
}

/* The default output folder of a run of the model called name: out/NAME,
 * or, for a name of more than 100 bytes, out/ and its first 100 bytes
 * with "-" and eight hexadecimal digits of a hash of the whole name (two
 * names cut alike kept apart), said in a note: a folder's name may not
 * pass 255 bytes, and a model named with more was refused there ("File
 * name too long") unless --out-dir was given.  The cut is the cache
 * entry's (cache_name), so that a long name is cut alike everywhere. */
static const char *run_default_dir(const char *name, Arena *a)
{
    enum { DIR_NAME_MAX = 100 };
    size_t n = strlen(name);
    if (n <= DIR_NAME_MAX)
        return arena_printf(a, "out/%s", name);
    uint64_t h = hash_bytes(14695981039346656037u, name, n);
    const char *dir = arena_printf(a, "out/%.*s-%08x", (int)DIR_NAME_MAX, name,
                                   (unsigned)(h ^ (h >> 32)));
    fprintf(stderr, "nsmc: note: the model's name has %zu characters, more than the %d a "
            "default output folder's name keeps: this run's results go to '%s' (--out-dir "
            "chooses another folder)\n", n, (int)DIR_NAME_MAX, dir);
    return dir;
}

/* A stop request that came after the simulator had run (the results
 * whole, before or after the figures): said, and 128 + the signal, so that
 * nsmc ends as the request asked, with its lock removed on the way out. */
static int run_stopped_after(const char *dir)
{
    fprintf(stderr, "nsmc: interrupted by %s after the run; the results in %s are whole\n",
            sig_text(got_signal), dir);
    return 128 + got_signal;
}

/* `nsmc run`; see the top of this file. */
static int run(const RunOptions *o, Arena *a)
{
    const Model *m = NULL;
    size_t clen = 0;
    int status;
    char err[1024];
    if (o->set_file && setfile_read(o->set_file, accept_set, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "nsmc: error: %s\n", err);
        return 1;
    }
    char *ctext = generate(o->input, a, &m, &clen, &status);
    if (!ctext)
        return status;
    const char *bin = build("simulator", m->name, ctext, clen, o, NULL, a, &status);
    if (!bin)
        return status;
    const char *dir = o->out_dir ? o->out_dir : run_default_dir(m->name, a);
    if (outdir_path_check("nsmc", dir) || run_outputs_check(o, dir, a))
        return 1;
    if (outdir_make_dirs(dir) != 0) {
        char why[8400];
        int e = errno;
        fprintf(stderr, "nsmc: error: cannot create the output folder '%s': %s\n", dir,
                outdir_dangling(dir, why, sizeof why) ? why : strerror(e));
        return 1;
    }
    if (outdir_lock_take("nsmc", dir) < 0) {
        outdir_unmake();
        return 1;
    }
    outdir_made_note(dir);     /* removed at the end when it holds nothing else */
    /* compared again now that the folder is there, by device and inode:
     * `-- --stats /abs/D/plot.png` into a D not yet made was compared as
     * text with D/plot.png, ran, and the figures took the statistics'
     * place, exit 0 (the lock and the folder made go at the exit) */
    if (run_args_not_own((const char *const *)o->sim, o->nsim, dir, a) ||
        run_args_not_own((const char *const *)o->extra, o->nextra, dir, a))
        return 1;
    /* the figures, scripts and logs are replaced whole (or removed as an
     * earlier run's): a FIFO there was removed, or hung the simulator that
     * opened it (animation.gp), deaf to SIGTERM */
    for (size_t i = RUN_FIRST_FIGURE; i < RUN_NFILES; i++)
        if (outdir_result_check("nsmc", arena_printf(a, "%s/%s", dir, run_files[i])))
            return 1;
    struct stat dir_id;
    outdir_id_take(dir, &dir_id);
    const char *traj = arena_printf(a, "%s/trajectory.csv", dir);
    const char *ev = arena_printf(a, "%s/events.csv", dir);
    /* an earlier run's files stay until the simulator has accepted every
     * option and opened its outputs (it empties them then): a refused
     * option leaves them as they were */

    ArgList *args = arena_alloc(a, sizeof *args);
    args->n = 0;
    args_add(args, bin);
    args_add_pair(args, "--events", ev, a);
    args_add_pair(args, "--out", traj, a);
    if (o->h5)
        args_add_pair(args, "--out", o->h5, a);
    if (o->animate)
        args_add_pair(args, "--animate", arena_printf(a, "%s/animation.gif", dir), a);
    if (o->set_file && !o->set_file_extra)     /* else given among the words after "--" */
        args_add_pair(args, "--set-file", o->set_file, a);
    for (int i = 0; i < o->nsets; i++)
        if (args_add(args, "--set") || args_add(args, o->sets[i])) {
            fputs("nsmc: error: too many --set options\n", stderr);
            return 1;
        }
    if (!o->quiet && !user_table(o) && args_add(args, "--table"))
        return 1;
    for (int i = 0; i < o->nsim; i++) {
        int pair = in_list(o->sim[i], sim_valued, sizeof sim_valued / sizeof *sim_valued);
        if (pair ? args_add_pair(args, o->sim[i], o->sim[i + 1], a) : args_add(args, o->sim[i])) {
            fputs("nsmc: error: too many simulator arguments\n", stderr);
            return 1;
        }
        i += pair;      /* its value, added with it */
    }
    for (int i = 0; i < o->nextra; i++) {
        int pair = i + 1 < o->nextra && o->xattached[i + 1];
        if (pair ? args_add_pair(args, o->extra[i], o->extra[i + 1], a)
                 : args_add(args, o->extra[i])) {
            fputs("nsmc: error: too many simulator arguments\n", stderr);
            return 1;
        }
        i += pair;      /* the value split from it, given back with it */
    }
    int pfd[2] = {-1, -1};
    if (pipe(pfd) != 0) {
        fprintf(stderr, "nsmc: internal error: cannot create a pipe: %s\n", strerror(errno));
        return 2;
    }
    fcntl(pfd[0], F_SETFD, FD_CLOEXEC);
    fcntl(pfd[0], F_SETFL, O_NONBLOCK);
    int sig, rc = spawn(args, 0, pfd[1], 1, &sig);
    char report[512];     /* every report line at once fits */
    close(pfd[1]);
    read_report(pfd[0], report, sizeof report);
    close(pfd[0]);
    if (outdir_moved(dir, &dir_id))
        return run_moved_said(rc, sig, dir);
    int end = run_outcome(rc, sig, report, bin, dir, o->h5);
    if (end >= 0)
        return end;
    /* exit 1 after the run, its outputs whole (the animation could not be
     * drawn: a file-size limit, its folder taken): the run is summarised
     * and its figures drawn, exit 1 at the end.  Taken for a refusal, it
     * ended without a word and left an earlier run's figures beside this
     * run's trajectory. */
    int figure_failed = rc == 1 && strstr(report, "figure-failed") != NULL;
    if (rc != 0 && rc != 3 && !figure_failed)
        return rc == 127 ? 2 : 1;   /* bad arguments: the simulator said which */
    for (int i = 0; i < o->nextra; i++)
        if (!strcmp(o->extra[i], "--help") || !strcmp(o->extra[i], "-h"))
            return rc;              /* the simulator printed its help, ran nothing */
    if (rc == 0 && !strstr(report, "outputs-open"))
        return run_not_simulator(bin);
    if (strstr(report, "result-replaced")) {
        remove_old_plots(dir, a, o->animate);
        run_replaced_said(report, traj, ev);
        return 1;
    }
    if (rc == 0 && (run_result_gone(traj) || run_result_gone(ev))) {
        remove_old_plots(dir, a, o->animate);
        run_gone_said(traj, ev);
        return 1;
    }
    if (!file_exists(traj) && !run_result_unread(traj))
        return rc;
    if (run_result_unread(traj) || run_result_unread(ev)) {
        remove_old_plots(dir, a, o->animate);
        run_unread_said(traj, ev);
        return rc;
    }
    /* the new run's are drawn below (the simulator drew the animation, or
     * failed to: an earlier run's GIF does not stay as this run's) */
    remove_old_plots(dir, a, o->animate && !strstr(report, "figure-failed anim"));
    run_studies_remove(o, dir);
    FILE *said = run_stdout_csv(args) ? stderr : stdout;
    summarize_events(ev, said);
    summarize_energy(traj, energy_error_column(m), report, rc, said);
    results_said(o, dir, a, said);
    if (got_signal)
        return run_stopped_after(dir);
    int figs_failed = 0;
    if (o->plot && plot_stoppable(o, m, dir, a, &figs_failed, said))
        return 128 + got_signal;
    if (got_signal)
        return run_stopped_after(dir);
    if (out_stdout_check("nsmc"))
        return rc ? rc : 1;
    if (rc == 3)
        fprintf(stderr, "nsmc: the simulation failed; the results hold what was computed up "
                "to the failure\n");
    return rc ? rc : figs_failed;
}

/* Entry from main.c for `nsmc run ...` (argv[0] is "run"); returns the exit status. */
int run_main(int argc, char **argv)
{
    run_stop_catch();
    Arena *a = arena_new();
    RunOptions o;
    memset(&o, 0, sizeof o);
    int rc = run_parse_args(argc, argv, &o, a);
    if (rc < 0)
        rc = run(&o, a);
    arena_free(a);
    return rc;
}

/* The model's C text with the main of a study program (main_fn, e.g.
 * nsm_sweep_main) instead of the simulator's, built (cached) like a
 * simulator under the name MODEL-suffix with the extra libraries libs.
 * Returns the program's path in a, or NULL with *status set after a
 * message. */
static const char *build_study(const char *input, int verbose, Arena *a, int *status,
                               const char *what, const char *main_fn, const char *suffix,
                               const char *libs)
{
    const Model *m = NULL;
    size_t clen = 0;
    char *ctext = generate(input, a, &m, &clen, status);
    if (!ctext)
        return NULL;
    static const char tag[] = "return nsm_main(&";
    const char *at = strstr(ctext, tag), *end = at ? strchr(at, ',') : NULL;
    if (!end) {
        fputs("nsmc: internal error: the generated C has no simulator main\n", stderr);
        *status = 2;
        return NULL;
    }
    at += sizeof tag - 1;
    char *text = arena_printf(a, "#define NSM_NO_MAIN 1\n%s\nint %s(const nsm_model *m, "
                              "int argc, char **argv);\nint main(int argc, char **argv) { return "
                              "%s(&%.*s, argc, argv); }\n", ctext, main_fn, main_fn,
                              (int)(end - at), at);
    RunOptions o;
    memset(&o, 0, sizeof o);
    o.verbose = verbose;
    return build(what, arena_printf(a, "%s-%s", m->name, suffix), text, strlen(text), &o, libs, a,
                 status);
}

/* For `nsmc sweep` (sweep.c): the sweep program, with the threads and MPI
 * libraries besides. */
const char *run_build_sweep(const char *input, int verbose, Arena *a, int *status)
{
    return build_study(input, verbose, a, status, "sweep program", "nsm_sweep_main", "sweep",
                       NSM_SWEEP_LIBS);
}

/* For `nsmc continue` (continue.c): the continuation program. */
const char *run_build_continue(const char *input, int verbose, Arena *a, int *status)
{
    return build_study(input, verbose, a, status, "continuation program", "nsm_continue_main",
                       "continue", "");
}

/* `nsmc --datadir`: where the models and examples are, <prefix>/<datadir>/nsm
 * for an installed nsmc, the source tree for one in its build tree.  Returns
 * the exit status after printing it (or a message). */
int run_datadir(void)
{
    Arena *a = arena_new();
    const char *bindir = exe_dir(a), *dir = NULL;
    if (bindir && in_build_tree(bindir, a))
        dir = NSM_PATH_SOURCE_DIR;
    else if (bindir)
        dir = NSM_PATH_DATADIR[0] == '/' ? arena_printf(a, "%s/nsm", NSM_PATH_DATADIR)
              : arena_printf(a, "%s/%s/nsm", install_prefix(bindir, a), NSM_PATH_DATADIR);
    struct stat st;
    int rc = 2;
    if (dir && stat(arena_printf(a, "%s/models", dir), &st) == 0 && S_ISDIR(st.st_mode)) {
        printf("%s\n", dir);
        rc = fflush(stdout) != 0 || ferror(stdout);
    } else if (dir) {
        fprintf(stderr, "nsmc: error: no models in %s: is nsm installed completely?\n", dir);
    }
    arena_free(a);
    return rc;
}

/* Whether name is a cache entry's folder: NAME-<16 hex digits>. */
static int cache_entry_name(const char *name)
{
    size_t n = strlen(name);
    if (n < 18 || name[n - 17] != '-')
        return 0;
    for (size_t i = n - 16; i < n; i++)
        if (!strchr("0123456789abcdef", name[i]))
            return 0;
    return 1;
}

/* Removes one cache entry, its lock held (cache_entry_take): its files
 * (the entry holds no folders), its lock file last, then the folder.
 * Returns the bytes freed (the folder gone, by this call or by another
 * clean once the lock file was gone), -1 (errno set) when a file could not
 * be removed, or -2 (errno ENOTEMPTY) when a builder or another clean made
 * the entry again once its lock file was gone (the folder is then
 * theirs).  The lock file was removed among the others: a builder could
 * then make and lock a new one while the clean went on removing the
 * entry's files, the builder's own among them, and the folder; its
 * compile then failed, "cannot write the simulator's cache", and `nsmc run`
 * exited 1. */
static long long cache_remove_entry(const char *dir, Arena *a)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    long long freed = 0;
    int failed = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, ".lock"))
            continue;
        const char *path = arena_printf(a, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) != 0)
            continue;       /* gone meanwhile */
        if (!S_ISDIR(st.st_mode) && unlink(path) == 0)
            freed += S_ISREG(st.st_mode) ? (long long)st.st_size : 0;
        else if (S_ISDIR(st.st_mode) || errno != ENOENT)
            failed = 1;
    }
    closedir(d);
    unlink(arena_printf(a, "%s/.lock", dir));
    if (rmdir(dir) == 0 || errno == ENOENT)
        return freed;
    return (errno == ENOTEMPTY || errno == EEXIST) && !failed ? -2 : -1;
}

/* Takes the lock of cache entry dir for its removal, without waiting:
 * another nsmc holding it is building or checking the entry (removing its
 * files under it failed that build).  The lock file is made when it is
 * not there: an entry without one is being made (between its folder and
 * its lock) or removed by another clean, and a clean that removed it
 * without a lock removed the lock file and the files of a builder that had
 * just made and locked them (nsm.compile beside two cleans: "cannot write
 * the model's cache ...: No such file or directory").  Returns the lock's
 * descriptor (close it once the entry is removed; a builder waiting on it
 * then finds its lock file gone and makes the entry again, cache_lock),
 * -1 when no lock file can be opened, -3 when the folder is gone, or -2
 * when it is busy. */
static int cache_entry_take(const char *dir, Arena *a)
{
    int fd = open(arena_printf(a, "%s/.lock", dir), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
                  0666);
    if (fd < 0)
        return errno == ENOENT ? -3 : -1;
    /* nsmc's builders lock with fcntl, the Python package's with flock */
    struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    if (fcntl(fd, F_SETLK, &fl) != 0 || (flock(fd, LOCK_EX | LOCK_NB) != 0 && errno ==
                                          EWOULDBLOCK)) {
        close(fd);
        return -2;
    }
    return fd;
}

/* `nsmc cache clean`: removes every cached simulator and sweep program (the
 * folders NAME-HASH under the cache root; nothing else there is touched).
 * Returns the exit status. */
static int cache_clean(void)
{
    Arena *a = arena_new();
    const char *root = cache_root(a);
    DIR *d = opendir(root);
    if (!d) {
        int missing = errno == ENOENT;
        if (missing)
            printf("nsmc: the cache %s is empty\n", root);
        else
            fprintf(stderr, "nsmc: error: cannot read the cache %s: %s\n", root, strerror(errno));
        arena_free(a);
        return missing ? 0 : 1;
    }
    long entries = 0, kept = 0, busy = 0;
    long long freed = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *path = arena_printf(a, "%s/%s", root, e->d_name);
        struct stat st;
        if (!cache_entry_name(e->d_name) || lstat(path, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        int lock = cache_entry_take(path, a);
        if (lock == -3)
            continue;       /* removed meanwhile by another clean */
        if (lock == -2) {
            busy++;
            continue;
        }
        long long f = cache_remove_entry(path, a);
        if (lock >= 0)
            close(lock);
        if (f == -2)
            busy++;         /* made again by a builder as it was removed */
        else if (f < 0)
            kept++;
        else {
            entries++;
            freed += f;
        }
    }
    closedir(d);
    printf("nsmc: removed %ld cached program%s (%.1f MB) from %s\n", entries,
           entries == 1 ? "" : "s", (double)freed / 1e6, root);
    if (busy)
        printf("nsmc: kept %ld entr%s that another nsmc or Python compile is building or "
               "using now\n", busy, busy == 1 ? "y" : "ies");
    if (out_stdout_check("nsmc"))    /* it exited 0 onto a full disk */
        kept = kept ? kept : -1;
    if (kept > 0)
        fprintf(stderr, "nsmc: error: %ld cache entr%s could not be removed completely\n", kept,
                kept == 1 ? "y" : "ies");
    arena_free(a);
    return kept ? 1 : 0;
}

/* Entry from main.c for `nsmc cache ...` (argv[0] is "cache"). */
int run_cache_main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "clean"))
        return cache_clean();
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        puts("usage: nsmc cache clean    remove every cached simulator and sweep program\n"
             "                           ($XDG_CACHE_HOME/nsm, default ~/.cache/nsm)");
        return 0;
    }
    if (argc > 2 && (!strcmp(argv[1], "clean") || !strcmp(argv[1], "--help") ||
                     !strcmp(argv[1], "-h")))
        fprintf(stderr, "nsmc: error: 'cache %s' takes no other argument ('%s' given)\n",
                argv[1], argv[2]);
    fputs("nsmc: error: usage: nsmc cache clean\n", stderr);
    return 1;
}

/* Runs a study program in place of nsmc; see run.h.  One place for what
** `nsmc sweep` and `nsmc continue` both do once their program is built. */
/* The study program's arguments (NULL-terminated, malloc'ed): its name
 * "nsmc WHAT" in name, then argv[1..] less the model file input and nsmc's
 * own -v (a word of its own, not an option's value: `--out-dir -v` lost
 * its -v, as run_study_args takes it).  NULL after a message when out of
 * memory. */
static char **program_args(char *name, size_t len, const char *what, int argc, char **argv,
                           const char *input)
{
    char **args = calloc((size_t)argc + 1, sizeof *args);
    if (!args) {
        fputs("nsmc: error: out of memory\n", stderr);
        return NULL;
    }
    snprintf(name, len, "nsmc %s", what);
    int (*valued)(const char *) = strcmp(what, "sweep") ? cli_continue_valued
                                                        : cli_sweep_valued;
    int n = 0;
    args[n++] = name;
    for (int i = 1; i < argc; i++) {
        if (argv[i] != input && strcmp(argv[i], "-v"))
            args[n++] = argv[i];
        if (valued(argv[i]) && i + 1 < argc)
            args[n++] = argv[++i];
    }
    args[n] = NULL;
    return args;
}

/* Checks the words the study program will get (program_args) with check
 * (nsm_sweep_words_check, nsm_continue_words_check) before it is built:
 * an unknown option was refused only after the compile.  0, or the exit
 * status after the message. */
int run_program_words(const char *what, int argc, char **argv, const char *input,
                      int (*check)(int, char **))
{
    char name[32];
    char **args = program_args(name, sizeof name, what, argc, argv, input);
    if (!args)
        return 2;
    int n = 0;
    while (args[n])
        n++;
    int rc = check(n, args);
    free(args);
    return rc;
}

/* Refuses a model file that the study would write over or remove in its
 * output folder (outdir_names_file): `nsmc sweep D/summary.csv --out-dir
 * D` compiled the model, then replaced it by the sweep's summary, and
 * `nsmc continue D/section.csv --out-dir D` removed it as an earlier
 * sweep's section, exit 0.  The folder is taken in both forms: given as
 * --out-dir=D, the model D/summary.csv was replaced, exit 0.  0, or 1
 * after the message. */
int run_study_input_check(const char *what, int argc, char **argv, const char *input,
                          int (*valued)(const char *))
{
    struct stat in;
    if (stat(input, &in) != 0 || !S_ISREG(in.st_mode))
        return 0;       /* the compile names what is wrong with it */
    for (int i = 1; i < argc; i++) {
        const char *dir = !strncmp(argv[i], "--out-dir=", 10) ? argv[i] + 10
                        : !strcmp(argv[i], "--out-dir") && i + 1 < argc ? argv[i + 1] : NULL;
        if (!dir) {
            if (valued(argv[i]))
                i++;
            continue;
        }
        if (!outdir_names_file(dir, &in))
            return 0;
        fprintf(stderr, "nsmc %s: error: the model file '%s' is a file that the %s writes or "
                "removes in its output folder '%s': move the model out of the folder or "
                "rename it\n", what, input,
                strcmp(what, "continue") ? "sweep" : "continuation", dir);
        return 1;
    }
    return 0;
}

int run_exec_program(const char *bin, const char *what, int argc, char **argv,
                     const char *input, Arena *a)
{
    char name[32];
    char **args = program_args(name, sizeof name, what, argc, argv, input);
    if (!args) {
        arena_free(a);
        return 2;
    }
    fflush(NULL);
    /* the stop signals stay blocked across the exec until the program's
     * handlers exist (it unblocks them then): a request in between waits
     * instead of ending it without a word, and one that came while nsmc
     * built the program is made pending again, for the program to take as
     * its first stop, said and with the folder left as documented */
    sigset_t stops;
    stop_set(&stops);
    sigprocmask(SIG_BLOCK, &stops, NULL);
    if (got_signal)
        kill(getpid(), got_signal);
    execv(bin, args);
    sigprocmask(SIG_UNBLOCK, &stops, NULL);
    fprintf(stderr, "nsmc: internal error: cannot run the %s program %s: %s\n",
            strcmp(what, "continue") ? what : "continuation", bin, strerror(errno));
    free(args);
    arena_free(a);
    return 2;
}

/* The model, -v and --help of a study command (see run.h); every other
 * word is its program's, which checks it.  The model is the first word
 * that is neither an option nor an option's value, wherever it stands, as
 * nsmc run takes it: `nsmc sweep --out-dir=D M.nsm ...` was refused as
 * "no model file given". */
int run_study_args(int argc, char **argv, const char **input, int *verbose,
                   int (*valued)(const char *))
{
    if (run_help_refused(argv[0], argc, argv, valued))
        return -1;
    int help = 0;
    for (int i = 1; i < argc; i++) {
        if (valued(argv[i])) {
            i++;            /* its value, the program's to judge */
            continue;
        }
        if (!strcmp(argv[i], "-v") && *verbose) {
            fputs("nsmc: error: option -v is given twice: give each option once\n", stderr);
            return -1;      /* taken without a word, where the program refuses its flags twice */
        }
        if (!strcmp(argv[i], "-v"))
            *verbose = 1;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            help = 1;
        else if (!*input && argv[i][0] != '-')
            *input = argv[i];
    }
    return help;
}
