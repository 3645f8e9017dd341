/*
 * nsm/cli.h - the command-line program of a generated simulator, in
 * libnsmcli (runtime/programs/driver.c), not in the core library libnsmrt
 * whose API is nsm/nsm.h.  A generated file's main() calls it; a program
 * that embeds a model through nsm/nsm.h does not need it (docs/runtime.md).
 */
#ifndef NSM_CLI_H
#define NSM_CLI_H

#include "nsm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Runs the simulator of model m with the command line argc, argv (options,
 * outputs and plots: docs/runtime.md).  Returns the process exit status:
 * 0 ok, 1 bad arguments, 3 simulation failure. */
int nsm_main(const nsm_model *m, int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
