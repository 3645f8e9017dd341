/*
 * progress.h - a progress bar on a terminal for long simulations.
 *
 *     nsm_progress pb;
 *     nsm_progress_start(&pb, stderr);
 *     ... nsm_progress_update(&pb, t / t_end); ...   (from the sample handler)
 *     nsm_progress_finish(&pb);
 *
 * The bar appears only when the stream is a terminal and the run has lasted
 * about a second (NSM_PROGRESS_DELAY, in seconds, overrides the wait); it is redrawn at most ten times a second and erased by
 * nsm_progress_finish, so nothing of it ever reaches a file or a pipe.
 * Internal to libnsmrt, for the command-line driver.
 */
#ifndef NSM_PROGRESS_H
#define NSM_PROGRESS_H

#include <stdio.h>

typedef struct nsm_progress {
    FILE *f;          /* NULL: inactive (not a terminal) */
    double start;     /* wall-clock seconds at nsm_progress_start */
    double last;      /* wall-clock seconds of the last redraw, 0 = never drawn */
    double delay;     /* seconds before the bar first appears */
    long calls;       /* updates since the last clock reading */
} nsm_progress;

/* Starts timing; the bar will be drawn on f only if f is a terminal. */
void nsm_progress_start(nsm_progress *p, FILE *f);
/* Reports the fraction done (clamped to [0, 1]); cheap enough to call every step. */
void nsm_progress_update(nsm_progress *p, double fraction);
/* Erases the bar, if one was drawn. */
void nsm_progress_finish(nsm_progress *p);

#endif
