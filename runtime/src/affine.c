/*
** affine.c: the runtime's reader of affine forms of the state, for the
** expressions a program hands over as text at run time (a Poincare
** plane's function, a section's period, nsm_sim_eval): numbers, pi, the
** model's parameters, BODY.x, BODY.v or a state column's name (P.phi), +
** - * / ^, parentheses and sqrt sin cos tan exp log of constants, read
** by recursive descent into a . y + b (a of length 2n over the positions
** and velocities).  The model's own
** expressions are compiled by nsmc; this reader only serves run-time text.
** No I/O: errors go to the caller's buffer.
*/
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

typedef struct Reader {
    const nsm_sim *s;
    const char *p;
    int state_ok;             /* state names allowed (plane) */
    char err[200];
} Reader;

static int aff_expr(Reader *r, double *a, double *b);

/* Whether the affine form a . y + b of the model s has a state part. */
int rt_affine_has_state(const nsm_sim *s, const double *a)
{
    for (int i = 0; i < 2 * s->n_vel; i++)
        if (a[i] != 0)
            return 1;
    return 0;
}

static void skip_space(Reader *r)
{
    while (isspace((unsigned char)*r->p))
        r->p++;
}

/* Record the first error of a reading. */
RT_COLD static int read_fail(Reader *r, const char *what)
{
    if (!r->err[0])
        rt_text_printf(r->err, sizeof r->err, "%s at '%.40s'", what, r->p);
    return 1;
}

/* A name: letters, digits, _, an optional [index] and dotted parts. */
static int read_name(Reader *r, char *name, size_t len)
{
    size_t k = 0;
    const char *q = r->p;
    while (isalnum((unsigned char)*q) || *q == '_' || *q == '.' || *q == '[' || *q == ']') {
        if (k + 1 >= len)
            return read_fail(r, "name too long");
        name[k++] = *q++;
    }
    name[k] = 0;
    r->p = q;
    return 0;
}

/* Index in the state (positions, then velocities) of a state's name, -1
** if none: BODY.x / BODY.v, or a coordinate as the state columns head it
** (an angle's P.phi and P.omega, a planar body's P.y and P.vy), so that a
** plane section takes the name its records are headed by (P.phi was
** refused, only P.phi.x accepted). */
static int state_index(const nsm_model *m, int n, const char *name)
{
    size_t L = strlen(name);
    if (L > 2 && name[L - 2] == '.' && (name[L - 1] == 'x' || name[L - 1] == 'v') && m->body_names)
        for (int i = 0; i < n; i++)
            if (strlen(m->body_names[i]) == L - 2 && !strncmp(name, m->body_names[i], L - 2))
                return (name[L - 1] == 'v' ? n : 0) + i;
    if (!m->coords || m->nq > n)    /* bodies in space: no chart of their names */
        return -1;
    for (int i = 0; i < n; i++) {
        if (m->coords[i].x && !strcmp(name, m->coords[i].x))
            return i;
        if (m->coords[i].v && !strcmp(name, m->coords[i].v))
            return n + i;
    }
    return -1;
}

/* Value of a name: pi, a parameter, or a state's name (plane only). */
static int name_value(Reader *r, const char *name, double *a, double *b)
{
    const nsm_sim *s = r->s;
    const nsm_model *m = s->m;
    int n = s->n_vel;
    memset(a, 0, sizeof(double) * 2 * n);
    *b = 0;
    if (!strcmp(name, "pi")) {
        *b = 3.14159265358979323846;
        return 0;
    }
    for (int k = 0; k < m->n_params; k++)
        if (!strcmp(name, m->params[k].name)) {
            *b = s->params[k];
            return 0;
        }
    int j = state_index(m, n, name);
    if (j >= 0) {
        if (!r->state_ok) {
            rt_text_printf(r->err, sizeof r->err, "'%s' is a state: only parameters may appear here",
                            name);
            return 1;
        }
        a[j] = 1;
        return 0;
    }
    rt_text_printf(r->err, sizeof r->err, "unknown name '%s' (a parameter, pi, a state column or "
                    "BODY.x / BODY.v)", name);
    return 1;
}

/* A primary: number, name, function call, parenthesis, or unary minus. */
static int aff_primary(Reader *r, double *a, double *b)
{
    int n2 = 2 * r->s->n_vel;
    skip_space(r);
    if (*r->p == '-' || *r->p == '+') {
        int neg = *r->p == '-';
        r->p++;
        if (aff_primary(r, a, b))
            return 1;
        if (neg) {
            for (int i = 0; i < n2; i++)
                a[i] = -a[i];
            *b = -*b;
        }
        return 0;
    }
    if (*r->p == '(') {
        r->p++;
        if (aff_expr(r, a, b))
            return 1;
        skip_space(r);
        if (*r->p != ')')
            return read_fail(r, "')' expected");
        r->p++;
        return 0;
    }
    if (isdigit((unsigned char)*r->p) || *r->p == '.') {
        char *end;
        memset(a, 0, sizeof(double) * n2);
        *b = rt_text_strtod(r->p, &end);
        if (end == r->p)
            return read_fail(r, "number expected");
        /* decimal only, as the programs' numeric options: strtod also
         * took hexadecimal floats (0x1p-3) that --t-end and --set refuse */
        if (end > r->p + strspn(r->p, "0123456789+-.eE"))
            return read_fail(r, "a number is written in decimal ('0.125', '1.25e-1'), not "
                             "hexadecimal");
        /* a section's `period:0.3:1e-400` and `plane:B.x-1e-400` ran
         * with 0 silently, where --set refuses 1e-400 */
        if (nsm_text_underflowed(r->p, end, *b))
            return read_fail(r, "number out of range: below the range of a double, it would be "
                             "taken as 0 (nonzero doubles are at least 4.9e-324 in magnitude)");
        r->p = end;
        return 0;
    }
    if (isalpha((unsigned char)*r->p) || *r->p == '_') {
        char name[128];
        if (read_name(r, name, sizeof name))
            return 1;
        skip_space(r);
        if (*r->p == '(') {
            static const char *const fns[] = { "sqrt", "sin", "cos", "tan", "exp", "log" };
            int f = -1;
            for (int k = 0; k < 6; k++)
                if (!strcmp(name, fns[k]))
                    f = k;
            if (f < 0) {
                rt_text_printf(r->err, sizeof r->err, "unknown function '%s'", name);
                return 1;
            }
            if (aff_primary(r, a, b))
                return 1;
            if (rt_affine_has_state(r->s, a)) {
                rt_text_printf(r->err, sizeof r->err, "%s() of the state is not an affine form", name);
                return 1;
            }
            double x = *b;
            *b = f == 0 ? sqrt(x) : f == 1 ? sin(x) : f == 2 ? cos(x) : f == 3 ? tan(x)
                 : f == 4 ? exp(x) : log(x);
            return 0;
        }
        return name_value(r, name, a, b);
    }
    return read_fail(r, *r->p ? "unexpected character" : "unexpected end");
}

/* A power: primary [^ primary], constants only. */
static int aff_power(Reader *r, double *a, double *b)
{
    int n2 = 2 * r->s->n_vel;
    if (aff_primary(r, a, b))
        return 1;
    skip_space(r);
    if (*r->p != '^')
        return 0;
    r->p++;
    double a2[n2 > 0 ? n2 : 1], b2;
    if (aff_power(r, a2, &b2))
        return 1;
    if (rt_affine_has_state(r->s, a) || rt_affine_has_state(r->s, a2)) {
        rt_text_printf(r->err, sizeof r->err, "a power of the state is not an affine form");
        return 1;
    }
    *b = pow(*b, b2);
    return 0;
}

/* A term: powers joined by * and /; one factor of a product may hold the
** state, a divisor may not. */
static int aff_term(Reader *r, double *a, double *b)
{
    int n2 = 2 * r->s->n_vel;
    if (aff_power(r, a, b))
        return 1;
    for (;;) {
        skip_space(r);
        char op = *r->p;
        if (op != '*' && op != '/')
            return 0;
        r->p++;
        double a2[n2 > 0 ? n2 : 1], b2;
        if (aff_power(r, a2, &b2))
            return 1;
        int s1 = rt_affine_has_state(r->s, a), s2 = rt_affine_has_state(r->s, a2);
        if (op == '/' ? s2 : (s1 && s2)) {
            rt_text_printf(r->err, sizeof r->err, "%s of the state is not an affine form",
                            op == '/' ? "a division by a function" : "a product");
            return 1;
        }
        if (op == '/') {
            for (int i = 0; i < n2; i++)
                a[i] /= b2;
            *b /= b2;
        } else if (s2) {
            for (int i = 0; i < n2; i++)
                a[i] = a2[i] * *b;
            *b *= b2;
        } else {
            for (int i = 0; i < n2; i++)
                a[i] *= b2;
            *b *= b2;
        }
    }
}

/* An expression: terms joined by + and -. */
static int aff_expr(Reader *r, double *a, double *b)
{
    int n2 = 2 * r->s->n_vel;
    if (aff_term(r, a, b))
        return 1;
    for (;;) {
        skip_space(r);
        char op = *r->p;
        if (op != '+' && op != '-')
            return 0;
        r->p++;
        double a2[n2 > 0 ? n2 : 1], b2;
        if (aff_term(r, a2, &b2))
            return 1;
        double sg = op == '-' ? -1 : 1;
        for (int i = 0; i < n2; i++)
            a[i] += sg * a2[i];
        *b += sg * b2;
    }
}

/* Read text whole as an affine form a . y + b (state_ok: state names
** allowed).  Returns 0, or 1 with the reason in err. */
int rt_affine_read(const nsm_sim *s, const char *text, int state_ok, double *a, double *b,
                   char *err, size_t len)
{
    Reader r = { s, text, state_ok, "" };
    int rc = aff_expr(&r, a, b);
    skip_space(&r);
    if (!rc && *r.p)
        rc = read_fail(&r, "unexpected text");
    if (!rc && !isfinite(*b))
        rc = 1, rt_text_printf(r.err, sizeof r.err, "the value is not finite");
    if (rc)
        rt_text_printf(err, len, "%s", r.err);
    return rc;
}

/* A constant expression of the parameters (no state): *v.  0, or 1 with
** the reason in err. */
int rt_affine_const(const nsm_sim *s, const char *text, double *v, char *err, size_t len)
{
    double a[2 * s->n_vel];
    return rt_affine_read(s, text, 0, a, v, err, len);
}
