"""A chain of N equal beads d apart, the first moving at v into the others,
e = 1 (tests/cradle/chain1000.nsm), against its closed form.

    chain_check.py --sim EXE --method M [--t-end T]

Every collision is binary and exchanges the two velocities, so the velocity
is handed down the chain: gap k (between beads k and k+1, index k-1) closes
at t_k = k d / v with relative velocity -v before and +v after, impulse
m v; bead k < N ends at rest at x = d, bead N moves at v from x = 0 at
t_{N-1} = (N - 1) d / v.  Checked: the number of events (N - 1 impacts, no
other record), each one's gap, time (to 1e-12 s), speeds and impulse (to
1e-12 of v and m v), and every final position and velocity (to 1e-12).
"""
import argparse
import subprocess
import sys

N, M, D, V = 1000, 0.01, 1e-3, 1.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sim", required=True)
    ap.add_argument("--method", required=True)
    ap.add_argument("--t-end", type=float, default=1.2)
    a = ap.parse_args()
    out = subprocess.run([a.sim, a.method, repr(a.t_end)], check=True, capture_output=True,
                         text=True).stdout
    status, events, x, v = None, [], {}, {}
    for line in out.splitlines():
        f = line.split()
        if f[0] == "status":
            status = " ".join(f[1:])
        elif f[0] == "event":
            events.append((f[1], int(f[2])) + tuple(float(u) for u in f[3:7]))
        elif f[0] == "x":
            x[int(f[1])] = float(f[2])
        elif f[0] == "v":
            v[int(f[1])] = float(f[2])
    bad = []
    if status != "0":
        bad.append("status " + str(status))
    last = min(N - 1, int(a.t_end * V / D + 1e-9))
    if len(events) != last:
        bad.append("%d events, expected %d impacts" % (len(events), last))
    for k, (kind, j, t, vb, va, p) in enumerate(events[:last], start=1):
        want = k * D / V
        if kind != "impact" or j != k - 1 or abs(t - want) > 1e-12 or abs(vb + V) > 1e-12 * V \
                or abs(va - V) > 1e-12 * V or abs(p - M * V) > 1e-12 * M * V:
            bad.append("event %d: %s on gap %d at t = %.17g (expected impact on gap %d at %.17g), "
                       "vrel %.17g -> %.17g, impulse %.17g" % (k, kind, j, t, k - 1, want, vb, va, p))
            if len(bad) > 10:
                break
    if last == N - 1:
        for i in range(N):
            xw = D if i < N - 1 else V * a.t_end - (N - 1) * D
            vw = 0.0 if i < N - 1 else V
            if abs(x.get(i, float("nan")) - xw) > 1e-12 or abs(v.get(i, float("nan")) - vw) > 1e-12:
                bad.append("bead %d: x = %r (expected %r), v = %r (expected %r)"
                           % (i + 1, x.get(i), xw, v.get(i), vw))
                if len(bad) > 20:
                    break
    if bad:
        print("\n".join(bad))
        return 1
    print("%d impacts handed the velocity down %d beads (%s): every time, speed and final "
          "state within 1e-12" % (len(events), N, a.method))
    return 0


if __name__ == "__main__":
    sys.exit(main())
