/*
** contprog.c: nsm_continue_main, the continuation program `nsmc continue`
** builds for a model (its generated C with this main), on the C API's
** nsm_sim_continue (continuation.c).
**
**     nsmc continue FILE.nsm --param NAME=FROM:TO --out-dir DIR
**          [--period EXPR] [--periods K] [--ds S] [--ds-min S] [--ds-max S]
**          [--max-points N] [--tol X] [--transient N] [--start V,V,...]
**          [--set NAME=VALUE]... [--plot COLUMN] [--no-plot] [-q]
**          [--switch-pd] [--curve fold|flip|grazing --param2 NAME=FROM:TO]
**
** Output in DIR, each written to a temporary and renamed into place:
**   branch.csv            one line per point of the branch: the parameter,
**                         the point's type (start, regular, fold, flip, ns,
**                         grazing), stability, the section state, period,
**                         impacts per period, smallest gap and impact speed,
**                         dp/ds, and each multiplier's modulus, real and
**                         imaginary parts
**   continuation.gp, .png, .svg  gnuplot: a state column against the
**                         parameter, stable solid, unstable dashed, the
**                         special points marked
** and the special points on stdout.  With --curve, the curve of fold,
** period-doubling or grazing points in (NAME, NAME2) instead: curve.csv
** (the branch's columns with NAME2 after NAME) and curve.gp/.png/.svg
** (NAME2 against NAME).  Exit status: 0 ok, 1 bad arguments or
** model, 3 the continuation failed (no orbit at the start, or stopped).
*/
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nsm/model.h"
#include "nsm/nsm.h"
#include "cli.h"
#include "coords.h"
#include "outdir.h"
#include "plot.h"
#include "setfile.h"

/* The program's settings and output. */
typedef struct Prog {
    const nsm_model *m;
    const char *prog, *out_dir, *plot_col;
    nsm_cont_options o;
    int quiet, plot;
    CliText csv;
    int nspecial;
    long npoints;
    char pname2[128];
    int part_fd;            /* DIR/branch.csv.partial, open from the first point, or -1 */
    size_t part_n;          /* the bytes of csv written there */
    int part_made;          /* whether this continuation made it (-2 above: a write failed) */
    int cap_given;          /* --max-points was given */
    struct stat dir_id;     /* the out-dir locked (outdir_id_take) */
} Prog;

/* Whether the continuation's stop inside its range fails the run (exit
** 3): its creeping on ever shorter steps, or the point cap when it is the
** default one; a --max-points given is the caller's own limit, said in a
** note. */
static int cont_short_failed(const Prog *g, const nsm_sim *sim)
{
    int why = nsm_sim_continue_short(sim);
    return why == NSM_CONT_SHORT_CREEP || (why == NSM_CONT_SHORT_CAP && !g->cap_given);
}

/* The usage text. */
static void prog_usage(const char *prog, FILE *f)
{
    fprintf(f, "usage: %s FILE.nsm --param NAME=FROM:TO --out-dir DIR\n"
               "         [--period EXPR] [--periods K] [--ds S] [--ds-min S] [--ds-max S]\n"
               "         [--max-points N] [--tol X] [--transient N] [--start V,V,...]\n"
               "         [--set NAME=VALUE]... [--plot COLUMN] [--no-plot] [-q]\n"
               "         [--switch-pd] [--curve fold|flip|grazing --param2 NAME2=FROM:TO]\n"
               "Pseudo-arclength continuation of the periodic orbit of K forcing periods\n"
               "(EXPR, default 2*pi/omega) from NAME = FROM toward TO, stable and unstable,\n"
               "with its folds, period doublings, Neimark-Sacker points and grazings located\n"
               "(docs/studies.md, \"Continuation\").  DIR receives branch.csv and\n"
               "continuation.gp/.png/.svg.  --switch-pd: at the first period doubling the\n"
               "branch goes on along the doubled orbit.  --curve: the curve of the branch's\n"
               "first fold, period-doubling or grazing point in (NAME, NAME2), from NAME2 =\n"
               "FROM toward TO, into curve.csv and curve.gp/.png/.svg.\n", prog);
}

/* Names of enum nsm_cont_kind in branch.csv and on stdout. */
static const char *const kind_names[] = { "regular", "start", "fold", "flip", "ns", "grazing",
                                          "switch" };

/* A parameter's unit ("" when it has none). */
static const char *param_unit(const nsm_model *m, const char *name)
{
    for (int k = 0; k < m->n_params; k++)
        if (!strcmp(m->params[k].name, name))
            return m->params[k].unit;
    return "";
}

/* A parameter's column head and axis label: "NAME [UNIT]", or NAME
** without a unit; written into buf[len], returned. */
static const char *param_label(const nsm_model *m, const char *name, char *buf, size_t len)
{
    const char *unit = param_unit(m, name);
    snprintf(buf, len, *unit ? "%s [%s]" : "%s", name, unit);
    return buf;
}

/* The header of branch.csv. */
static void csv_header(Prog *g)
{
    const nsm_model *m = g->m;
    char label[200];
    cli_printf(&g->csv, "%s", param_label(m, g->o.param, label, sizeof label));
    if (g->o.curve)
        cli_printf(&g->csv, ",%s", param_label(m, g->o.param2, label, sizeof label));
    cli_printf(&g->csv, ",point,stable");
    for (int q = 0; q < 2 * m->n_bodies; q++) {
        const char *u = "";
        char *name = coords_name(m, q, &u);
        cli_printf(&g->csv, ",%s [%s]", name ? name : "?", u);
        free(name);
    }
    cli_printf(&g->csv, ",period [s],impacts,min_gap,min_speed,dpds");
    for (int q = 0; q < 2 * m->n_bodies; q++)
        cli_printf(&g->csv, ",mu%d_abs,mu%d_re,mu%d_im", q + 1, q + 1, q + 1);
    cli_printf(&g->csv, "\n");
}

static void cont_keep_prev(const Prog *g, const char *name);

/* The significant digits of a special point's parameter p located to tol
** on the branch over [from, to]: those down to the decade of tol or of the
** range's width, the finer (1 to 15).  `--tol 1` printed 15 digits of a
** point known to within 1, as if each were known; then the flip of the
** impact oscillator continued over [2.5, 2.8] as "omega = 3", outside the
** range, where a point on the branch is known to its width. */
static int tol_digits(double p, double tol, double from, double to)
{
    double width = fabs(to - from);
    if (width > 0 && width < tol)
        tol = width;
    if (!(fabs(p) > 0) || !(tol > 0) || !isfinite(p) || !isfinite(tol))
        return 15;
    double d = floor(log10(fabs(p))) - floor(log10(tol)) + 1;
    return d < 1 ? 1 : d > 15 ? 15 : (int)d;
}

/* Removes the results of an earlier study into the folder that this
** continuation does not write (outdir_others_remove): a sweep's section.csv
** and figures, or the curve's files beside a branch (and the reverse).
** Called once its own file is in place. */
static void others_remove(const Prog *g)
{
    const char *const curve[] = { "curve.csv", "curve." };
    const char *const branch[] = { "branch.csv", "continuation." };
    outdir_others_remove(g->prog, g->out_dir, g->o.curve ? curve : branch, 2);
}

/* The name of the partial file: branch.csv.partial or curve.csv.partial. */
static const char *partial_name(const Prog *g)
{
    return g->o.curve ? "curve.csv.partial" : "branch.csv.partial";
}

/* Appends what csv holds beyond the bytes already written to the partial
** file, opened (an earlier stop's kept as .prev) at the first point: the
** points are on disk as they come, one write per point, so that a
** continuation killed outright (SIGKILL) keeps those it computed.  A
** failed write is said once and the partial file left (the points are
** still written whole at the end). */
static void partial_append(Prog *g)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", g->out_dir, partial_name(g));
    if (g->part_fd == -2 || g->csv.err)
        return;
    /* the folder moved away before the first point, a link to another
     * folder in its place: the partial file was made by path in that
     * folder (never locked), and the end said the points were in the
     * folder the continuation started in.  None is made then: the end
     * says the points are not written. */
    if (g->part_fd < 0 && outdir_moved(g->out_dir, &g->dir_id)) {
        g->part_fd = -2;
        return;
    }
    if (g->part_fd < 0) {
        cont_keep_prev(g, partial_name(g));
        g->part_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC | O_NOFOLLOW,
                          0666);
        if (g->part_fd < 0) {
            fprintf(stderr, "%s: warning: cannot write '%s' (%s): the points are kept only when "
                    "the continuation ends or is stopped by a signal\n", g->prog, path,
                    strerror(errno));
            g->part_fd = -2;
            return;
        }
        g->part_made = 1;
    }
    size_t len = g->csv.n - g->part_n;
    ssize_t w = write(g->part_fd, g->csv.s + g->part_n, len);
    if (w == (ssize_t)len) {
        g->part_n = g->csv.n;
        return;
    }
    fprintf(stderr, "%s: warning: cannot write '%s' (%s): the points are kept only when the "
            "continuation ends or is stopped by a signal\n", g->prog, path,
            w < 0 ? strerror(errno) : "a short write");
    /* cut back to the last whole point: a short write (a file-size limit,
    ** a full disk) left half a line there */
    if (ftruncate(g->part_fd, (off_t)g->part_n) != 0)
        (void)0;        /* the reason said is the write's */
    close(g->part_fd);
    g->part_fd = -2;
}

/* Each point: a line of branch.csv (and of its partial file), the special
** ones on stdout too. */
static int on_point(void *ud, const nsm_sim *sim, const nsm_cont_point *pt)
{
    Prog *g = ud;
    (void)sim;
    g->npoints++;
    cli_printf(&g->csv, "%.17g", pt->param);
    if (g->o.curve)
        cli_printf(&g->csv, ",%.17g", pt->param2);
    cli_printf(&g->csv, ",%s,%d", kind_names[pt->kind], pt->stable);
    for (int i = 0; i < pt->n2; i++)
        cli_printf(&g->csv, ",%.17g", pt->y[i]);
    cli_printf(&g->csv, ",%.17g,%ld,%.17g,%.17g,%.17g", pt->period, pt->impacts, pt->min_gap,
                 pt->min_speed, pt->dpds);
    for (int i = 0; i < pt->n2; i++)
        cli_printf(&g->csv, ",%.17g,%.17g,%.17g", hypot(pt->mu_re[i], pt->mu_im[i]),
                     pt->mu_re[i], pt->mu_im[i]);
    cli_printf(&g->csv, "\n");
    partial_append(g);
    if (pt->kind >= NSM_CONT_FOLD && !g->o.curve) {
        g->nspecial++;
        if (!g->quiet)
            printf("%-8s %s = %.*g  (|mu|max %.6g, impacts %ld)\n", kind_names[pt->kind],
                   g->o.param, tol_digits(pt->param, g->o.tol, g->o.from, g->o.to),
                   pt->param,
                   hypot(pt->mu_re[0], pt->mu_im[0]), pt->impacts);
    }
    return g->csv.err;
}

/* The temporaries being written (file_put, the figures): the stop
** signals' handler removes them before the signal's own action ends the
** program, so that SIGINT, SIGTERM or SIGHUP at any moment leave no
** DIR/NAME.tmpPID beside the results. */
static char cont_tmp[2][4400];
static volatile sig_atomic_t cont_ntmp;

/* Register path as temporary k (0 or 1) of the ones being written. */
static void tmp_hold(int k, const char *path)
{
    snprintf(cont_tmp[k], sizeof cont_tmp[k], "%s", path);
    cont_ntmp = k + 1;
}

/* The stop signal seen while the branch is computed (the continuation
** stops before its next step and the points so far are kept), and whether
** the results are being written (a signal then ends the program at once). */
static volatile sig_atomic_t cont_stop, cont_writing;
static int file_put(const Prog *g, const char *name, const char *text, size_t len);

/* What a stop signal says while the figures are drawn (cont_writing 2): the
** results are in place by then, and a stop without a word left the user to
** guess what the folder holds (the sweep and nsmc run say it). */
static char cont_stop_note[3][600];

/* A stop signal: while the branch is computed, a request (cont_stop, read
** by the run before every step); while the results are written, or a
** second one, remove the temporaries being written, then end by the
** signal's default action (the exit status says which). */
static void on_stop(int sig)
{
    if (!cont_writing && !cont_stop) {
        cont_stop = sig;
        return;
    }
    plot_child_kill();
    for (int k = 0; k < cont_ntmp; k++)
        unlink(cont_tmp[k]);
    if (cont_writing == 2) {
        const char *note = cont_stop_note[sig == SIGINT ? 0 : sig == SIGTERM ? 1 : 2];
        if (write(STDERR_FILENO, note, strlen(note)) < 0) {
            /* stderr gone: the exit status alone says it */
        }
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* The results are in place and the figures are drawn next: a stop signal
** from now on says so (on_stop) as it ends the program. */
static int cont_drawing(const Prog *g)
{
    const char *base = g->o.curve ? "curve" : "continuation";
    static const char *const names[3] = { "SIGINT", "SIGTERM", "SIGHUP" };
    for (int k = 0; k < 3; k++)
        snprintf(cont_stop_note[k], sizeof cont_stop_note[k], "%s: stopped by %s while drawing "
                 "%s.png and .svg: the results in %.300s are whole, the figures not drawn\n",
                 g->prog, names[k], base, g->out_dir);
    cont_writing = 2;
    return 0;
}

/* Whether cont_keep_prev said where an earlier stop's points are kept (the
** end of the run then says it no more: the same note came twice). */
static int cont_prev_said;

/* A partial file of an earlier stopped continuation in the way of this
** one's: kept as NAME.prev (the one before is replaced, and that said too)
** and said, so that a second stop never replaces the first's points
** silently. */
static void cont_keep_prev(const Prog *g, const char *name)
{
    char path[4200], prev[4300];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", g->out_dir, name);
    if (lstat(path, &st) != 0)
        return;
    snprintf(prev, sizeof prev, "%s.prev", path);
    int older = lstat(prev, &st) == 0;    /* kept from a stop before: replaced, and said */
    cont_prev_said = 1;
    if (rename(path, prev) == 0)
        fprintf(stderr, "%s: note: '%s' was left by an earlier continuation that did not "
                "finish: kept as '%s'%s\n", g->prog, path, prev,
                older ? ", replacing the one kept there from a stop before it" : "");
    else
        fprintf(stderr, "%s: note: '%s' was left by an earlier continuation that did not "
                "finish and could not be kept (%s): this one replaces it\n", g->prog, path,
                strerror(errno));
}

/* A continuation stopped by signal sig: its points so far written whole to
** DIR/branch.csv.partial (curve.csv.partial), the earlier complete results
** and figures left as they were, a note; 128 + sig, or 1 when the partial
** file cannot be written. */
static int cont_stopped(Prog *g, int sig)
{
    const char *name = partial_name(g);
    const char *sn = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP";
    /* the folder moved, removed or replaced mid-run: the partial file went
     * with the folder the continuation locked; nothing is written by path
     * into what DIR names now (another folder, never locked) */
    int moved = outdir_moved(g->out_dir, &g->dir_id);
    cont_writing = 1;
    if (g->part_fd >= 0)
        close(g->part_fd);      /* written as the points came: the same bytes */
    if (!moved && !g->part_made && g->npoints && g->csv.n && !g->csv.err)
        cont_keep_prev(g, name);
    if (!moved && g->part_fd < 0 && g->npoints && g->csv.n && !g->csv.err &&
        file_put(g, name, g->csv.s, g->csv.n))
        return 1;
    if (!g->npoints)
        fprintf(stderr, "%s: interrupted by %s before the first point: nothing written\n",
                g->prog, sn);
    else if (moved)
        fprintf(stderr, "%s: interrupted by %s: '%s' was moved, removed or replaced while the "
                "continuation ran: %s%s%s\n", g->prog, sn, g->out_dir,
                g->part_fd >= 0 ? "its points are in " : "its points are not written",
                g->part_fd >= 0 ? name : "", g->part_fd >= 0 ? ", in whole lines, in the folder "
                "it started in, wherever that was moved" : "");
    else
        fprintf(stderr, "%s: interrupted by %s: %ld point%s kept in %s/%s (the earlier results "
                "and figures left as they were)\n", g->prog, sn, g->npoints,
                g->npoints == 1 ? "" : "s", g->out_dir, name);
    return 128 + sig;
}

/* file_put's write of text to tmp, renamed to path; 0 or 1 after a
** message (tmp removed). */
static int file_write(const Prog *g, const char *path, const char *tmp, const char *text,
                      size_t len)
{
    FILE *f = fopen(tmp, "w");
    if (!f)
        return cli_error(g->prog, "cannot write '%s': %s", tmp, strerror(errno));
    if (len)
        fwrite(text, 1, len, f);
    int e = ferror(f) ? errno : 0;
    if (fclose(f) != 0 && !e)
        e = errno;
    if (e || rename(tmp, path) != 0) {
        int why = e ? e : errno;
        unlink(tmp);
        return cli_error(g->prog, "cannot write '%s': %s", path, strerror(why));
    }
    return 0;
}

/* The continuation's results are written whole: its own partial file is
** removed, and an earlier stop's left beside them (kept as .prev at the
** first point when this one wrote its own, else still under its name) is
** said, so that no partial file stands beside a complete result without a
** word. */
static void partial_done(Prog *g)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", g->out_dir, partial_name(g));
    if (g->part_made) {
        if (g->part_fd >= 0)
            close(g->part_fd);
        g->part_fd = -1;
        unlink(path);
        snprintf(path, sizeof path, "%s/%s.prev", g->out_dir, partial_name(g));
    }
    struct stat st;
    if (lstat(path, &st) == 0 && !cont_prev_said)   /* once: kept as .prev was said */
        fprintf(stderr, "%s: note: '%s' was left by an earlier continuation that did not finish; "
                "this one's complete results do not replace it (remove it when it is no longer "
                "needed)\n", g->prog, path);
}

/* The points whose lines the partial file holds after a failed write cut
** it back to its last whole line (partial_append): its lines but the
** header's, 0 when this continuation did not make it. */
static long partial_points(const Prog *g)
{
    long lines = 0;
    if (!g->part_made)
        return 0;
    for (size_t i = 0; i < g->part_n; i++)
        lines += g->csv.s[i] == '\n';
    return lines > 0 ? lines - 1 : 0;
}

/* The complete branch.csv (curve.csv) could not be written (said
** already): where the points are, which the message did not say (the
** partial file holds them when every point was written to it, the first
** of them when a write to it failed: a file-size limit or a full disk cut
** it back to whole lines, and the message said that none could be kept),
** and the exit status, 1 unless the continuation had failed (3).  The
** summary line "N points ... in DIR/branch.csv" is not printed then. */
static int partial_kept_said(const Prog *g, int status)
{
    long kept = partial_points(g);
    if (g->part_fd >= 0)
        fprintf(stderr, "%s: the %ld point%s of this continuation %s kept in %s/%s, in whole "
                "lines (no figure drawn)\n", g->prog, g->npoints, g->npoints == 1 ? "" : "s",
                g->npoints == 1 ? "is" : "are", g->out_dir, partial_name(g));
    else if (kept > 0)
        fprintf(stderr, "%s: the first %ld of the %ld points of this continuation %s kept in "
                "%s/%s, in whole lines; the other %ld could not be written there either (see "
                "above; no figure drawn)\n", g->prog, kept, g->npoints, kept == 1 ? "is" : "are",
                g->out_dir, partial_name(g), g->npoints - kept);
    else
        fprintf(stderr, "%s: the %ld point%s of this continuation could not be kept: %s/%s "
                "could not be written either (see above)\n", g->prog, g->npoints,
                g->npoints == 1 ? "" : "s", g->out_dir, partial_name(g));
    return status ? status : 1;
}

/* Write text to DIR/name through a temporary renamed into place (a
** symbolic link's target replaced, the link kept: out_link_target, as a
** sweep's results and the figures are; branch.csv as a link was replaced
** by the file); 0 or 1 after a message. */
static int file_put(const Prog *g, const char *name, const char *text, size_t len)
{
    char in[4200], path[4200], tmp[4300];
    snprintf(in, sizeof in, "%s/%s", g->out_dir, name);
    if (out_link_target(g->prog, in, path, sizeof path))
        return 1;
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    tmp_hold(0, tmp);
    int rc = file_write(g, path, tmp, text, len);
    cont_ntmp = 0;
    return rc;
}

/* Checks, before the branch is computed, that its results and figures
** can be replaced through a temporary (outdir_result_check): a FIFO named
** branch.csv or continuation.png was replaced by the result, exit 0.  0,
** or 1 after a message. */
static int cont_results_check(const Prog *g)
{
    const char *base = g->o.curve ? "curve" : "continuation";
    static const char *const ends[] = { "gp", "png", "svg", "log" };
    char path[4300];
    snprintf(path, sizeof path, "%s/%s.csv", g->out_dir, g->o.curve ? "curve" : "branch");
    if (outdir_result_check(g->prog, path))
        return 1;
    for (size_t k = 0; k < sizeof ends / sizeof ends[0]; k++) {
        snprintf(path, sizeof path, "%s/%s.%s", g->out_dir, base, ends[k]);
        if (outdir_result_check(g->prog, path))
            return 1;
    }
    return 0;
}

/* The 1-based column of branch.csv that --plot names (default the first
** body's position), or -1; the column's name into *col, whole however
** long (free it; NULL when out of memory, with -1). */
static int plot_column(const Prog *g, char **col)
{
    const nsm_model *m = g->m;
    const char *unit = "";
    *col = g->plot_col ? strdup(g->plot_col) : coords_name(m, 0, &unit);
    if (!*col)
        return -1;
    int q = coords_find(m, *col);
    if (q >= 0)
        return 4 + q + (g->o.curve != 0);
    if (!strcmp(*col, "period"))
        return 4 + 2 * m->n_bodies + (g->o.curve != 0);
    if (!strcmp(*col, "min_gap"))
        return 6 + 2 * m->n_bodies + (g->o.curve != 0);
    return -1;
}

/* The diagram: BASE.gp (BASE continuation, or curve for --curve), then
** gnuplot in DIR into temporaries renamed over BASE.png and .svg once both
** are drawn. */
static int prog_draw(const Prog *g)
{
    char *col = NULL, xlabel[200], curve_label[200];
    const char *base = g->o.curve ? "curve" : "continuation";
    int y = g->o.curve ? 2 : plot_column(g, &col);
    if (g->o.curve)
        col = strdup(param_label(g->m, g->o.param2, curve_label, sizeof curve_label));
    if (!col)
        return cli_error(g->prog, "out of memory");
    if (y < 0) {
        cli_error(g->prog, "--plot %s: not a column of branch.csv (BODY.x, BODY.v, period, "
                  "min_gap)", col);
        free(col);
        return 1;
    }
    /* the label: the state column's whole name and unit, else the column */
    const char *unit = "";
    int q = g->o.curve ? -1 : coords_find(g->m, col);
    char *name = q >= 0 ? coords_name(g->m, q, &unit) : NULL;
    CliText ylabel = { 0 };
    ylabel.err = q >= 0 && !name;
    if (name)
        cli_printf(&ylabel, "%s [%s]", name, unit);
    else
        cli_printf(&ylabel, "%s", col);
    free(name);
    free(col);
    if (ylabel.err) {
        free(ylabel.s);
        return cli_error(g->prog, "out of memory");
    }
    CliText t = { 0 };
    cli_printf(&t, "# Continuation diagram written by nsmc continue; rerun with "
                     "`gnuplot %s.gp` here.\n"
                     "set datafile separator ','\nset grid\nset key outside right top\n"
                     "set xlabel '%s'\nset ylabel '%s'\nset title '%s: %s'\n"
                     "st(k) = strcol(2) eq k\n", base,
                 param_label(g->m, g->o.param, xlabel, sizeof xlabel), ylabel.s, g->m->name,
                 g->o.curve ? "curve of bifurcation points" : "periodic orbits");
    free(ylabel.s);
    for (int svg = 0; svg < 2; svg++) {
        if (svg)
            cli_printf(&t, "set terminal svg size 1000,700 dynamic noenhanced font 'DejaVu Sans,11'\n"
                             "if (!exists('svg')) svg = '%s.svg'\nset output svg\n", base);
        else
            cli_printf(&t, "set terminal pngcairo size 1000,700 noenhanced font 'DejaVu Sans,10'\n"
                             "if (!exists('png')) png = '%s.png'\nset output png\n", base);
        if (g->o.curve) {
            /* on the curve a multiplier is +-1: no stability to draw */
            cli_printf(&t, "plot 'curve.csv' using 1:2 every ::1 with linespoints lw 2 pt 7 ps 0.6 "
                             "lc rgb '#1f4e9c' title '%s curve'\nunset output\n",
                         g->o.curve == NSM_CONT_FOLD ? "fold" : g->o.curve == NSM_CONT_FLIP
                         ? "period-doubling" : "grazing");
            continue;
        }
        cli_printf(&t,
            "plot 'branch.csv' using 1:($3 == 1 ? column(%d) : NaN) every ::1 with lines lw 2 "
            "lc rgb '#1f4e9c' dt 1 title 'stable', \\\n"
            "     '' using 1:($3 == 0 ? column(%d) : NaN) every ::1 with lines lw 2 lc rgb '#c0392b' "
            "dt 2 title 'unstable', \\\n"
            "     '' using 1:(st('fold') ? column(%d) : NaN) every ::1 with points pt 7 ps 1.6 "
            "lc rgb '#000000' title 'fold', \\\n"
            "     '' using 1:(st('flip') ? column(%d) : NaN) every ::1 with points pt 5 ps 1.6 "
            "lc rgb '#e67e22' title 'period doubling', \\\n"
            "     '' using 1:(st('ns') ? column(%d) : NaN) every ::1 with points pt 9 ps 1.6 "
            "lc rgb '#8e44ad' title 'Neimark-Sacker', \\\n"
            "     '' using 1:(st('grazing') ? column(%d) : NaN) every ::1 with points pt 13 ps 1.6 "
            "lc rgb '#27ae60' title 'grazing'\nunset output\n", y, y, y, y, y, y);
    }
    char gp[64], logf[64], fpng[64], fsvg[64];
    snprintf(gp, sizeof gp, "%s.gp", base);
    snprintf(logf, sizeof logf, "%s.log", base);
    snprintf(fpng, sizeof fpng, "%s.png", base);
    snprintf(fsvg, sizeof fsvg, "%s.svg", base);
    if (t.err || file_put(g, gp, t.s, t.n)) {
        free(t.s);
        return t.err ? cli_error(g->prog, "out of memory") : 1;
    }
    free(t.s);
    char err[1200];
    const char *fin[2] = { fpng, fsvg };
    if (!plot_have_gnuplot()) {
        plot_without_gnuplot(g->out_dir, gp, fin, 2, err, sizeof err);
        fprintf(stderr, "%s: note: %s\n", g->prog, err);
        return 0;
    }
    char names[320], png[96], svg[96];
    snprintf(png, sizeof png, "%s.tmp%ld", fpng, (long)getpid());
    snprintf(svg, sizeof svg, "%s.tmp%ld", fsvg, (long)getpid());
    snprintf(names, sizeof names, "png='%s'; svg='%s'", png, svg);
    char full[2][4300];
    const char *tmp[2] = { png, svg };
    for (int k = 0; k < 2; k++) {
        snprintf(full[k], sizeof full[k], "%s/%s", g->out_dir, tmp[k]);
        tmp_hold(k, full[k]);
    }
    int ok = plot_gnuplot(g->out_dir, gp, names, logf, err, sizeof err) == PLOT_OK &&
             plot_figures_check(g->out_dir, tmp, 2, err, sizeof err) == PLOT_OK;
    int placed = plot_figures_place(g->out_dir, tmp, fin, 2, ok, err, sizeof err);
    cont_ntmp = 0;
    if (!ok || placed != PLOT_OK)
        return cli_error(g->prog, "%s", err);
    return 0;
}

/* --param (or --param2) NAME=FROM:TO: the name into buf, the range into
** from and to. */
static int param_parse(const Prog *g, const char *opt, const char *val, char *buf, size_t len,
                       double *from_v, double *to_v)
{
    const char *eq = strchr(val, '='), *colon = eq ? strchr(eq + 1, ':') : NULL;
    if (!eq || !colon || eq == val || (size_t)(eq - val) >= len)
        return cli_error(g->prog, "%s %s: expected NAME=FROM:TO", opt, val);
    memcpy(buf, val, (size_t)(eq - val));
    buf[eq - val] = 0;
    char *name = setfile_trim(buf);     /* blanks around each field, as nsmc sweep */
    memmove(buf, name, strlen(name) + 1);
    char from[128], to[128];
    if ((size_t)(colon - eq - 1) >= sizeof from || !*buf ||
        snprintf(to, sizeof to, "%s", colon + 1) >= (int)sizeof to)
        return cli_error(g->prog, "%s %s: expected NAME=FROM:TO", opt, val);
    memcpy(from, eq + 1, (size_t)(colon - eq - 1));
    from[colon - eq - 1] = 0;
    if (!cli_number(setfile_trim(from), from_v) || !cli_number(setfile_trim(to), to_v))
        return cli_error(g->prog, "%s %s: FROM and TO must be numbers", opt, val);
    if (*from_v == *to_v)
        return cli_error(g->prog, "%s %s: FROM and TO are equal", opt, val);
    return 0;
}

/* --curve fold|flip|grazing into the options. */
static int curve_parse(Prog *g, const char *val)
{
    static const char *const names[] = { "fold", "flip", "grazing" };
    static const int kinds[] = { NSM_CONT_FOLD, NSM_CONT_FLIP, NSM_CONT_GRAZING };
    for (int k = 0; k < 3; k++)
        if (!strcmp(val, names[k])) {
            g->o.curve = kinds[k];
            return 0;
        }
    return cli_error(g->prog, "--curve %s: expected fold, flip or grazing", val);
}

/* A count option's value in [lo, hi]; 0 ok, 1 after a message. */
static int count_parse(const Prog *g, const char *opt, const char *s, long lo, long hi, long *v)
{
    if (!cli_count(s, lo, hi, v))
        return cli_error(g->prog, "%s %s: expected a whole number from %ld to %ld", opt, s, lo, hi);
    return 0;
}

/* A positive number option's value; 0 ok, 1 after a message. */
static int pos_parse(const Prog *g, const char *opt, const char *s, double *v)
{
    if (!cli_number(s, v) || !(*v > 0))
        return cli_error(g->prog, "%s %s: expected a positive number", opt, s);
    return 0;
}

/* --start V,V,...: 2n numbers. */
static int start_parse(const Prog *g, const char *s, double *y, int n2)
{
    int k = 0;
    const char *p = s;
    while (*p && k < n2) {
        char *end;
        errno = 0;
        y[k++] = strtod(p, &end);
        if (end == p || errno || !isfinite(y[k - 1]) || (*end && *end != ','))
            break;
        p = *end ? end + 1 : end;
        if (!*end && k == n2)
            return 0;
    }
    return cli_error(g->prog, "--start %s: expected %d numbers separated by commas (positions, "
                    "then velocities)", s, n2);
}

/* An option that takes a value given a second time: the later value would
** replace the earlier without a word (--param omega=1:2 --param omega=3:4
** followed the second range), so each is taken once; --set is checked per
** parameter.  seen holds the options met so far (at most n).  1 after the
** message. */
static int prog_once(const char *prog, const char **seen, int *nseen, int n, const char *a)
{
    if (!strcmp(a, "--set"))
        return 0;
    for (int k = 0; k < *nseen; k++)
        if (!strcmp(seen[k], a))
            return cli_error(prog, "option %s is given twice: give each option once", a);
    if (*nseen < n)
        seen[(*nseen)++] = a;
    return 0;
}

/* Whether the model can start at each end of the continued ranges (FROM
** and TO, and a curve's FROM2 and TO2, the other parameter at its FROM): 1
** after the message naming the end and the model's reason, as nsmc sweep
** refuses a grid's end.  A TO the model rejects (--param e=0.8:1.5, a
** restitution above 1) was taken: the branch ended near the bound with a
** note blaming the orbit's impact count, exit 0; a FROM it rejects ended
** with exit 3, "continuation failed". */
static int range_check(const Prog *g, nsm_sim *sim)
{
    const char *name[2] = { g->o.param, g->o.param2 };
    const double end[2][2] = { { g->o.from, g->o.to }, { g->o.from2, g->o.to2 } };
    const char *opt[2] = { "--param", "--param2" };
    for (int p = 0; p < (g->o.param2 ? 2 : 1); p++)
        for (int k = 0; k < 2; k++) {
            if (p == 1 && nsm_sim_set_param(sim, name[0], end[0][0]))
                return cli_error(g->prog, "%s %s: %s", opt[0], name[0], nsm_sim_message(sim));
            if (nsm_sim_set_param(sim, name[p], end[p][k]))
                return cli_error(g->prog, "%s %s=%.12g: %s", opt[p], name[p], end[p][k],
                                 nsm_sim_message(sim));
            if (nsm_sim_reset(sim))
                return cli_error(g->prog, "%s %s=%.12g:%.12g: the model cannot start at %s = "
                                 "%.12g (%s): %s", opt[p], name[p], end[p][0], end[p][1],
                                 name[p], end[p][k], k ? "TO" : "FROM", nsm_sim_message(sim));
        }
    return 0;
}

/* The program's main: options, the continuation, branch.csv, the diagram. */
int nsm_continue_main(const nsm_model *m, int argc, char **argv)
{
    /* a file-size limit is a failed write with its reason, not a kill
     * (SIGXFSZ) that leaves a temporary behind; a reader of stdout gone
     * likewise.  nsmc continue holds the stop signals blocked across its
     * exec (a request sent before these handlers existed ended the program
     * without a word): unblocked now, a request held pending is taken by
     * on_stop.  A stop signal ignored at the start (nohup) stays ignored
     * (signal() caught it: nohup's SIGHUP stopped the continuation). */
    out_stop_install(on_stop, SA_RESTART);
    Prog g;
    memset(&g, 0, sizeof g);
    g.part_fd = -1;
    g.m = m;
    g.prog = argc > 0 ? argv[0] : "nsmc continue";
    g.plot = 1;
    nsm_cont_defaults(&g.o);
    char pname[128], set_names[64][128];
    int n2 = 2 * m->n_bodies, have_start = 0, nset = 0, tol_given = 0;
    double y0[n2 > 0 ? n2 : 1];
    nsm_sim *sim = nsm_sim_create(m);
    if (!sim)
        return cli_error(g.prog, "cannot create the simulation (out of memory or a bad model table)");
    int rc = 0, nseen = 0;
    long v;
    const char *seen[32];
    argv = cli_args_attached(argc, argv, cli_continue_valued, &argc);   /* --out-dir=-x */
    for (int i = 1; i < argc && !rc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            prog_usage(g.prog, stdout);
            nsm_sim_free(sim);
            return out_stdout_check(g.prog);
        } else if (cli_continue_flag(a) && prog_once(g.prog, seen, &nseen, 32, a)) {
            rc = 1;     /* a flag twice, as a valued option twice */
        } else if (!strcmp(a, "-q")) {
            g.quiet = 1;
        } else if (!strcmp(a, "--no-plot")) {
            g.plot = 0;
        } else if (!strcmp(a, "--switch-pd")) {
            g.o.switch_pd = 1;
        } else if (!val) {
            rc = cli_error(g.prog, "%s: %s", a, a[0] == '-' && a[1] == '-'
                          ? "unknown option or missing value (see --help)" : "unexpected argument");
        } else if (prog_once(g.prog, seen, &nseen, 32, a)) {
            rc = 1;
        } else if (i++, !strcmp(a, "--param")) {
            rc = param_parse(&g, a, val, pname, sizeof pname, &g.o.from, &g.o.to);
            g.o.param = pname;
        } else if (!strcmp(a, "--param2")) {
            rc = param_parse(&g, a, val, g.pname2, sizeof g.pname2, &g.o.from2, &g.o.to2);
            g.o.param2 = g.pname2;
        } else if (!strcmp(a, "--curve")) {
            rc = curve_parse(&g, val);
        } else if (!strcmp(a, "--out-dir")) {
            g.out_dir = val;
            if (cli_value_optionlike(val))
                rc = cli_value_refuse(g.prog, a, val);
        } else if (!strcmp(a, "--period")) {
            g.o.period = val;
        } else if (!strcmp(a, "--periods")) {
            rc = count_parse(&g, a, val, 1, 1000, &v);
            g.o.periods = (int)v;
        } else if (!strcmp(a, "--ds")) {
            rc = pos_parse(&g, a, val, &g.o.ds);
        } else if (!strcmp(a, "--ds-min")) {
            rc = pos_parse(&g, a, val, &g.o.ds_min);
        } else if (!strcmp(a, "--ds-max")) {
            rc = pos_parse(&g, a, val, &g.o.ds_max);
        } else if (!strcmp(a, "--tol")) {
            rc = pos_parse(&g, a, val, &g.o.tol);
            tol_given = 1;
        } else if (!strcmp(a, "--max-points")) {
            rc = count_parse(&g, a, val, 1, 100000000, &g.o.max_points);
            g.cap_given = 1;
        } else if (!strcmp(a, "--transient")) {
            rc = count_parse(&g, a, val, 0, 100000000, &g.o.transient);
        } else if (!strcmp(a, "--start")) {
            rc = start_parse(&g, val, y0, n2);
            have_start = 1;
        } else if (!strcmp(a, "--plot")) {
            g.plot_col = val;
        } else if (!strcmp(a, "--set")) {
            const char *eq = strchr(val, '=');
            char name[128];
            double x;
            if (!eq || eq == val || (size_t)(eq - val) >= sizeof name || !cli_number(eq + 1, &x)) {
                rc = cli_error(g.prog, "--set %s: expected NAME=NUMBER", val);
            } else {
                memcpy(name, val, (size_t)(eq - val));
                name[eq - val] = 0;
                int r = nsm_sim_set_param(sim, name, x);
                for (int k = 0; k < nset && !r; k++)
                    if (!strcmp(set_names[k], name))
                        r = -1;
                if (r == -1)
                    rc = cli_error(g.prog, "--set %s is given twice: set it once", name);
                else if (nset < 64)
                    memcpy(set_names[nset++], name, sizeof name);
                if (r > 0)
                    rc = cli_error(g.prog, "--set %s: %s", val, r == NSM_EINVAL
                                  ? "no such parameter" : nsm_sim_message(sim));
            }
        } else {
            rc = cli_error(g.prog, "unknown option '%s' (see --help)", a);
        }
    }
    double pv;
    if (!rc && !g.o.param)
        rc = cli_error(g.prog, "no --param NAME=FROM:TO given");
    if (!rc && nsm_sim_get_param(sim, g.o.param, &pv))
        rc = cli_error(g.prog, "--param %s: the model has no such parameter", g.o.param);
    if (!rc && (g.o.curve != 0) != (g.o.param2 != NULL))
        rc = cli_error(g.prog, g.o.curve ? "--curve needs --param2 NAME=FROM:TO"
                                        : "--param2 is the second parameter of a --curve");
    if (!rc && g.o.param2 && nsm_sim_get_param(sim, g.o.param2, &pv))
        rc = cli_error(g.prog, "--param2 %s: the model has no such parameter", g.o.param2);
    if (!rc && g.o.param2 && !strcmp(g.o.param2, g.o.param))
        rc = cli_error(g.prog, "--param2 %s: the same parameter as --param", g.o.param2);
    /* a --set of a continued parameter was silently overridden by the branch */
    for (int k = 0; k < nset && !rc; k++)
        if (!strcmp(set_names[k], g.o.param) || (g.o.param2 && !strcmp(set_names[k], g.o.param2)))
            rc = cli_error(g.prog, "--set %s: the parameter is continued by --param%s", set_names[k],
                          strcmp(set_names[k], g.o.param) ? "2" : "");
    /* a location finer than the parameter's rounding cannot be met */
    if (!rc && tol_given && g.o.tol < 4e-16 * fmax(1, fmax(fabs(g.o.from), fabs(g.o.to))))
        rc = cli_error(g.prog, "--tol %g: below the rounding of the parameter over [%g, %g] "
                      "(give at least 4e-16 of its magnitude)", g.o.tol, g.o.from, g.o.to);
    if (!rc && tol_given && g.o.tol > fabs(g.o.to - g.o.from) && !g.quiet)
        fprintf(stderr, "%s: note: --tol %g is wider than the range [%g, %g] itself: special "
                "points are printed to the range's width (branch.csv holds the values "
                "located)\n", g.prog, g.o.tol, g.o.from, g.o.to);
    /* as nsmc run refuses --phase with --no-plot: the column was taken
     * without a word and no diagram drawn */
    if (!rc && g.plot_col && !g.plot)
        rc = cli_error(g.prog, "--plot %s names the diagram's column: it cannot be given with "
                      "--no-plot", g.plot_col);
    if (!rc && g.o.curve && g.o.switch_pd)
        rc = cli_error(g.prog, "--switch-pd applies to a branch, not to a --curve");
    if (!rc && !g.out_dir)
        rc = cli_error(g.prog, "no --out-dir DIR given");
    if (!rc && !(g.o.ds_min <= g.o.ds && g.o.ds <= g.o.ds_max))
        rc = cli_error(g.prog, "the steps must satisfy ds-min <= ds <= ds-max");
    if (!rc)
        rc = range_check(&g, sim);
    if (!rc && nsm_sim_set_param(sim, g.o.param, g.o.from) == NSM_OK &&
        (nsm_sim_eval(sim, g.o.period, &pv) || !(pv > 0)))
        rc = cli_error(g.prog, "--period %s: not a positive time of the parameters at %s = %g%s",
                      g.o.period, g.o.param, g.o.from, strstr(g.o.period, "omega") ? " (the default "
                      "period is 2*pi/omega: give --period for a model without omega)" : "");
    /* a model whose tangent dynamics are not handled (nonlinear forces,
     * time switches, moving surfaces) is refused before the out-dir is
     * made: it ran the first orbit's transient, then failed with exit 3 */
    if (!rc && nsm_sim_check_tangent(sim, "continuation"))
        rc = cli_error(g.prog, "%s", nsm_sim_message(sim));
    /* a period too short for the model's motion (--period 1e-300) is an
     * option error before the out-dir is made: it ran the transient, then
     * failed with exit 3, "no tangent" */
    if (!rc && nsm_sim_continue_check(sim, &g.o))
        rc = cli_error(g.prog, "%s", nsm_sim_message(sim));
    /* --plot names a column before the branch is computed (a wrong name
     * was refused only once the whole branch had run) */
    if (!rc && g.plot && !g.o.curve) {
        char *col = NULL;
        if (plot_column(&g, &col) < 0)
            rc = col ? cli_error(g.prog, "--plot %s: not a column of branch.csv (BODY.x, "
                                 "BODY.v, period, min_gap)", col)
                     : cli_error(g.prog, "out of memory");
        free(col);
    }
    /* one run, sweep or continuation at a time writes into a folder (two
     * continuations mixed one's branch.csv with the other's figures) */
    if (!rc && outdir_lock(g.prog, g.out_dir))
        rc = 1;
    if (!rc)
        outdir_id_take(g.out_dir, &g.dir_id);
    if (rc) {
        nsm_sim_free(sim);
        return 1;
    }
    /* the out-dir's lock is ours: temporaries of the results are left only
     * by a continuation killed while it wrote them (they stayed for ever) */
    static const char *const results[] = { "branch.csv", "curve.csv", "branch.csv.partial",
                                           "curve.csv.partial", "continuation.gp", "curve.gp" };
    if (cont_results_check(&g)) {
        nsm_sim_free(sim);
        return 1;
    }
    plot_stale_clear(g.out_dir, results, (int)(sizeof results / sizeof results[0]));
    csv_header(&g);
    nsm_sim_set_stop_flag(sim, &cont_stop);
    int st = nsm_sim_continue(sim, &g.o, have_start ? y0 : NULL, on_point, &g);
    const char *msg = nsm_sim_message(sim);
    int status = 0, unwritten = 0;
    if (cont_stop) {
        status = cont_stopped(&g, cont_stop);
        free(g.csv.s);
        nsm_sim_free(sim);
        return status;
    }
    cont_writing = 1;
    if (st) {
        fprintf(stderr, "%s: error: continuation failed (%s)%s%s\n", g.prog, nsm_status_name(st),
                msg && *msg ? ": " : "", msg && *msg ? msg : "");
        status = 3;
    } else if (cont_short_failed(&g, sim)) {
        /* stopped inside the range by the default point cap, or creeping
         * on ever shorter steps: exit 0 took a part of the branch for all
         * of it (10000 points creeping toward a grazing) */
        fprintf(stderr, "%s: error: %s\n", g.prog, msg);
        status = 3;
    } else if (msg && !strncmp(msg, "continuation:", 13) && !g.quiet) {
        fprintf(stderr, "%s: note: %s\n", g.prog, msg);
    }
    if (g.csv.err)
        status = cli_error(g.prog, "out of memory");
    else if (g.npoints == 0)
        /* nothing to write or draw: the files of an earlier run stay as they were (an
         * empty diagram made gnuplot fail, and blame itself) */
        fprintf(stderr, "%s: no point computed: %s/%s.csv and the diagram were not written\n",
                g.prog, g.out_dir, g.o.curve ? "curve" : "branch");
    else if (g.csv.n && !g.part_made && outdir_moved(g.out_dir, &g.dir_id))
        status = cli_error(g.prog, "the output folder '%s' was moved, removed or replaced "
                           "before the continuation's first point was written: its %ld points "
                           "are not written, nothing into what stands there now", g.out_dir,
                           g.npoints), unwritten = 1;
    else if (g.csv.n &&
             outdir_still_there(g.prog, g.out_dir, &g.dir_id, "continuation", partial_name(&g)))
        status = status ? status : 1, unwritten = 1;
    else if (g.csv.n && file_put(&g, g.o.curve ? "curve.csv" : "branch.csv", g.csv.s, g.csv.n))
        status = partial_kept_said(&g, status), unwritten = 1;
    else if (g.csv.n && (partial_done(&g), others_remove(&g), g.plot && cont_drawing(&g),
                         g.plot && prog_draw(&g)))
        status = status ? status : 1;
    if (!g.quiet && g.npoints && !unwritten)
        printf("%ld point%s, %d special, in %s/%s.csv\n", g.npoints, g.npoints == 1 ? "" : "s",
               g.nspecial, g.out_dir,
               g.o.curve ? "curve" : "branch");
    /* the special points and the count go to stdout: a failed write there
     * (a full disk, a reader gone) exited 0 without a word */
    if (out_stdout_check(g.prog))
        status = status ? status : 1;
    free(g.csv.s);
    nsm_sim_free(sim);
    return status;
}
