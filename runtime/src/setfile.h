/*
 * setfile.h - parameter files: one `NAME = VALUE` per line, `#` comments.
 *
 *     # stiffer left spring, harder impact
 *     k1 = 4        # N/m
 *     e  = 0.5
 *
 * Values are plain numbers in SI units, as for --set NAME=VALUE.  Used by the
 * simulator's --set-file and by `nsmc run --set-file`.  Part of libnsmcli.
 */
#ifndef NSM_SETFILE_H
#define NSM_SETFILE_H

#include <stddef.h>

/* Largest parameter file read, in bytes; only regular files are read. */
#define NSM_SETFILE_MAX (1 << 20)

/* Called once per assignment, in file order; return nonzero to stop reading
 * (setfile_read then returns that value). */
typedef int (*SetfileFn)(void *ud, const char *name, double value, int line);

/* Reads the file at path and calls fn for every assignment.  Returns 0, or
 * nonzero with a message such as "p.set:3: expected NAME = VALUE" (or the
 * callback's nonzero value, err untouched).  Never prints. */
int setfile_read(const char *path, SetfileFn fn, void *ud, char *err, size_t errlen);

/* Parses the value of --set NAME=VALUE for a parameter whose SI unit text is
 * `unit` ("" or NULL: dimensionless): a number, optionally followed by a unit
 * ("2 N/m", "5 ms", "0.3 kN*s/m"), which must have the parameter's dimension
 * and is converted to SI (a bare number is SI already).  Hz is refused for a
 * parameter in rad/s and the reverse (they differ by 2 pi).  Returns 0, or
 * -1 with a message in err. */
int setfile_value(const char *text, const char *unit, double *value, char *err, size_t errlen);

#endif
