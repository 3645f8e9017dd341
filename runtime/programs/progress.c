/*
** progress.c: a one-line progress bar on a terminal (see progress.h).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

enum { BAR_WIDTH = 40, CLOCK_EVERY = 8 };

/* Monotonic wall-clock time in seconds. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Starts timing; inactive unless f is a terminal.  NSM_PROGRESS_DELAY (in
** seconds) overrides the one-second wait, so the bar can be tested without
** depending on how fast the machine is. */
void progress_start(Progress *p, FILE *f)
{
    memset(p, 0, sizeof *p);
    p->delay = 1.0;
    const char *env = getenv("NSM_PROGRESS_DELAY");
    char *end;
    double d = env ? strtod(env, &end) : -1;
    if (env && end != env && *end == '\0' && d >= 0)
        p->delay = d;
    if (f && isatty(fileno(f))) {
        p->f = f;
        p->start = now();
    }
}

/* Draws the bar for the given fraction, at most ten times a second, and
** only after the first second of the run.  Reads the clock only every
** CLOCK_EVERY calls, so that calling it at every step costs nothing. */
void progress_update(Progress *p, double fraction)
{
    if (!p->f || ++p->calls < CLOCK_EVERY)
        return;
    p->calls = 0;
    double t = now();
    if (t - p->start < p->delay || (p->last > 0 && t - p->last < 0.1))
        return;
    p->last = t;
    if (!(fraction >= 0))
        fraction = 0;
    if (fraction > 1)
        fraction = 1;
    char bar[BAR_WIDTH + 1];
    int full = (int)(fraction * BAR_WIDTH);
    for (int i = 0; i < BAR_WIDTH; i++)
        bar[i] = i < full ? '#' : '.';
    bar[BAR_WIDTH] = '\0';
    double elapsed = t - p->start;
    if (fraction > 0.01)
        fprintf(p->f, "\r[%s] %3d%%  %.0f s left ", bar, (int)(100 * fraction),
                elapsed * (1 - fraction) / fraction);
    else
        fprintf(p->f, "\r[%s] %3d%%            ", bar, (int)(100 * fraction));
    fflush(p->f);
}

/* Erases the bar so that the next message starts on a clean line. */
void progress_finish(Progress *p)
{
    if (p->f && p->last > 0) {
        fprintf(p->f, "\r%*s\r", BAR_WIDTH + 24, "");
        fflush(p->f);
    }
    p->f = NULL;
}
