/* units.c - SI unit text: atoms with prefixes, products, quotients, powers. */
#include "units.h"

#include <stdio.h>
#include <string.h>

/* A named unit: its scale to SI and its exponents of m, kg, s. */
typedef struct UnitDef {
    const char *name;
    double scale;
    int m, kg, s;
} UnitDef;

static const UnitDef units[] = {
    {"m", 1, 1, 0, 0},     {"g", 1e-3, 0, 1, 0},  {"s", 1, 0, 0, 1},
    {"N", 1, 1, 1, -2},    {"J", 1, 2, 1, -2},    {"W", 1, 2, 1, -3},
    {"Pa", 1, -1, 1, -2},  {"Hz", 1, 0, 0, -1},   {"rad", 1, 0, 0, 0},
};

typedef struct Prefix {
    char c;
    double scale;
} Prefix;

static const Prefix prefixes[] = {
    {'G', 1e9}, {'M', 1e6}, {'k', 1e3}, {'c', 1e-2}, {'m', 1e-3}, {'u', 1e-6}, {'n', 1e-9},
};

/* Largest exponent a dimension may reach; keeps signed char arithmetic safe. */
enum { DIM_LIMIT = 60 };

/* Looks up an unprefixed unit name of `len` bytes. */
static const UnitDef *find_unit(const char *s, int len)
{
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if ((int)strlen(units[i].name) == len && memcmp(units[i].name, s, (size_t)len) == 0)
            return &units[i];
    return NULL;
}

/* Resolves one atom, with or without prefix ("kN", "ms", "m"); the bare unit wins. */
static bool find_atom(const char *s, int len, double *scale, const UnitDef **def)
{
    const UnitDef *u = find_unit(s, len);
    if (u) {
        *scale = u->scale;
        *def = u;
        return true;
    }
    if (len < 2)
        return false;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        if (s[0] != prefixes[i].c)
            continue;
        u = find_unit(s + 1, len - 1);
        if (u && strcmp(u->name, "rad") != 0) {
            *scale = prefixes[i].scale * u->scale;
            *def = u;
            return true;
        }
    }
    return false;
}

bool unit_is_atom(const char *text, int len)
{
    double scale;
    const UnitDef *def;
    return find_atom(text, len, &scale, &def);
}

static bool is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool unit_parse(const char *text, double *scale, Dim *dim)
{
    const char *p = text;
    double sc = 1;
    int m = 0, kg = 0, s = 0;
    int sign = 1;
    for (;;) {
        const char *start = p;
        while (is_alpha(*p))
            p++;
        double asc;
        const UnitDef *def;
        if (p == start || !find_atom(start, (int)(p - start), &asc, &def))
            return false;
        int power = 1;
        if (*p == '^') {
            p++;
            int neg = 0;
            if (*p == '-') {
                neg = 1;
                p++;
            }
            if (*p < '0' || *p > '9')
                return false;
            power = 0;
            while (*p >= '0' && *p <= '9') {
                power = power * 10 + (*p++ - '0');
                if (power > 9)
                    return false;
            }
            if (neg)
                power = -power;
        }
        power *= sign;
        for (int i = 0; i < (power < 0 ? -power : power); i++)
            sc = power < 0 ? sc / asc : sc * asc;
        m += power * def->m;
        kg += power * def->kg;
        s += power * def->s;
        if (m > DIM_LIMIT || m < -DIM_LIMIT || kg > DIM_LIMIT || kg < -DIM_LIMIT ||
            s > DIM_LIMIT || s < -DIM_LIMIT)
            return false;
        if (*p == '*')
            sign = 1;
        else if (*p == '/')
            sign = -1;
        else if (*p == '\0')
            break;
        else
            return false;
        p++;
    }
    *scale = sc;
    *dim = dim_make(m, kg, s);
    return true;
}

Dim dim_none(void)
{
    return (Dim){true, 0, 0, 0};
}

Dim dim_free(void)
{
    return (Dim){false, 0, 0, 0};
}

/* Clamps an exponent so that repeated products cannot overflow signed char. */
static signed char clamp(int v)
{
    return (signed char)(v > DIM_LIMIT ? DIM_LIMIT : v < -DIM_LIMIT ? -DIM_LIMIT : v);
}

Dim dim_make(int m, int kg, int s)
{
    return (Dim){true, clamp(m), clamp(kg), clamp(s)};
}

bool dim_equal(Dim a, Dim b)
{
    if (!a.known || !b.known)
        return true;
    return a.m == b.m && a.kg == b.kg && a.s == b.s;
}

Dim dim_mul(Dim a, Dim b)
{
    if (!a.known || !b.known)
        return dim_free();
    return dim_make(a.m + b.m, a.kg + b.kg, a.s + b.s);
}

Dim dim_div(Dim a, Dim b)
{
    if (!a.known || !b.known)
        return dim_free();
    return dim_make(a.m - b.m, a.kg - b.kg, a.s - b.s);
}

Dim dim_pow(Dim a, int n)
{
    if (!a.known)
        return a;
    if (n > DIM_LIMIT)
        n = DIM_LIMIT;
    if (n < -DIM_LIMIT)
        n = -DIM_LIMIT;
    return dim_make(a.m * n, a.kg * n, a.s * n);
}

/* Appends "name" or "name^p" to buf. */
static void put_factor(char *buf, int size, const char *name, int p)
{
    size_t n = strlen(buf);
    if ((int)n >= size - 1)
        return;
    if (p == 1)
        snprintf(buf + n, (size_t)size - n, "%s%s", n && buf[n - 1] != '/' ? "*" : "", name);
    else
        snprintf(buf + n, (size_t)size - n, "%s%s^%d", n && buf[n - 1] != '/' ? "*" : "", name, p);
}

/* Named derived units whose text reads better than base units. */
static const struct {
    const char *text;
    int m, kg, s;
} named[] = {
    {"N", 1, 1, -2},      {"N/m", 0, 1, -2},   {"N*s/m", 0, 1, -1}, {"J", 2, 1, -2},
    {"W", 2, 1, -3},      {"Pa", -1, 1, -2},   {"N*s", 1, 1, -1},   {"m/s", 1, 0, -1},
    {"m/s^2", 1, 0, -2},  {"1/s", 0, 0, -1},   {"kg*m^2", 2, 1, 0},
};

const char *dim_text(Dim d, char *buf, int size)
{
    if (size <= 0)
        return buf;
    buf[0] = '\0';
    if (!d.known)
        return buf;
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        if (named[i].m == d.m && named[i].kg == d.kg && named[i].s == d.s) {
            snprintf(buf, (size_t)size, "%s", named[i].text);
            return buf;
        }
    /* Numerator first, then the denominator after a single '/'. */
    if (d.kg > 0)
        put_factor(buf, size, "kg", d.kg);
    if (d.m > 0)
        put_factor(buf, size, "m", d.m);
    if (d.s > 0)
        put_factor(buf, size, "s", d.s);
    if (d.kg < 0 || d.m < 0 || d.s < 0) {
        size_t n = strlen(buf);
        snprintf(buf + n, (size_t)size - n, "%s", n ? "/" : "1/");
        if (d.kg < 0)
            put_factor(buf, size, "kg", -d.kg);
        if (d.m < 0)
            put_factor(buf, size, "m", -d.m);
        if (d.s < 0)
            put_factor(buf, size, "s", -d.s);
    }
    return buf;
}
