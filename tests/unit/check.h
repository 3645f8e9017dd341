/*
** check.h: the unit tests' record of checks, shared by test_linalg.c,
** test_rigid.c, test_rigid_contact.c and tests/rigid/test_rigid_models.c.
**
** Each check prints a FAIL line with its context when it does not hold;
** check_report prints the totals and gives the program's exit status.
** Included once per test program (the counters are the program's).
*/
#ifndef NSM_TEST_CHECK_H
#define NSM_TEST_CHECK_H

#include <math.h>
#include <stdio.h>

static int failures, checks;

/* Records one check: |got - want| <= tol, printing the context on failure. */
static void check_close(const char *what, double got, double want, double tol)
{
    checks++;
    if (!(fabs(got - want) <= tol)) {
        failures++;
        printf("FAIL %s: got %.17g want %.17g (diff %.3g, tol %.3g)\n", what, got, want,
               fabs(got - want), tol);
    }
}

/* Records one check of a condition. */
static void check_true(const char *what, int ok)
{
    checks++;
    if (!ok) {
        failures++;
        printf("FAIL %s\n", what);
    }
}

/* Prints the totals; the program's exit status (1 when a check failed). */
static int check_report(void)
{
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}

#endif
