"""Property test of the taylor method on random nonlinear models.

Each seed draws a body on a line with a random smooth force (cubic,
trigonometric, damping, harmonic forcing) against a random curved stop
g(x) = xs - x - q x^2 >= 0 (impact, restitution e), writes it as a .nsm
model, compiles and runs it with --method taylor, and compares every
impact with an mpmath reference integrated independently (mp.odefun,
Taylor series at 20 digits): the reference scans a fine grid for the
gap's zeros, and inside every grid cell where the gap's rate turns from
falling to rising it looks for a dip below 0 at the minimum, so a pair of
crossings closer than any step is found.  The simulator must report the
same impacts (none missed, none extra) within 1e-9 s, the first few
seeds' cases include an orbit that grazes the stop (a dip shorter than
the method's steps).

usage: property_nl.py --nsmc NSMC --include DIR --lib A:B:.. [--cc CC]
                      [--cflags="FLAGS"] [--seeds N]
(run by ctest, tests/nonlinear.cmake.)
"""
import os
import random
import subprocess
import sys
import tempfile

from mpmath import mp, mpf

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from simbuild import build_sim, sim_parser  # noqa: E402

mp.dps = 20
T_END = 3


def draw(seed):
    """A random model's parameters."""
    r = random.Random(seed)
    p = dict(m=r.uniform(0.5, 2), k1=r.uniform(0.5, 4), k3=r.uniform(0, 2),
             a=r.uniform(-1, 1), c=r.uniform(0, 0.2), F=r.uniform(0, 1.5), w=r.uniform(0.5, 3),
             q=r.uniform(-0.2, 0.2), e=r.uniform(0.3, 0.9), x0=r.uniform(-1, 0.2),
             v0=r.uniform(0, 2))
    p["xs"] = r.uniform(0.3, 0.9)
    if seed % 3 == 0:
        # the stop a hair (1e-7) inside the free orbit's first maximum: a
        # dip below 0 far shorter than the method's steps
        pm = {k: mpf(repr(float(v))) for k, v in p.items()}
        sol = mp.odefun(lambda t, y: [y[1], force(pm, t, y[0], y[1]) / pm["m"]], 0, [pm["x0"], pm["v0"]])
        ta = mpf(0)
        while sol(ta + mpf("0.01"))[1] > 0:
            ta += mpf("0.01")
        tm = mp.findroot(lambda t: sol(t)[1], (ta, ta + mpf("0.01")), solver="anderson")
        xm = sol(tm)[0]
        p["xs"] = float(xm + pm["q"] * xm * xm - mpf("1e-7"))
    return p


def force(p, t, x, v):
    return (-p["k1"] * x - p["k3"] * x ** 3 + p["a"] * mp.sin(x) - p["c"] * v +
            p["F"] * mp.cos(p["w"] * t))


def gap(p, x):
    return p["xs"] - x - p["q"] * x * x


def model_text(p, name):
    f = lambda k: repr(float(p[k]))
    return "\n".join([
        "model %s \"random nonlinear body against a curved stop\"" % name,
        "param k1 = %s N/m" % f("k1"),
        "param k3 = %s N/m^3" % f("k3"),
        "param a = %s N" % f("a"),
        "param c = %s N*s/m" % f("c"),
        "param F = %s N" % f("F"),
        "param w = %s rad/s" % f("w"),
        "param xs = %s m" % f("xs"),
        "param q = %s m^-1" % f("q"),
        "param L = 1 m",
        "mass M = %s kg" % f("m"),
        "force on M = -k1*M.x - k3*M.x^3 + a*sin(M.x/L) - c*M.v + F*cos(w*t)",
        "gap S: xs - M.x - q*M.x^2 >= 0, impact(e = %s)" % f("e"),
        "init M.x = %s m, M.v = %s m/s" % (f("x0"), f("v0")),
        "simulate t_end = %d s, method = taylor" % T_END,
        ""])


def reference(p, grid=mpf("0.005")):
    """Impact times of the model by mp.odefun and a dip-aware grid scan."""
    pm = {k: mpf(repr(float(v))) for k, v in p.items()}
    t0, y0, out = mpf(0), [pm["x0"], pm["v0"]], []
    complete = True
    while t0 < T_END:
        if len(out) >= 12:
            complete = False
            break
        sol = mp.odefun(lambda t, y: [y[1], force(pm, t, y[0], y[1]) / pm["m"]], t0, y0)
        g = lambda t: gap(pm, sol(t)[0])
        gd = lambda t: -(1 + 2 * pm["q"] * sol(t)[0]) * sol(t)[1]
        hit, ta = None, t0
        while ta < T_END and hit is None:
            tb = min(ta + grid, mpf(T_END))
            ga, gb = g(ta), g(tb)
            if gb < 0 and (ga > 0 or ta > t0):
                hit = (ta, tb)
            elif gd(ta) < 0 < gd(tb) and ta > t0:
                tm = mp.findroot(gd, (ta, tb), solver="anderson")
                if g(tm) < 0:
                    hit = (ta, tm)
            ta = tb
        if hit is None:
            break
        th = mp.findroot(g, hit, solver="anderson")
        x, v = sol(th)
        out.append(th)
        if abs(v) < mpf("1e-4"):
            complete = False
            break           # a cascade: compared up to here
        t0, y0 = th, [x, -pm["e"] * v]
    return out, complete


def simulate(args, p, work, name):
    path = os.path.join(work, name + ".nsm")
    with open(path, "w") as f:
        f.write(model_text(p, name))
    exe = build_sim(args, path, work)
    ev = os.path.join(work, name + ".events.csv")
    subprocess.run([exe, "--events", ev, "--t-end", str(T_END)], check=True,
                   stdout=subprocess.DEVNULL)
    with open(ev) as f:
        rows = [line.split(",") for line in f.read().splitlines()[1:]]
    return [float(r[0]) for r in rows if r[1] == "impact"]


def main():
    ap = sim_parser(__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=8)
    args = ap.parse_args()
    seeds, bad = args.seeds, 0
    with tempfile.TemporaryDirectory() as work:
        for seed in range(1, seeds + 1):
            p = draw(seed)
            ref, complete = reference(p)
            sim = simulate(args, p, work, "prop%d" % seed)
            n = len(ref)
            # every impact of the reference, and no other up to t_end unless
            # the reference stopped at a cascade or its twelfth impact
            ok = (len(sim) == n if complete else len(sim) >= n) and \
                all(abs(a - float(b)) < 1e-9 * max(1, b) for a, b in zip(sim, ref))
            print("seed %d: %d reference impacts, %d simulated: %s" % (seed, n, len(sim),
                  "ok" if ok else "MISMATCH"))
            if not ok:
                bad += 1
                for k in range(max(n, len(sim))):
                    a = sim[k] if k < len(sim) else None
                    b = float(ref[k]) if k < n else None
                    print("   %s  %s" % (a, b))
    print("%d passed, %d failed" % (seeds - bad, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
