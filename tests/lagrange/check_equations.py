#!/usr/bin/env python3
"""Checks nsmc's Euler-Lagrange derivation (--emit=equations of a model
written by its energies) against two independent references, at random
states:

  * the equations of motion written by hand for each model (textbook forms:
    Goldstein ch. 1-2; the cart-pendulum, the double pendulum, the elastic
    pendulum in polar coordinates);
  * the Euler-Lagrange equations differentiated numerically by mpmath at 30
    digits from the kinetic and potential energies as written in the .nsm
    source: M_ij = d2T/dv_i dv_j and h_i = dT/dq_i - dV/dq_i -
    sum_k d2T/dv_i dq_k v_k (d/dt dT/dv_i = M a + that sum), a form nsmc
    does not use (it differentiates M along the motion).

Every M entry, h entry, generalized force Q and gap row W printed by nsmc is
evaluated and must agree to 1e-12 relative.

    check_equations.py --nsmc build/nsmc [--model NAME]
"""
import argparse
import random
import re
import subprocess

import mpmath as mp

import lagcheck as lc

FUNCS = {"sin": mp.sin, "cos": mp.cos, "tan": mp.tan, "exp": mp.exp, "log": mp.log,
         "sqrt": mp.sqrt, "pi": mp.pi}
MEMBER = re.compile(r"\b([A-Za-z_]\w*)\.([A-Za-z_]\w*)\b")


def pyexpr(text):
    """An nsmc or .nsm expression (no units) as a Python expression."""
    return MEMBER.sub(r"\1__\2", text).replace("^", "**")


def evaluate(text, env):
    return eval(pyexpr(text), {"__builtins__": {}}, dict(FUNCS, **env))


def source_model(path):
    """Parameters (SI numbers), coordinates (name, position and velocity
    fields) and the energies' text, read from the .nsm file."""
    params, coords, kin, pot = {}, [], None, "0"
    for line in open(path):
        w = line.split()
        if not w:
            continue
        if w[0] == "param":
            params[w[1]] = mp.mpf(w[3])
        elif w[0] == "coordinate":
            ang = w[2] == "angle"
            coords.append((w[1].rstrip(":"), "phi" if ang else "x", "omega" if ang else "v"))
        elif w[0] == "kinetic":
            kin = line.split("=", 1)[1].strip()
        elif w[0] == "potential":
            pot = line.split("=", 1)[1].strip()
    return params, coords, kin, pot


def nsmc_equations(nsmc, path):
    """The displayed equations of the text report: {lhs: rhs}."""
    out = subprocess.run([nsmc, "--emit=equations", "--format=text", path], check=True,
                         capture_output=True, text=True).stdout
    eqs = {}
    for line in out.splitlines():
        if line.startswith("    ") and " = " in line:
            lhs, rhs = line.strip().split(" = ", 1)
            eqs[lhs] = rhs
    return eqs


def el_reference(params, coords, kin, pot, q, v):
    """M and h of the Euler-Lagrange equations by numerical differentiation."""
    n = len(coords)

    def env(qq, vv):
        e = dict(params)
        for (c, pf, vf), qi, vi in zip(coords, qq, vv):
            e["%s__%s" % (c, pf)] = qi
            e["%s__%s" % (c, vf)] = vi
        return e

    def T(*z):
        return evaluate(kin, env(z[:n], z[n:]))

    def V(*z):
        return evaluate(pot, env(z[:n], [0] * n))

    z = list(q) + list(v)
    M = [[None] * n for _ in range(n)]
    h = []
    for i in range(n):
        for j in range(n):
            order = [0] * (2 * n)
            order[n + i] += 1
            order[n + j] += 1
            M[i][j] = mp.diff(T, z, tuple(order))
        oq = [0] * (2 * n)
        oq[i] = 1
        hi = mp.diff(T, z, tuple(oq)) - mp.diff(V, z, tuple(oq))
        for k in range(n):
            o = [0] * (2 * n)
            o[n + i] = 1
            o[k] += 1
            hi -= mp.diff(T, z, tuple(o)) * v[k]
        h.append(hi)
    return M, h


def hand(name, p, q, v):
    """The equations written by hand: (M, h, Q, {gap: W row}) or parts None."""
    c, s = mp.cos, mp.sin
    if name == "cart_pendulum":
        (x, th), (xd, w) = q, v
        M = [[p["M"] + p["m"], p["m"] * p["l"] * c(th)],
             [p["m"] * p["l"] * c(th), p["m"] * p["l"] ** 2]]
        h = [p["m"] * p["l"] * w ** 2 * s(th), -p["m"] * p["g"] * p["l"] * s(th)]
        return M, h, None, {"stop": [-1, 0]}
    if name == "double_pendulum":
        (a, b), (wa, wb) = q, v
        m1, m2, l1, l2, g = (p[k] for k in ("m1", "m2", "l1", "l2", "g"))
        M = [[(m1 + m2) * l1 ** 2, m2 * l1 * l2 * c(a - b)],
             [m2 * l1 * l2 * c(a - b), m2 * l2 ** 2]]
        h = [-m2 * l1 * l2 * wb ** 2 * s(a - b) - (m1 + m2) * g * l1 * s(a),
             m2 * l1 * l2 * wa ** 2 * s(a - b) - m2 * g * l2 * s(b)]
        return M, h, None, {}
    if name == "spring_pendulum":
        (r, th), (rd, w) = q, v
        m, k, cc, L0, g = (p[x] for x in ("m", "k", "c", "L0", "g"))
        M = [[m, 0], [0, m * r ** 2]]
        h = [m * r * w ** 2 + m * g * c(th), -2 * m * r * rd * w - m * g * r * s(th)]
        Q = [-k * (r - L0) - cc * rd, -0.05 * w]
        return M, h, Q, {"wall": [-s(th), -r * c(th)]}
    raise SystemExit("no hand-written equations for %s" % name)


def close(a, b, what, scale):
    if abs(a - b) > 1e-12 * max(1, scale):
        raise SystemExit("FAIL %s: nsmc %s, reference %s" % (what, mp.nstr(a, 17), mp.nstr(b, 17)))


def check(nsmc, name, rng):
    path = lc.model_path(name)       # a model that runs lives in models/
    params, coords, kin, pot = source_model(path)
    eqs = nsmc_equations(nsmc, path)
    n = len(coords)
    pos = ["%s.%s" % (cn, pf) for cn, pf, _ in coords]
    checked = 0
    for _ in range(5):
        q = [mp.mpf(rng.uniform(0.2, 1.5)) for _ in range(n)]
        v = [mp.mpf(rng.uniform(-3, 3)) for _ in range(n)]
        env = dict(params)
        for (cn, pf, vf), qi, vi in zip(coords, q, v):
            env["%s__%s" % (cn, pf)] = qi
            env["%s__%s" % (cn, vf)] = vi
        M, h, Q, W = hand(name, params, q, v)
        Mn, hn = el_reference(params, coords, kin, pot, q, v)
        scale = max(abs(x) for row in M for x in row) + max(abs(x) for x in h)
        for i in range(n):
            for j in range(n):
                key = "M[%s, %s]" % (pos[min(i, j)], pos[max(i, j)])
                got = evaluate(eqs[key], env)
                close(got, M[i][j], key + " (by hand)", scale)
                close(got, Mn[i][j], key + " (mpmath Euler-Lagrange)", scale)
                checked += 1
            key = "h[%s]" % pos[i]
            got = evaluate(eqs[key], env)
            close(got, h[i], key + " (by hand)", scale)
            close(got, hn[i], key + " (mpmath Euler-Lagrange)", scale)
            checked += 1
            key = "Q[%s]" % pos[i]
            if Q is None:
                if key in eqs:
                    raise SystemExit("FAIL %s printed for a model without forces" % key)
            else:
                close(evaluate(eqs[key], env), Q[i], key, scale)
                checked += 1
        for gap, row in W.items():
            for i in range(n):
                key = "W[%s, %s]" % (gap, pos[i])
                close(evaluate(eqs[key], env), row[i], key, 1)
                checked += 1
    print("%s: %d values agree with the hand-written and the mpmath Euler-Lagrange "
          "equations" % (name, checked))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nsmc", required=True)
    ap.add_argument("--model", action="append")
    a = ap.parse_args()
    mp.mp.dps = 30
    rng = random.Random(23)
    for name in a.model or ["cart_pendulum", "double_pendulum", "spring_pendulum"]:
        check(a.nsmc, name, rng)


if __name__ == "__main__":
    main()
