/*
** test_damped_law.c: a compliant contact law with damping that is not the
** runtime's penalty law (a program's own, registered under a number of its
** own) has its dissipation in the command line's --summary: the line
** "contact damper GAP" is printed for every law with a damping hook, not
** only for NSM_LAW_PENALTY, so the dissipated total is accounted for.
**
** The law is the penalty law's table under another name and number; the
** model is SDND121 (models/sdnd121.nsm) with its stop given that law and a
** damping c_choc > 0, its only dissipator: the summary's contact damper
** line must then equal its "dissipated" total (to the printed digits).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "law.h"
#include "nsm/cli.h"

#define DAMPED_LAW 5

extern const nsm_model nsm_model_sdnd121;

static rt_law damped;

/* The value of the summary line starting with `label` (after blanks), or
** NAN when there is none. */
static double summary_value(FILE *f, const char *label)
{
    char line[512];
    rewind(f);
    while (fgets(line, sizeof line, f)) {
        const char *s = line + strspn(line, " ");
        if (!strncmp(s, label, strlen(label)))
            return strtod(s + strlen(label), NULL);
    }
    return NAN;
}

int main(void)
{
    damped = rt_law_penalty;
    damped.name = "damped";
    if (rt_law_register(DAMPED_LAW, &damped) != NSM_OK) {
        printf("FAIL the damped law cannot be registered\n");
        return 1;
    }
    nsm_model m = nsm_model_sdnd121;
    nsm_gap_info gap = m.gaps[0];
    gap.law = DAMPED_LAW;
    m.gaps = &gap;
    char *argv[] = { "test_damped_law", "--set", "c_choc=5000", "--set", "k_choc=1e8",
                     "--t-end", "0.3", "--summary", "--out", "/dev/null", "--events",
                     "/dev/null", NULL };
    FILE *out = tmpfile();
    fflush(stdout);
    int saved = dup(fileno(stdout));
    if (!out || saved < 0 || dup2(fileno(out), fileno(stdout)) < 0) {
        printf("FAIL no temporary file\n");
        return 1;
    }
    int rc = nsm_main(&m, (int)(sizeof argv / sizeof argv[0]) - 1, argv);
    fflush(stdout);
    dup2(saved, fileno(stdout));
    double total = summary_value(out, "dissipated "), line = summary_value(out, "contact damper stop");
    int ok = rc == 0 && total > 0 && fabs(line - total) <= 1e-8 * total;
    printf("%s the damped law's dissipation in the summary: dissipated %.10g J, contact damper "
           "stop %.10g J (exit %d)\n", ok ? "ok  " : "FAIL", total, line, rc);
    return ok ? 0 : 1;
}
