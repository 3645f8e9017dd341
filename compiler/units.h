/*
 * units.h - physical dimensions and unit text.
 *
 * A dimension is the vector of exponents of metre, kilogram and second.  A bare
 * number has no unit and is accepted wherever a quantity is expected (it is
 * read as SI); such a value has `known == false` and matches any slot.
 */
#ifndef NSM_UNITS_H
#define NSM_UNITS_H

#include <stdbool.h>

typedef struct Dim {
    bool known;
    signed char m, kg, s;
} Dim;

/* Parses unit text such as "kN", "N*s/m", "m/s^2", "mm", "Hz".  On success
 * stores the SI scale factor and dimension and returns true. */
bool unit_parse(const char *text, double *scale, Dim *dim);

/* True when `text` is a single known unit atom with optional prefix ("kN", "ms"). */
bool unit_is_atom(const char *text, int len);

Dim dim_none(void);   /* dimensionless, known */
Dim dim_free(void);   /* unknown: bare number */
Dim dim_make(int m, int kg, int s);
bool dim_equal(Dim a, Dim b);      /* both known and equal, or either unknown */
Dim dim_mul(Dim a, Dim b);
Dim dim_div(Dim a, Dim b);
Dim dim_pow(Dim a, int n);
/* Writes the dimension as SI unit text ("N/m", "kg", "m/s^2", "" when none). */
const char *dim_text(Dim d, char *buf, int size);

#endif
