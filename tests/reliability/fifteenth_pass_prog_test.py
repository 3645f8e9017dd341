#!/usr/bin/env python3
"""A fifteenth hostile pass over the programs and the Python package
(issue #29): the compiler `nsmc` as a program (its options and their
combinations, `-o` onto odd targets, models with odd bytes), the
simulator's outputs against its own parameter file, parameter files with
control characters, CSV outputs through links on a full disk, `nsm.compile`'s
options, and `Model.sweep`/`section` in threads against the command line.

    tests/reliability/fifteenth_pass_prog_test.py NSMC SIM SOURCE_DIR CASE

SIM is sim_forced_impact_oscillator (sim_bouncing_ball beside it).  Cases
(each under 20 s in the normal build):
  findings   what the pass found, each failing before its fix: a comment
             ended by a lone CR hiding the next line of a model, nsmc's
             actions and formats given together or twice (the last won),
             `-o` beside --check or --dump taken and ignored, a stray
             byte order mark shown raw, the simulator writing over its own
             --set-file, a control character in a parameter file shown as
             an empty unit, a CSV output named by a link removed as the
             link (the file left at 0 bytes), and `nsm.compile`'s verbose
             taking 'no' as true.
  kept       inputs that found nothing, kept: `-o` onto a folder, a FIFO,
             /dev/full, the model through a link and a hard link, names of
             255 and 256 bytes; models with NUL, invalid UTF-8, CRLF,
             CR CR LF, 1 MB lines and long numbers; a seeded mutation fuzz
             of the shipped models through --check and -o; `nsmc cache`'s
             refused arguments; and `Model.sweep` in four threads and
             `Model.section` in threads against a single thread and `nsmc
             sweep` bit for bit, the damped oscillator's section against
             its closed form.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import os
import random
import resource
import signal
import stat
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (SANITIZED, check, main, prog_paths, python_script, run,  # noqa: E402
                     thin)

NSMC, SIM, SRC, BALL_SIM, FIO, BALL = prog_paths()
DAMPED = os.path.join(SRC, "tests", "studies", "damped_forced.nsm")


def ball_text():
    with open(BALL, "rb") as f:
        return f.read()


def write(tmp, name, data):
    path = os.path.join(tmp, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def shown(p):
    """The last line of a run's stderr, for the printed outcome."""
    lines = [ln for ln in p.stderr.strip().splitlines()
             if "cached" not in ln and "compiling the" not in ln]
    return (lines[0] if lines else "")[:110]


def refused(p, words, what):
    """p ended with exit 1 and a message holding words."""
    print("  %-50s -> %d  %s" % (what[:50], p.returncode, shown(p)))
    check(p.returncode == 1 and words in p.stderr, "%s: exit 1, '%s'" % (what, words), p)


def lone_cr(tmp):
    """A comment ended by a lone CR ran on over the next line: the ball's
    'gravity g' was commented out and it floated, exit 0."""
    text = ball_text().replace(b"mass B = m\n", b"mass B = m   # the ball\r")
    path = write(tmp, "crhide.nsm", text)
    p = run(tmp, [NSMC, "--check", path])
    refused(p, "crhide.nsm:9:24: error: a carriage return (\\r) inside the line",
            "a model whose comment ends with a lone CR")
    check("\r" not in p.stderr and "      |                        ^" in p.stderr,
          "the line shown with '?' for the CR, the caret under it", p)
    p = run(tmp, [NSMC, path, "-o", "crhide.c"])
    check(p.returncode == 1 and not os.path.exists(os.path.join(tmp, "crhide.c")),
          "nothing generated from it", p)
    for name, data in (("crlf.nsm", ball_text().replace(b"\n", b"\r\n")),
                       ("crcrlf.nsm", ball_text().replace(b"\n", b"\r\r\n")),
                       ("crend.nsm", ball_text().rstrip(b"\n") + b"\r")):
        p = run(tmp, [NSMC, "--check", write(tmp, name, data)])
        check(p.returncode == 0, "%s (CR ending lines) accepted" % name, p)


def actions(tmp):
    """The last of nsmc's actions won: '--emit=equations --check' printed
    nothing, exit 0; -o beside --check or --dump wrote nothing, exit 0; a
    format without --emit=equations wrote the C simulator."""
    cases = ((["--emit=equations", "--check"], "ask for different things"),
             (["--dump=ast", "--emit=equations"], "ask for different things"),
             (["--check", "--check"], "'--check' is given twice"),
             (["--emit=equations", "--format=text", "--format=markdown"],
              "the format is given twice"),
             (["--check", "-o", "x.c"], "'-o x.c' is not taken by '--check'"),
             (["--dump=ast", "-o", "x.c"], "'-o x.c' is not taken by '--dump=ast'"),
             (["--dump=tokens", "-o", "x.c"], "'-o x.c' is not taken by '--dump=tokens'"),
             (["--format=text"], "is the format of --emit=equations"))
    for args, words in cases:
        p = run(tmp, [NSMC] + args + [BALL])
        refused(p, words, "nsmc " + " ".join(args))
        check(p.stdout == "" and not os.path.exists(os.path.join(tmp, "x.c")) and
              not os.path.exists(os.path.join(tmp, "bouncing_ball.c")),
              "nothing printed or written", p)
    p = run(tmp, [NSMC, "--emit=equations", "--format=text", BALL, "-o", "eq.txt"])
    check(p.returncode == 0 and os.path.getsize(os.path.join(tmp, "eq.txt")) > 0,
          "--emit=equations --format=text -o FILE still written", p)


def bom(tmp):
    """A stray byte order mark was shown raw between the quotes."""
    p = run(tmp, [NSMC, "--check", write(tmp, "bom.nsm", b"\xef\xbb\xbf" + ball_text())])
    refused(p, "stray character '\ufeff' (U+FEFF;", "a model starting with a BOM")
    p = run(tmp, [NSMC, "--check", write(tmp, "nbsp.nsm", b"model a\nmass\xc2\xa0B = 1 kg\n")])
    refused(p, "nbsp.nsm:2:5: error: stray character '\u00a0' (U+00A0;", "a no-break space")


def set_file_output(tmp):
    """`sim --set-file p.txt --out p.txt` wrote the trajectory over the
    parameter file, exit 0."""
    pf = write(tmp, "p.txt", b"e = 0.5\n")
    os.symlink("p.txt", os.path.join(tmp, "plink"))
    os.link(pf, os.path.join(tmp, "phard"))
    for args, opt in ((["--out", "p.txt"], "--out"), (["--out", "./p.txt"], "--out"),
                      (["--out", "plink"], "--out"), (["--out", "phard"], "--out"),
                      (["--events", "p.txt"], "--events"), (["--stats", "p.txt"], "--stats"),
                      (["--out", "t.h5", "--section", "impact:floor", "--section-out", "plink"],
                       "--section-out")):
        p = run(tmp, [BALL_SIM, "--set-file", "p.txt", "--t-end", "1"] + args)
        refused(p, "%s names the parameter file read by --set-file ('p.txt')" % opt,
                "--set-file p.txt " + " ".join(args))
        with open(pf, "rb") as f:
            check(f.read() == b"e = 0.5\n", "the parameter file intact")
        check(not os.path.exists(os.path.join(tmp, "t.h5")), "nothing written")
    p = run(tmp, [BALL_SIM, "--set-file", "p.txt", "--t-end", "1", "--out", "t.csv"])
    check(p.returncode == 0, "--set-file p.txt --out t.csv runs", p)


def set_file_control(tmp):
    """A vertical tab after a value was "unknown unit ''", a form feed shown
    raw in the unit's quotes."""
    for data, col, code in ((b"e = 0.5\v\n", 8, "0x0b"), (b"e=0.5\fg=1\n", 6, "0x0c"),
                            (b"e = 0.5 # \x1b[31m\n", 11, "0x1b")):
        write(tmp, "c.set", data)
        p = run(tmp, [BALL_SIM, "--set-file", "c.set", "--t-end", "1", "--out", "c.csv"])
        refused(p, "c.set:1:%d: a control character (%s) inside the line" % (col, code),
                "a parameter file %r" % data)
        check(not os.path.exists(os.path.join(tmp, "c.csv")), "nothing written")
    write(tmp, "c.set", b"e = 0.5\t# caf\xc3\xa9\r\n")
    p = run(tmp, [BALL_SIM, "--set-file", "c.set", "--t-end", "1", "--out", "c.csv"])
    check(p.returncode == 0, "a tab, a non-ASCII comment and CRLF still read", p)


def full_disk_link(tmp):
    """A CSV output named by a link that could not take its header (a full
    disk) had the link removed: the file it names stayed at 0 bytes."""
    small = os.path.join(tmp, "small")
    os.makedirs(small)
    try:
        rc = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", small],
                            capture_output=True).returncode
    except OSError:
        rc = 1
    if rc != 0:
        print("  (no tmpfs to mount: a file-size limit of 0 instead)")
        mounted = False
    else:
        mounted = True
    try:
        if mounted:
            with open(os.path.join(small, "fill"), "wb") as f:
                try:
                    f.write(b"\0" * (1 << 20))
                except OSError:
                    pass
        write(small, "e.csv", b"")
        os.symlink(os.path.join(small, "e.csv"), os.path.join(tmp, "elink.csv"))
        pre = None
        if not mounted:
            def pre():
                # the limit's signal ignored: the write fails with EFBIG
                signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
                resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY))
        p = run(tmp, [BALL_SIM, "--t-end", "1", "--out", "/dev/null", "--events", "elink.csv"],
                preexec=pre)
        print("  --events elink.csv on a full disk -> %d  %s" % (p.returncode, shown(p)))
        check(p.returncode == 3 and "removed, as not even its header could be written" in p.stderr,
              "exit 3, the events file said removed", p)
        check(os.path.islink(os.path.join(tmp, "elink.csv")) and
              not os.path.exists(os.path.join(small, "e.csv")),
              "the link kept, the empty file it named removed", p)
    finally:
        if mounted:
            subprocess.run(["umount", small], capture_output=True)


def compile_verbose(tmp):
    """nsm.compile(path, verbose='no') took 'no' as true."""
    python_script(tmp, "verbose.py", r'''
import sys, nsm
for v in ("no", 2, None):
    try:
        nsm.compile(sys.argv[1], verbose=v)
        print("ACCEPTED", repr(v)); sys.exit(1)
    except nsm.SettingError as e:
        print("  verbose=%r -> SettingError: %s" % (v, e))
        assert "verbose must be True or False" in str(e)
for v in (False, 0, True):
    nsm.compile(sys.argv[1], verbose=v)
print("ok")
''', [BALL], "nsm.compile's verbose refused unless a flag")


def findings(tmp):
    lone_cr(tmp)
    actions(tmp)
    bom(tmp)
    set_file_output(tmp)
    set_file_control(tmp)
    full_disk_link(tmp)
    compile_verbose(tmp)


def outputs(tmp):
    """nsmc -o onto odd targets: refused with the reason, the model intact."""
    model = write(tmp, "ball.nsm", ball_text())
    os.makedirs(os.path.join(tmp, "d"))
    os.symlink("ball.nsm", os.path.join(tmp, "link.nsm"))
    os.link(model, os.path.join(tmp, "hard.nsm"))
    for target, words in (("d", "it is a directory"), ("/dev/full", "No space left on device"),
                          ("./ball.nsm", "it is the model being compiled"),
                          ("link.nsm", "it is the model being compiled"),
                          ("hard.nsm", "it is the model being compiled"),
                          ("a" * 254 + ".c", "File name too long")):
        for pre in ([], ["--emit=equations"]):
            p = run(tmp, [NSMC] + pre + [model, "-o", target])
            refused(p, words, "nsmc %s-o %s" % (" ".join(pre) + " " if pre else "",
                                                 target[:20]))
    with open(model, "rb") as f:
        check(f.read() == ball_text(), "the model intact")
    p = run(tmp, [NSMC, model, "-o", "a" * 253 + ".c"])
    check(p.returncode == 0 and os.path.getsize(os.path.join(tmp, "a" * 253 + ".c")) > 0,
          "-o a name of 255 bytes written", p)
    check(not any(".tmp" in f for f in os.listdir(tmp)), "no temporary left")
    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", fifo], stdout=subprocess.PIPE)
    p = run(tmp, [NSMC, model, "-o", fifo])
    got = reader.communicate(timeout=30)[0]
    ref = run(tmp, [NSMC, model, "-o", "-"]).stdout.encode()
    check(p.returncode == 0 and got == ref and stat.S_ISFIFO(os.stat(fifo).st_mode),
          "-o a FIFO with a reader: the whole simulator through it, still a FIFO", p)


def odd_bytes(tmp):
    """Models with odd bytes: refused with their cause, or read as text."""
    b = ball_text()
    i = b.index(b"mass")
    for name, data, rc, words in (
            ("nul.nsm", b[:i] + b"\0" + b[i:], 1, "not a text file (NUL byte on line 9)"),
            ("utf.nsm", b[:i] + b"\xff\xfe" + b[i:], 1, "not a text file (invalid UTF-8 on line 9)"),
            ("bommid.nsm", b[:i] + b"\xef\xbb\xbf" + b[i:], 1, "bommid.nsm:9:1: error: stray"),
            ("longnum.nsm", b + b"param zz = " + b"1" * 100000 + b"\n", 1,
             "number too long"),
            ("longline.nsm", b + b"# " + b"x" * 1000000 + b"\n", 0, ""),
            ("longname.nsm", b.replace(b"model bouncing_ball", b"model " + b"b" * 100000), 0, ""),
            ("noeol.nsm", b.rstrip(b"\n"), 0, ""),
            ("empty.nsm", b"", 1, "the model is empty")):
        p = run(tmp, [NSMC, "--check", write(tmp, name, data)])
        print("  --check %-14s -> %d  %s" % (name, p.returncode, shown(p)))
        check(p.returncode == rc and words in p.stderr, "%s: exit %d, '%s'" % (name, rc, words), p)
        if rc == 1:
            check(len(p.stderr) < 4000, "the message kept short", p)


def fuzz(tmp):
    """A seeded mutation fuzz of the shipped models: nsmc ends by itself with
    0, or 1 and a message naming the file."""
    models = sorted(os.path.join(SRC, "models", f) for f in os.listdir(os.path.join(SRC, "models"))
                    if f.endswith(".nsm"))
    rnd = random.Random(1515)
    toks = [b"(", b")", b"((((", b"))))", b"#", b"\r", b"\n", b"\t", b'"', b"=", b">=", b"--",
            b",", b":", b".", b"1e308", b"1e-320", b"0", b"-", b"^", b"*", b"/", b"kg", b"N/m",
            b"impact(e = 0.5)", b"if", b"param", b"mass", b"gap", b"init", b"sin(", b"\xc3\xa9",
            b"\\", b"@", b"x" * 300, b"9" * 70]
    n = 60 if SANITIZED else 200
    for k in range(n):
        with open(rnd.choice(models), "rb") as f:
            s = bytearray(f.read())
        for _ in range(rnd.randint(1, 6)):
            op, pos = rnd.random(), rnd.randrange(len(s) + 1)
            if op < 0.4:
                s[pos:pos] = rnd.choice(toks)
            elif op < 0.7:
                del s[pos:pos + rnd.randint(1, 20)]
            elif op < 0.85 and s:
                s[pos:pos + 1] = bytes([rnd.randrange(256)])
            else:
                a = rnd.randrange(len(s) + 1)
                s[pos:pos] = s[a:a + rnd.randint(1, 80)]
        path = write(tmp, "m.nsm", bytes(s))
        args = [NSMC, "--check", path] if k % 3 else [NSMC, path, "-o", "m.c"]
        p = subprocess.run(args, cwd=tmp, capture_output=True, timeout=30)
        err = p.stderr.decode("utf-8", "replace")
        named = any(ln.startswith(path) for ln in err.splitlines())
        if p.returncode not in (0, 1) or "Sanitizer" in err or "runtime error" in err or \
                (p.returncode == 1 and not named):
            check(False, "mutant %d: exit %d\n%s" % (k, p.returncode, err[-1500:]))
    check(True, "%d mutants: each ended with 0, or 1 and a message naming the file" % n)


def cache_args(tmp):
    """nsmc cache's arguments: only 'clean'."""
    for args in (["cache"], ["cache", "clean", "extra"], ["cache", "list"],
                 ["cache", "clean", "--help"], ["cache", "-o", "x"]):
        refused(run(tmp, [NSMC] + args), "usage: nsmc cache clean", "nsmc " + " ".join(args))
    p = run(tmp, [NSMC, "cache", "clean"])
    check(p.returncode == 0, "nsmc cache clean on an empty cache: exit 0", p)


THREADS = r'''
import csv, cmath, math, os, sys, threading
import numpy as np
import nsm
fio, damped, nsmc = sys.argv[1], sys.argv[2], sys.argv[3]
m = nsm.compile(fio)
vals = np.linspace(2.0, 3.0, 5)
seq = m.sweep("omega", vals, "period:2*pi/omega", transient=10, record=4)
res = {}
def work(i):
    res[i] = m.sweep("omega", vals, "period:2*pi/omega", transient=10, record=4)
ths = [threading.Thread(target=work, args=(i,)) for i in range(4)]
[t.start() for t in ths]; [t.join() for t in ths]
for i in range(4):
    assert np.array_equal(res[i][0], seq[0]) and np.array_equal(res[i][1], seq[1]), i
print("  sweep in 4 threads: bit for bit the single thread's (%d records)" % len(seq[0]))
sec = {}
def w2(om):
    sec[om] = np.asarray(m.section("period:2*pi/omega", t_end=30*2*np.pi/om,
                                   params={"omega": om}))
ths = [threading.Thread(target=w2, args=(om,)) for om in vals[:3]]
[t.start() for t in ths]; [t.join() for t in ths]
for om in vals[:3]:
    one = np.asarray(m.section("period:2*pi/omega", t_end=30*2*np.pi/om, params={"omega": om}))
    assert np.array_equal(one, sec[om]), om
print("  sections in 3 threads: bit for bit")
out = os.path.join(os.getcwd(), "sw")
p = __import__("subprocess").run([nsmc, "sweep", fio, "--param", "omega=2:3:5", "--section",
                                  "period:2*pi/omega", "--transient", "10", "--record", "4",
                                  "--out-dir", out], capture_output=True, text=True)
assert p.returncode in (0, 1), p.stderr     # 1: no gnuplot to draw
rows = list(csv.reader(open(os.path.join(out, "section.csv"))))[1:]
cli = np.array([[float(x) for x in r] for r in rows])
assert np.array_equal(cli[:, 0], seq[0]) and np.array_equal(cli[:, 1:], seq[1]), \
    np.abs(cli[:, 1:] - seq[1]).max()
print("  nsmc sweep's section.csv: bit for bit Model.sweep's")
# the damped forced oscillator's steady state, m x'' + c x' + k x = F cos(w t):
# X = F / (k - m w^2 + i c w), x(t) = Re(X e^{iwt}), by hand
d = nsm.compile(damped)      # m = 1 kg, k = 4 N/m, c = 0.2 N s/m, F = 1 N
w = 1.7
X = 1 / (4 - w * w + 0.2j * w)
rec = np.asarray(d.section("period:2*pi/omega", t_end=400 * 2 * math.pi / w,
                           params={"omega": w}, method="exact"))
t, x, v = rec[-1, 0], rec[-1, 2], rec[-1, 3]
xr, vr = (X * cmath.exp(1j * w * t)).real, (1j * w * X * cmath.exp(1j * w * t)).real
err = max(abs(x - xr), abs(v - vr)) / abs(X)
print("  damped oscillator at w = 1.7, last section point: within %.1e of the closed form" % err)
assert err < 1e-9, err
print("ok")
'''


def threads(tmp):
    python_script(tmp, "threads.py", THREADS, [FIO, DAMPED, NSMC],
                  "Model.sweep and section in threads against one thread, nsmc sweep and the "
                  "closed form")


def kept(tmp):
    outputs(tmp)
    odd_bytes(tmp)
    fuzz(tmp)
    cache_args(tmp)
    threads(tmp)


if __name__ == "__main__":
    sys.exit(main({"findings": findings, "kept": kept}, "nsm-fifteenth-prog-", case_arg=4))
