"""Loops stay loops: the generated simulator of a chain does not grow with
the chain (issue #23, "linear in the model's text").

usage: check_loops.py --nsmc NSMC --include DIR --lib A:B:.. [--cc CC]
                      [--cflags="FLAGS"] [--run-hertz]

For two chains written once with a `for` loop, a chain of Hertz contacts
(models/hertz_chain.nsm with its size changed) and a chain of cubic springs
(`force on P[i] = k3*(P[i+1].x - P[i].x)^3`), it generates the simulator at
N = 20 and N = 1000 beads and checks that the two files have the same number
of lines and differ only in integers (the constants naming N, the loops'
bounds, the work rows) and in the length of the tables of names (one line
per family, whose entries are data).  With --run-hertz it builds the
1000-bead Hertz chain and runs it over its first three contacts: each is a
two-body Hertz collision, engaged at (i - 1)(gap0/v + t_c/2) + gap0/v for
t_c = 3.218 (mu/k)^(2/5) v^(-1/5) (refs.hertz_contact_time: the closed
form, checked by quadrature), within 1e-12 s.
"""
import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "nonlinear"))

from mpmath import mpf  # noqa: E402

import refs  # noqa: E402

FAILS = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        FAILS.append(what)


def hertz_model(n):
    """models/hertz_chain.nsm with n beads (n - 1 contacts)."""
    with open(os.path.join(ROOT, "models", "hertz_chain.nsm")) as f:
        text = f.read()
    for old, new in (("P[1..20]", "P[1..%d]" % n), ("1..19", "1..%d" % (n - 1)),
                     ("P[20]", "P[%d]" % n)):
        assert old in text, "models/hertz_chain.nsm no longer holds " + old
        text = text.replace(old, new)
    return text


def cubic_model(n):
    """A chain of n masses pulled by cubic springs, one `for` loop."""
    return """model cubic_chain "A chain of cubic springs"
param m = 0.1 kg
param k3 = 1e6 N/m^3
mass P[1..{n}] = m
for i in 1..{n1}: force on P[i] = k3*(P[i+1].x - P[i].x)^3
init P[1].v = 1 m/s
simulate t_end = 1 ms
output every 0.1 ms: P[1].x, P[{n}].x
""".format(n=n, n1=n - 1)


def generate(nsmc, text, work, n):
    """The generated C of a model text, the model file named alike for every n."""
    d = os.path.join(work, str(n))
    os.makedirs(d, exist_ok=True)
    src, c = os.path.join(d, "chain.nsm"), os.path.join(d, "chain.c")
    with open(src, "w") as f:
        f.write(text)
    subprocess.run([nsmc, src, "-o", c], check=True)
    with open(c) as f:
        return f.read().splitlines()


def shape(line):
    """A line with its integers as '#' and a run of equal table entries as
    one (a table of names lists one entry per element)."""
    s = re.sub(r"\d+", "#", line)
    s = re.sub(r'(\{[^{}]*\},\s*)\1+', r"\1", s)
    s = re.sub(r'("[^"]*",\s*)\1+', r"\1", s)
    return s


def compare(name, small, big):
    check(len(small) == len(big),
          "%s: %d lines at N = 20, %d at N = 1000" % (name, len(small), len(big)))
    odd = [(a, b) for a, b in zip(small, big) if a != b and shape(a) != shape(b)]
    check(not odd, "%s: the files differ only in integers and the tables of names%s" %
          (name, "" if not odd else " (first other difference: %r / %r)" % (odd[0][0][:100], odd[0][1][:100])))
    loops = sum(1 for line in big if re.search(r"for \((int )?i = 0; i < 99\d; i\+\+\)", line))
    check(loops > 0, "%s: %d loops over the chain's elements at N = 1000" % (name, loops))


def run_hertz(args, work):
    d = os.path.join(work, "1000")
    exe = os.path.join(d, "hertz1000")
    subprocess.run([args.cc] + args.cflags.split() + [os.path.join(d, "chain.c"), "-I", args.include] +
                   args.lib.split(os.pathsep) + ["-lm", "-o", exe], check=True)
    ev = os.path.join(d, "ev.csv")
    subprocess.run([exe, "--t-end", "2.2e-3", "--events", ev, "--out", os.path.join(d, "out.csv")],
                   check=True, stdout=subprocess.DEVNULL)
    with open(ev) as f:
        events = list(csv.DictReader(f))
    m, v, kh, gap0 = mpf("0.1"), mpf(1), mpf("1e9"), mpf("0.5e-3")
    tc = refs.hertz_contact_time(m / 2, kh, v)
    on = [e for e in events if e["kind"] == "contact_enter"]
    off = [e for e in events if e["kind"] == "contact_exit"]
    check(len(on) == 3 and len(off) == 3 and len(events) == 6,
          "hertz 1000: %d engagements, %d releases (3 each) in 2.2 ms" % (len(on), len(off)))
    for i, (a, b) in enumerate(zip(on, off)):
        t0 = i * (gap0 / v + tc / 2) + gap0 / v
        name = "G[%d]" % (i + 1)
        ea, eb = abs(float(a["t"]) - float(t0)), abs(float(b["t"]) - float(t0 + tc))
        check(a["contact"] == name and b["contact"] == name and ea <= 1e-12 and eb <= 1e-12,
              "hertz 1000: %s from %s to %s (closed form %s, %s; errors %.2g, %.2g s)" %
              (name, a["t"], b["t"], mpf(t0), mpf(t0 + tc), ea, eb))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nsmc", required=True)
    ap.add_argument("--include")
    ap.add_argument("--lib")
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--cflags", default="-O2")
    ap.add_argument("--chain", choices=["hertz", "cubic"], required=True)
    ap.add_argument("--run-hertz", action="store_true")
    args = ap.parse_args()
    model = hertz_model if args.chain == "hertz" else cubic_model
    with tempfile.TemporaryDirectory() as work:
        small = generate(args.nsmc, model(20), work, 20)
        big = generate(args.nsmc, model(1000), work, 1000)
        compare(args.chain, small, big)
        if args.run_hertz:
            run_hertz(args, work)
    if FAILS:
        sys.exit(1)


if __name__ == "__main__":
    main()
