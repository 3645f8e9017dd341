/*
 * plot.h - plots of a simulation's trajectory and events with gnuplot.
 *
 * plot_draw reads the header of a trajectory CSV written by the simulator
 * (`t [s],M1.x [m],...`) and its event CSV, writes a gnuplot script
 * DIR/plot.gp and runs gnuplot on it in DIR.  The time plot stacks one panel
 * per kind of output (positions, velocities, contact forces, gaps, energy ...)
 * over a shared time axis; intervals where a contact is closed (stick ..
 * separation, contact_enter .. contact_exit, a Zeno accumulation ..
 * separation) are shaded, impacts are marked by vertical lines.  Files:
 *
 *     DIR/plot.gp                       the script (rerun with `gnuplot plot.gp` in DIR)
 *     DIR/plot.png, DIR/plot.svg        time histories     (PLOT_PNG, PLOT_SVG)
 *     DIR/phase.png, DIR/phase.svg      phase portraits v(x) of every body with both
 *                                       columns            (PLOT_PHASE)
 *
 * Part of libnsmcli (the programs' library): called by `nsmc run` and by
 * the simulator's driver.
 * Never prints: gnuplot's own messages go to DIR/plot.log.
 */
#ifndef NSM_PLOT_H
#define NSM_PLOT_H

#include <stddef.h>

/* Flags of plot_draw (0 means PLOT_PNG | PLOT_SVG). */
#define PLOT_PNG    1
#define PLOT_SVG    2
#define PLOT_PHASE  4

/* Results of plot_draw.  Only PLOT_EFAIL is an error of the run; the
 * others say why there is no plot (err holds a sentence to show the user). */
#define PLOT_OK          0
#define PLOT_NOTHING     1   /* no plottable column, or no sample */
#define PLOT_NOGNUPLOT   2   /* gnuplot is not installed */
#define PLOT_EFAIL       3   /* cannot read or write a file, or gnuplot failed */

/* Plots traj_csv (and events_csv, which may be NULL or missing) into dir,
 * with title as the heading (may be NULL).  Returns one of NSM_PLOT_*. */
int plot_draw(const char *dir, const char *traj_csv, const char *events_csv, const char *title,
             int flags, char *err, size_t errlen);

#endif
