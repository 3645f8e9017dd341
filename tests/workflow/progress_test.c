/*
 * progress_test.c - drives the progress bar for about 1.6 s, as a long
 * simulation would; progress_test.py runs it on a terminal and on a pipe.
 */
#define _POSIX_C_SOURCE 200809L   /* nanosleep */
#include <stdio.h>
#include <time.h>

#include "progress.h"

int main(void)
{
    Progress pb;
    struct timespec tick = {0, 1000000};   /* 1 ms */
    progress_start(&pb, stderr);
    for (int i = 0; i <= 1600; i++) {
        progress_update(&pb, i / 1600.0);
        nanosleep(&tick, NULL);
    }
    progress_finish(&pb);
    fputs("done\n", stderr);
    return 0;
}
