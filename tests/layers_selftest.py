#!/usr/bin/env python3
"""The layer checks catch what they name: a copy of runtime/ (and of
compiler/) with one stray write of each owned field, an upward call and an
upward include must make tests/layers.py (tests/compiler_layers.py) fail
and name each; the untouched copies must pass.

usage: layers_selftest.py SOURCE_DIR
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# Appended to runtime/src/run.c: each line one write the field check forbids.
STRAY_RUNTIME = {
    "s->t": "static void stray_t(nsm_sim *s) { s->t = 1; }\n",
    "s->y": "static void stray_y(nsm_sim *s, const double *y) { memcpy(s->y, y, 8); }\n",
    "s->mode": "static void stray_mode(nsm_sim *s) { rt_mode_add(s->mode, 0); }\n",
    "s->transition_loss": "static void stray_loss(nsm_sim *s) { s->transition_loss += 1; }\n",
    "calls nsm_sim_reset": "static void stray_up(nsm_sim *s) { nsm_sim_reset(s); }\n",
}
# Appended to compiler/expr.c: an include and a call of the emitters' layer.
STRAY_COMPILER = {
    "includes emit.h": '#include "emit.h"\n',
    "calls emit_c_model": "static void stray_up(void) { emit_c_model(0, 0); }\n",
}


def run(script, tree):
    """The check's exit status and output on tree."""
    p = subprocess.run([sys.executable, os.path.join(HERE, script), tree],
                       capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def probe(src, sub, target, script, strays):
    """Failures (as text) of the check on a clean copy and on the spoilt one."""
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        tree = os.path.join(tmp, sub)
        shutil.copytree(os.path.join(src, sub), tree)
        rc, out = run(script, tree)
        if rc != 0:
            bad.append(f"{script} fails on the untouched copy:\n{out}")
        with open(os.path.join(tree, target), "a") as f:
            f.write("".join(strays.values()))
        rc, out = run(script, tree)
        if rc == 0:
            bad.append(f"{script} passes with the stray writes and calls:\n{out}")
        bad += [f"{script} does not name the stray '{k}':\n{out}" for k in strays if k not in out]
    return bad


def shape_strays():
    """Failures (as text) of the layer list's shape check on spoilt lists."""
    sys.path.insert(0, HERE)
    import layers
    bad = []
    if layers.check_shape(layers.LAYERS, layers.FIELD_OWNERS):
        bad.append("layers.py's shape check fails on the real list")
    nine = layers.LAYERS + [("extra", "src", ["x.c"])] * (layers.MAX_LAYERS + 1 - len(layers.LAYERS))
    if not layers.check_shape(nine, layers.FIELD_OWNERS):
        bad.append(f"layers.py passes a list of {len(nine)} layers")
    split = dict(layers.FIELD_OWNERS, mode="run.c")
    if not layers.check_shape(layers.LAYERS, split):
        bad.append("layers.py passes t, y and mode owned by two files")
    return bad


def main():
    src = sys.argv[1]
    bad = shape_strays()
    bad += probe(src, "runtime", "src/run.c", "layers.py", STRAY_RUNTIME)
    bad += probe(src, "compiler", "expr.c", "compiler_layers.py", STRAY_COMPILER)
    for b in bad:
        print(b)
    print("the layer checks catch every stray:", "ok" if not bad else f"{len(bad)} failures")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
