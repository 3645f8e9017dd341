/*
** What the study programs (nsmc sweep's sweep.c, nsmc continue's
** contprog.c) share on their command line and in their output files: a
** growing text, the error message and the numbers of their options.
*/
#ifndef NSM_PROGRAMS_CLI_H
#define NSM_PROGRAMS_CLI_H

#include <stddef.h>

/* A growing text buffer; err set when an allocation failed. */
typedef struct CliText {
    char *s;
    size_t n, cap;
    int err;
} CliText;

/* Appends formatted text to t (nothing once an allocation has failed). */
void cli_printf(CliText *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints "PROG: error: ..." and a newline on stderr; returns 1 (the exit
** status of bad arguments). */
int cli_error(const char *prog, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A finite decimal number filling the whole of s into *v: 1, or 0 for
** anything else (empty, hexadecimal, inf, nan, trailing text). */
int cli_number(const char *s, double *v);

/* A whole number from lo to hi filling the whole of s into *v: 1, or 0. */
int cli_count(const char *s, long lo, long hi, long *v);

/* The words of nsmc sweep's and nsmc continue's command lines (argv[0] the
** program's name, the model left out), checked before the program is
** built: every option is the program's and has its value, in the words the
** program would refuse it with.  0 (--help too), or 1 after the message. */
int nsm_sweep_words_check(int argc, char **argv);
/* nsmc sweep's options given once with a value; whether a takes a value;
** whether a is one of nsmc continue's flags. */
extern const char *const cli_sweep_single[12];
int cli_sweep_valued(const char *a);
int cli_continue_flag(const char *a);
int cli_continue_valued(const char *a);
int nsm_continue_words_check(int argc, char **argv);

/* The command line with every --NAME=VALUE of an option that takes a
** value (valued) split in two, the value noted as given attached (words
** after a lone "--" left alone); argv itself when there is none.  Whether
** word is such a --NAME=VALUE (NAME copied into name when not NULL). */
char **cli_args_attached(int argc, char **argv, int (*valued)(const char *), int *nargc);
int cli_attached_split(const char *word, int (*valued)(const char *), char *name, size_t len);
/* Whether an option's value was given attached (--NAME=VALUE); whether a
** file or folder name given as the next word looks like an option (it
** begins with '-' and is not "-" alone), which cli_value_refuse refuses
** (1 after the message). */
int cli_value_attached(const char *val);
int cli_value_optionlike(const char *val);
int cli_value_refuse(const char *prog, const char *opt, const char *val);

#endif
