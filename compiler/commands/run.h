/*
 * run.h - `nsmc run FILE.nsm [-- args]`: compile, build and run a model.
 */
#ifndef NSM_RUN_H
#define NSM_RUN_H

/* argv[0] is "run"; returns the process exit code. */
int run_main(int argc, char **argv);

/* argv[0] is "sweep"; returns the process exit code (sweep.c). */
int sweep_main(int argc, char **argv);

/* argv[0] is "cache": `nsmc cache clean`; returns the exit code (run.c). */
int run_cache_main(int argc, char **argv);

/* `nsmc --datadir`: prints where the models and examples are; returns the
 * exit code (run.c). */
int run_datadir(void);

struct Arena;
/* The sweep program of a model, built or found in the cache (run.c). */
const char *run_build_sweep(const char *input, int verbose, struct Arena *a, int *status);
/* The continuation program of a model, built or found in the cache (run.c). */
const char *run_build_continue(const char *input, int verbose, struct Arena *a, int *status);
/* Checks the words the study program WHAT ("sweep", "continue") will get
 * (argv[1..] less the model file input and -v) with check before the
 * program is built; 0, or the exit status after the message. */
int run_program_words(const char *what, int argc, char **argv, const char *input,
                      int (*check)(int, char **));
/* Refuses a model file input that the study WHAT would write over or
 * remove in its --out-dir (argv's words, valued naming the options that
 * take a value); 0, or 1 after the message. */
int run_study_input_check(const char *what, int argc, char **argv, const char *input,
                          int (*valued)(const char *));
/* Replaces this process by the study program bin (built by run_build_sweep
 * or run_build_continue), passing argv[1..] less the model file `input` and
 * -v, with argv[0] `nsmc WHAT`; frees a.  Returns only on failure, with the
 * exit code after the message (run.c). */
int run_exec_program(const char *bin, const char *what, int argc, char **argv,
                     const char *input, struct Arena *a);
/* argv[0] is "continue"; returns the process exit code (continue.c). */
int continue_main(int argc, char **argv);

/* The words `nsmc sweep` and `nsmc continue` read before handing the rest
 * to their program: the model (the first word that is neither an option
 * nor an option's value) into *input, -v into *verbose; the word after an
 * option for which valued says yes is that option's value, never read.
 * Returns whether --help or -h was given, or -1 after the message when -v
 * is given twice or --help is not alone. */
int run_study_args(int argc, char **argv, const char **input, int *verbose,
                   int (*valued)(const char *));
/* Whether `nsmc WHAT` was given --help or -h beside another word (a value
 * of an option for which valued says yes is not read as --help): said, as
 * a usage error (run.c). */
int run_help_refused(const char *what, int argc, char **argv, int (*valued)(const char *));

/* Catches SIGINT, SIGTERM and SIGHUP from the start of `nsmc run`, `sweep`
 * and `continue`, so that a stop before the simulator or the study program
 * has its handlers is passed on to it, or said (run.c). */
void run_stop_catch(void);

#endif
