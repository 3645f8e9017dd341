"""Reference for the Newton's cradles and bead chains (models/cradle*.nsm).

n balls in a row, all touching, the first one hitting the others at v0.
Sequential model: binary collisions one after another at the same instant,
each on one pair with Newton's law (equal masses m: the impulse is
(1 + e) m (-u) / 2 for a closing relative velocity u < 0), until no pair
approaches.  Order: the pair closing fastest goes first (the most negative
u), the lower pair index on a tie.  Everything is computed in exact rational
arithmetic (fractions.Fraction), independently of the simulator.

A sequence that does not end (inelastic collapse, McNamara & Young, Phys.
Fluids A 4 (1992) 496) is followed to CAP collisions: its limit is the
common velocity of the balls it involves, and the script checks that the
exact iterates close in on it geometrically.

    cradle.py --selftest
        known answers: e = 1 passes v0 to the last ball; momentum; the
        McNamara-Young threshold of three beads, e_c = 7 - 4 sqrt(3)
    cradle.py --sim EXE --balls N --method M [--e E] [--v0 V] [--d D]
              [--no-zeno] [--tol TOL] [--expect finite|collapse]
        runs EXE (tests/cradle/cradle_run.c built on models/cradleN.nsm)
        and compares every final velocity with the reference to TOL
        (default 1e-12, absolute, velocities of order v0 = 1 m/s), the
        impact records with the reference's collisions (finite sequences),
        and checks that no zeno record appears unless a collapse is
        expected with Zeno jumps on (--no-zeno: never).

Only the standard library.
"""
import argparse
import subprocess
import sys
from fractions import Fraction as F

CAP = 1000


def sequential(n, e, v0, cap=CAP):
    """Exact sequential collisions of n equal touching balls, the first at v0.

    Returns (velocities, collisions, ended): collisions is the list of
    (pair index, u before, u after, impulse per unit mass); ended is False
    when the sequence was still going after cap collisions."""
    v = [F(0)] * n
    v[0] = F(v0)
    hits = []
    while len(hits) < cap:
        best = None
        for i in range(n - 1):
            u = v[i + 1] - v[i]
            if u < 0 and (best is None or u < v[best + 1] - v[best]):
                best = i
        if best is None:
            return v, hits, True
        u = v[best + 1] - v[best]
        p = -(1 + e) * u / 2
        v[best] -= p
        v[best + 1] += p
        hits.append((best, u, v[best + 1] - v[best], p))
    return v, hits, False


def expect(cond, what):
    """Fail loudly when a self-check does not hold."""
    if not cond:
        sys.exit("cradle.py: self-check failed: " + what)


def selftest():
    """Known answers the sequential reference must reproduce."""
    for n in (3, 5, 6, 10, 20, 33):
        v, hits, ended = sequential(n, F(1), 1)
        expect(ended and v == [0] * (n - 1) + [1] and len(hits) == n - 1,
               "e = 1, %d balls: the last leaves with v0 after %d collisions" % (n, n - 1))
    for n, e in ((5, F(9, 10)), (10, F(9, 10)), (20, F(9, 10)), (6, F(1, 2))):
        v, hits, ended = sequential(n, e, 1)
        expect(ended and sum(v) == 1, "momentum, %d balls e = %s" % (n, e))
        ke = sum(x * x for x in v) / 2
        lost = sum((1 - e * e) * u * u / 4 for _, u, _, _ in hits)
        expect(F(1, 2) - ke == lost, "energy lost = sum (1 - e^2) m u^2 / 4, %d balls" % n)
        expect(all(v[i + 1] >= v[i] for i in range(n - 1)), "no pair approaches at the end")
    # the numbers: ten balls, e = 0.9
    v, hits, _ = sequential(10, F(9, 10), 1)
    expect(len(hits) == 45 and abs(float(v[-1]) - 0.630249409724609) < 1e-12,
           "ten balls, e = 0.9: 45 collisions, last ball at 0.6302494097 m/s")
    expect(abs(float(1 - sum(x * x for x in v)) - 0.58749364) < 1e-8, "ten balls: 58.7 % lost")
    # McNamara & Young: three beads collapse iff e < 7 - 4 sqrt(3) = 0.0717968
    v, hits, ended = sequential(3, F(72, 1000), 1)
    expect(ended and len(hits) == 63, "three beads, e = 0.072 > e_c: ends after 63 collisions")
    v, hits, ended = sequential(3, F(71, 1000), 1)
    expect(not ended and max(abs(x - F(1, 3)) for x in v) < F(1, 10 ** 100),
           "three beads, e = 0.071 < e_c: no end, closing in on v0/3")
    print("cradle.py: self-checks pass")


def read_run(out):
    """Parse cradle_run's output: (status, events, mode, x, v)."""
    status, events, mode, xs, vs = None, [], None, {}, {}
    for line in out.splitlines():
        f = line.split()
        if not f:
            continue
        if f[0] == "status":
            status = (int(f[1]), " ".join(f[2:]))
        elif f[0] == "event":
            events.append(dict(kind=f[1], contact=int(f[2]), t=float(f[3]), vb=float(f[4]),
                               va=float(f[5]), p=float(f[6]), count=int(f[7])))
        elif f[0] == "mode":
            mode = int(f[1])
        elif f[0] == "x":
            xs[int(f[1])] = float(f[2])
        elif f[0] == "v":
            vs[int(f[1])] = float(f[2])
    return status, events, mode, [xs[i] for i in sorted(xs)], [vs[i] for i in sorted(vs)]


def check_sim(a):
    """Run the simulator and compare it with the exact sequential reference."""
    e, v0 = F(a.e), F(a.v0)
    ref, hits, ended = sequential(a.balls, e, v0)
    collapse = not ended
    if a.expect and a.expect != ("collapse" if collapse else "finite"):
        sys.exit("cradle.py: the reference says %s, the test expects %s"
                 % ("collapse" if collapse else "finite", a.expect))
    if collapse:
        # the limit: every ball at the common velocity, closed in on geometrically
        vc = v0 / a.balls
        gap = max(abs(x - vc) for x in ref)
        if not gap < F(1, 10 ** 20):
            sys.exit("cradle.py: after %d collisions the reference is %g from its limit"
                     % (CAP, float(gap)))
        ref = [vc] * a.balls
    t_end = 1.0
    cmd = [a.sim, a.method, repr(t_end), "e=%s" % a.e, "v0=%s" % a.v0, "d=%r" % a.d]
    if a.no_zeno:
        cmd.append("--no-zeno")
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    status, events, mode, xs, vs = read_run(out)
    msgs = []
    if status is None or status[0] != 0:
        msgs.append("the run failed: %s" % (status,))
    if len(vs) != a.balls:
        msgs.append("%d velocities, expected %d" % (len(vs), a.balls))
    worst = 0.0
    for i, (got, want) in enumerate(zip(vs, ref)):
        err = abs(got - float(want))
        worst = max(worst, err)
        if not err <= a.tol:
            msgs.append("P[%d].v = %.17g, reference %.17g (error %.3g > %g)"
                        % (i + 1, got, float(want), err, a.tol))
    # every ball where the reference velocities put it at t_end
    t_hit = float(F(a.d) / v0) if a.d > 0 else 0.0
    for i, (got, want) in enumerate(zip(xs, ref)):
        x_ref = (-a.d + float(v0) * t_hit if i == 0 else 0.0) + float(want) * (t_end - t_hit)
        if not abs(got - x_ref) <= 1e3 * a.tol + 1e-12:
            msgs.append("P[%d].x = %.17g, reference %.17g" % (i + 1, got, x_ref))
    zeno = [ev for ev in events if ev["kind"] == "zeno"]
    impacts = [ev for ev in events if ev["kind"] == "impact"]
    if a.no_zeno and zeno:
        msgs.append("--no-zeno, yet %d zeno records" % len(zeno))
    if not collapse:
        if zeno:
            msgs.append("%d zeno records in a sequence that ends" % len(zeno))
        seq = [(ev["contact"], ev["vb"], ev["va"]) for ev in impacts]
        want = [(i, float(u), float(w)) for i, u, w, _ in hits]
        if len(seq) != len(want):
            msgs.append("%d impact records, the reference has %d collisions" % (len(seq), len(want)))
        else:
            for k, (s, w) in enumerate(zip(seq, want)):
                if s[0] != w[0] or abs(s[1] - w[1]) > a.tol or abs(s[2] - w[2]) > a.tol:
                    msgs.append("collision %d: gap %d u %.17g -> %.17g, reference gap %d u %.17g -> %.17g"
                                % (k + 1, s[0], s[1], s[2], w[0], w[1], w[2]))
                    break
        times = set(ev["t"] for ev in impacts)
        if len(times) != 1 or abs(times.pop() - t_hit) > 1e-12:
            msgs.append("the impacts are not all at one instant, t = %.17g to 1e-12 s" % t_hit)
    elif not a.no_zeno and len(zeno) != 1:
        msgs.append("a collapse with Zeno jumps on: %d zeno records, expected 1" % len(zeno))
    print("%d balls, e = %s, %s%s: %s, %d impact records (reference %d%s), largest velocity error %.3g"
          % (a.balls, a.e, a.method, " --no-zeno" if a.no_zeno else "",
             "collapse" if collapse else "ends", len(impacts), len(hits), "+" if collapse else "",
             worst))
    for m in msgs:
        print("FAIL " + m)
    return 1 if msgs else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--selftest", action="store_true")
    ap.add_argument("--sim")
    ap.add_argument("--balls", type=int)
    ap.add_argument("--method", default="rk4")
    ap.add_argument("--e", default="1")
    ap.add_argument("--v0", default="1")
    ap.add_argument("--d", type=float, default=0.1)
    ap.add_argument("--no-zeno", action="store_true")
    ap.add_argument("--tol", type=float, default=1e-12)
    ap.add_argument("--expect", choices=["finite", "collapse"])
    a = ap.parse_args()
    if a.selftest:
        selftest()
        return 0
    if not a.sim or not a.balls:
        ap.error("--sim and --balls are needed")
    return check_sim(a)


if __name__ == "__main__":
    sys.exit(main())
