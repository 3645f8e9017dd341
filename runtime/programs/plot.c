/*
** plot.c: plots of a trajectory and its events with gnuplot (see plot.h).
**
** The C side reads the CSV header, the time range and the event log; gnuplot
** reads the samples itself.  The script is written out in full so that the
** user can edit and rerun it, and it begins with a map of every trajectory
** column: the panel that draws it, or why it is not drawn.
**
** Layout.  One panel per kind of output and unit (positions, velocities,
** accelerations, gaps, forces of contacts, springs and friction, energies,
** the energy error, others: expressions and parameters),
** stacked over a shared time axis, at most PLOT_MAX_PANELS of them.  A panel
** of a few lines gives each its colour and its name in the legend; a panel of
** many (a family such as P[1].x .. P[20].x) colours them in order along a
** gradient and names the first and the last.  The contacts: with few
** contacts and impacts, closed intervals are shaded behind the panels and
** impacts drawn as dashed lines; with more, a timeline panel at the bottom
** gives every contact its own row, with a bar while it is closed and a tick
** at each impact.  Marks closer than the resolution of the picture are
** thinned (with a note), never cut.
*/
#define _XOPEN_SOURCE 700   /* realpath, getline */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

#include "plot.h"

enum {
    MAX_PANELS = PLOT_MAX_PANELS,  /* stacked panels of the time plot (besides the timeline) */
    FEW_LINES = 8,      /* up to this many lines in a panel: one legend entry each */
    FEW_CONTACTS = 3,   /* up to this many contacts: shading behind the panels */
    FEW_MARKS = 100,    /* up to this many impacts: lines behind the panels */
    THIN_BINS = 1500,   /* marks per contact beyond which close ones are merged */
    PHASE_GRID = 24,    /* bodies drawn in a grid of phase portraits; more share one */
    NOTE_LEN = 2048,
    MAX_SURFACES = 16   /* moving surfaces drawn */
};

/* Panel kinds, in the order the panels are stacked. */
enum { K_X, K_V, K_A, K_GAP, K_FORCE, K_ENERGY, K_ERROR, K_OTHER };

typedef struct Column {
    char *name;
    char unit[32];
    int kind, panel;
} Column;

typedef struct Shade {
    double t0, t1;
    int contact;
} Shade;

typedef struct Mark {
    double t;
    int contact, zeno;
} Mark;

typedef struct Plot {
    char data[4096];          /* the trajectory file as the script names it */
    char title[256];
    Column *col;
    int ncol, npanel;
    int panel_kind[MAX_PANELS];
    char panel_unit[MAX_PANELS][32];
    double tmin, tmax;
    char **contact;           /* contact names, in order of first event */
    int ncontact;
    unsigned char *friction;  /* per contact: a friction element (FRIC_PLANAR or FRIC_SPACE) */
    Shade *shade;
    long nshade, shade_cap;
    Mark *mark;
    long nmark, mark_cap;
    Mark *fmark;              /* friction elements' events (zeno: 0 stick, 1 slip or reversal) */
    long nfmark, fmark_cap;
    long marks_read, shades_read;   /* before thinning */
    int timeline;             /* contacts get their own panel */
    int *body_x, *body_v, nbody;
    int *path_x, *path_y, npath;  /* planar bodies: their x and y columns */
    const PlotWall *walls;
    int nwalls;
    const PlotFriction *fric; /* the model's friction elements, when the caller names them */
    int nfric;
    const PlotSurface *surf;  /* moving surfaces of one-body gaps, and their columns (-1: none) */
    int nsurf, surf_x[MAX_SURFACES], surf_g[MAX_SURFACES];
    char note[NOTE_LEN];      /* what was left out or thinned */
} Plot;

static const char *const line_colors[] = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"
};
static const char *const contact_colors[] = {
    "#4c9be8", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#9c755f"
};
/* The timeline's bars: a closed contact, a stuck friction element. */
/* What a contact of the event log is: a gap, or a friction element of a
** line or a planar body (a band: stuck), or one in space (a band: no slip,
** the sphere rolls or rests on the plane). */
enum { FRIC_NONE, FRIC_PLANAR, FRIC_SPACE };

#define CLOSED_COLOR "#4c9be8"
#define STUCK_COLOR "#f28e2b"
#define NLINE_COLORS (int)(sizeof line_colors / sizeof line_colors[0])
#define NCONTACT_COLORS (int)(sizeof contact_colors / sizeof contact_colors[0])

/* Formats a message into err; returns code, for one-line error returns. */
static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen)
        vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return code;
}

/* Appends a sentence to the plot's note. */
static void add_note(Plot *p, const char *fmt, ...)
{
    size_t n = strlen(p->note);
    if (n && n + 2 < sizeof p->note) {
        strcat(p->note, "; ");
        n += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->note + n, sizeof p->note - n, fmt, ap);
    va_end(ap);
}

/* Whether name ends with "." suffix. */
static int has_suffix(const char *name, const char *suffix)
{
    size_t n = strlen(name), k = strlen(suffix);
    return n > k + 1 && name[n - k - 1] == '.' && strcmp(name + n - k, suffix) == 0;
}

/* The panel kind of an output column, from its name.  A name with
** blanks, operators or parentheses is an expression's ("M2.x - M1.x"):
** whatever it ends with, it is drawn with the other quantities. */
static int column_kind(const char *name)
{
    if (strcmp(name, "energy.error") == 0)
        return K_ERROR;
    if (strncmp(name, "energy.", 7) == 0)
        return K_ENERGY;
    if (strpbrk(name, " +-*/^()"))
        return K_OTHER;
    /* a line body's x, v, a; a planar body's x, y, phi, vx, vy, omega, ax, ay, alpha */
    if (has_suffix(name, "x") || has_suffix(name, "y") || has_suffix(name, "phi"))
        return K_X;
    if (has_suffix(name, "v") || has_suffix(name, "vx") || has_suffix(name, "vy") ||
        has_suffix(name, "omega") || has_suffix(name, "slip"))
        return K_V;
    if (has_suffix(name, "a") || has_suffix(name, "ax") || has_suffix(name, "ay") ||
        has_suffix(name, "alpha"))
        return K_A;
    if (has_suffix(name, "gap"))
        return K_GAP;
    if (has_suffix(name, "force"))
        return K_FORCE;
    return K_OTHER;
}

/* The y-axis label of a panel. */
static void panel_label(const Plot *p, int k, char *buf, size_t len)
{
    static const char *const names[] = {
        "position", "velocity", "acceleration", "gap", "force", "energy",
        "energy error", ""
    };
    static const char *const angular[] = {"angle", "angular velocity", "angular acceleration"};
    const char *u = p->panel_unit[k];
    if (p->panel_kind[k] <= K_A && !strncmp(u, "rad", 3))
        snprintf(buf, len, "%s [%s]", angular[p->panel_kind[k]], u);
    else if (p->panel_kind[k] == K_OTHER) {
        int only = -1, count = 0;     /* a panel of one column is named after it */
        for (int i = 0; i < p->ncol; i++)
            if (p->col[i].panel == k) {
                only = i;
                count++;
            }
        if (count == 1)
            snprintf(buf, len, "%s [%s]", p->col[only].name, *u ? u : "-");
        else
            snprintf(buf, len, "[%s]", *u ? u : "-");
    }
    else if (*u)
        snprintf(buf, len, "%s [%s]", names[p->panel_kind[k]], u);
    else
        snprintf(buf, len, "%s", names[p->panel_kind[k]]);
}

/* Splits one header field "NAME [UNIT]" into a column.  The unit is the
** bracketed text at the end after a blank, so that indexed names such as
** "P[1].x [m]" keep their index.  0, or -1 when out of memory. */
static int parse_header_field(Column *c, const char *s, size_t len)
{
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\r' || s[len - 1] == '\n'))
        len--;
    c->unit[0] = '\0';
    if (len > 2 && s[len - 1] == ']') {
        size_t open = len - 1;
        while (open > 0 && s[open] != '[')
            open--;
        if (s[open] == '[' && open > 0 && s[open - 1] == ' ') {
            size_t ulen = len - 1 - (open + 1);
            if (ulen >= sizeof c->unit)
                ulen = sizeof c->unit - 1;
            memcpy(c->unit, s + open + 1, ulen);
            c->unit[ulen] = '\0';
            len = open;
            while (len && s[len - 1] == ' ')
                len--;
        }
    }
    c->name = malloc(len + 1);
    if (!c->name)
        return -1;
    memcpy(c->name, s, len);
    c->name[len] = '\0';
    return 0;
}

/* Assigns every column to a panel: one per (kind, unit), stacked by kind.
** Columns beyond MAX_PANELS panels are left out (panel -1), with a note. */
static void assign_panels(Plot *p)
{
    int left = 0;
    const char *first = NULL;
    for (int kind = K_X; kind <= K_OTHER; kind++)
        for (int i = 0; i < p->ncol; i++) {
            Column *c = &p->col[i];
            if (c->kind != kind || c->panel >= 0)
                continue;
            int k = 0;
            while (k < p->npanel && !(p->panel_kind[k] == kind && !strcmp(p->panel_unit[k], c->unit)))
                k++;
            if (k == p->npanel) {
                if (p->npanel == MAX_PANELS) {
                    if (!left++)
                        first = c->name;
                    continue;
                }
                p->panel_kind[k] = kind;
                snprintf(p->panel_unit[k], sizeof p->panel_unit[k], "%s", c->unit);
                p->npanel++;
            }
            c->panel = k;
        }
    if (left)
        add_note(p, "%d column%s not drawn (%s%s): more than %d kinds of output and units; "
                 "plot.gp lists them", left, left > 1 ? "s" : "", first, left > 1 ? ", ..." : "",
                 MAX_PANELS);
}

/* The column named stem + suffix ("D." + "vx"), or -1. */
static int find_column(const Plot *p, const char *name, size_t stem, const char *suffix)
{
    for (int j = 0; j < p->ncol; j++) {
        const char *c = p->col[j].name;
        if (strlen(c) == stem + strlen(suffix) && !strncmp(c, name, stem) &&
            !strcmp(c + stem, suffix))
            return j;
    }
    return -1;
}

/* Pairs each body's position and velocity columns (NAME.x with NAME.v, the
** name with its indices; a planar body's D.x with D.vx, D.y with D.vy, D.phi
** with D.omega) for the phase portraits, and a planar body's D.x with D.y
** (both in m) for its path. */
static int find_bodies(Plot *p)
{
    p->body_x = malloc(sizeof(int) * (size_t)(p->ncol + 1));
    p->body_v = malloc(sizeof(int) * (size_t)(p->ncol + 1));
    p->path_x = malloc(sizeof(int) * (size_t)(p->ncol + 1));
    p->path_y = malloc(sizeof(int) * (size_t)(p->ncol + 1));
    if (!p->body_x || !p->body_v || !p->path_x || !p->path_y)
        return -1;
    static const char *const pos[] = {"x", "x", "y", "phi"}, *const vel[] = {"v", "vx", "vy", "omega"};
    for (int i = 0; i < p->ncol; i++) {
        const char *xn = p->col[i].name;
        if (p->col[i].kind != K_X)
            continue;
        for (int k = 0; k < 4; k++) {
            if (!has_suffix(xn, pos[k]))
                continue;
            int j = find_column(p, xn, strlen(xn) - strlen(pos[k]), vel[k]);
            if (j >= 0 && p->col[j].kind == K_V) {
                p->body_x[p->nbody] = i;
                p->body_v[p->nbody++] = j;
                break;
            }
        }
        if (has_suffix(xn, "x") && !strcmp(p->col[i].unit, "m")) {
            int j = find_column(p, xn, strlen(xn) - 1, "y");
            if (j >= 0 && !strcmp(p->col[j].unit, "m")) {
                p->path_x[p->npath] = i;
                p->path_y[p->npath++] = j;
            }
        }
    }
    return 0;
}

/* The time of the last complete line of a trajectory file f of the given
** size, whose lines are up to about linelen bytes; NAN if none. */
static double last_time(FILE *f, long size, size_t linelen)
{
    long back = (long)(4 * linelen + 65536);
    char *line = NULL;
    size_t cap = 0;
    double last = NAN;
    if (fseek(f, size > back ? size - back : 0, SEEK_SET) != 0)
        return NAN;
    while (getline(&line, &cap, f) > 0) {
        double t;
        if (sscanf(line, "%lf,", &t) == 1 && strchr(line, '\n'))
            last = t;
    }
    free(line);
    return last;
}

/* Whether the input at path (what names, NULL: none) is there but no
** regular file (a FIFO, a device, or a link to one), which the plots cannot
** read back: PLOT_NOTHING with the reason in err, else PLOT_OK.  A
** simulator's `--out FIFO --plot P` hung at the run's end opening the FIFO
** to read it again (no writer left), deaf to SIGTERM, and `--events
** /dev/null` drew figures without a word of the events they lack. */
static int plot_unreadable(const char *path, const char *what, char *err, size_t errlen)
{
    struct stat st;
    if (!path || stat(path, &st) != 0 || S_ISREG(st.st_mode))
        return PLOT_OK;
    return fail(err, errlen, PLOT_NOTHING, "the %s '%s' is %s, which cannot be read back",
                what, path, S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISCHR(st.st_mode) ||
                S_ISBLK(st.st_mode) ? "a device" : S_ISDIR(st.st_mode) ? "a folder"
                : "not a regular file");
}

/* Reads the header, the first and the last time of the trajectory.
** Returns PLOT_OK, PLOT_NOTHING or PLOT_EFAIL. */
static int read_trajectory(Plot *p, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    if (!f)
        return fail(err, errlen, PLOT_EFAIL, "cannot read '%s': %s", path, strerror(errno));
    ssize_t hlen = getline(&line, &cap, f);
    if (hlen <= 0) {
        fclose(f);
        free(line);
        return fail(err, errlen, PLOT_NOTHING, "the trajectory '%s' is empty", path);
    }
    int n = 0;
    for (const char *s = line; *s; s++)
        n += *s == ',';
    p->col = calloc((size_t)n + 1, sizeof *p->col);
    if (!p->col) {
        fclose(f);
        free(line);
        return fail(err, errlen, PLOT_EFAIL, "out of memory");
    }
    const char *s = strchr(line, ',');
    while (s) {
        const char *e = strchr(s + 1, ',');
        size_t len = e ? (size_t)(e - s - 1) : strlen(s + 1);
        Column *c = &p->col[p->ncol];
        if (parse_header_field(c, s + 1, len)) {
            fclose(f);
            free(line);
            return fail(err, errlen, PLOT_EFAIL, "out of memory");
        }
        p->ncol++;
        c->kind = column_kind(c->name);
        c->panel = -1;
        s = e;
    }
    if (p->ncol == 0) {
        fclose(f);
        free(line);
        return fail(err, errlen, PLOT_NOTHING,
                    "the model has no output columns to plot (add an `output` statement)");
    }
    if (getline(&line, &cap, f) <= 0 || sscanf(line, "%lf", &p->tmin) != 1) {
        fclose(f);
        free(line);
        return fail(err, errlen, PLOT_NOTHING, "the trajectory has no samples to plot");
    }
    free(line);
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : 0;
    p->tmax = last_time(f, size, (size_t)hlen);
    fclose(f);
    if (!(p->tmax > p->tmin))
        return fail(err, errlen, PLOT_NOTHING,
                    "the trajectory covers no time interval (one sample), nothing to plot");
    return PLOT_OK;
}

/* Index of a contact name, added if new; -1 when out of memory. */
static int contact_index(Plot *p, const char *name)
{
    for (int i = 0; i < p->ncontact; i++)
        if (strcmp(p->contact[i], name) == 0)
            return i;
    char **c = realloc(p->contact, sizeof *c * (size_t)(p->ncontact + 1));
    if (!c)
        return -1;
    p->contact = c;
    if (!(c[p->ncontact] = strdup(name)))
        return -1;
    return p->ncontact++;
}

/* Appends one item of size sz to a growing array; 0 or -1. */
static int push(void **arr, long *n, long *cap, size_t sz, const void *item)
{
    if (*n == *cap) {
        long nc = *cap ? 2 * *cap : 256;
        void *a = realloc(*arr, (size_t)nc * sz);
        if (!a)
            return -1;
        *arr = a;
        *cap = nc;
    }
    memcpy((char *)*arr + (size_t)*n * sz, item, sz);
    (*n)++;
    return 0;
}

/* Adds a closed interval of contact c. */
static int add_shade(Plot *p, int c, double t0, double t1)
{
    Shade s = { t0, t1, c };
    if (!(t1 > t0))
        return 0;
    p->shades_read++;
    return push((void **)&p->shade, &p->nshade, &p->shade_cap, sizeof s, &s);
}

/* One event of the log as the plot needs it: its time, contact and kind
** ('i' impact, 'z' Zeno jump, 's' stick or contact_enter, 'o' separation
** or contact_exit, 'l' slip, 'r' reversal). */
typedef struct EvRow {
    double t;
    int contact;
    char kind;
} EvRow;

/* The plot's letter for an event kind of the log, 0 for those it ignores. */
static char event_letter(const char *kind)
{
    static const char *const names[] = { "impact", "zeno", "stick", "contact_enter",
                                         "separation", "contact_exit", "slip", "reversal" };
    static const char letters[] = "izssoolr";
    for (int k = 0; k < 8; k++)
        if (!strcmp(kind, names[k]))
            return letters[k];
    return 0;
}

/* Reads the event log's rows (a missing file: none), naming the contacts in
** order of first event.  0, or -1 when out of memory. */
static int read_event_rows(Plot *p, const char *path, EvRow **rows, long *n)
{
    FILE *f = path ? fopen(path, "r") : NULL;
    char *line = NULL, kind[32];
    size_t cap = 0;
    long rcap = 0;
    int rc = 0;
    if (!f)
        return 0;
    while (!rc && getline(&line, &cap, f) > 0) {
        EvRow r;
        int at = 0;
        if (sscanf(line, "%lf,%31[^,],%n", &r.t, kind, &at) != 2 || !at)
            continue;   /* the header */
        if (!(r.kind = event_letter(kind)))
            continue;   /* time switches */
        char *name = line + at, *end = strchr(name, ',');
        if (end)
            *end = '\0';
        r.contact = contact_index(p, name);
        rc = r.contact < 0 ? -1 : push((void **)rows, n, &rcap, sizeof r, &r);
    }
    fclose(f);
    free(line);
    return rc;
}

/* The first contact other than c struck in rows [i, j), or -1; and whether
** c itself is struck there. */
static int struck_other(const EvRow *r, long i, long j, int c, int *self)
{
    int other = -1;
    *self = 0;
    for (long k = i; k < j; k++)
        if (r[k].kind == 'i') {
            if (r[k].contact == c)
                *self = 1;
            else if (other < 0)
                other = r[k].contact;
        }
    return other;
}

/* Whether contact c sticks or jumps a Zeno accumulation in rows [i, j):
** it is held closed after that instant. */
static int held(const EvRow *r, long i, long j, int c)
{
    for (long k = i; k < j; k++)
        if (r[k].contact == c && (r[k].kind == 's' || r[k].kind == 'z'))
            return 1;
    return 0;
}

/* Ends the closed interval of contact c at t (if open), and those of the
** friction elements whose normal contact c is. */
static int close_contact(Plot *p, double *open, const int *normal, int c, double t, int normals)
{
    int rc = 0;
    for (int d = 0; d < p->ncontact && !rc; d++)
        if ((d == c || (normals && normal[d] == c)) && !isnan(open[d])) {
            rc = add_shade(p, d, open[d], t);
            open[d] = NAN;
        }
    return rc;
}

/* The events of one instant, rows [i, j): impact marks, and the intervals
** they open or close.  A stick at the instant another contact is struck is
** a friction element stuck by a frictional impact: that contact is its
** normal, and it stays stuck only while the normal stays closed (a disc
** bouncing off a wall does not). */
static int events_at(Plot *p, const EvRow *r, long i, long j, double *open, int *normal)
{
    int rc = 0;
    for (long k = i; k < j && !rc; k++)
        if (r[k].kind == 'i' || r[k].kind == 'z') {
            Mark m = { r[k].t, r[k].contact, r[k].kind == 'z' };
            p->marks_read++;
            rc = push((void **)&p->mark, &p->nmark, &p->mark_cap, sizeof m, &m);
        }
    for (long k = i; k < j && !rc; k++) {
        int c = r[k].contact, self;
        if (r[k].kind == 'l' || r[k].kind == 'r') {
            p->friction[c] = p->friction[c] ? p->friction[c] : FRIC_PLANAR;
            Mark m = { r[k].t, c, 1 };
            rc = push((void **)&p->fmark, &p->nfmark, &p->fmark_cap, sizeof m, &m);
        }
        if (r[k].kind == 's' || r[k].kind == 'z') {
            int other = r[k].kind == 's' ? struck_other(r, i, j, c, &self) : -1;
            if (other >= 0 && !self) {
                Mark m = { r[k].t, c, 0 };
                p->friction[c] = p->friction[c] ? p->friction[c] : FRIC_PLANAR;
                normal[c] = other;
                if ((rc = push((void **)&p->fmark, &p->nfmark, &p->fmark_cap, sizeof m, &m)))
                    break;
                if (!held(r, i, j, other))
                    continue;
            }
            if (isnan(open[c]))
                open[c] = r[k].t;
        } else if (r[k].kind == 'o' || r[k].kind == 'l')
            rc = close_contact(p, open, normal, c, r[k].t, r[k].kind == 'o');
    }
    return rc;
}

/* What the model says contact `name` is (FRIC_*): a friction element that
** sticks without ever slipping is known only this way. */
static unsigned char friction_kind(const Plot *p, const char *name)
{
    for (int k = 0; k < p->nfric; k++)
        if (!strcmp(p->fric[k].name, name))
            return p->fric[k].space ? FRIC_SPACE : FRIC_PLANAR;
    return FRIC_NONE;
}

/* Reads the event log into closed intervals and impact marks.  A missing
** file just means no events.  0, or -1 when out of memory. */
static int read_events(Plot *p, const char *path)
{
    EvRow *r = NULL;
    long n = 0;
    int rc = read_event_rows(p, path, &r, &n);
    double *open = malloc(sizeof *open * ((size_t)p->ncontact + 1));
    int *normal = malloc(sizeof *normal * ((size_t)p->ncontact + 1));
    p->friction = calloc((size_t)p->ncontact + 1, sizeof *p->friction);
    if (!open || !normal || !p->friction)
        rc = -1;
    for (int c = 0; !rc && c < p->ncontact; c++) {
        open[c] = NAN;   /* open since nothing */
        normal[c] = -1;
        p->friction[c] = friction_kind(p, p->contact[c]);
    }
    for (long i = 0, j; !rc && i < n; i = j) {
        for (j = i + 1; j < n && r[j].t == r[i].t; j++)
            ;
        rc = events_at(p, r, i, j, open, normal);
    }
    for (int c = 0; !rc && c < p->ncontact; c++)
        if (!isnan(open[c]))
            rc = add_shade(p, c, open[c], p->tmax);
    free(open);
    free(normal);
    free(r);
    return rc;
}

/* Merges marks and intervals closer than the picture can show (a bin of
** (tmax - tmin) / THIN_BINS) for contacts with more than THIN_BINS of them,
** and says so in the note. */
static void thin_events(Plot *p)
{
    double bin = (p->tmax - p->tmin) / THIN_BINS;
    long *count = calloc((size_t)p->ncontact + 1, sizeof *count);
    double *last = malloc(sizeof *last * ((size_t)p->ncontact + 1));
    if (!count || !last) {
        free(count);
        free(last);
        return;
    }
    for (long i = 0; i < p->nmark; i++)
        count[p->mark[i].contact]++;
    for (int c = 0; c < p->ncontact; c++)
        last[c] = -INFINITY;
    long kept = 0;
    for (long i = 0; i < p->nmark; i++) {
        Mark *m = &p->mark[i];
        if (count[m->contact] > THIN_BINS && !m->zeno && m->t - last[m->contact] < bin)
            continue;
        last[m->contact] = m->t;
        p->mark[kept++] = *m;
    }
    if (kept < p->nmark)
        add_note(p, "%ld of %ld impact marks drawn: impacts less than %.3g s apart on a "
                 "contact share one mark (events.csv has them all)", kept, p->nmark, bin);
    p->nmark = kept;
    memset(count, 0, sizeof *count * (size_t)p->ncontact);
    for (long i = 0; i < p->nshade; i++)
        count[p->shade[i].contact]++;
    kept = 0;
    for (long i = 0; i < p->nshade; i++) {
        Shade *s = &p->shade[i];
        Shade *prev = NULL;
        for (long j = kept - 1; j >= 0 && j >= kept - p->ncontact; j--)
            if (p->shade[j].contact == s->contact) {
                prev = &p->shade[j];
                break;
            }
        if (count[s->contact] > THIN_BINS && prev && s->t0 - prev->t1 < bin) {
            prev->t1 = s->t1;
            continue;
        }
        p->shade[kept++] = *s;
    }
    if (kept < p->nshade)
        add_note(p, "contact intervals less than %.3g s apart drawn as one", bin);
    p->nshade = kept;
    free(count);
    free(last);
}

/* Writes the first len characters of s escaped for a double-quoted
** gnuplot string: a backquote too, which gnuplot replaces, with the text
** between two, by a shell command's output (a data file named
** "`touch X`.csv" ran `touch X` when plotted), and a line end as "\n",
** which ended the command there (a name with a newline ran its next line
** as gnuplot's, `!` lines as the shell's). */
static void put_escaped(FILE *f, const char *s, size_t len)
{
    for (size_t i = 0; i < len && s[i]; i++) {
        if (s[i] == '\n' || s[i] == '\r') {
            fputs(s[i] == '\n' ? "\\n" : "\\r", f);
            continue;
        }
        if (s[i] == '"' || s[i] == '\\' || s[i] == '`')
            fputc('\\', f);
        fputc(s[i], f);
    }
}

/* Writes s into a gnuplot comment, its line ends as '?': a name with a
** newline ended the comment, and its next line ran as a command. */
static void put_comment_text(FILE *f, const char *s)
{
    for (; *s; s++)
        fputc(*s == '\n' || *s == '\r' ? '?' : *s, f);
}

/* Writes s as a double-quoted gnuplot string. */
static void put_string(FILE *f, const char *s)
{
    fputc('"', f);
    put_escaped(f, s, strlen(s));
    fputc('"', f);
}

/* Writes the parts (up to a NULL) as one double-quoted gnuplot string: a
** label made of names of any length is never cut. */
static void put_strings(FILE *f, const char *first, ...)
{
    va_list ap;
    va_start(ap, first);
    fputc('"', f);
    for (const char *s = first; s; s = va_arg(ap, const char *))
        put_escaped(f, s, strlen(s));
    fputc('"', f);
    va_end(ap);
}

/* Whether a title would not fit in one line of a picture `width` pixels wide
** (about 8.5 px a letter at the titles' size): then it is broken after the
** model's name. */
static int title_wraps(const char *title, int width)
{
    return strstr(title, ": ") && 8.5 * (double)strlen(title) > width - 40;
}

/* Writes a title as a gnuplot string, broken after the model's name ("NAME:
** TITLE" on two lines) when title_wraps says so. */
static void put_title(FILE *f, const char *title, int width)
{
    if (!title_wraps(title, width)) {
        put_string(f, title);
        return;
    }
    const char *colon = strstr(title, ": ");
    char first[256];
    snprintf(first, sizeof first, "%.*s", (int)(colon - title + 1), title);
    fputs("sprintf(\"%s\\n%s\", ", f);
    put_string(f, first);
    fputs(", ", f);
    put_string(f, colon + 2);
    fputs(")", f);
}

/* The name the script uses for a data file: its base name when it is in the
** plot directory (so the folder can be moved), else its absolute path. */
static void script_path(const char *dir, const char *file, char *out, size_t len)
{
    char *rd = realpath(dir, NULL), *rf = realpath(file, NULL);
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    if (rd && rf) {
        size_t n = strlen(rd);
        if (strncmp(rf, rd, n) == 0 && rf[n] == '/' && !strchr(rf + n + 1, '/'))
            snprintf(out, len, "%s", rf + n + 1);
        else
            snprintf(out, len, "%s", rf);
    } else
        snprintf(out, len, "%s", rf ? rf : base);
    free(rd);
    free(rf);
}

/* The settings shared by both plots. */
static void put_style(FILE *f)
{
    fputs("set datafile separator comma\n"
          "set border 3 lw 1 lc rgb '#555555'\n"
          "set tics nomirror out scale 0.6 textcolor rgb '#333333'\n"
          "set grid xtics ytics lw 1 lc rgb '#e4e4e4'\n"
          "set key at screen 0.84, graph 1 left top Left reverse noautotitle nobox samplen 2.5 spacing 1.15\n"
          "set style fill transparent solid 0.18 noborder\n",
          f);
}

/* The map of the trajectory's columns: where each is drawn, or why not. */
static void put_column_map(FILE *f, const Plot *p)
{
    fputs("# Columns of ", f);
    put_comment_text(f, p->data);
    fputs(" (column 1 is t):\n", f);
    for (int i = 0; i < p->ncol; i++) {
        const Column *c = &p->col[i];
        char label[96] = "";
        if (c->panel >= 0)
            panel_label(p, c->panel, label, sizeof label);
        fprintf(f, "#   column %d: %s%s%s%s -> %s%s%s\n", i + 2, c->name, *c->unit ? " [" : "",
                c->unit, *c->unit ? "]" : "", c->panel >= 0 ? "panel " : "not drawn: ",
                c->panel >= 0 ? "" : "too many kinds of output and units",
                c->panel >= 0 ? label : "");
    }
    if (p->note[0])
        fprintf(f, "# Note: %s\n", p->note);
}

/* Shaded contact intervals and impact lines behind every panel (few
** contacts and impacts; else the timeline panel shows them). */
static void put_events_behind(FILE *f, const Plot *p)
{
    int obj = 1;
    if (p->timeline)
        return;
    for (long i = 0; i < p->nshade; i++) {
        const Shade *s = &p->shade[i];
        fprintf(f, "set object %d rect from %.17g, graph 0 to %.17g, graph 1 behind "
                "fc rgb '%s' fs transparent solid 0.16 noborder\n",
                obj++, s->t0, s->t1, contact_colors[s->contact % NCONTACT_COLORS]);
    }
    for (long i = 0; i < p->nmark; i++) {
        const Mark *m = &p->mark[i];
        fprintf(f, "set arrow from %.17g, graph 0 to %.17g, graph 1 nohead back "
                "lw %s dt %s lc rgb '%s'\n",
                m->t, m->t, m->zeno ? "2" : "1", m->zeno ? "1" : "'- '",
                contact_colors[m->contact % NCONTACT_COLORS]);
    }
}

/* Legend entries of the shading and the impact lines (keyentry, gnuplot >= 5.2.6). */
static void put_event_keys(FILE *f, const Plot *p)
{
    if (p->timeline)
        return;
    for (int c = 0; c < p->ncontact; c++) {
        int shaded = 0, marked = 0;
        for (long i = 0; i < p->nshade; i++)
            shaded |= p->shade[i].contact == c;
        for (long i = 0; i < p->nmark; i++)
            marked |= p->mark[i].contact == c;
        const char *col = contact_colors[c % NCONTACT_COLORS];
        if (shaded) {
            fprintf(f, ", \\\n     keyentry with boxes fc rgb '%s' fs transparent solid 0.3 title ", col);
            put_strings(f, p->contact[c], p->friction[c] == FRIC_SPACE ? " rolling (no slip)"
                        : p->friction[c] ? " stuck" : " in contact", (const char *)NULL);
        }
        if (marked) {
            fprintf(f, ", \\\n     keyentry with lines dt '- ' lw 1.5 lc rgb '%s' title ", col);
            put_strings(f, p->contact[c], " impact", (const char *)NULL);
        }
    }
}

/* The colour of line i of n in a panel of many: a gradient from dark blue
** through teal to orange, so that neighbours in a family look alike. */
static void gradient(int i, int n, char *buf, size_t len)
{
    static const double stops[3][3] = { { 0.15, 0.20, 0.55 }, { 0.10, 0.60, 0.55 },
                                        { 0.95, 0.55, 0.10 } };
    double u = n > 1 ? (double)i / (n - 1) : 0, w = u * 2;
    int k = w >= 1 ? 1 : 0;
    double s = w - k, rgb[3];
    for (int j = 0; j < 3; j++)
        rgb[j] = stops[k][j] + (stops[k + 1][j] - stops[k][j]) * s;
    snprintf(buf, len, "#%02x%02x%02x", (int)(rgb[0] * 255 + 0.5), (int)(rgb[1] * 255 + 0.5),
             (int)(rgb[2] * 255 + 0.5));
}

/* The moving surfaces whose body's position is drawn in panel k, each as
** BODY.x - GAP.gap / coef (where the body would touch it), dashed grey. */
static void put_surfaces(FILE *f, const Plot *p, int k)
{
    for (int s = 0; s < p->nsurf && s < MAX_SURFACES; s++) {
        int x = p->surf_x[s], g = p->surf_g[s];
        if (x < 0 || g < 0 || p->col[x].panel != k || !(p->surf[s].coef != 0))
            continue;
        fputs(", \\\n     ", f);
        put_string(f, p->data);
        fprintf(f, " skip 1 using 1:(column(%d) - column(%d) / %.17g) with lines lw 1.6 dt '-' "
                "lc rgb '#555555' title ", x + 2, g + 2, p->surf[s].coef);
        put_strings(f, p->surf[s].gap, " (surface)", (const char *)NULL);
    }
}

/* The lines of panel k: one legend entry each when few, else the first and
** the last named and the others counted. */
static void put_panel_lines(FILE *f, const Plot *p, int k)
{
    int n = 0, j = 0;
    for (int i = 0; i < p->ncol; i++)
        n += p->col[i].panel == k;
    for (int i = 0; i < p->ncol; i++) {
        if (p->col[i].panel != k)
            continue;
        char color[16];
        if (n <= FEW_LINES)
            snprintf(color, sizeof color, "%s", line_colors[j % NLINE_COLORS]);
        else
            gradient(j, n, color, sizeof color);
        fprintf(f, "%s", j ? ", \\\n     " : "");
        put_string(f, p->data);
        fprintf(f, " skip 1 using 1:%d with lines lw %s lc rgb '%s' ", i + 2,
                n <= FEW_LINES ? "1.8" : "1.2", color);
        if (n <= FEW_LINES || j == 0 || j == n - 1) {
            fputs("title ", f);
            put_string(f, p->col[i].name);
        } else
            fputs("notitle", f);
        j++;
    }
    put_surfaces(f, p, k);
    if (n > FEW_LINES) {
        char t[300];
        snprintf(t, sizeof t, "(%d lines in order)", n);
        fputs(", \\\n     keyentry with lines lc rgb '#ffffff' title ", f);
        put_string(f, t);
    }
}

/* The timeline panel: one row per contact, a bar while it is closed, a
** tick at each impact, a triangle at each Zeno jump. */
static void put_timeline(FILE *f, const Plot *p)
{
    fputs("$closed << EOD\n", f);
    for (long i = 0; i < p->nshade; i++) {
        const Shade *s = &p->shade[i];
        unsigned rgb = (unsigned)strtoul((p->friction[s->contact] ? STUCK_COLOR : CLOSED_COLOR) + 1,
                                         NULL, 16);
        fprintf(f, "%.17g,%.17g,%d,%u\n", s->t0, s->t1, p->ncontact - s->contact, rgb);
    }
    fputs("EOD\n$impacts << EOD\n", f);
    for (long i = 0; i < p->nmark; i++)
        if (!p->mark[i].zeno)
            fprintf(f, "%.17g,%d\n", p->mark[i].t, p->ncontact - p->mark[i].contact);
    fputs("EOD\n$friction << EOD\n", f);
    for (long i = 0; i < p->nfmark; i++)
        fprintf(f, "%.17g,%d,%d\n", p->fmark[i].t, p->ncontact - p->fmark[i].contact,
                p->fmark[i].zeno ? 6 : 7);
    fputs("EOD\n$zeno << EOD\n", f);
    for (long i = 0; i < p->nmark; i++)
        if (p->mark[i].zeno)
            fprintf(f, "%.17g,%d\n", p->mark[i].t, p->ncontact - p->mark[i].contact);
    fputs("EOD\n", f);
}

/* Draws the timeline panel (after put_timeline's data blocks). */
static void put_timeline_plot(FILE *f, const Plot *p)
{
    int step = p->ncontact > 24 ? (p->ncontact + 23) / 24 : 1;
    fprintf(f, "set yrange [0.4:%g]\nset offsets 0, 0, 0, 0\nset ylabel 'contact'\n",
            p->ncontact + 0.6);
    fputs("set ytics (", f);
    for (int c = 0; c < p->ncontact; c++) {
        if (c % step != 0)
            continue;
        fprintf(f, "%s", c ? ", " : "");
        put_string(f, p->contact[c]);
        fprintf(f, " %d", p->ncontact - c);
    }
    fputs(") font ',8'\nset grid noytics\n", f);
    fprintf(f, "set key at screen 0.84, graph 1 left top\n");
    long nimp = 0, nzeno = 0;
    for (long i = 0; i < p->nmark; i++)
        nzeno += p->mark[i].zeno, nimp += !p->mark[i].zeno;
    const char *sep = "plot ";
    int closed = 0, stuck = 0, rolling = 0;
    for (long i = 0; i < p->nshade; i++) {
        int kind = p->friction[p->shade[i].contact];
        stuck |= kind == FRIC_PLANAR;
        rolling |= kind == FRIC_SPACE;
        closed |= kind == FRIC_NONE;
    }
    if (p->nshade) {
        fprintf(f, "%s$closed using 1:3:($2-$1):(0):4 with vectors nohead lw %g lc rgb variable "
                "notitle", sep, p->ncontact > 40 ? 2.0 : 5.0);
        sep = ", \\\n     ";
    }
    if (closed)
        fprintf(f, "%skeyentry with lines lw 5 lc rgb '%s' title 'closed'", sep, CLOSED_COLOR);
    if (stuck)
        fprintf(f, "%skeyentry with lines lw 5 lc rgb '%s' title 'stuck (friction)'", sep,
                STUCK_COLOR);
    if (rolling)
        fprintf(f, "%skeyentry with lines lw 5 lc rgb '%s' title 'rolling, no slip (friction)'",
                sep, STUCK_COLOR);
    if (nimp) {
        fprintf(f, "%s$impacts using 1:($2-0.38):(0):(0.76) with vectors nohead lw 1 "
                "lc rgb '#b22222' title 'impact'", sep);
        sep = ", \\\n     ";
    }
    if (nzeno) {
        fprintf(f, "%s$zeno using 1:2 with points pt 9 ps 1.2 lc rgb '#222222' title 'Zeno jump'",
                sep);
        sep = ", \\\n     ";
    }
    int fstick = 0, fslip = 0;
    for (long i = 0; i < p->nfmark; i++)
        fslip |= p->fmark[i].zeno, fstick |= !p->fmark[i].zeno;
    if (p->nfmark)
        fprintf(f, "%s$friction using 1:2:3 with points pt variable ps 1.1 lc rgb '%s' notitle",
                sep, STUCK_COLOR);
    if (fstick)
        fprintf(f, ", \\\n     keyentry with points pt 7 ps 1.1 lc rgb '%s' title 'stick'",
                STUCK_COLOR);
    if (fslip)
        fprintf(f, ", \\\n     keyentry with points pt 6 ps 1.1 lc rgb '%s' title 'slip'",
                STUCK_COLOR);
    fputs("\n", f);
    fputs("set autoscale y\nset ytics autofreq font ''\nset grid ytics\n", f);
}

/* Height in pixels of the timeline panel. */
static double timeline_height(const Plot *p)
{
    double h = 40.0 + 14.0 * p->ncontact;
    return h < 120 ? 120 : h > 520 ? 520 : h;
}

/* Room left of the first sample when an impact or a friction event comes
** then (a struck chain at t = 0): 1.5 % of the time span, so that its mark
** is not hidden in the axis; else 0. */
static double left_room(const Plot *p)
{
    double span = p->tmax - p->tmin, eps = 1e-9 * span;
    for (long i = 0; i < p->nmark; i++)
        if (p->mark[i].t <= p->tmin + eps)
            return 0.015 * span;
    for (long i = 0; i < p->nfmark; i++)
        if (p->fmark[i].t <= p->tmin + eps)
            return 0.015 * span;
    return 0;
}

/* One stacked time plot for the current terminal.  height: pixels. */
static void put_time_plot(FILE *f, const Plot *p, int height)
{
    double top = 58.0 + (title_wraps(p->title, 1000) ? 22 : 0), bottom = p->note[0] ? 70.0 : 52.0;
    double th = p->timeline ? timeline_height(p) : 0;
    double h = (height - top - bottom - th) / p->npanel;
    fputs("set multiplot title ", f);
    put_title(f, p->title, 1000);
    fputs(" font ',13'\n", f);
    fprintf(f, "set lmargin at screen 0.11\nset rmargin at screen 0.82\n");
    fputs("set offsets 0, 0, graph 0.06, graph 0.06\n", f);
    fprintf(f, "set xrange [%.17g:%.17g]\n", p->tmin - left_room(p), p->tmax);
    if (p->note[0]) {
        fputs("set label 99 ", f);
        char t[NOTE_LEN + 16];
        snprintf(t, sizeof t, "Note: %s", p->note);
        put_string(f, t);
        fputs(" at screen 0.01, screen 0.012 left font ',8' textcolor rgb '#666666'\n", f);
    }
    for (int k = 0; k < p->npanel; k++) {
        char label[96];
        panel_label(p, k, label, sizeof label);
        fprintf(f, "set tmargin at screen %.5f\nset bmargin at screen %.5f\n",
                1 - (top + k * h + 9) / height, 1 - (top + (k + 1) * h - 9) / height);
        fputs("set ylabel ", f);
        put_string(f, label);
        fputs("\n", f);
        if (k == p->npanel - 1 && !p->timeline)
            fputs("set format x '%g'\nset xlabel 'time [s]'\n", f);
        else
            fputs("set format x ''\nunset xlabel\n", f);
        fputs("plot ", f);
        put_panel_lines(f, p, k);
        if (k == 0)
            put_event_keys(f, p);
        fputs("\n", f);
        if (k == 0)
            fputs("unset label 99\n", f);
    }
    if (p->timeline) {
        double y0 = top + p->npanel * h;
        fprintf(f, "set tmargin at screen %.5f\nset bmargin at screen %.5f\n",
                1 - (y0 + 9) / height, 1 - (y0 + th - 9) / height);
        fputs("set format x '%g'\nset xlabel 'time [s]'\n", f);
        put_timeline_plot(f, p);
    }
    fputs("unset multiplot\n", f);
}

/* The phase portraits' grid: cells of cellw x cell px (one body: wider than
** high, so that its title fits), margins in pixels for the axes' labels. */
typedef struct PhaseGrid {
    int cols, rows, cell, cellw, hgap, top, w, h;
} PhaseGrid;

enum { PHASE_LEFT = 90, PHASE_RIGHT = 30, PHASE_BOTTOM = 60, PHASE_VGAP = 80 };

/* Lays out the phase portraits' grid for the bodies of p. */
static void phase_grid(const Plot *p, PhaseGrid *g)
{
    if (p->nbody > PHASE_GRID) {
        *g = (PhaseGrid){ 1, 1, 560, 560, 0, 60, 900, 700 };
        g->top += title_wraps(p->title, g->w) ? 22 : 0;
        return;
    }
    g->cols = p->nbody <= 4 ? p->nbody : p->nbody <= 9 ? 3 : 5;
    g->rows = (p->nbody + g->cols - 1) / g->cols;
    g->cell = g->cols <= 4 ? 420 : 300;
    g->cellw = g->cols == 1 ? 520 : g->cell;
    g->hgap = g->cols >= 5 ? 70 : 90;
    g->w = PHASE_LEFT + PHASE_RIGHT + g->cols * g->cellw + (g->cols - 1) * g->hgap;
    g->top = 50 + (title_wraps(p->title, g->w) ? 22 : 0);
    g->h = g->top + PHASE_BOTTOM + g->rows * g->cell + (g->rows - 1) * PHASE_VGAP;
}

/* Phase portraits v(x): one square panel per body in a grid, or, for more
** than PHASE_GRID bodies, all of them in one panel coloured in order. */
static void put_phase_plot(FILE *f, const Plot *p, const PhaseGrid *g)
{
    int cols = g->cols;
    fputs("set multiplot title ", f);
    put_title(f, p->title, g->w);
    if (p->nbody > PHASE_GRID)
        fprintf(f, " font ',13' layout 1,1 margins 0.10,0.80,0.10,%.4f\n",
                1 - (double)g->top / g->h);
    else
        fprintf(f, " font ',13' layout %d,%d margins %.4f,%.4f,%.4f,%.4f spacing %.4f,%.4f\n",
                g->rows, cols, (double)PHASE_LEFT / g->w, 1 - (double)PHASE_RIGHT / g->w,
                (double)PHASE_BOTTOM / g->h, 1 - (double)g->top / g->h, (double)g->hgap / g->w,
                (double)PHASE_VGAP / g->h);
    fputs("set autoscale x\nset autoscale y\nset offsets 0, 0, 0, 0\nset format x '%g'\n"
          "unset object\nunset arrow\nunset label\n", f);
    if (cols >= 5 && p->nbody <= PHASE_GRID)
        fputs("set tics font ',8'\nset format x '%.2g'\nset format y '%.2g'\n", f);
    else
        fputs("set format y '%g'\n", f);
    if (p->nbody > PHASE_GRID) {
        const Column *x = &p->col[p->body_x[0]], *v = &p->col[p->body_v[0]];
        char label[160];
        snprintf(label, sizeof label, "position [%s]", x->unit);
        fputs("set xlabel ", f);
        put_string(f, label);
        snprintf(label, sizeof label, "velocity [%s]", v->unit);
        fputs("\nset ylabel ", f);
        put_string(f, label);
        fputs("\nset key at screen 0.82, graph 1 left top\nplot ", f);
        for (int b = 0; b < p->nbody; b++) {
            char color[16];
            gradient(b, p->nbody, color, sizeof color);
            fprintf(f, "%s", b ? ", \\\n     " : "");
            put_string(f, p->data);
            fprintf(f, " skip 1 using %d:%d with lines lw 1 lc rgb '%s' ", p->body_x[b] + 2,
                    p->body_v[b] + 2, color);
            if (b == 0 || b == p->nbody - 1) {
                fputs("title ", f);
                put_string(f, p->col[p->body_x[b]].name);
            } else
                fputs("notitle", f);
        }
        fputs("\nunset multiplot\n", f);
        return;
    }
    fputs("unset key\n", f);
    for (int b = 0; b < p->nbody; b++) {
        const Column *x = &p->col[p->body_x[b]], *v = &p->col[p->body_v[b]];
        fputs("set xlabel ", f);
        put_strings(f, x->name, " [", x->unit, "]", (const char *)NULL);
        fputs("\nset ylabel ", f);
        put_strings(f, v->name, " [", v->unit, "]", (const char *)NULL);
        fputs("\nplot ", f);
        put_string(f, p->data);
        fprintf(f, " skip 1 using %d:%d with lines lw 1.4 lc rgb '%s', \\\n     ",
                p->body_x[b] + 2, p->body_v[b] + 2, line_colors[b % NLINE_COLORS]);
        put_string(f, p->data);
        fprintf(f, " skip 1 every ::0::0 using %d:%d with points pt 7 ps 1.2 lc rgb '#222222'\n",
                p->body_x[b] + 2, p->body_v[b] + 2);
    }
    fputs("unset multiplot\nset tics font ''\nset format y '%g'\n", f);
}

/* The path picture: y against x of every planar body at true scale, its
** start and end marked, with the walls drawn as lines (each a wall's line
** n . (x, y) = c; the centre's path keeps a radius off it). */
static void put_path_plot(FILE *f, const Plot *p)
{
    fputs("unset multiplot\nunset object\nunset arrow\nunset label\n"
          "set lmargin\nset rmargin\nset tmargin\nset bmargin\n"
          "set key default\nset key inside top right box opaque noautotitle\n"
          "set size ratio -1\nset offsets 0, 0, 0, 0\nset format x '%g'\nset format y '%g'\n"
          "set xlabel 'x [m]'\nset ylabel 'y [m]'\nset title ", f);
    put_string(f, p->title);
    fputs("\n", f);
    double pad = 0;
    for (int w = 0; w < p->nwalls; w++)
        pad = fmax(pad, 1.5 * p->walls[w].r);
    /* the range of every path, from the data, with room for the radius */
    fputs("set autoscale\nxlo = 1e300; xhi = -1e300; ylo = 1e300; yhi = -1e300\n", f);
    for (int b = 0; b < p->npath; b++) {
        fputs("stats ", f);
        put_string(f, p->data);
        fprintf(f, " skip 1 using %d:%d nooutput\n", p->path_x[b] + 2, p->path_y[b] + 2);
        fputs("xlo = (STATS_min_x < xlo) ? STATS_min_x : xlo; "
              "xhi = (STATS_max_x > xhi) ? STATS_max_x : xhi\n"
              "ylo = (STATS_min_y < ylo) ? STATS_min_y : ylo; "
              "yhi = (STATS_max_y > yhi) ? STATS_max_y : yhi\n", f);
    }
    fprintf(f, "pad = %.17g + 0.08 * ((xhi - xlo > yhi - ylo) ? xhi - xlo : yhi - ylo) + 1e-9\n"
               "set xrange [xlo - pad:xhi + pad]\nset yrange [ylo - pad:yhi + pad]\n", pad);
    for (int w = 0; w < p->nwalls; w++) {
        const PlotWall *wl = &p->walls[w];
        if (fabs(wl->ny) > 1e-12)
            continue;
        fprintf(f, "set arrow from first %.17g, graph 0 to first %.17g, graph 1 nohead lw 2.5 "
                "lc rgb '#555555'\n", wl->c / wl->nx, wl->c / wl->nx);
    }
    fputs("plot ", f);
    int first = 1;
    for (int w = 0; w < p->nwalls; w++) {
        const PlotWall *wl = &p->walls[w];
        if (fabs(wl->ny) <= 1e-12)
            continue;
        fprintf(f, "%s(%.17g - %.17g * x) / %.17g with lines lw 2.5 lc rgb '#555555' title ",
                first ? "" : ", \\\n     ", wl->c, wl->nx, wl->ny);
        put_string(f, wl->name);
        first = 0;
    }
    for (int b = 0; b < p->npath; b++) {
        int x = p->path_x[b] + 2, y = p->path_y[b] + 2;
        const char *xn = p->col[p->path_x[b]].name;
        size_t stem = strlen(xn) - 2;          /* the body's name, "D" of "D.x", whole */
        const char *color = line_colors[b % NLINE_COLORS];
        fprintf(f, "%s", first ? "" : ", \\\n     ");
        put_string(f, p->data);
        fprintf(f, " skip 1 using %d:%d with lines lw 1.4 lc rgb '%s' title ", x, y, color);
        fputc('"', f);
        put_escaped(f, xn, stem);
        fputc('"', f);
        fputs(", \\\n     ", f);
        put_string(f, p->data);
        fprintf(f, " skip 1 every ::0::0 using %d:%d with points pt 7 ps 1.2 lc rgb '#222222' "
                "notitle", x, y);
        double r = 0;
        for (int w = 0; w < p->nwalls; w++)
            if (strlen(p->walls[w].body) == stem && !strncmp(p->walls[w].body, xn, stem))
                r = p->walls[w].r;
        if (r > 0) {
            /* the disc itself where it starts */
            fputs(", \\\n     ", f);
            put_string(f, p->data);
            fprintf(f, " skip 1 every ::0::0 using %d:%d:(%.17g) with circles lc rgb '%s' "
                    "notitle", x, y, r, color);
        }
        first = 0;
    }
    fputs("\nset size noratio\nunset title\nunset arrow\nset autoscale\n", f);
}

/* Sets a terminal and its output file. */
static void put_terminal(FILE *f, int svg, int width, int height, const char *out)
{
    if (svg)
        fprintf(f, "set terminal svg size %d,%d dynamic noenhanced font 'DejaVu Sans,11' "
                "background rgb 'white'\n", width, height);
    else
        fprintf(f, "set terminal pngcairo size %d,%d noenhanced font 'DejaVu Sans,10' "
                "background rgb 'white'\n", width, height);
    fprintf(f, "set output '%s'.suffix\n", out);
}

/* Writes DIR/plot.gp.  Returns PLOT_OK, or PLOT_EFAIL with no script left
** (the part written before a full disk or a file-size limit removed). */
static int write_script(const Plot *p, int flags, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return fail(err, errlen, PLOT_EFAIL, "cannot write '%s': %s", path, strerror(errno));
    int height = (int)(110 + 210 * p->npanel + (p->timeline ? timeline_height(p) : 0) +
                       (title_wraps(p->title, 1000) ? 22 : 0));
    fputs("# Plots of a simulation written by nsm; rerun with `gnuplot plot.gp` in this folder.\n", f);
    if (p->timeline)
        fputs("# Bottom panel: one row per contact; bars: closed, ticks: impacts.\n", f);
    else
        fputs("# Shaded: intervals where a contact is closed.  Dashed lines: impacts.\n", f);
    put_column_map(f, p);
    /* the figures are drawn into NAME.suffix, renamed into place once whole */
    fputs("if (!exists('suffix')) suffix = ''\n", f);
    put_style(f);
    if (p->timeline)
        put_timeline(f, p);
    put_events_behind(f, p);
    for (int svg = 0; svg <= 1; svg++) {
        if (!(flags & (svg ? PLOT_SVG : PLOT_PNG)))
            continue;
        put_terminal(f, svg, 1000, height, svg ? "plot.svg" : "plot.png");
        put_time_plot(f, p, height);
    }
    if ((flags & PLOT_PHASE) && p->nbody > 0) {
        PhaseGrid g;
        phase_grid(p, &g);
        for (int svg = 0; svg <= 1; svg++) {
            if (!(flags & (svg ? PLOT_SVG : PLOT_PNG)))
                continue;
            put_terminal(f, svg, g.w, g.h, svg ? "phase.svg" : "phase.png");
            put_phase_plot(f, p, &g);
        }
    }
    if (p->npath > 0) {
        for (int svg = 0; svg <= 1; svg++) {
            if (!(flags & (svg ? PLOT_SVG : PLOT_PNG)))
                continue;
            put_terminal(f, svg, 900, 800, svg ? "path.svg" : "path.png");
            put_path_plot(f, p);
        }
    }
    fputs("set output\n", f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        int e = errno ? errno : EIO;
        unlink(path);   /* a script cut at a file-size limit was left behind */
        return fail(err, errlen, PLOT_EFAIL, "cannot write '%s': %s", path, strerror(e));
    }
    return PLOT_OK;
}

/* Whether an executable named prog is on PATH. */
static int on_path(const char *prog)
{
    const char *path = getenv("PATH");
    char buf[4096];
    if (!path || !*path)
        path = "/usr/bin:/bin";
    while (*path) {
        const char *e = strchr(path, ':');
        size_t n = e ? (size_t)(e - path) : strlen(path);
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, n ? path : ".", prog);
        if (access(buf, X_OK) == 0)
            return 1;
        path += n + (e != NULL);
    }
    return 0;
}

/* The last non-empty line of a log file, for an error message. */
static void last_line(const char *path, char *out, size_t len)
{
    FILE *f = fopen(path, "r");
    char line[512];
    out[0] = '\0';
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[strspn(line, " \t^")])
            snprintf(out, len, "%s", line);
    }
    fclose(f);
}

/* The program's stop flag that plot_gnuplot watches, NULL if none. */
static volatile sig_atomic_t *plot_stop;

/* The gnuplot child drawing now, 0 if none (for plot_child_kill). */
static volatile pid_t plot_child;

/* Kill the gnuplot child drawing now, if any (see plot.h). */
void plot_child_kill(void)
{
    pid_t pid = plot_child;
    if (pid > 0)
        kill(pid, SIGKILL);
}

/* Watch flag while gnuplot draws (see plot.h). */
void plot_stop_watch(volatile sig_atomic_t *flag)
{
    plot_stop = flag;
}

/* Waits for the gnuplot child pid, its wait status into *status (-1 with
** errno when it cannot be waited for).  The child is polled, every 0.25 ms
** at first and then every 2 ms, so that a stop request (the handlers
** restart an interrupted wait, SA_RESTART) is seen within 2 ms: gnuplot is
** then killed and reaped, and 1 returned; else 0.  The pause stays short
** because the caller waits it out after gnuplot has ended: a pause grown
** to 32 ms added up to 32 ms to every sweep's wall time, against a few
** microseconds of CPU for each wake-up. */
static int gnuplot_wait(pid_t pid, int *status)
{
    long pause_ns = 250000;
    for (;;) {
        pid_t w = waitpid(pid, status, WNOHANG);
        if (w == pid)
            return 0;
        if (w < 0 && errno != EINTR) {
            *status = -1;
            return 0;
        }
        if (plot_stop && *plot_stop > 0) {
            kill(pid, SIGKILL);
            while (waitpid(pid, status, 0) < 0 && errno == EINTR) {
            }
            return 1;
        }
        struct timespec pause = { 0, pause_ns };
        nanosleep(&pause, NULL);
        if (pause_ns < 2000000)
            pause_ns *= 2;
    }
}

/* The folder gnuplot was last started in, held open (plot_gnuplot), and
** its name: the figures' temporaries are checked, renamed and removed
** through it (plot_at), so that a folder moved away while gnuplot drew
** keeps none of them (they were looked for by name, in the file or folder
** put in its place, and left in the moved folder). */
static int plot_dfd = -1;
static char plot_dname[4096];

/* Holds dir open for the figures gnuplot is about to draw there (the
** earlier folder's handle closed); -1 when it cannot be opened. */
static int plot_dir_hold(const char *dir)
{
    if (plot_dfd >= 0)
        close(plot_dfd);
    plot_dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    snprintf(plot_dname, sizeof plot_dname, "%s", plot_dfd >= 0 ? dir : "");
    return plot_dfd;
}

/* Where name in dir is reached: the held folder's handle and name itself
** when dir is the folder gnuplot drew in (plot_dir_hold), else AT_FDCWD
** and dir/name in buf (see plot.h). */
int plot_at(const char *dir, const char *name, char *buf, size_t len, const char **rel)
{
    if (plot_dfd >= 0 && !strcmp(dir, plot_dname)) {
        *rel = name;
        return plot_dfd;
    }
    snprintf(buf, len, "%s/%s", dir, name);
    *rel = buf;
    return AT_FDCWD;
}

/* Runs gnuplot on a script in dir (see plot.h): `gnuplot [-e SETUP] SCRIPT`
** in dir, its output going to dir/LOG, so that an animation and the plots
** share one way of calling it.  The folder is held open (plot_dir_hold)
** and gnuplot started in it through that handle. */
int plot_gnuplot(const char *dir, const char *script, const char *setup, const char *log,
                 char *err, size_t errlen)
{
    char logpath[4096];
    snprintf(logpath, sizeof logpath, "%s/%s", dir, log);
    int dfd = plot_dir_hold(dir);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return fail(err, errlen, PLOT_EFAIL, "cannot start gnuplot: %s", strerror(errno));
    if (pid == 0) {
        if (dfd < 0 ? chdir(dir) != 0 : fchdir(dfd) != 0)
            _exit(126);
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int null = open("/dev/null", O_RDONLY);
        if (fd < 0 || null < 0)
            _exit(126);
        dup2(null, 0);
        dup2(fd, 1);
        dup2(fd, 2);
        if (setup)
            execlp("gnuplot", "gnuplot", "-e", setup, script, (char *)NULL);
        else
            execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    int status;
    plot_child = pid;
    int stopped = gnuplot_wait(pid, &status);
    plot_child = 0;
    if (stopped)
        return fail(err, errlen, PLOT_ESTOP, "stopped while gnuplot drew in %s", dir);
    if (status < 0)
        return fail(err, errlen, PLOT_EFAIL, "waiting for gnuplot: %s", strerror(errno));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return PLOT_OK;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        return fail(err, errlen, PLOT_EFAIL, "gnuplot failed on %s/%s (gnuplot is not installed)",
                    dir, script);
    char msg[512];
    last_line(logpath, msg, sizeof msg);
    return fail(err, errlen, PLOT_EFAIL, "gnuplot failed on %s/%s%s%s (see %s)", dir, script,
                *msg ? ": " : "", msg, logpath);
}

/* Whether the figure at path ends as its format ends: a PNG with its IEND
** chunk, an SVG with </svg>, a GIF with its trailer byte; the format is
** the one the name carries (".png" anywhere in it: gnuplot draws into
** temporaries such as NAME.png.tmpPID), other names are taken as whole.
** gnuplot's terminals do not check their writes: under a file-size limit
** or on a full disk they leave a file cut short and exit 0.  1 whole, 0
** cut short (its size in *size), -1 unreadable. */
static int figure_whole(int at, const char *path, long long *size)
{
    static const unsigned char iend[8] = { 'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82 };
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strstr(base, ".png") ? ".png" : strstr(base, ".svg") ? ".svg"
                    : strstr(base, ".gif") ? ".gif" : NULL;
    int fd = openat(at, path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    *size = (long long)st.st_size;
    unsigned char tail[64];
    off_t from = st.st_size > (off_t)sizeof tail ? st.st_size - (off_t)sizeof tail : 0;
    ssize_t n = pread(fd, tail, sizeof tail, from);
    close(fd);
    if (n < 0)
        return -1;
    if (dot && !strcmp(dot, ".png"))
        return n >= 8 && !memcmp(tail + n - 8, iend, 8);
    if (dot && !strcmp(dot, ".gif"))
        return n >= 1 && tail[n - 1] == 0x3B;
    if (dot && !strcmp(dot, ".svg")) {
        while (n > 0 && (tail[n - 1] == '\n' || tail[n - 1] == ' ' || tail[n - 1] == '\r'))
            n--;
        return n >= 6 && !memcmp(tail + n - 6, "</svg>", 6);
    }
    return 1;
}

/* Why a file of size bytes in dir was cut short, as far as can be told:
** the file-size limit, a full disk, or neither known. */
static void cut_reason(const char *dir, long long size, char *buf, size_t len)
{
    struct rlimit rl;
    struct statvfs vfs;
    if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        size >= (long long)rl.rlim_cur)
        snprintf(buf, len, "the file-size limit (ulimit -f) of %lld byte%s",
                 (long long)rl.rlim_cur, rl.rlim_cur == 1 ? "" : "s");
    else if (statvfs(dir, &vfs) == 0 && vfs.f_bavail == 0)
        snprintf(buf, len, "the disk is full");
    else
        snprintf(buf, len, "a full disk or a file-size limit?");
}

/* Checks the figures gnuplot drew (see plot.h): any of names[0..n) in dir
** that is cut short fails the plot, and every one of them is removed, so
** that no half-written figure is left or renamed into place.  The first,
** which every script draws, must be there: a gnuplot that ended well
** without drawing it would leave the figures announced and absent. */
int plot_figures_check(const char *dir, const char *const *names, int n, char *err,
                       size_t errlen)
{
    char path[4200], buf[4200], bad[4200] = "", why[160] = "";
    const char *rel;
    for (int k = 0; k < n && !*bad; k++) {
        long long size = 0;
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        int at = plot_at(dir, names[k], buf, sizeof buf, &rel);
        int whole = figure_whole(at, rel, &size);
        if (k == 0 && whole < 0 && errno == ENOENT) {
            for (int j = 1; j < n; j++) {
                at = plot_at(dir, names[j], buf, sizeof buf, &rel);
                unlinkat(at, rel, 0);
            }
            return fail(err, errlen, PLOT_EFAIL, "gnuplot ended without an error but did not "
                        "draw %s (see its log in %s)", path, dir);
        }
        if (whole == 0) {
            snprintf(bad, sizeof bad, "%s", path);
            cut_reason(dir, size, why, sizeof why);
            snprintf(why + strlen(why), sizeof why - strlen(why), "; %lld byte%s written", size,
                     size == 1 ? "" : "s");
        }
    }
    if (!*bad)
        return PLOT_OK;
    for (int k = 0; k < n; k++) {
        int at = plot_at(dir, names[k], buf, sizeof buf, &rel);
        unlinkat(at, rel, 0);
    }
    return fail(err, errlen, PLOT_EFAIL, "gnuplot could not write %s whole (%s)", bad, why);
}

/* A figure that is a symbolic link to an existing file is replaced
** through the link (its target rewritten, the link kept), as `nsmc -o`
** and a sweep's results are: to (the figure's path) becomes the target's
** path and 1 is returned; 0 when the figure, name reached from at
** (plot_at), is not such a link. */
static int link_into(int at, const char *name, char *to, size_t len)
{
    struct stat st;
    char *real;
    if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISLNK(st.st_mode) ||
        !(real = realpath(to, NULL)))
        return 0;
    int fits = strlen(real) < len;
    if (fits)
        memcpy(to, real, strlen(real) + 1);
    free(real);
    return fits;
}

/* The process id in name when it is prefix, then digits, then suffix
** (NAME.tmpPID: prefix "NAME.tmp", suffix ""), or 0.  The digits are a
** process id as a program writes its own (no leading 0, within pid_t):
** the user's `.anim-0123.gif` and `.anim-2147483648.gif` were removed as
** a killed run's. */
static long pid_between(const char *name, const char *prefix, size_t plen,
                        const char *suffix)
{
    if (strncmp(name, prefix, plen) != 0)
        return 0;
    const char *digits = name + plen;
    char *end;
    errno = 0;
    long pid = strtol(digits, &end, 10);
    if (*digits < '1' || *digits > '9' || errno || pid <= 0 || (long)(pid_t)pid != pid ||
        strcmp(end, suffix) != 0)
        return 0;
    return pid;
}

/* What a stale temporary looks like: the figures' NAME.tmpPID (fin), or
** one pattern PREFIXpidSUFFIX (prefix not NULL). */
typedef struct {
    const char *const *fin;
    int n;
    const char *prefix, *suffix;
} Stale;

/* The process id of name when it is one of st's temporaries, or 0. */
static long stale_pid(const char *name, const Stale *st)
{
    if (st->prefix)
        return pid_between(name, st->prefix, strlen(st->prefix), st->suffix);
    for (int k = 0; k < st->n; k++) {
        size_t len = strlen(st->fin[k]);
        if (strncmp(name, st->fin[k], len) != 0)
            continue;
        long pid = pid_between(name + len, ".tmp", 4, "");
        if (pid > 0)
            return pid;
    }
    return 0;
}

/* Removes st's temporaries in dir whose process has ended: a kill while
** gnuplot drew, or while a sweep or a continuation wrote its results,
** left them there for ever (a process that is alive, or another user's,
** is left alone, as is anything but a regular file of ours; a name of
** another pattern is never touched). */
static void stale_clear(const char *dir, const Stale *st)
{
    char buf[4300];
    const char *rel;
    int at = plot_at(dir, ".", buf, sizeof buf, &rel);
    int fd = openat(at, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        long pid = stale_pid(e->d_name, st);
        struct stat fs;
        if (pid <= 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        /* a temporary is a file of ours: a link, a folder or another
         * user's file of that name is left (a link was removed) */
        if (fstatat(dirfd(d), e->d_name, &fs, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(fs.st_mode) || fs.st_uid != geteuid())
            continue;
        unlinkat(dirfd(d), e->d_name, 0);
    }
    closedir(d);
}

/* Removes the temporaries NAME.tmpPID of the files fin[0..n) in dir
** whose process has ended (see plot.h). */
void plot_stale_clear(const char *dir, const char *const *fin, int n)
{
    Stale st = { fin, n, NULL, NULL };
    stale_clear(dir, &st);
}

/* Removes the temporaries PREFIXpidSUFFIX in dir whose process has ended
** (see plot.h). */
void plot_stale_clear_pattern(const char *dir, const char *prefix, const char *suffix)
{
    Stale st = { NULL, 0, prefix, suffix };
    stale_clear(dir, &st);
}

/* Places the figures drawn into temporaries (see plot.h): the one way
** the simulator, `nsmc run`, sweeps and continuations put them in place. */
int plot_figures_place(const char *dir, const char *const *tmp, const char *const *fin, int n,
                       int ok, char *err, size_t errlen)
{
    int rc = PLOT_OK;
    plot_stale_clear(dir, fin, n);
    for (int k = 0; k < n; k++) {
        char fbuf[4300], tbuf[4300], to[4300];
        const char *from, *into;
        int fat = plot_at(dir, tmp[k], fbuf, sizeof fbuf, &from);
        int tat = plot_at(dir, fin[k], tbuf, sizeof tbuf, &into);
        snprintf(to, sizeof to, "%s/%s", dir, fin[k]);
        if (link_into(tat, into, to, sizeof to)) {
            tat = AT_FDCWD;     /* a link's target, by its path */
            into = to;
        }
        if (!ok || rc != PLOT_OK) {
            unlinkat(fat, from, 0);
            continue;
        }
        if (renameat(fat, from, tat, into) != 0 && errno != ENOENT) {
            rc = fail(err, errlen, PLOT_EFAIL, "cannot write '%s': %s", to, strerror(errno));
            unlinkat(fat, from, 0);
        }
    }
    return rc;
}

/* The figures not drawn for want of gnuplot (see plot.h): the one rule of
** the simulator, `nsmc run`, sweeps and continuations. */
int plot_without_gnuplot(const char *dir, const char *script, const char *const *fin, int n,
                         char *err, size_t errlen)
{
    char removed[600] = "", path[4300];
    size_t len = 0;
    for (int k = 0; k < n; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, fin[k]);
        if (unlink(path) == 0 && len < sizeof removed)
            len += (size_t)snprintf(removed + len, sizeof removed - len, "%s%s",
                                    len ? ", " : "", fin[k]);
    }
    return fail(err, errlen, PLOT_NOGNUPLOT,
                "gnuplot is not installed, so the figures were not drawn (the script is %s/%s; "
                "on Debian: apt-get install gnuplot-nox)%s%s%s", dir, script,
                *removed ? "; the earlier figures " : "", removed,
                *removed ? ", which did not show these results, were removed" : "");
}

/* Whether gnuplot is on PATH (see plot.h). */
int plot_have_gnuplot(void)
{
    return on_path("gnuplot");
}

/* The figures plot.gp draws. */
#define NPLOT_FIGURES 6
static const char *const plot_figures[NPLOT_FIGURES] = { "plot.png", "plot.svg", "phase.png",
                                                         "phase.svg", "path.png", "path.svg" };

/* Runs gnuplot on DIR/plot.gp into temporaries NAME.tmpPID, checks them
** and renames them over the figures (plot_figures_place): a kill while
** gnuplot draws leaves no empty or half figure.  PLOT_OK or PLOT_EFAIL. */
static int draw_figures(const char *dir, char *err, size_t errlen)
{
    const char *const *figures = plot_figures;
    enum { NFIG = NPLOT_FIGURES };
    char tmp[NFIG][64], setup[64];
    const char *tmps[NFIG];
    snprintf(setup, sizeof setup, "suffix='.tmp%ld'", (long)getpid());
    for (int k = 0; k < NFIG; k++) {
        snprintf(tmp[k], sizeof tmp[k], "%s.tmp%ld", figures[k], (long)getpid());
        tmps[k] = tmp[k];
    }
    int rc = plot_gnuplot(dir, "plot.gp", setup, "plot.log", err, errlen);
    if (rc == PLOT_OK)
        rc = plot_figures_check(dir, tmps, NFIG, err, errlen);
    int placed = plot_figures_place(dir, tmps, figures, NFIG, rc == PLOT_OK, err, errlen);
    return rc == PLOT_OK ? placed : rc;
}

/* Frees a plot and what it holds. */
static void plot_free(Plot *p)
{
    for (int i = 0; p->col && i < p->ncol; i++)
        free(p->col[i].name);
    for (int c = 0; c < p->ncontact; c++)
        free(p->contact[c]);
    free(p->col);
    free(p->contact);
    free(p->friction);
    free(p->shade);
    free(p->mark);
    free(p->fmark);
    free(p->body_x);
    free(p->body_v);
    free(p->path_x);
    free(p->path_y);
    free(p);
}

/* Plots a trajectory and its events; see plot.h. */
int plot_draw(const char *dir, const char *traj_csv, const char *events_csv, const char *title,
              int flags, char *err, size_t errlen)
{
    return plot_draw_walls(dir, traj_csv, events_csv, title, flags, NULL, 0, err, errlen);
}

/* plot_draw with the walls of a planar model; see plot.h. */
int plot_draw_walls(const char *dir, const char *traj_csv, const char *events_csv,
                    const char *title, int flags, const PlotWall *walls, int nwalls, char *err,
                    size_t errlen)
{
    PlotScene scene = { walls, walls ? nwalls : 0, NULL, 0, NULL, 0 };
    return plot_draw_scene(dir, traj_csv, events_csv, title, flags, &scene, err, errlen);
}

/* Finds the columns of each moving surface (BODY.x and GAP.gap), or says in
** the note why one is not drawn. */
static void find_surfaces(Plot *p)
{
    for (int k = 0; k < p->nsurf && k < MAX_SURFACES; k++) {
        const PlotSurface *sf = &p->surf[k];
        p->surf_x[k] = find_column(p, sf->body, strlen(sf->body), ".x");
        p->surf_g[k] = find_column(p, sf->gap, strlen(sf->gap), ".gap");
        if (p->surf_x[k] < 0 || p->surf_g[k] < 0 || p->col[p->surf_x[k]].panel < 0 ||
            !(sf->coef != 0))
            add_note(p, "the moving surface of %s is drawn when %s.x and %s.gap are outputs",
                     sf->gap, sf->body, sf->gap);
    }
}

/* A plot with walls and moving surfaces; see plot.h. */
int plot_draw_scene(const char *dir, const char *traj_csv, const char *events_csv,
                    const char *title, int flags, const PlotScene *scene, char *err,
                    size_t errlen)
{
    const PlotWall *walls = scene ? scene->walls : NULL;
    int nwalls = scene && walls ? scene->nwalls : 0;
    char script[4096];
    if (!(flags & (PLOT_PNG | PLOT_SVG)))
        flags |= PLOT_PNG | PLOT_SVG;
    if (err && errlen)
        err[0] = '\0';
    Plot *p = calloc(1, sizeof *p);
    if (!p)
        return fail(err, errlen, PLOT_EFAIL, "out of memory");
    snprintf(p->title, sizeof p->title, "%s", title ? title : "");
    p->walls = walls;
    p->nwalls = walls ? nwalls : 0;
    p->fric = scene && scene->frictions ? scene->frictions : NULL;
    p->nfric = p->fric ? scene->nfrictions : 0;
    p->surf = scene && scene->surfaces ? scene->surfaces : NULL;
    p->nsurf = p->surf ? scene->nsurfaces : 0;
    int rc = plot_unreadable(traj_csv, "trajectory", err, errlen);
    if (rc == PLOT_OK)
        rc = plot_unreadable(events_csv, "event log", err, errlen);
    if (rc == PLOT_OK && events_csv && access(events_csv, F_OK) != 0)
        rc = fail(err, errlen, PLOT_EFAIL, "cannot read '%s': %s", events_csv,
                  strerror(errno));   /* removed mid-run: figures without events, exit 0 */
    if (rc == PLOT_OK)
        rc = read_trajectory(p, traj_csv, err, errlen);
    if (rc == PLOT_OK) {
        assign_panels(p);
        find_surfaces(p);
        if (find_bodies(p) || read_events(p, events_csv))
            rc = fail(err, errlen, PLOT_EFAIL, "out of memory");
    }
    if (rc == PLOT_OK) {
        thin_events(p);
        p->timeline = p->ncontact > 0 && (p->ncontact > FEW_CONTACTS || p->nmark > FEW_MARKS);
        script_path(dir, traj_csv, p->data, sizeof p->data);
        snprintf(script, sizeof script, "%s/plot.gp", dir);
        rc = write_script(p, flags, script, err, errlen);
    }
    if (rc == PLOT_OK && !plot_have_gnuplot())
        rc = plot_without_gnuplot(dir, "plot.gp", plot_figures, NPLOT_FIGURES, err, errlen);
    if (rc == PLOT_OK)
        rc = draw_figures(dir, err, errlen);
    if (rc == PLOT_OK && err && errlen)
        snprintf(err, errlen, "%s", p->note);
    plot_free(p);
    return rc;
}
