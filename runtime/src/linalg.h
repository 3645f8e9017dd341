/*
** linalg.h: the dense numerical kernels of libnsmrt.
**
** Small dense linear algebra (solve, product), the matrix
** exponential and its Van Loan quadratic integral (the exact method of a
** linear mode), and a linear complementarity solver for simultaneous
** impacts. Matrices are row-major, n*n unless stated. No function prints,
** exits or keeps state; workspace comes from the stack for small n and from
** malloc otherwise.
*/
#ifndef NSM_LINALG_H
#define NSM_LINALG_H

/* Status codes shared with the runtime core (distinct from nsm.h's NSM_E*). */
#define NSM_LA_OK 0
#define NSM_LA_SINGULAR 1
#define NSM_LA_NOCONV 2
#define NSM_LA_NOMEM 3

/* Solve A X = B in place: B is n*nrhs row-major and receives X. Gaussian
** elimination with partial pivoting; A is destroyed. */
int nsm_la_solve(int n, double *A, double *B, int nrhs);

/* Cholesky factor of the symmetric n x n matrix A in place: its lower
** triangle receives L with A = L L^T (the upper one is left as it was).
** The index of the first pivot that is not > 0 (A is not positive
** definite: its leading block of that size is singular or indefinite), or
** -1.  Used by the mass operator of a model written by its energies, and
** by nsmc to check that model's M(q) at the initial state. */
int nsm_la_cholesky(int n, double *A);

/* x = L^-T L^-1 b with the factor of nsm_la_cholesky (x may alias b). */
void nsm_la_cholesky_solve(int n, const double *L, const double *b, double *x);

/* C(n*k) = A(n*m) B(m*k). C must not alias A or B. */
void nsm_la_matmul(int n, int m, int k, const double *A, const double *B, double *C);

/* y(n) = A(n*m) x(m). y must not alias x. */
void nsm_la_matvec(int n, int m, const double *A, const double *x, double *y);

/* Balance X in place: X <- D^-1 X D with d = diag(D) in powers of two
** (exact), equalising row and column norms (Parlett & Reinsch). */
void nsm_la_balance(int n, double *X, double *d);

/* Eigenvalues of A (re[i] + i im[i], in no particular order): balancing,
** Hessenberg reduction, shifted QR. NSM_LA_NOCONV if it does not converge. */
int nsm_la_eigvals(int n, const double *A, double *re, double *im);

/* Infinity norm (max row sum) and 1-norm (max column sum) of an n*n matrix. */
double nsm_la_norm_inf(int n, const double *A);
double nsm_la_norm1(int n, const double *A);

/* E = exp(A h): scaling and squaring with the [13/13] Pade approximant
** (N. J. Higham, SIAM J. Matrix Anal. Appl. 26(4), 2005), with the lower
** order approximants [3/3]..[9/9] when ||A h||_1 is small. */
int nsm_expm(int n, const double *A, double h, double *E);

/* E = exp(A h) computed in long double (Taylor with scaling and squaring),
** for propagators applied many times over; see expm.c. */
int nsm_expm_ld(int n, const double *A, double h, long double *E);

/* The balancing factors d (n) of A h that nsm_expm_ld and nsm_expm_quad
** use: powers of two, or ones where balancing does not lower the 1-norm.
** They do not depend on h but through rounding, so a matrix stepped many
** times has them formed once (h = 1) and passed to the _bal forms, which
** take them as given (NULL: formed at each call, as the plain forms do). */
int nsm_expm_factors(int n, const double *A, double h, double *d);
int nsm_expm_ld_bal(int n, const double *A, double h, const double *bal, long double *E);
int nsm_expm_quad_bal(int n, const double *A, const double *Q, double h, const double *bal, double *E,
                      double *I);

/* E = exp(A h) and I = integral_0^h exp(A^T s) Q exp(A s) ds, Q symmetric,
** by Van Loan's block-matrix method (C. F. Van Loan, IEEE TAC 23(3), 1978).
** Either output may be NULL if not wanted. */
int nsm_expm_quad(int n, const double *A, const double *Q, double h, double *E, double *I);

/* Linear complementarity: find z >= 0 with w = M z + q >= 0 and z.w = 0.
** Murty's least-index principal pivoting (finite for P-matrices), falling
** back to enumeration of complementary index sets for n <= 12.
** NSM_LA_NOCONV if no solution is found. w may be NULL. */
int nsm_lcp_solve(int n, const double *M, const double *q, double *z, double *w);

#endif
