/*
 * progress.h - a progress bar on a terminal for long simulations.
 *
 *     Progress pb;
 *     progress_start(&pb, stderr);
 *     ... progress_update(&pb, t / t_end); ...   (from the sample handler)
 *     progress_finish(&pb);
 *
 * The bar appears only when the stream is a terminal and the run has lasted
 * about a second (NSM_PROGRESS_DELAY, in seconds, overrides the wait); it is redrawn at most ten times a second and erased by
 * progress_finish, so nothing of it ever reaches a file or a pipe.
 * Part of libnsmcli (the programs' library), for the command-line driver.
 */
#ifndef NSM_PROGRESS_H
#define NSM_PROGRESS_H

#include <stdio.h>

typedef struct Progress {
    FILE *f;          /* NULL: inactive (not a terminal) */
    double start;     /* wall-clock seconds at progress_start */
    double last;      /* wall-clock seconds of the last redraw, 0 = never drawn */
    double delay;     /* seconds before the bar first appears */
    long calls;       /* updates since the last clock reading */
} Progress;

/* Starts timing; the bar will be drawn on f only if f is a terminal. */
void progress_start(Progress *p, FILE *f);
/* Reports the fraction done (clamped to [0, 1]); cheap enough to call every step. */
void progress_update(Progress *p, double fraction);
/* Erases the bar, if one was drawn. */
void progress_finish(Progress *p);

#endif
