/*
 * plot.h - plots of a simulation's trajectory and events with gnuplot.
 *
 * plot_draw reads the header of a trajectory CSV written by the simulator
 * (`t [s],M1.x [m],P[1].x [m],...`) and its event CSV, writes a gnuplot
 * script DIR/plot.gp and runs gnuplot on it in DIR.  The time plot stacks one
 * panel per kind of output and unit (positions, velocities, contact forces,
 * gaps, energy ...) over a shared time axis, at most PLOT_MAX_PANELS; a
 * family of many columns (P[1].x .. P[20].x) shares its panel, coloured in
 * order.  With few contacts and impacts, intervals where a contact is closed
 * (stick .. separation, contact_enter .. contact_exit, a Zeno accumulation ..
 * separation) are shaded and impacts marked by dashed lines; with more, a
 * timeline panel gives each contact its own row (a friction element's: a
 * bar while stuck, points where it sticks or slips; stuck by a frictional
 * impact only while the contact struck then stays closed).  Every column is drawn, or
 * the script's column map and the note say why not; marks too close to be
 * told apart are merged, with a note.  Files:
 *
 *     DIR/plot.gp                       the script (rerun with `gnuplot plot.gp` in DIR)
 *     DIR/plot.png, DIR/plot.svg        time histories     (PLOT_PNG, PLOT_SVG)
 *     DIR/phase.png, DIR/phase.svg      phase portraits v(x) of every body with both
 *                                       columns            (PLOT_PHASE)
 *     DIR/path.png, DIR/path.svg        for planar bodies (columns D.x and D.y in m):
 *                                       each body's path, y against x at true scale,
 *                                       with the walls given to plot_draw_walls
 *
 * A moving surface (plot_draw_scene) is drawn dashed in its body's position
 * panel, from the body's position and the gap's columns.
 *
 * Part of libnsmcli (the programs' library): called by `nsmc run` and by
 * the simulator's driver.  Never prints: gnuplot's own messages go to
 * DIR/plot.log.
 */
#ifndef NSM_PLOT_H
#define NSM_PLOT_H

#include <signal.h>
#include <stddef.h>

/* Panels of the time plot, besides the contacts' timeline. */
#define PLOT_MAX_PANELS 8

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
#define PLOT_ESTOP       4   /* a stop signal came while gnuplot drew (plot_stop_watch) */

/* The program's stop flag (set by its SIGINT/SIGTERM/SIGHUP handler), which
 * plot_gnuplot watches while gnuplot draws: when it is set, gnuplot is
 * killed and PLOT_ESTOP returned at once, its figures not drawn (a stop
 * request was taken only once every figure was done).  NULL: none. */
void plot_stop_watch(volatile sig_atomic_t *flag);

/* Kills (SIGKILL) the gnuplot child that plot_gnuplot waits for, if any:
 * async-signal-safe, for a stop handler that ends the program at once (a
 * gnuplot left running drew into the figures' temporaries after the
 * program had removed them). */
void plot_child_kill(void);

/* Plots traj_csv (and events_csv, which may be NULL or missing) into dir,
 * with title as the heading (may be NULL).  Returns one of PLOT_*; with
 * PLOT_OK, err holds a note to show the user ("" if none): which columns
 * were left out and why, which marks were merged. */
int plot_draw(const char *dir, const char *traj_csv, const char *events_csv, const char *title,
             int flags, char *err, size_t errlen);

/* A flat wall of a planar model, for the path picture: the line
 * nx x + ny y = c, against body `body` of radius r.  The names are the
 * caller's (the model's), whole, and must outlive the plot. */
typedef struct PlotWall {
    const char *name, *body;
    double nx, ny, c, r;
} PlotWall;

/* plot_draw, with the walls drawn in the path picture (walls may be NULL
 * when nwalls is 0). */
int plot_draw_walls(const char *dir, const char *traj_csv, const char *events_csv,
                    const char *title, int flags, const PlotWall *walls, int nwalls, char *err,
                    size_t errlen);

/* A moving surface of a gap of one body on the line (`gap floor: B.x >=
 * amp*sin(omega*t)`), the gap being coef B.x + d + h(t): drawn in B's
 * position panel as B.x - floor.gap / coef, where B would touch it, when
 * the trajectory has both columns (else the note says so). */
typedef struct PlotSurface {
    const char *gap, *body;     /* the model's names, whole */
    double coef;
} PlotSurface;

/* A friction element of the model, by the name its events carry: a
 * spatial one (a sphere of a body in space on a plane) whose slip is zero
 * rolls on the plane (or rests), a planar one is stuck. */
typedef struct PlotFriction {
    const char *name;           /* the model's name, whole */
    int space;
} PlotFriction;

/* What to draw besides the trajectory's columns (any list may be empty). */
typedef struct PlotScene {
    const PlotWall *walls;
    int nwalls;
    const PlotSurface *surfaces;
    int nsurfaces;
    const PlotFriction *frictions;   /* the legend names their bands for what they are */
    int nfrictions;
} PlotScene;

/* plot_draw with the walls of a planar model and the moving surfaces. */
int plot_draw_scene(const char *dir, const char *traj_csv, const char *events_csv,
                    const char *title, int flags, const PlotScene *scene, char *err,
                    size_t errlen);

/* Runs `gnuplot [-e SETUP] SCRIPT` in dir (setup may be NULL), its output
 * going to dir/LOG.  PLOT_OK, PLOT_ESTOP when stopped (plot_stop_watch), or
 * PLOT_EFAIL with the reason (gnuplot's last line of output) in err.  Shared with the animations (animate.h). */
int plot_gnuplot(const char *dir, const char *script, const char *setup, const char *log,
                 char *err, size_t errlen);

/* How name in dir is reached: when dir is the folder plot_gnuplot last
 * drew in, the handle it holds open on it and name itself in *rel (a
 * folder moved away while gnuplot drew is still reached); else AT_FDCWD
 * and dir/name, written into buf, in *rel.  The first argument of openat,
 * renameat, unlinkat. */
int plot_at(const char *dir, const char *name, char *buf, size_t len, const char **rel);

/* Checks that the figures names[0..n) (PNG, SVG, GIF) that gnuplot drew in
 * dir end as their formats end: gnuplot leaves a file cut short by a full
 * disk or a file-size limit and still exits 0.  The first name must be
 * there (PLOT_EFAIL when gnuplot ended well without drawing it); the
 * others not there are skipped.  PLOT_OK, or PLOT_EFAIL with the file and the likely reason in
 * err, every one of the named files then removed. */
int plot_figures_check(const char *dir, const char *const *names, int n, char *err,
                       size_t errlen);

/* Renames the figures tmp[0..n) that gnuplot drew in dir over fin[0..n)
 * when ok (a name not drawn is skipped), else removes them: figures are
 * drawn into temporaries so that a failure or a kill while gnuplot draws
 * leaves the earlier figure or none, never a half one.  PLOT_OK, or
 * PLOT_EFAIL with the reason in err (the temporaries not yet renamed then
 * removed).  Temporaries of these figures left by processes that have
 * ended (killed while gnuplot drew) are removed first. */
int plot_figures_place(const char *dir, const char *const *tmp, const char *const *fin, int n,
                       int ok, char *err, size_t errlen);

/* Removes the temporaries NAME.tmpPID of the files fin[0..n) in dir
 * whose process has ended (a kill while they were written), those of live
 * processes left alone: figures, and the results a sweep or a
 * continuation writes through temporaries. */
void plot_stale_clear(const char *dir, const char *const *fin, int n);
/* Likewise the temporaries PREFIXpidSUFFIX in dir (the animation's
 * ".anim-PID.gif"): a SIGKILL while gnuplot drew the animation left its
 * temporary for ever. */
void plot_stale_clear_pattern(const char *dir, const char *prefix, const char *suffix);

/* Without gnuplot: removes the earlier figures fin[0..n) in dir (the
 * results beside them are new: no figure may be left looking like
 * theirs) and writes the note to show the user into err: the figures were
 * not drawn, the script to draw them, the earlier ones removed.  Returns
 * PLOT_NOGNUPLOT. */
int plot_without_gnuplot(const char *dir, const char *script, const char *const *fin, int n,
                         char *err, size_t errlen);

/* Whether gnuplot is on PATH. */
int plot_have_gnuplot(void);

#endif
