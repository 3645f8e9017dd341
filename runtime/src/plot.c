/*
** plot.c: plots of a trajectory and its events with gnuplot (see plot.h).
**
** The C side only reads the CSV header, the time range and the event log;
** gnuplot reads the samples itself.  The script is written out in full so
** that the user can edit and rerun it.
*/
#define _XOPEN_SOURCE 700   /* realpath */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include "plot.h"

enum {
    MAX_COLS = 64,      /* trajectory columns read */
    MAX_PANELS = 6,     /* stacked panels of the time plot */
    MAX_CONTACTS = 32,  /* contacts with their own colour */
    MAX_SHADES = 400,   /* contact intervals shaded */
    MAX_MARKS = 400,    /* impacts marked */
    MAX_BODIES = 4,     /* phase portraits */
    NAME_LEN = 96
};

/* Panel kinds, in the order the panels are stacked. */
enum { K_X, K_V, K_A, K_GAP, K_FORCE, K_ENERGY, K_ERROR, K_OTHER };

typedef struct Column {
    char name[NAME_LEN], unit[32];
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
    const char *dir;
    char data[4096], events[4096];    /* file names as the script writes them */
    char title[256];
    Column col[MAX_COLS];
    int ncol, npanel;
    int panel_kind[MAX_PANELS];
    char panel_unit[MAX_PANELS][32];
    double tmin, tmax;
    char contact[MAX_CONTACTS][NAME_LEN];
    int ncontact;
    Shade shade[MAX_SHADES];
    int nshade;
    Mark mark[MAX_MARKS];
    int nmark, dropped_marks;
    int body_x[MAX_BODIES], body_v[MAX_BODIES], nbody;
} Plot;

static const char *const line_colors[] = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"
};
static const char *const contact_colors[] = {
    "#4c9be8", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#9c755f"
};
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

/* Copies at most n-1 bytes of s[0..len) into d, NUL-terminated. */
static void copy_span(char *d, size_t n, const char *s, size_t len)
{
    if (len >= n)
        len = n - 1;
    memcpy(d, s, len);
    d[len] = '\0';
}

/* Whether name ends with "." suffix. */
static int has_suffix(const char *name, const char *suffix)
{
    size_t n = strlen(name), k = strlen(suffix);
    return n > k + 1 && name[n - k - 1] == '.' && strcmp(name + n - k, suffix) == 0;
}

/* The panel kind of an output column, from its name. */
static int column_kind(const char *name)
{
    if (strcmp(name, "energy.error") == 0)
        return K_ERROR;
    if (strncmp(name, "energy.", 7) == 0)
        return K_ENERGY;
    if (has_suffix(name, "x"))
        return K_X;
    if (has_suffix(name, "v"))
        return K_V;
    if (has_suffix(name, "a"))
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
        "position", "velocity", "acceleration", "gap", "contact force", "energy",
        "energy error", ""
    };
    const char *u = p->panel_unit[k];
    if (p->panel_kind[k] == K_OTHER)
        snprintf(buf, len, "[%s]", *u ? u : "-");
    else if (*u)
        snprintf(buf, len, "%s [%s]", names[p->panel_kind[k]], u);
    else
        snprintf(buf, len, "%s", names[p->panel_kind[k]]);
}

/* Splits one header field "NAME [UNIT]" into a column. */
static void parse_header_field(Column *c, const char *s, size_t len)
{
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\r' || s[len - 1] == '\n'))
        len--;
    const char *open = memchr(s, '[', len);
    c->unit[0] = '\0';
    if (open && s[len - 1] == ']') {
        copy_span(c->unit, sizeof c->unit, open + 1, (size_t)(s + len - 1 - (open + 1)));
        len = (size_t)(open - s);
        while (len && s[len - 1] == ' ')
            len--;
    }
    copy_span(c->name, sizeof c->name, s, len);
}

/* Assigns every column to a panel: one per (kind, unit), stacked by kind.
** Columns beyond MAX_PANELS panels are left out (panel -1). */
static void assign_panels(Plot *p)
{
    for (int kind = K_X; kind <= K_OTHER; kind++)
        for (int i = 0; i < p->ncol; i++) {
            Column *c = &p->col[i];
            if (c->kind != kind || c->panel >= 0)
                continue;
            int k = 0;
            while (k < p->npanel && !(p->panel_kind[k] == kind && !strcmp(p->panel_unit[k], c->unit)))
                k++;
            if (k == p->npanel) {
                if (p->npanel == MAX_PANELS)
                    continue;
                p->panel_kind[k] = kind;
                snprintf(p->panel_unit[k], sizeof p->panel_unit[k], "%s", c->unit);
                p->npanel++;
            }
            c->panel = k;
        }
}

/* Pairs each body's position and velocity columns for the phase portraits. */
static void find_bodies(Plot *p)
{
    for (int i = 0; i < p->ncol && p->nbody < MAX_BODIES; i++) {
        const char *xn = p->col[i].name;
        if (p->col[i].kind != K_X)
            continue;
        size_t stem = strlen(xn) - 1;
        for (int j = 0; j < p->ncol; j++)
            if (p->col[j].kind == K_V && strlen(p->col[j].name) == stem + 1 &&
                strncmp(p->col[j].name, xn, stem) == 0) {
                p->body_x[p->nbody] = i;
                p->body_v[p->nbody++] = j;
                break;
            }
    }
}

/* Reads the header, the first and the last time of the trajectory.
** Returns PLOT_OK, PLOT_NOTHING or PLOT_EFAIL. */
static int read_trajectory(Plot *p, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    char line[8192];
    if (!f)
        return fail(err, errlen, PLOT_EFAIL, "cannot read '%s': %s", path, strerror(errno));
    if (!fgets(line, sizeof line, f)) {
        fclose(f);
        return fail(err, errlen, PLOT_NOTHING, "the trajectory '%s' is empty", path);
    }
    const char *s = strchr(line, ',');
    while (s && p->ncol < MAX_COLS) {
        const char *e = strchr(s + 1, ',');
        size_t len = e ? (size_t)(e - s - 1) : strlen(s + 1);
        Column *c = &p->col[p->ncol++];
        parse_header_field(c, s + 1, len);
        c->kind = column_kind(c->name);
        c->panel = -1;
        s = e;
    }
    if (p->ncol == 0) {
        fclose(f);
        return fail(err, errlen, PLOT_NOTHING,
                    "the model has no output columns to plot (add an `output` statement)");
    }
    if (!fgets(line, sizeof line, f) || sscanf(line, "%lf", &p->tmin) != 1) {
        fclose(f);
        return fail(err, errlen, PLOT_NOTHING, "the trajectory has no samples to plot");
    }
    /* the last line: read the file's tail */
    long back = 8192;
    if (fseek(f, 0, SEEK_END) == 0) {
        long size = ftell(f);
        fseek(f, size > back ? size - back : 0, SEEK_SET);
    }
    p->tmax = p->tmin;
    while (fgets(line, sizeof line, f)) {
        double t;
        if (sscanf(line, "%lf,", &t) == 1 && strchr(line, '\n'))
            p->tmax = t;
    }
    fclose(f);
    if (!(p->tmax > p->tmin))
        return fail(err, errlen, PLOT_NOTHING,
                    "the trajectory covers no time interval (one sample), nothing to plot");
    return PLOT_OK;
}

/* Index of a contact name, added if new (the last colour is shared beyond
** MAX_CONTACTS). */
static int contact_index(Plot *p, const char *name)
{
    for (int i = 0; i < p->ncontact; i++)
        if (strcmp(p->contact[i], name) == 0)
            return i;
    if (p->ncontact == MAX_CONTACTS)
        return MAX_CONTACTS - 1;
    snprintf(p->contact[p->ncontact], NAME_LEN, "%s", name);
    return p->ncontact++;
}

/* Adds a shaded interval of a closed contact. */
static void add_shade(Plot *p, int c, double t0, double t1)
{
    if (p->nshade < MAX_SHADES && t1 > t0)
        p->shade[p->nshade++] = (Shade){t0, t1, c};
}

/* Reads the event log into shaded contact intervals and impact marks.  A
** missing file just means no events. */
static void read_events(Plot *p, const char *path)
{
    FILE *f = path ? fopen(path, "r") : NULL;
    char line[1024];
    double open[MAX_CONTACTS];
    for (int i = 0; i < MAX_CONTACTS; i++)
        open[i] = NAN;
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        char kind[32], name[NAME_LEN];
        double t;
        if (sscanf(line, "%lf,%31[^,],%95[^,]", &t, kind, name) != 3)
            continue;   /* the header */
        if (!strcmp(kind, "time"))
            continue;
        int c = contact_index(p, name);
        if (!strcmp(kind, "impact") || !strcmp(kind, "zeno")) {
            if (p->nmark < MAX_MARKS)
                p->mark[p->nmark++] = (Mark){t, c, kind[0] == 'z'};
            else
                p->dropped_marks++;
        }
        if (!strcmp(kind, "stick") || !strcmp(kind, "contact_enter") || !strcmp(kind, "zeno")) {
            if (isnan(open[c]))
                open[c] = t;
        } else if (!strcmp(kind, "separation") || !strcmp(kind, "contact_exit")) {
            if (!isnan(open[c]))
                add_shade(p, c, open[c], t);
            open[c] = NAN;
        }
    }
    fclose(f);
    for (int c = 0; c < p->ncontact; c++)
        if (!isnan(open[c]))
            add_shade(p, c, open[c], p->tmax);
}

/* Writes s as a double-quoted gnuplot string. */
static void put_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc(*s, f);
    }
    fputc('"', f);
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

/* Shaded contact intervals and impact lines, drawn behind every panel. */
static void put_events(FILE *f, const Plot *p)
{
    int obj = 1;
    for (int i = 0; i < p->nshade; i++) {
        const Shade *s = &p->shade[i];
        fprintf(f, "set object %d rect from %.17g, graph 0 to %.17g, graph 1 behind "
                "fc rgb '%s' fs transparent solid 0.16 noborder\n",
                obj++, s->t0, s->t1, contact_colors[s->contact % NCONTACT_COLORS]);
    }
    /* many impacts: short ticks along the top instead of full-height lines */
    const char *from = p->nmark > 100 ? "0.94" : "0";
    for (int i = 0; i < p->nmark; i++) {
        const Mark *m = &p->mark[i];
        fprintf(f, "set arrow from %.17g, graph %s to %.17g, graph 1 nohead back "
                "lw %s dt %s lc rgb '%s'\n",
                m->t, from, m->t, m->zeno ? "2" : "1", m->zeno ? "1" : "'- '",
                contact_colors[m->contact % NCONTACT_COLORS]);
    }
}

/* Legend entries of the shading and the impact lines (keyentry, gnuplot >= 5.2.6). */
static void put_event_keys(FILE *f, const Plot *p)
{
    for (int c = 0; c < p->ncontact; c++) {
        int shaded = 0, marked = 0;
        for (int i = 0; i < p->nshade; i++)
            shaded |= p->shade[i].contact == c;
        for (int i = 0; i < p->nmark; i++)
            marked |= p->mark[i].contact == c;
        const char *col = contact_colors[c % NCONTACT_COLORS];
        if (shaded) {
            fprintf(f, ", \\\n     keyentry with boxes fc rgb '%s' fs transparent solid 0.3 title ", col);
            char t[NAME_LEN + 16];
            snprintf(t, sizeof t, "%s in contact", p->contact[c]);
            put_string(f, t);
        }
        if (marked) {
            fprintf(f, ", \\\n     keyentry with lines dt '- ' lw 1.5 lc rgb '%s' title ", col);
            char t[NAME_LEN + 16];
            snprintf(t, sizeof t, "%s impact", p->contact[c]);
            put_string(f, t);
        }
    }
}

/* One stacked time plot for the current terminal.  height: pixels. */
static void put_time_plot(FILE *f, const Plot *p, int height)
{
    const double top = 58.0, bottom = 52.0, h = (height - top - bottom) / p->npanel;
    fputs("set multiplot title ", f);
    put_string(f, p->title);
    fputs(" font ',13'\n", f);
    fprintf(f, "set lmargin at screen 0.11\nset rmargin at screen 0.82\n");
    fputs("set offsets 0, 0, graph 0.06, graph 0.06\n", f);
    fprintf(f, "set xrange [%.17g:%.17g]\n", p->tmin, p->tmax);
    for (int k = 0; k < p->npanel; k++) {
        char label[96];
        panel_label(p, k, label, sizeof label);
        fprintf(f, "set tmargin at screen %.5f\nset bmargin at screen %.5f\n",
                1 - (top + k * h + 9) / height, 1 - (top + (k + 1) * h - 9) / height);
        fputs("set ylabel ", f);
        put_string(f, label);
        fputs("\n", f);
        if (k == p->npanel - 1)
            fputs("set format x '%g'\nset xlabel 'time [s]'\n", f);
        else
            fputs("set format x ''\nunset xlabel\n", f);
        fputs("plot ", f);
        int first = 1, color = 0;
        for (int i = 0; i < p->ncol; i++) {
            if (p->col[i].panel != k)
                continue;
            fprintf(f, "%s", first ? "" : ", \\\n     ");
            put_string(f, p->data);
            fprintf(f, " skip 1 using 1:%d with lines lw 1.8 lc rgb '%s' title ", i + 2,
                    line_colors[color++ % NLINE_COLORS]);
            put_string(f, p->col[i].name);
            first = 0;
        }
        if (k == 0)
            put_event_keys(f, p);
        fputs("\n", f);
    }
    fputs("unset multiplot\n", f);
}

/* Phase portraits v(x), one square panel per body, for the current terminal. */
static void put_phase_plot(FILE *f, const Plot *p)
{
    fputs("set multiplot title ", f);
    put_string(f, p->title);
    fprintf(f, " font ',13' layout 1,%d margins 0.08,0.98,0.14,0.86 spacing 0.08,0\n", p->nbody);
    fputs("set autoscale x\nset offsets 0, 0, 0, 0\nset format x '%g'\nunset key\n", f);
    for (int b = 0; b < p->nbody; b++) {
        const Column *x = &p->col[p->body_x[b]], *v = &p->col[p->body_v[b]];
        char label[160];
        snprintf(label, sizeof label, "%s [%s]", x->name, x->unit);
        fputs("set xlabel ", f);
        put_string(f, label);
        snprintf(label, sizeof label, "%s [%s]", v->name, v->unit);
        fputs("\nset ylabel ", f);
        put_string(f, label);
        fputs("\nplot ", f);
        put_string(f, p->data);
        fprintf(f, " skip 1 using %d:%d with lines lw 1.4 lc rgb '%s', \\\n     ",
                p->body_x[b] + 2, p->body_v[b] + 2, line_colors[b % NLINE_COLORS]);
        put_string(f, p->data);
        fprintf(f, " skip 1 every ::0::0 using %d:%d with points pt 7 ps 1.2 lc rgb '#222222'\n",
                p->body_x[b] + 2, p->body_v[b] + 2);
    }
    fputs("unset multiplot\n", f);
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
    fprintf(f, "set output '%s'\n", out);
}

/* Writes DIR/plot.gp.  Returns PLOT_OK or PLOT_EFAIL. */
static int write_script(const Plot *p, int flags, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return fail(err, errlen, PLOT_EFAIL, "cannot write '%s': %s", path, strerror(errno));
    int height = 110 + 210 * p->npanel;
    fputs("# Plots of a simulation written by nsmc; rerun with `gnuplot plot.gp` in this folder.\n"
          "# Shaded: intervals where a contact is closed.  Dashed lines: impacts.\n", f);
    put_style(f);
    put_events(f, p);
    for (int svg = 0; svg <= 1; svg++) {
        if (!(flags & (svg ? PLOT_SVG : PLOT_PNG)))
            continue;
        put_terminal(f, svg, 1000, height, svg ? "plot.svg" : "plot.png");
        put_time_plot(f, p, height);
    }
    if ((flags & PLOT_PHASE) && p->nbody > 0) {
        fputs("unset object\nunset arrow\n", f);
        for (int svg = 0; svg <= 1; svg++) {
            if (!(flags & (svg ? PLOT_SVG : PLOT_PNG)))
                continue;
            put_terminal(f, svg, 80 + 420 * p->nbody, 480, svg ? "phase.svg" : "phase.png");
            put_phase_plot(f, p);
        }
    }
    fputs("set output\n", f);
    if (fclose(f) != 0)
        return fail(err, errlen, PLOT_EFAIL, "cannot write '%s': %s", path, strerror(errno));
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

/* Runs `gnuplot plot.gp` in dir, its output going to dir/plot.log. */
static int run_gnuplot(const char *dir, char *err, size_t errlen)
{
    char log[4096];
    snprintf(log, sizeof log, "%s/plot.log", dir);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return fail(err, errlen, PLOT_EFAIL, "cannot start gnuplot: %s", strerror(errno));
    if (pid == 0) {
        if (chdir(dir) != 0)
            _exit(126);
        int fd = open("plot.log", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int null = open("/dev/null", O_RDONLY);
        if (fd < 0 || null < 0)
            _exit(126);
        dup2(null, 0);
        dup2(fd, 1);
        dup2(fd, 2);
        execlp("gnuplot", "gnuplot", "plot.gp", (char *)NULL);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return fail(err, errlen, PLOT_EFAIL, "waiting for gnuplot: %s", strerror(errno));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return PLOT_OK;
    char msg[512];
    last_line(log, msg, sizeof msg);
    return fail(err, errlen, PLOT_EFAIL, "gnuplot failed on %s/plot.gp%s%s (see %s)", dir,
                *msg ? ": " : "", msg, log);
}

/* Plots a trajectory and its events; see plot.h. */
int plot_draw(const char *dir, const char *traj_csv, const char *events_csv, const char *title,
             int flags, char *err, size_t errlen)
{
    char script[4096];
    if (!(flags & (PLOT_PNG | PLOT_SVG)))
        flags |= PLOT_PNG | PLOT_SVG;
    Plot *p = calloc(1, sizeof *p);
    if (!p)
        return fail(err, errlen, PLOT_EFAIL, "out of memory");
    p->dir = dir;
    snprintf(p->title, sizeof p->title, "%s", title ? title : "");
    int rc = read_trajectory(p, traj_csv, err, errlen);
    if (rc == PLOT_OK) {
        assign_panels(p);
        find_bodies(p);
        read_events(p, events_csv);
        script_path(dir, traj_csv, p->data, sizeof p->data);
        snprintf(script, sizeof script, "%s/plot.gp", dir);
        rc = write_script(p, flags, script, err, errlen);
    }
    if (rc == PLOT_OK && !on_path("gnuplot"))
        rc = fail(err, errlen, PLOT_NOGNUPLOT,
                  "gnuplot is not installed, so no plot was drawn (the script is %s/plot.gp; "
                  "on Debian: apt-get install gnuplot-nox)", dir);
    if (rc == PLOT_OK)
        rc = run_gnuplot(dir, err, errlen);
    free(p);
    return rc;
}
