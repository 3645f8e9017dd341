/* run.c - `nsmc run`: not available yet in this build. */
#include "run.h"

#include <stdio.h>

int run_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fputs("nsmc: error: 'nsmc run' is not yet available; use 'nsmc FILE.nsm -o FILE.c'\n", stderr);
    return 1;
}
