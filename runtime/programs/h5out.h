/*
 * h5out.h - the simulator's HDF5 output (--out FILE.h5), for large runs.
 *
 * One file holds the whole run, in full double precision, readable by h5py:
 *
 *   /                      attributes nsm_version, hdf5_version (what wrote it)
 *   /trajectory            float64 [samples, 1 + outputs]: t, then the output
 *                          columns; attributes columns, units (string arrays)
 *   /events                compound [events]: t, kind, contact, vrel_before,
 *                          vrel_after, impulse, energy_lost, count (as the CSV)
 *   /model                 attributes name, title, abi, method, dt, every,
 *                          t_end (the model's defaults)
 *   /model/parameters      compound [params]: name, unit, default, value (the
 *                          value this run used)
 *   /model/bodies, /model/contacts, /model/laws   string arrays
 *   /model/source          string: the model's .nsm text (from the table's
 *                          source; absent for a table without it)
 *   /section               float64 [records, 2 + 2n] with --section: t, phase,
 *                          the state (as the section CSV); attributes
 *                          columns, units, spec
 *   /run                   attributes t_end, t_reached, method, dt, every,
 *                          steps, events, status (0, or the runtime's NSM_E*
 *                          code), message (the runtime's failure text, "" if
 *                          none); /run/audit: the energy audit as attributes;
 *                          /run/contacts: compound [gaps] of the contact
 *                          statistics (docs/energy.md)
 *
 * Samples and events are buffered and appended in chunks, the file flushed
 * every quarter second, its metadata held in memory in between (a run killed
 * outright leaves FILE.h5.PID.partial, readable up to its last flush).  Names are
 * variable-length strings.  Part of
 * libnsmcli; compiled only when HDF5 is found (NSM_HAVE_HDF5), else the
 * functions below are stubs that refuse with a message.  Never prints.
 */
#ifndef NSM_H5OUT_H
#define NSM_H5OUT_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "nsm/nsm.h"

typedef struct H5Out H5Out;

/* Whether path names an HDF5 file (.h5 or .hdf5, in any case: x.H5 too,
 * and a file named .h5 alone, which was written as CSV): --out picks the
 * format by it. */
static inline int h5out_is_h5(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    return (n >= 3 && strcasecmp(path + n - 3, ".h5") == 0) ||
           (n >= 5 && strcasecmp(path + n - 5, ".hdf5") == 0);
}

#ifdef NSM_HAVE_HDF5
/* Starts the file for path with the model's description, written as
 * path.PID.partial beside it (path, or a symbolic link's target, is left
 * alone until h5out_close renames the finished file over it); the run's
 * parameter values are read from sim; the temporary is locked, and a path
 * another running simulator writes (its temporary locked) is refused.
 * NULL with a message (and the library's or the system's reason) in err. */
H5Out *h5out_open(const char *path, const nsm_model *m, const nsm_sim *sim, char *err,
                  size_t errlen);
/* The process id of another running simulator writing path as HDF5 (its
 * locked temporary), or 0. */
long h5out_writer(const char *path);
/* Partial files that killed runs left beside path (path.PID.partial of a
 * process that is gone): the newest kept as path.partial.prev, older ones
 * removed, each said on stderr as "PROG: note: ...".  A file that is one
 * of the nkeep paths in keep (this run's other outputs; NULL entries and
 * "-" skipped) is left alone. */
void h5out_stale(const char *path, const char *prog, const char *const *keep, int nkeep);
/* Appends the sample at time t (the output columns at sim's state).  0, or
 * -1 after a write error (the message is kept for h5out_close). */
int h5out_sample(H5Out *h, const nsm_sim *sim, double t);
/* Appends one event.  0 or -1, as h5out_sample. */
int h5out_event(H5Out *h, const nsm_event *ev);
/* Creates /section for a run with a Poincare section (--section spec): its
** records will go there.  0, or -1 (the message kept for h5out_close). */
int h5out_section_start(H5Out *h, const char *spec);
/* Appends one section record (after h5out_section_start).  0 or -1, as
** h5out_sample. */
int h5out_section(H5Out *h, const nsm_section_record *r);
/* Flushes the file (buffers and metadata) when rows were taken since its
** last flush and a quarter second has passed: the driver's flusher calls
** it between the run's callbacks, which may stop coming for minutes (a
** sampling period as long as the run).  0, or -1 as h5out_sample. */
int h5out_tick(H5Out *h);
/* Writes what is buffered and the run's summary (status: nsm_sim_run_until's
 * result; t_end: the time asked for), closes, renames the file into place
 * and frees.  0, or -1 with a message and its reason in err: the temporary
 * is then removed and the file asked for left as it was. */
int h5out_close(H5Out *h, const nsm_sim *sim, int status, double t_end, char *err,
                size_t errlen);
/* Closes a file that must not be written after all (another output could
 * not be opened): the temporary removed, the file asked for left alone. */
void h5out_abandon(H5Out *h);
#else
static inline H5Out *h5out_open(const char *path, const nsm_model *m, const nsm_sim *sim,
                                char *err, size_t errlen)
{
    (void)m, (void)sim;
    snprintf(err, errlen, "cannot write '%s': this program was built without HDF5 "
             "(install libhdf5-dev and rebuild), use a .csv file", path);
    return NULL;
}
static inline long h5out_writer(const char *path)
{
    (void)path;
    return 0;
}
static inline void h5out_stale(const char *path, const char *prog, const char *const *keep,
                               int nkeep)
{
    (void)path, (void)prog, (void)keep, (void)nkeep;
}
static inline int h5out_sample(H5Out *h, const nsm_sim *sim, double t)
{
    (void)h, (void)sim, (void)t;
    return -1;
}
static inline int h5out_event(H5Out *h, const nsm_event *ev)
{
    (void)h, (void)ev;
    return -1;
}
static inline int h5out_section_start(H5Out *h, const char *spec)
{
    (void)h, (void)spec;
    return -1;
}
static inline int h5out_section(H5Out *h, const nsm_section_record *r)
{
    (void)h, (void)r;
    return -1;
}
static inline int h5out_tick(H5Out *h)
{
    (void)h;
    return 0;
}
static inline int h5out_close(H5Out *h, const nsm_sim *sim, int status, double t_end,
                              char *err, size_t errlen)
{
    (void)h, (void)sim, (void)status, (void)t_end, (void)err, (void)errlen;
    return 0;
}
static inline void h5out_abandon(H5Out *h)
{
    (void)h;
}
#endif

#endif
