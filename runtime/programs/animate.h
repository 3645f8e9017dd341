/*
 * animate.h - an animated GIF of a run's bodies, drawn with gnuplot's
 * `gif animate` terminal (libnsmcli, the programs' library).
 *
 * The simulator's driver records frames while the run goes on: at each
 * frame time t_k = t_end k / (N - 1) it keeps the positions of the first
 * sample at or after t_k, which contacts are closed then (the mode's gap
 * bits) and which had an impact since the previous frame (the events), and
 * where the moving surfaces are.  After the run it writes FILE.gp, a gnuplot
 * script of every frame, and runs it into FILE.gif (through a temporary file
 * renamed at the end, so that a failure leaves no half-written GIF):
 *
 *   - line bodies as square blocks on their line, the bodies joined by gaps
 *     (`P[i+1].x - P[i].x >= d`) on one line, placed so that the blocks
 *     touch when the gap closes; a model with gravity on the line draws its
 *     lines upright; a gap of one body (a floor, a stop, a vibrating table)
 *     as a wall that moves with its surface; springs as zigzags, to an
 *     anchor at the edge of the view on the side the model names the ground;
 *   - planar bodies as discs at true scale with a radius marking their
 *     rotation phi, and their walls as lines (a model with planar bodies
 *     draws those only);
 *   - a closed contact, or one that had an impact since the previous frame,
 *     in red.
 *
 * Options (the simulators' and `nsmc run`'s): --animate FILE.gif, --fps F
 * (frames per second of the GIF, default ANIM_FPS, at most ANIM_FPS_MAX),
 * --frames N (default: the run's duration in seconds, clamped to
 * [ANIM_SECONDS_MIN, ANIM_SECONDS_MAX], times the rate; at most
 * ANIM_FRAMES_MAX).
 */
#ifndef NSM_ANIMATE_H
#define NSM_ANIMATE_H

#include <stddef.h>

#include "nsm/nsm.h"
#include "plot.h"

#define ANIM_FPS          20
#define ANIM_FPS_MAX      50
#define ANIM_FRAMES_MAX   2000
#define ANIM_SECONDS_MIN  4
#define ANIM_SECONDS_MAX  12
#define ANIM_MAX_BODIES   500

/* The animation's options as given on the command line. */
typedef struct AnimOptions {
    const char *path;   /* --animate FILE.gif, NULL when not asked */
    double fps;         /* --fps (given & 2), else ANIM_FPS */
    double frames;      /* --frames (given & 4), else from the run's duration */
    int given;          /* bits: 1 any of the three given, 2 --fps, 4 --frames */
} AnimOptions;

typedef struct Anim Anim;

/* Takes one of --animate, --fps, --frames (opt) with its value; returns
 * nonzero when the value is not a number (the caller says so). */
int anim_option(AnimOptions *o, const char *opt, const char *val);

/* Checks the options and sets up the recording for a run of sim (reset,
 * with its parameters) up to t_end.  NULL after a message on stderr
 * (prefixed with prog) when the options are wrong, the file cannot be
 * written or the model has more than ANIM_MAX_BODIES bodies. */
Anim *anim_create(const nsm_model *m, const nsm_sim *sim, const AnimOptions *o, double t_end,
                  const char *prog);

/* From the event handler: remembers impacts for the next frame. */
void anim_event(Anim *a, const nsm_event *ev);

/* From the sample handler: records the frames whose time has come. */
void anim_sample(Anim *a, const nsm_sim *sim, double t);

/* After the run: writes the GIF (unless skip), says on stderr where it is
 * or why there is none, and frees the animation.  Returns nonzero when the
 * GIF could not be written (gnuplot missing is a note, not a failure). */
int anim_write(Anim *a, const char *prog, int skip);

/* The moving surfaces of the model's one-body gaps on the line (a vibrating
 * table), for the time plot's position panel (plot_draw_scene); writes up
 * to max into out and returns how many. */
int anim_surfaces(const nsm_model *m, const nsm_sim *sim, PlotSurface *out, int max);

#endif
