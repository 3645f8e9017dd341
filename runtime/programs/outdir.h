/*
** The outputs of nsmc and its programs.  The output folder of a study
** program (nsmc sweep, nsmc continue): made, and locked as `nsmc run` locks
** its own (DIR/.nsm-run.lock), so that one run, sweep or continuation at a
** time writes into a folder.  Standard output: a reader that went away is
** a failed write, reported as any other.  A file replaced through a
** temporary: a symbolic link is followed to the file it names.
*/
#ifndef NSM_OUTDIR_H
#define NSM_OUTDIR_H

#include <stddef.h>
#include <sys/stat.h>

/* the bytes kept for the longest file name written into an output folder,
** its slash included (outdir_path_check) */
#define OUTDIR_NAME_ROOM 48

int outdir_path_check(const char *prog, const char *dir);
int outdir_dangling(const char *dir, char *why, size_t len);
int outdir_lock(const char *prog, const char *dir);
int outdir_lock_take(const char *prog, const char *dir);
int outdir_lock_take_for(const char *prog, const char *dir, const char *option);
int outdir_make_dirs(const char *dir);
void outdir_unmake(void);
void outdir_made_note(const char *dir);
void outdir_lock_drop(void);
void out_std_hold(void);
void out_pipe_ignore(void);
void out_stop_install(void (*handler)(int), int flags);
int out_stdout_check(const char *prog);
int out_link_target(const char *prog, const char *path, char *target, size_t len);
int outdir_result_check(const char *prog, const char *path);
int outdir_names_file(const char *dir, const struct stat *st);
int outdir_output_free(const char *prog, const char *option, const char *path);
/* Whether the regular file path is one of another running program's outputs,
 * which it holds locked (flock) as a simulator's outputs are: a file written
 * at the end through a rename (the Lyapunov spectrum, the animation) or in
 * place (the animation's script) replaced that program's file.  Nonzero
 * when in use. */
int out_file_in_use(const char *path);
void outdir_others_remove(const char *prog, const char *dir, const char *const *own, int nown);
void outdir_id_take(const char *dir, struct stat *id);
int outdir_moved(const char *dir, const struct stat *id);
int outdir_still_there(const char *prog, const char *dir, const struct stat *id,
                       const char *what, const char *partial);

#endif
