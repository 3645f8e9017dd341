#!/usr/bin/env python3
"""A seventeenth hostile pass over the programs and the Python package
(issue #29): the newest fixes at their edges (the simulator's report to
`nsmc run` through NSM_REPORT_FD, the output folder's lock content check,
the compiler's own temporary folder, the stop handlers under every signal
state, the byte order mark rule, options that stand alone), then what no
pass reached: HDF5 outputs read back and compared with the CSV files of the
same run, HDF5 under file-size limits, two writers of one HDF5 file, `nsmc
sweep` and `nsmc run` in one folder, the environment (TMPDIR missing,
HOME, a decimal comma in a Python process's locale), and the same runs
through the command line and Python.

    tests/reliability/seventeenth_pass_prog_test.py NSMC SIM SOURCE_DIR CASE

SIM is sim_forced_impact_oscillator (sim_bouncing_ball beside it).  Cases
(each under 20 s in the normal build):
  findings   what the pass found, each failing before its fix: a simulator
             run by hand with NSM_REPORT_FD naming a descriptor it had not
             inherited wrote nsmc's report ("write-failed") into its own
             --stats file; a TMPDIR without room was blamed on the
             generated C ("internal error ... please report this with the
             model", exit 2); in a Python process whose locale has a
             decimal comma, nsm.compile failed on the model's description
             and a section "period:2.5" was refused.
  kept       inputs that found nothing, kept: NSM_REPORT_FD's odd values,
             lock files of every content, parameter files with byte order
             marks, the stop signals blocked or ignored.
  kept_io    likewise: HDF5 against CSV (every column, name, unit and
             event), HDF5 under file-size limits, two HDF5 writers, a sweep
             and a run in one folder, TMPDIR and HOME, and the command line
             against Python.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import csv
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (SANITIZED, check, env_for, limit, main, prog_paths,  # noqa: E402
                     python_script, run, wait_until, whole_lines)

NSMC, SIM, SRC, BALL_SIM, FIO, BALL = prog_paths()


def shown(p):
    """The last line of a run's stderr that is not the event table, for the
    printed outcome."""
    lines = [ln for ln in p.stderr.strip().splitlines()
             if "cached" not in ln and "compiling the" not in ln and " impact " not in ln]
    return (lines[-1] if lines else "")[:120]


def report_fd(tmp):
    """NSM_REPORT_FD set by hand to the descriptor the simulator then gave
    its --stats file: an HDF5 output that failed (a file-size limit) wrote
    "write-failed" as the statistics' first line.  The report still
    reaches nsmc run (its energy line's verdict)."""
    stats = os.path.join(tmp, "st.csv")
    for fd in ("3", "4"):
        for f in os.listdir(tmp):
            if f.startswith(("st.", "a.h5")):
                os.unlink(os.path.join(tmp, f))
        p = run(tmp, [BALL_SIM, "--t-end", "100", "--stats", "st.csv", "--out", "a.h5"],
                env={"NSM_REPORT_FD": fd}, preexec=limit(20 * 1024))
        first = open(stats).readline().strip() if os.path.exists(stats) else "(none)"
        print("  NSM_REPORT_FD=%s sim --stats st.csv --out a.h5 under ulimit -f 20 -> %d, "
              "the statistics' first line %r" % (fd, p.returncode, first[:40]))
        check(p.returncode == 3 and first.startswith("contact,law,") and
              "write-failed" not in open(stats).read(),
              "NSM_REPORT_FD=%s by hand: nothing of nsmc's report in the run's own files" % fd, p)
    d = os.path.join(tmp, "rep")
    p = run(tmp, [NSMC, "run", BALL, "--no-plot", "--out-dir", d, "--t-end", "1"])
    print("  nsmc run (the report through its pipe) -> %d" % p.returncode)
    check(p.returncode == 0 and "the simulator's balance check passed at every step" in p.stdout,
          "nsmc run still gets the simulator's balance verdict through its pipe", p)


def full_tmpdir(tmp):
    """A TMPDIR without room, where cc writes its assembly: the compile
    failed with "internal error: the generated C ... did not compile;
    please report this with the model", exit 2.  Now the full folder is
    the cause, exit 1.  On a 64 KiB tmpfs filled, in a mount namespace of
    its own (root only)."""
    mnt = os.path.join(tmp, "mnt")
    os.makedirs(mnt)
    sh = ('mount -t tmpfs -o size=64k tmpfs "$T" || exit 99; '
          'dd if=/dev/zero of="$T/fill" bs=1k count=64 2>/dev/null; '
          'TMPDIR="$T" "$NSMC" run "$MODEL" -q --no-plot --out-dir "$OUT" --t-end 1; rc=$?; '
          'ls -A "$T" >&2; exit $rc')
    env = env_for(tmp)
    env.update(T=mnt, NSMC=NSMC, MODEL=BALL, OUT=os.path.join(tmp, "full_out"),
               XDG_CACHE_HOME=os.path.join(tmp, "cold"))     # a compile, not a cached program
    p = subprocess.run(["unshare", "-m", "sh", "-c", sh], env=env, cwd=tmp,
                       capture_output=True, text=True, timeout=300)
    if p.returncode == 99 or ("unshare" in p.stderr and p.returncode != 0):
        print("  no mount here (not root): the full TMPDIR is not tried")
        return
    print("  nsmc run with TMPDIR on a full 64 KiB tmpfs -> %d  %s" % (p.returncode, shown(p)))
    left = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else ""
    check(p.returncode == 1 and "internal error" not in p.stderr and
          "the compiler's temporary folder" in p.stderr and "set TMPDIR" in p.stderr and
          left == "fill",
          "a full TMPDIR named as the compile's cause, exit 1, nothing left in it", p)


# A Python program that sets a decimal comma for its numbers (de_DE, built
# into LOCPATH) before or after nsm.compile: the model's description and a
# section's period read as in the C locale, records bit for bit.
LOCALE = r'''
import locale, sys
import numpy as np
import nsm
ref = nsm.compile(sys.argv[1])
want = ref.section("period:2.5", t_end=30)
sweep = ref.sweep("omega", [2.5, 2.75], "period:2*pi/omega", transient=10, record=3)
locale.setlocale(locale.LC_ALL, "de_DE.UTF-8")
print("  the decimal point now %r" % locale.localeconv()["decimal_point"])
try:
    m = nsm.compile(sys.argv[1])
except nsm.Error as e:
    raise SystemExit("nsm.compile under a decimal comma: %s" % e)
same = [(k, p.value) for k, p in m.params.items()] == [(k, p.value) for k, p in ref.params.items()]
print("  nsm.compile: the parameters' defaults as in the C locale: %s" % same)
assert same
for spec, t in (("period:2.5", want), ("period:0.5e1/2", want)):
    try:
        got = m.section(spec, t_end=30)
    except nsm.Error as e:
        raise SystemExit("section %r under a decimal comma: %s" % (spec, e))
    ok = all(np.array_equal(a, b) for a, b in zip(got, t))
    print("  section %r: the C locale's records bit for bit: %s" % (spec, ok))
    assert ok
got = m.sweep("omega", [2.5, 2.75], "period:2*pi/omega", transient=10, record=3)
ok = all(np.array_equal(a, b) for a, b in zip(got, sweep))
print("  sweep: bit for bit: %s" % ok)
assert ok
print("ok")
'''


def decimal_comma(tmp):
    """nsm.compile and Model.section in a process whose locale has a
    decimal comma: the description's JSON had "t_end": 10,5 (nsm.Error,
    "JSONDecodeError"), "period:2.5" was "unexpected text at '.5'"."""
    loc = os.path.join(tmp, "locales")
    os.makedirs(loc)
    p = subprocess.run(["localedef", "-i", "de_DE", "-f", "UTF-8",
                        os.path.join(loc, "de_DE.UTF-8")], capture_output=True, text=True)
    if not os.path.isdir(os.path.join(loc, "de_DE.UTF-8")):
        print("  no de_DE locale can be built here (localedef: %s): not tried"
              % p.stderr.strip()[:80])
        return
    os.environ["LOCPATH"] = loc
    try:
        python_script(tmp, "comma.py", LOCALE, [FIO],
                      "a decimal comma in Python's locale: the same model, sections and sweeps")
    finally:
        del os.environ["LOCPATH"]


def findings(tmp):
    """What the pass found, each failing before its fix."""
    report_fd(tmp)
    full_tmpdir(tmp)
    decimal_comma(tmp)


def report_values(tmp):
    """NSM_REPORT_FD set by hand to anything: the run's files byte for byte
    those of a run without it, exit 0."""
    base = [BALL_SIM, "--t-end", "2", "--out", "a.csv", "--events", "e.csv", "--stats", "s.csv"]
    p = run(tmp, base)
    ref = [open(os.path.join(tmp, f), "rb").read() for f in ("a.csv", "e.csv", "s.csv")]
    for v in ("3", "4", "5", "9", "abc", "-1", "99999999999", " 3", "3 ", "0", "1", "2", ""):
        p = run(tmp, base, env={"NSM_REPORT_FD": v})
        got = [open(os.path.join(tmp, f), "rb").read() for f in ("a.csv", "e.csv", "s.csv")]
        print("  NSM_REPORT_FD=%-13r -> %d, files as without it: %s" % (v, p.returncode, got == ref))
        check(p.returncode == 0 and got == ref, "NSM_REPORT_FD=%r by hand: the files whole" % v, p)


def lock_contents(tmp):
    """The output folder's lock holding each content: a process id (with
    its line end or not, 31 digits at most) or nothing is taken over; any
    other content refused, exit 1, the file as it was."""
    cases = [(b"", 0), (b"0", 0), (b"12\n", 0), (b"7" * 31, 0), (b"7" * 32, 1),
             (b"12\n\n", 1), (b" 12", 1), (b"+12", 1), (b"12\r\n", 1), (b"\n", 1),
             (b"-1", 1), (b"7" * 100000, 1)]
    for i, (content, want) in enumerate(cases):
        d = os.path.join(tmp, "lk%d" % i)
        os.mkdir(d)
        lock = os.path.join(d, ".nsm-run.lock")
        with open(lock, "wb") as f:
            f.write(content)
        p = run(tmp, [NSMC, "run", BALL, "-q", "--no-plot", "--out-dir", d, "--t-end", "1"])
        now = open(lock, "rb").read() if os.path.exists(lock) else None
        print("  a lock holding %-12r -> %d" % (content[:10] + (b"..." if len(content) > 10
                                                                 else b""), p.returncode))
        # taken, it is removed at the run's end (the run's results stay)
        check(p.returncode == want and (now == content if want else now is None),
              "a lock holding %r: %s" % (content[:12], "refused, intact" if want else
                                         "taken, then removed at the end"), p)


def bom_files(tmp):
    """Parameter files with byte order marks: the first mark read as
    nothing, a second one, a half one, UTF-16 and a mark or a no-break space
    elsewhere refused at their line and column by code point."""
    cases = [(b"\xef\xbb\xbfe = 0.5\n", 0, ""), (b"\xef\xbb\xbf", 0, ""),
             (b"\xef\xbb\xbf# c\r\ne = 0.5\r\n", 0, ""), (b"\xef\xbb\xbf\te = 0.5\n", 0, ""),
             (b"e = 0.5 # \xef\xbb\xbf\n", 0, ""),
             (b"\xef\xbb\xbf\xef\xbb\xbfe = 0.5\n", 1, "1:1: the character U+FEFF"),
             (b"\xef\xbbe = 0.5\n", 1, "1:1: the byte 0xef"),
             (b"\xff\xfee\x00", 1, "NUL"),
             (b"e = 0.5\xc2\xa0\n", 1, "1:8: the character U+00A0"),
             (b"e = 0\xd9\xab5\n", 1, "1:6: the character U+066B"),
             (b"e = 0,5\n", 1, "unknown unit ',5'")]
    for content, want, said in cases:
        with open(os.path.join(tmp, "p.txt"), "wb") as f:
            f.write(content)
        p = run(tmp, [BALL_SIM, "--set-file", "p.txt", "--t-end", "1", "--events", "b.csv"])
        print("  --set-file %-40r -> %d  %s" % (content[:36], p.returncode, shown(p)[:70]))
        e = None
        if p.returncode == 0:
            # the impact's restitution from its speeds: the file's e, or the default 0.9
            row = list(csv.reader(open(os.path.join(tmp, "b.csv"))))[1]
            e = -float(row[4]) / float(row[3])
        want_e = 0.5 if b"e = 0.5" in content else 0.9
        check(p.returncode == want and said in p.stderr and
              (e is None or abs(e - want_e) < 1e-9),
              "a parameter file %r: %s" % (content[:20], "read, e = %s" % e if not want
                                           else "refused"), p)


def signal_states(tmp):
    """The simulator under each inherited signal state: a stop signal
    blocked is unblocked and stops the run, an ignored one stays ignored
    (the run goes on), the others still stop it."""
    def blocked(*s):
        return lambda: signal.pthread_sigmask(signal.SIG_BLOCK, s)

    def ignored(*s):
        return lambda: [signal.signal(x, signal.SIG_IGN) for x in s]
    T, INT, H = signal.SIGTERM, signal.SIGINT, signal.SIGHUP
    cases = [("SIGTERM blocked", blocked(T), T, True), ("all three blocked", blocked(T, INT, H),
                                                         INT, True),
             ("SIGHUP ignored", ignored(H), H, False), ("SIGINT ignored", ignored(INT), INT, False),
             ("SIGINT ignored", ignored(INT), T, True), ("SIGTERM ignored", ignored(T), H, True)]
    for label, pre, sig, stops in cases:
        pr = subprocess.Popen([SIM, "--t-end", "1e5", "--method", "rk4", "--max-steps", "1e9",
                               "--out", "g.csv"], cwd=tmp, preexec_fn=pre,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(0.4 if not SANITIZED else 1.2)
        pr.send_signal(sig)
        try:
            err = pr.communicate(timeout=3 if not SANITIZED else 8)[1]
            rc = pr.returncode
        except subprocess.TimeoutExpired:
            pr.send_signal(signal.SIGKILL)
            err, rc = pr.communicate()[1], "running"
        print("  %-18s sent %s -> %s" % (label, sig.name, rc))
        check((rc == 128 + sig and "interrupted by %s" % sig.name in err) if stops
              else rc == "running",
              "%s, %s sent: %s" % (label, sig.name, "stopped, exit %d" % (128 + sig) if stops
                                   else "ignored, the run goes on"))
        whole_lines(os.path.join(tmp, "g.csv"))


# HDF5 read back beside the CSV files of the same run: every column's name
# and unit, every sample within the CSV's 12 digits, every event's fields,
# the run's attributes, the parameter values the run used.
H5_CSV = r'''
import csv, subprocess, sys
import h5py
import numpy as np
sim, d = sys.argv[1], sys.argv[2]
for name, extra in ((sim, ["--set", "omega=2.7", "--method", "exact"]),
                    (sys.argv[3], ["--set", "e=0.5"])):
    p = subprocess.run([name, "--t-end", "20", "--out", d + "/a.csv", "--out", d + "/a.h5",
                        "--events", d + "/e.csv"] + extra, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    rows = list(csv.reader(open(d + "/a.csv")))
    data = np.array([[float(x) for x in r] for r in rows[1:]])
    f = h5py.File(d + "/a.h5", "r")
    tr = f["trajectory"][:]
    at = f["trajectory"].attrs
    names = ["%s [%s]" % (c.decode(), u.decode()) if u else c.decode()
             for c, u in zip(at["columns"], at["units"])]
    assert names == rows[0], (names, rows[0])
    assert tr.shape == data.shape, (tr.shape, data.shape)
    assert all(float("%.12g" % h) == c for h, c in zip(tr.ravel(), data.ravel()))
    ev = list(csv.reader(open(d + "/e.csv")))
    he = f["events"][:]
    assert len(he) == len(ev) - 1 and list(he.dtype.names) == ev[0], (he.dtype.names, ev[0])
    for h, r in zip(he, ev[1:]):
        assert float("%.17g" % h["t"]) == float(r[0]) and h["contact"].decode() == r[2]
        kind = h["kind"].decode() if isinstance(h["kind"], bytes) else str(h["kind"])
        assert kind == r[1], (kind, r[1])
        for k in ("vrel_before", "vrel_after", "impulse", "energy_lost"):
            assert float("%.12g" % h[k]) == float(r[ev[0].index(k)]), (k, h[k], r)
    run = f["run"].attrs
    assert run["status"] == 0 and run["t_reached"] == 20.0 and run["events"] == len(he)
    par = {r["name"].decode(): r for r in f["model/parameters"][:]}
    key, val = extra[1].split("=")
    assert par[key]["value"] == float(val), par[key]
    print("  %s: %d samples x %d columns, %d events, the run's %s: HDF5 and CSV agree"
          % (name.rsplit("/", 1)[1], len(tr), tr.shape[1], len(he), extra[1]))
print("ok")
'''


def h5_against_csv(tmp):
    """HDF5 read back with h5py beside the CSV files of the same run."""
    python_script(tmp, "h5csv.py", H5_CSV, [SIM, tmp, BALL_SIM],
                  "HDF5 read back against the CSV files of the same run")


def h5_limits(tmp):
    """HDF5 under file-size limits reached at different moments: exit 3
    with the system's reason (1 when it fails as it is opened, before
    anything is written), the existing file as it was, the CSV whole
    lines, no temporary left."""
    for kib in (4, 64, 512, 2048):
        for f in os.listdir(tmp):
            if f.startswith("lim."):
                os.unlink(os.path.join(tmp, f))
        with open(os.path.join(tmp, "lim.h5"), "w") as f:
            f.write("old\n")
        p = run(tmp, [SIM, "--t-end", "5000", "--out", "lim.h5", "--out", "lim.csv"],
                preexec=limit(kib * 1024))
        left = sorted(f for f in os.listdir(tmp) if f.startswith("lim.h5."))
        # under the smallest limits the HDF5 file fails before the CSV is opened
        rows = whole_lines(os.path.join(tmp, "lim.csv")) \
            if os.path.exists(os.path.join(tmp, "lim.csv")) else 0
        print("  ulimit -f %4d KiB -> %d, %d CSV rows, left %s  %s"
              % (kib, p.returncode, rows, left, shown(p)[29:100]))
        opened = os.path.exists(os.path.join(tmp, "lim.csv"))
        if "cannot write 'lim.csv'" in p.stderr:
            # the CSV file met the limit first: the HDF5 file is whole, marked
            # stopped (status 8), with at least the CSV's rows
            import h5py
            with h5py.File(os.path.join(tmp, "lim.h5"), "r") as f:
                status, hrows = int(f["run"].attrs["status"]), f["trajectory"].shape[0]
            print("    the CSV met the limit first: HDF5 status %d, %d rows" % (status, hrows))
            check(p.returncode == 3 and status == 8 and hrows >= rows and not left,
                  "a CSV file at the limit beside HDF5: the HDF5 file whole, marked stopped", p)
            continue
        check((p.returncode == 3 or p.returncode == 1 and not opened) and
              "File too large" in p.stderr and not left and
              open(os.path.join(tmp, "lim.h5")).read() == "old\n",
              "HDF5 under a %d KiB limit: exit 3 (1 when it fails as it is opened, nothing "
              "written), the reason, the old file intact" % kib, p)


def h5_two_writers(tmp):
    """Two simulators writing one HDF5 file at once: the later refused with
    the other's process, the first's file whole."""
    env = env_for(tmp)
    a = subprocess.Popen([SIM, "--t-end", "30000", "--out", "one.h5"], cwd=tmp, env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    # the second starts once the first is writing (its temporary exists)
    wait_until(a, lambda: [f for f in os.listdir(tmp) if f.startswith("one.h5.") and
                           "partial" in f], 30, 0.002)
    first_done = a.poll() is not None
    b = subprocess.run([SIM, "--t-end", "100", "--out", "one.h5"], cwd=tmp, env=env,
                       capture_output=True, text=True, timeout=120)
    ea = a.communicate(timeout=120)[1]
    print("  two writers of one.h5 -> %d and %d  %s" % (a.returncode, b.returncode,
                                                       b.stderr.strip()[-90:]))
    import h5py
    with h5py.File(os.path.join(tmp, "one.h5"), "r") as f:
        reached = float(f["run"].attrs["t_reached"])
    if first_done:      # the first ended before the second started: its file replaced
        right = a.returncode == 0 and b.returncode == 0 and reached == 100
    else:
        right = a.returncode == 0 and "another running program" in b.stderr and reached == 30000
    check(right and not [f for f in os.listdir(tmp) if "partial" in f],
          "two writers of one HDF5 file: the first's whole, the second refused or after it\n"
          + ea[-300:])


def sweep_and_run(tmp):
    """nsmc sweep and nsmc run in one folder at once: the later refused
    (naming the other's process), the sweep's files whole."""
    d = os.path.join(tmp, "both")
    run(tmp, [NSMC, "run", FIO, "-q", "--no-plot", "--out-dir", "warm", "--t-end", "1"])
    run(tmp, [NSMC, "sweep", FIO, "--param", "omega=2:3:2", "--section", "impact:stop",
              "--out-dir", "warm2"])
    s = subprocess.Popen([NSMC, "sweep", FIO, "--param", "omega=2:3:40", "--section",
                          "impact:stop", "--transient", "200", "--record", "50", "--out-dir", d],
                         cwd=tmp, env=env_for(tmp), stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    wait_until(s, lambda: os.path.exists(os.path.join(d, ".nsm-run.lock")), 30)
    r = run(tmp, [NSMC, "run", FIO, "-q", "--no-plot", "--out-dir", d, "--t-end", "5"])
    err = s.communicate(timeout=300)[1]
    print("  nsmc run into a folder a sweep writes -> %d  %s; the sweep -> %d"
          % (r.returncode, shown(r)[:70], s.returncode))
    rows = whole_lines(os.path.join(d, "section.csv"))
    refused = r.returncode == 1 and "another run (process" in r.stderr and \
        not os.path.exists(os.path.join(d, "trajectory.csv"))
    check((refused or r.returncode == 0) and s.returncode == 0 and rows > 0,
          "a run into a folder a sweep writes: refused (or after the sweep), the sweep whole\n"
          + err[-300:], r)


def environment(tmp):
    """TMPDIR missing, empty or a file; HOME elsewhere with XDG_CACHE_HOME
    unset; XDG_CACHE_HOME a file: a run, or a refusal naming the variable."""
    cases = [("TMPDIR missing", {"TMPDIR": os.path.join(tmp, "none", "x")}, 0, ""),
             ("TMPDIR empty", {"TMPDIR": ""}, 0, ""),
             ("TMPDIR a file", {"TMPDIR": os.path.join(tmp, "afile")}, 0, ""),
             ("XDG_CACHE_HOME a file", {"XDG_CACHE_HOME": "/dev/null"}, 1, "XDG_CACHE_HOME")]
    with open(os.path.join(tmp, "afile"), "w") as f:
        f.write("x")
    for i, (label, env, want, said) in enumerate(cases):
        d = os.path.join(tmp, "env%d" % i)
        p = run(tmp, [NSMC, "run", BALL, "-q", "--no-plot", "--out-dir", d, "--t-end", "1"],
                env=dict(env, XDG_CACHE_HOME=env.get("XDG_CACHE_HOME",
                                                     os.path.join(tmp, "c%d" % i))))
        print("  %-22s -> %d  %s" % (label, p.returncode, shown(p)[:80]))
        check(p.returncode == want and said in p.stderr and
              (want or whole_lines(os.path.join(d, "trajectory.csv")) == 101),
              "%s: %s" % (label, "a run" if not want else "refused naming " + said), p)
    e = env_for(tmp)
    e.pop("XDG_CACHE_HOME", None)
    e["HOME"] = os.path.join(tmp, "home")
    p = subprocess.run([NSMC, "run", BALL, "-q", "--no-plot", "--out-dir", "h", "--t-end", "1"],
                       cwd=tmp, env=e, capture_output=True, text=True, timeout=120)
    print("  HOME elsewhere, XDG_CACHE_HOME unset -> %d" % p.returncode)
    check(p.returncode == 0 and os.path.isdir(os.path.join(tmp, "home", ".cache", "nsm")),
          "HOME elsewhere: the cache under HOME/.cache/nsm", p)


# The same runs through Python and the simulator: every sample within the
# CSV's 12 digits, the same events, under each method.
CLI_PY = r'''
import csv, subprocess, sys
import numpy as np
import nsm
sim, model = sys.argv[1], sys.argv[2]
m = nsm.compile(model)
for method in ("rk4", "adaptive", "exact"):
    r = m.run(t_end=20, method=method, params={"omega": 2.7})
    p = subprocess.run([sim, "--t-end", "20", "--method", method, "--set", "omega=2.7",
                        "--out", "c.csv", "--events", "e.csv"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    rows = list(csv.reader(open("c.csv")))
    data = np.array([[float(x) for x in row] for row in rows[1:]])
    X = np.column_stack([r.t] + [r[c.split(" [")[0]] for c in rows[0][1:]])
    ev = list(csv.reader(open("e.csv")))[1:]
    same = X.shape == data.shape and all(float("%.12g" % a) == b
                                         for a, b in zip(X.ravel(), data.ravel()))
    same_ev = len(ev) == len(r.events) and all(
        float("%.17g" % e["t"]) == float(c[0]) and e["contact"] == c[2]
        for e, c in zip(r.events, ev))
    print("  %-8s %d samples, %d events: Python and the simulator agree: %s, %s"
          % (method, len(data), len(ev), same, same_ev))
    assert same and same_ev
print("ok")
'''


def cli_python(tmp):
    """The same runs through Model.run and the simulator."""
    python_script(tmp, "clipy.py", CLI_PY, [SIM, FIO],
                  "the same runs through the command line and Python")


def kept(tmp):
    """Inputs that found nothing: the newest fixes at their edges."""
    report_values(tmp)
    lock_contents(tmp)
    bom_files(tmp)
    signal_states(tmp)


def kept_io(tmp):
    """Inputs that found nothing: outputs, concurrency, the environment."""
    h5_against_csv(tmp)
    h5_limits(tmp)
    h5_two_writers(tmp)
    sweep_and_run(tmp)
    environment(tmp)
    cli_python(tmp)


if __name__ == "__main__":
    sys.exit(main({"findings": findings, "kept": kept, "kept_io": kept_io}, "nsm-seventeenth-prog-", case_arg=4))
