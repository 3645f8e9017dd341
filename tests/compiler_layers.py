#!/usr/bin/env python3
"""The compiler's layers: every call and every include between two compiler
files goes down.

nsmc is built in eight layers (docs/runtime.md, "The compiler's layers"),
lowest first: the support (arena, diagnostics, source files); the values
(units, symbolic expressions); the syntax (the tree, the re2c lexer, the
lemon grammar and its driver); the checks (sema, and model.h, the checked
model it hands on); the derivation (derive*.c); the emitters (emit*.c);
the commands on the phases (compiler/commands); the program (main.c).
The files of one layer work together and may call each other; a file may
call the functions and include the headers of its own layer and of the
layers below, never those of a layer above.  This test reads every
compiler source file (.c, .re, .y), finds where each non-static function
is defined and which header belongs to which layer, and fails on every
call or include that goes up, on a source file or header missing from the
list and on a listed file that is gone.  EXCEPTIONS names the calls that
go up today, each with its reason; an exception that no longer occurs
fails too, so the list only shrinks.

usage: compiler_layers.py COMPILER_DIR   (compiler/, holding commands/)
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from layers import strip_comments  # noqa: E402  (one comment stripper)

# The layers, lowest first: (name, source files, headers).
LAYERS = [
    ("support", "arena.c diag.c source.c", "arena.h diag.h source.h"),
    ("values", "units.c expr.c timefn.c", "units.h expr.h timefn.h"),
    ("syntax", "ast.c lexer.re parser.y parse.c", "ast.h lex.h parse.h parser.h"),
    ("checks", "sema.c laws.c rigid.c", "sema.h model.h laws.h rigid.h"),
    ("derivation", "derive.c derive_fric.c derive_gen.c derive_lag.c derive_nl.c derive_paper.c derive_rigid.c", "derive.h"),
    ("emitters", "emit_c.c emit_eq.c emit_roll.c emit_rigid.c", "emit.h emit_roll.h"),
    ("commands", "commands/run.c commands/sweep.c commands/continue.c", "commands/run.h"),
    ("program", "main.c", ""),
]

# The most layers a reader should need (as the runtime's, tests/layers.py).
MAX_LAYERS = 8

# Calls that go up today, as (file, function called): each with its reason.
EXCEPTIONS = {}

DEF = re.compile(r"^(?!static\b)(?!typedef\b)[A-Za-z_][\w \*]*?\b([A-Za-z_]\w*)\s*"
                 r"\([^;{()]*(?:\([^()]*\)[^;{()]*)*\)\s*\{", re.M)
CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
KEYWORDS = {"if", "while", "for", "switch", "return", "sizeof"}


def listed(root):
    """The files of compiler/ that the layer list must cover: sources, headers."""
    out = []
    for sub in ("", "commands"):
        for f in sorted(os.listdir(os.path.join(root, sub))):
            if f.endswith((".c", ".re", ".y", ".h")):
                out.append(os.path.join(sub, f) if sub else f)
    return out


def main():
    root = sys.argv[1]
    layer = {}
    for k, (_, sources, headers) in enumerate(LAYERS):
        for f in (sources + " " + headers).split():
            layer[f] = k
    present = listed(root)
    bad = [f"compiler/{f}: not in the layer list of tests/compiler_layers.py "
           f"(give the new file its layer)" for f in present if f not in layer]
    bad += [f"{f}: listed in tests/compiler_layers.py but not in compiler/"
            for f in layer if f not in present and f != "parser.h"]  # parser.h: lemon's
    sources = [f for f in present if not f.endswith(".h") and f in layer]
    raw = {f: open(os.path.join(root, f)).read() for f in present}
    text = {f: strip_comments(raw[f]) for f in sources}
    owner = {}
    for f in sources:
        for m in DEF.finditer(text[f]):
            if m.group(1) not in KEYWORDS:
                owner.setdefault(m.group(1), f)
    used, calls, includes = set(), 0, 0
    for f in present:
        if f not in layer:
            continue
        for m in INCLUDE.finditer(raw[f]):
            h = m.group(1)
            h = h if h in layer else os.path.join("commands", h) if os.path.join(
                "commands", h) in layer else None
            if h is None:
                continue            # the runtime's or the C library's headers
            includes += 1
            if layer[h] > layer[f]:
                key = (f, os.path.basename(h))
                if key in EXCEPTIONS:
                    used.add(key)
                    continue
                line = raw[f].count("\n", 0, m.start()) + 1
                bad.append(f"{f}:{line}: includes {h} of the {LAYERS[layer[h]][0]} layer, "
                           f"above its own ({LAYERS[layer[f]][0]})")
    for f in sources:
        for m in CALL.finditer(text[f]):
            g = owner.get(m.group(1))
            if g is None or g == f:
                continue
            calls += 1
            if layer[g] > layer[f]:
                key = (f, m.group(1))
                if key in EXCEPTIONS:
                    used.add(key)
                    continue
                line = text[f].count("\n", 0, m.start()) + 1
                bad.append(f"{f}:{line}: calls {m.group(1)} of {g} ({LAYERS[layer[g]][0]}), "
                           f"above its own layer ({LAYERS[layer[f]][0]})")
    if len(LAYERS) > MAX_LAYERS:
        bad.append(f"tests/compiler_layers.py: {len(LAYERS)} layers, more than {MAX_LAYERS}")
    bad += [f"{f}: the exception for {what} in tests/compiler_layers.py no longer occurs "
            f"(remove it)" for f, what in EXCEPTIONS if (f, what) not in used]
    for b in bad:
        print(b)
    if not owner or not calls or not includes:
        print("no functions, calls or includes found: the parser is broken")
        return 1
    print(f"{len(present)} files in {len(LAYERS)} layers, {len(owner)} functions, {calls} calls "
          f"and {includes} includes between files: {'ok' if not bad else f'{len(bad)} violations'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
