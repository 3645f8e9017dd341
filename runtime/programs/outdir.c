/*
** The outputs shared by nsmc, the simulators and the study programs
** (outdir.h).  The output folder's lock: an fcntl lock on
** DIR/.nsm-run.lock, the file `nsmc run` locks (compiler/commands/run.c),
** holding the locker's process id for the message of a second writer.
** Standard output's checks, and the file a symbolic link names, for the
** outputs replaced through a temporary (`nsmc -o`, the sweep's results).
*/
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700   /* realpath */
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outdir.h"

/* Whether the lock file fd, once locked, holds what a lock holds: nothing
** (new, or a writer killed between its truncation and its write) or a
** process id (its line end cut by a short write or not); its size into
** *size.  Anything else is a
** file of the user's under the lock's name (a model or a parameter file
** kept in the folder as .nsm-run.lock), which the process id written over
** it destroyed, exit 0. */
static int outdir_lock_held_text(int fd, long long *size)
{
    struct stat st;
    char text[32];
    if (fstat(fd, &st) != 0)
        return 0;
    *size = (long long)st.st_size;
    if (st.st_size == 0)
        return 1;
    if (st.st_size >= (off_t)sizeof text || pread(fd, text, sizeof text, 0) != st.st_size)
        return 0;
    off_t n = 0;
    while (n < st.st_size && text[n] >= '0' && text[n] <= '9')
        n++;
    return n > 0 && (n == st.st_size || (n == st.st_size - 1 && text[n] == '\n'));
}

/* Says, after a refused lock, that this process is one of several that
** mpirun started (OpenMPI's OMPI_COMM_WORLD_SIZE, MPICH's PMI_SIZE): under
** `mpirun -np 2 nsmc continue` or `nsmc run` each rank did the whole work
** into one folder, the second was refused as "another run", and mpirun
** then stopped the first mid-run; only a sweep shares its work over the
** ranks (its rank 0 alone takes the lock). */
static void outdir_mpi_note(const char *prog)
{
    static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE" };
    for (size_t k = 0; k < sizeof vars / sizeof *vars; k++) {
        const char *v = getenv(vars[k]);
        char *end;
        long n = v && *v ? strtol(v, &end, 10) : 0;
        if (n > 1 && !*end) {
            fprintf(stderr, "%s: note: this is one of %ld processes started by mpirun: each "
                    "does the whole work, and the other run is likely one of them; only nsmc "
                    "sweep shares its work over MPI ranks: start this one without mpirun\n",
                    prog, n);
            return;
        }
    }
}

static int outdir_name_at(size_t k, char *buf, size_t len);

/* Whether a file of dir under one of the programs' names (outdir_name_at)
** is being written by a running simulator (its outputs are locked with
** flock while written): 1 after a message naming it.  A simulator's
** `--stats D/plot.png` started before `nsmc run --out-dir D` ran, both
** exit 0, and the run's figure took the statistics' place. */
static int outdir_names_busy(const char *prog, const char *dir, const char *option)
{
    char name[64], path[4300];
    struct stat st;
    for (size_t k = 0; outdir_name_at(k, name, sizeof name); k++) {
        if (!strcmp(name, ".nsm-run.lock"))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, name);
        if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;       /* never opened: a device or a FIFO under the name */
        int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
        if (fd < 0)
            continue;
        int busy = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
                   flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
        close(fd);
        if (busy) {
            fprintf(stderr, "%s: error: '%s' is being written by another running program (an "
                    "output of a simulator): this run would write over it or remove it; wait "
                    "for it to end or choose another folder with %s\n", prog, path, option);
            return 1;
        }
    }
    return 0;
}

/* The folder lock this process holds (outdir_lock_take_for), removed at
** its end with the folders it made for it (outdir_lock_drop): a refused
** `nsmc run`, a failed continuation or a simulator's --plot left their
** folder holding only .nsm-run.lock, or the lock among the results. */
static struct {
    int fd;                 /* -1: none held */
    pid_t pid;              /* the holder; a forked child never removes it */
    dev_t dev;
    ino_t ino;
    int dirfd;              /* the lock's folder, wherever it is moved; -1: none */
    char path[4200];        /* DIR/.nsm-run.lock */
    char dir[4096];         /* the folder, when this process made part of it */
    dev_t dir_dev;          /* the folder made (dir), to tell it from one */
    ino_t dir_ino;          /* the user made under its name after a move */
} outdir_held = { .fd = -1, .dirfd = -1 };

/* The folders this process made with outdir_make_dirs, each by its path,
** device and inode, in the order made: outdir_unmake removes exactly
** these.  A prefix that was missing when the path was read says nothing of
** what mkdir makes: `--out-dir A/../B` with A missing took the whole path as
** made, and B, the user's folder, was removed at a failed run's end. */
#define OUTDIR_MADE_MAX 64
static struct {
    int n;
    struct { dev_t dev; ino_t ino; char path[4096]; } e[OUTDIR_MADE_MAX];
} outdir_made;

/* Records path, just made by this process's mkdir, among its folders
** (outdir_made); past the list's room it is not recorded, so kept. */
static void outdir_made_add(const char *path)
{
    struct stat st;
    if (outdir_made.n >= OUTDIR_MADE_MAX || lstat(path, &st) != 0 || !S_ISDIR(st.st_mode) ||
        snprintf(outdir_made.e[outdir_made.n].path, sizeof outdir_made.e[0].path, "%s",
                 path) >= (int)sizeof outdir_made.e[0].path)
        return;
    outdir_made.e[outdir_made.n].dev = st.st_dev;
    outdir_made.e[outdir_made.n].ino = st.st_ino;
    outdir_made.n++;
}

/* Makes dir and its parents (`mkdir -p`), recording each folder this
** process made itself, and only those (outdir_made_add), for
** outdir_unmake.  0, or -1 with errno set. */
int outdir_make_dirs(const char *dir)
{
    char p[4096];
    struct stat st;
    outdir_made.n = 0;
    if (snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *s = p + 1; *s; s++) {
        if (*s != '/' || s[-1] == '/')
            continue;
        *s = 0;
        if (mkdir(p, 0777) == 0)
            outdir_made_add(p);
        else if (errno != EEXIST)
            return -1;
        *s = '/';
    }
    if (mkdir(p, 0777) == 0)
        outdir_made_add(p);
    else if (errno != EEXIST)
        return -1;
    if (stat(p, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

/* Removes the folders this process made (outdir_make_dirs), deepest
** first, each only while its path still names the folder made (device and
** inode) and it is empty (rmdir); the first one kept keeps those above
** it.  A folder that was there before is never among them. */
void outdir_unmake(void)
{
    while (outdir_made.n > 0) {
        struct stat st;
        int k = outdir_made.n - 1;
        if (lstat(outdir_made.e[k].path, &st) != 0 || !S_ISDIR(st.st_mode) ||
            st.st_dev != outdir_made.e[k].dev || st.st_ino != outdir_made.e[k].ino ||
            rmdir(outdir_made.e[k].path) != 0)
            break;
        outdir_made.n = k;
    }
    outdir_made.n = 0;
}

/* Notes that dir's folders made by outdir_make_dirs were made by this
** process for the lock it holds: removed at its end when they hold nothing
** else (outdir_lock_drop).  Never a folder that was there before. */
void outdir_made_note(const char *dir)
{
    struct stat st;
    if (outdir_held.fd < 0 || outdir_made.n == 0 || stat(dir, &st) != 0 ||
        snprintf(outdir_held.dir, sizeof outdir_held.dir, "%s", dir) >=
        (int)sizeof outdir_held.dir) {
        outdir_held.dir[0] = 0;
        return;
    }
    outdir_held.dir_dev = st.st_dev;
    outdir_held.dir_ino = st.st_ino;
}

/* Whether dir still names the folder the process made (outdir_made_note):
** a folder moved away mid-run and an empty one of the user's made under
** its name was removed at the program's end as its own. */
static int outdir_made_there(void)
{
    struct stat st;
    return stat(outdir_held.dir, &st) == 0 && S_ISDIR(st.st_mode) &&
           st.st_dev == outdir_held.dir_dev && st.st_ino == outdir_held.dir_ino;
}

/* Removes the lock file of the held lock, the file still its own (a lock
** file a user moved away and replaced is left): through the folder's
** descriptor, so that it goes from the folder wherever that was moved (by
** its path it stayed in a folder moved mid-run, and the lock under the
** name, another program's, was rightly left). */
static void outdir_lock_unlink(void)
{
    struct stat st;
    int at = outdir_held.dirfd >= 0 ? outdir_held.dirfd : AT_FDCWD;
    const char *name = outdir_held.dirfd >= 0 ? ".nsm-run.lock" : outdir_held.path;
    if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_dev == outdir_held.dev &&
        st.st_ino == outdir_held.ino)
        unlinkat(at, name, 0);
}

/* Removes the lock this process holds, the file still its own (a lock file
** a user moved away and replaced is left), then closes it, and removes the
** folders it made for it that hold nothing else.  Run at the process's
** end (atexit); a process killed leaves its lock, which the next program
** takes (it holds no lock once its holder is gone). */
void outdir_lock_drop(void)
{
    if (outdir_held.fd < 0 || outdir_held.pid != getpid())
        return;
    outdir_lock_unlink();
    close(outdir_held.fd);
    outdir_held.fd = -1;
    if (outdir_held.dirfd >= 0)
        close(outdir_held.dirfd);
    outdir_held.dirfd = -1;
    if (outdir_held.dir[0] && outdir_made_there())
        outdir_unmake();
}

/* Records the lock just taken (descriptor fd, file st at path, in the
** folder of descriptor dirfd, now owned) for its removal at the process's
** end (outdir_lock_drop). */
static void outdir_lock_hold(int fd, int dirfd, const struct stat *st, const char *path)
{
    static int registered;
    outdir_held.fd = fd;
    outdir_held.dirfd = dirfd;
    outdir_held.pid = getpid();
    outdir_held.dev = st->st_dev;
    outdir_held.ino = st->st_ino;
    outdir_held.dir[0] = 0;
    snprintf(outdir_held.path, sizeof outdir_held.path, "%s", path);
    if (!registered && atexit(outdir_lock_drop) == 0)
        registered = 1;
}

static int outdir_lock_try(const char *prog, const char *dir, const char *option,
                           const char *path);

/* Takes the lock of the output folder dir, DIR/.nsm-run.lock, for the rest
** of the process: the one lock of `nsmc run`, sweeps and continuations.
** Its descriptor (kept open), or -1 after a message naming the other
** writer's process when it is known. */
int outdir_lock_take(const char *prog, const char *dir)
{
    return outdir_lock_take_for(prog, dir, "--out-dir");
}

/* outdir_lock_take for a program whose folder is given by option (the
** simulator's --plot), named in the advice of a refusal.  The simulator's
** --plot folder was not locked: a simulator and `nsmc run`, or two
** simulators, wrote into one folder at once, each emptying the other's
** trajectory and figures. */
int outdir_lock_take_for(const char *prog, const char *dir, const char *option)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/.nsm-run.lock", dir);
    /* a lock taken on a file its holder removed at its end (outdir_lock_drop)
    ** while this process had it open is no lock: another process may hold
    ** the new file under the name; taken again on the file the name holds */
    for (int tries = 0; tries < 100; tries++) {
        int rc = outdir_lock_try(prog, dir, option, path);
        if (rc != -2)
            return rc;
    }
    fprintf(stderr, "%s: error: cannot take the lock %s: its file is removed and made again "
            "by other programs as this one takes it; wait for them to end\n", prog, path);
    return -1;
}

static int outdir_lock_try_at(const char *prog, const char *dir, const char *option,
                              const char *path, int dfd);

/* One attempt of outdir_lock_take_for at the lock file path of folder dir:
** its descriptor, -1 after a message, or -2 when the file locked is no
** longer the one under the name (removed by its holder at its end).  The
** folder is opened first and the lock taken in it (outdir_lock_try_at),
** its descriptor kept with the lock (outdir_lock_unlink). */
static int outdir_lock_try(const char *prog, const char *dir, const char *option,
                           const char *path)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int rc = outdir_lock_try_at(prog, dir, option, path, dfd);
    if (rc < 0 && dfd >= 0)
        close(dfd);
    return rc;
}

/* outdir_lock_try in the folder of descriptor dfd (by path when -1). */
static int outdir_lock_try_at(const char *prog, const char *dir, const char *option,
                              const char *path, int dfd)
{
    struct stat st;
    memset(&st, 0, sizeof st);
    /* never through a link nor into a FIFO or a device: the process id
    ** written into it replaced whatever file a planted link named; nor
    ** into a file with other names (a hard link), for the same reason */
    int fd = openat(dfd >= 0 ? dfd : AT_FDCWD, dfd >= 0 ? ".nsm-run.lock" : path,
                    O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0666);
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink > 1) {
        fprintf(stderr, "%s: error: cannot create the lock %s: %s\n", prog, path,
                fd < 0 && errno != ELOOP ? strerror(errno)
                : fd >= 0 && S_ISREG(st.st_mode)
                ? "it is a hard link, another name of a file elsewhere; remove it"
                : "it is not a regular file (a symbolic link, a FIFO or a device); remove it");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    if (fcntl(fd, F_SETLK, &fl) == 0) {
        long long size = 0;
        struct stat now;
        if (lstat(path, &now) != 0 || now.st_dev != st.st_dev || now.st_ino != st.st_ino) {
            close(fd);
            return -2;
        }
        if (!outdir_lock_held_text(fd, &size)) {
            fprintf(stderr, "%s: error: cannot take the lock %s: the file there holds other "
                    "data than a process id (%lld byte%s: a file of yours under the lock's "
                    "name?); move it out of the folder\n", prog, path, size, size == 1 ? "" : "s");
            close(fd);
            return -1;
        }
        if (outdir_names_busy(prog, dir, option)) {
            close(fd);
            return -1;
        }
        char pid[32];
        int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
        if (ftruncate(fd, 0) != 0 || write(fd, pid, (size_t)n) != n)
            fprintf(stderr, "%s: warning: cannot write the lock %s: %s\n", prog, path,
                    strerror(errno));
        outdir_lock_hold(fd, dfd, &st, path);
        return fd;
    }
    struct flock q = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    long other = fcntl(fd, F_GETLK, &q) == 0 && q.l_type != F_UNLCK ? (long)q.l_pid : -1;
    close(fd);
    if (other > 0)
        fprintf(stderr, "%s: error: another run (process %ld) is writing into '%s'; wait for "
                "it to end or choose another folder with %s\n", prog, other, dir, option);
    else
        fprintf(stderr, "%s: error: another run is writing into '%s' (%s is locked); wait for "
                "it to end or choose another folder with %s\n", prog, dir, path, option);
    outdir_mpi_note(prog);
    return -1;
}

/* Whether the paths of the files written into output folder dir fit the
** system's limit on a path (PATH_MAX, 4096 bytes on Linux): 0, or 1 after a
** message naming the folder's length.  The longest name written there,
** with its slash, is OUTDIR_NAME_ROOM bytes (a sweep's
** "bifurcations.csv.partial.prev", a figure's "NAME.png.tmpPID").  A folder
** whose own path fit but whose files' did not was made and locked, the
** simulator ran, and then gnuplot's figures could not be renamed into place:
** exit 1 with their temporaries left in the folder for ever. */
int outdir_path_check(const char *prog, const char *dir)
{
    size_t n = strlen(dir);
    if (n + OUTDIR_NAME_ROOM < PATH_MAX)
        return 0;
    fprintf(stderr, "%s: error: the output folder's path is too long (%zu bytes): the paths "
            "of the files written into it would pass the system's limit of %d bytes; choose a "
            "folder with a path of at most %d bytes\n", prog, n, PATH_MAX,
            PATH_MAX - 1 - OUTDIR_NAME_ROOM);
    return 1;
}

/* Whether dir, or a folder on its way, is a symbolic link to nothing: then
** a message naming the link and the missing target into why (len bytes)
** and 1 (mkdir said only "No such file or directory", or the folder was
** "not a folder"), else 0. */
int outdir_dangling(const char *dir, char *why, size_t len)
{
    char path[PATH_MAX], target[PATH_MAX];
    size_t n = strlen(dir);
    if (n == 0 || n >= sizeof path)
        return 0;
    memcpy(path, dir, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (path[i] != '/' && path[i] != '\0')
            continue;
        char keep = path[i];
        path[i] = '\0';
        struct stat lst, st;
        ssize_t t;
        if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) && stat(path, &st) != 0 &&
            errno == ENOENT && (t = readlink(path, target, sizeof target - 1)) >= 0) {
            target[t] = '\0';
            snprintf(why, len, "'%s' is a symbolic link to '%s', which does not exist", path,
                     target);
            return 1;
        }
        path[i] = keep;
    }
    return 0;
}

/* Makes the output folder dir and takes its lock for the rest of the
** process (outdir_lock_take); the lock also proves the folder writable
** before any work.  0, or 1 after a message. */
int outdir_lock(const char *prog, const char *dir)
{
    struct stat st;
    if (outdir_path_check(prog, dir))
        return 1;
    char why[2 * PATH_MAX + 64];
    outdir_made.n = 0;
    int made = mkdir(dir, 0777) == 0;
    if (made)
        outdir_made_add(dir);
    if (((!made && errno != EEXIST) || stat(dir, &st) != 0) &&
        outdir_dangling(dir, why, sizeof why)) {
        fprintf(stderr, "%s: error: cannot create the output folder '%s': %s\n", prog, dir,
                why);
        return 1;
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "%s: error: cannot create '%s': %s\n", prog, dir, strerror(errno));
        return 1;
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "%s: error: '%s' is not a folder\n", prog, dir);
        return 1;
    }
    if (outdir_lock_take(prog, dir) < 0) {
        outdir_unmake();
        return 1;
    }
    outdir_made_note(dir);
    return 0;
}

/* Holds each standard descriptor (0, 1, 2) the program was started
** without (`nsmc continue ... >&-`) on /dev/null, opened against its use
** (standard input for writing, the outputs for reading), so that a read
** or write of it still fails with EBADF, as on a closed descriptor, while
** no file the program opens can take its number.  The continuation
** program's lock took descriptor 1: its printed points and branch line
** went into DIR/.nsm-run.lock, exit 0, and every later run, sweep or
** continuation into DIR was refused ("the file there holds other data than
** a process id"). */
void out_std_hold(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        int n = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
        if (n >= 0 && n != fd) {
            dup2(n, fd);
            close(n);
        }
    }
}

/* Ignores SIGPIPE for the rest of the process: a reader of standard output
** that went away (`nsmc m.nsm -o - | head -1`) is then a failed write that
** out_stdout_check (or the simulator's own check) reports, where SIGPIPE
** killed the program without a word.  Children started with fork and exec
** inherit the disposition; those that need the default restore it. */
void out_pipe_ignore(void)
{
    signal(SIGPIPE, SIG_IGN);
}

/* Installs handler for the stop signals, SIGINT, SIGTERM and SIGHUP (none
** interrupting the handler of another; flags: sigaction's, SA_RESTART or
** 0), and ignores SIGXFSZ and SIGPIPE, so that a file-size limit or a
** reader of standard output gone is a failed write with its reason.  A stop
** signal ignored when the program started (nohup, `trap '' HUP`, a shell's
** background job's SIGINT) stays ignored: the user asked for that.  The
** stop signals are then unblocked, so that a mask inherited blocked (nsmc
** holds them blocked across its exec) cannot leave the program deaf to them
** and a request held pending is delivered here, to handler.  One place for
** the simulator, the sweep and the continuation programs, which call it
** first: it also holds the standard descriptors (out_std_hold). */
void out_stop_install(void (*handler)(int), int flags)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    struct sigaction sa;
    out_std_hold();
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaddset(&sa.sa_mask, sigs[i]);
    signal(SIGXFSZ, SIG_IGN);
    out_pipe_ignore();
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(sigs[i], &sa, NULL);
    }
    sigprocmask(SIG_UNBLOCK, &sa.sa_mask, NULL);
}

/* Flushes standard output; 0, or 1 after "PROG: error: cannot write
** 'standard output': REASON" when anything written to it was lost (a full
** disk, a reader gone).  The error is cleared once said, so a later check
** of the same loss says nothing more. */
int out_stdout_check(const char *prog)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    int e = errno ? errno : EIO;
    fprintf(stderr, "%s: error: cannot write 'standard output': %s\n", prog, strerror(e));
    clearerr(stdout);
    return 1;
}

/* The file that an output path replaced through a temporary stands for:
** path itself, or, when path is a symbolic link, the file the link names
** (the link stays, its target is replaced, as a text editor does), into
** target (len bytes).  A link to nothing is refused.  0, or 1 after a
** message; the caller judges the target's kind.  A link that leads to an
** open pipe or socket (/dev/stdout, /proc/self/fd/1 onto "pipe:[N]") has no
** path to resolve but is there (stat follows it): it stands for itself
** (`sim --out /dev/stdout | reader` was refused as "a link to a missing
** file"). */
int out_link_target(const char *prog, const char *path, char *target, size_t len)
{
    struct stat st;
    char *real = NULL;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && !(real = realpath(path, NULL)) &&
        stat(path, &st) != 0) {
        fprintf(stderr, "%s: error: cannot write '%s': it is a symbolic link to a missing "
                "file (%s); write to its target instead\n", prog, path, strerror(errno));
        return 1;
    }
    int n = snprintf(target, len, "%s", real ? real : path);
    free(real);
    if (n < 0 || (size_t)n >= len) {
        fprintf(stderr, "%s: error: cannot write '%s': %s\n", prog, path, strerror(ENAMETOOLONG));
        return 1;
    }
    return 0;
}

/* The kind of file st is, for a refusal: "a folder", "a FIFO", ... */
static const char *outdir_kind(const struct stat *st)
{
    return S_ISDIR(st->st_mode) ? "a folder" : S_ISFIFO(st->st_mode) ? "a FIFO"
         : S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode) ? "a device"
         : S_ISSOCK(st->st_mode) ? "a socket" : "not a regular file";
}

/* Whether the result at path, which the program writes whole (into a
** temporary renamed into place, or anew: a sweep's and a continuation's
** results, figures, scripts and logs, an animation), can be replaced so: 0 when nothing is there, or
** a regular file, or a symbolic link to one (its target is replaced, the
** link kept, as `nsmc -o` does); 1 after a message for anything else (a
** folder, a FIFO, a device, or a link to one: the rename replaced a FIFO
** or a device by the result, or failed on a folder after the whole work),
** so that it is refused before any work, nothing written. */
int outdir_result_check(const char *prog, const char *path)
{
    char target[4200];
    struct stat st, lst;
    if (out_link_target(prog, path, target, sizeof target))
        return 1;
    if (stat(target, &st) != 0 || S_ISREG(st.st_mode))
        return 0;
    if (S_ISDIR(st.st_mode))
        fprintf(stderr, "%s: error: cannot write '%s': %s\n", prog, path, strerror(EISDIR));
    else if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
        fprintf(stderr, "%s: error: cannot write '%s': it is a symbolic link to '%s', which is "
                "not a regular file (%s; this file is written whole, replaced or made anew); "
                "remove the link or point it at a regular file\n", prog, path, target,
                outdir_kind(&st));
    else
        fprintf(stderr, "%s: error: cannot write '%s': it is %s, not a regular file (this "
                "file is written whole, replaced or made anew, which would replace it or wait "
                "on it); remove it or write the results elsewhere\n", prog, path,
                outdir_kind(&st));
    return 1;
}

/* Whether file name (a study's result or figure) is one of this program's
** own: some name of own is its prefix ("section.csv" owns the file and its
** partial files, "lyapunov." every file of that figure). */
static int outdir_own(const char *name, const char *const *own, int nown)
{
    for (int i = 0; i < nown; i++)
        if (!strncmp(name, own[i], strlen(own[i])))
            return 1;
    return 0;
}

/* Appends name to the list of removed files said in one note (list, len
** bytes, ", " between names; a name past its room is left out of the
** list, never cut). */
static void outdir_removed_add(char *list, size_t len, const char *name)
{
    size_t n = strlen(list);
    if (n + strlen(name) + 3 < len)
        snprintf(list + n, len - n, "%s%s", n ? ", " : "", name);
}

/* Removes file name from folder dir when it is a regular file or a
** symbolic link (the link goes, never its target; a folder or anything
** else under a result's name is left alone); 1 when removed. */
static int outdir_result_unlink(const char *dir, const char *name)
{
    char path[4300];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (lstat(path, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)))
        return 0;
    return unlink(path) == 0;
}

/* The k-th name among the files a run, sweep, basin study or continuation
** writes, replaces or removes in its output folder by name (its results,
** their partial and kept copies, figures, scripts, logs, `nsmc run`'s
** files, the folder's lock) into buf; 0 past the last. */
static int outdir_name_at(size_t k, char *buf, size_t len)
{
    static const char *const csvs[] = {
        "section.csv", "summary.csv", "bifurcations.csv", "basins.csv", "attractors.csv",
        "branch.csv", "curve.csv" };
    static const char *const csv_ends[] = { "", ".partial", ".partial.prev", ".kept" };
    static const char *const figures[] = { "bifurcation.", "lyapunov.", "basins.",
                                           "continuation.", "curve.", "plot.", "phase.",
                                           "path.", "animation." };
    static const char *const figure_ends[] = { "gp", "png", "svg", "log", "gif" };
    static const char *const others[] = { "trajectory.csv", "events.csv", ".nsm-run.lock" };
    enum { NCSV = sizeof csvs / sizeof *csvs * (sizeof csv_ends / sizeof *csv_ends),
           NFIG = sizeof figures / sizeof *figures * (sizeof figure_ends / sizeof *figure_ends),
           NOTHER = sizeof others / sizeof *others };
    const size_t ne = sizeof csv_ends / sizeof *csv_ends, nf = sizeof figure_ends / sizeof
                                                                   *figure_ends;
    if (k < NCSV)
        snprintf(buf, len, "%s%s", csvs[k / ne], csv_ends[k % ne]);
    else if (k < NCSV + NFIG)
        snprintf(buf, len, "%s%s", figures[(k - NCSV) / nf], figure_ends[(k - NCSV) % nf]);
    else if (k < NCSV + NFIG + NOTHER)
        snprintf(buf, len, "%s", others[k - NCSV - NFIG]);
    else
        return 0;
    return 1;
}

/* Whether file st (stat) is one of the files a program writes, replaces
** or removes in output folder dir by name (outdir_name_at), read through a
** link as the programs write through one.  A model given to `nsmc sweep`
** or `nsmc continue` as DIR/summary.csv or DIR/branch.csv was replaced by
** the study's results, or removed as an earlier study's, exit 0.  Not the
** lock: taking it refuses a file of other data under its name, which it
** leaves as it was. */
int outdir_names_file(const char *dir, const struct stat *st)
{
    char name[64], path[4300];
    struct stat o;
    for (size_t k = 0; outdir_name_at(k, name, sizeof name); k++) {
        if (!strcmp(name, ".nsm-run.lock"))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, name);
        if (stat(path, &o) == 0 && o.st_dev == st->st_dev && o.st_ino == st->st_ino)
            return 1;
    }
    return 0;
}

/* Whether another running program holds the regular file path locked as
** one of its outputs (a probe of the lock, given back at once); see
** outdir.h. */
int out_file_in_use(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return 0;
    int busy = flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    close(fd);
    return busy;
}

/* Refuses an output path (given by option) named as one of the files that
** the program holding its folder's lock writes or removes there: `--stats
** D/plot.png` while `nsmc run` wrote into D ran, exit 0, and the run's
** figure took the statistics' place.  A folder no other process locks is
** left to the user.  0, or 1 after the message. */
int outdir_output_free(const char *prog, const char *option, const char *path)
{
    char dir[4200], name[64], lock[4300];
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (!strcmp(path, "-"))
        return 0;
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
             slash ? path : ".");
    size_t k = 0;
    while (outdir_name_at(k, name, sizeof name) && strcmp(name, base))
        k++;
    if (!outdir_name_at(k, name, sizeof name))
        return 0;
    snprintf(lock, sizeof lock, "%s/.nsm-run.lock", dir);
    int fd = open(lock, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0)
        return 0;
    struct flock q = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    long other = fcntl(fd, F_GETLK, &q) == 0 && q.l_type != F_UNLCK ? (long)q.l_pid : 0;
    close(fd);
    if (other <= 0 || other == (long)getppid())
        return 0;       /* none, or `nsmc run` running this simulator */
    fprintf(stderr, "%s: error: %s '%s': the run writing into '%s' (process %ld) writes or "
            "removes '%s' there itself; wait for it to end or name another output file\n",
            prog, option, path, dir, other, base);
    return 1;
}

/* Removes from output folder dir the results of the other programs (`nsmc
** run`, sweeps, basin studies, continuations of a branch or a curve) that
** this program does not write: own names the files it writes (outdir_own:
** "lyapunov." is every file of that figure, "section.csv" that file and its
** partial files).  Called once its own results are in place: a sweep left
** an earlier one's lyapunov.png and bifurcations.csv of another grid, a
** basin study a sweep's section.csv, a sweep or a continuation an earlier
** run's trajectory.csv, events.csv and figures, `nsmc run` any study's
** files, beside its own results without a word, and a reader could not
** tell which files the latest command wrote.  Only files under these known
** names go, each said under prog's name: the complete results in one note,
** a stopped study's partial files (NAME.partial, and NAME.partial.prev
** kept from a stop before) each in its own. */
void outdir_others_remove(const char *prog, const char *dir, const char *const *own, int nown)
{
    static const char *const results[] = {
        "section.csv", "summary.csv", "bifurcations.csv", "basins.csv", "attractors.csv", "branch.csv",
        "curve.csv", "bifurcation.", "lyapunov.", "basins.", "continuation.", "curve." };
    static const char *const figure[] = { "gp", "png", "svg", "log" };
    static const char *const csv[] = { "", ".partial", ".partial.prev" };
    /* `nsmc run`'s own files (compiler/commands/run.c's run_files) */
    static const char *const run[] = {
        "trajectory.csv", "events.csv", "plot.png", "plot.svg", "phase.png", "phase.svg",
        "path.png", "path.svg", "plot.gp", "plot.log", "animation.gif", "animation.gp" };
    char name[64], removed[1024] = "";
    for (size_t k = 0; k < sizeof results / sizeof results[0]; k++) {
        int fig = results[k][strlen(results[k]) - 1] == '.';
        for (int f = 0; f < (fig ? 4 : 3); f++) {
            snprintf(name, sizeof name, "%s%s", results[k], fig ? figure[f] : csv[f]);
            if (outdir_own(name, own, nown) || !outdir_result_unlink(dir, name))
                continue;
            if (!fig && f > 0)
                fprintf(stderr, "%s: note: removed '%s/%s', the partial results of an earlier "
                        "study that was stopped: this folder now holds this one's\n", prog, dir,
                        name);
            else
                outdir_removed_add(removed, sizeof removed, name);
        }
    }
    for (size_t k = 0; k < sizeof run / sizeof run[0]; k++)
        if (!outdir_own(run[k], own, nown) && outdir_result_unlink(dir, run[k]))
            outdir_removed_add(removed, sizeof removed, run[k]);
    if (*removed)
        fprintf(stderr, "%s: note: removed from '%s' the results of an earlier run or study "
                "that this one does not write: %s\n", prog, dir, removed);
}

/* Notes in *id which folder the output folder dir is (its device and
** inode), once it is made and locked: outdir_still_there compares it with
** what dir names when the results are written.  A zeroed *id when dir
** cannot be read (no check then). */
void outdir_id_take(const char *dir, struct stat *id)
{
    if (stat(dir, id) != 0)
        memset(id, 0, sizeof *id);
}

/* Whether dir no longer names the folder *id noted when it was locked
** (outdir_id_take): moved, removed, or replaced by a file or a link to
** another folder.  No message: a study stopped by a signal, or nsmc run
** after its simulator, says where its files are itself.  0 when *id was
** not taken. */
int outdir_moved(const char *dir, const struct stat *id)
{
    struct stat now;
    return id->st_ino && !(stat(dir, &now) == 0 && S_ISDIR(now.st_mode) &&
                           now.st_dev == id->st_dev && now.st_ino == id->st_ino);
}

/* Whether the output folder dir still names the folder *id noted when it
** was locked (outdir_id_take): 0, or 1 after a message.  A study's folder
** moved, removed or replaced (by a file, or a link to another folder)
** while it ran: its results went by path into whatever stood there (a
** folder another program may be writing: its lock was the moved one's),
** its partial file left behind in the moved folder with exit 0, or it
** failed and said its points were kept in DIR/PARTIAL, where there was no
** such file.  The message says where they are: partial names the partial
** files (in the folder the study locked, wherever it went). */
int outdir_still_there(const char *prog, const char *dir, const struct stat *id,
                       const char *what, const char *partial)
{
    if (!outdir_moved(dir, id))
        return 0;
    fprintf(stderr, "%s: error: the output folder '%s' was moved, removed or replaced while "
            "the %s ran: its results are not written into what stands there now; the points "
            "finished are in %s, in whole lines, in the folder it started in wherever that "
            "was moved (gone with it if it was removed)\n", prog, dir, what, partial);
    return 1;
}
