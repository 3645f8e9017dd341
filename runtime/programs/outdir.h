/*
** The output folder of a study program (nsmc sweep, nsmc continue): made,
** and locked as `nsmc run` locks its own (DIR/.nsm-run.lock), so that one
** run, sweep or continuation at a time writes into a folder.
*/
#ifndef NSM_OUTDIR_H
#define NSM_OUTDIR_H

int outdir_lock(const char *prog, const char *dir);

#endif
