#!/usr/bin/env python3
"""The runtime's layers: every call between two runtime files goes down.

The runtime is built in layers (docs/runtime.md, "Layers"): numeric
kernels, the model's tables, the forces and dynamics, the modes, stepping,
event detection, the audit, the transitions, the Zeno handling, the run
loop, the public API, and the programs beside the library.  A file may
call the functions of files in lower layers (and its own), never those of
a file in its own layer or above.  This test reads every runtime source
file, finds where each non-static rt_/nsm_ function is defined, and fails
on every call that goes sideways or up, and on a source file missing from
the list (a new file must be given its place).

usage: layers.py RUNTIME_SRC_DIR
"""
import os
import re
import sys

# Lowest first.  Files on one line are one layer: they may not call each other.
LAYERS = [
    "linalg.c energy.c locate.c multiimpact.c",  # numeric kernels, pure
    "expm.c lcp.c",                            # kernels built on linalg.c
    "message.c sparse.c surface.c setfile.c nonlin.c affine.c",  # the model's tables, messages, nonlinear terms, run-time expressions
    "coulomb.c",                               # friction elements' forces
    "dynamics.c",                              # forces, Delassus matrix, energies
    "modeop.c",                                # a large mode as an operator (exact)
    "mode.c",                                  # per-mode matrices and caches
    "taylor.c",                                # Taylor expansion, guaranteed search
    "nltaylor.c",                              # the taylor method's expansion (nonlinear models)
    "step.c",                                  # stepping (rk4, adaptive, exact)
    "events.c",                                # event detection and location
    "surfwork.c fricstat.c",                   # work and statistics of the audit
    "stats.c",                                 # energy audit, event log, rate guard
    "friction.c",                              # stick, slip, frictional impulses
    "transition.c",                            # impacts, stick, separation, initial mode
    "zeno.c",                                  # Zeno and cascade handling
    "section.c",                               # Poincare sections
    "run.c",                                   # the run loop
    "sim.c",                                   # the public API
    "floquet.c h5out.c progress.c",            # studies and writers on the API
    "continuation.c lyapunov.c",               # continuation, Lyapunov spectra (on floquet.c)
    "sweep.c plot.c animate.c contprog.c",
    "driver.c",                                # the simulator program
]

DEF = re.compile(r"^(?!static)[A-Za-z_][\w \*]*?\b((?:rt|nsm)_\w+)\s*\([^;{]*?\)\s*\{",
                 re.M | re.S)
CALL = re.compile(r"\b((?:rt|nsm)_\w+)\s*\(")


def strip_comments(text):
    """The text without C comments and string literals."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)


def main():
    src = sys.argv[1]
    files = sorted(f for f in os.listdir(src) if f.endswith(".c"))
    layer = {}
    for k, line in enumerate(LAYERS):
        for f in line.split():
            layer[f] = k
    bad = [f"{f}: not in the layer list of tests/layers.py (give the new file its layer)"
           for f in files if f not in layer]
    bad += [f"{f}: listed in tests/layers.py but not in {src}" for f in layer if f not in files]
    text = {f: strip_comments(open(os.path.join(src, f)).read()) for f in files}
    owner = {}
    for f in files:
        for m in DEF.finditer(text[f]):
            owner[m.group(1)] = f
    calls = 0
    for f in files:
        for m in CALL.finditer(text[f]):
            g = owner.get(m.group(1))
            if g is None or g == f or f not in layer or g not in layer:
                continue
            calls += 1
            if layer[g] >= layer[f]:
                line = text[f].count("\n", 0, m.start()) + 1
                way = "up" if layer[g] > layer[f] else "sideways"
                bad.append(f"{f}:{line}: calls {m.group(1)} of {g}, {way} the layers")
    for b in bad:
        print(b)
    if not owner or not calls:
        print("no functions or no calls found: the parser is broken")
        return 1
    print(f"{len(files)} files, {len(owner)} functions, {calls} calls between files: "
          f"{'ok' if not bad else f'{len(bad)} violations'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
