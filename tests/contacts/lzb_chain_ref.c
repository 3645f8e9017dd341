/*
** lzb_chain_ref.c: the energetic multiple-impact kernel (rt_lzb_solve,
** runtime/src/multiimpact.c) on chains of 12 and 16 unit balls with linear
** contacts of unequal stiffnesses and restitution 0.95 or 0.8, ball 0
** striking the others at 1 m/s, against the law's exact solution
** (tests/reference/lzb_linear_chain.py: Taylor series of the law's linear
** phases in mpmath at 40 digits, data/lzb_linear_chain.csv). The chains
** are long enough that the kernel re-steps bands of contacts around the
** law's kinks inside a global step (its multirate path); every velocity
** must be within 1e-10 m/s of the reference (the kernel's stated
** accuracy, docs/theory.md section 17) and the momentum kept to 1e-12.
**
**   lzb_chain_ref DATA
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

#define TOL 1e-10
#define NMAX 64

static int failures;

/* One case: n balls, restitution e, stiffnesses k (n - 1), the reference
** velocities want (n). Prints the worst difference; counts a failure. */
static void chain_case(const char *name, int n, double e, const double *k, const double *want)
{
    int nc = n - 1;
    double W[NMAX * NMAX] = { 0 }, vn[NMAX] = { 0 }, ee[NMAX], eta[NMAX], P[NMAX], va[NMAX];
    for (int j = 0; j < nc; j++) {
        W[j * nc + j] = 2;
        if (j + 1 < nc)
            W[j * nc + j + 1] = W[(j + 1) * nc + j] = -1;
        ee[j] = e;
        eta[j] = 1;
    }
    vn[0] = -1;
    int rc = rt_lzb_solve(nc, W, vn, ee, k, eta, P, va);
    double worst = 0, sum = 0;
    for (int i = 0; i < n; i++) {
        double v = (i == 0) - (i < nc ? P[i] : 0) + (i > 0 ? P[i - 1] : 0);
        worst = fmax(worst, fabs(v - want[i]));
        sum += v;
    }
    int ok = rc == 0 && worst <= TOL && fabs(sum - 1) <= 1e-12;
    printf("%s %s: rc %d, worst velocity error %.3g m/s, momentum %.17g\n", ok ? "ok  " : "FAIL",
           name, rc, worst, sum);
    failures += !ok;
}

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (!f) {
        printf("FAIL cannot open the reference data (%s)\n", argc > 1 ? argv[1] : "no argument");
        return 1;
    }
    char line[8192];
    int cases = 0;
    while (fgets(line, sizeof line, f)) {
        char name[64];
        int n, used;
        double e, k[NMAX], want[NMAX];
        const char *p = line;
        if (sscanf(p, "%63s %d %lf%n", name, &n, &e, &used) != 3 || n < 2 || n > NMAX)
            break;
        p += used;
        int ok = 1;
        for (int i = 0; i < 2 * n - 1 && ok; i++) {
            double *dst = i < n - 1 ? &k[i] : &want[i - (n - 1)];
            ok = sscanf(p, "%lf%n", dst, &used) == 1;
            p += used;
        }
        if (!ok)
            break;
        chain_case(name, n, e, k, want);
        cases++;
    }
    fclose(f);
    if (cases != 3) {
        printf("FAIL %d cases read (3 expected)\n", cases);
        return 1;
    }
    return failures ? 1 : 0;
}
