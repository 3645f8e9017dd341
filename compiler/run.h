/*
 * run.h - `nsmc run FILE.nsm [-- args]`: compile, build and run a model.
 */
#ifndef NSM_RUN_H
#define NSM_RUN_H

/* argv[0] is "run"; returns the process exit code. */
int run_main(int argc, char **argv);

#endif
