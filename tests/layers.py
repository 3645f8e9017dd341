#!/usr/bin/env python3
"""The runtime's layers: every call between two runtime files goes down.

The runtime is built in eight layers (docs/runtime.md, "Layers"): numeric
kernels; the model (its tables, forces and dynamics); modes, stepping and
event location; the audit, transitions and contact laws; the run loop; the
public API (all in runtime/src, the core library); the studies on the API
(runtime/studies); the programs beside the library (runtime/programs).
Each layer is a short ordered list of tiers.  A file may call the
functions of files in lower tiers and layers (and its own), never those of
a file in its own tier or above.  This test reads every runtime source
file, finds where each non-static rt_/nsm_ function is defined, and fails
on every call that goes sideways or up, on a source file missing from the
list (a new file must be given its place) and on a file outside its
layer's folder.

It also checks who writes the simulation's state: FIELD_OWNERS names, for
fields of struct nsm_sim, the one file that may assign them (`s->F = `,
`s->F += `, `s->F[i] = `, `s->F++`, memcpy/memset/memmove into `s->F`, and
for the mode the bit setters rt_mode_add/del/flip/none/copy on `s->mode`);
such a write anywhere else fails.  It sees the writes spelled through the
simulation pointer `s`, not those through another pointer to the same
memory (the impulses' `double *v = s->y + n`).

usage: layers.py RUNTIME_DIR   (runtime/, holding src/, studies/, programs/)
"""
import os
import re
import sys

# The eight layers, lowest first, each in its folder of runtime/ and made of
# tiers, lowest first: a file may call the files of the lower tiers of its
# layer and of the layers below, never a file of its own tier or above.
LAYERS = [
    ("kernels", "src", [                      # pure numerics
        "ctext.c linalg.c energy.c locate.c multiimpact.c",  # text in the C locale, algebra, energy terms, locator pieces, multiple impacts
        "expm.c lcp.c"]),                     # exponentials, Van Loan integrals, the LCP
    ("the model", "src", [
        "laws.c rigid.c",                     # the table of contact laws (read below, called through); bodies in space's positions
        "message.c state.c sparse.c surface.c nonlin.c affine.c",  # messages, the current state, tables, surfaces, nonlinear terms, run-time expressions
        "massmat.c",                          # the mass operator: diagonal, or M(q)
        "coulomb.c spacefric.c",              # friction elements' forces; spatial friction in flight
        "dynamics.c"]),                       # forces, Delassus matrix, energies
    ("modes, stepping and location", "src", [
        "modeop.c",                           # a large mode as an operator (exact)
        "mode.c",                             # per-mode matrices and caches
        "taylor.c sfseries.c",                # Taylor expansion, guaranteed search; spatial friction's series
        "nltaylor.c",                         # the taylor method (nonlinear models)
        "step.c",                             # rk4, adaptive, exact; rt_land
        "events.c"]),                         # event detection
    ("audit, transitions and contact laws", "src", [
        "surfwork.c fricstat.c",              # work and statistics of the audit
        "stats.c",                            # energy audit, event log, rate guard
        "friction.c impact_space.c spacestick.c",  # stick, slip, frictional impulses; Glocker's law in space; spatial friction's transitions
        "transition.c",                       # impacts, stick, separation, initial mode
        "law_impact.c law_penalty.c law_friction.c",  # the contact laws (law.h)
        "zeno.c"]),                           # Zeno and cascades
    ("run loop", "src", [
        "section.c",                          # Poincare sections' specification and records
        "run.c"]),                            # the run loop
    ("API", "src", ["sim.c"]),                # the public API
    ("studies", "studies", [
        "floquet.c",                          # monodromy, shooting
        "continuation.c lyapunov.c"]),        # continuation, Lyapunov spectra
    ("programs", "programs", [
        "coords.c setfile.c h5out.c progress.c outdir.c cli.c",  # state columns, set files, HDF5, the progress bar, out-dir locks, the study programs' text
        "sweep.c plot.c animate.c contprog.c",  # sweeps, plots, animations, continuation
        "driver.c"]),                         # the simulator program
]

# The most layers a reader should need (issue #27: kernels, dynamics,
# stepping and location, transitions and laws, run loop, API, and the
# studies and programs on it).
MAX_LAYERS = 8

# The fields of the current state, which one file alone writes.
STATE_FIELDS = ("t", "y", "mode")

# Which file alone writes which field of struct nsm_sim (runtime/src/rt.h).
FIELD_OWNERS = {
    "t": "state.c",                # the current time
    "y": "state.c",                # the current state vector
    "mode": "state.c",             # the current mode
    "transition_loss": "state.c",  # the energy removed by transitions
    "sw": "state.c",               # the time switches' states
    "sw_last": "state.c",          # and their last flips' times
    "last_transition_t": "state.c",  # the last transition's time
    "last_transition_j": "state.c",  # and event column
    "mode_holds": "state.c",       # whether the current mode holds a constraint gap
    "inputs_gen": "state.c",       # what the derivative reads beside t, y, mode changed
}


def check_shape(layers, owners):
    """The layer list's size and the current state's one owner, as messages."""
    bad = []
    if len(layers) > MAX_LAYERS:
        bad.append(f"tests/layers.py: {len(layers)} layers, more than {MAX_LAYERS} "
                   f"(merge some: a reader needs the few)")
    own = {owners.get(f) for f in STATE_FIELDS}
    if len(own) != 1 or None in own:
        bad.append("tests/layers.py: the current state (" + ", ".join(STATE_FIELDS) +
                   ") must have one owner file, not " + repr(sorted(map(str, own))))
    return bad


def field_writes(field):
    """A regular expression for a direct write of s->field."""
    f = re.escape(field)
    lhs = rf"\bs->{f}\b(?:\s*\[[^\]]*\])?"
    return re.compile(
        rf"{lhs}\s*(?:[-+*/|&^]|<<|>>)?=(?!=)"           # s->f = x, s->f += x, s->f[i] = x
        rf"|{lhs}\s*(?:\+\+|--)|(?:\+\+|--)\s*{lhs}"  # s->f++, --s->f[i]
        rf"|\bmem(?:cpy|move|set)\s*\(\s*s->{f}\b"      # memcpy(s->f, ...)
        rf"|\brt_mode_(?:add|del|flip|none|copy)\s*\((?:\s*s\s*,)?\s*s->{f}\b")


def check_field_writes(text):
    """The writes of FIELD_OWNERS' fields outside their owners, as messages."""
    bad = []
    for field, own in FIELD_OWNERS.items():
        pat = field_writes(field)
        for f in sorted(text):
            if f == own:
                continue
            for m in pat.finditer(text[f]):
                line = text[f].count("\n", 0, m.start()) + 1
                bad.append(f"{f}:{line}: writes s->{field}, which only {own} may write "
                           f"(call its functions)")
    return bad


DEF = re.compile(r"^(?!static)[A-Za-z_][\w \*]*?\b((?:rt|nsm)_\w+)\s*\([^;{]*?\)\s*\{",
                 re.M | re.S)
CALL = re.compile(r"\b((?:rt|nsm)_\w+)\s*\(")


def strip_comments(text):
    """The text without C comments and string literals (its lines kept)."""
    text = re.sub(r"/\*.*?\*/", lambda m: " " + "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)


def main():
    root = sys.argv[1]
    layer, folder = {}, {}
    tier = 0
    for name, where, tiers in LAYERS:
        for line in tiers:
            for f in line.split():
                layer[f] = tier
                folder[f] = where
            tier += 1
    where_is = {}
    for where in sorted({w for _, w, _ in LAYERS}):
        for f in os.listdir(os.path.join(root, where)):
            if f.endswith(".c"):
                where_is[f] = where
    files = sorted(where_is)
    bad = [f"{where_is[f]}/{f}: not in the layer list of tests/layers.py (give the new file its layer)"
           for f in files if f not in layer]
    bad += [f"{f}: listed in tests/layers.py but not in runtime/{folder[f]}" for f in layer
            if f not in where_is]
    bad += [f"{where_is[f]}/{f}: its layer's folder is runtime/{folder[f]}" for f in files
            if f in folder and where_is[f] != folder[f]]
    text = {f: strip_comments(open(os.path.join(root, where_is[f], f)).read()) for f in files}
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
    owners = set(FIELD_OWNERS.values())
    bad += [f"{o}: owns fields in tests/layers.py but is not a runtime source" for o in owners
            if o not in text]
    bad += check_field_writes(text)
    bad += check_shape(LAYERS, FIELD_OWNERS)
    for b in bad:
        print(b)
    if not owner or not calls:
        print("no functions or no calls found: the parser is broken")
        return 1
    print(f"{len(files)} files in {len(LAYERS)} layers, {len(owner)} functions, {calls} calls "
          f"between files: {'ok' if not bad else f'{len(bad)} violations'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
