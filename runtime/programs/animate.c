/*
** animate.c: an animated GIF of a run's bodies (see animate.h).
**
** Recording keeps, per distinct sample used as a frame, the positions of
** every body, a byte per gap (bit 0 closed, bit 1 struck since the previous
** frame) and the moving surfaces' offsets; frame k names the sample it
** shows.  Drawing lays the scene out once for all frames (a view that holds
** every frame, at one scale along both axes), then writes one gnuplot
** `plot` per frame from four data blocks: blocks, discs, marks (thin
** segments), highlights (thick segments), and labels.
*/
#define _XOPEN_SOURCE 700   /* open_memstream, strdup */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "animate.h"
#include "outdir.h"
#include "plot.h"
#include "setfile.h"

enum { G_OTHER, G_GROUND, G_PAIR };      /* kinds of gaps for the line scene */

enum {
    PLOT_W = 680,          /* width of the plot area, px */
    PLOT_W_MIN = 440,      /* the narrowest, for a tall scene */
    PLOT_H_MIN = 120, PLOT_H_MAX = 560,
    MARGIN_SIDE = 20, MARGIN_TOP = 44, MARGIN_BOTTOM = 30,
    MAX_LABELS = 12        /* bodies named on the picture when at most this many */
};

#define RED   0xe8000bu    /* a closed or struck contact */
#define WALL  0x666666u
#define MARK  0x222222u
#define SPRING 0x888888u

static const unsigned body_colors[] = {
    0x1f77b4u, 0x2ca02cu, 0x9467bdu, 0xff7f0eu, 0x17becfu, 0x8c564bu, 0xe377c2u, 0xbcbd22u
};
#define NBODY_COLORS (int)(sizeof body_colors / sizeof body_colors[0])

typedef struct GapGeo {
    int kind, a, b;      /* G_GROUND: body a; G_PAIR: a on the low side, b on the high side */
    double c, d;         /* the gap: c x_a + d + h (ground) or c (x_b - x_a) + d + h (pair) */
} GapGeo;

typedef struct WallGeo {
    double nx, ny, c;    /* the line nx x + ny y = c */
    int gap, planar;
} WallGeo;

struct Anim {
    const nsm_model *m;
    char path[4096], dir[4096], base[1024];
    int n, g, nframes, delay, vertical, oom;
    double t_end, fps;
    long nsnap, cap;
    double *snap_t, *snap_x, *snap_h;   /* nsnap, nsnap * n, nsnap * g */
    unsigned char *snap_f;              /* nsnap * g */
    long *frame_snap;                   /* nframes */
    int next;                           /* the next frame to record */
    unsigned char *hit;                 /* g: struck since the last recorded frame */
    GapGeo *gap;
    int *planar_of;                     /* n: the planar body a coordinate belongs to, or -1 */
    double *radius;                     /* n_planar */
    WallGeo *wall;
    int nwall;
    struct stat dir_id;                 /* the GIF's folder at the start (outdir_id_take) */
};

/* The scene's layout: offsets and rows of line bodies, the view, the size. */
typedef struct Layout {
    double w;                 /* a block's side */
    double *off;              /* n: drawn position along the line = x + off */
    int *row, nrows;          /* n: the line a body is drawn on */
    double x0, x1, y0, y1;    /* the view */
    int pw, ph;               /* the plot area, px */
    int labels;
} Layout;

/* Prints an error about the options (prefixed with prog), frees a and
** returns NULL, for anim_create's refusals. */
static Anim *refuse(Anim *a, const char *prog, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: error: ", prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    if (a)
        anim_write(a, prog, 1);
    return NULL;
}

/* The name of the animation's file beside its GIF gif (NAME.gif): NAME.end
** ("gp": its gnuplot script, "log": gnuplot's log), under the folder dir
** when dir is not NULL.  The one place that builds them, for the checks
** before the run and the drawing at its end. */
static void anim_side_name(char *buf, size_t len, const char *dir, const char *gif,
                           const char *end)
{
    int stem = (int)strlen(gif) - 4;
    if (dir)
        snprintf(buf, len, "%s/%.*s.%s", dir, stem, gif, end);
    else
        snprintf(buf, len, "%.*s.%s", stem, gif, end);
}

/* Whether the animation's script and gnuplot's log beside it (NAME.gp,
** NAME.log) can be written (outdir_result_check): a FIFO named as the
** script held the simulator in its open() at the end of the run, deaf to
** SIGTERM.  0, or 1 after a message. */
static int anim_side_check(const Anim *a, const char *prog)
{
    static const char *const ends[] = { "gp", "log" };
    char path[5200];
    for (size_t k = 0; k < sizeof ends / sizeof ends[0]; k++) {
        anim_side_name(path, sizeof path, a->dir, a->base, ends[k]);
        if (outdir_result_check(prog, path))
            return 1;
    }
    return 0;
}
static int anim_files_busy(const char *prog, const char *path);

/* Parses a number for an option; nonzero unless the whole text is one. */
static int parse_value(const char *s, double *v)
{
    return !s || setfile_number(s, v) != NULL;
}

/* Takes one animation option with its value (see animate.h). */
int anim_option(AnimOptions *o, const char *opt, const char *val)
{
    o->given |= 1;
    if (!strcmp(opt, "--animate")) {
        o->path = val;
        return !val || !*val;
    }
    double v;
    if (parse_value(val, &v))
        return 1;
    if (!strcmp(opt, "--fps")) {
        o->fps = v;
        o->given |= 2;
    } else {
        o->frames = v;
        o->given |= 4;
    }
    return 0;
}

/* Splits path into its directory (".") and base name. */
static void split_path(Anim *a, const char *path)
{
    snprintf(a->path, sizeof a->path, "%s", path);
    const char *slash = strrchr(path, '/');
    if (!slash) {
        snprintf(a->dir, sizeof a->dir, ".");
        snprintf(a->base, sizeof a->base, "%s", path);
    } else {
        snprintf(a->dir, sizeof a->dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
        snprintf(a->base, sizeof a->base, "%s", slash + 1);
    }
}

/* Classifies gap j from its row for the line scene (kind, bodies, c, d). */
static void classify_gap(Anim *a, const nsm_sim *sim, int j, double *w)
{
    GapGeo *gg = &a->gap[j];
    double h;
    gg->kind = G_OTHER;
    if (nsm_sim_gap_row(sim, j, w, &gg->d, &h) != NSM_OK)
        return;
    int nz = 0, first = -1, second = -1;
    for (int i = 0; i < a->n; i++)
        if (w[i] != 0) {
            nz++;
            if (first < 0)
                first = i;
            else
                second = i;
        }
    if (nz == 1 && a->planar_of[first] < 0) {
        gg->kind = G_GROUND;
        gg->a = first;
        gg->c = w[first];
    } else if (nz == 2 && a->planar_of[first] < 0 && a->planar_of[second] < 0 &&
               fabs(w[first] + w[second]) <= 1e-12 * fabs(w[first])) {
        gg->kind = G_PAIR;
        gg->a = w[first] < 0 ? first : second;
        gg->b = w[first] < 0 ? second : first;
        gg->c = fabs(w[first]);
    }
}

/* Reads the model's geometry: planar bodies, their walls and radii, and the
** gaps' rows.  0, or -1 when out of memory. */
static int read_geometry(Anim *a, const nsm_model *m, const nsm_sim *sim)
{
    a->planar_of = malloc(sizeof(int) * (size_t)a->n);
    a->radius = calloc((size_t)m->n_planar + 1, sizeof(double));
    a->wall = calloc((size_t)m->n_walls + 1, sizeof(WallGeo));
    a->gap = calloc((size_t)a->g + 1, sizeof(GapGeo));
    double *w = malloc(sizeof(double) * (size_t)a->n);
    if (!a->planar_of || !a->radius || !a->wall || !a->gap || !w) {
        free(w);
        return -1;
    }
    for (int i = 0; i < a->n; i++)
        a->planar_of[i] = -1;
    for (int p = 0; p < m->n_planar; p++) {
        const nsm_planar_info *pl = &m->planar[p];
        a->planar_of[pl->ix] = a->planar_of[pl->iy] = a->planar_of[pl->iphi] = p;
    }
    for (int k = 0; k < m->n_walls; k++) {
        WallGeo *wg = &a->wall[a->nwall];
        double r;
        if (nsm_sim_wall_line(sim, k, &wg->nx, &wg->ny, &wg->c, &r) != NSM_OK)
            continue;
        wg->gap = m->walls[k].gap;
        wg->planar = m->walls[k].planar;
        a->radius[wg->planar] = r;
        a->nwall++;
    }
    for (int j = 0; j < a->g; j++)
        classify_gap(a, sim, j, w);
    free(w);
    return 0;
}

/* The number of frames and the GIF's delay from the options; a message and
** nonzero when they are out of range. */
static int frame_count(Anim *a, const AnimOptions *o, const char *prog)
{
    a->fps = o->given & 2 ? o->fps : ANIM_FPS;
    if (!(a->fps >= 1 && a->fps <= ANIM_FPS_MAX)) {
        fprintf(stderr, "%s: error: --fps must be between 1 and %d frames per second\n", prog,
                ANIM_FPS_MAX);
        return 1;
    }
    a->delay = (int)lround(100 / a->fps);
    if (o->given & 4) {
        if (!(o->frames >= 2 && o->frames <= ANIM_FRAMES_MAX && o->frames == floor(o->frames))) {
            fprintf(stderr, "%s: error: --frames must be a whole number from 2 to %d\n", prog,
                    ANIM_FRAMES_MAX);
            return 1;
        }
        a->nframes = (int)o->frames;
        return 0;
    }
    double secs = fmin(fmax(a->t_end, ANIM_SECONDS_MIN), ANIM_SECONDS_MAX);
    a->nframes = (int)fmin(lround(secs * a->fps) + 1, ANIM_FRAMES_MAX);
    return 0;
}

/* Sets up an animation (see animate.h). */
Anim *anim_create(const nsm_model *m, const nsm_sim *sim, const AnimOptions *o, double t_end,
                  const char *prog)
{
    if (!o->path)
        return refuse(NULL, prog, "--fps and --frames need --animate FILE.gif");
    size_t len = strlen(o->path);
    if (len < 5 || strcasecmp(o->path + len - 4, ".gif") || o->path[len - 5] == '/')
        return refuse(NULL, prog, "--animate writes a GIF: give a file name ending in .gif, "
                      "not '%s'", o->path);
    if (m->n_bodies > ANIM_MAX_BODIES)
        return refuse(NULL, prog, "--animate draws models of up to %d bodies; this one has %d",
                      ANIM_MAX_BODIES, m->n_bodies);
    if (!(t_end > 0))
        return refuse(NULL, prog, "nothing to animate: the run ends at t = 0");
    Anim *a = calloc(1, sizeof *a);
    if (!a)
        return refuse(NULL, prog, "out of memory");
    a->m = m;
    a->n = m->n_bodies;
    a->g = m->n_gaps;
    a->t_end = t_end;
    split_path(a, o->path);
    /* a folder, checked up front: a writable device in its place
     * (`--animate /dev/null/x.gif`) passed access and failed after the
     * whole run, exit 1 */
    struct stat st;
    if (access(a->dir, W_OK) != 0 || stat(a->dir, &st) != 0 ||
        (!S_ISDIR(st.st_mode) && (errno = ENOTDIR)))
        return refuse(a, prog, "cannot write the animation into '%s': %s", a->dir,
                      strerror(errno));
    outdir_id_take(a->dir, &a->dir_id);
    if (stat(o->path, &st) == 0 && S_ISDIR(st.st_mode))     /* likewise after the run */
        return refuse(a, prog, "cannot write the animation '%s': %s", o->path,
                      strerror(EISDIR));
    /* a FIFO or a device (or a link to one) was replaced by the GIF renamed
     * over it; a link to a file is written through, as the figures are */
    if (outdir_result_check(prog, o->path) || anim_side_check(a, prog)) {
        anim_write(a, prog, 1);
        return NULL;
    }
    if (anim_files_busy(prog, o->path) || frame_count(a, o, prog)) {
        anim_write(a, prog, 1);
        return NULL;
    }
    a->frame_snap = malloc(sizeof(long) * (size_t)a->nframes);
    a->hit = calloc((size_t)a->g + 1, 1);
    if (!a->frame_snap || !a->hit || read_geometry(a, m, sim))
        return refuse(a, prog, "out of memory");
    nsm_audit au;
    a->vertical = m->n_planar == 0 && nsm_sim_audit(sim, &au) == NSM_OK && au.gravity != 0;
    return a;
}

/* The moving surfaces of the model's one-body gaps on the line, for the
** time plot (plot.h); how many were written to out. */
int anim_surfaces(const nsm_model *m, const nsm_sim *sim, PlotSurface *out, int max)
{
    int n = m->n_bodies, k = 0;
    double *w = malloc(sizeof(double) * ((size_t)n + 1));
    for (int j = 0; w && j < m->n_gaps && k < max; j++) {
        double d, h;
        int nz = 0, body = -1;
        if (!m->gap_moving || !m->gap_moving[j] || nsm_sim_gap_row(sim, j, w, &d, &h) != NSM_OK)
            continue;
        for (int i = 0; i < n; i++)
            if (w[i] != 0)
                nz++, body = i;
        int planar = 0;
        for (int q = 0; q < m->n_planar; q++)
            planar |= body == m->planar[q].ix || body == m->planar[q].iy ||
                      body == m->planar[q].iphi;
        if (nz != 1 || planar || !m->body_names)
            continue;
        out[k].gap = m->gaps[j].name;
        out[k].body = m->body_names[body];
        out[k++].coef = w[body];
    }
    free(w);
    return k;
}

/* Remembers an impact (or a Zeno jump) on a gap for the next frame. */
void anim_event(Anim *a, const nsm_event *ev)
{
    if (ev->contact >= 0 && ev->contact < a->g &&
        (ev->kind == NSM_EV_IMPACT || ev->kind == NSM_EV_ZENO))
        a->hit[ev->contact] = 1;
}

/* Makes room for one more snapshot; 0, or -1 when out of memory. */
static int grow(Anim *a)
{
    if (a->nsnap < a->cap)
        return 0;
    long cap = a->cap ? 2 * a->cap : 64;
    if (cap > a->nframes)
        cap = a->nframes;
    double *t = realloc(a->snap_t, sizeof(double) * (size_t)cap);
    if (t)
        a->snap_t = t;
    double *x = realloc(a->snap_x, sizeof(double) * (size_t)cap * (size_t)(a->n + 1));
    if (x)
        a->snap_x = x;
    double *h = realloc(a->snap_h, sizeof(double) * (size_t)cap * (size_t)(a->g + 1));
    if (h)
        a->snap_h = h;
    unsigned char *f = realloc(a->snap_f, (size_t)cap * (size_t)(a->g + 1));
    if (f)
        a->snap_f = f;
    if (!t || !x || !h || !f)
        return -1;
    a->cap = cap;
    return 0;
}

/* Records the frames whose time has come (see animate.h). */
void anim_sample(Anim *a, const nsm_sim *sim, double t)
{
    double step = a->t_end / (a->nframes - 1), tol = 1e-9 * a->t_end;
    if (a->oom || a->next >= a->nframes || t < a->next * step - tol)
        return;
    if (grow(a)) {
        a->oom = 1;
        return;
    }
    long s = a->nsnap++;
    const double *y = nsm_sim_state(sim);
    nsm_audit au;   /* gravity's potential: nonzero once a body is off x = 0 */
    if (!a->vertical && a->m->n_planar == 0 && nsm_sim_audit(sim, &au) == NSM_OK)
        a->vertical = au.gravity != 0;
    a->snap_t[s] = t;
    memcpy(a->snap_x + s * a->n, y, sizeof(double) * (size_t)a->n);
    for (int j = 0; j < a->g; j++) {
        double h = 0;
        if (a->m->gap_moving && a->m->gap_moving[j])
            nsm_sim_gap_row(sim, j, NULL, NULL, &h);
        a->snap_h[s * a->g + j] = h;
        a->snap_f[s * a->g + j] = (unsigned char)((nsm_sim_mode_has(sim, j) ? 1 : 0) |
                                                  (a->hit[j] ? 2 : 0));
        a->hit[j] = 0;
    }
    while (a->next < a->nframes && a->next * step <= t + tol)
        a->frame_snap[a->next++] = s;
}

/* Frees an animation. */
static void anim_free(Anim *a)
{
    if (!a)
        return;
    free(a->snap_t);
    free(a->snap_x);
    free(a->snap_h);
    free(a->snap_f);
    free(a->frame_snap);
    free(a->hit);
    free(a->gap);
    free(a->planar_of);
    free(a->radius);
    free(a->wall);
    free(a);
}

/* Where a ground gap's surface is along its body's line in snapshot s:
** the position x of the body at which the gap is 0. */
static double surface_at(const Anim *a, int j, long s)
{
    const GapGeo *gg = &a->gap[j];
    return -(gg->d + a->snap_h[s * a->g + j]) / gg->c;
}

/* Grows [lo, hi] to hold v. */
static void span_add(double *lo, double *hi, double v)
{
    if (v < *lo)
        *lo = v;
    if (v > *hi)
        *hi = v;
}

/* Offsets of the line bodies along their line, so that blocks joined by a
** closed gap touch, and a row per group of bodies joined by gaps; a
** breadth-first walk over the pair gaps from each group's first body. */
static int line_rows(const Anim *a, Layout *L)
{
    int n = a->n, *queue = malloc(sizeof(int) * (size_t)n);
    if (!queue)
        return -1;
    for (int i = 0; i < n; i++)
        L->row[i] = -1;
    for (int start = 0; start < n; start++) {
        if (a->planar_of[start] >= 0 || L->row[start] >= 0)
            continue;
        int head = 0, tail = 0;
        L->row[start] = L->nrows;
        L->off[start] = 0;
        queue[tail++] = start;
        while (head < tail) {
            int i = queue[head++];
            for (int j = 0; j < a->g; j++) {
                const GapGeo *gg = &a->gap[j];
                if (gg->kind != G_PAIR || (gg->a != i && gg->b != i))
                    continue;
                int other = gg->a == i ? gg->b : gg->a;
                if (L->row[other] >= 0)
                    continue;
                double delta = L->w + gg->d / gg->c;   /* off_b - off_a */
                L->off[other] = L->off[i] + (gg->a == i ? delta : -delta);
                L->row[other] = L->nrows;
                queue[tail++] = other;
            }
        }
        L->nrows++;
    }
    free(queue);
    return 0;
}

/* The side of the blocks: 8 % of the range the line bodies and the
** surfaces of their ground gaps cover over the run. */
static double block_side(const Anim *a)
{
    double lo = INFINITY, hi = -INFINITY;
    for (long s = 0; s < a->nsnap; s++) {
        for (int i = 0; i < a->n; i++)
            if (a->planar_of[i] < 0)
                span_add(&lo, &hi, a->snap_x[s * a->n + i]);
        for (int j = 0; j < a->g; j++)
            if (a->gap[j].kind == G_GROUND)
                span_add(&lo, &hi, surface_at(a, j, s));
    }
    double r = hi - lo;
    if (!(r > 0))
        r = fmax(1.0, fmax(fabs(lo), fabs(hi)));
    return 0.08 * r;
}

/* Sizes the plot area so that one unit is as many pixels across as up:
** PLOT_W wide, or narrower down to PLOT_W_MIN for a tall scene, and the
** view widened where the limits of the plot area leave room. */
static void fit_view(Layout *L)
{
    double sx = L->x1 - L->x0, sy = L->y1 - L->y0;
    double pw = PLOT_W, ph = PLOT_W * sy / sx;
    if (ph < PLOT_H_MIN) {
        ph = PLOT_H_MIN;
        double grow = sx * ph / pw - sy;
        L->y0 -= grow / 2;
        L->y1 += grow / 2;
    } else if (ph > PLOT_H_MAX) {
        ph = PLOT_H_MAX;
        pw = fmax(PLOT_W_MIN, ph * sx / sy);
        double grow = sy * pw / ph - sx;
        L->x0 -= grow / 2;
        L->x1 += grow / 2;
    }
    L->pw = (int)lround(pw);
    L->ph = (int)lround(ph);
}

/* The view of the line scene: along the lines, every block and surface of
** every frame; across, the rows. */
static void line_view(const Anim *a, Layout *L)
{
    double lo = INFINITY, hi = -INFINITY, w = L->w;
    for (long s = 0; s < a->nsnap; s++) {
        for (int i = 0; i < a->n; i++)
            if (L->row[i] >= 0) {
                double u = a->snap_x[s * a->n + i] + L->off[i];
                span_add(&lo, &hi, u - w);
                span_add(&lo, &hi, u + w);
            }
        for (int j = 0; j < a->g; j++)
            if (a->gap[j].kind == G_GROUND) {
                double u = surface_at(a, j, s) + L->off[a->gap[j].a];
                span_add(&lo, &hi, u - w);
                span_add(&lo, &hi, u + w);
            }
    }
    double pad = 0.03 * (hi - lo);
    double across_lo = -(L->nrows - 1) * 2.6 * w - 1.3 * w;
    double across_hi = 1.3 * w + (L->labels ? w : 0);
    if (a->vertical) {
        L->x0 = across_lo;
        L->x1 = across_hi + (L->labels ? 0.6 * w : 0);
        L->y0 = lo - pad;
        L->y1 = hi + pad;
    } else {
        L->x0 = lo - pad;
        L->x1 = hi + pad;
        L->y0 = across_lo;
        L->y1 = across_hi;
    }
    fit_view(L);
}

/* The view of the planar scene: every disc of every frame with a margin. */
static void planar_view(const Anim *a, Layout *L)
{
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY, rmax = 0;
    for (int p = 0; p < a->m->n_planar; p++)
        rmax = fmax(rmax, a->radius[p]);
    for (long s = 0; s < a->nsnap; s++)
        for (int p = 0; p < a->m->n_planar; p++) {
            const nsm_planar_info *pl = &a->m->planar[p];
            double x = a->snap_x[s * a->n + pl->ix], y = a->snap_x[s * a->n + pl->iy];
            span_add(&xlo, &xhi, x);
            span_add(&ylo, &yhi, y);
        }
    double span = fmax(xhi - xlo, yhi - ylo);
    if (!(span > 0))
        span = fmax(1.0, 10 * rmax);
    if (rmax == 0)
        rmax = 0.04 * span;
    L->w = rmax;
    double pad = 0.08 * span + 1.4 * rmax;
    L->x0 = xlo - pad;
    L->x1 = xhi + pad;
    L->y0 = ylo - pad;
    L->y1 = yhi + pad + (L->labels ? rmax : 0);
    fit_view(L);
}

/* The body's colour. */
static unsigned color_of(int k)
{
    return body_colors[k % NBODY_COLORS];
}

/* A body's name without its coordinate ("P[2].x" -> "P[2]"). */
static void body_label(const char *name, char *buf, size_t len)
{
    const char *dot = strrchr(name, '.');
    snprintf(buf, len, "%.*s", dot ? (int)(dot - name) : (int)strlen(name), name);
}

/* The four data blocks of one frame (blocks, discs, thin marks, thick
** highlights) and its labels, as text streams. */
typedef struct FrameData {
    char *text[5];
    size_t len[5];
    FILE *f[5];
    int rows[5];
} FrameData;

enum { D_BLOCK, D_DISC, D_MARK, D_HIGH, D_LABEL };

/* A row (u, v, du, dv, color) of the data file `which`, its coordinates
** along the line (u) and across (v) turned to the view's x and y. */
static void put_uv(FrameData *fd, int which, const Anim *a, double u, double v, double du,
                   double dv, unsigned color)
{
    if (a->vertical)
        fprintf(fd->f[which], "%.9g,%.9g,%.9g,%.9g,%u\n", v, u, dv, du, color);
    else
        fprintf(fd->f[which], "%.9g,%.9g,%.9g,%.9g,%u\n", u, v, du, dv, color);
    fd->rows[which]++;
}

/* A rectangle, centre and half sizes, drawn along the line (u) and across (v). */
static void put_rect(FrameData *fd, const Anim *a, double u, double v, double hu, double hv,
                     unsigned color)
{
    put_uv(fd, D_BLOCK, a, u, v, hu, hv, color);
}

/* A thick segment across the line at u, from v - hv to v + hv. */
static void put_across(FrameData *fd, const Anim *a, double u, double v, double hv,
                       unsigned color)
{
    if (a->vertical)
        fprintf(fd->f[D_HIGH], "%.9g,%.9g,%.9g,0,%u\n", v - hv, u, 2 * hv, color);
    else
        fprintf(fd->f[D_HIGH], "%.9g,%.9g,0,%.9g,%u\n", u, v - hv, 2 * hv, color);
    fd->rows[D_HIGH]++;
}

/* A label with gnuplot's quotes. */
static void put_label(FrameData *fd, double x, double y, const char *text)
{
    fprintf(fd->f[D_LABEL], "%.9g,%.9g,\"", x, y);
    for (const char *c = text; *c; c++)
        if (*c != '"' && *c != '\n')
            fputc(*c, fd->f[D_LABEL]);
    fputs("\"\n", fd->f[D_LABEL]);
    fd->rows[D_LABEL]++;
}

/* A thin segment from (u, v) to (u + du, v + dv) along and across the line. */
static void put_mark(FrameData *fd, const Anim *a, double u, double v, double du, double dv,
                     unsigned color)
{
    put_uv(fd, D_MARK, a, u, v, du, dv, color);
}

/* A spring (with its damper) as a zigzag between two blocks on one line,
** or between a block and an anchor at the edge of the view on the side the
** model names the ground (`ground -- B`: the low side). */
static void line_spring(const Anim *a, const Layout *L, const double *x,
                        const nsm_spring_info *sp, FrameData *fd)
{
    int body = sp->a >= 0 ? sp->a : sp->b;
    if (body < 0 || L->row[body] < 0 ||
        (sp->a >= 0 && sp->b >= 0 && L->row[sp->a] != L->row[sp->b]))
        return;
    double w = L->w, v = -L->row[body] * 2.6 * w, lo = a->vertical ? L->y0 : L->x0,
           hi = a->vertical ? L->y1 : L->x1;
    double u0, u1;
    if (sp->a >= 0 && sp->b >= 0) {
        double ua = x[sp->a] + L->off[sp->a], ub = x[sp->b] + L->off[sp->b];
        u0 = fmin(ua, ub) + w / 2;
        u1 = fmax(ua, ub) - w / 2;
    } else if (sp->a < 0) {
        u0 = lo + 0.3 * w;
        u1 = x[body] + L->off[body] - w / 2;
        put_rect(fd, a, u0 - 0.15 * w, v, 0.15 * w, 0.7 * w, WALL);
    } else {
        u0 = x[body] + L->off[body] + w / 2;
        u1 = hi - 0.3 * w;
        put_rect(fd, a, u1 + 0.15 * w, v, 0.15 * w, 0.7 * w, WALL);
    }
    if (!(u1 > u0))
        return;
    enum { TEETH = 12 };
    double du = (u1 - u0) / TEETH, prev = 0;
    for (int k = 1; k <= TEETH; k++) {
        double dv = k == TEETH ? 0 : (k % 2 ? 0.22 : -0.22) * w;
        put_mark(fd, a, u0 + (k - 1) * du, v + prev, du, dv - prev, SPRING);
        prev = dv;
    }
}

/* The line scene of snapshot s: walls of ground gaps (moving with their
** surfaces), the blocks, red bars between blocks whose gap is closed or
** struck, and the bodies' names. */
static void line_frame(const Anim *a, const Layout *L, long s, FrameData *fd)
{
    double w = L->w;
    const double *x = a->snap_x + s * a->n;
    const unsigned char *fl = a->snap_f + s * a->g;
    for (int j = 0; j < a->g; j++) {
        const GapGeo *gg = &a->gap[j];
        if (gg->kind != G_GROUND)
            continue;
        double v = -L->row[gg->a] * 2.6 * w, side = gg->c > 0 ? -1 : 1;
        double u = surface_at(a, j, s) + L->off[gg->a] + side * w / 2;
        put_rect(fd, a, u + side * 0.15 * w, v, 0.15 * w, 0.9 * w, fl[j] ? RED : WALL);
    }
    for (int k = 0; k < a->m->n_springs; k++)
        line_spring(a, L, x, &a->m->springs[k], fd);
    int k = 0;
    for (int i = 0; i < a->n; i++) {
        if (L->row[i] < 0)
            continue;
        double u = x[i] + L->off[i], v = -L->row[i] * 2.6 * w;
        put_rect(fd, a, u, v, w / 2, w / 2, color_of(k++));
        if (L->labels) {
            char name[128];
            body_label(a->m->body_names[i], name, sizeof name);
            if (a->vertical)   /* beside the block: the one above may touch it */
                put_label(fd, v + 1.25 * w, u, name);
            else
                put_label(fd, u, v + 0.95 * w, name);
        }
    }
    for (int j = 0; j < a->g; j++) {
        const GapGeo *gg = &a->gap[j];
        if (gg->kind != G_PAIR || !fl[j])
            continue;
        double ua = x[gg->a] + L->off[gg->a] + w / 2, ub = x[gg->b] + L->off[gg->b] - w / 2;
        put_across(fd, a, (ua + ub) / 2, -L->row[gg->a] * 2.6 * w, 0.75 * w, RED);
    }
}

/* Clips the line nx x + ny y = c to the view: its two ends, or 0 when it
** misses the view. */
static int clip_wall(const WallGeo *wg, const Layout *L, double e[4])
{
    double pts[4][2];
    int np = 0;
    if (fabs(wg->ny) > 1e-12)
        for (int k = 0; k < 2; k++) {
            double x = k ? L->x1 : L->x0, y = (wg->c - wg->nx * x) / wg->ny;
            if (y >= L->y0 && y <= L->y1)
                pts[np][0] = x, pts[np++][1] = y;
        }
    if (fabs(wg->nx) > 1e-12)
        for (int k = 0; k < 2; k++) {
            double y = k ? L->y1 : L->y0, x = (wg->c - wg->ny * y) / wg->nx;
            if (x >= L->x0 && x <= L->x1)
                pts[np][0] = x, pts[np++][1] = y;
        }
    if (np < 2)
        return 0;
    e[0] = pts[0][0], e[1] = pts[0][1], e[2] = pts[np - 1][0], e[3] = pts[np - 1][1];
    return 1;
}

/* The planar scene of snapshot s: the walls (red while closed or struck),
** each disc with a radius at its angle phi, and the discs' names. */
static void planar_frame(const Anim *a, const Layout *L, long s, FrameData *fd)
{
    const double *x = a->snap_x + s * a->n;
    const unsigned char *fl = a->snap_f + s * a->g;
    for (int k = 0; k < a->nwall; k++) {
        double e[4];
        if (!clip_wall(&a->wall[k], L, e))
            continue;
        fprintf(fd->f[D_HIGH], "%.9g,%.9g,%.9g,%.9g,%u\n", e[0], e[1], e[2] - e[0], e[3] - e[1],
                fl[a->wall[k].gap] ? RED : WALL);
        fd->rows[D_HIGH]++;
    }
    for (int p = 0; p < a->m->n_planar; p++) {
        const nsm_planar_info *pl = &a->m->planar[p];
        double r = a->radius[p] > 0 ? a->radius[p] : L->w;
        double cx = x[pl->ix], cy = x[pl->iy], phi = x[pl->iphi];
        fprintf(fd->f[D_DISC], "%.9g,%.9g,%.9g,%u\n", cx, cy, r, color_of(p));
        fprintf(fd->f[D_MARK], "%.9g,%.9g,%.9g,%.9g,%u\n", cx, cy, r * cos(phi), r * sin(phi),
                MARK);
        fd->rows[D_DISC]++;
        fd->rows[D_MARK]++;
        if (L->labels)
            put_label(fd, cx, cy + 1.35 * r, pl->name);
    }
}

/* Writes a gnuplot string in single quotes ('' for a quote). */
static void put_quoted(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        if (*s != '\n')
            fputc(*s, f);
    }
    fputc('\'', f);
}

/* Writes one frame: its time, its data blocks and its plot command. */
static int put_frame(FILE *f, const Anim *a, const Layout *L, long s)
{
    static const char *const names[] = { "$blocks", "$discs", "$marks", "$high", "$labels" };
    static const char *const how[] = {
        "using 1:2:($1-$3):($1+$3):($2-$4):($2+$4):5 with boxxyerror lc rgb variable",
        "using 1:2:3:4 with circles lc rgb variable",
        "using 1:2:3:4:5 with vectors nohead lw 2 lc rgb variable",
        "using 1:2:3:4:5 with vectors nohead lw 5 lc rgb variable",
        "using 1:2:3 with labels center tc rgb '#222222'"
    };
    FrameData fd;
    memset(&fd, 0, sizeof fd);
    int rc = 0;
    for (int k = 0; k < 5; k++)
        if (!(fd.f[k] = open_memstream(&fd.text[k], &fd.len[k])))
            rc = -1;
    if (!rc) {
        if (a->m->n_planar > 0)
            planar_frame(a, L, s, &fd);
        else
            line_frame(a, L, s, &fd);
    }
    for (int k = 0; k < 5; k++)
        if (fd.f[k] && fclose(fd.f[k]) != 0)
            rc = -1;
    if (!rc) {
        fprintf(f, "set label 2 't = %.4f s' at screen 0.98, screen %.5f right\n", a->snap_t[s],
                10.0 / (L->ph + MARGIN_TOP + MARGIN_BOTTOM));
        for (int k = 0; k < 5; k++)
            if (fd.rows[k])
                fprintf(f, "%s << EOD\n%sEOD\n", names[k], fd.text[k]);
        const char *sep = "plot ";
        for (int k = 0; k < 5; k++)
            if (fd.rows[k]) {
                fprintf(f, "%s%s %s notitle", sep, names[k], how[k]);
                sep = ", \\\n     ";
            }
        fputs(*sep == 'p' ? "plot NaN notitle\n" : "\n", f);
    }
    for (int k = 0; k < 5; k++)
        free(fd.text[k]);
    return rc;
}

/* The settings of every frame: terminal, view, margins, title, legend. */
static void put_header(FILE *f, const Anim *a, const Layout *L, const char *title)
{
    int W = L->pw + 2 * MARGIN_SIDE, H = L->ph + MARGIN_TOP + MARGIN_BOTTOM;
    /* the name's line ends as '?': a GIF named "x\n!touch y\n.gif" ended the
     * comment, and its next line ran as gnuplot's (`!` as the shell's) */
    fputs("# An animation of a simulation written by nsm; rerun with `gnuplot ", f);
    for (int i = 0; i < (int)strlen(a->base) - 4; i++)
        fputc(a->base[i] == '\n' || a->base[i] == '\r' ? '?' : a->base[i], f);
    fputs(".gp` in this folder.\n", f);
    fprintf(f, "# %d frames of %d x %d px at %g frames per second; the view x [%.9g, %.9g], "
            "y [%.9g, %.9g] fills the pixels x [%d, %d], y [%d, %d] (y from the top)\n",
            a->nframes, W, H, a->fps, L->x0, L->x1, L->y0, L->y1, MARGIN_SIDE,
            MARGIN_SIDE + L->pw, MARGIN_TOP, MARGIN_TOP + L->ph);
    fprintf(f, "set terminal gif animate optimize delay %d loop 0 size %d,%d noenhanced "
            "font 'DejaVu Sans,10' background rgb 'white'\n", a->delay, W, H);
    fputs("if (!exists('out')) out = ", f);
    put_quoted(f, a->base);
    fputs("\nset output out\nset datafile separator comma\nunset key\nunset border\n"
          "unset tics\nset style fill solid 1.0 border lc rgb '#333333'\n", f);
    fprintf(f, "set lmargin at screen %.6f\nset rmargin at screen %.6f\n"
            "set bmargin at screen %.6f\nset tmargin at screen %.6f\n",
            (double)MARGIN_SIDE / W, (double)(MARGIN_SIDE + L->pw) / W,
            (double)MARGIN_BOTTOM / H, (double)(MARGIN_BOTTOM + L->ph) / H);
    fprintf(f, "set xrange [%.9g:%.9g]\nset yrange [%.9g:%.9g]\n", L->x0, L->x1, L->y0, L->y1);
    /* the model's name alone when its title would not fit (about 7 px a letter) */
    char shown[512];
    size_t name_len = strcspn(title, ":");
    snprintf(shown, sizeof shown, "%.*s", 7 * strlen(title) > (size_t)W - 30 ? (int)name_len
             : (int)strlen(title), title);
    fputs("set label 1 ", f);
    put_quoted(f, shown);
    fprintf(f, " at screen 0.02, screen %.5f left font ',11'\n", 1 - 28.0 / H);
    fprintf(f, "set label 3 'red: a contact closed, or struck since the previous frame' at screen "
            "0.02, screen %.5f left font ',9' tc rgb '#e8000b'\n", 10.0 / H);
}

/* Lays the scene out: line bodies (offsets, rows) or planar bodies. */
static int lay_out(const Anim *a, Layout *L)
{
    memset(L, 0, sizeof *L);
    L->off = calloc((size_t)a->n + 1, sizeof(double));
    L->row = calloc((size_t)a->n + 1, sizeof(int));
    if (!L->off || !L->row)
        return -1;
    if (a->m->n_planar > 0) {
        L->labels = a->m->n_planar <= MAX_LABELS;
        planar_view(a, L);
        return 0;
    }
    int nline = 0;
    for (int i = 0; i < a->n; i++)
        nline += a->planar_of[i] < 0;
    L->labels = nline <= MAX_LABELS && a->m->body_names;
    L->w = block_side(a);
    if (line_rows(a, L))
        return -1;
    line_view(a, L);
    return 0;
}

/* Writes the script FILE.gp.  0, or a message in err and nonzero, no
** script left (the part written before a full disk or a file-size limit
** removed). */
static int write_script(const Anim *a, const char *script, const char *title, char *err,
                        size_t errlen)
{
    Layout L;
    FILE *f = NULL;
    int rc = lay_out(a, &L);
    if (!rc && !(f = fopen(script, "w"))) {
        snprintf(err, errlen, "cannot write '%.900s': %s", script, strerror(errno));
        rc = 1;
    }
    if (!rc) {
        put_header(f, a, &L, title);
        for (int k = 0; k < a->next && !rc; k++) {
            fprintf(f, "# frame %d\n", k);
            rc = put_frame(f, a, &L, a->frame_snap[k]);
        }
        fputs("set output\n", f);
        int bad = ferror(f);
        if (fclose(f) != 0 || bad)
            rc = 1;
        if (rc) {
            int e = errno ? errno : EIO;
            unlink(script);     /* a script cut at a file-size limit was left behind */
            snprintf(err, errlen, "cannot write '%.900s': %s", script, strerror(e));
        }
    } else if (rc < 0)
        snprintf(err, errlen, "out of memory");
    free(L.off);
    free(L.row);
    return rc;
}

/* Removes the GIF of an earlier run at the animation's path when this one
** draws none (no gnuplot), as the plots' earlier figures are
** (plot_without_gnuplot): it stayed beside this run's trajectory and
** script, and `nsmc run` named it among this run's results.  Only a
** regular file goes.  1 when one was removed. */
static int anim_earlier_remove(const Anim *a)
{
    struct stat st;
    return lstat(a->path, &st) == 0 && S_ISREG(st.st_mode) && unlink(a->path) == 0;
}

/* Whether one of the animation's files (the GIF at path, its script and
** its log beside it) is an output another running program holds locked
** (out_file_in_use): 1 after a message naming it.  The GIF is renamed over
** its path and the script written in place at the run's end: named as
** another running simulator's event log, they replaced it, both runs
** exit 0. */
static int anim_files_busy(const char *prog, const char *path)
{
    char gp[5200], log[5200];
    anim_side_name(gp, sizeof gp, NULL, path, "gp");
    anim_side_name(log, sizeof log, NULL, path, "log");
    const char *files[3] = { path, gp, log };
    const char *what[3] = { "--animate", "the script of --animate", "the log of --animate" };
    for (int k = 0; k < 3; k++) {
        if (!out_file_in_use(files[k]))
            continue;
        fprintf(stderr, "%s: error: %s '%s': it is in use by another running program (its "
                "output, which the animation would replace); wait for it or choose another "
                "name\n", prog, what[k], files[k]);
        return 1;
    }
    return 0;
}

/* Whether the animation's GIF, script or log (at the path, gp and log
** beside it) is one of the files another program holding their folder's
** lock writes there itself (outdir_output_free): 1 after its message.
** They are written at the run's end: checked only at its start, a
** `--animate D/plot.gif` started before `nsmc run --out-dir D` replaced
** the run's plot.gp with its script while the run drew its figures. */
static int anim_names_taken(const Anim *a, const char *prog, const char *script)
{
    char log[5200];
    anim_side_name(log, sizeof log, NULL, a->path, "log");
    return outdir_output_free(prog, "--animate", a->path) ||
           outdir_output_free(prog, "the script of --animate", script) ||
           outdir_output_free(prog, "the log of --animate", log) ||
           anim_files_busy(prog, a->path);
}

/* Draws the GIF through a temporary file renamed at the end.  One of PLOT_*. */
static int draw(const Anim *a, const char *title, const char *prog, char *err, size_t errlen)
{
    char script[5200], gp[1100], tmp[64], log[1100], setup[128];
    anim_side_name(gp, sizeof gp, NULL, a->base, "gp");
    anim_side_name(script, sizeof script, a->dir, a->base, "gp");
    if (anim_names_taken(a, prog, script)) {
        snprintf(err, errlen, "its files are another running program's");
        return PLOT_EFAIL;
    }
    /* the GIF's folder moved away while the run ran, a link to another
     * folder in its place: the GIF and its script went by path into that
     * folder (`nsmc run --animate`'s folder replaced by a link to another
     * run's: that run's animation replaced), where the trajectory went
     * with the folder the run started in */
    if (outdir_moved(a->dir, &a->dir_id)) {
        snprintf(err, errlen, "its folder '%.900s' was moved, removed or replaced while the run "
                 "ran: nothing is written into what stands there now", a->dir);
        return PLOT_EFAIL;
    }
    if (write_script(a, script, title, err, errlen))
        return PLOT_EFAIL;
    if (!plot_have_gnuplot()) {
        int gone = anim_earlier_remove(a);
        snprintf(err, errlen, "gnuplot is not installed, so no animation was drawn (the script "
                 "is %.800s; on Debian: apt-get install gnuplot-nox)%s", script,
                 gone ? "; the earlier animation there, which did not show this run, was "
                 "removed" : "");
        return PLOT_NOGNUPLOT;
    }
    plot_stale_clear_pattern(a->dir, ".anim-", ".gif");     /* a killed run's */
    snprintf(tmp, sizeof tmp, ".anim-%ld.gif", (long)getpid());
    anim_side_name(log, sizeof log, NULL, a->base, "log");
    snprintf(setup, sizeof setup, "out = '%s'", tmp);
    const char *drawn[1] = { tmp };
    int rc = plot_gnuplot(a->dir, gp, setup, log, err, errlen);
    if (rc == PLOT_OK)
        rc = plot_figures_check(a->dir, drawn, 1, err, errlen);
    /* through the folder gnuplot drew in (plot_at): moved away meanwhile,
     * it keeps the GIF and no temporary */
    char fbuf[4300], tbuf[4300], lbuf[4300];
    const char *from, *into, *logrel;
    int fat = plot_at(a->dir, tmp, fbuf, sizeof fbuf, &from);
    int tat = plot_at(a->dir, a->base, tbuf, sizeof tbuf, &into);
    char to[4200];
    struct stat lst;
    if (fstatat(tat, into, &lst, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(lst.st_mode) &&
        !out_link_target("", a->path, to, sizeof to)) {
        tat = AT_FDCWD;     /* a link to a file: its target replaced, the link kept */
        into = to;
    }
    int lat = plot_at(a->dir, log, lbuf, sizeof lbuf, &logrel);
    if (rc == PLOT_OK && renameat(fat, from, tat, into) != 0) {
        snprintf(err, errlen, "cannot write '%.900s': %s", a->path, strerror(errno));
        rc = PLOT_EFAIL;
    }
    if (rc != PLOT_OK)
        unlinkat(fat, from, 0);
    if (rc == PLOT_OK || rc == PLOT_ESTOP)
        unlinkat(lat, logrel, 0);   /* a stopped gnuplot's log tells nothing */
    return rc;
}

/* Writes the GIF and reports (see animate.h). */
int anim_write(Anim *a, const char *prog, int skip)
{
    char err[1024] = "";
    int failed = 0;
    if (!a || skip) {
        anim_free(a);
        return 0;
    }
    if (a->oom) {
        fprintf(stderr, "%s: error: no animation: out of memory\n", prog);
        failed = 1;
    } else if (a->next == 0) {
        fprintf(stderr, "%s: note: no animation: the run gave no sample\n", prog);
    } else {
        char title[512];
        if (a->m->title && *a->m->title)
            snprintf(title, sizeof title, "%s: %s", a->m->name, a->m->title);
        else
            snprintf(title, sizeof title, "%s", a->m->name);
        int rc = draw(a, title, prog, err, sizeof err);
        if (rc == PLOT_OK) {
            fprintf(stderr, "%s: animation: %s (%d frame%s, %.3g s at %g frames per second)\n",
                    prog, a->path, a->next, a->next == 1 ? "" : "s", a->next / a->fps, a->fps);
            if (a->nsnap < a->next / 2)
                fprintf(stderr, "%s: note: the animation repeats samples: %ld sample%s for %d "
                        "frames; --every %.3g or less moves it smoothly\n", prog, a->nsnap,
                        a->nsnap == 1 ? "" : "s", a->next, a->t_end / (a->nframes - 1));
            int line = 0;
            for (int i = 0; a->m->n_planar > 0 && i < a->n; i++)
                line |= a->planar_of[i] < 0;
            if (line)
                fprintf(stderr, "%s: note: the animation draws the planar bodies only, not "
                        "the bodies on a line\n", prog);
        } else if (rc == PLOT_NOGNUPLOT) {
            fprintf(stderr, "%s: note: no animation: %s\n", prog, err);
        } else if (rc == PLOT_ESTOP) {
            /* as without gnuplot: no earlier GIF left as this run's */
            int gone = anim_earlier_remove(a);
            fprintf(stderr, "%s: note: no animation: a stop signal came while gnuplot drew it, "
                    "after the run had reached its end (the script is %.*s.gp)%s\n", prog,
                    (int)strlen(a->path) - 4, a->path, gone ? "; the earlier animation there, which did not show this run, "
                    "was removed" : "");
            failed = 1;
        } else {
            fprintf(stderr, "%s: error: no animation: %s\n", prog, err);
            failed = 1;
        }
    }
    anim_free(a);
    return failed;
}
