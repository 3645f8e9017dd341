"""Events do not depend on where the model sits: models shifted by +-1000 m.

usage: shift.py --nsmc NSMC --include DIR --lib A:B:.. [--cc CC]
                [--cflags="FLAGS"] --model PATH [--method M] [--set NAME=V ..]
                [--shift S ..] [--tol T] [--vtol V]

Rewrites the model's text so that every body starts S metres further along
(every `init` position gets + S, a body without one is given S), every gap
that measures a body against a fixed wall moves its wall by S (the sum of
the signs of its bodies' terms times S is taken off the gap), and every
spring tied to the ground moves its anchor by S (its `rest` length becomes
+S or -S).  The physics is then the same, translated.  Runs the original and
each shifted model and checks that the event logs agree: the same events,
of the same kinds, on the same contacts, at the same instants to TOL
(default 1e-12 s), with the same relative velocities to VTOL (default 1e-9)
of the largest velocity.  The tolerances of gaps, velocities and forces must not follow
the absolute coordinates (issue #25, item 2).
"""
import csv
import os
import re
import subprocess
import sys

from harness import build_text, check, main


def metres(v):
    """A length in the model's syntax, sign written out."""
    return ("+ %r m" % v) if v >= 0 else ("- %r m" % -v)


def bodies(text):
    """The names of the model's bodies (families expanded)."""
    out = []
    for m in re.finditer(r"^mass\s+([A-Za-z_]\w*)(?:\[(\d+)\.\.(\d+)\])?\s*=", text, re.M):
        if m.group(2):
            out += ["%s[%d]" % (m.group(1), i) for i in range(int(m.group(2)), int(m.group(3)) + 1)]
        else:
            out.append(m.group(1))
    return out


def shift_text(text, S):
    """The model translated by S metres (see the module's text)."""
    if S == 0:
        return text
    # initial positions: inside the init statement (up to `simulate`)
    m = re.search(r"^init\b(.*?)(?=^simulate\b|^output\b|\Z)", text, re.M | re.S)
    init = m.group(1) if m else ""
    seen = set()

    def init_sub(mm):
        seen.add(mm.group(1))
        return "%s.x = %s %s" % (mm.group(1), mm.group(2).strip(), metres(S))

    new = re.sub(r"([A-Za-z_]\w*(?:\[\d+\])?)\.x\s*=\s*([^,\n]+)", init_sub, init)
    extra = ["%s.x = %r m" % (b, S) for b in bodies(text) if b not in seen]
    if m:
        new = new.rstrip("\n") + (", " + ", ".join(extra) if extra else "") + "\n"
        text = text[:m.start(1)] + new + text[m.end(1):]
    else:
        text = re.sub(r"^simulate", "init " + ", ".join(extra) + "\nsimulate", text, count=1,
                      flags=re.M)

    # walls: a gap whose body terms do not cancel
    def gap_sub(mm):
        expr = mm.group(2)
        c = 0
        for t in re.finditer(r"(^|[+-])\s*(?:[\d.]+\s*\*\s*)?[A-Za-z_]\w*(?:\[[^\]]*\])?\.x", expr):
            c += -1 if t.group(1) == "-" else 1
        if c == 0:
            return mm.group(0)
        return "%s%s %s >= 0" % (mm.group(1), expr.rstrip(), metres(-c * S))

    text = re.sub(r"(gap\s+[^:]+:\s*)(.*?)>=\s*0\b", gap_sub, text)

    # springs tied to the ground: the anchor moves with the model
    def spring_sub(mm):
        line, _, note = mm.group(0).partition("#")
        if "rest" in line:
            raise SystemExit("shift.py: a ground spring with a rest length: not rewritten")
        sign = 1 if re.search(r"ground\s*--", line) else -1
        return line.rstrip() + ", rest = %r m" % (sign * S) + ("  #" + note if note else "")

    text = re.sub(r"^spring[^\n]*\bground\b[^\n]*$", spring_sub, text, flags=re.M)
    return text


def run(exe, args, work):
    """Runs the simulator with the method and settings asked for; its event rows."""
    ev = os.path.join(work, "ev.csv")
    cmd = [exe, "--method", args.method, "--events", ev]
    for s in args.set:
        cmd += ["--set", s]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise RuntimeError("simulator failed: " + p.stderr)
    with open(ev) as f:
        return list(csv.DictReader(f))


def options(ap):
    """The script's own options (see the module's text)."""
    ap.add_argument("--model", required=True)
    ap.add_argument("--method", default="exact")
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--shift", type=float, action="append", default=[])
    ap.add_argument("--tol", type=float, default=1e-12)
    ap.add_argument("--vtol", type=float, default=1e-9, help="relative velocities, relative")
    ap.add_argument("--print", action="store_true", help="print the shifted texts")


def compare(args, work):
    """Runs the model and each shifted copy in work, checks their event logs agree."""
    shifts = args.shift or [1000.0, -1000.0]
    with open(args.model) as f:
        text = f.read()
    name = os.path.splitext(os.path.basename(args.model))[0]
    ref = run(build_text(args, text, work, name), args, work)
    check(len(ref) > 0, "%s: the unshifted run has events (%d)" % (name, len(ref)))
    vmax = max([abs(float(e["vrel_before"])) for e in ref] + [1e-300])
    for S in shifts:
        t = shift_text(text, S)
        if args.print:
            print(t)
        got = run(build_text(args, t, work, name + "_s"), args, work)
        tag = "%s %s shifted %+g m" % (name, args.method, S)
        check(len(got) == len(ref), "%s: %d events (unshifted %d)" % (tag, len(got), len(ref)))
        worst_t = worst_v = 0.0
        same = True
        for a, b in zip(ref, got):
            if a["kind"] != b["kind"] or a["contact"] != b["contact"]:
                same = False
            worst_t = max(worst_t, abs(float(a["t"]) - float(b["t"])))
            worst_v = max(worst_v, abs(float(a["vrel_before"]) - float(b["vrel_before"])),
                          abs(float(a["vrel_after"]) - float(b["vrel_after"])))
        check(same, "%s: the same kinds and contacts in order" % tag)
        check(worst_t <= args.tol, "%s: instants within %g s (worst %.3g)" % (tag, args.tol, worst_t))
        check(worst_v <= args.vtol * vmax,
              "%s: relative velocities within %g of %.3g (worst %.3g)" % (tag, args.vtol, vmax, worst_v))


if __name__ == "__main__":
    sys.exit(main(compare, options))
