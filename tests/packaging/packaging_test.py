#!/usr/bin/env python3
"""The installed runtime as a user builds against it (label packaging).

    tests/packaging/packaging_test.py CASE BUILD_DIR SOURCE_DIR

  exports        libnsmrt.so exports exactly the functions nsm/nsm.h declares
                 (nsm_main, the programs' entry, is declared in nsm/cli.h
                 and lives in libnsmcli), and
                 calls no I/O, process or environment function of the C
                 library; libnsmcli.a defines nsm_main.
  pkgconfig      `cmake --install` into a temporary prefix outside the default
                 paths; with PKG_CONFIG_PATH only (no CPATH, LIBRARY_PATH or
                 LD_LIBRARY_PATH) the tutorial's
                 `cc two_mass.c $(pkg-config --cflags --libs nsm)` builds a
                 simulator that loads the prefix's shared libnsmrt and
                 reproduces the two-mass events of the independent
                 reference; `pkg-config nsmrt` builds docs/runtime.md's
                 embedding example, which prints the documented rest time.
  find_package   the CMake project of docs/tutorial.md, against the same
                 kind of install: nsm_add_simulator and nsm::nsmrt.
  share          the install ships every model and the examples under
                 <prefix>/share/nsm, which the installed `nsmc --datadir`
                 prints; the examples are the blocks the documents show
                 (the tutorial's CMake project, runtime.md's sweep.c).

Only the standard library; nm and ldd from binutils and libc-bin.
"""
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile

FAILS = []


def check(cond, what, p=None):
    """Records one check; p (a CompletedProcess) is shown when it fails."""
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        FAILS.append(what)
        if p is not None:
            print("  exit %s\n  stdout: %s\n  stderr: %s" % (p.returncode, p.stdout[-3000:],
                                                           p.stderr[-3000:]))


def run(cmd, **kw):
    """Runs a command, capturing its output as text."""
    shown = cmd if isinstance(cmd, str) else " ".join(cmd)
    print("run:", shown)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, **kw)


def public_functions(src, header="nsm.h"):
    """The function names nsm/<header> declares."""
    text = open(os.path.join(src, "runtime", "include", "nsm", header)).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    names = set(re.findall(r"^[A-Za-z_][\w \*]*?\b(nsm_\w+)\s*\(", text, flags=re.M))
    return names


def case_exports(build, src):
    so = os.path.join(build, "libnsmrt.so")
    declared = public_functions(src)
    check(len(declared) > 30 and "nsm_sim_create" in declared and "nsm_main" not in declared,
          "nsm.h parsed: %d functions, nsm_main not among them" % len(declared))
    check(public_functions(src, "cli.h") == {"nsm_main"}, "nsm/cli.h declares nsm_main alone")
    p = run(["nm", "-D", "--defined-only", so])
    exported = {l.split()[-1] for l in p.stdout.splitlines()
                if len(l.split()) == 3 and l.split()[1] in "TWDBRV"}
    want = declared
    check(exported == want, "libnsmrt.so exports exactly nsm.h's functions "
          "(extra: %s; missing: %s)" % (sorted(exported - want), sorted(want - exported)))
    p = run(["nm", "-D", "--undefined-only", so])
    undef = {l.split()[-1].split("@")[0] for l in p.stdout.splitlines()}
    forbidden = {"fopen", "fclose", "fprintf", "printf", "puts", "fputs", "fputc", "fwrite",
                 "putchar", "perror", "fflush", "fork", "execvp", "execlp", "execl", "execv",
                 "system", "popen", "getenv", "secure_getenv", "exit", "_exit", "abort",
                 "mkdir", "open", "write", "isatty"}
    check(not (undef & forbidden), "libnsmrt.so calls no I/O, process or environment "
          "function (found: %s)" % sorted(undef & forbidden))
    p = run(["nm", "--defined-only", os.path.join(build, "libnsmcli.a")])
    check(re.search(r" T nsm_main$", p.stdout, re.M) is not None, "libnsmcli.a defines nsm_main")
    check(re.search(r" T nsm_main$", run(["nm", "--defined-only",
                                            os.path.join(build, "libnsmrt.a")]).stdout, re.M)
          is None, "libnsmrt.a does not")


def install(build, tmp):
    """cmake --install into tmp/prefix; returns the prefix."""
    prefix = os.path.join(tmp, "prefix")
    p = run(["cmake", "--install", build, "--prefix", prefix])
    check(p.returncode == 0, "cmake --install --prefix %s" % prefix, p)
    return prefix


def clean_env(prefix, tmp):
    """An environment that knows the prefix only through PATH and pkg-config."""
    env = dict(os.environ)
    for k in ("CPATH", "C_INCLUDE_PATH", "LIBRARY_PATH", "LD_LIBRARY_PATH",
              "PKG_CONFIG_PATH", "CMAKE_PREFIX_PATH"):
        env.pop(k, None)
    env["PATH"] = os.path.join(prefix, "bin") + os.pathsep + env.get("PATH", "")
    env["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
    return env


def reference_events(src):
    """(t, kind) of the independent two-mass reference, e = 0.9."""
    with open(os.path.join(src, "tests", "reference", "data", "two_mass_a.events.csv")) as f:
        return [(float(r["t"]), r["kind"]) for r in csv.DictReader(f)]


def check_two_mass_events(path, src, what):
    """The simulator's events (exact method) against the reference."""
    with open(path) as f:
        got = [(float(r["t"]), r["kind"]) for r in csv.DictReader(f) if r["kind"] != "stick"]
    ref = reference_events(src)
    ok = len(got) == len(ref) and all(k == rk and abs(t - rt) < 1e-9
                                      for (t, k), (rt, rk) in zip(got, ref))
    check(ok, "%s: events match the reference within 1e-9 s (%s vs %s)" % (what, got, ref))


def sweep_source(src):
    """The embedding example of docs/runtime.md."""
    text = open(os.path.join(src, "docs", "runtime.md")).read()
    m = re.search(r"```c\n(/\* sweep\.c.*?)```", text, re.S)
    return m.group(1)


def case_pkgconfig(build, src):
    tmp = tempfile.mkdtemp(prefix="nsm-pkgconfig-")
    try:
        prefix = install(build, tmp)
        lib = os.path.join(prefix, "lib")
        for f in ("lib/libnsmrt.a", "lib/libnsmrt.so", "lib/libnsmcli.a",
                  "lib/pkgconfig/nsm.pc", "lib/pkgconfig/nsmrt.pc",
                  "lib/cmake/nsm/nsmConfig.cmake", "lib/cmake/nsm/nsmTargets.cmake"):
            check(os.path.exists(os.path.join(prefix, f)), "installed %s" % f)
        env = clean_env(prefix, tmp)
        env["PKG_CONFIG_PATH"] = os.path.join(lib, "pkgconfig")
        work = os.path.join(tmp, "work")
        os.mkdir(work)
        p = run(["nsmc", os.path.join(src, "models", "two_mass.nsm"), "-o", "two_mass.c"],
                cwd=work, env=env)
        check(p.returncode == 0, "the installed nsmc generates two_mass.c", p)
        p = run("cc two_mass.c $(pkg-config --cflags --libs nsm) -o two_mass", shell=True,
                cwd=work, env=env)
        check(p.returncode == 0, "cc two_mass.c $(pkg-config --cflags --libs nsm)", p)
        p = run(["ldd", "./two_mass"], cwd=work, env=env)
        check(re.search(re.escape(lib) + r"/libnsmrt\.so", p.stdout) is not None,
              "the simulator loads the prefix's shared libnsmrt (run path)", p)
        p = run(["./two_mass", "--method", "exact", "--events", "events.csv"], cwd=work, env=env)
        check(p.returncode == 0, "the simulator runs without LD_LIBRARY_PATH", p)
        if p.returncode == 0:
            check_two_mass_events(os.path.join(work, "events.csv"), src, "pkg-config build")
        # the core alone, for a program that embeds a model
        with open(os.path.join(work, "sweep.c"), "w") as f:
            f.write(sweep_source(src))
        p = run(["nsmc", os.path.join(src, "models", "bouncing_ball.nsm"), "-o", "ball.c"],
                cwd=work, env=env)
        p = run("cc -DNSM_NO_MAIN ball.c sweep.c $(pkg-config --cflags --libs nsmrt) -o sweep",
                shell=True, cwd=work, env=env)
        check(p.returncode == 0, "pkg-config nsmrt builds the embedding example", p)
        p = run(["./sweep"], cwd=work, env=env)
        check(p.returncode == 0 and re.search(r"e = 0.5: at rest at t = 1\.35457092295[67]",
                                              p.stdout) is not None,
              "the embedding example finds the ball's rest time t1 (1 + e)/(1 - e)", p)
        p = run(["nm", "-u", "./sweep"], cwd=work, env=env)
        check("nsm_main" not in p.stdout, "it needs no nsm_main", p)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def tutorial_cmake(src):
    """The ```cmake block of docs/tutorial.md."""
    text = open(os.path.join(src, "docs", "tutorial.md")).read()
    m = re.search(r"```cmake\n(.*?)```", text, re.S)
    return m.group(1)


def case_find_package(build, src):
    tmp = tempfile.mkdtemp(prefix="nsm-cmake-")
    try:
        prefix = install(build, tmp)
        env = clean_env(prefix, tmp)
        proj = os.path.join(tmp, "proj")
        os.mkdir(proj)
        with open(os.path.join(proj, "CMakeLists.txt"), "w") as f:
            f.write(tutorial_cmake(src))
        shutil.copy(os.path.join(src, "models", "two_mass.nsm"), proj)
        shutil.copy(os.path.join(src, "models", "bouncing_ball.nsm"), proj)
        with open(os.path.join(proj, "sweep.c"), "w") as f:
            f.write(sweep_source(src))
        b = os.path.join(tmp, "b")
        p = run(["cmake", "-S", proj, "-B", b, "-DCMAKE_PREFIX_PATH=" + prefix], env=env)
        check(p.returncode == 0, "find_package(nsm) with CMAKE_PREFIX_PATH", p)
        p = run(["cmake", "--build", b], env=env)
        check(p.returncode == 0, "the tutorial's CMake project builds", p)
        p = run([os.path.join(b, "two_mass"), "--method", "exact", "--events",
                 os.path.join(tmp, "events.csv")], env=env)
        check(p.returncode == 0, "nsm_add_simulator's program runs", p)
        if p.returncode == 0:
            check_two_mass_events(os.path.join(tmp, "events.csv"), src, "find_package build")
        p = run([os.path.join(b, "sweep")], env=env)
        check(p.returncode == 0 and "e = 0.5: at rest at t = 1.35457092295" in p.stdout,
              "the embedding example linked with nsm::nsmrt runs", p)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def case_share(build, src):
    tmp = tempfile.mkdtemp(prefix="nsm-share-")
    try:
        prefix = install(build, tmp)
        env = clean_env(prefix, tmp)
        p = run(["nsmc", "--datadir"], env=env)
        share = os.path.join(prefix, "share", "nsm")
        check(p.returncode == 0 and p.stdout.strip() == share,
              "the installed nsmc --datadir prints %s" % share, p)
        models = sorted(f for f in os.listdir(os.path.join(src, "models")) if f.endswith(".nsm"))
        have = sorted(os.listdir(os.path.join(share, "models")))
        check(have == models, "every model is installed (missing %s, extra %s)"
              % (sorted(set(models) - set(have)), sorted(set(have) - set(models))))
        ex = os.path.join(share, "examples")
        with open(os.path.join(ex, "CMakeLists.txt")) as f:
            check(f.read() == tutorial_cmake(src),
                  "examples/CMakeLists.txt is the tutorial's CMake block")
        with open(os.path.join(ex, "sweep.c")) as f:
            check(f.read() == sweep_source(src), "examples/sweep.c is runtime.md's sweep.c")
        p = run([os.path.join(build, "nsmc"), "--datadir"])
        check(p.returncode == 0 and os.path.isfile(os.path.join(p.stdout.strip(), "models",
                                                                "two_mass.nsm")),
              "nsmc --datadir in the build tree names a folder with the models", p)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def cache_value(build, name):
    """A variable of BUILD/CMakeCache.txt, or ""."""
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith(name + ":"):
                return line.split("=", 1)[1].strip()
    return ""


def case_hdf5(build, src):
    """nsm.pc links the HDF5 libnsmcli was compiled against (Debian has a
    serial and an MPI flavour; `pkg-config --libs hdf5` picks the MPI one):
    a simulator built from an install prefix with `pkg-config --libs nsm`
    loads that one library only and writes an HDF5 file h5py reads back."""
    import h5py
    import numpy as np
    built_with = os.path.realpath(cache_value(build, "HDF5_C_LIBRARY_hdf5"))
    check(os.path.isfile(built_with), "the build found HDF5 (%s)" % built_with)
    tmp = tempfile.mkdtemp(prefix="nsm-hdf5-")
    try:
        prefix = install(build, tmp)
        env = clean_env(prefix, tmp)
        env["PKG_CONFIG_PATH"] = os.path.join(prefix, "lib", "pkgconfig")
        p = run(["pkg-config", "--libs", "nsm"], env=env)
        named = [w for w in p.stdout.split() if os.path.basename(w).startswith("libhdf5")]
        check(p.returncode == 0 and len(named) == 1 and os.path.realpath(named[0]) == built_with,
              "pkg-config --libs nsm names the HDF5 libnsmcli was built with", p)
        work = os.path.join(tmp, "work")
        os.mkdir(work)
        model = os.path.join(src, "models", "two_mass.nsm")
        p = run(["nsmc", model, "-o", "two_mass.c"], cwd=work, env=env)
        p = run("cc two_mass.c $(pkg-config --cflags --libs nsm) -o two_mass", shell=True,
                cwd=work, env=env)
        check(p.returncode == 0, "cc two_mass.c $(pkg-config --cflags --libs nsm)", p)
        p = run(["ldd", "./two_mass"], cwd=work, env=env)
        loaded = [l.split("=>")[1].split()[0] for l in p.stdout.splitlines()
                  if "libhdf5" in l and "=>" in l]
        check(len(loaded) == 1 and os.path.realpath(loaded[0]) == built_with,
              "the simulator loads that HDF5 only: %s" % loaded, p)
        p = run(["./two_mass", "--out", "traj.h5", "--out", "traj.csv"], cwd=work, env=env)
        check(p.returncode == 0, "the simulator writes traj.h5 and traj.csv in one run", p)
        csv = np.loadtxt(os.path.join(work, "traj.csv"), delimiter=",", skiprows=1)
        with h5py.File(os.path.join(work, "traj.h5"), "r") as f:
            data = f["trajectory"][()]
            source = f["model/source"][()]
            version = f.attrs["nsm_version"]
        check(data.shape == csv.shape and np.allclose(data, csv, rtol=1e-11, atol=1e-14),
              "h5py reads its trajectory: the CSV's %d samples" % len(csv))
        with open(model, "rb") as f:
            check(source == f.read(), "and the model's source")
        check(len(version) > 0, "and the nsm version")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    case, build, src = sys.argv[1:4]
    globals()["case_" + case](build, src)
    if FAILS:
        sys.exit("%d check(s) failed" % len(FAILS))
    print("all checks passed")


if __name__ == "__main__":
    main()
