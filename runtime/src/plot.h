/*
 * plot.h - plots of a simulation's trajectory and events with gnuplot.
 *
 * nsm_plot reads the header of a trajectory CSV written by the simulator
 * (`t [s],M1.x [m],...`) and its event CSV, writes a gnuplot script
 * DIR/plot.gp and runs gnuplot on it in DIR.  The time plot stacks one panel
 * per kind of output (positions, velocities, contact forces, gaps, energy ...)
 * over a shared time axis; intervals where a contact is closed (stick ..
 * separation, contact_enter .. contact_exit, a Zeno accumulation ..
 * separation) are shaded, impacts are marked by vertical lines.  Files:
 *
 *     DIR/plot.gp                       the script (rerun with `gnuplot plot.gp` in DIR)
 *     DIR/plot.png, DIR/plot.svg        time histories     (NSM_PLOT_PNG, NSM_PLOT_SVG)
 *     DIR/phase.png, DIR/phase.svg      phase portraits v(x) of every body with both
 *                                       columns            (NSM_PLOT_PHASE)
 *
 * Internal to libnsmrt: called by `nsmc run` and by the simulator's driver.
 * Never prints: gnuplot's own messages go to DIR/plot.log.
 */
#ifndef NSM_PLOT_H
#define NSM_PLOT_H

#include <stddef.h>

/* Flags of nsm_plot (0 means NSM_PLOT_PNG | NSM_PLOT_SVG). */
#define NSM_PLOT_PNG    1
#define NSM_PLOT_SVG    2
#define NSM_PLOT_PHASE  4

/* Results of nsm_plot.  Only NSM_PLOT_EFAIL is an error of the run; the
 * others say why there is no plot (err holds a sentence to show the user). */
#define NSM_PLOT_OK          0
#define NSM_PLOT_NOTHING     1   /* no plottable column, or no sample */
#define NSM_PLOT_NOGNUPLOT   2   /* gnuplot is not installed */
#define NSM_PLOT_EFAIL       3   /* cannot read or write a file, or gnuplot failed */

/* Plots traj_csv (and events_csv, which may be NULL or missing) into dir,
 * with title as the heading (may be NULL).  Returns one of NSM_PLOT_*. */
int nsm_plot(const char *dir, const char *traj_csv, const char *events_csv, const char *title,
             int flags, char *err, size_t errlen);

#endif
