/*
** section.c: Poincare sections recorded during a run, each landed exactly.
**
**   impact:GAP         the impact map: the state just before every impact of
**                      GAP (the landing state the run loop hands over before
**                      the transition);
**   period:T[:T0]      the stroboscopic section t = T0 + k T (T and T0
**                      expressions of the parameters, evaluated at every
**                      reset): each t_k is a time event the run loop's steps
**                      are cut at, never an interpolation between samples;
**   plane:F[:DIR]      the hyperplane F(y) = 0, F an affine form of the
**                      positions and velocities (`M.v`, `M1.x - M2.x - 0.1`),
**                      crossed in direction DIR (up: F rising through 0, the
**                      default; down; both).  rk4 and adaptive look for a
**                      sign change of F over the step or a dip the cubic
**                      Hermite interpolant of F shows, and land as every
**                      event source does (step.c, rt_land): Henon's
**                      recast (M. Henon, "On the numerical computation of
**                      Poincare maps", Physica D 5 (1982) 412-414): one RK4
**                      step with F as the independent variable from the
**                      bracket's start to F = 0, polished by Newton on F of
**                      the method's own step; exact finds the first zero of
**                      F along the step's Taylor expansion with its bounded
**                      tail (taylor.c), so no crossing inside a step is
**                      missed, and lands on the expansion's state.
**
** The run loop calls rt_section_target before each step (a stroboscopic
** time cuts the step) and rt_section_step with the step's end before any
** transition.  Each record goes to the section handler with t, the phase
** (t - T0)/Tp mod 1 when a phase period Tp is set, else NAN) and the state.
** The expressions are read as affine forms of the state (affine.c).  No
** I/O: errors go to the message.
*/
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "law.h"
#include "rt.h"

#define SEC_TEXT 256

struct RtSection {
    int kind;                 /* enum nsm_section_kind */
    int gap;                  /* impact: the gap */
    int dir;                  /* plane: +1 up, -1 down, 0 both */
    char expr[SEC_TEXT];      /* period: T; plane: F */
    char t0expr[SEC_TEXT];    /* period: T0 ("" = 0) */
    char pexpr[SEC_TEXT];     /* phase period ("" = none; a period section's own T) */
    double T, t0, Tp;         /* evaluated at reset */
    double *a, b;             /* plane: F = a . y + b, a of length 2n */
    long k;                   /* period: index of the next t_k */
    int deferred;             /* period: t_k left for after an impact tied with it */
    double defer_end;         /* and the latest time that impact may land at */
    long count;               /* records handed out since the reset */
    nsm_section_fn fn;
    void *ud;
    rt_track_fn track;        /* kind SEC_TRACK: a tracker (floquet.c) */
    void *track_ud;
    struct RtSection *saved;  /* the section it stands in for */
};

#define SEC_TRACK (-1)

/* ---- setting up ------------------------------------------------------- */

/* Record a bad section specification (no run is started).  A long
** specification is quoted by its start and its length, so that the reason
** after it is never cut off by the message's size (a 3000-character gap
** name left "section 'impact:Gxxx..." and no reason). */
RT_COLD static int spec_fail(nsm_sim *s, const char *fmt, const char *what, const char *why)
{
    char shown[96];
    size_t n = strlen(what);
    if (n > 80)
        rt_text_printf(shown, sizeof shown, "%.48s... (%zu characters)", what, n);
    else
        rt_text_printf(shown, sizeof shown, "%s", what);
    rt_text_printf(s->msg, sizeof s->msg, fmt, shown, why);
    return NSM_EINVAL;
}

/* The gap whose name is text up to its first ':' (or its end), or -1: a
** gap's name has no length limit, unlike the fields copied below. */
static int spec_gap(const nsm_sim *s, const char *text)
{
    size_t n = strcspn(text, ":");
    for (int j = 0; j < s->n_gaps; j++)
        if (strlen(s->m->gaps[j].name) == n && !strncmp(s->m->gaps[j].name, text, n))
            return j;
    return -1;
}

/* Copy the field of text up to the next ':' (or the end) into out. */
static const char *spec_field(const char *text, char *out, size_t len, int *too_long)
{
    size_t k = 0;
    *too_long = 0;
    while (*text && *text != ':') {
        if (k + 1 >= len)
            *too_long = 1;
        else
            out[k++] = *text;
        text++;
    }
    out[k] = 0;
    return *text == ':' ? text + 1 : NULL;
}

/* The reason to refuse an empty field of a section of this kind, or NULL.
** A field given empty (`period:0.3:`, `plane:F:`) silently took its
** default (T0 = 0, the direction up): whoever typed the ':' meant to give
** it, so the empty field is named rather than guessed. */
static const char *spec_empty(const char *kind, int empty1, int empty2)
{
    int period = !strcmp(kind, "period"), plane = !strcmp(kind, "plane");
    if (empty1)
        return period ? "the period T (the field after 'period:') is empty"
             : plane ? "the plane's function F (the field after 'plane:') is empty"
             : !strcmp(kind, "impact") ? "the gap's name (the field after 'impact:') is empty" : NULL;
    if (empty2)
        return period ? "the start T0 (the field after the period) is empty: give it or leave "
                        "out its ':'"
             : plane ? "the direction (the field after the function) is empty: give up, down "
                       "or both, or leave out its ':'"
             : "impact takes one gap name (an empty field follows it)";
    return NULL;
}

/* Whether a section field is empty or only blanks: `period:0.3: ` read
** "unexpected end at ''" rather than naming the empty field. */
static int spec_blank(const char *f)
{
    for (; *f; f++)
        if (*f != ' ' && *f != '\t')
            return 0;
    return 1;
}

/* Parse spec into sec; 0 or NSM_EINVAL with the reason in the message. */
static int spec_parse(nsm_sim *s, struct RtSection *sec, const char *spec)
{
    char kind[16], f1[SEC_TEXT], f2[SEC_TEXT], err[256];
    int tl1 = 0, tl2 = 0;
    const char *rest = spec_field(spec, kind, sizeof kind, &tl1);
    if (!rest)
        return spec_fail(s, "section '%s': %s", spec, "expected impact:GAP, period:T[:T0] or plane:F[:up|down|both]");
    const char *field1 = rest;
    rest = spec_field(rest, f1, sizeof f1, &tl1);
    f2[0] = 0;
    int has2 = rest != NULL;
    if (rest)
        rest = spec_field(rest, f2, sizeof f2, &tl2);
    if (tl1 && !strcmp(kind, "impact") && spec_gap(s, field1) >= 0)
        tl1 = 0;                /* a gap's long name, read whole below */
    if (rest || tl1 || tl2)
        return spec_fail(s, "section '%s': %s", spec, rest ? "too many fields" : "a field is too long");
    const char *empty = spec_empty(kind, spec_blank(f1), has2 && spec_blank(f2));
    if (empty)
        return spec_fail(s, "section '%s': %s", spec, empty);
    if (!strcmp(kind, "impact")) {
        sec->kind = NSM_SECTION_IMPACT;
        sec->gap = spec_gap(s, field1);
        if (sec->gap < 0 || f2[0])
            return spec_fail(s, "section '%s': %s", spec, f2[0] ? "impact takes one gap name" : "no such gap");
        if (!rt_law_impacts(s, sec->gap))
            return spec_fail(s, "section '%s': %s", spec, "the gap is a penalty contact (no impacts)");
        return NSM_OK;
    }
    if (!strcmp(kind, "period")) {
        double v;
        sec->kind = NSM_SECTION_PERIOD;
        rt_text_printf(sec->expr, sizeof sec->expr, "%s", f1);
        rt_text_printf(sec->t0expr, sizeof sec->t0expr, "%s", f2);
        if (rt_affine_const(s, f1, &v, err, sizeof err) || (f2[0] && rt_affine_const(s, f2, &v, err, sizeof err)))
            return spec_fail(s, "section '%s': %s", spec, err);
        return NSM_OK;
    }
    if (!strcmp(kind, "plane")) {
        double a[2 * s->n_vel], b;
        sec->kind = NSM_SECTION_PLANE;
        rt_text_printf(sec->expr, sizeof sec->expr, "%s", f1);
        sec->dir = 1;
        if (f2[0])
            sec->dir = !strcmp(f2, "up") ? 1 : !strcmp(f2, "down") ? -1 : !strcmp(f2, "both") ? 0 : 2;
        if (sec->dir == 2)
            return spec_fail(s, "section '%s': %s", spec, "the direction is up, down or both");
        if (rt_affine_read(s, f1, 1, a, &b, err, sizeof err))
            return spec_fail(s, "section '%s': %s", spec, err);
        if (!rt_affine_has_state(s, a))
            return spec_fail(s, "section '%s': %s", spec, "the plane's function does not depend on the state");
        return NSM_OK;
    }
    return spec_fail(s, "section '%s': %s", spec, "the kind is impact, period or plane");
}

/* Record the given section (NULL or "" removes it).  Parsed now against the
** model's names; the expressions are evaluated at every reset. */
int nsm_sim_set_section(nsm_sim *s, const char *spec)
{
    if (!spec || !*spec) {
        if (s->sec) {
            free(s->sec->a);
            free(s->sec);
            s->sec = NULL;
        }
        return NSM_OK;
    }
    struct RtSection *sec = calloc(1, sizeof *sec);
    if (!sec)
        return NSM_ENOMEM;
    if (!(sec->a = calloc(2 * (size_t)s->n_vel, sizeof(double)))) {
        free(sec);
        return NSM_ENOMEM;
    }
    int rc = spec_parse(s, sec, spec);
    if (rc) {
        free(sec->a);
        free(sec);
        return rc;
    }
    if (s->sec) {
        sec->fn = s->sec->fn;
        sec->ud = s->sec->ud;
        rt_text_printf(sec->pexpr, sizeof sec->pexpr, "%s", s->sec->pexpr);
        free(s->sec->a);
        free(s->sec);
    }
    s->sec = sec;
    s->ready = 0;             /* the next run starts over with it */
    return NSM_OK;
}

/* The period the phase of the records is measured in (an expression of
** the parameters; NULL or "" for none: the phase is then NAN, except on a
** stroboscopic section, whose records are at phase 0). */
int nsm_sim_set_section_period(nsm_sim *s, const char *expr)
{
    char err[256];
    double v;
    if (!s->sec)
        return spec_fail(s, "section period '%s': %s", expr ? expr : "", "no section is set");
    if (expr && strlen(expr) >= SEC_TEXT)
        return spec_fail(s, "section period '%.40s...': %s", expr, "too long");
    if (expr && *expr && rt_affine_const(s, expr, &v, err, sizeof err))
        return spec_fail(s, "section period '%s': %s", expr, err);
    rt_text_printf(s->sec->pexpr, sizeof s->sec->pexpr, "%s", expr ? expr : "");
    s->ready = 0;
    return NSM_OK;
}

void nsm_sim_set_section_handler(nsm_sim *s, nsm_section_fn fn, void *ud)
{
    if (s->sec) {
        s->sec->fn = fn;
        s->sec->ud = ud;
    }
}

/* Number of records handed out since the last reset. */
long nsm_sim_section_count(const nsm_sim *s)
{
    return s->sec ? s->sec->count : 0;
}

/* Stand a tracker in for the section while a run follows an orbit
** (floquet.c): fn sees every step's end before its transition. */
int rt_section_track(nsm_sim *s, rt_track_fn fn, void *ud)
{
    struct RtSection *t = calloc(1, sizeof *t);
    if (!t)
        return NSM_ENOMEM;
    t->kind = SEC_TRACK;
    t->track = fn;
    t->track_ud = ud;
    t->saved = s->sec;
    s->sec = t;
    return NSM_OK;
}

/* Put the section back.  The tracked run moved the time on without
** recording: a stroboscopic section resumes at its first time from now
** (else its next time would lie behind the run, which means a Zeno jump
** over it). */
void rt_section_untrack(nsm_sim *s)
{
    struct RtSection *t = s->sec, *sec;
    s->sec = sec = t->saved;
    free(t);
    if (!sec || sec->kind != NSM_SECTION_PERIOD || !(sec->T > 0) || !(s->t > sec->t0))
        return;
    double k = ceil((s->t - sec->t0) / sec->T) - 1;
    if (k > (double)sec->k)
        sec->k = (long)k;
    while (sec->t0 + (double)sec->k * sec->T < s->t)
        sec->k++;
}

void rt_section_free(nsm_sim *s)
{
    nsm_sim_set_section(s, NULL);
}

/* At a reset: evaluate the expressions with the current parameters. */
int rt_section_reset(nsm_sim *s)
{
    struct RtSection *sec = s->sec;
    char err[256];
    sec->count = 0;
    sec->k = 0;
    sec->deferred = 0;
    sec->t0 = 0;
    sec->Tp = NAN;
    if (sec->kind == NSM_SECTION_PERIOD) {
        if (rt_affine_const(s, sec->expr, &sec->T, err, sizeof err) ||
            (sec->t0expr[0] && rt_affine_const(s, sec->t0expr, &sec->t0, err, sizeof err)))
            return rt_fail(s, NSM_EMODEL, -1, "section period: %s", err);
        if (!(sec->T > 0) || !isfinite(sec->T) || !(sec->t0 >= 0) || !isfinite(sec->t0))
            return rt_fail(s, NSM_EMODEL, -1, "the section's period %.17g s and start %.17g s "
                           "must be a positive and a non-negative time", sec->T, sec->t0);
        sec->Tp = sec->T;
    }
    if (sec->kind == NSM_SECTION_PLANE &&
        rt_affine_read(s, sec->expr, 1, sec->a, &sec->b, err, sizeof err))
        return rt_fail(s, NSM_EMODEL, -1, "section plane: %s", err);
    if (sec->pexpr[0]) {
        if (rt_affine_const(s, sec->pexpr, &sec->Tp, err, sizeof err))
            return rt_fail(s, NSM_EMODEL, -1, "section period: %s", err);
        if (!(sec->Tp > 0) || !isfinite(sec->Tp))
            return rt_fail(s, NSM_EMODEL, -1, "the section's phase period (--section-period) "
                           "%.17g s is not a positive finite time", sec->Tp);
    }
    return NSM_OK;
}

/* Before a run to t_end: the section's periods against the time
** resolution of t up to t_end (rt_t_resolution).  A stroboscopic period
** below it would record without t advancing; a phase period below 1e6
** units in the last place of t_end leaves the phase (t - t0)/T mod 1
** known to worse than 1e-6 (at 1e-300 s it reads 0 at every record), so
** both are refused naming the option instead of giving a silent column. */
int rt_section_check_run(nsm_sim *s, double t_end)
{
    const struct RtSection *sec = s->sec;
    if (!sec || sec->kind == SEC_TRACK)
        return NSM_OK;
    double a = fmax(fabs(s->t), fabs(t_end)), ulp = nextafter(a, INFINITY) - a;
    double res = rt_t_resolution(s, t_end);
    if (sec->kind == NSM_SECTION_PERIOD && sec->T < res)
        return rt_fail(s, NSM_EINVAL, -1, "the stroboscopic section's period %.6g s is below the "
                       "time resolution of t up to t_end = %.9g s (%d ulps, %.3g s): its times "
                       "would not advance; give a longer period in --section period:T",
                       sec->T, t_end, RT_T_RES, res);
    if (sec->kind != NSM_SECTION_PERIOD && isfinite(sec->Tp) && ulp > 1e-6 * sec->Tp)
        return rt_fail(s, NSM_EINVAL, -1, "the section's phase period (--section-period) "
                       "%.6g s is too short for the time resolution of t up to t_end = %.9g s: "
                       "one ulp of t there is %.3g of the period, and the phase needs it below "
                       "1e-6; give a longer period (or a shorter run)", sec->Tp, t_end,
                       ulp / sec->Tp);
    return NSM_OK;
}

/* ---- records ------------------------------------------------------------ */

/* Hand one record (time t, state y) to the handler. */
static int emit_record(nsm_sim *s, double t, const double *y)
{
    struct RtSection *sec = s->sec;
    nsm_section_record r;
    r.t = t;
    r.index = sec->count++;
    if (sec->kind == NSM_SECTION_PERIOD) {
        r.phase = 0;
    } else if (isfinite(sec->Tp)) {
        double u = (t - sec->t0) / sec->Tp;
        r.phase = u - floor(u);
        if (r.phase >= 1)
            r.phase = 0;
    } else {
        r.phase = NAN;
    }
    r.y = y;
    if (sec->fn && sec->fn(sec->ud, s, &r))
        return rt_fail(s, NSM_ESTOPPED, -1, "stopped by the section handler");
    return NSM_OK;
}

/* The next stroboscopic time, t0 + k T. */
static double strobe_time(const struct RtSection *sec)
{
    return sec->t0 + (double)sec->k * sec->T;
}

/* How far, relative to t, rk4's and adaptive's own landing of an impact
** may fall after the instant exact lands it: their positions carry the
** rounding of every step, and a ball dropped onto its floor under g, a
** flight both integrate exactly, is landed up to 4.4e-14 of t late (and
** 2.3e-13 early) over up to 77,000 steps of 1 ms; a strobe time that
** close before such a landing is tied with it. */
static const double SECTION_TIE_DRIFT = 1e-12;

/* The largest time after t1 at which an open impact contact of the state
** Y1 tied with t1 within rounding (tie_within_rounding) may land: its gap
** and the gap's rounding band over its closing speed, (|g| + tol)/|u|;
** under rk4 and adaptive also a landing ahead within SECTION_TIE_DRIFT of
** t1, their drift from the exact instant; -1 when none is tied. */
static double tie_window(nsm_sim *s, double t1, const double *Y1)
{
    const double *v = rt_vel(s, Y1);
    int drifts = s->set.method == NSM_METHOD_RK4 || s->set.method == NSM_METHOD_ADAPTIVE;
    double w = -1, late = drifts ? SECTION_TIE_DRIFT * fabs(t1) : 0;
    for (int j = 0; j < s->n_gaps; j++) {
        if (!rt_law_impacts(s, j) || rt_mode_has(s->mode, j))
            continue;
        double g = rt_gap(s, j, Y1), u = rt_gap_rate(s, j, t1, v), tol = rt_gap_tol(s, j, Y1);
        if (!(u < -rt_vel_tol(s, j, v)))
            continue;
        if (fabs(g) <= tol || t1 + g / -u == t1 || (g > 0 && g / -u <= late))
            w = fmax(w, (fabs(g) + tol) / -u);
    }
    return w;
}

/* Whether the state Y1 at the step's end t1 has an open impact contact
** closing beyond its velocity's rounding whose landing is at t1 within
** rounding: inside its gap's rounding band, or reached within half an ulp
** of t1 (a ball's landing at t = 2 s reached by exact 9e-17 m above the
** floor, closing at 1 m/s), which the next step takes at its start, at t1.
** A stroboscopic time on that step's end is then recorded after the
** impact, as an exact tie is (rt_section_target at the next step's start). */
static int tie_within_rounding(nsm_sim *s, double t1, const double *Y1)
{
    return tie_window(s, t1, Y1) >= 0;
}

/* Whether a stroboscopic time tk behind the current time, a Zeno jump's
** accumulation point (or a time left for a tied impact that the jump took
** with its cascade), is that point within rounding: within 16 ulps of it,
** or under rk4 and adaptive within SECTION_TIE_DRIFT (their landings' own
** drift from the instant).  What is left of the cascade after tk is then
** below rounding, and the state at the point is the state at tk: a ball's
** t_inf taken as the period (or 7 periods of t_inf/7) was refused as
** inside the cascade, its state unknown (exit 3). */
static int strobe_at_zeno_end(const nsm_sim *s, double tk)
{
    int drifts = s->set.method == NSM_METHOD_RK4 || s->set.method == NSM_METHOD_ADAPTIVE;
    double tol = fmax(16 * (nextafter(tk, HUGE_VAL) - tk), drifts ? SECTION_TIE_DRIFT * fabs(tk) : 0);
    return s->t - tk <= tol;
}

/* Before a step: a stroboscopic time ahead of *target becomes the step's
** target; one at the current time (the start, or after an event landed on
** it) is recorded now; one behind it (jumped over with a Zeno tail) stops
** the run, since its state was never computed. */
static int section_target(nsm_sim *s, double *target, int may_defer);

int rt_section_target(nsm_sim *s, double *target)
{
    return section_target(s, target, 1);
}

/* rt_section_target; a time tied within rounding with an impact at the
** step's start is left for after it when may_defer (not at the run's end,
** where no step follows). */
static int section_target(nsm_sim *s, double *target, int may_defer)
{
    struct RtSection *sec = s->sec;
    int rc;
    if (sec->kind != NSM_SECTION_PERIOD)
        return NSM_OK;
    double tk;
    while ((tk = strobe_time(sec)) <= s->t) {
        if (tk < s->t && !sec->deferred && !strobe_at_zeno_end(s, tk))
            return rt_fail(s, NSM_ENUMERIC, -1, "the stroboscopic time %.17g s fell inside a Zeno "
                           "cascade that was jumped over: its state is not known (run with "
                           "--no-zeno)", tk);
        if (tk < s->t && s->t - tk > fmax(4 * (nextafter(tk, HUGE_VAL) - tk), sec->defer_end - tk) &&
            !strobe_at_zeno_end(s, tk))
            return rt_fail(s, NSM_ENUMERIC, -1, "the stroboscopic time %.17g s, tied with an "
                           "impact within rounding, was left for after it, but the run went on "
                           "to %.17g s without the impact: its state is not known", tk, s->t);
        double w = may_defer && tk == s->t && !sec->deferred ? tie_window(s, s->t, s->y) : -1;
        if (w >= 0) {
            sec->deferred = 1;      /* after the impact, in the next step at its start */
            sec->defer_end = tk + w;
            return NSM_OK;
        }
        sec->deferred = 0;
        if ((rc = emit_record(s, tk, s->y)))
            return rc;
        sec->k++;
    }
    sec->deferred = 0;
    if (tk < *target)
        *target = tk;
    return NSM_OK;
}

/* At the end of a run: a stroboscopic time at the current time, left for
** after an event's transition there (rt_section_step), is recorded now. */
int rt_section_end(nsm_sim *s)
{
    double target = HUGE_VAL;
    return section_target(s, &target, 0);
}

/* F and its rate at (t, Y). */
static int plane_value(nsm_sim *s, double t, const double *Y, double *f, double *fd)
{
    int n2 = 2 * s->n_vel;
    double Yd[s->n_state];
    *f = s->sec->b + rt_dot(n2, s->sec->a, Y);
    if (!fd)
        return NSM_OK;
    if (rt_deriv(s, s->mode, t, Y, Yd))
        return NSM_ENUMERIC;
    *fd = rt_dot(n2, s->sec->a, Yd);
    return NSM_OK;
}

/* sg F and its rate at (t, Y), as an event source for rt_land (ud: sg). */
static int plane_source(nsm_sim *s, void *ud, double t, const double *Y, double *f, double *fd)
{
    double sg = *(const double *)ud;
    int rc = plane_value(s, t, Y, f, fd);
    *f *= sg;
    *fd *= sg;
    return rc;
}

/* Land on the crossing of sg F (sg = +-1) falling through 0 inside [lo, hi]
** of the step from (t0, Y0) (sg F(lo) > 0 >= sg F(hi)), by the locator
** every event source uses (step.c, rt_land). */
static int plane_land(nsm_sim *s, double t0, const double *Y0, double lo, double hi, double sg,
                      double *tau, double *Ys)
{
    double flo, fdlo, Ya[s->n_state];
    int rc;
    if ((rc = rt_advance(s, t0, Y0, lo, Ya)) || (rc = plane_source(s, &sg, t0 + lo, Ya, &flo, &fdlo)))
        return rc;
    return rt_land(s, plane_source, &sg, t0, Y0, lo, Ya, flo, fdlo, hi, tau, Ys);
}

/* rk4 and adaptive: the crossings of the plane inside the step (t0, Y0)
** -> (t0 + h, Y1), in time order, each recorded.  A crossing of sg F
** falling through 0 is a sign change over the step, a dip of the Hermite
** interpolant below 0 and back, or a rise above 0 and back (the crossing
** after the peak); F at exactly 0 at the step's start was counted at the
** end of the step before.  More turns of F inside one step are not seen
** (the steps are bounded by the mode's spectrum). */
static int plane_generic(nsm_sim *s, double t0, const double *Y0, double h, const double *Y1)
{
    struct RtSection *sec = s->sec;
    double f0, d0, f1, d1, Ys[s->n_state], tau[2], th, qmin;
    int rc, nfound = 0;
    if ((rc = plane_value(s, t0, Y0, &f0, &d0)) || (rc = plane_value(s, t0 + h, Y1, &f1, &d1)))
        return rt_fail(s, rc, -1, "the section's function could not be evaluated");
    for (int pass = 0; pass < 2; pass++) {
        double sg = pass == 0 ? -1 : 1;   /* -F falling: F up; F falling: F down */
        if ((sec->dir == 1 && sg > 0) || (sec->dir == -1 && sg < 0))
            continue;
        double q0 = sg * f0, q1 = sg * f1, e0 = sg * d0, e1 = sg * d1, hi = h, lo = 0;
        if (!(q0 > 0)) {
            /* on the other side at the start: a crossing this way needs q
             * to rise above 0 and fall back inside the step, a peak of the
             * interpolant above 0 with q1 <= 0; it is after the peak */
            double qmax, fl;
            if (!(q1 <= 0))
                continue;
            th = rt_hermite_min(-q0, -e0, -q1, -e1, h, &qmax);
            if (!(-qmax > 0 && th > 0))
                continue;
            lo = th * h;
            if ((rc = rt_advance(s, t0, Y0, lo, Ys)) || (rc = plane_value(s, t0 + lo, Ys, &fl, NULL)))
                return rt_fail(s, rc, -1, "the section's function could not be evaluated");
            if (!(sg * fl > 0))
                continue;
        } else if (!(q1 <= 0)) {
            th = rt_hermite_min(q0, e0, q1, e1, h, &qmin);
            if (!(qmin < 0 && th > 0))
                continue;
            hi = th * h;
            if ((rc = rt_advance(s, t0, Y0, hi, Ys)) || (rc = plane_value(s, t0 + hi, Ys, &q1, NULL)))
                return rt_fail(s, rc, -1, "the section's function could not be evaluated");
            if (!(sg * q1 <= 0))
                continue;
        }
        if (hi == h && q1 == 0) {
            tau[nfound++] = h;
            continue;
        }
        if ((rc = plane_land(s, t0, Y0, lo, hi, sg, &tau[nfound], Ys)))
            return rt_fail(s, rc, -1, "the section's crossing could not be located");
        nfound++;
    }
    if (nfound == 2 && tau[1] < tau[0]) {
        double x = tau[0];
        tau[0] = tau[1];
        tau[1] = x;
    }
    for (int k = 0; k < nfound; k++) {
        if (tau[k] == h)
            memcpy(Ys, Y1, sizeof Ys);
        else if ((rc = rt_advance(s, t0, Y0, tau[k], Ys)))
            return rt_fail(s, rc, -1, "the section's crossing could not be located");
        if ((rc = emit_record(s, t0 + tau[k], Ys)))
            return rc;
    }
    return NSM_OK;
}

/* After a Zeno jump from (t1, Y1), the state before the impact that ended
** in it, to the current state: a plane section's function that changed
** sign across the jump crossed its plane inside the jumped tail, whose
** states were never computed (a record was lost without a word: an
** oscillator beside a ball bouncing to rest, its plane crossed inside the
** ball's accumulation); the run stops naming it, as for a stroboscopic
** time there (section_target).  The impact section needs nothing (the
** tail's impacts are summed into the zeno event). */
int rt_section_jump(nsm_sim *s, double t1, const double *Y1)
{
    struct RtSection *sec = s->sec;
    double f0, f1;
    if (sec->kind != NSM_SECTION_PLANE)
        return NSM_OK;
    plane_value(s, t1, Y1, &f0, NULL);
    plane_value(s, s->t, s->y, &f1, NULL);
    int up = f0 < 0 && f1 > 0, down = f0 > 0 && f1 < 0;
    if (!((up && sec->dir != -1) || (down && sec->dir != 1)))
        return NSM_OK;
    return rt_fail(s, NSM_ENUMERIC, -1, "the section's plane was crossed inside a Zeno cascade "
                   "that was jumped over (from t = %.17g s to %.17g s): its state there is not "
                   "known (run with --no-zeno)", t1, s->t);
}

/* exact: a crossing that lands on the step's end itself: F(Y1) is 0 or
** past it while the expansion, on side sg since its last zero, reaches 0
** only just beyond the step (a ball's apex at t = 1.5 s on steps of 1 ms).
** The next step starts on the plane or past it and records nothing at its
** start, so this one is recorded here, when F's rate at the end goes
** through 0 (not a touch). */
static int plane_exact_end(nsm_sim *s, const long double *a, int K, double x1, double t1,
                           const double *Y1, double sg)
{
    struct RtSection *sec = s->sec;
    long double d;
    int dir = sg > 0 ? -1 : 1;
    if ((sec->b + rt_dot(2 * s->n_vel, sec->a, Y1)) * sg > 0)
        return NSM_OK;
    rt_poly_eval(a, K, x1, &d);
    if (!(d * dir > 0) || !(sec->dir == 0 || sec->dir == dir))
        return NSM_OK;
    return emit_record(s, t1, Y1);
}

/* exact: the crossings along the step's Taylor expansion (built by the
** event detection for this very step) up to x1 = the step's end, each the
** first zero of +-F past the last, with the tail bound: none is missed. */
static int plane_exact(nsm_sim *s, double t0, double t1, const double *Y1)
{
    struct RtSection *sec = s->sec;
    const RtTaylor *T = &s->tay;
    int na = s->n_aug, n2 = 2 * s->n_vel, K = T->K, rc;
    if (!T->valid || T->t0 != t0 || !(T->h > 0))
        return rt_fail(s, NSM_ENUMERIC, -1, "the step's expansion is not there for the section");
    double c[na], r0, r1, x1 = (t1 - t0) / T->h, lo = 0, x;
    long double a[K + 1], q[K + 1], Z[na];
    memset(c, 0, sizeof c);
    memcpy(c, sec->a, sizeof(double) * n2);
    c[na - 1] = sec->b;
    rt_taylor_form(s, c, a, &r0, &r1);
    if (x1 > 1)
        x1 = 1;
    for (int guard = 0; guard < 1000; guard++) {
        long double f = rt_poly_eval(a, K, lo, NULL);
        /* sg: the sign of F now; the next crossing is F falling through 0
         * from sg > 0 (down) or rising from sg < 0 (up) */
        double sg = f > 0 ? 1 : -1;
        if (f == 0) {
            long double d;
            rt_poly_eval(a, K, lo, &d);
            sg = d > 0 ? 1 : -1;      /* leaving 0: on the side it goes to */
        }
        for (int k = 0; k <= K; k++)
            q[k] = sg * a[k];
        if (f == 0)
            q[0] += 1e-300;           /* strictly on its side at lo */
        if (!rt_poly_first_zero(q, K, lo, r0, r1, &x) || x > x1)
            return plane_exact_end(s, a, K, x1, t1, Y1, sg);
        int dir = sg > 0 ? -1 : 1;    /* the direction of this crossing */
        if (x > 0 && (sec->dir == 0 || sec->dir == dir)) {
            double Ys[s->n_state];
            if (x == x1) {
                memcpy(Ys, Y1, sizeof Ys);
            } else {
                rt_taylor_state(s, x, Z);
                for (int i = 0; i < n2; i++)
                    Ys[i] = (double)Z[i];
                Ys[n2] = Ys[n2 + 1] = 0;
            }
            if ((rc = emit_record(s, x == x1 ? t1 : t0 + x * T->h, Ys)))
                return rc;
        }
        double nx = x + 1e-12;
        if (!(nx < x1))
            return NSM_OK;
        lo = nx;
    }
    return NSM_OK;
}

/* After a step (t0, Y0 = s->t, s->y) -> (t1, Y1), before the transition of
** event j (-1: none): impacts of the section's gap, a stroboscopic time
** landed on, crossings of the plane. */
int rt_section_step(nsm_sim *s, double t1, const double *Y1, int j)
{
    struct RtSection *sec = s->sec;
    switch (sec->kind) {
    case SEC_TRACK:
        return sec->track(s, t1, Y1, j, sec->track_ud);
    case NSM_SECTION_IMPACT:
        if (j == sec->gap && !rt_mode_has(s->mode, j) &&
            rt_gap_rate(s, j, t1, rt_vel(s, Y1)) < -rt_vel_tol(s, j, rt_vel(s, Y1)))
            return emit_record(s, t1, Y1);
        return NSM_OK;
    case NSM_SECTION_PERIOD:
        /* an event landed on t_k: its record is the state after the
         * transition, as the trajectory's sample there (rt_section_target
         * records it at the next step's start, rt_section_end at the run's
         * end); exact recorded the state before it, rk4 the one after.
         * The tie is looked for only on a step that ends on t_k: it
         * forms every gap and its rate, and most steps end elsewhere */
        if (j >= 0 || t1 != strobe_time(sec) || tie_within_rounding(s, t1, Y1))
            return NSM_OK;
        sec->k++;
        return emit_record(s, t1, Y1);
    default:
        if (!(t1 > s->t))
            return NSM_OK;
        if (s->set.method == NSM_METHOD_EXACT)
            return plane_exact(s, s->t, t1, Y1);
        return plane_generic(s, s->t, s->y, t1 - s->t, Y1);
    }
}
