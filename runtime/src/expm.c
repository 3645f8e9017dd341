/*
** expm.c: the matrix exponential and Van Loan's integrals of it.
**
** exp(A h) is computed by scaling and squaring with diagonal Pade
** approximants, following N. J. Higham, "The scaling and squaring method for
** the matrix exponential revisited", SIAM J. Matrix Anal. Appl. 26(4), 2005:
** the degree m in {3, 5, 7, 9, 13} and the number of squarings s are chosen
** from ||A h||_1 so that the backward error is below the unit roundoff.
** Before that the matrix is balanced by an exact power-of-two diagonal
** similarity (Parlett & Reinsch, Numer. Math. 13, 1969) when this lowers its
** norm: the mode matrices of stiff contacts ([[0, 1], [-k/m, -c/m]] with
** k/m ~ 1e8) are badly scaled, and balancing saves most of the squarings.
**
** Integrals of the exponential come from C. F. Van Loan, "Computing
** integrals involving the matrix exponential", IEEE TAC 23(3), 1978: the
** exponential of a block upper-triangular matrix holds them in its
** off-diagonal block. We evaluate the Pade approximant of the block matrix at
** the scaled step only, and then double the step with the recurrences
**     E(2t) = E(t)^2,   I(2t) = I(t) + E(t)^T I(t) E(t),   G(2t) = G(t) + E(t) G(t),
** which never form exp(-A^T t) for large t (it grows when A is stable).
*/
#include "linalg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Workspace up to this many doubles comes from the stack (n <= 8 even for
** the 2n x 2n Van Loan blocks). */
#define EXPM_STACK 2560

/* Higham (2005), Table 2.3: largest ||A||_1 for which the [m/m] Pade
** approximant has backward error below 2^-53. */
static const double theta3 = 1.495585217958292e-2;
static const double theta5 = 2.539398330063230e-1;
static const double theta7 = 9.504178996162932e-1;
static const double theta9 = 2.097847961257068e0;
static const double theta13 = 5.371920351148152e0;

/* Coefficients b_0..b_m of the numerator p_m(x) = sum b_j x^j of the
** [m/m] Pade approximant of e^x (the denominator is p_m(-x)). */
static const double b3[] = {120.0, 60.0, 12.0, 1.0};
static const double b5[] = {30240.0, 15120.0, 3360.0, 420.0, 30.0, 1.0};
static const double b7[] = {17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0, 1.0};
static const double b9[] = {17643225600.0, 8821612800.0, 2075673600.0, 302702400.0, 30270240.0,
                            2162160.0, 110880.0, 3960.0, 90.0, 1.0};
static const double b13[] = {64764752532480000.0, 32382376266240000.0, 7771770303897600.0,
                             1187353796428800.0, 129060195264000.0, 10559470521600.0,
                             670442572800.0, 33522128640.0, 1323241920.0, 40840800.0,
                             960960.0, 16380.0, 182.0, 1.0};

/* Below this ||A h||_1 the degree-4 Taylor polynomial T(X) = exp(X + dX) has
** a backward error ||dX|| / ||X|| ~ ||X||^4 / 120 below 2^-53 (a forward
** error of 1e-17 alone would not do: exp(X) - I must be accurate relative
** to X, for the integrals of tiny steps). */
static const double taylor_max = 2e-4;

/* Largest number of balancing sweeps; a handful is enough in practice. */


/* Set the n*n matrix I to the identity. */
static void set_identity(int n, double *I)
{
    int i;

    memset(I, 0, sizeof(double) * (size_t)n * (size_t)n);
    for (i = 0; i < n; i++) I[i * n + i] = 1.0;
}

/* acc += a * X, elementwise over n*n entries. */
static void axpy(int n, double a, const double *X, double *acc)
{
    int i;

    for (i = 0; i < n * n; i++) acc[i] += a * X[i];
}

/* C = A^T B for n*n matrices (the Gramian's E^T I E without forming E^T). */
static void matmul_tn(int n, const double *A, const double *B, double *C)
{
    int i, j, k;

    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
            double acc = 0.0;
            for (k = 0; k < n; k++) acc += A[k * n + i] * B[k * n + j];
            C[i * n + j] = acc;
        }
    }
}

/* One part of the degree-13 Pade approximant from the powers X2, X4, X6:
** V = X6 (c12 X6 + c10 X4 + c8 X2) + c6 X6 + c4 X4 + c2 X2 + c0 I, with
** c = b (the even part) or b + 1 (the odd part, to be multiplied by X);
** T is workspace. */
static void pade13_part(int n, const double *c, const double *X6, const double *X4,
                        const double *X2, double *T, double *V)
{
    int i;

    memset(T, 0, sizeof(double) * (size_t)n * (size_t)n);
    axpy(n, c[12], X6, T); axpy(n, c[10], X4, T); axpy(n, c[8], X2, T);
    nsm_la_matmul(n, n, n, X6, T, V);
    axpy(n, c[6], X6, V); axpy(n, c[4], X4, V); axpy(n, c[2], X2, V);
    for (i = 0; i < n; i++) V[i * n + i] += c[0];
}

/*
** R = Pade (or Taylor) approximant of exp(X / 2^s), where s >= 0 is chosen
** here from the 1-norm of X and returned in *s_out. X is overwritten by the
** scaled matrix. work holds at least 6*n*n doubles.
*/
static int pade(int n, double *X, double *R, int *s_out, double *work)
{
    size_t nn = (size_t)n * (size_t)n;
    double *X2 = work, *X4 = work + nn, *X6 = work + 2 * nn;
    double *U = work + 3 * nn, *V = work + 4 * nn, *T = work + 5 * nn;
    double norm = nsm_la_norm1(n, X);
    const double *b;
    int i, m, s = 0;

    *s_out = 0;
    if (!(norm < INFINITY)) return NSM_LA_NOCONV;
    if (norm <= taylor_max) {
        /* R = I + X (I + X/2 (I + X/3 (I + X/4))), Horner form. */
        set_identity(n, R);
        axpy(n, 0.25, X, R);
        for (m = 3; m >= 1; m--) {
            nsm_la_matmul(n, n, n, X, R, T);
            set_identity(n, R);
            axpy(n, 1.0 / m, T, R);
        }
        return NSM_LA_OK;
    }
    if (norm <= theta3) { m = 3; b = b3; }
    else if (norm <= theta5) { m = 5; b = b5; }
    else if (norm <= theta7) { m = 7; b = b7; }
    else if (norm <= theta9) { m = 9; b = b9; }
    else {
        m = 13; b = b13;
        s = (int)ceil(log2(norm / theta13));
        if (s < 0) s = 0;
        if (s > 0) for (i = 0; i < (int)nn; i++) X[i] = ldexp(X[i], -s);
    }
    nsm_la_matmul(n, n, n, X, X, X2);
    if (m == 13) {
        nsm_la_matmul(n, n, n, X2, X2, X4);
        nsm_la_matmul(n, n, n, X4, X2, X6);
        /* U = X [odd part], V = [even part] */
        pade13_part(n, b + 1, X6, X4, X2, T, V);
        nsm_la_matmul(n, n, n, X, V, U);
        pade13_part(n, b, X6, X4, X2, T, V);
    } else {
        /* Odd and even parts by powers of X2: P holds X2^k. */
        double *P = X4;
        int k;
        set_identity(n, P);
        memset(T, 0, sizeof(double) * nn);
        memset(V, 0, sizeof(double) * nn);
        for (k = 0; 2 * k <= m; k++) {
            axpy(n, b[2 * k + 1], P, T);
            axpy(n, b[2 * k], P, V);
            if (2 * k + 2 <= m) {
                nsm_la_matmul(n, n, n, P, X2, X6);
                memcpy(P, X6, sizeof(double) * nn);
            }
        }
        nsm_la_matmul(n, n, n, X, T, U);
    }
    /* (V - U) R = (V + U) */
    for (i = 0; i < (int)nn; i++) {
        R[i] = V[i] + U[i];
        T[i] = V[i] - U[i];
    }
    *s_out = s;
    return nsm_la_solve(n, T, R, n) == NSM_LA_OK ? NSM_LA_OK : NSM_LA_NOCONV;
}

/* Workspace: take it from buf if it fits, else from malloc. */
static double *workspace(double *buf, size_t need)
{
    if (need <= EXPM_STACK) return buf;
    return malloc(sizeof(double) * need);
}

/*
** The balancing factors d of A h for the exponentials: nsm_la_balance's
** powers of two, or ones where balancing does not lower the 1-norm. They
** depend on the matrix, not on the step (a scaling by h scales every row
** and column norm alike), so a caller that steps one matrix many times
** forms them once (nsm_expm_factors with h = 1) and passes them. Y and T
** are n*n workspaces; Y ends as A h, T as A h balanced. 1 when the
** balancing is kept, 0 when d was set to ones.
*/
static int step_factors(int n, const double *A, double h, double *Y, double *d, double *T)
{
    size_t nn = (size_t)n * (size_t)n;
    int i;

    for (i = 0; i < (int)nn; i++) Y[i] = A[i] * h;
    memcpy(T, Y, sizeof(double) * nn);
    nsm_la_balance(n, T, d);
    if (nsm_la_norm1(n, T) < nsm_la_norm1(n, Y)) return 1;
    for (i = 0; i < n; i++) d[i] = 1.0;
    return 0;
}

/*
** E = exp(A h). Balances A h when that lowers its norm, evaluates the Pade
** approximant of the scaled matrix and squares it back.
*/
int nsm_expm(int n, const double *A, double h, double *E)
{
    double buf[EXPM_STACK], *w, *X, *d, *T;
    size_t nn = (size_t)n * (size_t)n;
    int i, j, s, rc;

    if (n <= 0) return NSM_LA_OK;
    if (h == 0.0) {
        set_identity(n, E);
        return NSM_LA_OK;
    }
    w = workspace(buf, 8 * nn + (size_t)n);
    if (!w) return NSM_LA_NOMEM;
    X = w + 6 * nn;
    T = w + 7 * nn;
    d = w + 8 * nn;
    if (step_factors(n, A, h, X, d, T)) memcpy(X, T, sizeof(double) * nn);

    rc = pade(n, X, E, &s, w);
    for (; rc == NSM_LA_OK && s > 0; s--) {
        nsm_la_matmul(n, n, n, E, E, T);
        memcpy(E, T, sizeof(double) * nn);
    }
    /* Undo the balancing: exp(D B D^-1) = D exp(B) D^-1. */
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) E[i * n + j] *= d[i] / d[j];
    if (w != buf) free(w);
    return rc;
}

/* nsm_expm_factors: step_factors with its own workspace (linalg.h). */
int nsm_expm_factors(int n, const double *A, double h, double *d)
{
    double buf[EXPM_STACK], *w;
    size_t nn = (size_t)n * (size_t)n;

    if (n <= 0) return NSM_LA_OK;
    w = workspace(buf, 2 * nn);
    if (!w) return NSM_LA_NOMEM;
    step_factors(n, A, h, w, d, w + nn);
    if (w != buf) free(w);
    return NSM_LA_OK;
}

/*
** Balanced copy of A h: Y = D^-1 (A h) D, with D = diag(d) the factors
** given (bal) or formed here (step_factors) into d. A power of two scales
** a double exactly, so Y is what balancing A h in place leaves.
*/
static void balanced_step(int n, const double *A, double h, const double *bal, double *Y, double *d,
                          double *T)
{
    int i, j;

    if (!bal) {
        if (!step_factors(n, A, h, T, d, Y)) memcpy(Y, T, sizeof(double) * (size_t)n * (size_t)n);
        return;
    }
    memcpy(d, bal, sizeof(double) * (size_t)n);
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            Y[i * n + j] = (double)((long double)(A[i * n + j] * h) * ((long double)bal[j] / bal[i]));
}

/*
** The exact method's propagators are applied thousands of times between
** events, so their own rounding (a few units in the last place of a double
** Pade approximant and its squarings) is what limits the method; the same
** exponential in long double (64-bit significand on x86-64) leaves only the
** final rounding of the state.  Scaling and squaring with a Taylor
** polynomial: once ||X||_1 <= 1/8, degree LD_TAYLOR truncates below 1e-25,
** and the degree is lowered to what ||X||_1 needs for 1e-21 (the steps of
** event location are mostly short).
*/
#define LD_TAYLOR 18

/* C = A B for n*n long double matrices (C must not alias A or B). */
static void matmul_ld(int n, const long double *A, const long double *B, long double *C)
{
    int i, j, k;

    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            long double sum = 0.0L;
            for (k = 0; k < n; k++) sum += A[i * n + k] * B[k * n + j];
            C[i * n + j] = sum;
        }
}

/*
** E = exp(A h) in long double: balance A h as nsm_expm does, scale it to
** ||X||_1 <= 1/8, sum the Taylor series in Horner form, square back and
** undo the balancing (exact: powers of two).
*/
int nsm_expm_ld(int n, const double *A, double h, long double *E)
{
    return nsm_expm_ld_bal(n, A, h, NULL, E);
}

/* nsm_expm_ld with the balancing factors bal given (NULL: formed here). */
int nsm_expm_ld_bal(int n, const double *A, double h, const double *bal, long double *E)
{
    size_t nn = (size_t)n * (size_t)n;
    double *X, *T, *d, norm, term, xs, tu, xu;
    long double *XL, *R, *P;
    int i, j, k, m, s = 0;

    if (n <= 0) return NSM_LA_OK;
    X = malloc(sizeof(double) * (2 * nn + (size_t)n));
    XL = malloc(sizeof(long double) * 3 * nn);
    if (!X || !XL) {
        free(X);
        free(XL);
        return NSM_LA_NOMEM;
    }
    T = X + nn;
    d = X + 2 * nn;
    R = XL + nn;
    P = XL + 2 * nn;
    balanced_step(n, A, h, bal, X, d, T);
    norm = nsm_la_norm1(n, X);
    if (!(norm < INFINITY)) {
        free(X);
        free(XL);
        return NSM_LA_NOCONV;
    }
    if (norm > 0.125) s = (int)ceil(log2(norm / 0.125));
    /* X again in long double: A h rounded to double would cost the result
     * its extra digits (the balancing factors d are powers of two) */
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            XL[i * n + j] = ldexpl((long double)A[i * n + j] * h * ((long double)d[j] / d[i]), -s);
    /* R = I + X (I + X/2 (... (I + X/m))) */
    for (i = 0; i < (int)nn; i++) R[i] = 0.0L;
    for (i = 0; i < n; i++) R[i * n + i] = 1.0L;
    /* smallest degree m with ||X||^(m+1) / (m+1)! below 1e-21, for the
     * balanced X and for A h / 2^s as given: undoing the balancing scales
     * an entry by d[i]/d[j], so a term below 1e-21 of the balanced norm can
     * be an entry's leading term (k/m = 1e-297 balanced A h to 1e-150 and
     * the degree to 0: E = I, the weight of a falling mass dropped, exit 0) */
    term = 1.0;
    tu = 1.0;
    xs = ldexp(norm, -s);
    xu = ldexp(nsm_la_norm1(n, A) * fabs(h), -s);
    m = 0;
    while (m < LD_TAYLOR) {
        term *= xs / (m + 1);
        tu *= xu / (m + 1);
        if (!(term > 1e-21 || tu > 1e-21)) break;
        m++;
    }
    for (k = m; k >= 1; k--) {
        matmul_ld(n, XL, R, P);
        for (i = 0; i < (int)nn; i++) R[i] = P[i] / k;
        for (i = 0; i < n; i++) R[i * n + i] += 1.0L;
    }
    for (; s > 0; s--) {
        matmul_ld(n, R, R, P);
        memcpy(R, P, sizeof(long double) * nn);
    }
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) E[i * n + j] = R[i * n + j] * ((long double)d[i] / d[j]);
    free(X);
    free(XL);
    return NSM_LA_OK;
}

/*
** E = exp(A h) and I = integral_0^h exp(A^T s) Q exp(A s) ds (Q symmetric).
**
** With B = D^-1 A D balanced, exp(A s) = D exp(B s) D^-1, so
** I = D^-1 [integral exp(B^T s) (D Q D) exp(B s) ds] D^-1. Q is further scaled
** by a power of two 2^q so that its norm matches that of B h (the integral is
** linear in Q, and the block matrix's norm then reflects A alone). Van Loan:
**     exp([[-B^T, Q'], [0, B]] t) = [[F, G], [0, exp(B t)]],
**     integral_0^t exp(B^T s) Q' exp(B s) ds = exp(B t)^T G,
** evaluated at t = h / 2^s, then doubled s times.
*/
int nsm_expm_quad(int n, const double *A, const double *Q, double h, double *E, double *I)
{
    return nsm_expm_quad_bal(n, A, Q, h, NULL, E, I);
}

/* nsm_expm_quad with the balancing factors bal given (NULL: formed here). */
int nsm_expm_quad_bal(int n, const double *A, const double *Q, double h, const double *bal, double *E,
                      double *I)
{
    double buf[EXPM_STACK], *w, *Y, *d, *C, *R, *Eb, *Ib, *T1, *T2;
    size_t nn = (size_t)n * (size_t)n, n2 = 4 * nn;
    int i, j, s, m = 2 * n, qexp = 0, rc;
    double ny, nq;

    if (n <= 0) return NSM_LA_OK;
    if (h == 0.0) {
        if (E) set_identity(n, E);
        if (I) memset(I, 0, sizeof(double) * nn);
        return NSM_LA_OK;
    }
    /* pade() needs 6 (2n)^2; then C, R (2n)^2 each; Y, Eb, Ib, T1, T2, and d. */
    w = workspace(buf, 8 * n2 + 5 * nn + (size_t)n);
    if (!w) return NSM_LA_NOMEM;
    C = w + 6 * n2;
    R = C + n2;
    Y = R + n2;
    Eb = Y + nn;
    Ib = Eb + nn;
    T1 = Ib + nn;
    T2 = T1 + nn;
    d = T2 + nn;

    balanced_step(n, A, h, bal, Y, d, T1);
    /* Q' = D Q D h 2^-qexp, where h comes from the change of variable s = h u. */
    ny = nsm_la_norm1(n, Y);
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) T1[i * n + j] = d[i] * Q[i * n + j] * d[j] * h;
    nq = nsm_la_norm1(n, T1);
    if (nq > 0.0 && ny > 0.0) frexp(nq / ny, &qexp);
    for (i = 0; i < (int)nn; i++) T1[i] = ldexp(T1[i], -qexp);

    memset(C, 0, sizeof(double) * n2);
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
            C[i * m + j] = -Y[j * n + i];
            C[i * m + n + j] = T1[i * n + j];
            C[(n + i) * m + n + j] = Y[i * n + j];
        }
    }
    rc = pade(m, C, R, &s, w);
    if (rc != NSM_LA_OK) goto done;
    /* Step h/2^s: Eb = lower-right block, Ib = Eb^T (upper-right block). */
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
            Eb[i * n + j] = R[(n + i) * m + n + j];
            T1[i * n + j] = R[i * m + n + j];
        }
    }
    matmul_tn(n, Eb, T1, Ib);
    /* Doubling: I <- I + E^T I E, E <- E^2. */
    for (; s > 0; s--) {
        nsm_la_matmul(n, n, n, Ib, Eb, T1);
        matmul_tn(n, Eb, T1, T2);
        for (i = 0; i < (int)nn; i++) Ib[i] += T2[i];
        nsm_la_matmul(n, n, n, Eb, Eb, T1);
        memcpy(Eb, T1, sizeof(double) * nn);
    }
    /* Undo the scalings: E = D Eb D^-1, I = 2^qexp D^-1 sym(Ib) D^-1. */
    if (E)
        for (i = 0; i < n; i++)
            for (j = 0; j < n; j++) E[i * n + j] = Eb[i * n + j] * d[i] / d[j];
    if (I)
        for (i = 0; i < n; i++)
            for (j = 0; j < n; j++)
                I[i * n + j] = ldexp(0.5 * (Ib[i * n + j] + Ib[j * n + i]), qexp) / (d[i] * d[j]);
done:
    if (w != buf) free(w);
    return rc;
}

