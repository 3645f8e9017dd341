/*
** locate.c: the pieces every event locator shares, written once.
**
** An event source (a gap, a contact force, a friction element's slip or
** force, a Poincare plane, a time switch) is a scalar function of time
** whose first fall through zero inside a step must be found.  The methods
** find it in two ways: rk4 and adaptive bracket it and polish it by the
** safeguarded Newton / Illinois iteration below (rt_bracket), after a
** first guess from Henon's recast (step.c, rt_land); exact and taylor find
** it on the step's polynomial (Horner's rule, rt_poly_eval in rt.h; the guaranteed zero
** search in taylor.c).  A dip of the function below zero and back inside
** one step is seen on its cubic Hermite interpolant (rt_hermite_min).
**
** Pure kernels: no model, no state, no allocation.
*/
#include "rt.h"

#include <math.h>

/* The root of element i in the union-find forest parent (parent[r] == r
** at a root), halving the path on the way (Tarjan and van Leeuwen, JACM
** 31(2), 1984).  The contacts' clusters of dynamics.c and modeop.c. */
int rt_uf_find(int *parent, int i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

/* Join the sets of a and b under the smaller of their roots, so that a
** set's root is its least element. */
void rt_uf_join(int *parent, int a, int b)
{
    int x = rt_uf_find(parent, a), y = rt_uf_find(parent, b);
    if (x != y)
        parent[x > y ? x : y] = x < y ? x : y;
}

/* Minimum over theta in [0, 1] of the cubic Hermite interpolant of q on a
** step h (values q0, q1, rates d0, d1): theta in the return (0 when the
** minimum is at the start), the value in *qmin.  The event detection of
** rk4 and adaptive looks there for a dip below zero and back. */
double rt_hermite_min(double q0, double d0, double q1, double d1, double h, double *qmin)
{
    /* p(th) = q0 + th h d0 + th^2 (3(q1-q0) - h(2 d0 + d1)) + th^3 (2(q0-q1) + h(d0 + d1)) */
    double b = h * d0, c = 3 * (q1 - q0) - h * (2 * d0 + d1), d = 2 * (q0 - q1) + h * (d0 + d1);
    double best = 0, bv = q0;
    /* roots of p' = b + 2 c th + 3 d th^2 */
    double A = 3 * d, B = 2 * c, C = b, r[2];
    int nr = 0;
    if (fabs(A) < 1e-300) {
        if (B != 0)
            r[nr++] = -C / B;
    } else {
        double disc = B * B - 4 * A * C;
        if (disc >= 0) {
            /* stable form: no cancellation when A is tiny (q nearly quadratic) */
            double qq = -0.5 * (B + (B >= 0 ? sqrt(disc) : -sqrt(disc)));
            if (qq != 0) {
                r[nr++] = qq / A;
                r[nr++] = C / qq;
            }
        }
    }
    for (int k = 0; k < nr; k++)
        if (r[k] > 0 && r[k] < 1) {
            double th = r[k], val = q0 + th * (b + th * (c + th * d));
            if (val < bv) {
                bv = val;
                best = th;
            }
        }
    *qmin = bv;
    return best;
}

/* The zero of f in the bracket b (f(lo) > 0 >= f(hi); with b->orient,
** f(lo) and f(hi) of opposite signs: f is taken times the sign of f(lo)
** here, so that it falls through zero, and b's values are left so) from
** the first guess x: safeguarded Newton when b->newton (f' from fn), else the Illinois
** variant of regula falsi; a guess outside the bracket is replaced by its
** midpoint, and each evaluation narrows the bracket.  It ends when f is 0,
** the bracket is below the resolution 4e-16 (scale + x) or below b->tol
** (a caller's own, coarser tolerance; 0 for none), or the next step
** is below 1e-16 (scale + x); a Newton step that small while f is still
** positive may sit on a kink of f (the force branch of max(gap, k gap +
** c gap') vanishes before the gap does), so the search looks just past it
** instead.  With b->tight the search goes on to the last bit (f = 0, or lo
** and hi adjacent doubles) and the zero is hi, the first point past it: a
** time switch lands where its condition has changed.  The zero in *root;
** *at_root is 1 when the last call of fn was
** at *root (its side effects, such as the state there, are current), 0
** otherwise.  NSM_OK, or fn's nonzero code. */
int rt_bracket(RtBracket *b, rt_bracket_fn fn, void *ud, double x, double *root, int *at_root)
{
    double sg = b->orient && !(b->flo > 0) ? -1 : 1, f, fd, lo = b->lo, hi = b->hi, flo = sg * b->flo,
           fhi = sg * b->fhi, sc = b->scale;
    int rc, side = 0;
    *at_root = 0;
    for (int it = 0; it < 200; it++) {
        if (!(x > lo && x < hi))
            x = 0.5 * (lo + hi);
        if (b->tight && (x == lo || x == hi))
            break;                  /* lo and hi are adjacent doubles */
        if ((rc = fn(ud, x, &f, &fd)))
            return rc;
        if (sg < 0)
            f = -f, fd = -fd;
        if (f > 0) {
            lo = x;
            flo = f;
            if (side == -1)
                fhi /= 2;
            side = -1;
        } else {
            hi = x;
            fhi = f;
            if (side == 1)
                flo /= 2;
            side = 1;
        }
        double xn = b->newton && fd != 0 ? x - f / fd
                    : (flo - fhi != 0 ? lo + (hi - lo) * flo / (flo - fhi) : 0.5 * (lo + hi));
        if (b->tight) {
            if (f == 0)
                break;
            x = xn;
            continue;
        }
        int small = fabs(xn - x) <= 1e-16 * (sc + x);
        int narrow = hi - lo <= fmax(b->tol, 4e-16 * (sc + hi));
        if (small && f > 0 && !narrow) {
            x += 4e-16 * (sc + x);
            continue;
        }
        if (f == 0 || narrow || small) {
            *at_root = 1;
            if (b->newton && xn > lo && xn < hi && xn != x) {
                x = xn;
                *at_root = 0;
            }
            break;
        }
        x = xn;
    }
    b->lo = lo;
    b->hi = hi;
    b->flo = flo;
    b->fhi = fhi;
    *root = b->tight ? hi : x;
    return NSM_OK;
}
