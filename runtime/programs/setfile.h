/*
 * setfile.h - parameter files: one `NAME = VALUE` per line, `#` comments.
 *
 *     # stiffer left spring, harder impact
 *     k1 = 4        # N/m
 *     e  = 0.5
 *
 * Values are numbers in SI units or followed by a unit of the parameter's
 * dimension (`k1 = 4 kN/m`, `T = 5 ms`), as for --set NAME=VALUE.  Used by
 * the simulator's --set-file and by `nsmc run --set-file`.  Part of
 * libnsmcli.
 */
#ifndef NSM_SETFILE_H
#define NSM_SETFILE_H

#include <stddef.h>

/* Largest parameter file read, in bytes; only regular files are read. */
#define NSM_SETFILE_MAX (1 << 20)

/* Called once per assignment, in file order; return nonzero to stop reading
 * (setfile_read then returns that value). */
typedef int (*SetfileFn)(void *ud, const char *name, double value, int line);
/* The SI unit text of parameter `name` ("" when dimensionless), or NULL when
 * there is no such parameter. */
typedef const char *(*SetfileUnitFn)(void *ud, const char *name);

/* Reads the file at path and calls fn for every assignment.  Returns 0, or
 * nonzero with a message such as "p.set:3: expected NAME = VALUE" (or the
 * callback's nonzero value, err untouched).  Never prints. */
int setfile_read(const char *path, SetfileFn fn, void *ud, char *err, size_t errlen);
/* The same, each value converted to SI with its parameter's unit from `unit`
 * (checked as setfile_value does); setfile_read, which knows no units,
 * converts any known unit to SI unchecked. */
int setfile_read_units(const char *path, SetfileFn fn, SetfileUnitFn unit, void *ud, char *err,
                       size_t errlen);

/* Strips the blanks (spaces, tabs) around the text s in place; returns its
** first character that is not one.  The fields of an axis or a range
** (NAME=START:STOP:COUNT, NAME=FROM:TO) are read so, blanks around each
** taken alike (one after START was taken, one after COUNT refused). */
char *setfile_trim(char *s);

/* strtod for decimal numbers only: hexadecimal ("0x10"), "inf" and "nan"
 * end the parse at their first character (*end == s when nothing is
 * read), so a command line's numbers mean what they read as. */
double setfile_strtod(const char *s, char **end);

/* A finite decimal number filling the whole of s (setfile_strtod) into *v:
 * NULL, or why s is not one, to show the user ("not a number", "beyond a
 * double's range ...").  A subnormal is its rounding (1e-320 is taken as
 * the subnormal 1e-320), as Python's float() takes it; a nonzero text
 * that would read as 0 (1e-400) is refused as below a double's range. */
const char *setfile_number(const char *s, double *v);

/* Parses the value of --set NAME=VALUE for a parameter whose SI unit text is
 * `unit` ("" or NULL: dimensionless): a number, optionally followed by a unit
 * ("2 N/m", "5 ms", "0.3 kN*s/m"), which must have the parameter's dimension
 * and is converted to SI (a bare number is SI already).  Hz is refused for a
 * parameter in rad/s and the reverse (they differ by 2 pi).  Returns 0, or
 * -1 with a message in err.  With `any`, the parameter's unit is not known:
 * any known unit is converted to SI unchecked. */
int setfile_value(const char *text, const char *unit, int any, double *value, char *err,
                  size_t errlen);

#endif
