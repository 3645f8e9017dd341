"""What stiff_models.py and stiff_regressions.py share: building a simulator,
running it, and comparing its event log with an independent reference.

The comparison, for events up to the reference's horizon H:

  - impacts and contact entries are matched per (kind, contact) in time
    order, each reference event with the simulator's nearest one within half
    the distance to its neighbours of the same class; a reference event left
    without one is MISSED, a simulator event left over is EXTRA (so is any
    zeno, stick or separation: the references stop before those);
  - every matched event must lie within the method's time tolerance
    (time_tol) of the reference, else it is reported EARLY or LATE by its
    error;
  - a penalty contact's exit is compared with the exit that follows the
    matched entry: it must exist when the reference's does, lie within the
    time tolerance, and the contact's duration (exit - entry) must agree
    with the reference's within duration_tol, which catches an exit a few
    contact periods late even when the step is much longer than the contact.

Events within the time tolerance of H on either side are not required:
whether a run reports an event at its very end is not physics.
"""
import csv
import os
import re
import subprocess

METHODS = ["exact", "adaptive", "rk4"]


RK4_OWN = 0.5      # rk4 integrates a contact itself while its rate times the step is below this


def rk4_rate(wfree, rates, h):
    """The fastest rate rk4 integrates with its own step: the free motion's
    (springs, dampers, forcing) and every contact's whose w h < RK4_OWN.
    Contacts faster than that must be resolved by the engine some other way
    (their step cut, or the mode's closed form): rk4's own error there, or
    its instability beyond w h = 2.8, is no excuse."""
    w = wfree
    for wc in rates.values():
        if wc * h < RK4_OWN:
            w = max(w, wc)
    return w


def base_time_tol(method, t, h, w):
    """Largest error allowed on an event time t (s) of a well-conditioned run.

    exact: 1e-9 (1 + t) (the closed form carried in double; the events of
    these short runs are well conditioned).  adaptive: 1e-7 (1 + t), a
    hundred times its default rtol of 1e-9.  rk4 with step h:
    (1 + t) (1e-6 + (w h)^4), w = rk4_rate(): a hundred times the order of
    rk4's phase error, t (w h)^4 / 120, on the motion it integrates with its
    own step (impacts amplify the error of the state they start from), and
    1e-6 (1 + t) s for the contacts it must resolve faster than its step,
    ten times adaptive's figure.
    """
    if method == "exact":
        return 1e-9 * (1 + t)
    if method == "adaptive":
        return 1e-7 * (1 + t)
    return (1 + t) * (1e-6 + (w * h) ** 4)


def duration_tol(method, t, duration, wc_h=0.0):
    """Largest error allowed on the duration of a penalty contact ending near t.

    Relative 1e-6 (exact), 1e-4 (adaptive), 1e-2 (rk4, or (w h)^4 when rk4
    integrates the contact with its own step, w h < RK4_OWN), plus 1e-12,
    1e-10, 1e-9 s (1 + t).
    """
    rel, ab = {"exact": (1e-6, 1e-12), "adaptive": (1e-4, 1e-10)}.get(method, (1e-2, 1e-9))
    if method == "rk4" and wc_h < RK4_OWN:
        rel = max(rel, wc_h ** 4)
    return rel * duration + ab * (1 + t)


def run(cmd, timeout=120):
    """Runs cmd; (exit status, stderr)."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return -1, "timed out after %d s" % timeout
    return p.returncode, p.stderr


def build(args, src, work, stem):
    """Compiles src with nsmc and cc into work/stem; (executable, error message)."""
    c, exe = os.path.join(work, stem + ".c"), os.path.join(work, stem)
    rc, err = run([args.nsmc, src, "-o", c])
    if rc != 0:
        return None, "nsmc refused it:\n" + err
    rc, err = run([args.cc] + args.cflags.split() + [c, "-I", args.include]
                  + args.lib.split(os.pathsep) + ["-lm", "-o", exe])
    if rc != 0:
        return None, "cc failed:\n" + err
    return exe, None


def read_events(path):
    """(t, kind, contact) of every event but time switches."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    out = []
    for row in rows[1:]:
        if row and row[1] != "time":
            out.append((float(row[0]), row[1], row[2]))
    return out


def condition(ref, perturbed):
    """Condition factor of each reference event: how much more its time
    moves under a small change of the initial state than the first event's
    does, at least 1.  {t: factor} over ref's events.

    ref: the reference's events; perturbed: the events of the same reference
    from initial states each moved by the same small amount along one
    coordinate.  The first event is reached by the free motion alone, so
    its sensitivity S_1 is that of a well-conditioned run; an event whose
    time moves S_i > S_1 (contacts that amplify a timing difference, as in a
    chain of bodies bouncing between stiff contacts) turns any error the
    method makes before it, well within its tolerance then, into S_i / S_1
    times that error.  Event i's sensitivity S_i is the largest |dt_i| over
    the perturbed runs.  Past the first event at which a perturbed run's
    sequence differs (a graze: the event is not a smooth function of the
    initial state there) the factor stays 1: no relief where the condition
    cannot be measured.
    """
    n = len(ref)
    sens = [0.0] * n
    valid = n
    for events in perturbed:
        k = 0
        while k < min(n, len(events)) and events[k][1:] == ref[k][1:]:
            sens[k] = max(sens[k], abs(float(events[k][0] - ref[k][0])))
            k += 1
        valid = min(valid, k)
    out = {}
    s1 = sens[0] if n else 0.0
    for i, (t, _, _) in enumerate(ref):
        f = sens[i] / s1 if i < valid and s1 > 0 else 1.0
        out[t] = max(1.0, f)
    return out


def check_run(exe, method, work, stem, extra, ref, horizon, h, wfree, rates, strict=False,
              cond=None):
    """Runs exe with method and compares its events with ref (see compare).

    Returns (messages, note): messages [] when the run passes; note says why
    a run that stopped was accepted.  A run that stops with an error is a
    failure, except that rk4 may refuse (exit status 3, "simulation failed:
    t = T s ...": its step cannot follow the motion) as long as every event
    before T is right: a clear stop is not a silent wrong answer.  strict
    makes rk4's refusals failures too.
    """
    ev = os.path.join(work, "%s.%s.ev" % (stem, method))
    traj = os.path.join(work, "%s.%s.csv" % (stem, method))
    rc, err = run([exe, "--method", method, "--out", traj, "--events", ev] + list(extra))
    if rc == 0:
        return compare(method, ref, horizon, read_events(ev), h, wfree, rates, cond), None
    last = err.strip().splitlines()[-1] if err.strip() else ""
    stop = refusal_time(err) if rc == 3 else None
    if stop is None or method != "rk4" or strict or not os.path.exists(ev):
        return ["exit %d: %s" % (rc, last)], None
    msgs = compare(method, ref, min(float(horizon), stop), read_events(ev), h, wfree, rates, cond)
    if msgs:
        msgs.append("REFUSED (exit %d) after the errors above: %s" % (rc, last))
        return msgs, None
    return [], "rk4 refused at t = %.6g s, every event before right: %s" % (stop, last)


def refusal_time(err):
    """T of the runtime's "simulation failed: t = T s" message, or None."""
    m = re.search(r"simulation failed: t = ([-+0-9.eE]+) s", err)
    return float(m.group(1)) if m else None


def episodes(events, contact):
    """(entry, exit or None) of a penalty contact, in order."""
    out, start = [], None
    for t, kind, c in events:
        if c != contact:
            continue
        if kind == "contact_enter":
            if start is not None:
                out.append((start, None))
            start = t
        elif kind == "contact_exit" and start is not None:
            out.append((start, t))
            start = None
    if start is not None:
        out.append((start, None))
    return out


def match(ref, sim):
    """Pairs (i, j) of reference and simulator times matched in order; unmatched lists."""
    pairs, missed, extra = [], [], []
    i = j = 0
    while i < len(ref) or j < len(sim):
        if i == len(ref):
            extra.append(j)
            j += 1
            continue
        if j == len(sim):
            missed.append(i)
            i += 1
            continue
        lo = ref[i] - ref[i - 1] if i > 0 else float("inf")
        hi = ref[i + 1] - ref[i] if i + 1 < len(ref) else float("inf")
        win = min(lo, hi) / 2
        d = sim[j] - ref[i]
        if abs(d) <= win or (win == float("inf")):
            # the nearest of the simulator's candidates
            while j + 1 < len(sim) and abs(sim[j + 1] - ref[i]) < abs(d):
                extra.append(j)
                j += 1
                d = sim[j] - ref[i]
            pairs.append((i, j))
            i += 1
            j += 1
        elif d < 0:
            extra.append(j)
            j += 1
        else:
            missed.append(i)
            i += 1
    return pairs, missed, extra


def compare(method, ref, horizon, sim, h, wfree, rates, cond=None):
    """Messages for every disagreement of sim with ref up to the horizon ([] when
    none), earliest first.

    ref, sim: lists of (t, kind, contact); h: rk4's step; wfree: the fastest
    rate of the free motion; rates: {contact: its undamped rate sqrt(k/m)}
    of the penalty contacts (see rk4_rate); cond: None, or the condition
    factor of each reference event, {t: factor >= 1} (see condition()), by
    which its time tolerance grows.
    """
    H = float(horizon)
    wfree = rk4_rate(wfree, rates, h)
    factor = {float(t): f for t, f in (cond or {}).items()}

    def time_tol(method, t, h, w):
        return base_time_tol(method, t, h, w) * factor.get(t, 1.0)

    tolH = time_tol(method, H, h, wfree)
    ref = [(float(t), k, c) for t, k, c in ref if float(t) <= H + tolH]
    sim = [e for e in sim if e[0] <= H + tolH]
    msgs = []

    def optional(t):
        return abs(t - H) <= tolH

    classes = sorted({(k, c) for _, k, c in ref + sim if k != "contact_exit"})
    for kind, contact in classes:
        r = [t for t, k, c in ref if (k, c) == (kind, contact)]
        s = [t for t, k, c in sim if (k, c) == (kind, contact)]
        pairs, missed, extra = match(r, s)
        for i in missed:
            if not optional(r[i]):
                msgs.append("MISSED %s %s at t = %.17g" % (kind, contact, r[i]))
        for j in extra:
            if not optional(s[j]):
                msgs.append("EXTRA %s %s at t = %.17g" % (kind, contact, s[j]))
        for i, j in pairs:
            d = s[j] - r[i]
            if abs(d) > time_tol(method, r[i], h, wfree):
                msgs.append("%s %s %s at t = %.17g by %+.3g s (tolerance %.2g s)"
                            % ("LATE" if d > 0 else "EARLY", kind, contact, r[i], d,
                               time_tol(method, r[i], h, wfree)))
    for contact in sorted({c for _, k, c in ref + sim if k == "contact_enter"}):
        re_, se = episodes(ref, contact), episodes(sim, contact)
        pairs, _, _ = match([a for a, _ in re_], [a for a, _ in se])
        for i, j in pairs:
            (ra, rb), (sa, sb) = re_[i], se[j]
            if rb is None:
                if sb is not None and not optional(sb) and sb < H:
                    msgs.append("EXTRA contact_exit %s at t = %.17g: the reference stays engaged "
                                "from %.17g to at least %.17g" % (contact, sb, ra, H))
                continue
            if sb is None:
                if not optional(rb):
                    msgs.append("MISSED contact_exit %s at t = %.17g (entered at %.17g; the run "
                                "never leaves)" % (contact, rb, ra))
                continue
            d = sb - rb
            tt = time_tol(method, rb, h, wfree)
            dd = (sb - sa) - (rb - ra)
            td = duration_tol(method, rb, rb - ra, rates.get(contact, 0.0) * h)
            if abs(d) > tt or abs(dd) > td:
                msgs.append("%s contact_exit %s at t = %.17g by %+.3g s: contact lasts %.6g s, "
                            "reference %.6g s (tolerances %.2g s on the time, %.2g s on the duration)"
                            % ("LATE" if d > 0 else "EARLY", contact, rb, d, sb - sa, rb - ra, tt, td))
    return sorted(msgs, key=message_time)


def message_time(msg):
    """The instant a message is about (its first "t = "): the earliest
    disagreement comes first, the others are often its consequences."""
    _, _, rest = msg.partition("t = ")
    try:
        return float(rest.split()[0].rstrip(":"))
    except (ValueError, IndexError):
        return float("inf")


def summary(msgs, limit=8):
    """The first few messages and counts by kind."""
    counts = {}
    for m in msgs:
        w = m.split()[0]
        counts[w] = counts.get(w, 0) + 1
    head = msgs[:limit]
    if len(msgs) > limit:
        head.append("... %d more" % (len(msgs) - limit))
    return ", ".join("%d %s" % (n, w) for w, n in sorted(counts.items())), head


def add_arguments(ap):
    """The command line shared with random_models.py."""
    ap.add_argument("--nsmc", required=True)
    ap.add_argument("--lib", required=True,
                    help="the libraries a simulator links, separated by ':' (libnsmcli.a:libnsmrt.a)")
    ap.add_argument("--include", required=True, help="runtime/include")
    ap.add_argument("--cc", default="cc", help="C compiler for the simulators")
    ap.add_argument("--cflags", default="-O2", help="its flags (one string)")
    ap.add_argument("--keep", help="keep the models and runs in this folder")
    ap.add_argument("--strict", action="store_true",
                    help="an rk4 run that stops with an error fails even when every event before is right")
