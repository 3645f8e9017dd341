/*
** The output folder's lock, shared by the sweep and continuation programs
** (outdir.h).  An fcntl lock on DIR/.nsm-run.lock, the file `nsmc run`
** locks (compiler/commands/run.c), holding the locker's process id for the
** message of a second writer.
*/
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outdir.h"

/* Makes the output folder dir and takes its lock for the rest of the
** process (the descriptor stays open); the lock also proves the folder
** writable before any work.  0, or 1 after a message naming the other
** writer's process when it is known. */
int outdir_lock(const char *prog, const char *dir)
{
    struct stat st;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "%s: error: cannot create '%s': %s\n", prog, dir, strerror(errno));
        return 1;
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "%s: error: '%s' is not a folder\n", prog, dir);
        return 1;
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/.nsm-run.lock", dir);
    /* never through a link nor into a FIFO or a device: the process id
    ** written into it replaced whatever file a planted link named */
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0666);
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        fprintf(stderr, "%s: error: cannot create the lock %s: %s\n", prog, path,
                fd < 0 && errno != ELOOP ? strerror(errno)
                : "it is not a regular file (a symbolic link, a FIFO or a device); remove it");
        if (fd >= 0)
            close(fd);
        return 1;
    }
    struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    if (fcntl(fd, F_SETLK, &fl) == 0) {
        char pid[32];
        int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
        if (ftruncate(fd, 0) != 0 || write(fd, pid, (size_t)n) != n)
            fprintf(stderr, "%s: warning: cannot write the lock %s: %s\n", prog, path,
                    strerror(errno));
        return 0;
    }
    struct flock q = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    long other = fcntl(fd, F_GETLK, &q) == 0 && q.l_type != F_UNLCK ? (long)q.l_pid : -1;
    close(fd);
    if (other > 0)
        fprintf(stderr, "%s: error: another run (process %ld) is writing into '%s'; wait for "
                "it to end or choose another folder with --out-dir\n", prog, other, dir);
    else
        fprintf(stderr, "%s: error: another run is writing into '%s' (%s is locked); wait for "
                "it to end or choose another folder with --out-dir\n", prog, dir, path);
    return 1;
}
