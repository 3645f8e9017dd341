"""Touching trains of equal beads struck at one end, under each impact law.

usage: train.py --nsmc NSMC --include DIR --lib A:B:.. [--cc CC]
                [--cflags="FLAGS"] --case CASE
       train.py --selftest

N equal beads (1 kg) on weak springs (1e-3 N/m to the ground), all
touching, the last one struck: it moves at -1 m/s into the others at t = 0
(e = 0.95 unless said).  The velocities just after the impact (the t = 0
sample) are checked against references computed here, independently of
the runtime:
  seq_ref   the sequential law (docs/theory.md section 10) on trains of 40
            beads (e = 0.95) and 25 beads (e = 0.8): seq_reference below
            replays the stated ordering rule (the contact closing fastest
            beyond its velocity tolerance first, the lower index on a tie)
            in mpmath at 30 digits; velocities to 1e-12 m/s and the same
            number of collisions.
  seq_300   300 beads, sequential: the sequence ends (about 1e6 pair
            collisions, far below the cap; 1000 beads take 3e7, a minute,
            in bench/train_bench.py), momentum is kept to 1e-12, no
            contact still approaches beyond its velocity tolerance, and the
            kinetic energy did not grow.
  sim_3     3 beads, simultaneous, e = 0.95 and 0.5: the generalised
            Newton law solved by hand (every contact active: P_k =
            (1 + e) k / N), v_i = -(1 + e)/N for i < N and
            v_N = -1 + (1 + e)(N - 1)/N; to 1e-12 (the trajectory file
            holds 12 significant digits, as do the checks below).
  sim_1000  1000 beads, simultaneous: the same closed form, to 1e-12.
  sim_lcp   50 beads, simultaneous, the first leaving at 0.5 m/s and the
            second at 1 mm/s (slower than the wave: its contact must join
            the active set, a pivot): the impulse problem's complementarity
            conditions read from the event log and the velocities (every
            contact: u+ + e u- >= 0, P >= 0, P (u+ + e u-) = 0 to 1e-12),
            momentum to 1e-12.
  cap       100 beads, sequential, --max-impacts 1000: the run stops with
            a message naming --max-impacts, non-zero status.
  en_train  the issue's train (e = 0.95, Hertz contacts of stiffness 1)
            under the energetic law, 100 beads (--n N for more: 1000 in
            bench/train_bench.py): the impact ends, momentum is kept to
            1e-11 (the sum of N velocities each written to 12 significant
            digits), no contact still approaches by more than 1e-10 m/s,
            and the kinetic energy did not grow (it falls: e < 1).
"""
import csv
import os
import subprocess
import sys

from harness import build_text, check, main


def model_text(n, e, law, v0=None, exponent=None):
    """The train's model: n beads, restitution e, impact law law; the last
    bead at -1 m/s, the others at rest but those given in v0 ({bead: m/s}).
    exponent: the energetic law's contacts, all of stiffness 1 (SI) and
    force exponent exponent."""
    init = "P[%d].v = -1 m/s" % n
    for i, x in sorted((v0 or {}).items()):
        init += ", P[%d].v = %r m/s" % (i, x)
    outs = ", ".join("P[%d].v" % i for i in range(1, n + 1))
    return ("model train \"A touching train struck at one end\"\n"
            "param e = %r\n"
            "mass P[1..%d] = 1 kg\n"
            "for i in 1..%d: spring ground -- P[i], k = 1e-3 N/m\n"
            "for i in 1..%d: gap G[i]: P[i+1].x - P[i].x >= 0, impact(e = e%s)\n"
            "init %s\n"
            "simulate t_end = 1 ms, method = exact, impact_law = %s\n"
            "output every 1 ms: %s\n"
            % (e, n, n, n - 1, ", stiffness = 1, exponent = %r" % exponent if exponent else "",
               init, law, outs))


def simulate(exe, work, extra=(), events=True):
    """Runs it; (status, stderr, velocities at t = 0+, event rows or None)."""
    out = os.path.join(work, "tr.csv")
    ev = os.path.join(work, "ev.csv")
    cmd = [exe, "--out", out] + (["--events", ev] if events else ["--events-max", "0"]) + list(extra)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        return p.returncode, p.stderr, None, None
    with open(out) as f:
        row = next(csv.DictReader(f))
    v = [float(row["P[%d].v [m/s]" % i]) for i in range(1, len(row))]
    rows = None
    if events:
        with open(ev) as f:
            rows = list(csv.DictReader(f))
    return 0, p.stderr, v, rows


def seq_reference(n, e, v1=0):
    """The sequential law replayed in mpmath at 30 digits: pair collisions
    one after another, the contact closing fastest beyond its velocity
    tolerance 1e-9 (|v_a| + |v_b|) + 1e-12 first (the lower index on a
    tie), Newton's law on it alone; (velocities, collisions)."""
    import mpmath
    mpmath.mp.dps = 30
    E = mpmath.mpf(e)
    v = [mpmath.mpf(0)] * n
    v[-1] = mpmath.mpf(-1)
    v[0] += mpmath.mpf(v1)
    count = 0
    while True:
        best, bu = -1, None
        for a in range(n - 1):
            u = v[a + 1] - v[a]
            tol = mpmath.mpf("1e-9") * (abs(v[a]) + abs(v[a + 1])) + mpmath.mpf("1e-12")
            if u < -tol and (best < 0 or u < bu):
                best, bu = a, u
        if best < 0:
            return v, count
        P = -(1 + E) * bu / 2
        v[best] -= P
        v[best + 1] += P
        count += 1


def sim_closed(n, e):
    """The simultaneous law's velocities for the struck train (all contacts
    active, P_k = (1 + e) k / n)."""
    return [-(1 + e) / n] * (n - 1) + [-1 + (1 + e) * (n - 1) / n]


def case_seq_ref(args, work):
    for n, e in ((40, 0.95), (25, 0.8)):
        exe = build_text(args, model_text(n, e, "sequential"), work, "s%d" % n)
        rc, err, v, rows = simulate(exe, work)
        check(rc == 0, "sequential %d beads e = %g runs (%s)" % (n, e, err.strip()[-200:]))
        if rc:
            continue
        ref, count = seq_reference(n, e)
        worst = max(abs(a - float(b)) for a, b in zip(v, ref))
        impacts = sum(1 for r in rows if r["kind"] == "impact")
        check(worst <= 1e-12, "sequential %d beads e = %g: velocities within 1e-12 of the reference "
              "(worst %.3g)" % (n, e, worst))
        check(impacts == count, "sequential %d beads e = %g: %d collisions (reference %d)"
              % (n, e, impacts, count))


def case_seq_300(args, work):
    n, e = 300, 0.95
    rc, err, v, _ = simulate(build_text(args, model_text(n, e, "sequential"), work, "s300"), work,
                             events=False)
    check(rc == 0, "sequential %d beads runs (%s)" % (n, err.strip()[-300:]))
    if rc:
        return
    # the CSV holds 12 significant digits: each value is off by up to 5e-12 of
    # itself (300 equal velocities of -1/300 sum to -0.999999999999)
    check(abs(sum(v) + 1) <= 1e-12 + 5e-12 * sum(abs(x) for x in v),
          "momentum kept: sum v = %.17g (-1)" % sum(v))
    worst = max(-(v[a + 1] - v[a]) - (1e-9 * (abs(v[a]) + abs(v[a + 1])) + 1e-12) for a in range(n - 1))
    check(worst <= 1e-15, "no contact approaches beyond its velocity tolerance (worst excess %.3g)"
          % worst)
    ke = sum(x * x for x in v) / 2
    check(ke <= 0.5, "kinetic energy %.6g J <= 0.5 J before" % ke)


def lzb_reference():
    """The energetic law's compliant-chain reference (tests/reference/
    lzb_chain.py, mpmath at 30 digits, time integration of the chain with
    its loading and unloading contact forces): {name: (n, eta, e, v)}, ball
    0 striking the others at +1 m/s."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "reference",
                        "data", "lzb_chain.csv")
    ref = {}
    with open(path) as f:
        for line in f:
            w = line.split()
            n = int(w[1])
            ref[w[0]] = (n, float(w[2]), float(w[3]), [float(x) for x in w[4:4 + n]])
    return ref


def case_energetic(args, work):
    """impact_law = energetic end to end: the train struck at one end (the
    last bead, at -1 m/s, is the reference's ball 0 mirrored) against the
    compliant chain's post-impact velocities, to 1e-9 m/s."""
    for name, (n, eta, e, vref) in sorted(lzb_reference().items()):
        rc, err, v, _ = simulate(build_text(args, model_text(n, e, "energetic", exponent=eta), work,
                                       "en" + name), work)
        check(rc == 0, "energetic %s runs (%s)" % (name, err.strip()[-200:]))
        if rc:
            continue
        mirrored = [-vref[n - 1 - i] for i in range(n)]
        worst = max(abs(a - b) for a, b in zip(v, mirrored))
        check(worst <= 1e-9, "energetic %s: %s against %s (worst %.3g)" % (name, v, mirrored, worst))


def case_en_train(args, work):
    n = args.n or 100
    rc, err, v, _ = simulate(build_text(args, model_text(n, 0.95, "energetic", exponent=1.5), work,
                                   "et%d" % n), work, events=False)
    check(rc == 0, "energetic %d beads runs (%s)" % (n, err.strip()[-300:]))
    if rc:
        return
    check(abs(sum(v) + 1) <= 1e-11, "energetic %d beads: momentum kept, sum v = %.15g (-1)"
          % (n, sum(v)))
    worst = max(v[a] - v[a + 1] for a in range(n - 1))
    check(worst <= 1e-10, "energetic %d beads: no contact approaches after the impact (worst "
          "closing speed %.3g m/s)" % (n, worst))
    ke = sum(x * x for x in v) / 2
    check(ke < 0.5, "energetic %d beads: kinetic energy %.12g J < 0.5 J before" % (n, ke))


def case_sim_3(args, work):
    for e in (0.95, 0.5):
        exe = build_text(args, model_text(3, e, "simultaneous"), work, "m3")
        rc, err, v, _ = simulate(exe, work)
        check(rc == 0, "simultaneous 3 beads e = %g runs (%s)" % (e, err.strip()[-200:]))
        if rc:
            continue
        ref = sim_closed(3, e)
        worst = max(abs(a - b) for a, b in zip(v, ref))
        check(worst <= 1e-12, "simultaneous 3 beads e = %g: %s against %s (worst %.3g)"
              % (e, v, ref, worst))


def case_sim_1000(args, work):
    n, e = 1000, 0.95
    exe = build_text(args, model_text(n, e, "simultaneous"), work, "m1000")
    rc, err, v, rows = simulate(exe, work)
    check(rc == 0, "simultaneous 1000 beads runs (%s)" % err.strip()[-200:])
    if rc:
        return
    worst = max(abs(a - b) for a, b in zip(v, sim_closed(n, e)))
    check(worst <= 1e-12, "simultaneous 1000 beads: closed form to 1e-12 (worst %.3g)" % worst)
    check(len(rows) == n - 1, "one impact record per contact (%d)" % len(rows))


def case_sim_lcp(args, work):
    n, e, v0 = 50, 0.95, {1: -0.5, 2: -0.001}
    exe = build_text(args, model_text(n, e, "simultaneous", v0), work, "m50")
    rc, err, v, rows = simulate(exe, work)
    check(rc == 0, "simultaneous 50 beads, the first two leaving, runs (%s)" % err.strip()[-200:])
    if rc:
        return
    before = [0.0] * n
    before[-1] = -1.0
    for i, x in v0.items():
        before[i - 1] = x
    check(abs(sum(v) - sum(before)) <= 1e-12, "momentum kept (%.17g, %.17g)" % (sum(v), sum(before)))
    P = [0.0] * (n - 1)
    for r in rows:
        P[int(r["contact"][2:-1]) - 1] = float(r["impulse"])
    worst = 0.0
    for a in range(n - 1):
        um = before[a + 1] - before[a]
        up = v[a + 1] - v[a]
        w = up + (e * um if um < 0 else 0)
        worst = max(worst, -w, -P[a], abs(P[a] * w))
    check(worst <= 1e-12, "u+ + e u- >= 0, P >= 0, P (u+ + e u-) = 0 on every contact (worst %.3g)"
          % worst)
    # G[1] separates fast and takes none; G[2] separates slower than the
    # wave arrives and must take one (a pivot of the solver)
    check(P[0] == 0 and P[1] > 0 and all(p > 0 for p in P[1:]),
          "G[1] takes no impulse, G[2..49] take one (%s)" % P[:3])


def case_cap(args, work):
    exe = build_text(args, model_text(100, 0.95, "sequential"), work, "c100")
    rc, err, _, _ = simulate(exe, work,
                             ["--max-impacts", "1000"], events=False)
    check(rc != 0 and "--max-impacts" in err and "1000 impacts" in err,
          "the cap stops the run and names --max-impacts (status %d: %s)" % (rc, err.strip()))


def selftest():
    """The reference's own checks, by hand: e = 1 (Newton's cradle: the
    struck bead stops, the far one leaves with its velocity), and three
    beads at e = 1/2 (collisions on G2, G1, G2: v = (-9/16, -3/16, -1/4)...
    replayed here in exact fractions)."""
    v, count = seq_reference(5, 1)
    check(max(abs(x - y) for x, y in zip(v, [-1, 0, 0, 0, 0])) < 1e-25 and count == 4,
          "e = 1: the cradle passes the velocity on (%d collisions)" % count)
    from fractions import Fraction as F
    e = F(1, 2)
    w = [F(0), F(0), F(-1)]
    hand = 0
    while True:
        u = [w[1] - w[0], w[2] - w[1]]
        a = min((x for x in range(2) if u[x] < 0), key=lambda x: (u[x], x), default=None)
        if a is None or -u[a] < F(1, 10 ** 11):
            break
        p = -(1 + e) * u[a] / 2
        w[a] -= p
        w[a + 1] += p
        hand += 1
    v, count = seq_reference(3, 0.5)
    check(max(abs(x - float(y)) for x, y in zip(v, w)) < 1e-11 and abs(count - hand) <= 1,
          "three beads e = 1/2 against exact fractions (%d, %d collisions)" % (count, hand))
    ref = sim_closed(3, 0.5)
    check(abs(sum(ref) + 1) < 1e-15 and abs(ref[2] - ref[1] - 0.5 * 1) < 1e-15,
          "the closed form keeps momentum and Newton's law on the struck contact")


CASES = {"seq_ref": case_seq_ref, "seq_300": case_seq_300, "sim_3": case_sim_3,
         "sim_1000": case_sim_1000, "energetic": case_energetic, "sim_lcp": case_sim_lcp,
         "cap": case_cap, "en_train": case_en_train}


def options(ap):
    """The script's own option: the en_train case's number of beads."""
    ap.add_argument("--n", type=int, help="beads of the en_train case (default 100)")


if __name__ == "__main__":
    sys.exit(main(CASES, options, selftest))
