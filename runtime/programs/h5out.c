/*
** h5out.c: the simulator's HDF5 output (see h5out.h for the file's layout).
**
** Samples and events are kept in memory buffers and appended to chunked,
** extensible datasets a block at a time.  The HDF5 library's own error
** printing is turned off: failures come back as messages with the reason
** from the library's error stack (the system's, as "File too large", when
** there is one), which the driver prints.  The model's description is
** written when the file is created, the run's summary (status, audit,
** contact statistics) when it is closed.
**
** Nothing existing is destroyed before the new file is whole: the file is
** written as PATH.PID.partial in the same folder and renamed over PATH when
** it is closed; on a failure the temporary is removed and PATH is left as
** it was.  Full buffers are appended as they fill; the file is flushed
** every quarter second, and its metadata stays in memory between flushes
** (cache_hold), so a run killed outright (SIGKILL) leaves PATH.PID.partial
** readable up to its last flush.  Names (contacts, parameters, units, event kinds) are
** variable-length strings: none is cut.
*/
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE     /* realpath */
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <hdf5.h>

#include "coords.h"
#include "h5out.h"

enum {
    SAMPLE_BLOCK = 4096,    /* samples buffered before a write */
    EVENT_BLOCK = 1024,     /* events buffered before a write */
    SECTION_BLOCK = 1024,   /* section records buffered before a write */
    FLUSH_CHECK = 256       /* samples or events between looks at the clock */
};

/* Seconds between flushes: a killed run loses at most this much of its
** output, and a flush (a few small writes of metadata in place, see
** flush_due) happens a few times a second however fast the run writes. */
static const double FLUSH_EVERY = 0.25;

/* One event as stored: the CSV's columns (strings variable-length). */
typedef struct EvRec {
    double t;
    const char *kind;
    const char *contact;    /* a model's name, or sw below */
    double vrel_before, vrel_after, impulse, energy_lost;
    long long count;
    char sw[32];            /* "switchN" for a time switch (not stored) */
} EvRec;

/* One parameter as stored. */
typedef struct ParRec {
    const char *name;
    const char *unit;
    double def, value;
} ParRec;

/* One contact's statistics as stored (nsm_contact_stats). */
typedef struct StatRec {
    const char *name;
    const char *law;
    long long impacts, zeno, phases;
    double contact_time, impulse, peak_force, max_speed, energy_lost, damper_energy,
        aster_force;
} StatRec;

struct H5Out {
    char path[PATH_MAX + 64];   /* the file asked for (a symbolic link's target) */
    char tmp[PATH_MAX + 96];    /* what is written: path.PID.partial */
    const nsm_model *m;
    hid_t file, traj, events, evtype;
    int ncol;
    double *rows;
    long nrows;
    hsize_t traj_len;
    EvRec *evs;
    long nev;
    hsize_t ev_len;
    hid_t sec;                  /* /section (h5out_section_start), else -1 */
    int secw;                   /* its width: t, phase, the state */
    double *secrows;
    long nsec;
    hsize_t sec_len;
    double t_out;               /* the latest time of a row taken (-inf: none) */
    long since_check;           /* samples and events since the clock was read */
    double last_flush;          /* CLOCK_MONOTONIC seconds of the last flush */
    int dirty;                  /* rows taken since the last flush (h5out_tick) */
    int failed;
    int lockfd;                 /* holds the write lock on tmp (lock_tmp), else -1 */
    int dfd;                    /* the folder of path and tmp, held open (dir_hold), else -1 */
    char msg[2 * PATH_MAX + 1024];
};

/* What h5_reason collects from the error stack. */
typedef struct Reason {
    char sys[256];              /* the system's message ("File too large"), if any */
    char desc[256];             /* the innermost description */
} Reason;

/* H5Ewalk2's callback: keeps the innermost description and the first
** system message ("error message = '...'") on the stack. */
static herr_t reason_walk(unsigned n, const H5E_error2_t *e, void *ud)
{
    Reason *r = ud;
    const char *d = e->desc ? e->desc : "";
    if (n == 0)
        snprintf(r->desc, sizeof r->desc, "%s", d);
    const char *q = r->sys[0] ? NULL : strstr(d, "error message = '");
    if (q) {
        q += strlen("error message = '");
        const char *end = strchr(q, '\'');
        snprintf(r->sys, sizeof r->sys, "%.*s", (int)(end ? end - q : (long)strlen(q)), q);
    }
    return 0;
}

/* The reason of the last HDF5 failure into buf: the system's message when
** the library saw one, else its innermost description, else what (the
** step that failed); the error stack is then cleared. */
static void h5_reason(const char *what, char *buf, size_t len)
{
    Reason r = { "", "" };
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, reason_walk, &r);
    H5Eclear2(H5E_DEFAULT);
    if (r.sys[0])
        snprintf(buf, len, "%s (%s)", r.sys, what);
    else if (r.desc[0])
        snprintf(buf, len, "%s (%s)", what, r.desc);
    else
        snprintf(buf, len, "%s", what);
}

/* Seconds on the monotonic clock. */
static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The reason of a failure noted by h5_note before the calls that clean up
** after it (every HDF5 call clears the error stack); "" when none. */
static char pending_reason[600];

/* Keeps the reason of the HDF5 call that just failed for h5_fail. */
static void h5_note(const char *what)
{
    if (!pending_reason[0])
        h5_reason(what, pending_reason, sizeof pending_reason);
}

/* Records the first failure, with the library's reason (the one h5_note
** kept, else the stack's now); returns -1. */
static int h5_fail(H5Out *h, const char *what)
{
    char why[600];
    if (pending_reason[0])
        snprintf(why, sizeof why, "%s", pending_reason);
    else
        h5_reason(what, why, sizeof why);
    pending_reason[0] = 0;
    if (!h->failed)
        snprintf(h->msg, sizeof h->msg, "cannot write '%s': %s", h->path, why);
    h->failed = 1;
    return -1;
}

/* A variable-length string type (names of any length). */
static hid_t vstr_type(void)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, H5T_VARIABLE);
    H5Tset_strpad(t, H5T_STR_NULLTERM);
    return t;
}

/* A fixed-length string type of n bytes (NUL-terminated). */
static hid_t str_type(size_t n)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, n < 1 ? 1 : n);
    H5Tset_strpad(t, H5T_STR_NULLTERM);
    return t;
}

/* Writes a scalar string attribute; 0 or -1. */
static int attr_str(hid_t loc, const char *name, const char *s)
{
    s = s ? s : "";
    hid_t t = str_type(strlen(s) + 1), sp = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(loc, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
    int rc = a < 0 || H5Awrite(a, t, s) < 0 ? -1 : 0;
    if (a >= 0)
        H5Aclose(a);
    H5Sclose(sp);
    H5Tclose(t);
    return rc;
}

/* Writes a scalar attribute of a native type; 0 or -1. */
static int attr_num(hid_t loc, const char *name, hid_t file_type, hid_t mem_type,
                    const void *v)
{
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(loc, name, file_type, sp, H5P_DEFAULT, H5P_DEFAULT);
    int rc = a < 0 || H5Awrite(a, mem_type, v) < 0 ? -1 : 0;
    if (a >= 0)
        H5Aclose(a);
    H5Sclose(sp);
    return rc;
}

/* Writes a double attribute. */
static int attr_double(hid_t loc, const char *name, double v)
{
    return attr_num(loc, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &v);
}

/* Writes a 64-bit integer attribute. */
static int attr_long(hid_t loc, const char *name, long long v)
{
    return attr_num(loc, name, H5T_STD_I64LE, H5T_NATIVE_LLONG, &v);
}

/* Writes n strings as a one-dimensional fixed-length string array, an
** attribute of loc (as_attr) or a dataset in it; 0 or -1. */
static int str_array(hid_t loc, const char *name, const char *const *s, int n, int as_attr)
{
    size_t w = 1;
    for (int i = 0; i < n; i++)
        if (s[i] && strlen(s[i]) + 1 > w)
            w = strlen(s[i]) + 1;
    char *buf = calloc((size_t)(n > 0 ? n : 1), w);
    if (!buf)
        return -1;
    for (int i = 0; i < n; i++)
        if (s[i])
            memcpy(buf + (size_t)i * w, s[i], strlen(s[i]));
    hsize_t dim = (hsize_t)n;
    hid_t t = str_type(w), sp = H5Screate_simple(1, &dim, NULL);
    int rc;
    if (as_attr) {
        hid_t a = H5Acreate2(loc, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
        rc = a < 0 || H5Awrite(a, t, buf) < 0 ? -1 : 0;
        if (a >= 0)
            H5Aclose(a);
    } else {
        hid_t d = H5Dcreate2(loc, name, t, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        rc = d < 0 || (n > 0 && H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0) ? -1 : 0;
        if (d >= 0)
            H5Dclose(d);
    }
    H5Sclose(sp);
    H5Tclose(t);
    free(buf);
    return rc;
}

/* Writes n records of a compound type as a dataset; 0 or -1. */
static int records(hid_t loc, const char *name, hid_t type, const void *rec, int n)
{
    hsize_t dim = (hsize_t)n;
    hid_t sp = H5Screate_simple(1, &dim, NULL);
    hid_t d = H5Dcreate2(loc, name, type, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = d < 0 || (n > 0 && H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, rec) < 0)
                 ? -1 : 0;
    if (d >= 0)
        H5Dclose(d);
    H5Sclose(sp);
    return rc;
}

/* One member of a stored record: its name in the file, its place in the C
** struct and its type (a double, a 64-bit integer or a variable-length
** string). */
typedef enum { F_DOUBLE, F_LLONG, F_STR } FieldKind;
typedef struct Field {
    const char *name;
    size_t offset;
    FieldKind kind;
} Field;

#define FIELD_COUNT(f) ((int)(sizeof(f) / sizeof((f)[0])))

/* The compound type of a record of `size` bytes with the n members of f, in
** that order: every table of the file is described by such a list, so each
** is written by the same code. */
static hid_t compound_type(size_t size, const Field *f, int n)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, size);
    hid_t v = vstr_type();
    for (int i = 0; i < n; i++) {
        hid_t ft = f[i].kind == F_DOUBLE ? H5T_NATIVE_DOUBLE
                   : f[i].kind == F_LLONG ? H5T_NATIVE_LLONG : v;
        H5Tinsert(t, f[i].name, f[i].offset, ft);
    }
    H5Tclose(v);
    return t;
}

/* Writes nrec records of `size` bytes described by the nf members of f as
** the dataset `name` of loc; 0 or -1. */
static int table_write(hid_t loc, const char *name, size_t size, const Field *f, int nf,
                       const void *rec, int nrec)
{
    hid_t t = compound_type(size, f, nf);
    int rc = records(loc, name, t, rec, nrec);
    H5Tclose(t);
    return rc;
}

/* The members of an event record (the event CSV's columns). */
static const Field event_fields[] = {
    { "t", offsetof(EvRec, t), F_DOUBLE },
    { "kind", offsetof(EvRec, kind), F_STR },
    { "contact", offsetof(EvRec, contact), F_STR },
    { "vrel_before", offsetof(EvRec, vrel_before), F_DOUBLE },
    { "vrel_after", offsetof(EvRec, vrel_after), F_DOUBLE },
    { "impulse", offsetof(EvRec, impulse), F_DOUBLE },
    { "energy_lost", offsetof(EvRec, energy_lost), F_DOUBLE },
    { "count", offsetof(EvRec, count), F_LLONG },
};

/* The compound type of an event record. */
static hid_t event_type(void)
{
    return compound_type(sizeof(EvRec), event_fields, FIELD_COUNT(event_fields));
}

/* An empty, extensible dataset of rank 1 (width 0) or 2 (width columns),
** chunked by block rows. */
static hid_t growing(hid_t loc, const char *name, hid_t type, int width, hsize_t block)
{
    int rank = width > 0 ? 2 : 1;
    hsize_t dims[2] = { 0, (hsize_t)width }, maxd[2] = { H5S_UNLIMITED, (hsize_t)width };
    hsize_t chunk[2] = { block, (hsize_t)width };
    hid_t sp = H5Screate_simple(rank, dims, maxd), pl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(pl, rank, chunk);
    hid_t d = H5Dcreate2(loc, name, type, sp, H5P_DEFAULT, pl, H5P_DEFAULT);
    H5Pclose(pl);
    H5Sclose(sp);
    return d;
}

/* Appends n rows (of width columns, 0 for rank 1) from buf to dataset d,
** whose length is *len; 0 or -1. */
static int append(hid_t d, hid_t mem_type, int width, hsize_t *len, const void *buf, long n)
{
    if (n <= 0)
        return 0;
    int rank = width > 0 ? 2 : 1;
    hsize_t size[2] = { *len + (hsize_t)n, (hsize_t)width };
    hsize_t start[2] = { *len, 0 }, count[2] = { (hsize_t)n, (hsize_t)width };
    if (H5Dset_extent(d, size) < 0) {
        h5_note("extending a dataset failed");
        return -1;
    }
    hid_t fs = H5Dget_space(d), ms = H5Screate_simple(rank, count, NULL);
    int rc = H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
             H5Dwrite(d, mem_type, ms, fs, H5P_DEFAULT, buf) < 0 ? -1 : 0;
    if (rc)
        h5_note("writing a dataset failed");
    H5Sclose(ms);
    H5Sclose(fs);
    if (rc == 0)
        *len += (hsize_t)n;
    return rc;
}

/* Appends the buffered samples, events and section records to their
** datasets.  What this writes is not yet referenced by the file's metadata
** on disk (the metadata cache keeps it until flush, see cache_hold), so a
** run killed here leaves the file as it was at its last flush. */
static int write_buffers(H5Out *h)
{
    if (h->failed)
        return -1;
    if (append(h->traj, H5T_NATIVE_DOUBLE, h->ncol, &h->traj_len, h->rows, h->nrows))
        return h5_fail(h, "writing the trajectory failed");
    h->nrows = 0;
    if (append(h->events, h->evtype, 0, &h->ev_len, h->evs, h->nev))
        return h5_fail(h, "writing the events failed");
    h->nev = 0;
    if (h->sec >= 0 && append(h->sec, H5T_NATIVE_DOUBLE, h->secw, &h->sec_len, h->secrows, h->nsec))
        return h5_fail(h, "writing the section failed");
    h->nsec = 0;
    return 0;
}

/* Writes the buffers and flushes the file to disk, so that it is readable
** up to here if the process is killed. */
static int flush(H5Out *h)
{
    if (write_buffers(h))
        return -1;
    if (H5Fflush(h->file, H5F_SCOPE_LOCAL) < 0)
        return h5_fail(h, "flushing the file failed");
    h->last_flush = now_seconds();
    h->dirty = 0;
    return 0;
}

/* Flushes the file when rows were taken since its last flush and
** FLUSH_EVERY has passed; see h5out.h. */
int h5out_tick(H5Out *h)
{
    if (h->failed)
        return -1;
    if (!h->dirty || now_seconds() - h->last_flush < FLUSH_EVERY)
        return 0;
    return flush(h);
}

/* Writes full buffers to the datasets, and flushes the file when
** FLUSH_EVERY has passed since the last flush (the clock read at each full
** buffer and every FLUSH_CHECK records).  A flush rewrites the file's
** metadata in place (the dataset's extent, its chunk index, the
** superblock's end of file, one write each); a kill between two of them
** can leave the file unreadable, so flushes are kept rare: a fast run fills
** a buffer a thousand times a second, and flushed each one before. */
static int flush_due(H5Out *h)
{
    int full = h->nrows == SAMPLE_BLOCK || h->nev == EVENT_BLOCK || h->nsec == SECTION_BLOCK;
    if (full && write_buffers(h))
        return -1;
    if (!full && ++h->since_check < FLUSH_CHECK)
        return 0;
    h->since_check = 0;
    return now_seconds() - h->last_flush >= FLUSH_EVERY ? flush(h) : 0;
}

#ifndef NSM_VERSION_TEXT
#define NSM_VERSION_TEXT "unknown"
#endif

/* /model/source: the model's text (nsm_model.source's pieces joined), a
** scalar variable-length UTF-8 string dataset (a text of any size: an
** attribute holds at most 64 KiB).  Nothing for a table that does not carry
** its source.  0 or -1. */
static int write_source(hid_t g, const nsm_model *m)
{
    size_t n = 0;
    for (const char *const *p = m->source; p && *p; p++)
        n += strlen(*p);
    if (!m->source)
        return 0;
    char *text = malloc(n + 1), *end = text;
    if (!text)
        return -1;
    for (const char *const *p = m->source; *p; p++)
        end = stpcpy(end, *p);
    *end = '\0';
    hid_t t = vstr_type(), sp = H5Screate(H5S_SCALAR);
    H5Tset_cset(t, H5T_CSET_UTF8);
    hid_t d = H5Dcreate2(g, "source", t, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = d < 0 || H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, &text) < 0 ? -1 : 0;
    if (d >= 0)
        H5Dclose(d);
    H5Sclose(sp);
    H5Tclose(t);
    free(text);
    return rc;
}

/* The members of a parameter record. */
static const Field param_fields[] = {
    { "name", offsetof(ParRec, name), F_STR },
    { "unit", offsetof(ParRec, unit), F_STR },
    { "default", offsetof(ParRec, def), F_DOUBLE },
    { "value", offsetof(ParRec, value), F_DOUBLE },
};

/* /model: the model's description and the parameters of this run; the
** file's root: the versions of nsm and of the HDF5 library that wrote it. */
static int write_model(H5Out *h, const nsm_sim *sim)
{
    const nsm_model *m = h->m;
    unsigned maj = 0, min = 0, rel = 0;
    char hv[48];
    H5get_libversion(&maj, &min, &rel);
    snprintf(hv, sizeof hv, "%u.%u.%u", maj, min, rel);
    if (attr_str(h->file, "nsm_version", NSM_VERSION_TEXT) | attr_str(h->file, "hdf5_version", hv))
        return -1;
    hid_t g = H5Gcreate2(h->file, "model", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0)
        return -1;
    int rc = attr_str(g, "name", m->name) | attr_str(g, "title", m->title) |
             attr_long(g, "abi", m->abi) | attr_str(g, "method", nsm_method_name(m->method)) |
             attr_double(g, "dt", m->dt) | attr_double(g, "every", m->every) |
             attr_double(g, "t_end", m->t_end);
    rc |= str_array(g, "bodies", m->body_names, m->n_bodies, 0) | write_source(g, m);
    const char **names = calloc((size_t)m->n_gaps + 1, sizeof *names);
    const char **laws = calloc((size_t)m->n_gaps + 1, sizeof *laws);
    ParRec *pr = calloc((size_t)m->n_params + 1, sizeof *pr);
    if (!names || !laws || !pr)
        rc = -1;
    for (int j = 0; !rc && j < m->n_gaps; j++) {
        names[j] = m->gaps[j].name;
        laws[j] = nsm_law_name(m->gaps[j].law);
    }
    if (!rc)
        rc |= str_array(g, "contacts", names, m->n_gaps, 0) |
              str_array(g, "laws", laws, m->n_gaps, 0);
    for (int k = 0; !rc && k < m->n_params; k++) {
        pr[k].name = m->params[k].name ? m->params[k].name : "";
        pr[k].unit = m->params[k].unit ? m->params[k].unit : "";
        pr[k].def = m->params[k].value;
        if (nsm_sim_get_param(sim, m->params[k].name, &pr[k].value) != NSM_OK)
            pr[k].value = NAN;
    }
    if (!rc)
        rc |= table_write(g, "parameters", sizeof(ParRec), param_fields, FIELD_COUNT(param_fields),
                          pr, m->n_params);
    free(names);
    free(laws);
    free(pr);
    H5Gclose(g);
    return rc ? -1 : 0;
}

/* /trajectory and /events, empty, with the column names and units. */
static int create_series(H5Out *h)
{
    const nsm_model *m = h->m;
    h->traj = growing(h->file, "trajectory", H5T_IEEE_F64LE, h->ncol, SAMPLE_BLOCK);
    h->evtype = event_type();
    h->events = growing(h->file, "events", h->evtype, 0, EVENT_BLOCK);
    if (h->traj < 0 || h->events < 0)
        return -1;
    const char **cols = calloc((size_t)h->ncol, sizeof *cols);
    const char **units = calloc((size_t)h->ncol, sizeof *units);
    int rc = !cols || !units;
    if (!rc) {
        cols[0] = "t";
        units[0] = "s";
        for (int k = 0; k < m->n_outputs; k++) {
            cols[k + 1] = m->outputs[k].name;
            units[k + 1] = m->outputs[k].unit ? m->outputs[k].unit : "";
        }
        rc = str_array(h->traj, "columns", cols, h->ncol, 1) |
             str_array(h->traj, "units", units, h->ncol, 1);
    }
    free(cols);
    free(units);
    return rc ? -1 : 0;
}

/* Where the file goes: path itself, or a symbolic link's target (the link
** stays).  A folder, a dangling link or something that is not a regular
** file (HDF5 needs a file it can seek in and rename over) is refused.
** 0, or -1 with a message in err. */
/* Keeps the file's metadata in memory until a flush: the metadata cache
** neither evicts nor resizes, so nothing the file's structure refers to on
** disk changes between flushes (a dirty B-tree node or object header
** written on eviction, ahead of the superblock and the headers that refer
** to it, could leave a killed run's file inconsistent).  The cache grows with the run's chunk index, a
** few kilobytes per thousand chunks. */
static void cache_hold(hid_t fapl)
{
    H5AC_cache_config_t c = { .version = H5AC__CURR_CACHE_CONFIG_VERSION };
    if (H5Pget_mdc_config(fapl, &c) < 0)
        return;
    c.evictions_enabled = 0;
    c.incr_mode = H5C_incr__off;
    c.flash_incr_mode = H5C_flash_incr__off;
    c.decr_mode = H5C_decr__off;
    H5Pset_mdc_config(fapl, &c);
}

static int target_resolve(const char *path, char *out, size_t outlen, char *err, size_t errlen)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno != ENOENT) {
            snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
            return -1;
        }
        snprintf(out, outlen, "%s", path);
        return 0;
    }
    if (S_ISLNK(st.st_mode)) {
        char real[PATH_MAX];
        if (!realpath(path, real) || stat(real, &st) != 0) {
            snprintf(err, errlen, "cannot write '%s': a symbolic link to nothing", path);
            return -1;
        }
        snprintf(out, outlen, "%s", real);
    } else {
        snprintf(out, outlen, "%s", path);
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "cannot write '%s': Is a directory", path);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "cannot write '%s': not a regular file (an HDF5 file is written "
                 "beside it and renamed over it)", path);
        return -1;
    }
    return 0;
}

/* The longest file name this writer's temporaries and kept partial files
** start with: room is left for ".PID.partial" and ".partial.prev" within
** NAME_MAX (255), so that a file name the system takes (up to 255 bytes)
** is not refused for its temporary's. */
#define STEM_MAX 220

/* target with its last component cut to STEM_MAX bytes, into out: the
** stem of its temporaries (target itself when its name is short enough). */
static void tmp_stem(const char *target, char *out, size_t len)
{
    const char *slash = strrchr(target, '/');
    size_t dirlen = slash ? (size_t)(slash - target) + 1 : 0;
    size_t base = strlen(target + dirlen);
    snprintf(out, len, "%.*s%.*s", (int)dirlen, target, (int)(base < STEM_MAX ? base : STEM_MAX),
             target + dirlen);
}

/* Whether name is base.PID.partial (of another process than this one
** unless with_self); its PID in *pid. */
static int partial_name(const char *name, const char *base, long *pid, int with_self)
{
    size_t nb = strlen(base);
    if (strncmp(name, base, nb) != 0 || name[nb] != '.')
        return 0;
    char *end;
    errno = 0;
    long p = strtol(name + nb + 1, &end, 10);
    if (errno || end == name + nb + 1 || strcmp(end, ".partial") != 0 || p <= 0 ||
        (p == getpid() && !with_self))
        return 0;
    *pid = p;
    return 1;
}

/* Whether name is base.PID.partial of a process that no longer exists;
** its PID in *pid.  Called before this run makes its own temporary, so one
** bearing this process's id was left by an earlier process of that id (a
** killed run in another PID namespace, or a recycled id): stale too, kept
** rather than truncated by this run's H5Fcreate. */
static int stale_name(const char *name, const char *base, long *pid)
{
    if (!partial_name(name, base, pid, 1))
        return 0;
    return *pid == (long)getpid() || (kill((pid_t)*pid, 0) != 0 && errno == ESRCH);
}

/* The folder of the temporaries' stem into dir (PATH_MAX + 64 bytes); the
** stem's last component returned. */
static const char *stem_dir(const char *stem, char *dir, size_t len)
{
    snprintf(dir, len, "%s", stem);
    char *slash = strrchr(dir, '/');
    const char *base = slash ? stem + (slash - dir) + 1 : stem;
    if (slash)
        slash[slash == dir] = '\0';         /* "/x.h5": the folder is "/" */
    else
        snprintf(dir, len, ".");
    return base;
}

/* The process holding a write lock on the file at path (a writer's
** temporary, locked by h5out_open), or 0. */
static long lock_holder(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return 0;
    struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    long pid = fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK ? (long)fl.l_pid : 0;
    close(fd);
    return pid;
}

/* Whether another running simulator writes the same file: a
** stem.PID.partial of another process that is locked (h5out_open).  Two
** writers would each rename its own file over PATH, the later one winning
** silently, so the second is refused, as a second CSV writer is (flock).
** The PID of the other writer, or 0. */
static long other_writer(const char *stem)
{
    char dir[PATH_MAX + 64], full[2 * PATH_MAX + 64];
    const char *base = stem_dir(stem, dir, sizeof dir);
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *de;
    long pid = 0, found = 0;
    while (!found && (de = readdir(d)) != NULL) {
        if (!partial_name(de->d_name, base, &pid, 0))
            continue;
        snprintf(full, sizeof full, "%s/%s", dir, de->d_name);
        found = lock_holder(full);
    }
    closedir(d);
    return found;
}

/* The process that writes path as HDF5 (its locked temporary beside the
** path's target, other_writer), or 0: a CSV output (--stats, --events) of
** the same name was written, then replaced by that run's rename, silently
** (driver.c refuses it). */
long h5out_writer(const char *path)
{
    char target[PATH_MAX + 64], err[PATH_MAX + 160], stem[PATH_MAX + 64];
    if (target_resolve(path, target, sizeof target, err, sizeof err))
        return 0;
    tmp_stem(target, stem, sizeof stem);
    return other_writer(stem);
}

/* Whether a regular file at path is locked for writing by another process
** (flock, as the simulator's CSV outputs are locked, driver.c): the HDF5
** file renamed over it at the end replaced that run's output silently. */
static int csv_writer(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return 0;
    struct stat st;
    int busy = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
               flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    close(fd);
    return busy;
}

/* Locks the temporary h->tmp for writing (a POSIX record lock, apart from
** the HDF5 library's own flock), so that other_writer finds this run; a
** file system without locks is written unlocked.  The lock goes with
** h->lockfd, closed by release. */
static void lock_tmp(H5Out *h)
{
    h->lockfd = open(h->tmp, O_RDWR | O_CLOEXEC);
    struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    if (h->lockfd >= 0)
        fcntl(h->lockfd, F_SETLK, &fl);
}

/* Whether the file st is one of the nkeep paths in keep (NULL and "-"
** skipped), by device and inode: an output of this run named as a killed
** run's temporary (--stats k.h5.1234.partial) was moved away as one. */
static int stale_kept(const struct stat *st, const char *const *keep, int nkeep)
{
    struct stat o;
    for (int k = 0; k < nkeep; k++)
        if (keep[k] && strcmp(keep[k], "-") && stat(keep[k], &o) == 0 &&
            o.st_dev == st->st_dev && o.st_ino == st->st_ino)
            return 1;
    return 0;
}

/* Partial files PATH.PID.partial that runs killed outright left beside
** PATH (their process is gone; one of a process still running, another
** writer, is left alone): the newest is kept as PATH.partial.prev (the one
** before replaced, and that said), older ones removed, each said on
** stderr, so that what a killed run wrote is neither replaced silently
** nor left to pile up.  This run's other outputs (keep) are not among
** them, whatever their names. */
void h5out_stale(const char *path, const char *prog, const char *const *keep, int nkeep)
{
    char target[PATH_MAX + 64], err[PATH_MAX + 160], dir[PATH_MAX + 64], prev[PATH_MAX + 96];
    char stem[PATH_MAX + 64];
    if (target_resolve(path, target, sizeof target, err, sizeof err))
        return;
    tmp_stem(target, stem, sizeof stem);
    const char *base = stem_dir(stem, dir, sizeof dir);
    DIR *d = opendir(dir);
    if (!d)
        return;
    char best[2 * PATH_MAX + 64] = "";
    time_t best_mtime = 0;
    long best_pid = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        long pid;
        char full[2 * PATH_MAX + 64];
        struct stat st;
        if (!stale_name(de->d_name, base, &pid))
            continue;
        snprintf(full, sizeof full, "%s/%s", dir, de->d_name);
        if (lstat(full, &st) != 0 || !S_ISREG(st.st_mode) || stale_kept(&st, keep, nkeep))
            continue;
        if (best[0] && st.st_mtime < best_mtime) {
            if (unlink(full) == 0)
                fprintf(stderr, "%s: note: removed '%s', left by a run that was killed (process "
                        "%ld), older than another one kept\n", prog, full, pid);
            continue;
        }
        if (best[0] && unlink(best) == 0)
            fprintf(stderr, "%s: note: removed '%s', left by a run that was killed (process "
                    "%ld), older than another one kept\n", prog, best, best_pid);
        snprintf(best, sizeof best, "%s", full);
        best_mtime = st.st_mtime;
        best_pid = pid;
    }
    closedir(d);
    if (!best[0])
        return;
    snprintf(prev, sizeof prev, "%s.partial.prev", stem);
    struct stat st;
    int older = lstat(prev, &st) == 0;    /* kept from a kill before: replaced, and said */
    if (rename(best, prev) == 0)
        fprintf(stderr, "%s: note: '%s' was left by a run that was killed (process %ld): kept "
                "as '%s'%s\n", prog, best, best_pid, prev,
                older ? ", replacing the one kept there from a kill before it" : "");
    else
        fprintf(stderr, "%s: note: '%s' was left by a run that was killed (process %ld) and "
                "could not be renamed (%s): left as it is\n", prog, best, best_pid,
                strerror(errno));
}

/* The folder of the file, held open from before its temporary is made:
** the temporary is renamed over the file (or removed) through it, so that
** a folder moved away mid-run ends with the file in it, as a CSV output
** written through its open file does (renamed by its path, the temporary
** was left unnamed in the moved folder and the run ended with exit 3).
** h->dfd, or -1 (then the paths are used). */
static void dir_hold(H5Out *h)
{
    char dir[PATH_MAX + 64];
    stem_dir(h->tmp, dir, sizeof dir);
    h->dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/* path (h->path or h->tmp) as reached from h->dfd: its last component,
** or path itself when the folder is not held. */
static const char *in_dir(const H5Out *h, const char *path)
{
    const char *slash = strrchr(path, '/');
    return h->dfd >= 0 && slash ? slash + 1 : path;
}

/* Closes what is open in h and frees it; when discard, removes the
** temporary (the file asked for is left as it was).  0, or -1 when closing
** the file failed (the reason in h->msg). */
static int release(H5Out *h, int discard)
{
    int rc = 0;
    if (h->traj >= 0)
        H5Dclose(h->traj);
    if (h->events >= 0)
        H5Dclose(h->events);
    if (h->evtype >= 0)
        H5Tclose(h->evtype);
    if (h->sec >= 0)
        H5Dclose(h->sec);
    if (h->file >= 0 && H5Fclose(h->file) < 0) {
        h5_fail(h, "closing the file failed");
        rc = -1;
    }
    if (discard && h->tmp[0])
        unlinkat(h->dfd >= 0 ? h->dfd : AT_FDCWD, in_dir(h, h->tmp), 0);
    if (h->dfd >= 0)
        close(h->dfd);
    if (h->lockfd >= 0)
        close(h->lockfd);
    free(h->rows);
    free(h->evs);
    free(h->secrows);
    free(h);
    return rc;
}

/* Creates the file; see h5out.h. */
H5Out *h5out_open(const char *path, const nsm_model *m, const nsm_sim *sim, char *err,
                  size_t errlen)
{
    /* no library cleanup at exit: after a failed write (a full disk) the
     * file cannot be closed, and HDF5 1.10's exit handler then crashes on
     * it; every file is closed here, so the handler has nothing to do */
    H5dont_atexit();
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    H5Out *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, errlen, "cannot write '%s': out of memory", path);
        return NULL;
    }
    h->m = m;
    h->ncol = 1 + m->n_outputs;
    h->file = h->traj = h->events = h->evtype = h->sec = h->lockfd = h->dfd = -1;
    h->t_out = -INFINITY;
    if (target_resolve(path, h->path, sizeof h->path, err, errlen)) {
        free(h);
        return NULL;
    }
    h->rows = malloc(sizeof(double) * (size_t)h->ncol * SAMPLE_BLOCK);
    h->evs = malloc(sizeof(EvRec) * EVENT_BLOCK);
    if (!h->rows || !h->evs) {
        snprintf(err, errlen, "cannot write '%s': out of memory", path);
        release(h, 0);
        return NULL;
    }
    char stem[sizeof h->path];
    tmp_stem(h->path, stem, sizeof stem);
    snprintf(h->tmp, sizeof h->tmp, "%s.%ld.partial", stem, (long)getpid());
    dir_hold(h);
    /* h5out_stale has moved a killed run's file of this name away: what is
    ** still there (a symbolic link, a folder, a file that could not be
    ** kept) would be written through or truncated by H5Fcreate, so the
    ** run is refused (a link planted there had its target replaced) */
    struct stat st;
    if (lstat(h->tmp, &st) == 0) {
        snprintf(err, errlen, "cannot write '%s': '%s' is in the way (%s, not this run's); "
                 "remove it", path, h->tmp, S_ISLNK(st.st_mode) ? "a symbolic link"
                 : S_ISDIR(st.st_mode) ? "a folder" : S_ISREG(st.st_mode) ? "a file"
                 : "a FIFO, a socket or a device");
        h->tmp[0] = '\0';
        release(h, 0);
        return NULL;
    }
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    /* 1.8's format: attributes larger than 64 KiB (the column names of big models) */
    H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_LATEST);
    H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG);
    cache_hold(fapl);
    h->file = H5Fcreate(h->tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    char why[600];
    if (h->file < 0)
        h5_reason("creating it failed", why, sizeof why);
    H5Pclose(fapl);
    if (h->file < 0) {
        snprintf(err, errlen, "cannot write '%s': %s", path, why);
        release(h, 1);
        return NULL;
    }
    lock_tmp(h);
    long other = other_writer(stem);    /* looked for once ours exists: of two at once, */
    if (other) {                        /* each sees the other's and neither goes on */
        snprintf(err, errlen, "cannot write '%s': it is in use by another running program "
                 "(process %ld writes it; the later of two writers would replace the other's "
                 "file); wait for it or choose another file", path, other);
        release(h, 1);
        return NULL;
    }
    if (csv_writer(h->path)) {
        snprintf(err, errlen, "cannot write '%s': it is in use by another running program "
                 "(another simulator writes it as a CSV output; this run's file would "
                 "replace it); wait for it or choose another file", path);
        release(h, 1);
        return NULL;
    }
    if (write_model(h, sim) || create_series(h) || flush(h)) {
        if (!h->failed)
            h5_fail(h, "creating the datasets failed");
        snprintf(err, errlen, "%s", h->msg);
        release(h, 1);
        return NULL;
    }
    return h;
}

/* Buffers one sample; see h5out.h. */
int h5out_sample(H5Out *h, const nsm_sim *sim, double t)
{
    if (h->failed)
        return -1;
    if (flush_due(h))
        return -1;
    h->dirty = 1;
    double *row = h->rows + (size_t)h->nrows * (size_t)h->ncol;
    row[0] = t;
    for (int k = 0; k < h->m->n_outputs; k++)
        row[k + 1] = nsm_sim_output(sim, k);
    h->nrows++;
    h->t_out = fmax(h->t_out, t);
    return 0;
}

/* The columns and units of /section, as the section CSV's header: t,
** phase, each body's position, then each body's velocity. */
static int section_names(hid_t d, const nsm_model *m, int w)
{
    const char **cols = calloc((size_t)w, sizeof *cols);
    const char **units = calloc((size_t)w, sizeof *units);
    char **names = calloc((size_t)w, sizeof *names);    /* each whole: coords_name */
    int rc = !cols || !units || !names;
    for (int q = 0; !rc && q < w; q++) {
        if (q < 2) {
            cols[q] = q ? "phase" : "t";
            units[q] = q == 0 ? "s" : "";
        } else if (!(cols[q] = names[q] = coords_name(m, q - 2, &units[q]))) {
            rc = 1;
        }
    }
    if (!rc)
        rc = str_array(d, "columns", cols, w, 1) | str_array(d, "units", units, w, 1);
    for (int q = 0; names && q < w; q++)
        free(names[q]);
    free(names);
    free(cols);
    free(units);
    return rc;
}

/* Creates /section; see h5out.h. */
int h5out_section_start(H5Out *h, const char *spec)
{
    if (h->failed)
        return -1;
    h->secw = 2 + 2 * h->m->n_bodies;
    if (!(h->secrows = malloc(sizeof(double) * (size_t)h->secw * SECTION_BLOCK)))
        return h5_fail(h, "out of memory for the section");
    h->sec = growing(h->file, "section", H5T_IEEE_F64LE, h->secw, SECTION_BLOCK);
    if (h->sec < 0 || section_names(h->sec, h->m, h->secw) || attr_str(h->sec, "spec", spec))
        return h5_fail(h, "creating the section failed");
    return 0;
}

/* Buffers one section record; see h5out.h. */
int h5out_section(H5Out *h, const nsm_section_record *r)
{
    if (h->failed || h->sec < 0)
        return -1;
    if (flush_due(h))
        return -1;
    h->dirty = 1;
    double *row = h->secrows + (size_t)h->nsec * (size_t)h->secw;
    row[0] = r->t;
    row[1] = r->phase;
    memcpy(row + 2, r->y, sizeof(double) * (size_t)(h->secw - 2));
    h->nsec++;
    h->t_out = fmax(h->t_out, r->t);
    return 0;
}

/* Buffers one event; see h5out.h. */
int h5out_event(H5Out *h, const nsm_event *ev)
{
    if (h->failed)
        return -1;
    if (flush_due(h))
        return -1;
    h->dirty = 1;
    EvRec *r = &h->evs[h->nev++];
    memset(r, 0, sizeof *r);
    r->t = ev->t;
    r->kind = nsm_event_kind_name(ev->kind);
    if (!r->kind)
        r->kind = "";
    if (ev->kind == NSM_EV_TIME) {
        snprintf(r->sw, sizeof r->sw, "switch%d", ev->contact);
        r->contact = r->sw;
    } else {
        r->contact = nsm_event_contact_name(h->m, ev);
        if (!r->contact)
            r->contact = "-";
    }
    r->vrel_before = ev->vrel_before;
    r->vrel_after = ev->vrel_after;
    r->impulse = ev->impulse;
    r->energy_lost = ev->energy_lost;
    r->count = ev->count;
    return 0;
}

/* The members of a contact's statistics record. */
static const Field stat_fields[] = {
    { "contact", offsetof(StatRec, name), F_STR },
    { "law", offsetof(StatRec, law), F_STR },
    { "impacts", offsetof(StatRec, impacts), F_LLONG },
    { "zeno", offsetof(StatRec, zeno), F_LLONG },
    { "phases", offsetof(StatRec, phases), F_LLONG },
    { "contact_time", offsetof(StatRec, contact_time), F_DOUBLE },
    { "impulse", offsetof(StatRec, impulse), F_DOUBLE },
    { "peak_force", offsetof(StatRec, peak_force), F_DOUBLE },
    { "max_speed", offsetof(StatRec, max_speed), F_DOUBLE },
    { "energy_lost", offsetof(StatRec, energy_lost), F_DOUBLE },
    { "damper_energy", offsetof(StatRec, damper_energy), F_DOUBLE },
    { "aster_force", offsetof(StatRec, aster_force), F_DOUBLE },
};

/* /run/contacts: the statistics of every gap. */
static int write_contacts(hid_t g, const nsm_model *m, const nsm_sim *sim)
{
    StatRec *st = calloc((size_t)m->n_gaps + 1, sizeof *st);
    if (!st)
        return -1;
    for (int j = 0; j < m->n_gaps; j++) {
        nsm_contact_stats cs;
        nsm_sim_contact_stats(sim, j, &cs);
        st[j].name = m->gaps[j].name ? m->gaps[j].name : "";
        st[j].law = nsm_law_name(m->gaps[j].law);
        st[j].impacts = cs.impacts;
        st[j].zeno = cs.zeno;
        st[j].phases = cs.phases;
        st[j].contact_time = cs.contact_time;
        st[j].impulse = cs.impulse;
        st[j].peak_force = cs.peak_force;
        st[j].max_speed = cs.max_speed;
        st[j].energy_lost = cs.energy_lost;
        st[j].damper_energy = cs.damper_energy;
        st[j].aster_force = cs.aster_force;
    }
    int rc = table_write(g, "contacts", sizeof(StatRec), stat_fields, FIELD_COUNT(stat_fields),
                         st, m->n_gaps);
    free(st);
    return rc;
}

/* One planar friction element's statistics as stored (nsm_friction_stats). */
typedef struct FricRec {
    const char *name;
    double dissipated, surface_work, stick_time;
    long long sticks, slips, reversals, state;
} FricRec;

/* The members of a friction element's statistics record. */
static const Field fric_fields[] = {
    { "friction", offsetof(FricRec, name), F_STR },
    { "dissipated", offsetof(FricRec, dissipated), F_DOUBLE },
    { "surface_work", offsetof(FricRec, surface_work), F_DOUBLE },
    { "stick_time", offsetof(FricRec, stick_time), F_DOUBLE },
    { "sticks", offsetof(FricRec, sticks), F_LLONG },
    { "slips", offsetof(FricRec, slips), F_LLONG },
    { "reversals", offsetof(FricRec, reversals), F_LLONG },
    { "state", offsetof(FricRec, state), F_LLONG },
};

/* /run/frictions: the statistics of every Coulomb friction element of a
 * line or a planar body, as the summary's friction table gives them (NaN,
 * counts -1 and state -2 when the run kept none). */
static int write_frictions(hid_t g, const nsm_model *m, const nsm_sim *sim)
{
    FricRec *st = calloc((size_t)m->n_frictions + 1, sizeof *st);
    if (!st)
        return -1;
    for (int k = 0; k < m->n_frictions; k++) {
        nsm_friction_stats fs = { NAN, NAN, NAN, -1, -1, -1, 0 };
        if (nsm_sim_friction_stats(sim, k, &fs) != NSM_OK)
            fs.state = -2;   /* no statistics kept: every field says so */
        st[k] = (FricRec){ m->frictions[k].name ? m->frictions[k].name : "", fs.dissipated,
                           fs.surface_work, fs.stick_time, fs.sticks, fs.slips, fs.reversals,
                           fs.state };
    }
    int rc = table_write(g, "frictions", sizeof(FricRec), fric_fields, FIELD_COUNT(fric_fields),
                         st, m->n_frictions);
    free(st);
    return rc;
}

/* One spatial friction element's dissipation as stored. */
typedef struct SpaceFricRec {
    const char *name;
    double dissipated;
} SpaceFricRec;

/* The members of a spatial friction element's record. */
static const Field space_fric_fields[] = {
    { "friction", offsetof(SpaceFricRec, name), F_STR },
    { "dissipated", offsetof(SpaceFricRec, dissipated), F_DOUBLE },
};

/* /run/space_frictions: the energy each spatial friction element (a sphere
 * of a body in space on a plane) dissipated while it slid; NaN when the
 * run kept no audit. */
static int write_space_frictions(hid_t g, const nsm_model *m, const nsm_sim *sim)
{
    SpaceFricRec *st = calloc((size_t)m->n_space_frictions + 1, sizeof *st);
    if (!st)
        return -1;
    for (int k = 0; k < m->n_space_frictions; k++) {
        const char *nm = m->space_frictions[k].name;
        st[k].name = nm ? nm : "";
        if (nsm_sim_space_friction_dissipated(sim, k, &st[k].dissipated) != NSM_OK)
            st[k].dissipated = NAN;
    }
    int rc = table_write(g, "space_frictions", sizeof(SpaceFricRec), space_fric_fields,
                         FIELD_COUNT(space_fric_fields), st, m->n_space_frictions);
    free(st);
    return rc;
}

/* /run: how the run went, its audit and contact statistics.  t_reached is
 * the simulation's time, or the latest row's when the run was stopped
 * inside a step whose samples were taken (exact's samples are states of
 * the step's expansion, the state put back to the step's start): it was
 * below the last sample's time. */
static int write_run(H5Out *h, const nsm_sim *sim, int status, double t_end)
{
    hid_t g = H5Gcreate2(h->file, "run", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0)
        return -1;
    nsm_audit a;
    nsm_sim_audit(sim, &a);
    int rc = attr_double(g, "t_end", t_end) | attr_double(g, "t_reached", fmax(nsm_sim_time(sim), h->t_out)) |
             attr_str(g, "method", nsm_method_name(nsm_sim_get_method(sim))) |
             attr_long(g, "steps", nsm_sim_steps(sim)) |
             attr_long(g, "events", nsm_sim_events(sim)) | attr_long(g, "status", status) |
             attr_str(g, "message", status ? nsm_sim_message(sim) : "");
    hid_t ag = H5Gcreate2(g, "audit", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (ag < 0)
        rc = -1;
    else {
        const struct { const char *n; double v; } f[] = {
            { "kinetic", a.kinetic }, { "potential", a.potential }, { "springs", a.springs },
            { "gravity", a.gravity }, { "contacts", a.contacts }, { "injected", a.injected },
            { "dissipated", a.dissipated }, { "lost", a.lost }, { "e0", a.e0 },
            { "error", a.error }, { "error_max", a.error_max }, { "energy_max", a.energy_max },
            { "aster_energy", a.aster_energy }, { "aster_force", a.aster_force },
            { "dissipated_other", a.dissipated_other }, { "injected_other", a.injected_other },
        };
        for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
            rc |= attr_double(ag, f[i].n, f[i].v);
        rc |= attr_long(ag, "steps", a.steps);
        H5Gclose(ag);
    }
    rc |= write_contacts(g, h->m, sim);
    rc |= write_frictions(g, h->m, sim);
    rc |= write_space_frictions(g, h->m, sim);
    H5Gclose(g);
    return rc ? -1 : 0;
}

/* Finishes the file; see h5out.h. */
int h5out_close(H5Out *h, const nsm_sim *sim, int status, double t_end, char *err,
                size_t errlen)
{
    flush(h);
    if (!h->failed && write_run(h, sim, status, t_end))
        h5_fail(h, "writing the run's summary failed");
    /* the datasets first: the file closes only when nothing in it is open */
    if (h->traj >= 0)
        H5Dclose(h->traj);
    if (h->events >= 0)
        H5Dclose(h->events);
    if (h->sec >= 0)
        H5Dclose(h->sec);
    h->traj = h->events = h->sec = -1;
    if (!h->failed && h->file >= 0 && H5Fclose(h->file) < 0)
        h5_fail(h, "closing the file failed");
    else if (h->failed && h->file >= 0)
        H5Fclose(h->file);
    h->file = -1;
    int at = h->dfd >= 0 ? h->dfd : AT_FDCWD;
    if (!h->failed && renameat(at, in_dir(h, h->tmp), at, in_dir(h, h->path)) != 0) {
        snprintf(h->msg, sizeof h->msg, "cannot write '%s': renaming %s over it: %s", h->path,
                 h->tmp, strerror(errno));
        h->failed = 1;
    }
    int failed = h->failed;
    if (failed)
        snprintf(err, errlen, "%s; '%s' was left as it was", h->msg, h->path);
    release(h, failed);
    return failed ? -1 : 0;
}

/* Gives up a file that was opened but must not be written (another output
** of the run could not be opened): the temporary removed, the file asked
** for left as it was. */
void h5out_abandon(H5Out *h)
{
    char err[64];
    if (!h)
        return;
    if (!h->failed)
        snprintf(h->msg, sizeof h->msg, "abandoned");
    h->failed = 1;
    h5out_close(h, NULL, 0, 0, err, sizeof err);
}
