/*
 * main.c - the nsmc command line.
 *
 *     source → parse → sema → derive → emit
 *
 * Exit status: 0 success, 1 an error in the model or the command line,
 * 2 an internal error.  A failed compilation leaves no output file; -o
 * never replaces what is not a regular file (see write_output_text), and
 * every write, to a file or to stdout, is checked.
 */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena.h"
#include "derive.h"
#include "diag.h"
#include "emit.h"
#include "outdir.h"
#include "parse.h"
#include "run.h"
#include "sema.h"
#include "source.h"

typedef enum Action { ACT_COMPILE, ACT_CHECK, ACT_TOKENS, ACT_AST, ACT_EQUATIONS } Action;

typedef struct Options {
    Action action;
    EqFormat format;
    const char *input, *output;
    const char *action_opt, *format_opt; /* as given, to name them in a refusal */
} Options;

static void usage(FILE *out)
{
    fputs("usage: nsmc FILE.nsm [-o FILE.c]          compile a model to a C simulator\n"
          "       nsmc --check FILE.nsm               check a model\n"
          "       nsmc --dump=tokens|ast FILE.nsm     print the tokens or the syntax tree\n"
          "       nsmc --emit=equations [--format=text|markdown] [-o FILE] FILE.nsm\n"
          "       nsmc run FILE.nsm [OPTIONS] [-- SIMULATOR OPTIONS]\n"
          "       nsmc sweep FILE.nsm --param NAME=START:STOP:COUNT --section SPEC\n"
          "                --out-dir DIR [OPTIONS]\n"
          "       nsmc continue FILE.nsm --param NAME=FROM:TO --out-dir DIR [OPTIONS]\n"
          "       nsmc cache clean | nsmc --datadir | nsmc --help | nsmc --version\n"
          "\n"
          "Compiling:\n"
          "  -o FILE                 write the C simulator (or the equations) to FILE\n"
          "                          (- for standard output)\n"
          "                          (default: the model's file name with .c, here)\n"
          "  --check                 check the model; print nothing when it is valid\n"
          "  --dump=tokens           print the tokens, one a line\n"
          "  --dump=ast              print the syntax tree\n"
          "  --emit=equations        print every mode's derived equations\n"
          "  --format=text           the equations as plain text\n"
          "  --format=markdown       the equations as Markdown (the default)\n"
          "  --datadir               print where the installed models and examples are\n"
          "  -h, --help              this text\n"
          "  --version               print nsmc's version\n"
          "\n"
          "nsmc run: compile, build (cached), run, print the events, plot into out/NAME/\n"
          "  (all options: nsmc run --help)\n"
          "  --out-dir DIR           where the results go\n"
          "  --set NAME=VALUE        override a parameter (SI, or with a unit: 'k=2 N/m')\n"
          "  --set-file FILE         overrides from a file of NAME = VALUE lines\n"
          "  --plot, --no-plot       draw the plots (default) or not\n"
          "  --phase                 also draw phase portraits\n"
          "  -q, --quiet             no event table\n"
          "  --events-max N          at most N rows of the event table\n"
          "  -v, --verbose           show the C compiler's command\n"
          "  --t-end, --dt, --method, --every, ...: the simulator's options (nsmc run\n"
          "                          FILE.nsm -- --help lists them)\n"
          "\n"
          "nsmc sweep: Poincare sections over a parameter grid, summary, bifurcation\n"
          "  diagram, Floquet multipliers (docs/studies.md; nsmc sweep FILE.nsm --help)\n"
          "  --param NAME=START:STOP:COUNT  a grid axis (repeatable)\n"
          "  --section SPEC          impact:GAP, period:EXPR[:T0] or plane:EXPR[:up|down|both]\n"
          "  --out-dir DIR           where the results go\n"
          "  --section-period EXPR   measure the records' phase in periods EXPR\n"
          "  --t-max EXPR            end of a point's run (default: the model's t_end)\n"
          "  --transient N           section records dropped as the transient (100)\n"
          "  --record N              section records kept after the transient (100)\n"
          "  --continue up|down|both start each point from its neighbour's end state\n"
          "  --floquet               the periodic orbits' Floquet multipliers\n"
          "  --lyapunov              the largest Lyapunov exponent per point (over\n"
          "                          --lyapunov-periods N forcing periods, 200)\n"
          "  --basin BODY.x=A:B:N    a grid axis of initial states (twice, instead of\n"
          "                          --param): each point classified by its attractor\n"
          "  --basin-tol TOL         section points within TOL (relative): one attractor\n"
          "  --basin-pilot N         reference orbits from a pilot lattice of at most N\n"
          "                          values per axis (16; 0: every run to its own repeat)\n"
          "  --method M              rk4, adaptive, exact or taylor\n"
          "  --set NAME=VALUE        a parameter held fixed over the grid\n"
          "  --plot COLUMN           the column of the bifurcation diagram\n"
          "  --jobs N                threads (and MPI ranks under mpirun)\n"
          "  -v                      show the C compiler's command\n"
          "\n", out);
    fputs("nsmc continue: periodic orbits followed in one parameter by pseudo-arclength\n"
          "  continuation, stable and unstable, folds, period doublings, Neimark-Sacker\n"
          "  points and grazings located (docs/studies.md; nsmc continue --help)\n"
          "  --param NAME=FROM:TO    the parameter and its range\n"
          "  --period EXPR           the forcing period (default 2*pi/omega)\n"
          "  --out-dir DIR           where branch.csv and the diagram go\n"
          "  --switch-pd             on along the doubled orbit at the first period doubling\n"
          "  --curve fold|flip|grazing --param2 NAME2=FROM:TO\n"
          "                          the curve of such points in two parameters (curve.csv)\n"
          "\n"
          "nsmc cache clean          remove the cached simulators ($XDG_CACHE_HOME/nsm)\n"
          "exit status: 0 ok, 1 error in the model or the command line, 2 internal error\n",
          out);
}

/* Takes the action an option asks for; refuses a second one (the last won,
 * so `--emit=equations --check` printed nothing and exited 0). */
static bool action_take(Options *o, Action act, const char *opt)
{
    if (o->action_opt) {
        if (o->action == act)
            fprintf(stderr, "nsmc: error: '%s' is given twice\n", opt);
        else
            fprintf(stderr, "nsmc: error: '%s' and '%s' ask for different things; give one\n",
                    o->action_opt, opt);
        return false;
    }
    o->action = act;
    o->action_opt = opt;
    return true;
}

/* Takes the equations' format; refuses a second one (the last won). */
static bool format_take(Options *o, EqFormat format, const char *opt)
{
    if (o->format_opt) {
        fprintf(stderr, "nsmc: error: '%s' and '%s': the format is given twice\n", o->format_opt,
                opt);
        return false;
    }
    o->format = format;
    o->format_opt = opt;
    return true;
}

/* Whether an option was given that the action does not use (said, as an
 * error): `--check -o FILE` and `--dump=ast -o FILE` wrote no FILE and
 * exited 0, `--format` without --emit=equations wrote the C simulator. */
static bool options_unused(const Options *o)
{
    if (o->output && (o->action == ACT_CHECK || o->action == ACT_TOKENS || o->action == ACT_AST)) {
        fprintf(stderr, "nsmc: error: '-o %s' is not taken by '%s', which %s\n", o->output,
                o->action_opt, o->action == ACT_CHECK ? "writes nothing"
                                                      : "prints to standard output (use > FILE)");
        return true;
    }
    if (o->format_opt && o->action != ACT_EQUATIONS) {
        fprintf(stderr, "nsmc: error: '%s' is the format of --emit=equations, which is not "
                "given\n", o->format_opt);
        return true;
    }
    return false;
}

/* Whether a is one of the options that stand alone (--help, -h, --datadir,
 * --version): given with any other argument, it is refused with the usage
 * line (`nsmc --version extra` answered the first and ignored the rest). */
static bool alone_refused(const char *a, int argc)
{
    if (argc == 2 || (strcmp(a, "--help") && strcmp(a, "-h") && strcmp(a, "--datadir") &&
                      strcmp(a, "--version")))
        return false;
    fprintf(stderr, "nsmc: error: '%s' takes no other argument (%d given beside it)\n"
            "usage: nsmc --help | nsmc --version | nsmc --datadir | nsmc cache clean\n", a,
            argc - 2);
    return true;
}

/* Whether the value of -o looks like an option (begins with '-' and is not
 * "-", standard output), said in the words the other programs use for an
 * option's value (cli_value_refuse): `nsmc M.nsm -o --help` wrote the
 * simulator to a file named --help.  nsmc has no attached form for -o, so
 * the one form offered for a name beginning with '-' is ./NAME. */
static bool output_optionlike(const char *val)
{
    if (val[0] != '-' || val[1] == '\0')
        return false;
    fprintf(stderr, "nsmc: error: option -o takes a file name, not '%s', which looks like an "
            "option (the value is missing?); a name beginning with '-' is given as -o ./%s\n",
            val, val);
    return true;
}

/* Parses the command line; returns -1 to go on, else an exit status. */
static int parse_args(int argc, char **argv, Options *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (alone_refused(a, argc)) {
            return 1;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--datadir") == 0) {
            return run_datadir();
        } else if (strcmp(a, "--version") == 0) {
            printf("nsmc %s\n", NSM_VERSION);
            return 0;
        } else if (strcmp(a, "--check") == 0) {
            if (!action_take(o, ACT_CHECK, a))
                return 1;
        } else if (strcmp(a, "--dump=tokens") == 0) {
            if (!action_take(o, ACT_TOKENS, a))
                return 1;
        } else if (strcmp(a, "--dump=ast") == 0) {
            if (!action_take(o, ACT_AST, a))
                return 1;
        } else if (strcmp(a, "--emit=equations") == 0) {
            if (!action_take(o, ACT_EQUATIONS, a))
                return 1;
        } else if (strcmp(a, "--format=text") == 0) {
            if (!format_take(o, EQ_TEXT, a))
                return 1;
        } else if (strcmp(a, "--format=markdown") == 0) {
            if (!format_take(o, EQ_MARKDOWN, a))
                return 1;
        } else if (strcmp(a, "-o") == 0) {
            if (++i == argc) {
                fputs("nsmc: error: '-o' needs a file name\n", stderr);
                return 1;
            }
            if (output_optionlike(argv[i]))
                return 1;
            if (o->output) {    /* the first was silently dropped */
                fprintf(stderr, "nsmc: error: '-o' is given twice ('%s' and '%s')\n", o->output,
                        argv[i]);
                return 1;
            }
            o->output = argv[i];
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "nsmc: error: unknown option '%s' (see nsmc --help)\n", a);
            return 1;
        } else if (o->input) {
            fprintf(stderr, "nsmc: error: more than one input file ('%s' and '%s')\n", o->input, a);
            return 1;
        } else {
            o->input = a;
        }
    }
    if (!o->input) {
        fputs("nsmc: error: no input file (see nsmc --help)\n", stderr);
        return 1;
    }
    return options_unused(o) ? 1 : -1;
}

/* The default output file: the input's base name with ".c", in the current directory. */
static char *default_output(Arena *a, const char *input)
{
    const char *b = strrchr(input, '/');
    b = b ? b + 1 : input;
    size_t n = strlen(b);
    if (n > 4 && strcmp(b + n - 4, ".nsm") == 0)
        n -= 4;
    return arena_printf(a, "%.*s.c", (int)n, b);
}

/* Writes n bytes to the open descriptor fd; 0, or -1 with errno set. */
static int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Replaces the regular file (or new name) path by text through a temporary
 * file in the same directory, renamed into place, so no half-written file
 * is ever left.  Returns 0, or 1 after a message naming shown. */
static int replace_file(const char *path, const char *shown, const char *text, size_t n, Arena *a)
{
    /* the temporary's name is the file's, cut to leave room for its suffix
     * within NAME_MAX (255): a name the system takes is not refused for
     * its temporary's */
    const char *slash = strrchr(path, '/');
    int dirlen = slash ? (int)(slash - path) + 1 : 0, base = (int)strlen(path + dirlen);
    char *tmp = arena_printf(a, "%.*s%.*s.tmpXXXXXX", dirlen, path, base < 240 ? base : 240,
                             path + dirlen);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(stderr, "nsmc: error: cannot write '%s': %s\n", shown, strerror(errno));
        return 1;
    }
    mode_t mask = umask(0); /* mkstemp creates 0600; give the usual permissions */
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    int bad = write_all(fd, text, n) != 0;
    int e = errno;
    if (close(fd) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (!bad && rename(tmp, path) != 0) {
        bad = 1;
        e = errno;
    }
    if (!bad)
        return 0;
    unlink(tmp);
    fprintf(stderr, "nsmc: error: cannot write '%s': %s\n", shown, strerror(e));
    return 1;
}

/* Writes text to path without replacing what is not a regular file: a FIFO
 * or a character device (/dev/null, a terminal) is written directly, a
 * symbolic link's target is replaced (the link stays), anything else is
 * refused.  Returns 0 or 1 after a message. */
static int write_output_text(const char *path, const char *text, size_t n, Arena *a)
{
    struct stat st;
    char target[PATH_MAX];
    if (out_link_target("nsmc", path, target, sizeof target))
        return 1;
    if (stat(target, &st) != 0) {
        if (errno != ENOENT) {
            fprintf(stderr, "nsmc: error: cannot write '%s': %s\n", path, strerror(errno));
            return 1;
        }
        return replace_file(target, path, text, n, a);
    }
    if (S_ISREG(st.st_mode))
        return replace_file(target, path, text, n, a);
    if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
        int fd = open(target, O_WRONLY | O_CLOEXEC);
        int bad = fd < 0 || write_all(fd, text, n) != 0;
        int e = errno;
        if (fd >= 0 && close(fd) != 0 && !bad) {
            bad = 1;
            e = errno;
        }
        if (bad)
            fprintf(stderr, "nsmc: error: cannot write '%s': %s\n", path, strerror(e));
        return bad;
    }
    fprintf(stderr, "nsmc: error: cannot write '%s': %s\n", path,
            S_ISDIR(st.st_mode) ? "it is a directory" : "it is not a regular file, FIFO or "
            "character device");
    return 1;
}

/* Whether path names the model being compiled (the same file, also
 * through a link): `nsmc m.nsm -o m.nsm` replaced the model by its C
 * simulator, exit 0.  1 after a message, else 0. */
static int output_is_input(const char *path, const char *input)
{
    struct stat so, si;
    if (stat(path, &so) != 0 || stat(input, &si) != 0 || so.st_dev != si.st_dev ||
        so.st_ino != si.st_ino)
        return 0;
    fprintf(stderr, "nsmc: error: cannot write '%s': it is the model being compiled ('%s'); "
            "name another output file\n", path, input);
    return 1;
}

/* Writes the finished text to standard output, as `-o -` asks (a file
 * named '-' was written in the current folder).  0, or 1 after a message. */
static int write_stdout_text(const char *text, size_t n)
{
    if (n > 0 && fwrite(text, 1, n, stdout) != n) {
        fprintf(stderr, "nsmc: error: cannot write 'standard output': %s\n", strerror(errno));
        clearerr(stdout);
        return 1;
    }
    return out_stdout_check("nsmc");
}

/* Emits the C simulator or the equations into memory, then writes them to
 * path (write_output_text; '-' is standard output).  Returns the exit status. */
static int write_output(const char *path, const Derivation *dv, const Options *o, Arena *a)
{
    int to_stdout = strcmp(path, "-") == 0;
    if (!to_stdout && output_is_input(path, o->input))
        return 1;
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f) {
        fprintf(stderr, "nsmc: error: cannot write '%s': %s\n", path, strerror(errno));
        return 1;
    }
    int rc = o->action == ACT_EQUATIONS ? emit_equations(dv, f, o->format) : emit_c_model(dv, f);
    if (fclose(f) != 0 && rc == 0) {
        fprintf(stderr, "nsmc: error: cannot write '%s': out of memory\n", path);
        free(buf);
        return 1;
    }
    if (rc != 0) {
        fprintf(stderr, "nsmc: internal error: the back end failed writing '%s'\n", path);
        free(buf);
        return 2;
    }
    rc = to_stdout ? write_stdout_text(buf, n) : write_output_text(path, buf, n, a);
    free(buf);
    return rc;
}

/* Runs the pipeline for one file; returns the exit status. */
static int compile(const Options *o, Arena *a)
{
    Source src = {o->input, "", 0};
    Diag diag;
    diag_init(&diag, &src, stderr);
    if (!source_read(&src, o->input, a, &diag))
        return 1;
    if (o->action == ACT_TOKENS) {
        int ok = parse_dump_tokens(&src, &diag, stdout);
        return out_stdout_check("nsmc") || !ok;
    }
    Ast *ast = parse_source(&src, a, &diag);
    if (!ast)
        return 1;
    if (o->action == ACT_AST) {
        ast_dump(ast, stdout);
        return out_stdout_check("nsmc");
    }
    Model *model = sema_check(ast, &src, a, &diag);
    if (!model)
        return 1;
    /* --check derives too: a model it accepts must also compile. */
    Derivation *dv = derive_model(model, a, &diag);
    if (!dv)
        return 1;
    if (o->action == ACT_CHECK)
        return 0;
    if (o->action == ACT_EQUATIONS && !o->output) {
        if (emit_equations(dv, stdout, o->format) != 0) {
            if (out_stdout_check("nsmc"))
                return 1;
            fputs("nsmc: internal error: the equations report failed\n", stderr);
            return 2;
        }
        return out_stdout_check("nsmc");
    }
    return write_output(o->output ? o->output : default_output(a, o->input), dv, o, a);
}

/* The subcommand argv[1] names, or the compiler; returns the exit status
 * (sweep and continue become their programs and do not return). */
static int dispatch(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "run") == 0)
        return run_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "sweep") == 0)
        return sweep_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "continue") == 0)
        return continue_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "cache") == 0)
        return run_cache_main(argc - 1, argv + 1);
    Options o = {ACT_COMPILE, EQ_MARKDOWN, NULL, NULL, NULL, NULL};
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0)
        return rc;
    Arena *a = arena_new();
    rc = compile(&o, a);
    arena_free(a);
    return rc;
}

/* Runs the command with SIGPIPE ignored, then checks standard output once
 * more: a reader that went away (`nsmc --help | true`, `nsmc cache clean |
 * true`) killed nsmc by SIGPIPE; it is now a failed write, said, exit 1.
 * SIGXFSZ is ignored too (as the programs ignore it, and as Python's
 * children inherit it): under a file-size limit `nsmc -o FILE.c`,
 * `--emit=equations -o` and the cache's C source of `nsmc run`, sweep and
 * continue were killed by it, exit 153 without a word and a temporary
 * left; the write now fails with its reason. */
int main(int argc, char **argv)
{
    out_std_hold();
    out_pipe_ignore();
    signal(SIGXFSZ, SIG_IGN);
    int rc = dispatch(argc, argv);
    return out_stdout_check("nsmc") && rc == 0 ? 1 : rc;
}
