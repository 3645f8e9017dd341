#!/usr/bin/env python3
"""nsmc sweep: records against the mpmath reference, identical files for any
number of jobs and MPI ranks, the summary's periods, refused arguments.

    sweep_test.py --nsmc NSMC [--mpirun MPIRUN | --no-mpi]

1. The forced impact oscillator (models/forced_impact_oscillator.nsm) swept
   over the reference's frequencies (tests/reference/data/
   forced_impact_oscillator.period1.csv, the fixed points of the impact map
   in closed form): every kept record of the impact map must be the
   reference orbit (speed and phase to 1e-10, M.x at the stop), and the
   summary must say period 1 with one impact per period.
2. Just past the first period doubling (reference: omega_pd) the summary
   must say period 2 with two impacts, just before it period 1.
3. A two-parameter sweep with --continue both gives the same section.csv and
   summary.csv, byte for byte, with --jobs 1, --jobs 2 and (when --mpirun is
   given) under mpirun -np 2; the plot files are written.
4. An unknown parameter, a bad range and a missing --out-dir are refused
   with exit 1 and nothing written.
"""
import argparse
import csv
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODEL = os.path.join(ROOT, "models", "forced_impact_oscillator.nsm")
REF = os.path.join(ROOT, "tests", "reference", "data", "forced_impact_oscillator.%s.csv")


def check(label, ok, detail):
    print("%s %s: %s" % ("ok  " if ok else "FAIL", label, detail))
    return 0 if ok else 1


def sweep(nsmc, out, args, env=None, prefix=()):
    cmd = list(prefix) + [nsmc, "sweep", MODEL] + args + ["--out-dir", out]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return r


def read(path):
    with open(path) as f:
        return list(csv.reader(f))


def reference_test(nsmc, d):
    with open(REF % "period1") as f:
        ref = [dict((k, float(v)) for k, v in r.items()) for r in csv.DictReader(f)]
    lo, hi, n = ref[0]["omega"], ref[-1]["omega"], len(ref)
    out = os.path.join(d, "p1")
    r = sweep(nsmc, out, ["--param", "omega=%r:%r:%d" % (lo, hi, n), "--section", "impact:stop",
                          "--section-period", "2*pi/omega", "--transient", "250", "--record", "20",
                          "--t-max", "300*2*pi/omega", "--jobs", "2"])
    if r.returncode != 0:
        return check("sweep over the reference's frequencies", False, r.stderr.strip())
    rows = read(os.path.join(out, "section.csv"))
    summ = read(os.path.join(out, "summary.csv"))
    fails = 0
    fails += check("nsmc names the sweep program it builds or reuses",
                   "the sweep program" in r.stderr and "simulator" not in r.stderr, r.stderr.strip())
    fails += check("section.csv header", rows[0] == ["omega [rad/s]", "t [s]", "phase", "M.x [m]", "M.v [m/s]"],
                   ",".join(rows[0]))
    worst_u = worst_p = worst_x = 0.0
    count = {}
    for row in rows[1:]:
        w, t, ph, x, v = [float(z) for z in row]
        k = min(range(n), key=lambda i: abs(ref[i]["omega"] - w))
        count[k] = count.get(k, 0) + 1
        dp = abs(ph - ref[k]["phase"])
        worst_p = max(worst_p, min(dp, 1 - dp))
        worst_u = max(worst_u, abs(v - ref[k]["u"]))
        worst_x = max(worst_x, abs(x))
    ok = (len(count) == n and all(c == 20 for c in count.values()) and worst_u <= 1e-10
          and worst_p <= 1e-10 and worst_x <= 1e-12)
    fails += check("records against the reference", ok, "%d frequencies, worst speed %.3g m/s, "
                   "phase %.3g, position %.3g m" % (len(count), worst_u, worst_p, worst_x))
    per = [(r[1], r[3], r[5]) for r in summ[1:]]
    fails += check("summary: period 1, one impact", len(per) == n and all(p == ("ok", "1", "1") for p in per),
                   "; ".join("%s %s %s" % p for p in per[:3]) + " ...")
    return fails


def doubling_test(nsmc, d):
    with open(REF % "doubling") as f:
        wpd = float(next(csv.DictReader(f))["omega_pd"])
    out = os.path.join(d, "pd")
    r = sweep(nsmc, out, ["--param", "omega=%r:%r:2" % (wpd - 0.02, wpd + 0.04), "--section",
                          "impact:stop", "--section-period", "2*pi/omega", "--transient", "1500",
                          "--record", "40", "--t-max", "2000*2*pi/omega"])
    if r.returncode != 0:
        return check("sweep across the period doubling", False, r.stderr.strip())
    summ = read(os.path.join(out, "summary.csv"))
    got = [(r[1], r[3], r[5]) for r in summ[1:]]
    return check("summary across the doubling at %.6f" % wpd,
                 got == [("ok", "1", "1"), ("ok", "2", "2")], str(got))


def settling_test(nsmc, d):
    """An orbit still settling below the doubling (its multiplier near -1,
    the period-1 orbit stable by the mpmath reference's doubling at wpd)
    alternates about it: after a short transient its records repeat to 1e-6
    at two periods first.  The summary says period 1; a period-2 orbit
    above the doubling stays period 2 after the same transient."""
    with open(REF % "doubling") as f:
        wpd = float(next(csv.DictReader(f))["omega_pd"])
    out = os.path.join(d, "settle")
    r = sweep(nsmc, out, ["--param", "omega=%r:%r:2" % (2.655, 2.70), "--section",
                          "impact:stop", "--section-period", "2*pi/omega", "--transient", "100",
                          "--record", "40", "--t-max", "1000*2*pi/omega"])
    if r.returncode != 0:
        return check("sweep of a settling orbit", False, r.stderr.strip())
    summ = read(os.path.join(out, "summary.csv"))
    got = [(r[1], r[3], r[4]) for r in summ[1:]]
    return check("settling period-1 orbit at 2.655 < %.6f, period 2 at 2.70" % wpd,
                 got == [("ok", "1", "1"), ("ok", "2", "2")], str(got))


def floquet_test(nsmc, d):
    """--floquet: the multipliers in the summary and the bisected doubling."""
    with open(REF % "doubling") as f:
        wpd = float(next(csv.DictReader(f))["omega_pd"])
    with open(REF % "period1") as f:
        ref = dict((float(r["omega"]), r) for r in csv.DictReader(f))
    out = os.path.join(d, "fq")
    r = sweep(nsmc, out, ["--param", "omega=2.4:2.8:9", "--section", "impact:stop", "--section-period",
                          "2*pi/omega", "--transient", "200", "--record", "40", "--t-max",
                          "1000*2*pi/omega", "--floquet", "--continue", "up"])
    if r.returncode != 0:
        return check("--floquet", False, r.stderr.strip())
    fails = 0
    worst = 0.0
    summ = read(os.path.join(out, "summary.csv"))
    col = summ[0].index("multipliers")
    for row in summ[1:]:
        w = float(row[0])
        k = min(ref, key=lambda z: abs(z - w))
        if abs(k - w) > 1e-12:
            continue
        got = [complex(z.replace("i", "j")) for z in row[col].split()] if row[col] else []
        want = [complex(float(ref[k]["mu1_re"]), float(ref[k]["mu1_im"])),
                complex(float(ref[k]["mu2_re"]), float(ref[k]["mu2_im"]))]
        if len(got) != 2:
            worst = float("inf")
            continue
        worst = max(worst, min(max(abs(got[0] - want[0]), abs(got[1] - want[1])),
                               max(abs(got[0] - want[1]), abs(got[1] - want[0]))))
    fails += check("--floquet: multipliers in the summary", worst <= 1e-9,
                   "worst %.3g against the reference (printed to 10 digits)" % worst)
    bif = read(os.path.join(out, "bifurcations.csv"))
    first = [b for b in bif[1:] if b[1] == "period doubling (-1)" and b[2] == "1"]
    ok = len(first) == 1 and abs(float(first[0][3]) - wpd) <= 1e-8 and first[0][5] == "bisected"
    fails += check("--floquet: first period doubling", ok, "%s (reference %.12f)"
                   % (first[0][3] if first else bif, wpd))
    return fails


def identity_test(nsmc, d, mpirun):
    args = ["--param", "omega=2.5:3.3:9", "--param", "e=0.7:0.8:2", "--section", "impact:stop",
            "--section-period", "2*pi/omega", "--transient", "40", "--record", "30",
            "--continue", "both", "--t-max", "200*2*pi/omega", "--floquet"]
    runs = [("--jobs 1", [], ["--jobs", "1"], None), ("--jobs 2", [], ["--jobs", "2"], None)]
    if mpirun:
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                   OMPI_MCA_rmaps_base_oversubscribe="1")
        # the sanitizers' leak check would count MPI's own allocations
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
        runs.append(("mpirun -np 2", [mpirun, "--oversubscribe", "-np", "2"], ["--jobs", "1"], env))
    fails, first = 0, None
    for label, prefix, extra, env in runs:
        out = os.path.join(d, "id" + str(len(label)) + label[-1])
        r = sweep(nsmc, out, args + extra, env=env, prefix=prefix)
        if r.returncode != 0:
            fails += check(label, False, "exit %d: %s" % (r.returncode, r.stderr.strip()[-800:]))
            continue
        files = {}
        for name in ("section.csv", "summary.csv", "bifurcations.csv"):
            with open(os.path.join(out, name), "rb") as f:
                files[name] = f.read()
        plots = all(os.path.getsize(os.path.join(out, p)) > 1000 for p in ("bifurcation.png", "bifurcation.svg"))
        if first is None:
            first = files
            lines = files["summary.csv"].count(b"\n")
            fails += check(label, plots and lines == 1 + 2 * 9 * 2,
                           "%d summary lines (want %d), plots %s" % (lines, 1 + 36, plots))
        else:
            same = files == first
            fails += check(label + " gives the files of --jobs 1", same and plots,
                           "identical" if same else "different")
    return fails


def refusal_test(nsmc, d):
    fails = 0
    for label, args in (("unknown parameter", ["--param", "nosuch=1:2:3", "--section", "impact:stop"]),
                        ("bad range", ["--param", "omega=1:2", "--section", "impact:stop"]),
                        ("bad section", ["--param", "omega=1:2:3", "--section", "impact:nosuch"])):
        out = os.path.join(d, "bad")
        r = sweep(nsmc, out, args)
        ok = r.returncode == 1 and "error" in r.stderr and not os.path.exists(os.path.join(out, "section.csv"))
        fails += check("refused: " + label, ok, r.stderr.strip().splitlines()[-1] if r.stderr else "")
    r = subprocess.run([nsmc, "sweep", MODEL, "--param", "omega=1:2:3", "--section", "impact:stop"],
                       capture_output=True, text=True)
    fails += check("refused: no --out-dir", r.returncode == 1, r.stderr.strip().splitlines()[-1])
    return fails


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nsmc", required=True)
    ap.add_argument("--mpirun", default="")
    ap.add_argument("--no-mpi", action="store_true",
                    help="the build left MPI out on purpose (-DNSM_MPI=OFF)")
    args = ap.parse_args()
    if not args.mpirun and not args.no_mpi:
        print("FAIL: MPI was not found (scripts/setup.sh installs libopenmpi-dev and "
              "openmpi-bin; -DNSM_MPI=OFF builds without it on purpose)")
        return 1
    if args.no_mpi:
        print("note: built with -DNSM_MPI=OFF: the mpirun -np 2 case is not run")
    with tempfile.TemporaryDirectory() as d:
        os.environ["XDG_CACHE_HOME"] = os.path.join(d, "cache")
        fails = reference_test(args.nsmc, d)
        fails += doubling_test(args.nsmc, d)
        fails += settling_test(args.nsmc, d)
        fails += floquet_test(args.nsmc, d)
        fails += identity_test(args.nsmc, d, args.mpirun)
        fails += refusal_test(args.nsmc, d)
    print("%d failed" % fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
