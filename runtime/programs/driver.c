/*
** driver.c: nsm_main, the command-line program of every generated
** simulator.  Unlike the rest of the library it prints: it is the program.
**
**   --t-end T  --dt H  --method rk4|adaptive|exact  --every E
**   --rtol R  --atol A  --set NAME=VALUE[ UNIT] (once per parameter)  --set-file FILE
**   --out FILE|-  (trajectory: CSV, HDF5 for FILE.h5; both when given twice)
**   Every option is taken once (--out once per kind, --set once per
**   parameter, a --set-file's lines included): a repeat is an error, as is
**   anything the run would refuse at its first step (nsm_sim_check_run),
**   all with exit 1 before any output is opened.
**   --events FILE|-  (event CSV)
**   --table  --events-max N  (the event table on stdout)
**   --max-steps N  --max-event-rate R  --max-impacts N  --energy-tol E  --no-zeno  --help
**   --stats FILE|-  (per-contact statistics CSV)   --summary (audit table)
**   --plot DIR  --phase  (gnuplot plots of the trajectory and events)
**   --animate FILE.gif  --fps F  --frames N  (an animated GIF, animate.h)
**   --section SPEC  --section-period EXPR  --section-out FILE|-  (a Poincare
**   section's records as CSV: t, phase, the state; docs/studies.md)
**   --lyapunov  --lyapunov-interval T  --lyapunov-transient T
**   --lyapunov-out FILE|-  (the Lyapunov spectrum of the run after the
**   transient, as CSV; docs/studies.md)
**
** Unless --events names a file (--table: even then) or --out, --events,
** --stats or --section-out writes to stdout, the event log is printed there
** as a table (its first N rows with --events-max N); a one-line summary
** goes to stderr; --summary adds the energy audit and the
** per-contact statistics as a table on stdout (docs/energy.md).  --plot DIR
** also writes DIR/trajectory.csv and DIR/events.csv (or plots the files of
** --out and --events) and draws DIR/plot.png and plot.svg with gnuplot
** (plot.h); where they are, or why none was drawn, goes to stderr.
**
** Nothing is lost silently.  The CSV files are written in whole lines with
** write(2) (sink_*), every write is checked and the files are closed and
** checked at the end; a failed write (a full disk, a file-size limit) stops
** the run and is reported with the system's reason, and the file is cut back
** to its last whole line.  Lines that have waited 0.25 s are written out
** even while the run calls back no more (flusher_main), so SIGKILL loses
** at most the last 0.25 s.  SIGINT, SIGTERM and SIGHUP stop the run before its
** next step (the runtime reads the stop flag per step): the files are flushed and closed with whole lines, a note
** says where the run stopped, and the exit status is 128 + the signal (a
** second signal more than a second later kills at once).
**
** Exit status: 0 ok, 1 bad arguments or an output file that cannot be opened
** (or the plot could not be written), 3 the simulation failed or an output
** could not be written (files written so far hold whole lines), 129/130/143
** interrupted by SIGHUP/SIGINT/SIGTERM.
*/
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* mkdir (the build defines it too) */
#endif
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE           /* realpath */
#endif
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#ifdef __linux__
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#endif
#include <time.h>
#include <unistd.h>

#include "nsm/cli.h"
#include "animate.h"
#include "cli.h"
#include "coords.h"
#include "h5out.h"
#include "outdir.h"
#include "plot.h"
#include "progress.h"
#include "setfile.h"

/* A CSV output written in whole lines: the buffer is handed to write(2) only
** at a line end, so a process killed at any moment leaves whole lines. */
typedef struct Sink {
    int fd;               /* -1 when not requested */
    int own;              /* close fd at the end (not stdout) */
    const char *path;     /* as given, for messages */
    char *buf;
    size_t n, cap;
    off_t done;           /* bytes written so far, all of them whole lines */
    int err;              /* errno of the first failure, 0 if none */
    int created;          /* the file did not exist before this run */
    int removed;          /* a failed file left without a line, removed (sink_close) */
    int replaced;         /* its name gave another file at the end (sink_replaced) */
    int cut;              /* a stop came while its reader took nothing: later lines dropped */
    double last;          /* seconds of the last write, or of the opening (sink_due) */
} Sink;

typedef struct Driver {
    const nsm_model *m;
    const char *prog;
    Sink out, events;     /* CSV outputs, fd -1 if not requested */
    Sink sec;             /* --section records, fd -1 if not requested */
    int table;            /* print the event table on stdout */
    int table_waits;      /* stdout is a pipe, FIFO or device (sink_waits) */
    int table_cut;        /* a stop came while stdout's reader took nothing */
    int stdout_csv;       /* an output writes its CSV to stdout (`-`, /dev/stdout) */
    long table_max;       /* --events-max: most rows of the table, -1 all */
    int dt_given;         /* --dt on the command line */
    int etol_off;         /* --energy-tol 0: the balance stops no run */
    long nev;
    double t_end;
    Progress pb;          /* bar on a terminal's stderr for long runs */
    H5Out *h5;            /* --out FILE.h5: the HDF5 writer, else NULL */
    int werr;             /* errno of the first failed write, 0 if none */
    const char *werr_path;
    Anim *anim;           /* --animate: the frames being recorded, else NULL */
    double t_out;         /* the latest time given to the outputs (sample,
                           * section record), -inf before the first */
    const char *own[16];  /* the run's files in a --plot folder (plot_own) */
    int nown;
    struct stat plot_id;  /* the --plot folder locked (outdir_id_take) */
} Driver;

static int bad(const char *prog, const char *fmt, const char *a, const char *b);
static int write_failed(Driver *d, int e, const char *path);

static void note_dt_cap(const Driver *d, const nsm_sim *sim, double t);

/* The signal that asked the run to stop, 0 if none. */
static volatile sig_atomic_t stop_signal;

/* The run loop's stop flag (nsm_sim_set_stop_flag, read before every
** step): up on a stop signal (on_signal) or on a failed write of the
** outputs' writer thread (flusher_tick), which no callback may come to see
** (a run at rest for hours after its last event wrote on into a full disk
** and said so only at its end). */
static volatile sig_atomic_t run_stop;

/* When the first stop signal came (touched by on_signal only). */
static struct timespec stop_time;

/* Signal handler: the first stop signal is remembered and the callbacks stop
** the run.  Repeats within a second are the same request delivered twice
** (`kill` of the process group and `nsmc run` passing it on, as under
** `timeout`) and are ignored; a later one kills at once. */
static void on_signal(int sig)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (!stop_signal) {
        stop_signal = sig;
        run_stop = 1;
        stop_time = now;
        return;
    }
    double since = (double)(now.tv_sec - stop_time.tv_sec) +
                   1e-9 * (double)(now.tv_nsec - stop_time.tv_nsec);
    if (since < 1.0)
        return;
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Catch SIGINT, SIGTERM and SIGHUP (a signal ignored by the parent, nohup
** or `cmd &`, stays ignored), and ignore SIGXFSZ and SIGPIPE so that a
** file-size limit or a reader of standard output that went away (`--out - |
** head -1`) is a failed write we can report: SIGPIPE killed the simulator
** silently with its event log still buffered (an earlier events.csv left
** empty) and its HDF5 file never renamed into place.  Called first thing in
** nsm_main.  The stop signals are then unblocked (out_stop_install): nsmc
** run holds them blocked from its fork to here, so that a stop request sent
** before the handlers exist waits instead of killing the simulator, and
** such a request is delivered here, to on_signal. */
static void signals_install(void)
{
    out_stop_install(on_signal, SA_RESTART);
    plot_stop_watch(&stop_signal);
}

/* Name of a stop signal for messages. */
static const char *signal_name(int sig)
{
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP"
                                                                                  : "a signal";
}

/* Open the FIFO path for writing, waiting for its reader in 20 ms slices
** so that a stop signal is seen: a blocking open() is restarted after the
** handler (SA_RESTART), and a FIFO without a reader kept the simulator deaf
** to SIGINT, SIGTERM and SIGHUP for ever.  The fd (blocking again), or -1
** with errno set (EINTR once a stop signal came). */
static int fifo_open(const char *path)
{
    const struct timespec slice = { 0, 20000000 };
    for (;;) {
        int fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd >= 0) {
            int fl = fcntl(fd, F_GETFL);
            if (fl == -1 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == -1) {
                int e = errno;
                close(fd);
                errno = e;
                return -1;
            }
            return fd;
        }
        if (errno != ENXIO)
            return -1;
        if (stop_signal) {
            errno = EINTR;
            return -1;
        }
        nanosleep(&slice, NULL);
    }
}

/* Open path for writing without truncating it (an earlier run's file must
** survive an option or another output that is refused after it was opened:
** out_truncate empties it once every output is open); *created says the
** file is new, so that sink_abandon may remove it.  A regular file is
** locked (flock) for the run: a second simulator writing the same file
** would interleave its lines with the first's, and one writing it as HDF5
** (h5out_writer) would rename its file over it at the end, so either is
** refused (-1 with errno EBUSY; a file system without locks is written
** unlocked).  The fd,
** or -1 with errno set. */
static int out_open_fd(const char *path, int *created)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISFIFO(st.st_mode)) {
        *created = 0;
        return fifo_open(path);
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    *created = fd >= 0;
    if (fd < 0 && errno == EEXIST)
        fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
        ((flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) || h5out_writer(path))) {
        close(fd);
        if (*created)
            unlink(path);
        errno = EBUSY;
        return -1;
    }
    return fd;
}

/* Empty an output opened by out_open_fd once every output is open: a
** regular file only (a FIFO or a device is written as it is).  0, or -1
** with errno set. */
static int out_truncate(int fd)
{
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    return ftruncate(fd, 0);
}

/* Open a sink on path ("-" is stdout) without truncating it (out_open_fd).
** Returns 0, or -1 with errno set. */
static double sink_clock(void);

static int sink_open(Sink *s, const char *path)
{
    memset(s, 0, sizeof *s);
    s->last = sink_clock();     /* the first write SINK_EVERY after the opening */
    s->path = path;
    s->fd = -1;
    s->cap = 65536;
    if (!(s->buf = malloc(s->cap)))
        return -1;
    if (strcmp(path, "-") == 0) {
        s->fd = 1;
        return 0;
    }
    s->fd = out_open_fd(path, &s->created);
    if (s->fd < 0) {
        int e = errno;
        free(s->buf);
        s->buf = NULL;
        errno = e;
        return -1;
    }
    s->own = 1;
    return 0;
}

static int out_is_null(const struct stat *st);

/* Whether fd is a pipe, a FIFO, a socket or a device other than /dev/null:
** a write to it may wait for its reader for ever. */
static int sink_waits(int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 && !S_ISREG(st.st_mode) && !out_is_null(&st);
}

/* Waits until fd (sink_waits) can take a write, in 20 ms slices, so that a
** stop signal is seen: a write blocked on a reader that reads nothing
** (`sim --out - | less` left at rest, a FIFO's reader asleep) is restarted
** after the handler (SA_RESTART), and the simulator stayed deaf to SIGINT,
** SIGTERM and SIGHUP until the reader read or went away (then exit 3,
** "Broken pipe", for a stop asked for long before).  0 when it can take
** one (or poll cannot tell), -1 when it took nothing for half a second
** after a stop signal: a slow reader still reading gets every line. */
static int sink_wait_room(int fd)
{
    struct pollfd p = { .fd = fd, .events = POLLOUT };
    int idle = 0;       /* 20 ms slices without room since the stop */
    for (;;) {
        int k = poll(&p, 1, 20);
        if (k > 0 || (k < 0 && errno != EINTR))
            return 0;
        if (stop_signal && ++idle >= 25)
            return -1;
    }
}

/* The length of the next write of the n bytes at b to a pipe: whole lines
** of at most PIPE_BUF bytes, which a pipe with room (sink_wait_room) takes
** at once and whole, else the first line alone. */
static size_t sink_chunk(const char *b, size_t n)
{
    if (n <= PIPE_BUF)
        return n;
    for (size_t k = PIPE_BUF; k > 0; k--)
        if (b[k - 1] == '\n')
            return k;
    const char *nl = memchr(b, '\n', n);
    return nl ? (size_t)(nl - b) + 1 : n;
}

/* Write the buffer out (it ends at a line end).  On a failure, remember the
** reason, cut a regular file back to its last whole line and drop the rest.
** To a pipe, FIFO or device, whole lines as its reader takes them: a stop
** signal while it takes none drops this line and the later ones (cut). */
static int sink_flush(Sink *s)
{
    size_t off = 0;
    int waits = !s->cut && s->n && sink_waits(s->fd);
    while (!s->err && !s->cut && off < s->n) {
        size_t len = s->n - off;
        if (waits && sink_wait_room(s->fd)) {
            s->cut = 1;
            break;
        }
        if (waits)
            len = sink_chunk(s->buf + off, len);
        ssize_t w = write(s->fd, s->buf + off, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            s->err = w < 0 ? errno : EIO;
            break;
        }
        off += (size_t)w;
    }
    if (s->err) {
        size_t whole = off;
        while (whole > 0 && s->buf[whole - 1] != '\n')
            whole--;
        struct stat st;
        if (whole < off && fstat(s->fd, &st) == 0 && S_ISREG(st.st_mode))
            (void)!ftruncate(s->fd, s->done + (off_t)whole);
        s->done += (off_t)whole;    /* what the file keeps: sink_close judges it */
        s->n = 0;
        return -1;
    }
    s->done += (off_t)(s->cut ? off : s->n);
    s->n = 0;
    return 0;
}

/* Append formatted text to the current line; the buffer grows rather than
** being written in the middle of a line. */
static void sink_printf(Sink *s, const char *fmt, ...)
{
    if (s->fd < 0 || s->err)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(s->buf + s->n, s->cap - s->n, fmt, ap);
        va_end(ap);
        if (k < 0) {
            s->err = EINVAL;
            return;
        }
        if ((size_t)k < s->cap - s->n) {
            s->n += (size_t)k;
            return;
        }
        char *b = realloc(s->buf, s->cap * 2 + (size_t)k);
        if (!b) {
            s->err = ENOMEM;
            return;
        }
        s->buf = b;
        s->cap = s->cap * 2 + (size_t)k;
    }
}

/* Seconds between the writes of a CSV output's buffer when its lines come
** slowly: a run killed outright (SIGKILL, which no handler sees) loses at
** most the lines ended in the last SINK_EVERY seconds before the kill (the
** buffer held up to 32 KiB of lines, minutes of a slow run's rows), as an
** HDF5 output loses what came after its last flush (h5out.c, 0.25 s). */
#define SINK_EVERY 0.25

/* The clock sink_due reads: the coarse one where there is one (a few ns a
** read, a few ms of resolution; CLOCK_MONOTONIC cost 63 ns a read here, 6 %
** of a run writing a row per step). */
#ifdef CLOCK_MONOTONIC_COARSE
#define SINK_CLOCK CLOCK_MONOTONIC_COARSE
#else
#define SINK_CLOCK CLOCK_MONOTONIC
#endif

/* The seconds of SINK_CLOCK. */
static double sink_clock(void)
{
    struct timespec ts;
    clock_gettime(SINK_CLOCK, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Whether SINK_EVERY has passed since the sink's last write (the clock read
** at each line's end: a few ns against the line's formatting, a
** microsecond or more). */
static int sink_due(Sink *s)
{
    double now = sink_clock();
    if (now - s->last < SINK_EVERY)
        return 0;
    s->last = now;
    return 1;
}

/* End of a line: write the buffer once it holds enough, or once SINK_EVERY
** has passed since its last write.  Returns nonzero once the sink has
** failed. */
static int sink_endline(Sink *s)
{
    if (s->fd < 0)
        return 0;
    if (!s->err && (s->n >= 32768 || sink_due(s)))
        sink_flush(s);
    return s->err != 0;
}

/* Write out every CSV output whose buffered lines have waited SINK_EVERY
** since its last write, whichever output the run is writing now: the
** event log's first impacts (or a header) stayed in its buffer while only
** the trajectory wrote, and a SIGKILL minutes later lost them all.  Called
** at every sample, event and section record.  Returns nonzero after a
** failed write (write_failed has said which). */
static int sinks_tick(Driver *d)
{
    Sink *sinks[3] = { &d->out, &d->events, &d->sec };
    for (int k = 0; k < 3; k++) {
        Sink *s = sinks[k];
        if (s->fd >= 0 && s->err)   /* a write of the flusher's failed */
            return write_failed(d, s->err, s->path);
        if (s->fd < 0 || !s->n || !sink_due(s))
            continue;
        if (sink_flush(s))
            return write_failed(d, s->err, s->path);
    }
    return 0;
}

/* Removes the file that path names, through a symbolic link: unlinking
** the link itself left the file it names at 0 bytes, no header, and took
** the user's link away.  0, or -1 with errno. */
static int sink_unlink_target(const char *path)
{
    char *real = realpath(path, NULL);
    int rc = unlink(real ? real : path);
    free(real);
    return rc;
}

/* Whether the regular file fd, written at path, no longer has that name:
** another file moved or linked in its place while the run ran.  `mv
** other.csv D/trajectory.csv` mid-run left nsmc run to summarise the
** other file as the run ("samples: 1", exit 0) and --plot to draw it.  A
** name gone altogether is not this (the readers say it is not there). */
static int sink_replaced(int fd, const char *path)
{
    struct stat a, b;
    return fstat(fd, &a) == 0 && stat(path, &b) == 0 &&
        (a.st_dev != b.st_dev || a.st_ino != b.st_ino);
}

/* Write what is left and close.  A regular file that failed before even
** its header was written is removed (s->removed): a full disk left
** events.csv at 0 bytes, no CSV at all, beside a trajectory that ends
** with a whole line; an output is whole lines or absent.  Returns 0, or
** -1 with s->err set. */
static int sink_close(Sink *s)
{
    if (s->fd < 0)
        return 0;
    if (!s->err)
        sink_flush(s);
    struct stat st;
    int regular = s->own && fstat(s->fd, &st) == 0 && S_ISREG(st.st_mode);
    s->replaced = regular && sink_replaced(s->fd, s->path);
    if (s->own && close(s->fd) != 0 && !s->err)
        s->err = errno;
    if (s->err && regular && s->done == 0 && sink_unlink_target(s->path) == 0)
        s->removed = 1;
    s->fd = -1;
    free(s->buf);
    s->buf = NULL;
    return s->err ? -1 : 0;
}

/* Give up a sink that was opened but never written (another output could
** not be opened): closed, and removed when this run created it. */
static void sink_abandon(Sink *s)
{
    if (s->fd >= 0 && s->own) {
        close(s->fd);
        if (s->created)
            sink_unlink_target(s->path);    /* a dangling link's new target */
    }
    s->fd = -1;
    free(s->buf);
    s->buf = NULL;
}

/* Note the first failed write (errno e on path); returns 1. */
static int write_failed(Driver *d, int e, const char *path)
{
    if (!d->werr) {
        d->werr = e ? e : EIO;
        d->werr_path = path;
    }
    return 1;
}

/* Context of a --set-file read. */
/* Who set a parameter already (--set once per parameter, a --set-file's
** lines included): the --set's argument, or the file's line. */
typedef struct SetSeen {
    const char *arg;      /* the --set NAME=VALUE, NULL if none */
    const char *path;     /* the --set-file, NULL if none */
    int line;             /* its line, 0 if none */
} SetSeen;

typedef struct SetCtx {
    nsm_sim *sim;
    const nsm_model *m;
    const char *prog, *path;
    SetSeen *seen;        /* one per parameter */
} SetCtx;

/* Why the last parse_num refused its text (NULL when it took it). */
static const char *num_why;

/* Parse a finite double that fills the whole string (setfile_number); 1,
** or 0 with the reason in num_why. */
static int parse_num(const char *s, double *v)
{
    num_why = setfile_number(s, v);
    return num_why == NULL;
}

/* What a valued option takes, for the message of a value it refuses: a
** bad value always says why. */
static const char *option_rule(const char *opt)
{
    static const char *const rules[][2] = {
        { "--t-end", "the end time must be a time >= 0 s" },
        { "--dt", "the step must be a time >= 0 s (0: the model's)" },
        { "--every", "the sampling period must be a time >= 0 s (0: every step)" },
        { "--energy-tol", "the energy tolerance must be >= 0" },
        { "--rtol", "the tolerances must be rtol > 0 and atol >= 0" },
        { "--atol", "the tolerances must be rtol > 0 and atol >= 0" },
        { "--max-steps", "a whole number from 1 to 9e18" },
        { "--max-impacts", "a whole number from 1 to 9e18" },
        { "--events-max", "a whole number from 0 to 9e18" },
        { "--max-event-rate", "the rate must be > 0 events per second" },
        { "--lyapunov-interval", "the interval must be a time > 0 s" },
        { "--lyapunov-transient", "the transient must be a time >= 0 s" },
        { "--fps", "a number of frames per second" },
        { "--frames", "a number of frames" },
        { "--section", "a section is impact:GAP, period:T[:T0] or plane:F[:up|down|both]" },
        { "--section-period", "a period is a time, such as 2*pi/omega" },
    };
    for (size_t k = 0; k < sizeof rules / sizeof rules[0]; k++)
        if (!strcmp(opt, rules[k][0]))
            return rules[k][1];
    return "an empty path";
}

/* Print the valid parameter names to f. */
static void list_params(const nsm_model *m, FILE *f)
{
    for (int k = 0; k < m->n_params; k++)
        fprintf(f, "%s%s", k ? ", " : "", m->params[k].name);
    if (m->n_params == 0)
        fprintf(f, "(none)");
}

/* Index of the model's parameter name, -1 if none. */
static int param_find(const nsm_model *m, const char *name)
{
    for (int k = 0; k < m->n_params; k++)
        if (!strcmp(m->params[k].name, name))
            return k;
    return -1;
}

/* A value that a size parameter (one that sizes indexed families or loops,
** fixed when the simulator was generated) can never take: not a whole
** number >= 0.  The runtime's own message would advise declaring it so,
** which nsmc refuses; this one says what a size is.  Returns 1 after the
** message (where: "" or "FILE:LINE: "), else 0. */
static int size_refused(const nsm_model *m, const char *prog, const char *where, int k, double v)
{
    if (!m->param_size || m->param_size[k] != 1 || (v >= 0 && v == floor(v)))
        return 0;
    fprintf(stderr, "%s: error: %sparameter '%s' sizes the model's indexed families or loops: "
            "it is a whole number >= 0, fixed at %.17g when the simulator was generated; "
            "%.17g is not a size\n", prog, where, m->params[k].name, m->params[k].value, v);
    return 1;
}

/* A parameter set a second time the same way (two --set, or two lines of
** the --set-file): the later value replaced the earlier without a word, so
** it is refused naming both.  A --set and a file's line layer as
** documented (applied in order: a file of values, then overrides).  seen[k]
** is then updated to the new setter (arg, or path's line).  Returns 1
** after the message, else 0. */
static int set_twice(const nsm_model *m, const char *prog, SetSeen *seen, int k,
                     const char *arg, const char *path, int line)
{
    SetSeen *w = &seen[k];
    if ((arg && w->arg) || (!arg && w->line)) {
        char first[4200], second[4200];
        if (w->arg)
            snprintf(first, sizeof first, "--set %s", w->arg);
        else
            snprintf(first, sizeof first, "%s:%d", w->path, w->line);
        if (arg)
            snprintf(second, sizeof second, "--set %s", arg);
        else
            snprintf(second, sizeof second, "%s:%d", path, line);
        fprintf(stderr, "%s: error: parameter '%s' is set twice (by %s and by %s): set it "
                "once\n(try --help)\n", prog, m->params[k].name, first, second);
        return 1;
    }
    w->arg = arg;
    w->path = arg ? NULL : path;
    w->line = arg ? 0 : line;
    return 0;
}

/* One --set NAME=VALUE: an unknown name lists the valid ones, a name set
** before is refused (set_twice), the value may carry a unit of the
** parameter's dimension and is converted to SI (setfile_value).  Returns 0,
** or 1 after a message. */
static int set_option(nsm_sim *sim, const nsm_model *m, const char *prog, const char *arg,
                      SetSeen *seen)
{
    char name[128], err[512];
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof name)
        return bad(prog, "--set needs NAME=VALUE, got '%s'%s", arg, "");
    memcpy(name, arg, (size_t)(eq - arg));
    name[eq - arg] = 0;
    int k = param_find(m, name);
    if (k < 0) {
        fprintf(stderr, "%s: error: unknown parameter '%s'; valid parameters: ", prog, name);
        list_params(m, stderr);
        fprintf(stderr, "\n");
        return 1;
    }
    if (set_twice(m, prog, seen, k, arg, NULL, 0))
        return 1;
    double v;
    if (setfile_value(eq + 1, m->params[k].unit, 0, &v, err, sizeof err)) {
        fprintf(stderr, "%s: error: bad value '%s' for parameter '%s': %s\n(try --help)\n", prog,
                eq + 1, name, err);
        return 1;
    }
    if (size_refused(m, prog, "", k, v))
        return 1;
    if (nsm_sim_set_param(sim, name, v) != NSM_OK) {
        fprintf(stderr, "%s: error: %s\n", prog, nsm_sim_message(sim));
        return 1;
    }
    return 0;
}

/* The unit of parameter `name` for a --set-file's values, NULL if unknown. */
static const char *set_unit(void *ud, const char *name)
{
    const SetCtx *c = ud;
    int k = param_find(c->m, name);
    return k < 0 ? NULL : c->m->params[k].unit ? c->m->params[k].unit : "";
}

/* One assignment of a --set-file: unknown names are errors listing the
** valid ones (returns -1 to stop reading, already reported). */
static int set_from_file(void *ud, const char *name, double value, int line)
{
    SetCtx *c = ud;
    int k = param_find(c->m, name);
    char where[4200];
    snprintf(where, sizeof where, "%s:%d: ", c->path, line);
    if (k >= 0 && (size_refused(c->m, c->prog, where, k, value) ||
                   set_twice(c->m, c->prog, c->seen, k, NULL, c->path, line)))
        return -1;
    int rc = nsm_sim_set_param(c->sim, name, value);
    if (rc == NSM_OK)
        return 0;
    if (rc == NSM_EMODEL) {
        fprintf(stderr, "%s: error: %s:%d: %s\n", c->prog, c->path, line, nsm_sim_message(c->sim));
        return -1;
    }
    fprintf(stderr, "%s: error: %s:%d: unknown parameter '%s'; valid parameters: ", c->prog,
            c->path, line, name);
    list_params(c->m, stderr);
    fprintf(stderr, "\n");
    return -1;
}

/* Usage text. */
static void usage(const nsm_model *m, const char *prog, FILE *f)
{
    fprintf(f,
            "usage: %s [options]\n"
            "Simulate the model '%s'%s%s%s.\n\n"
            "  --t-end T            end time in s (default %g)\n"
            "  --dt H               rk4's step, adaptive's largest (default %g: the\n"
            "                       model's dt; 0: each mode chooses from its spectrum);\n"
            "                       also exact's largest (exact needs none: --dt 0 lets\n"
            "                       each mode take its own steps)\n"
            "  --method M           rk4, adaptive, exact (linear models) or taylor (nonlinear\n"
            "                       models) (default %s)\n"
            "  --every E            trajectory sampling period in s, 0 = every step (default %g);\n"
            "                       the last row is at t_end also when E does not divide it\n"
            "                       (--every 0.3 --t-end 1: rows at 0, 0.3, 0.6, 0.9 and 1)\n"
            "  --rtol R, --atol A   tolerances of the adaptive method (default 1e-9, 1e-12)\n"
            "  --energy-tol E       energy balance error, relative to the largest energy, that\n"
            "                       stops the run (default 1e-6 exact, 1e-2 adaptive, 5e-2\n"
            "                       rk4; 0: never)\n"
            "  --set NAME=VALUE     override a parameter, in SI units or with a unit of its\n"
            "                       dimension ('k=2 N/m', 'T=5 ms'); once per parameter\n"
            "  --set-file FILE      overrides from a file of NAME = VALUE lines (SI, or with\n"
            "                       a unit as for --set; # comments)\n"
            "  --out FILE|-         write the trajectory as CSV, or as HDF5 for FILE.h5\n"
            "                       (with the events and the model's description); given\n"
            "                       twice, a CSV file and an HDF5 file\n"
            "  --events FILE|-      write the event log as CSV (the event table on stdout is\n"
            "                       then left out; --table keeps it)\n"
            "  --table              print the event table on stdout even with --events FILE\n"
            "  --events-max N       print at most N rows of the event table (the files keep\n"
            "                       every event)\n"
            "  --stats FILE|-       write the per-contact statistics as CSV\n"
            "  --summary            print the energy audit and contact statistics\n"
            "  --plot DIR           also plot the trajectory and events with gnuplot into\n"
            "                       DIR/plot.png and DIR/plot.svg (the CSV files go to\n"
            "                       DIR/trajectory.csv and DIR/events.csv unless --out and\n"
            "                       --events name files)\n"
            "  --phase              with --plot: phase portraits DIR/phase.png, phase.svg\n"
            "  --animate FILE.gif   an animated GIF of the bodies moving\n"
            "  --fps F              with --animate: frames per second of the GIF (default 20)\n"
            "  --frames N           with --animate: the number of frames (default the run's\n"
            "                       seconds within 4..12 times F, at most 2000)\n"
            "  --section SPEC       record a Poincare section: impact:GAP (the state before\n"
            "                       each impact of GAP), period:T[:T0] (t = T0 + k T),\n"
            "                       plane:F[:up|down|both] (F = 0, F affine in BODY.x,\n"
            "                       BODY.v); T, T0 and F may use parameters and pi\n"
            "  --section-period T   measure the records' phase in periods T\n"
            "  --section-out FILE|- the section's CSV: t, phase, the state (default -)\n"
            "  --lyapunov           the Lyapunov spectrum of the run from the transient to\n"
            "                       t_end (exact flows and saltation matrices at impacts)\n"
            "  --lyapunov-interval T  reorthonormalise every T seconds (default the output\n"
            "                       period)\n"
            "  --lyapunov-transient T  start the exponents' averages at t = T (default 0)\n"
            "  --lyapunov-out FILE|- the spectrum's CSV: exponent, lambda [1/s] (default -)\n"
            "  --max-steps N        fail after N steps\n"
            "  --max-event-rate R   fail when events come faster than R per second\n"
            "  --max-impacts N      fail after N pair collisions at one instant (default 1e8)\n"
            "  --no-zeno            do not jump over Zeno cascades\n"
            "  -h, --help           this text\n\n"
            "Parameters:\n",
            prog, m->name, m->title ? " (" : "", m->title ? m->title : "", m->title ? ")" : "",
            m->t_end, m->dt, nsm_method_name(m->method), m->every);
    for (int k = 0; k < m->n_params; k++)
        fprintf(f, "  %-20s %g %s\n", m->params[k].name, m->params[k].value, m->params[k].unit);
    fprintf(f, "Exit status: 0 ok, 1 bad arguments or an output that cannot be opened, 3 the\n"
               "simulation failed or an output could not be written, 128 + N stopped by signal N\n"
               "(SIGINT, SIGTERM, SIGHUP: the files hold whole lines up to where it stopped).\n");
}

/* Contact column text of an event. */
static const char *contact_name(const nsm_model *m, const nsm_event *ev, char *buf, size_t len)
{
    if (ev->kind == NSM_EV_TIME) {
        snprintf(buf, len, "switch%d", ev->contact);
        return buf;
    }
    const char *name = nsm_event_contact_name(m, ev);
    return name ? name : "-";
}

/* Warning handler: one line on stderr, after the program's name. */
static void on_warning(void *ud, const nsm_sim *sim, const char *text)
{
    const Driver *d = ud;
    (void)sim;
    fprintf(stderr, "%s: warning: %s\n", d->prog, text);
}

/* The first contact held shut in the simulation's current mode, or -1. */
static int held_contact(const nsm_model *m, const nsm_sim *sim)
{
    for (int j = 0; j < m->n_gaps; j++)
        if (nsm_sim_mode_has(sim, j))
            return j;
    return -1;
}

/* The shortest text (15 to 17 significant digits) that reads back as v,
** into buf (32 bytes are enough): an option's value named as the user gave
** it (--lyapunov-transient 1e300 was named 1.0000000000000001e+300 by
** %.17g), a computed one with every digit that tells it apart.  The
** simulators run in the C locale (they set none). */
static const char *num_shortest(char *buf, size_t len, double v)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}

/* v, a NaN without its sign: the energy an impact took when the energies
** overflowed (inf - inf) was written "-nan" (printf shows the sign the
** subtraction left), which no reader takes for "not a number". */
static double num_unsigned_nan(double v)
{
    return isnan(v) ? fabs(v) : v;
}

/* Whether the event table may print its next row: on a pipe whose reader
** takes nothing (`sim | less` left at rest, many impacts) printf waited in
** write, restarted after the stop handler, deaf to SIGTERM until the reader
** read or left.  The table is then line-buffered (table_start): a row is
** printed once stdout has room (sink_wait_room), one whole line to the
** pipe.  On a stop while it has none, stdout becomes /dev/null (what stdio
** still holds would wait at the exit) and the table ends there: 0. */
static int table_room(Driver *d)
{
    if (d->table_cut)
        return 0;
    if (!d->table_waits || !sink_wait_room(1))
        return 1;
    d->table_cut = 1;
    int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (fd >= 0) {
        dup2(fd, 1);
        close(fd);
    }
    return 0;
}

/* Before the run: the table's stdout line-buffered when it may wait for its
** reader (table_room). */
static void table_start(Driver *d)
{
    d->table_waits = d->table && sink_waits(1);
    if (d->table_waits)
        setvbuf(stdout, NULL, _IOLBF, 0);
}

/* Event handler: CSV line and/or table row.  Stops the run (nonzero) after
** a failed write or a stop signal. */
static int on_event_locked(void *ud, const nsm_sim *sim, const nsm_event *ev)
{
    Driver *d = ud;
    char buf[32];
    const char *cn = contact_name(d->m, ev, buf, sizeof buf);
    (void)sim;
    d->nev++;
    if (d->anim)
        anim_event(d->anim, ev);
    if (d->h5 && h5out_event(d->h5, ev))
        return 1;   /* stops the run; h5out_close says why */
    sink_printf(&d->events, "%.17g,%s,%s,%.12g,%.12g,%.12g,%.12g,%ld\n", ev->t,
                nsm_event_kind_name(ev->kind), cn, ev->vrel_before, ev->vrel_after, ev->impulse,
                num_unsigned_nan(ev->energy_lost), ev->count);
    if (sink_endline(&d->events))
        return write_failed(d, d->events.err, d->events.path);
    if (sinks_tick(d))
        return 1;
    if (d->table && (d->table_max < 0 || d->nev <= d->table_max)) {
        if (!table_room(d))
            return 1;       /* a stop signal came: the run stops */
        if (d->nev == 1)
            printf("%-20s %-14s %-12s %14s %14s %14s %14s %6s\n", "t [s]", "event", "contact",
                   "vrel- [m/s]", "vrel+ [m/s]", "impulse [N s]", "lost [J]", "count");
        printf("%-20.15g %-14s %-12s %14.6g %14.6g %14.6g %14.6g %6ld\n", ev->t,
               nsm_event_kind_name(ev->kind), cn, ev->vrel_before, ev->vrel_after, ev->impulse,
               num_unsigned_nan(ev->energy_lost) + 0.0, ev->count);
        if (ferror(stdout))
            return write_failed(d, errno, "standard output");
    }
    return stop_signal != 0;
}

/* Sample handler: one trajectory CSV line.  Stops the run (nonzero) after a
** failed write or a stop signal. */
static int on_sample_locked(void *ud, const nsm_sim *sim, double t)
{
    Driver *d = ud;
    d->t_out = fmax(d->t_out, t);
    progress_update(&d->pb, d->t_end > 0 ? t / d->t_end : 1);
    if (d->anim)
        anim_sample(d->anim, sim, t);
    if (d->h5 && h5out_sample(d->h5, sim, t))
        return 1;   /* stops the run; h5out_close says why */
    if (sinks_tick(d))
        return 1;
    if (d->out.fd >= 0) {
        sink_printf(&d->out, "%.12g", t);
        for (int k = 0; k < d->m->n_outputs; k++)
            sink_printf(&d->out, ",%.12g", num_unsigned_nan(nsm_sim_output(sim, k)));
        sink_printf(&d->out, "\n");
        if (sink_endline(&d->out))
            return write_failed(d, d->out.err, d->out.path);
    }
    return stop_signal != 0;
}

/* Section handler: one CSV line, t, phase and the state (and a row of the
** HDF5 file's /section with --out FILE.h5).  Stops the run
** (nonzero) after a failed write or a stop signal. */
static int on_section_locked(void *ud, const nsm_sim *sim, const nsm_section_record *r)
{
    Driver *d = ud;
    (void)sim;
    d->t_out = fmax(d->t_out, r->t);
    sink_printf(&d->sec, "%.17g,%.17g", r->t, r->phase);
    for (int i = 0; i < 2 * d->m->n_bodies; i++)
        sink_printf(&d->sec, ",%.17g", r->y[i]);
    sink_printf(&d->sec, "\n");
    if (sink_endline(&d->sec))
        return write_failed(d, d->sec.err, d->sec.path);
    if (sinks_tick(d))
        return 1;
    if (d->h5 && h5out_section(d->h5, r))
        return 1;   /* stops the run; h5out_close says why */
    return stop_signal != 0;
}

/* The outputs' writer between callbacks: a run whose callbacks stop for a
** long time (a sample period as long as the run, the motion at rest after
** its last event) kept the lines that came before in the sinks' buffers
** and the HDF5 writer's, and a SIGKILL then lost them all (every file
** empty after its events, though they ended seconds before the kill).
** A thread wakes every FLUSHER_NAP and writes out each output whose lines
** have waited SINK_EVERY (the HDF5 file: FLUSH_EVERY since its last
** flush); the callbacks and the thread take io_lock, so the thread sees
** whole lines only. */
#define FLUSHER_NAP_NS 50000000L

static pthread_mutex_t io_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t flusher_wake = PTHREAD_COND_INITIALIZER;
static int flusher_stop;          /* under io_lock: the run is over */
static int flusher_on;            /* the thread was started */
static pthread_t flusher_thread;

/* Writes out the sinks' waiting lines and the HDF5 file's, when due (the
** thread, io_lock held).  A failed write is kept in s->err, where the
** close says it (exit 3 with its cause), and stops the run at its next
** step (run_stop): it went on to t_end when no callback came. */
static void flusher_tick(Driver *d)
{
    Sink *sinks[3] = { &d->out, &d->events, &d->sec };
    for (int k = 0; k < 3; k++) {
        Sink *s = sinks[k];
        if (s->fd >= 0 && !s->err && s->n && sink_due(s) && sink_flush(s))
            run_stop = 1;
    }
    if (d->h5 && h5out_tick(d->h5))
        run_stop = 1;           /* h5out_close says why */
}

/* The thread's body: flusher_tick every FLUSHER_NAP_NS until flusher_stop. */
static void *flusher_main(void *ud)
{
    Driver *d = ud;
    pthread_mutex_lock(&io_lock);
    while (!flusher_stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += FLUSHER_NAP_NS;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&flusher_wake, &io_lock, &until);
        if (!flusher_stop)
            flusher_tick(d);
    }
    pthread_mutex_unlock(&io_lock);
    return NULL;
}

/* Starts the flusher for the run, every signal blocked in it (the stop
** signals are the main thread's).  Without a thread the outputs are
** written as before, from the callbacks alone. */
static void flusher_start(Driver *d)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    flusher_stop = 0;
    flusher_on = pthread_create(&flusher_thread, NULL, flusher_main, d) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* Stops the flusher and waits for it, before the outputs are closed. */
static void flusher_end(void)
{
    if (!flusher_on)
        return;
    pthread_mutex_lock(&io_lock);
    flusher_stop = 1;
    pthread_cond_signal(&flusher_wake);
    pthread_mutex_unlock(&io_lock);
    pthread_join(flusher_thread, NULL);
    flusher_on = 0;
}

/* The run's callbacks, each under io_lock (flusher_main). */
static int on_event(void *ud, const nsm_sim *sim, const nsm_event *ev)
{
    pthread_mutex_lock(&io_lock);
    int rc = on_event_locked(ud, sim, ev);
    pthread_mutex_unlock(&io_lock);
    return rc;
}

static int on_sample(void *ud, const nsm_sim *sim, double t)
{
    pthread_mutex_lock(&io_lock);
    int rc = on_sample_locked(ud, sim, t);
    pthread_mutex_unlock(&io_lock);
    return rc;
}

static int on_section(void *ud, const nsm_sim *sim, const nsm_section_record *r)
{
    pthread_mutex_lock(&io_lock);
    int rc = on_section_locked(ud, sim, r);
    pthread_mutex_unlock(&io_lock);
    return rc;
}

/* Open the statistics stream: "-" is stdout. */
static FILE *open_out(const char *path, int *created)
{
    *created = 0;
    if (strcmp(path, "-") == 0)
        return stdout;
    int fd = out_open_fd(path, created);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
    if (fd >= 0 && !f) {
        int e = errno;
        close(fd);
        if (*created)
            unlink(path);
        errno = e;
    }
    return f;
}

/* Flush and close a stream opened by open_out; nonzero (errno set) when
** any write to it failed. */
static int close_out(FILE *f)
{
    if (!f)
        return 0;
    int bad = fflush(f) != 0 || ferror(f);
    int e = errno;
    if (f != stdout && fclose(f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    errno = e;
    return bad;
}

/* Report an output that cannot be opened; returns the exit status 1. */
static int cannot_open(const char *prog, const char *path, int e)
{
    if (e == EBUSY)
        fprintf(stderr, "%s: error: cannot write '%s': it is in use by another running program "
                "(two writers would interleave their lines, or its HDF5 file would replace this "
                "one); wait for it or choose another file\n", prog, path);
    else
        fprintf(stderr, "%s: error: cannot write '%s': %s\n", prog, path, strerror(e));
    return 1;
}

/* Check a sampling period by the runtime's rule (nsm_run_check): more than
** NSM_MAX_SAMPLES samples, or a period below the time resolution at t_end,
** is a typo, not a run.  Returns 0 or the exit status 1 after a message. */
static int check_every(const char *prog, double every, double t_end, const char *opt)
{
    char why[300];
    if (nsm_run_check(t_end, every, 0, 0, why, (int)sizeof why) == NSM_OK)
        return 0;
    fprintf(stderr, "%s: error: %s (%s)\n", prog, why, opt);
    return 1;
}

/* The step cap against the steps the run needs at least (t_end over the
** largest step: --dt, else the model's dt), by the rule Python's Model.run
** applies (nsm_run_check), so that `--max-steps 1` is refused up front
** (exit 1) as there, not a run that fails at its first step.  dt_opt is
** --dt's value, or negative when not given.  Returns 0 or the exit status
** 1 after a message. */
static int check_step_cap(const char *prog, const nsm_sim *sim, double t_end, double every,
                          double dt_opt)
{
    char why[300];
    double dt = dt_opt;
    if (dt < 0 && nsm_sim_model_times(sim, NULL, &dt, NULL) != NSM_OK)
        return 0;       /* said by the caller's own check of the model's times */
    if (nsm_run_check(t_end, every, dt, nsm_sim_get_max_steps(sim), why, (int)sizeof why) ==
        NSM_OK)
        return 0;
    fprintf(stderr, "%s: error: %s\n(try --help)\n", prog, why);
    return 1;
}

/* The sampling period of a run whose samples go nowhere (no trajectory,
** HDF5 file, plot or animation; no Lyapunov interval taken from it): the
** model's period every, or 0, stepping past it, where the sampling
** period's rule (nsm_run_check) would refuse it over the run, as Python's
** studies do (Model.section stepped through a section over 1e10 s that
** `--section` refused, "the sampling period 0.01 s gives about 1e+12
** samples"; no sample is kept either way).  A period given with --every
** is still held to the rule. */
static double unsampled(nsm_sim *sim, double every, double t_end)
{
    char why[300];
    if (nsm_run_check(t_end, every, 0, 0, why, (int)sizeof why) == NSM_OK ||
        nsm_sim_set_every(sim, 0) != NSM_OK)
        return every;
    return 0;
}

/* A stroboscopic section writes a record every T: held to the sampling
** period's rule (check_every), so `--section period:1e-9` over 754 s, 7.5e11
** records, is refused up front instead of running for days.  Returns 0 or
** the exit status 1 after a message. */
static int check_strobe(const char *prog, nsm_sim *sim, const char *spec, double t_end)
{
    char expr[512];
    double T;
    if (!spec || strncmp(spec, "period:", 7))
        return 0;
    const char *e = spec + 7, *colon = strchr(e, ':');
    snprintf(expr, sizeof expr, "%.*s", (int)(colon ? colon - e : (long)strlen(e)), e);
    if (nsm_sim_eval(sim, expr, &T) || !(T > 0))
        return 0;               /* the run's reset names what is wrong with it */
    return check_every(prog, T, t_end, "the period of --section period:T");
}

/* The path a dangling symbolic link names (relative to the link's folder),
** followed through up to eight such links, in buf; path itself when it is
** no link. A link to a file not yet made is that file: two outputs, one
** through the link, would otherwise each write it (--out x.h5 --events l
** with l -> x.h5 lost the events, the HDF5 file renamed over them). */
static const char *dangling_target(const char *path, char *buf, size_t len)
{
    char target[4096], next[4096];
    for (int depth = 0; depth < 8; depth++) {
        struct stat st;
        ssize_t n;
        if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode) ||
            (n = readlink(path, target, sizeof target - 1)) <= 0)
            return path;
        target[n] = '\0';
        const char *slash = strrchr(path, '/');
        int w = target[0] == '/' || !slash
                ? snprintf(next, sizeof next, "%s", target)
                : snprintf(next, sizeof next, "%.*s/%s", (int)(slash - path), path, target);
        if (w < 0 || (size_t)w >= sizeof next || (size_t)w >= len)
            return path;   /* too long to be a path: compared as written */
        memcpy(buf, next, (size_t)w + 1);
        path = buf;
    }
    return path;
}

/* Whether st is the null device, which any number of outputs may share
** (what is written to it is lost whoever writes it). */
static int out_is_null(const struct stat *st)
{
    struct stat null;
    return S_ISCHR(st->st_mode) && stat("/dev/null", &null) == 0 && S_ISCHR(null.st_mode) &&
           st->st_rdev == null.st_rdev;
}

/* The device number of the terminal /dev/tty stands for (the process's
** controlling terminal) into *rdev: 1, or 0 when st is not /dev/tty or
** there is no such terminal.  /dev/tty is a device of its own (5, 0), so
** `--out - --events /dev/tty` with stdout on that terminal was taken as
** two files and wrote both onto it. */
static int tty_device(const struct stat *st, dev_t *rdev)
{
#if defined(__linux__) && defined(TIOCGDEV)
    if (!S_ISCHR(st->st_mode) || st->st_rdev != makedev(5, 0))
        return 0;
    int fd = open("/dev/tty", O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    unsigned int dev = 0;
    int ok = fd >= 0 && ioctl(fd, TIOCGDEV, &dev) == 0;
    if (fd >= 0)
        close(fd);
    if (ok)      /* the kernel's encoding: minor's low byte, major, minor's high bits */
        *rdev = makedev((dev >> 8) & 0xfff, (dev & 0xff) | ((dev >> 12) & 0xfff00));
    return ok;
#else
    (void)st, (void)rdev;
    return 0;
#endif
}

/* The file a path names, as one text (its device and inode when it
** exists, whatever its kind: "-" is what stdout is, so that `--out -
** --events /dev/stdout`, two outputs onto one FIFO or one terminal are one
** file; a character device by its device number, /dev/tty as the terminal
** it stands for; else its folder's and its name, a dangling link's
** target's), in buf; 0 when there is no such file to compare (stdout
** closed) or it is the null device. */
static int out_identity(const char *path, char *buf, size_t len)
{
    struct stat st;
    char dir[4096], link[4096];
    if (!path)
        return 0;
    if (!strcmp(path, "-") ? fstat(1, &st) == 0 : stat(path, &st) == 0) {
        if (out_is_null(&st))
            return 0;
        dev_t rdev = st.st_rdev;
        tty_device(&st, &rdev);
        if (S_ISCHR(st.st_mode))
            snprintf(buf, len, "c%u:%u", (unsigned)major(rdev), (unsigned)minor(rdev));
        else
            snprintf(buf, len, "%lu:%lu", (unsigned long)st.st_dev, (unsigned long)st.st_ino);
        return 1;
    }
    if (!strcmp(path, "-"))
        return 0;
    path = dangling_target(path, link, sizeof link);
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
             slash ? path : ".");
    if (stat(dir, &st) != 0)
        snprintf(buf, len, "%s", path);
    else
        snprintf(buf, len, "%lu:%lu/%s", (unsigned long)st.st_dev, (unsigned long)st.st_ino,
                 slash ? slash + 1 : path);
    return 1;
}

/* Whether the output path, not "-", names the file standard output writes
** to (`--out /dev/stdout`, /proc/self/fd/1, or the file stdout was sent
** to): its CSV then goes to stdout as with "-".  The event table went to
** stdout beside it: `sim --out /dev/stdout > f.csv` wrote the table over
** the CSV's first rows (two descriptions, two offsets), and a pipe read
** the table's lines among the rows. */
static int path_is_stdout(const char *path)
{
    struct stat a, b, n;
    if (!path || !strcmp(path, "-") || stat(path, &a) != 0 || fstat(1, &b) != 0 ||
        a.st_dev != b.st_dev || a.st_ino != b.st_ino)
        return 0;
    /* /dev/null as both loses nothing: the table and the audit stay where
     * they were (stdout on /dev/null with --out /dev/null) */
    return !(S_ISCHR(a.st_mode) && stat("/dev/null", &n) == 0 && S_ISCHR(n.st_mode) &&
             a.st_rdev == n.st_rdev);
}

/* Whether the output path is standard output's file, by any name: "-",
** /dev/stdout, /dev/fd/1, or the very file stdout was sent to (`sim --out
** /dev/stdout > f.csv`).  Such an output takes stdout as "-" does: the
** event table and the audit were printed onto the CSV's first bytes (the
** shell's descriptor writes from its own offset), exit 0. */
static int out_is_stdout(const char *path)
{
    return path && (!strcmp(path, "-") || path_is_stdout(path));
}

/* The outputs checked against each other, the parameter file and the
** figures: --out (CSV and HDF5), --events, --stats, --section-out,
** --lyapunov-out, the animation's GIF, script and log. */
enum { NOUT = 9 };

/* The file the animation GIF path writes beside it with the extension ext
** (its gnuplot script FILE.gp, gnuplot's log FILE.log, animate.c's names)
** in buf, or NULL when there is no animation: `--animate a.gif --out a.gp`
** (--stats a.log, --set-file a.gp) ended with one of the two files lost,
** exit 0, and `--animate P/plot.gif --plot P` shared one plot.gp. */
static const char *anim_sibling(const char *path, const char *ext, char *buf, size_t len)
{
    size_t n = path ? strlen(path) : 0;
    if (n < 4 || strcasecmp(path + n - 4, ".gif"))
        return NULL;       /* refused by anim_create */
    snprintf(buf, len, "%.*s.%s", (int)(n - 4), path, ext);
    return buf;
}

/* Two outputs that name one file (--out x.h5 --section-out x.h5 left only
** the HDF5 file, the section lost without a word): the first such pair's
** options, or NULL. */
static const char *outputs_clash(const char *const *paths, const char *const *names, int n,
                                 const char **other)
{
    static char a[4200], b[4200];
    for (int i = 0; i < n; i++) {
        if (!out_identity(paths[i], a, sizeof a))
            continue;
        for (int j = i + 1; j < n; j++)
            if (out_identity(paths[j], b, sizeof b) && !strcmp(a, b)) {
                *other = names[j];
                return names[i];
            }
    }
    return NULL;
}

/* The option of the first of the n outputs that is the file input names
** (a regular file, by device and inode, links followed), or NULL: `--set-file p.txt --out
** p.txt` wrote the trajectory over the parameter file, exit 0. */
static const char *output_is_input(const char *const *paths, const char *const *names, int n,
                                   const char *input)
{
    static char a[4200], b[4200];
    struct stat st;       /* a regular file: a terminal read and written is no clash */
    if (!input || stat(input, &st) != 0 || !S_ISREG(st.st_mode) ||
        !out_identity(input, a, sizeof a))
        return NULL;
    for (int k = 0; k < n; k++)
        if (paths[k] && out_identity(paths[k], b, sizeof b) && !strcmp(a, b))
            return names[k];
    return NULL;
}

/* Whether a spectrum not written leaves an earlier run's file at path: a
** regular file (--lyapunov-out /dev/full or a FIFO was said to hold "an
** earlier run's" spectrum). */
static int lyap_earlier(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The option of the first of the n outputs (other than "-") that is the
** regular file standard error goes to, or NULL: `sim --out /dev/stderr 2>
** f.csv` (or `--out f.csv 2> f.csv`) wrote the run's report over the CSV's
** first bytes (stderr writes from its own offset), exit 0.  A terminal or a
** pipe takes both, line by line. */
static const char *output_is_stderr(const char *const *paths, const char *const *names, int n)
{
    struct stat err, st;
    if (fstat(2, &err) != 0 || !S_ISREG(err.st_mode))
        return NULL;
    for (int k = 0; k < n; k++)
        if (paths[k] && strcmp(paths[k], "-") && stat(paths[k], &st) == 0 &&
            st.st_dev == err.st_dev && st.st_ino == err.st_ino)
            return names[k];
    return NULL;
}

/* Whether one of the n paths is a symbolic link to nothing, refused before
** any output is opened, as every output is (the HDF5 file, the Lyapunov
** spectrum, `nsmc -o`, a sweep's results): a link planted where a run
** writes would otherwise make a file wherever it names.  1 after the
** message (out_link_target's), or 0. */
static int outputs_linked(const char *prog, const char *const *paths, int n)
{
    char target[4200];
    for (int k = 0; k < n; k++)
        if (paths[k] && strcmp(paths[k], "-") &&
            out_link_target(prog, paths[k], target, sizeof target))
            return 1;
    return 0;
}

/* Open every output of a run, or none: the CSV files (trajectory, events,
** section, statistics; NULL paths are not asked for) without truncation,
** then the HDF5 file (a temporary, h5out_open); only when all are open are
** the existing CSV files emptied, so an output that cannot be opened leaves
** an earlier run's files as they were (those this run created removed).
** 0, or 1 after the message (128 + N when signal N came while a FIFO
** waited for its reader). */
static int outputs_open(Driver *d, nsm_sim *sim, const char *out_path, const char *ev_path,
                        const char *sec_path, const char *stats_path, FILE **stats,
                        const char *h5_path, const char *sec_spec)
{
    Sink *sinks[3] = { &d->out, &d->events, &d->sec };
    const char *paths[3] = { out_path, ev_path, sec_path };
    const char *bad_path = NULL;
    int e = 0, stats_created = 0;
    char err[1024] = "";
    if (outputs_linked(d->prog, paths, 3) || outputs_linked(d->prog, &stats_path, 1))
        return 1;
    for (int k = 0; k < 3 && !bad_path; k++)
        if (paths[k] && sink_open(sinks[k], paths[k]))
            e = errno, bad_path = paths[k];
    if (!bad_path && stats_path && !(*stats = open_out(stats_path, &stats_created)))
        e = errno, bad_path = stats_path;
    if (!bad_path && h5_path) {
        const char *keep[4] = { out_path, ev_path, sec_path, stats_path };
        h5out_stale(h5_path, d->prog, keep, 4);
        if (!(d->h5 = h5out_open(h5_path, d->m, sim, err, sizeof err)) ||
            (sec_spec && h5out_section_start(d->h5, sec_spec))) {
            if (d->h5)   /* the section's dataset could not be made: say why */
                h5out_close(d->h5, sim, 0, 0, err, sizeof err);
            d->h5 = NULL;
            bad_path = h5_path;
        }
    }
    for (int k = 0; k < 3 && !bad_path; k++)
        if (out_truncate(sinks[k]->own ? sinks[k]->fd : -1))
            e = errno, bad_path = paths[k];
    if (!bad_path && *stats && *stats != stdout && out_truncate(fileno(*stats)))
        e = errno, bad_path = stats_path;
    if (!bad_path)
        return 0;
    for (int k = 0; k < 3; k++)
        sink_abandon(sinks[k]);
    if (*stats && *stats != stdout) {
        fclose(*stats);
        if (stats_created)
            unlink(stats_path);
    }
    *stats = NULL;
    h5out_abandon(d->h5);
    d->h5 = NULL;
    if (*err)
        fprintf(stderr, "%s: error: %s\n", d->prog, err);
    else if (e == EINTR && stop_signal) {
        fprintf(stderr, "%s: interrupted by %s while waiting for a reader of the FIFO '%s'; "
                "nothing written\n", d->prog, signal_name(stop_signal), bad_path);
        return 128 + stop_signal;
    } else
        cannot_open(d->prog, bad_path, e);
    return 1;
}

/* Report a usage error; returns the exit status 1. */
static int bad(const char *prog, const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "%s: error: ", prog);
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, "\n(try --help)\n");
    return 1;
}

/* The files --plot DIR writes besides the trajectory and the events: an
** earlier run's are removed (remove_old_plots), and no output may be one of
** them (plot_names_taken). */
static const char *const PLOT_FILES[] = { "plot.png", "plot.svg", "phase.png", "phase.svg",
                                          "path.png", "path.svg", "plot.gp", "plot.log" };
enum { N_PLOT_FILES = sizeof PLOT_FILES / sizeof PLOT_FILES[0] };

/* Whether one of the n outputs is a file that --plot writes into dir
** itself (DIR/plot.svg, DIR/plot.gp, ...), or two outputs are one file once
** the trajectory's and the events' defaults in dir are given: `--plot P
** --stats P/plot.svg` or `--events P/plot.log` ran, exit 0, and the figure
** or gnuplot's log took the output's place; `--out P/plot.svg` ended "no
** plot: cannot read 'P/plot.svg'", `--events P/trajectory.csv` "in use by
** another running program".  The folder's lock (.nsm-run.lock) is one of
** them.  1 after the message, or 0.  Called once dir
** exists, so that its files are named by the folder's identity. */
static int plot_names_taken(const char *prog, const char *dir, const char *const *paths,
                            const char *const *names, int n)
{
    static char a[4200], b[4200];
    char f[4200];
    const char *clash2, *clash1 = outputs_clash(paths, names, n, &clash2);
    if (clash1) {
        fprintf(stderr, "%s: error: %s and %s name the same file with --plot %s (its default "
                "trajectory.csv and events.csv included): each output needs its own\n"
                "(try --help)\n", prog, clash1, clash2, dir);
        return 1;
    }
    for (size_t i = 0; i <= N_PLOT_FILES; i++) {
        /* past the figures, the folder's lock (outdir_lock_take_for): an
         * output written there replaced the process id, exit 0, and every
         * later run into the folder was refused ("holds other data") */
        snprintf(f, sizeof f, "%s/%s", dir, i < N_PLOT_FILES ? PLOT_FILES[i] : ".nsm-run.lock");
        if (!out_identity(f, a, sizeof a))
            continue;
        for (int k = 0; k < n; k++)
            if (paths[k] && out_identity(paths[k], b, sizeof b) && !strcmp(a, b)) {
                fprintf(stderr, "%s: error: %s names '%s', %s that --plot %s writes "
                        "itself: name another output file\n(try --help)\n", prog, names[k],
                        paths[k], i < N_PLOT_FILES ? "a file" : "the folder's lock", dir);
                return 1;
            }
    }
    return 0;
}

/* Whether the files --plot DIR writes itself (PLOT_FILES) can be written
** whole (outdir_result_check): a FIFO named plot.gp or plot.png was
** removed as an earlier run's, or held gnuplot in its open().  0, or 1
** after a message. */
static int plot_files_check(const char *prog, const char *dir)
{
    char f[4200];
    for (size_t i = 0; i < N_PLOT_FILES; i++) {
        snprintf(f, sizeof f, "%s/%s", dir, PLOT_FILES[i]);
        if (outdir_result_check(prog, f))
            return 1;
    }
    return 0;
}

/* Whether a file can be read. */
static int readable(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f)
        fclose(f);
    return f != NULL;
}

/* Remove the plot files of an earlier run in dir, so that none is left
** stale when this one draws nothing. */
static void remove_old_plots(const char *dir)
{
    char p[4200];
    for (size_t i = 0; i < N_PLOT_FILES; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, PLOT_FILES[i]);
        remove(p);
    }
}

/* The model's friction elements for the plot's legend (at most max). */
static int plot_frictions(const nsm_model *m, PlotFriction *fric, int max)
{
    int n = 0;
    for (int k = 0; k < m->n_frictions && n < max; k++, n++) {
        fric[n].name = m->frictions[k].name;
        fric[n].space = 0;
    }
    for (int k = 0; k < m->n_space_frictions && n < max; k++, n++) {
        fric[n].name = m->space_frictions[k].name;
        fric[n].space = 1;
    }
    return n;
}

/* Draw the plots of the run into dir and say on stderr where they are, or
** why there are none (no gnuplot, nothing to plot: a note).  Returns 2
** when a stop signal came while gnuplot drew (it is killed, its figures
** removed), 1 when the plot files could not be written or gnuplot failed,
** else 0. */
static int draw_plots(const nsm_model *m, const nsm_sim *sim, const char *prog, const char *dir,
                      const char *traj, const char *events, int phase)
{
    PlotWall walls[64];
    int nw = 0;
    for (int k = 0; k < m->n_walls && nw < 64; k++) {
        PlotWall *w = &walls[nw];
        if (nsm_sim_wall_line(sim, k, &w->nx, &w->ny, &w->c, &w->r) != NSM_OK)
            continue;
        w->name = m->walls[k].name;
        w->body = m->planar[m->walls[k].planar].name;
        nw++;
    }
    char title[512], err[1024] = "", pp[4200];
    if (m->title && *m->title)
        snprintf(title, sizeof title, "%s: %s", m->name, m->title);
    else
        snprintf(title, sizeof title, "%s", m->name);
    int flags = PLOT_PNG | PLOT_SVG | (phase ? PLOT_PHASE : 0);
    PlotSurface surf[16];
    PlotFriction fric[64];
    PlotScene scene = { walls, nw, surf, anim_surfaces(m, sim, surf, 16), fric,
                        plot_frictions(m, fric, 64) };
    int rc = plot_draw_scene(dir, traj, events, title, flags, &scene, err, sizeof err);
    if (rc == PLOT_ESTOP)
        return 2;   /* finish says the run was stopped */
    if (rc == PLOT_EFAIL) {
        fprintf(stderr, "%s: error: no plot: %s\n", prog, err);
        return 1;
    }
    if (rc != PLOT_OK) {
        fprintf(stderr, "%s: note: no plot: %s\n", prog, err);
        return 0;
    }
    snprintf(pp, sizeof pp, "%s/phase.png", dir);
    int have_phase = phase && readable(pp);
    fprintf(stderr, "%s: plots: %s/plot.png, %s/plot.svg", prog, dir, dir);
    if (have_phase)
        fprintf(stderr, ", %s/phase.png, %s/phase.svg", dir, dir);
    snprintf(pp, sizeof pp, "%s/path.png", dir);
    if (readable(pp))
        fprintf(stderr, ", %s/path.png, %s/path.svg", dir, dir);
    fprintf(stderr, " (script %s/plot.gp)\n", dir);
    if (*err)
        fprintf(stderr, "%s: note: %s\n", prog, err);
    if (phase && !have_phase)
        fprintf(stderr, "%s: note: no phase portrait: no body has both its position and its "
                "velocity among the outputs\n", prog);
    return 0;
}

/* Mean of a total over count phases, 0 without phases. */
static double mean(double total, long count)
{
    return count > 0 ? total / (double)count : 0.0;
}

/* Percent of a fraction, NAN kept. */
static double pct(double x)
{
    return 100 * x;
}

/* Write the per-contact statistics CSV: one row per gap, with the run's
** balance error and code_aster's global energy error repeated on every row.
** The caller checks the stream when it closes it. */
static void write_stats(const nsm_sim *sim, const nsm_model *m, FILE *f)
{
    nsm_audit au;
    nsm_sim_audit(sim, &au);
    fprintf(f, "contact,law,impacts,zeno,phases,contact_time [s],mean_time [s],impulse [N s],"
               "peak_force [N],max_speed [m/s],energy_lost [J],damper_energy [J],"
               "aster_force_error [%%],aster_energy_error [%%],balance_error_rel\n");
    for (int j = 0; j < m->n_gaps; j++) {
        nsm_contact_stats cs;
        nsm_sim_contact_stats(sim, j, &cs);
        fprintf(f, "%s,%s,%ld,%ld,%ld,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.6g,%.6g,%.6g\n",
                m->gaps[j].name, nsm_law_name(m->gaps[j].law),
                cs.impacts, cs.zeno, cs.phases, cs.contact_time, mean(cs.contact_time, cs.phases),
                cs.impulse, cs.peak_force, cs.max_speed, cs.energy_lost, cs.damper_energy,
                pct(cs.aster_force), pct(au.aster_energy),
                au.energy_max > 0 ? au.error_max / au.energy_max : 0.0);
    }
}

/* One line of the audit table. */
static void audit_line(FILE *f, int indent, const char *what, const char *name, double v,
                       const char *unit)
{
    char label[96];
    snprintf(label, sizeof label, "%*s%s%s%s", indent, "", what, name ? " " : "", name ? name : "");
    fprintf(f, "  %-36s %16.9g %s\n", label, v + 0.0, unit);
}

/* Name of spring or damper element k: its own, else "K (A -- B)", K its
** number in the model's order from 1. */
static void element_name(const nsm_model *m, int k, char *buf, size_t len)
{
    const nsm_spring_info *e = &m->springs[k];
    if (e->name && *e->name) {
        snprintf(buf, len, "%s", e->name);
        return;
    }
    snprintf(buf, len, "%d (%s -- %s)", k + 1, e->a >= 0 && m->body_names ? m->body_names[e->a] : "ground",
             e->b >= 0 && m->body_names ? m->body_names[e->b] : "ground");
}

/* The rigid bodies' gyroscopic torques' work per rotational coordinate,
** apart from the injected work: they pass energy between a body's rates
** and add none (their total, printed first, is zero to rounding). */
static void print_gyro_work(const nsm_sim *sim, const nsm_model *m, FILE *f)
{
    if (m->n_rigid <= 0 || !m->rigid_rot)
        return;
    double total = 0;
    for (int b = 0; b < m->n_rigid; b++)
        for (int i = m->rigid_rot[b]; i < m->rigid_rot[b] + 3; i++)
            total += nsm_sim_gyro_work(sim, i);
    audit_line(f, 0, "gyroscopic torques' work", NULL, total, "J");
    for (int b = 0; b < m->n_rigid; b++)
        for (int i = m->rigid_rot[b]; i < m->rigid_rot[b] + 3; i++)
            audit_line(f, 2, "on", m->body_names ? m->body_names[i] : "?",
                       nsm_sim_gyro_work(sim, i), "J");
}

/* The --summary table: the energy audit, then one row per contact. */
static void print_summary(const nsm_sim *sim, const nsm_model *m, const nsm_audit *a, FILE *f)
{
    double other = a->potential - a->springs - a->gravity - a->contacts;
    fprintf(f, "\nenergy audit at t = %.12g s (%ld step%s, method %s)\n", nsm_sim_time(sim),
            a->steps, a->steps == 1 ? "" : "s", nsm_method_name(nsm_sim_get_method(sim)));
    audit_line(f, 0, "kinetic", NULL, a->kinetic, "J");
    for (int k = 0; k < m->n_planar; k++) {
        const nsm_planar_info *pl = &m->planar[k];
        audit_line(f, 2, "translation", pl->name,
                   nsm_sim_body_kinetic(sim, pl->ix) + nsm_sim_body_kinetic(sim, pl->iy), "J");
        audit_line(f, 2, "rotation", pl->name, nsm_sim_body_kinetic(sim, pl->iphi), "J");
    }
    audit_line(f, 0, "potential", NULL, a->potential, "J");
    audit_line(f, 2, "springs", NULL, a->springs, "J");
    audit_line(f, 2, "gravity", NULL, a->gravity, "J");
    audit_line(f, 2, "penalty contacts", NULL, a->contacts, "J");
    if (fabs(other) > 1e-9 * (fabs(a->potential) + 1e-300))
        audit_line(f, 2, "other", NULL, other, "J");
    audit_line(f, 0, "injected", NULL, a->injected, "J");
    for (int i = 0; i < m->n_bodies && a->injected != 0; i++)
        audit_line(f, 2, "on", m->body_names ? m->body_names[i] : "?", nsm_sim_body_work(sim, i), "J");
    if (a->injected_other != 0 && a->injected != 0)
        audit_line(f, 2, "other", NULL, a->injected_other, "J");
    for (int k = 0; k < m->n_forces && a->injected != 0; k++) {
        double w;
        if (nsm_sim_force_work(sim, k, &w) == NSM_OK)
            audit_line(f, 2, "by", m->forces[k].name, w, "J");
    }
    double wf;
    if (a->injected != 0 && nsm_sim_force_work(sim, -1, &wf) == NSM_OK && wf != 0)
        audit_line(f, 2, "other (forces)", NULL, wf, "J");
    for (int k = 0; k < m->n_frictions; k++) {
        nsm_friction_stats fs;
        if (nsm_sim_friction_stats(sim, k, &fs) == NSM_OK && fs.surface_work != 0)
            audit_line(f, 2, "surface of", m->frictions[k].name, fs.surface_work, "J");
    }
    for (int j = 0; j < m->n_gaps; j++) {
        nsm_contact_stats cs;
        if (nsm_sim_contact_stats(sim, j, &cs) == NSM_OK && cs.surface_work != 0 &&
            isfinite(cs.surface_work))
            audit_line(f, 2, "surface of", m->gaps[j].name, cs.surface_work, "J");
    }
    print_gyro_work(sim, m, f);
    audit_line(f, 0, "dissipated", NULL, a->dissipated, "J");
    for (int k = 0; k < m->n_springs; k++) {
        double e = nsm_sim_damper_energy(sim, k);
        char nm[64];
        element_name(m, k, nm, sizeof nm);
        if (e != 0)
            audit_line(f, 2, "damper", nm, e, "J");
    }
    for (int j = 0; j < m->n_gaps; j++) {   /* every law with damping, a program's own too */
        nsm_contact_stats cs;
        if (nsm_sim_contact_stats(sim, j, &cs) == NSM_OK && cs.damper_energy != 0)
            audit_line(f, 2, "contact damper", m->gaps[j].name, cs.damper_energy, "J");
    }
    for (int k = 0; k < m->n_frictions; k++) {
        nsm_friction_stats fs;
        if (nsm_sim_friction_stats(sim, k, &fs) == NSM_OK)
            audit_line(f, 2, "friction", m->frictions[k].name, fs.dissipated, "J");
    }
    for (int k = 0; k < m->n_space_frictions; k++) {
        double e;
        if (nsm_sim_space_friction_dissipated(sim, k, &e) == NSM_OK)
            audit_line(f, 2, "friction", m->space_frictions[k].name, e, "J");
    }
    if (a->dissipated_other != 0)
        audit_line(f, 2, "other", NULL, a->dissipated_other, "J");
    audit_line(f, 0, "lost in impacts and sticks", NULL, a->lost, "J");
    audit_line(f, 0, "initial (kinetic + potential)", NULL, a->e0, "J");
    audit_line(f, 0, "balance error now", NULL, a->error, "J");
    audit_line(f, 0, "largest balance error", NULL, a->error_max, "J");
    audit_line(f, 0, "  relative to the largest energy", NULL,
               a->energy_max > 0 ? a->error_max / a->energy_max : 0.0, "");
    /* code_aster's metrics are relative: the energy error to the injected
     * energy E0 + W of the forces (none when it stays 0 over the run), the
     * force error to the penalty contacts' forces k p (none without a
     * penalty force in the run).  A metric with no value gets no line
     * rather than a nan. */
    if (!isnan(a->aster_energy))
        audit_line(f, 0, "code_aster global energy error", NULL, pct(a->aster_energy),
                   fabs(a->dissipated) + fabs(a->lost) > 1e-9 * a->energy_max
                       ? "% (counts no dissipation: not meaningful here)" : "%");
    if (!isnan(a->aster_force))
        audit_line(f, 0, "code_aster force/kinematics error", NULL, pct(a->aster_force), "%");
    if (m->n_frictions) {
        fprintf(f, "\n%-12s %6s %6s %9s %14s %14s %14s %6s\n", "friction", "sticks", "slips",
                "reversals", "stuck [s]", "dissipated [J]", "surface [J]", "state");
        for (int k = 0; k < m->n_frictions; k++) {
            nsm_friction_stats fs;
            if (nsm_sim_friction_stats(sim, k, &fs) != NSM_OK)
                continue;
            fprintf(f, "%-12s %6ld %6ld %9ld %14.8g %14.8g %14.8g %6s\n", m->frictions[k].name,
                    fs.sticks, fs.slips, fs.reversals, fs.stick_time, fs.dissipated,
                    fs.surface_work, fs.state == 0 ? "stuck" : fs.state > 0 ? "slip+" : "slip-");
        }
    }
    if (m->n_gaps == 0)
        return;
    fprintf(f, "\n%-12s %-7s %8s %5s %7s %14s %14s %14s %14s %14s %14s %14s\n", "contact", "law",
            "impacts", "zeno", "phases", "time [s]", "mean [s]", "impulse [N s]", "peak [N]",
            "speed [m/s]", "lost [J]", "damper [J]");
    for (int j = 0; j < m->n_gaps; j++) {
        nsm_contact_stats cs;
        nsm_sim_contact_stats(sim, j, &cs);
        fprintf(f, "%-12s %-7s %8ld %5ld %7ld %14.8g %14.8g %14.8g %14.8g %14.8g %14.8g %14.8g\n",
                m->gaps[j].name, nsm_law_name(m->gaps[j].law),
                cs.impacts, cs.zeno, cs.phases, cs.contact_time, mean(cs.contact_time, cs.phases),
                cs.impulse, cs.peak_force, cs.max_speed, cs.energy_lost, cs.damper_energy);
    }
}

/* Every CSV output that could not be written, beyond the first failure
** (d->werr_path, said by the caller), with its own reason, and each
** removed for want of even its header (sink_close): only the first was
** named, and events.csv was left at 0 bytes without a word. */
static void sinks_failed_said(const Driver *d)
{
    const Sink *sinks[3] = { &d->out, &d->events, &d->sec };
    for (int k = 0; k < 3; k++) {
        const Sink *s = sinks[k];
        if (!s->err || (s->path == d->werr_path && !s->removed))
            continue;
        fprintf(stderr, "%s: error: cannot write '%s': %s%s\n", d->prog,
                strcmp(s->path, "-") ? s->path : "standard output", strerror(s->err),
                s->removed ? "; removed, as not even its header could be written" : "");
    }
}

/* Notes the outputs whose reader took nothing when the stop came: they
** hold fewer lines than the run wrote (sink_flush). */
static void sinks_cut_said(const Driver *d)
{
    if (d->table_cut)
        fprintf(stderr, "%s: note: the event table on standard output ends earlier: its "
                "reader took nothing for half a second after the stop\n", d->prog);
    const Sink *sinks[3] = { &d->out, &d->events, &d->sec };
    for (int k = 0; k < 3; k++) {
        const char *path = sinks[k]->path;
        if (sinks[k]->cut)
            fprintf(stderr, "%s: note: '%s' ends earlier: its reader took nothing for half a "
                    "second after the stop\n", d->prog,
                    strcmp(path, "-") ? path : "standard output");
    }
}

/* The descriptor of `nsmc run`'s report pipe (NSM_REPORT_FD), or -1. */
static int report_fd = -1;

/* Takes NSM_REPORT_FD's descriptor, before the run opens any file: only a
** pipe inherited open is nsmc's.  Read later, the variable set by hand (or
** naming a descriptor not inherited) named whatever file the run had
** opened under that number, and the report went into it: "write-failed"
** as the first line of the --stats file. */
static void report_fd_take(void)
{
    const char *v = getenv("NSM_REPORT_FD");
    char *end;
    struct stat st;
    long fd = v && *v ? strtol(v, &end, 10) : -1;
    if (fd >= 3 && fd <= INT_MAX && !*end && fstat((int)fd, &st) == 0 && S_ISFIFO(st.st_mode))
        report_fd = (int)fd;
}

/* Tell `nsmc run` (which passes a pipe's descriptor in NSM_REPORT_FD) that
** the outputs could not be written ("write-failed"), or that a stop came
** before they were opened ("stopped-unopened"), so that it summarises
** nothing and says what its folder holds; or that the run's outputs are
** whole and only a figure or the animation failed ("figure-failed"), so
** that it summarises and draws them as after a run that ended by itself. */
static void report_to_parent(const char *what)
{
    if (report_fd >= 0)
        (void)!write(report_fd, what, strlen(what));
}

/* What the run's balance check could judge, for a run that ended by
** itself: every step's balance against its tolerance and the rounding
** floors (BAL_PASSED: the run would have stopped otherwise), or why it
** judged nothing. */
enum { BAL_PASSED, BAL_OVERFLOW, BAL_NOT_KEPT, BAL_ZERO, BAL_SUBNORMAL, BAL_OFF };

static int balance_state(const Driver *d, const nsm_audit *au)
{
    if (isnan(au->error) && !(isfinite(au->kinetic) && isfinite(au->potential) &&
                              isfinite(au->e0)))
        return BAL_OVERFLOW;
    if (isnan(au->error))         /* exact without the audit keeps no energy integrals */
        return BAL_NOT_KEPT;
    if (au->energy_max == 0)      /* every energy rounded to 0 J: 0 of 0 says nothing */
        return BAL_ZERO;
    if (au->energy_max > 0 && au->energy_max < DBL_MIN)
        return BAL_SUBNORMAL;     /* rounded to 5e-324 J whatever their size */
    return d->etol_off ? BAL_OFF : BAL_PASSED;
}

/* Tells `nsmc run` (NSM_REPORT_FD) the balance check's verdict on a run
** that ended by itself, so that its summary of the energy.error column
** says what the check judged: the column's worst sample, relative to the
** energy met by then, read 0.02 for a pendulum released at its top (whose
** energies are at their rounding's scale) beside a check that passed on
** the rounding floors (docs/energy.md). */
static void balance_report(int bal)
{
    static const char *const said[] = {
        "balance: passed\n",
        "balance: not judged (the energies are beyond a double's range)\n",
        "balance: not judged (not kept: exact without the audit)\n",
        "balance: not judged (every energy met is 0 J)\n",
        "balance: not judged (the largest energy met is below a double's normal range)\n",
        "balance: not judged (--energy-tol 0)\n"
    };
    report_to_parent(said[bal]);
}

/* The parameter file input when it is a file of the plot folder dir (by
** device and inode), or NULL: the clean-up of other studies' results keeps
** it.  `--plot P --set-file P/summary.csv` removed the user's parameter
** file as a sweep's summary, exit 0 (nsmc run keeps its inputs alike). */
static const char *plot_input_in(const char *dir, const char *input)
{
    struct stat a, b;
    char path[4300];
    if (!dir || !input || stat(input, &a) != 0 || !S_ISREG(a.st_mode))
        return NULL;
    const char *base = strrchr(input, '/') ? strrchr(input, '/') + 1 : input;
    if (snprintf(path, sizeof path, "%s/%s", dir, base) >= (int)sizeof path ||
        stat(path, &b) != 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino)
        return NULL;
    return input;
}

/* The files of a run in its --plot folder, which outdir_others_remove
** leaves there while it removes a study's results (a sweep's section.csv
** and figures stayed beside the run's own without a word, as they did in
** `nsmc run`'s folder): the run's own names, as `nsmc run` writes them, and
** the names of the n outputs given (NULL when not given), a file named
** DIR/summary.csv by --stats being the run's. */
static void plot_own(Driver *d, const char *const *outs, int n)
{
    static const char *const mine[] = { "trajectory.csv", "events.csv", "plot.", "phase.",
                                        "path.", "animation." };
    d->nown = 0;
    for (size_t k = 0; k < sizeof mine / sizeof mine[0]; k++)
        d->own[d->nown++] = mine[k];
    for (int k = 0; k < n && d->nown < (int)(sizeof d->own / sizeof d->own[0]); k++)
        if (outs[k] && *outs[k])
            d->own[d->nown++] = strrchr(outs[k], '/') ? strrchr(outs[k], '/') + 1 : outs[k];
}

/* Whether the trajectory or the event log --plot would read was replaced
** under its name while the run ran (sink_replaced): no plot of another
** file, said.  1 after the message, else 0. */
static int plot_replaced(const Driver *d)
{
    const Sink *s = d->out.replaced ? &d->out : d->events.replaced ? &d->events : NULL;
    if (!s)
        return 0;
    fprintf(stderr, "%s: error: no plot: '%s' was replaced by another file while the run ran; "
            "what the run wrote there is gone, and the file there now is not this run's\n",
            d->prog, s->path);
    return 1;
}

/* After the run: close the outputs and check them, write the statistics and
** the summary, plot, and report.  Returns the exit status.  The time said
** is the simulation's, or the latest the outputs were given when the run
** stopped inside a step whose samples were taken (exact's samples are
** states of the step's expansion, the state put back to the step's start):
** "interrupted at t" was below the last row's time. */
static int finish(Driver *d, nsm_sim *sim, int rc, FILE *stats, const char *stats_path,
                  int summary, const char *plot_dir, const char *out_path, const char *ev_path,
                  int phase)
{
    const nsm_model *m = d->m;
    double t = fmax(nsm_sim_time(sim), d->t_out);
    /* a stop that comes while the animation is drawn finds the run at its end */
    int sig_before = stop_signal, had_anim = d->anim != NULL;
    int anim_failed = anim_write(d->anim, d->prog, stop_signal != 0);
    int anim_stopped = had_anim && !sig_before && stop_signal != 0;
    if (sink_close(&d->out))
        write_failed(d, d->out.err, d->out.path);
    if (sink_close(&d->events))
        write_failed(d, d->events.err, d->events.path);
    if (sink_close(&d->sec))
        write_failed(d, d->sec.err, d->sec.path);
    int sig = stop_signal;
    /* a result replaced under its name: what nsmc run and --plot would read
     * there is not this run's (sink_replaced) */
    if (d->out.replaced)
        report_to_parent("result-replaced trajectory\n");
    if (d->events.replaced)
        report_to_parent("result-replaced events\n");
    if (d->h5) {
        char err[1024];
        if (h5out_close(d->h5, sim, rc, d->t_end, err, sizeof err)) {
            /* the other outputs as for a CSV file that cannot be written:
             * the statistics up to where the run stopped (their file was
             * left empty), and where that was (it was not said) */
            report_to_parent("write-failed\n");
            fprintf(stderr, "%s: error: %s; the run %s at t = %.12g s (the other files "
                    "end with a whole line)\n", d->prog, err, t < d->t_end ? "stopped" : "ended",
                    t);
            sinks_failed_said(d);
            if (stats)
                write_stats(sim, m, stats);
            if (close_out(stats))
                fprintf(stderr, "%s: error: cannot write '%s': %s\n", d->prog,
                        strcmp(stats_path, "-") ? stats_path : "standard output", strerror(errno));
            nsm_sim_free(sim);
            return 3;   /* an output could not be written, as for CSV */
        }
    }
    nsm_audit au;
    nsm_sim_audit(sim, &au);
    if (stats) {
        write_stats(sim, m, stats);
        if (close_out(stats))
            write_failed(d, errno, strcmp(stats_path, "-") ? stats_path : "standard output");
    }
    if (d->table && d->table_max >= 0 && d->nev > d->table_max)
        printf("... %ld more events not shown (--events-max %ld)%s%s\n", d->nev - d->table_max,
               d->table_max, ev_path ? "; all of them in " : "", ev_path ? ev_path : "");
    /* beside a CSV on stdout the audit goes to stderr: it was appended to
     * that CSV (`--out - --summary | reader` read the table as rows) */
    if (summary && !d->werr && !sig)
        print_summary(sim, m, &au, d->stdout_csv ? stderr : stdout);
    if (fflush(stdout) != 0 || ferror(stdout))
        write_failed(d, errno, "standard output");
    if (d->werr) {
        report_to_parent("write-failed\n");
        /* "ended" when the failed write came at the close (--out /dev/full
         * over a run shorter than the writes' interval said "stopped at
         * t = 100 s", t_end) */
        fprintf(stderr, "%s: error: cannot write '%s': %s; the run %s at t = %.12g s "
                "(the files end with a whole line)\n", d->prog,
                strcmp(d->werr_path, "-") ? d->werr_path : "standard output",
                d->werr == EBUSY ? "it is in use by another running program, which began to "
                "write it during the run" : strerror(d->werr),
                t < d->t_end ? "stopped" : "ended", t);
        sinks_failed_said(d);
        nsm_sim_free(sim);
        return 3;
    }
    if (sig && anim_stopped) {
        report_to_parent("stopped-animation\n");
        fprintf(stderr, "%s: interrupted by %s while the animation was drawn: the run had "
                "reached its end at t = %.12g s; the output files are whole\n", d->prog,
                signal_name(sig), t);
        nsm_sim_free(sim);
        return 128 + sig;
    }
    if (sig) {
        fprintf(stderr, "%s: interrupted by %s at t = %.12g s; the output files hold whole "
                "lines up to there\n", d->prog, signal_name(sig), t);
        sinks_cut_said(d);
        nsm_sim_free(sim);
        return 128 + sig;
    }
    /* the --plot folder moved away while the run ran, a link to another
     * folder in its place: that folder's study results were removed and
     * its trajectory drawn, exit 0 (this run's went with the folder the
     * run started in) */
    int plot_moved = plot_dir && outdir_moved(plot_dir, &d->plot_id);
    if (plot_moved)
        fprintf(stderr, "%s: error: no plot: the folder '%s' was moved, removed or replaced "
                "while the run ran: nothing is removed or drawn in what stands there now; the "
                "run's trajectory and events are in the folder it started in, wherever that "
                "was moved\n", d->prog, plot_dir);
    if (plot_dir && !plot_moved)  /* the run's results in place: a study's files go */
        outdir_others_remove(d->prog, plot_dir, d->own, d->nown);
    int plot_failed = plot_moved ? 1 : plot_dir && plot_replaced(d) ? 1
                    : plot_dir ? draw_plots(m, sim, d->prog, plot_dir, out_path, ev_path, phase)
                    : 0;
    if (plot_failed == 2) {   /* stopped while gnuplot drew: killed, no half figure */
        fprintf(stderr, "%s: interrupted by %s while drawing the figures in %s; the output "
                "files are whole, the figures not drawn\n", d->prog, signal_name(stop_signal),
                plot_dir);
        nsm_sim_free(sim);
        return 128 + stop_signal;
    }
    if (rc) {
        fprintf(stderr, "%s: error: simulation failed: %s\n", d->prog, nsm_sim_message(sim));
        nsm_sim_free(sim);
        return 3;
    }
    note_dt_cap(d, sim, t);
    char head[200];
    long nev = nsm_sim_events(sim), nst = nsm_sim_steps(sim);
    snprintf(head, sizeof head, "%ld event%s, %ld step%s, t = %.12g s, method %s", nev,
             nev == 1 ? "" : "s", nst, nst == 1 ? "" : "s", t,
             nsm_method_name(nsm_sim_get_method(sim)));
    int bal = balance_state(d, &au);
    balance_report(bal);
    if (bal == BAL_OVERFLOW)
        /* the energies overflowed (a speed of 1e300 m/s): the balance
         * cannot be formed, whatever the method; rk4 was told "--summary
         * keeps it" */
        fprintf(stderr, "%s: %s (energy balance not computable: the energies are beyond a "
                "double's range, kinetic %g J, potential %g J)\n", d->prog, head,
                num_unsigned_nan(au.kinetic), num_unsigned_nan(au.potential));
    else if (bal == BAL_NOT_KEPT)
        fprintf(stderr, "%s: %s (energy balance not kept: --summary keeps it)\n", d->prog, head);
    else if (bal == BAL_ZERO)
        fprintf(stderr, "%s: %s (energy balance not judged: every energy met is 0 J: "
                "none, or all below a double's range)\n", d->prog, head);
    else if (bal == BAL_SUBNORMAL)
        fprintf(stderr, "%s: %s (energy balance not judged: the largest energy met, %g J, is "
                "below the normal range of a double)\n", d->prog, head, au.energy_max);
    else    /* with the stop test's verdict: a fraction of 0.013 beside it reads as a failure */
        fprintf(stderr, "%s: %s, energy error %.3g J (%.2g of the largest energy), %s\n",
                d->prog, head, au.error, au.energy_max > 0 ? au.error_max / au.energy_max : 0.0,
                bal == BAL_OFF ? "balance not judged (--energy-tol 0)"
                               : "balance check passed at every step");
    nsm_sim_free(sim);
    if (plot_failed)        /* the outputs are whole: nsmc run goes on */
        report_to_parent("figure-failed\n");
    if (anim_failed)
        report_to_parent("figure-failed anim\n");
    return plot_failed || anim_failed ? 1 : 0;
}

/* One line on stderr when the model's dt capped exact's steps: exact solves
** each mode in closed form and needs no cap, so a model written for rk4
** (dt = 1 ms) makes it take thousands of steps for nothing.  Said when the
** steps are at least half of t/dt and no --dt was given. */
static void note_dt_cap(const Driver *d, const nsm_sim *sim, double t)
{
    double dt = 0;
    if (d->dt_given || nsm_sim_get_method(sim) != NSM_METHOD_EXACT ||
        nsm_sim_model_times(sim, NULL, &dt, NULL) || !(dt > 0) ||
        (double)nsm_sim_steps(sim) < 0.5 * t / dt)
        return;
    fprintf(stderr, "%s: note: the model's dt = %g s capped exact's steps (%ld steps); exact "
            "needs no cap: --dt 0 lets each mode take its own\n", d->prog, dt,
            nsm_sim_steps(sim));
}

/* Whether the temporary that lyap_write writes the spectrum through,
** PATH.tmpPID beside path in folder dir, has a name the file system takes:
** a name of 245 bytes or more was taken, the whole run done, and then the
** spectrum could not be written (exit 3, "File name too long").  0, or 1
** after a message. */
static int lyap_tmp_fits(const char *prog, const char *path, const char *dir)
{
    char suffix[32];
    size_t n = (size_t)snprintf(suffix, sizeof suffix, ".tmp%ld", (long)getpid());
    const char *slash = strrchr(path, '/');
    size_t base = strlen(slash ? slash + 1 : path);
    long name_max = pathconf(dir, _PC_NAME_MAX);
    if ((name_max <= 0 || base + n <= (size_t)name_max) && strlen(path) + n < PATH_MAX)
        return 0;
    fprintf(stderr, "%s: error: cannot write '%s': its name leaves no room for the temporary "
            "the spectrum is written through ('%s' ending in '%s'): choose a shorter name\n",
            prog, path, slash ? slash + 1 : path, suffix);
    return 1;
}

/* Whether another running program writes the regular file path: one of a
** simulator's outputs (locked, out_open_fd) or the HDF5 file a simulator
** writes through its temporary (h5out_writer).  The spectrum, renamed over
** its path at the end, replaced another running simulator's event log
** (both runs exit 0, the events gone), and its HDF5 file then replaced
** the spectrum; every other output is refused so.  Nonzero when in use. */
static int lyap_in_use(const char *path)
{
    return h5out_writer(path) || out_file_in_use(path);
}

/* Whether the Lyapunov spectrum, written once the run is over, can go to
** path: a folder, a missing folder or a link to nothing is refused before
** any output is touched (exit 1), not after the whole run (exit 3 with the
** other files written).  0, or the exit status 1 after a message. */
static int lyap_check(const char *prog, const char *path)
{
    struct stat st;
    char dir[4096];
    if (!strcmp(path, "-"))
        return 0;
    if (lyap_in_use(path))
        return cannot_open(prog, path, EBUSY);
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
             slash ? path : ".");
    if (stat(path, &st) == 0)
        return S_ISDIR(st.st_mode) ? cannot_open(prog, path, EISDIR)
               : S_ISREG(st.st_mode) ? lyap_tmp_fits(prog, path, dir) : 0;
    if (errno != ENOENT)
        return cannot_open(prog, path, errno);
    if (lstat(path, &st) == 0) {
        fprintf(stderr, "%s: error: cannot write '%s': a symbolic link to nothing\n", prog,
                path);
        return 1;
    }
    if (stat(dir, &st) != 0)
        return cannot_open(prog, path, errno);
    if (!S_ISDIR(st.st_mode))
        return cannot_open(prog, path, ENOTDIR);
    if (access(dir, W_OK | X_OK) != 0)
        return cannot_open(prog, path, errno);
    return lyap_tmp_fits(prog, path, dir);
}

/* Write the Lyapunov spectrum (n exponents) as CSV to f; 0, or -1 with
** errno when a write failed. */
static int lyap_print(FILE *f, int n, const double *lambda)
{
    fprintf(f, "exponent,lambda [1/s]\n");
    for (int i = 0; i < n; i++)
        fprintf(f, "%d,%.17g\n", i + 1, lambda[i]);
    return fflush(f) != 0 || ferror(f) ? -1 : 0;
}

/* Write the Lyapunov spectrum (n exponents) as CSV to path ("-": stdout).
** A regular file is written through a temporary renamed into place, so
** that it is whole or absent; a symbolic link's target is replaced (the
** link stays), and a FIFO or a device is written directly, as the other
** outputs are (a rename would replace the node itself: `--lyapunov-out
** /dev/null` run as root replaced the system's /dev/null by a file).  0,
** or -1 with errno (EBUSY: another running program began to write path
** during the run, lyap_in_use). */
static int lyap_write(const char *path, int n, const double *lambda)
{
    char tmp[4300];
    struct stat st;
    if (!strcmp(path, "-"))
        return lyap_print(stdout, n, lambda);
    char *real = realpath(path, NULL);          /* NULL: no file there yet */
    const char *target = real ? real : path;
    if (lyap_in_use(path) || (real && lyap_in_use(real))) {
        free(real);
        errno = EBUSY;
        return -1;
    }
    FILE *f;
    if (stat(target, &st) == 0 && !S_ISREG(st.st_mode)) {
        f = fopen(target, "w");
        int e = !f ? errno : lyap_print(f, n, lambda) ? errno : 0;
        if (f && fclose(f) != 0 && !e)
            e = errno;
        free(real);
        errno = e;
        return e ? -1 : 0;
    }
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", target, (long)getpid());
    int e = (f = fopen(tmp, "w")) ? 0 : errno;
    if (f && lyap_print(f, n, lambda))
        e = errno ? errno : EIO;
    if (f && fclose(f) != 0 && !e)
        e = errno;
    if (!e && rename(tmp, target) != 0)
        e = errno;
    if (e && f)
        unlink(tmp);
    free(real);
    errno = e;
    return e ? -1 : 0;
}

/* The program: parse options, run, write CSV, report.  Returns the exit
** status. */
/* Room for the options that take a value (nsm_main's table). */
#define NV_OPTIONS 32

/* The simulator's options that take a value. */
#define NSIM_VALUED 26
static const char *const sim_valued[NSIM_VALUED] = {
    "--t-end", "--dt", "--every", "--rtol", "--atol", "--method", "--set", "--set-file", "--out",
    "--events", "--stats", "--max-steps", "--max-event-rate", "--max-impacts", "--plot",
    "--energy-tol", "--section", "--section-period", "--section-out", "--animate", "--fps",
    "--frames", "--events-max", "--lyapunov-interval", "--lyapunov-transient", "--lyapunov-out" };
_Static_assert(NSIM_VALUED <= NV_OPTIONS, "room for the options");

/* Whether a is one of the simulator's options that take a value (the
** words --NAME=VALUE are split on, cli_args_attached). */
static int option_valued(const char *a)
{
    for (int k = 0; k < NSIM_VALUED; k++)
        if (!strcmp(a, sim_valued[k]))
            return 1;
    return 0;
}

/* Whether option a's value names a file or a folder, which a word that
** looks like an option is not (cli_value_optionlike). */
static int option_names_file(const char *a)
{
    static const char *const named[] = { "--set-file", "--out", "--events", "--stats", "--plot",
                                         "--section-out", "--animate", "--lyapunov-out" };
    for (size_t k = 0; k < sizeof named / sizeof *named; k++)
        if (!strcmp(a, named[k]))
            return 1;
    return 0;
}

/* Where valued option k's value is kept: its index, or NV_OPTIONS for an
** HDF5 --out (a run writes one CSV and one HDF5 file). */
static int option_slot(const char *const *valued, int k, const char *val)
{
    return !strcmp(valued[k], "--out") && h5out_is_h5(val) ? NV_OPTIONS : k;
}

/* Whether flag a (an option without a value: --summary, --phase,
** --lyapunov, --no-zeno) was met before, *seen holding those met so far:
** given twice it was taken without a word, where a valued option twice is
** refused.  --table too: nsmc run passes it only when the user's words
** hold none. */
static int flag_repeated(unsigned *seen, const char *a)
{
    static const char *const flags[] = { "--summary", "--phase", "--lyapunov", "--no-zeno",
                                           "--table" };
    for (unsigned k = 0; k < sizeof flags / sizeof *flags; k++) {
        if (strcmp(a, flags[k]))
            continue;
        if (*seen & (1u << k))
            return 1;
        *seen |= 1u << k;
    }
    return 0;
}

/* Whether valued option k was given before: its later value replaced the
** earlier one without a word (--every 1 --every 2 ran with 2, --out a.csv
** --out b.csv wrote only b.csv), so every option is taken once.  --out
** takes one CSV and one HDF5 file (slot NV_OPTIONS); --set is checked per
** parameter (set_twice).  Records val in given[] otherwise. */
static int option_repeated(const char **given, const char *const *valued, int k, const char *val)
{
    if (!strcmp(valued[k], "--set"))
        return 0;
    int slot = option_slot(valued, k, val);
    if (given[slot])
        return 1;
    given[slot] = val;
    return 0;
}

int nsm_main(const nsm_model *m, int argc, char **argv)
{
    Driver d = { .m = m, .prog = argc > 0 && argv[0] ? argv[0] : (m ? m->name : "nsm"), .table = 1,
                 .table_max = -1, .t_out = -INFINITY };
    const char *out_path = NULL, *ev_path = NULL, *stats_path = NULL, *plot_dir = NULL;
    const char *h5_path = NULL;   /* --out FILE.h5 */
    const char *sec_spec = NULL, *sec_period = NULL, *sec_path = NULL;
    const char *set_path = NULL;      /* the --set-file, never an output */
    char plot_traj[4200], plot_ev[4200];
    int summary = 0, phase = 0, table_asked = 0;
    int lyap = 0;                     /* --lyapunov */
    double lyap_int = 0, lyap_tr = 0; /* --lyapunov-interval (0: the output period), -transient */
    const char *lyap_path = NULL;     /* --lyapunov-out */
    FILE *stats = NULL;
    AnimOptions anim_opt = { 0 };
    double t_end, v, rtol = 1e-9, atol = 1e-12, every, dt_opt = -1;
    const char *tol_opt = NULL;   /* the last of --rtol, --atol given */
    int t_end_given = 0, every_given = 0;
    /* first of all: from here on a stop signal is a flag (the files
     * created below must end whole whenever it comes), and one that came
     * before, held blocked by nsmc run, is taken now */
    signals_install();
    report_fd_take();
    if (!m)
        return 1;
    const char *slash = strrchr(d.prog, '/');
    if (slash)
        d.prog = slash + 1;
    nsm_sim *sim = nsm_sim_create(m);
    if (!sim) {
        if (m->abi != NSM_ABI_VERSION)
            fprintf(stderr, "%s: error: the model was generated for runtime ABI %d, this runtime "
                    "has ABI %d: regenerate it with this nsmc\n", d.prog, m->abi, NSM_ABI_VERSION);
        else
            fprintf(stderr, "%s: error: cannot create the simulation: out of memory\n", d.prog);
        return 1;
    }
    /* who set each parameter: reachable from a static, so that no return
     * below has to free it */
    static SetSeen *set_seen;
    free(set_seen);
    if (!(set_seen = calloc((size_t)m->n_params + 1, sizeof *set_seen))) {
        fprintf(stderr, "%s: error: out of memory\n", d.prog);
        nsm_sim_free(sim);
        return 1;
    }
    t_end = m->t_end;
    every = m->every;
    argv = cli_args_attached(argc, argv, option_valued, &argc);   /* --out=-x.csv */
    const char *given[NV_OPTIONS + 1] = { 0 };   /* each valued option's value, once */
    unsigned flags_seen = 0;                      /* the flags met (flag_repeated) */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        const char *const *valued = sim_valued;
        int takes = -1;
        for (int k = 0; k < NSIM_VALUED; k++)
            if (!strcmp(a, valued[k]))
                takes = k;
        if (takes >= 0 && !val) {
            nsm_sim_free(sim);
            return bad(d.prog, "option %s needs a value%s", a, "");
        }
        if (takes >= 0 && option_repeated(given, valued, takes, val)) {
            nsm_sim_free(sim);
            return bad(d.prog, "option %s is given twice (first '%s'): give each option once",
                       a, given[option_slot(valued, takes, val)]);
        }
        if (takes >= 0 && option_names_file(a) && cli_value_optionlike(val)) {
            nsm_sim_free(sim);   /* `--out-dir --help` made a folder named --help */
            return cli_value_refuse(d.prog, a, val);
        }
        if (flag_repeated(&flags_seen, a)) {
            nsm_sim_free(sim);
            return bad(d.prog, "option %s is given twice%s: give each option once", a, "");
        }
        int rc = 0;
        num_why = NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(m, d.prog, stdout);
            nsm_sim_free(sim);
            return out_stdout_check(d.prog);
        } else if (!strcmp(a, "--summary")) {
            summary = 1;
            continue;
        } else if (!strcmp(a, "--phase")) {
            phase = 1;
            continue;
        } else if (!strcmp(a, "--table")) {
            table_asked = 1;
            continue;
        } else if (!strcmp(a, "--events-max")) {
            rc = !parse_num(val, &v) || v < 0 || v > 9e18 || v != floor(v);
            d.table_max = rc ? -1 : (long)v;
        } else if (!strcmp(a, "--lyapunov")) {
            lyap = 1;
            continue;
        } else if (!strcmp(a, "--lyapunov-interval")) {
            rc = !parse_num(val, &lyap_int) || !(lyap_int > 0) || !isfinite(lyap_int);
        } else if (!strcmp(a, "--lyapunov-transient")) {
            rc = !parse_num(val, &lyap_tr) || !(lyap_tr >= 0) || !isfinite(lyap_tr);
        } else if (!strcmp(a, "--lyapunov-out")) {
            lyap_path = val;
            rc = !*val;
        } else if (!strcmp(a, "--no-zeno")) {
            nsm_sim_set_zeno(sim, 0);
            continue;
        } else if (!strcmp(a, "--t-end")) {
            rc = !parse_num(val, &t_end) || t_end < 0;
            t_end_given = 1;
        } else if (!strcmp(a, "--dt")) {
            rc = !parse_num(val, &v) || nsm_sim_set_dt(sim, v);
            d.dt_given = 1;
            dt_opt = v;
        } else if (!strcmp(a, "--every")) {
            rc = !parse_num(val, &v) || nsm_sim_set_every(sim, v);
            every = v;
            every_given = 1;
        } else if (!strcmp(a, "--energy-tol")) {
            rc = !parse_num(val, &v) || v < 0 || nsm_sim_set_energy_tolerance(sim, v);
            d.etol_off = v == 0;
        } else if (!strcmp(a, "--rtol") || !strcmp(a, "--atol")) {
            rc = !parse_num(val, &v);
            tol_opt = a;
            if (!rc) {
                if (a[2] == 'r')
                    rtol = v;
                else
                    atol = v;
                rc = nsm_sim_set_tolerances(sim, rtol, atol) != 0;
            }
        } else if (!strcmp(a, "--method")) {
            int meth = nsm_method_parse(val);
            if (meth < 0) {
                nsm_sim_free(sim);
                return bad(d.prog, "unknown method '%s' (valid: rk4, adaptive, exact, taylor)%s", val, "");
            }
            nsm_sim_set_method(sim, meth);
        } else if (!strcmp(a, "--set")) {
            if (set_option(sim, m, d.prog, val, set_seen)) {
                nsm_sim_free(sim);
                return 1;
            }
        } else if (!strcmp(a, "--set-file")) {
            SetCtx ctx = { sim, m, d.prog, val, set_seen };
            char err[512];
            set_path = val;
            int r = setfile_read_units(val, set_from_file, set_unit, &ctx, err, sizeof err);
            if (r) {
                if (r != -1)
                    fprintf(stderr, "%s: error: %s\n", d.prog, err);
                nsm_sim_free(sim);
                return 1;
            }
        } else if (!strcmp(a, "--out")) {
            *(h5out_is_h5(val) ? &h5_path : &out_path) = val;   /* one CSV and one HDF5 file */
        } else if (!strcmp(a, "--events")) {
            ev_path = val;
        } else if (!strcmp(a, "--stats")) {
            stats_path = val;
        } else if (!strcmp(a, "--section")) {
            /* an empty spec is the runtime's "no section": `--section ''`
             * ran with an empty section, exit 0, as if nothing crossed it */
            sec_spec = val;
            rc = !*val;
        } else if (!strcmp(a, "--section-period")) {
            sec_period = val;   /* empty: the phase was left out without a word */
            rc = !*val;
        } else if (!strcmp(a, "--section-out")) {
            sec_path = val;
        } else if (!strcmp(a, "--plot")) {
            plot_dir = val;
            rc = !*val;
        } else if (!strcmp(a, "--animate") || !strcmp(a, "--fps") || !strcmp(a, "--frames")) {
            rc = anim_option(&anim_opt, a, val);
            if (rc && strcmp(a, "--animate"))
                parse_num(val, &v);     /* the reason, when it is not a number */
        } else if (!strcmp(a, "--max-steps")) {
            rc = !parse_num(val, &v) || v < 1 || v > 9e18 || v != floor(v) ||
                 nsm_sim_set_max_steps(sim, (long)v);
        } else if (!strcmp(a, "--max-impacts")) {
            /* a whole number, as --max-steps: 2.5 was cut to 2 without a word */
            rc = !parse_num(val, &v) || v < 1 || v > 9e18 || v != floor(v) ||
                 nsm_sim_set_max_impacts(sim, (long)v);
        } else if (!strcmp(a, "--max-event-rate")) {
            rc = !parse_num(val, &v) || nsm_sim_set_max_event_rate(sim, v);
        } else {
            nsm_sim_free(sim);
            return bad(d.prog, "unknown option '%s'%s", a, "");
        }
        if (rc) {
            nsm_sim_free(sim);
            fprintf(stderr, "%s: error: bad value '%s' for %s: %s\n(try --help)\n", d.prog, val,
                    a, num_why ? num_why : option_rule(a));
            return 1;
        }
        i++;
    }
    if (out_path && ev_path && !strcmp(out_path, "-") && !strcmp(ev_path, "-")) {
        nsm_sim_free(sim);
        return bad(d.prog, "--out and --events cannot both write to stdout%s%s", "", "");
    }
    if (stats_path && !strcmp(stats_path, "-") &&
        ((out_path && !strcmp(out_path, "-")) || (ev_path && !strcmp(ev_path, "-")))) {
        nsm_sim_free(sim);
        return bad(d.prog, "--stats cannot write to stdout with %s", out_path && !strcmp(out_path, "-")
                   ? "--out" : "--events", "");
    }
    if ((sec_period || sec_path) && !sec_spec) {
        nsm_sim_free(sim);
        return bad(d.prog, "%s needs --section%s", sec_period ? "--section-period" : "--section-out", "");
    }
    if ((lyap_int > 0 || lyap_tr > 0 || lyap_path) && !lyap) {
        nsm_sim_free(sim);
        return bad(d.prog, "%s needs --lyapunov%s", lyap_path ? "--lyapunov-out" : lyap_int > 0
                   ? "--lyapunov-interval" : "--lyapunov-transient", "");
    }
    if (tol_opt && nsm_sim_get_method(sim) != NSM_METHOD_ADAPTIVE) {
        /* only adaptive's error control reads the tolerances: with another
         * method they would be taken without a word and change nothing */
        const char *meth = nsm_method_name(nsm_sim_get_method(sim));
        nsm_sim_free(sim);
        return bad(d.prog, "%s is a tolerance of the adaptive method: %s does not use it "
                   "(give --method adaptive, or leave it out)", tol_opt, meth);
    }
    if (lyap && sec_spec) {
        nsm_sim_free(sim);
        return bad(d.prog, "--lyapunov and --section cannot be combined (the exponents' run "
                   "follows the impacts itself and records no section)%s%s", "", "");
    }
    if (lyap && !lyap_path)
        lyap_path = "-";
    if (lyap && !strcmp(lyap_path, "-") && ((out_path && !strcmp(out_path, "-")) ||
                                            (ev_path && !strcmp(ev_path, "-")) ||
                                            (stats_path && !strcmp(stats_path, "-")))) {
        nsm_sim_free(sim);
        return bad(d.prog, "the Lyapunov spectrum and another output cannot both write to "
                   "stdout (give --lyapunov-out FILE)%s%s", "", "");
    }
    if (sec_spec && !sec_path)
        sec_path = "-";
    if (sec_spec && !strcmp(sec_path, "-") && ((out_path && !strcmp(out_path, "-")) ||
                                               (ev_path && !strcmp(ev_path, "-")) ||
                                               (stats_path && !strcmp(stats_path, "-")))) {
        nsm_sim_free(sim);
        return bad(d.prog, "the section and another output cannot both write to stdout "
                   "(give --section-out FILE)%s%s", "", "");
    }
    /* the GIF too: `--out a.gif --animate a.gif` kept the GIF alone, exit 0;
     * and the animation's script and log, FILE.gp and FILE.log beside it */
    char anim_gp[4200], anim_log[4200];
    const char *opaths[NOUT] = { out_path, h5_path, ev_path, stats_path,
                                 sec_spec ? sec_path : NULL, lyap ? lyap_path : NULL,
                                 anim_opt.path,
                                 anim_sibling(anim_opt.path, "gp", anim_gp, sizeof anim_gp),
                                 anim_sibling(anim_opt.path, "log", anim_log, sizeof anim_log) };
    const char *onames[NOUT] = { "--out", "--out", "--events", "--stats", "--section-out",
                                 "--lyapunov-out", "--animate", "the script of --animate",
                                 "the log of --animate" };
    const char *clash2, *clash1 = outputs_clash(opaths, onames, NOUT, &clash2);
    if (clash1) {
        nsm_sim_free(sim);
        return bad(d.prog, "%s and %s name the same file: each output needs its own", clash1,
                   clash2);
    }
    const char *over = output_is_input(opaths, onames, NOUT, set_path);
    if (over) {
        nsm_sim_free(sim);
        return bad(d.prog, "%s names the parameter file read by --set-file ('%s'): the run "
                   "would write over it; name another output file", over, set_path);
    }
    if ((over = output_is_stderr(opaths, onames, NOUT))) {
        nsm_sim_free(sim);
        return bad(d.prog, "%s names the file standard error goes to: the run's messages "
                   "would be written over its lines; name another file (or '-', standard "
                   "output)%s", over, "");
    }
    /* an output named as a file of another program's folder while it runs */
    for (int k = 0; k < NOUT; k++)
        if (opaths[k] && outdir_output_free(d.prog, onames[k], opaths[k])) {
            nsm_sim_free(sim);
            return 1;
        }
    if (sec_spec && (nsm_sim_set_section(sim, sec_spec) ||
                     (sec_period && nsm_sim_set_section_period(sim, sec_period)))) {
        fprintf(stderr, "%s: error: %s\n", d.prog, nsm_sim_message(sim));
        nsm_sim_free(sim);
        return 1;
    }
    if (phase && !plot_dir) {
        nsm_sim_free(sim);
        return bad(d.prog, "--phase needs --plot DIR%s%s", "", "");
    }
    if (plot_dir && ((out_path && !strcmp(out_path, "-")) || (ev_path && !strcmp(ev_path, "-")))) {
        nsm_sim_free(sim);
        return bad(d.prog, "--plot reads the trajectory and events back from files: %s - cannot "
                   "be used with --plot (give a file, or leave it out to write into %s)",
                   out_path && !strcmp(out_path, "-") ? "--out" : "--events", plot_dir);
    }
    /* the table goes to stdout unless the events go to a file the user
     * named (--table: both) or another output takes stdout */
    int table = table_asked || !ev_path;
    /* the model's t_end and output period may use parameters set above */
    if (nsm_sim_model_times(sim, t_end_given ? NULL : &t_end, NULL, every_given ? NULL : &every)) {
        fprintf(stderr, "%s: error: the model's t_end, dt or output period is not a positive "
                "time with these parameter values\n", d.prog);
        nsm_sim_free(sim);
        return 1;
    }
    if (!every_given && !(out_path || h5_path || plot_dir || anim_opt.path ||
                          (lyap && !(lyap_int > 0))))
        every = unsampled(sim, every, t_end);
    if (check_every(d.prog, 0, t_end, t_end_given ? "--t-end" : "the model's t_end") ||
        check_every(d.prog, every, t_end, "--every") ||
        check_strobe(d.prog, sim, sec_spec, t_end)) {
        nsm_sim_free(sim);
        return 1;
    }
    if (lyap && !(lyap_tr < t_end)) {
        char a[32], b[32];
        fprintf(stderr, "%s: error: --lyapunov-transient %s s leaves no time before t_end = "
                "%s s\n", d.prog, num_shortest(a, sizeof a, lyap_tr),
                num_shortest(b, sizeof b, t_end));
        nsm_sim_free(sim);
        return 1;
    }
    if (lyap && !(lyap_int > 0))
        lyap_int = every;
    /* --every 0 (or the model's output every 0) leaves the default
     * interval none: the run began, then failed (exit 3, the trajectory
     * left with its header) */
    if (lyap && !(lyap_int > 0)) {
        nsm_sim_free(sim);
        return bad(d.prog, "--lyapunov reorthonormalises every --lyapunov-interval T, by default "
                   "the output period, which --every 0 leaves none: give --lyapunov-interval T%s%s",
                   "", "");
    }
    /* a reorthonormalisation interval is held to the sampling period's rule:
     * `--lyapunov-interval 1e-300` spun for ever at t = 1e-294 s */
    if (lyap && check_every(d.prog, lyap_int, t_end, "--lyapunov-interval")) {
        nsm_sim_free(sim);
        return 1;
    }
    if (nsm_sim_reset(sim)) {
        fprintf(stderr, "%s: error: %s\n", d.prog, nsm_sim_message(sim));
        nsm_sim_free(sim);
        return 1;
    }
    /* what the run would refuse at its first step (a method the model
     * cannot take, a --dt or section period below the time resolution) is
     * an option error: exit 1 before any output is opened */
    if (nsm_sim_check_run(sim, t_end)) {
        fprintf(stderr, "%s: error: %s\n(try --help)\n", d.prog, nsm_sim_message(sim));
        nsm_sim_free(sim);
        return 1;
    }
    /* a Lyapunov study the model cannot have (nonlinear forces, time
     * switches, moving surfaces) is an option error too */
    if (lyap && nsm_sim_check_tangent(sim, "--lyapunov")) {
        fprintf(stderr, "%s: error: %s\n", d.prog, nsm_sim_message(sim));
        nsm_sim_free(sim);
        return 1;
    }
    /* the tangent vectors start at t = 0 without a transient: a contact
     * held there is known from the reset (two_mass --lyapunov failed at once,
     * exit 3, "the motion does not start in free flight") */
    int held = lyap && !(lyap_tr > 0) ? held_contact(m, sim) : -1;
    if (held >= 0) {
        fprintf(stderr, "%s: error: --lyapunov: the motion does not start in free flight "
                "(contact '%s' is held at t = 0): give --lyapunov-transient T past it\n",
                d.prog, m->gaps[held].name);
        nsm_sim_free(sim);
        return 1;
    }
    /* a duration or interval too short for the exponents (1e-300 s read 0
     * for every one, exit 0) is an option error too: the bound is the
     * free-flight mode's at t = 0 (after a transient the spectrum checks it
     * again where it starts) */
    if (lyap && nsm_sim_lyapunov_check(sim, t_end - lyap_tr, lyap_int)) {
        char a[32], b[32], c[32];
        fprintf(stderr, "%s: error: --lyapunov from t = %s s to t_end = %s s, "
                "--lyapunov-interval %s s: %s\n", d.prog, num_shortest(a, sizeof a, lyap_tr),
                num_shortest(b, sizeof b, t_end), num_shortest(c, sizeof c, lyap_int),
                nsm_sim_message(sim));
        nsm_sim_free(sim);
        return 1;
    }
    if (check_step_cap(d.prog, sim, t_end, every, dt_opt)) {
        nsm_sim_free(sim);
        return 1;
    }
    if (!plot_dir && lyap && lyap_check(d.prog, lyap_path)) {
        nsm_sim_free(sim);
        return 1;
    }
    /* the plot folder is made only once every option has been accepted, and
     * its old figures removed once every output is open; the animation and
     * the spectrum's file are checked once it exists (`--animate P/a.gif
     * --plot P` and `--lyapunov-out P/l.csv --plot P` were refused while P
     * did not exist yet; the other outputs are opened after it is made) */
    if (!plot_dir && anim_opt.given && !(d.anim = anim_create(m, sim, &anim_opt, t_end, d.prog))) {
        nsm_sim_free(sim);
        return 1;
    }
    if (plot_dir) {
        if (outdir_path_check(d.prog, plot_dir)) {
            nsm_sim_free(sim);
            return 1;
        }
        if (outdir_make_dirs(plot_dir)) {
            char why[8400];
            int dangling = outdir_dangling(plot_dir, why + 2, sizeof why - 2);
            if (dangling)
                memcpy(why, ": ", 2);
            nsm_sim_free(sim);
            return bad(d.prog, "cannot create the plot directory '%s'%s", plot_dir,
                       dangling ? why : "");
        }
        snprintf(plot_traj, sizeof plot_traj, "%s/trajectory.csv", plot_dir);
        snprintf(plot_ev, sizeof plot_ev, "%s/events.csv", plot_dir);
        if (!out_path)
            out_path = plot_traj;
        if (!ev_path)
            ev_path = plot_ev;
        opaths[0] = out_path;
        opaths[2] = ev_path;
        if (plot_names_taken(d.prog, plot_dir, opaths, onames, NOUT) ||
            plot_files_check(d.prog, plot_dir) ||
            (lyap && lyap_check(d.prog, lyap_path)) ||
            (anim_opt.given && !(d.anim = anim_create(m, sim, &anim_opt, t_end, d.prog)))) {
            outdir_unmake();
            nsm_sim_free(sim);
            return 1;
        }
        /* the folder's lock, as `nsmc run`, sweeps and continuations take
         * it: one writer at a time (after the names' check, which leaves a
         * folder it made as it found it) */
        if (outdir_lock_take_for(d.prog, plot_dir, "--plot") < 0) {
            outdir_unmake();
            anim_write(d.anim, d.prog, 1);
            nsm_sim_free(sim);
            return 1;
        }
        outdir_made_note(plot_dir);   /* removed at the end if left empty */
        outdir_id_take(plot_dir, &d.plot_id);
    }
    d.out.fd = d.events.fd = d.sec.fd = -1;
    int orc = outputs_open(&d, sim, out_path, ev_path, sec_spec ? sec_path : NULL, stats_path,
                           &stats, h5_path, sec_spec);
    if (orc) {
        if (orc > 128)      /* stopped waiting for a FIFO's reader: nothing written */
            report_to_parent("stopped-unopened\n");
        nsm_sim_free(sim);
        return orc;
    }
    report_to_parent("outputs-open\n");     /* nsmc run: this is a simulator that ran */
    if (plot_dir)
        remove_old_plots(plot_dir);
    d.stdout_csv = out_is_stdout(out_path) || out_is_stdout(ev_path) ||
                   out_is_stdout(stats_path) || (sec_spec && out_is_stdout(sec_path)) ||
                   (lyap && out_is_stdout(lyap_path));
    d.table = table && !d.stdout_csv;
    table_start(&d);
    sink_printf(&d.out, "t [s]");
    for (int k = 0; k < m->n_outputs; k++) {
        const nsm_output_info *o = &m->outputs[k];
        if (o->unit && *o->unit)
            sink_printf(&d.out, ",%s [%s]", o->name, o->unit);
        else
            sink_printf(&d.out, ",%s", o->name);
    }
    sink_printf(&d.out, "\n");
    sink_printf(&d.events, "t,kind,contact,vrel_before,vrel_after,impulse,energy_lost,count\n");
    sink_printf(&d.sec, "t [s],phase");
    for (int q = 0; q < 2 * m->n_bodies; q++) {
        const char *unit = "";
        char *name = coords_name(m, q, &unit);
        sink_printf(&d.sec, ",%s [%s]", name ? name : "?", unit);
        free(name);
    }
    sink_printf(&d.sec, "\n");
    /* only --summary and --stats print what the step-by-step audit sums */
    nsm_sim_set_audit(sim, summary || stats);
    nsm_sim_set_event_handler(sim, on_event, &d);
    nsm_sim_set_sample_handler(sim, on_sample, &d);
    nsm_sim_set_section_handler(sim, on_section, &d);
    nsm_sim_set_warning_handler(sim, on_warning, &d);
    nsm_sim_set_stop_flag(sim, &run_stop);      /* read before every step */
    /* the reset above ran before the handlers were installed: replay the
     * initial transitions by resetting again now that they are */
    nsm_sim_reset(sim);
    d.t_end = t_end;
    progress_start(&d.pb, stderr);
    flusher_start(&d);
    double *lambda = lyap ? calloc((size_t)(2 * m->n_bodies + 1), sizeof(double)) : NULL;
    int rc = 0;
    if (lyap && !lambda)
        rc = NSM_ENOMEM;
    else if (!stop_signal && !lyap)
        rc = nsm_sim_run_until(sim, t_end);
    else if (!stop_signal) {
        if (lyap_tr > 0)
            rc = nsm_sim_run_until(sim, lyap_tr);
        if (!rc && !stop_signal)
            rc = nsm_sim_lyapunov(sim, t_end - nsm_sim_time(sim), lyap_int, lambda);
    }
    /* a stop asked for before the run began (while the outputs were being
     * opened) or between its parts: the files say stopped (status
     * NSM_ESTOPPED in the HDF5 summary), never complete */
    if (!rc && stop_signal && nsm_sim_time(sim) < t_end)
        rc = NSM_ESTOPPED;
    /* a sampling period that does not divide t_end left the state at t_end
     * out of the trajectory: its last row, as Python's run has it */
    if (!rc && !stop_signal)
        rc = nsm_sim_sample_end(sim);
    flusher_end();
    progress_finish(&d.pb);
    if (lyap && !rc && !stop_signal && lyap_write(lyap_path, 2 * m->n_bodies, lambda))
        write_failed(&d, errno, strcmp(lyap_path, "-") ? lyap_path : "standard output");
    else if (lyap && strcmp(lyap_path, "-") && (rc || stop_signal))
        /* beside the trajectory of this run, an earlier run's spectrum
         * was taken for this one's */
        fprintf(stderr, "%s: note: '%s' was not written (the spectrum needs the whole run)%s\n",
                d.prog, lyap_path, lyap_earlier(lyap_path) ? "; the file there is an "
                "earlier run's" : "");
    free(lambda);
    const char *outs[] = { out_path, ev_path, stats_path, sec_path, h5_path, lyap_path,
                           anim_opt.path, plot_input_in(plot_dir, set_path) };
    plot_own(&d, outs, (int)(sizeof outs / sizeof outs[0]));
    return finish(&d, sim, rc, stats, stats_path, summary, plot_dir, out_path, ev_path, phase);
}
