#!/usr/bin/env python3
"""Writes a copy of a model whose output list ends with the five energy columns.

    energy_model.py IN.nsm OUT.nsm

The energy tests need energy.kinetic, .potential, .dissipated, .injected and
.error in the trajectory of every model, whatever its own `output` statement
lists.  The copy keeps every line of the model and appends the missing energy
columns and each gap's value NAME.gap to its `output` list (or adds an `output` statement listing every
body's position and the energy columns when the model has none).
"""
import re
import sys

ENERGY = ["energy.kinetic", "energy.potential", "energy.dissipated", "energy.injected", "energy.error"]


def gap_names(text):
    """Names of the gaps declared one by one (`gap NAME: ...`), not in loops."""
    return re.findall(r"^\s*gap\s+(\w+)\s*:", text, re.M)


def rewrite(text):
    """The model text with the energy columns in its output list."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if not re.match(r"^\s*output\b", line):
            continue
        # an output list may go on over lines that end with a comma
        j = i
        while j + 1 < len(lines) and re.sub(r"#.*", "", lines[j]).rstrip().endswith(","):
            j += 1
        stmt = " ".join(re.sub(r"#.*", "", l).strip() for l in lines[i:j + 1])
        m = re.match(r"^(output\b[^:]*:)(.*)$", stmt)
        if not m:
            continue
        items = [x.strip() for x in m.group(2).split(",") if x.strip()]
        items += [e for e in ENERGY if e not in items]
        items += [g + ".gap" for g in gap_names(text) if g + ".gap" not in items]
        lines[i:j + 1] = [m.group(1) + " " + ", ".join(items)]
        return "\n".join(lines)
    bodies = re.findall(r"^\s*mass\s+(\w+)(\[\d+\s*\.\.\s*\d+\])?", text, re.M)
    items = []
    for name, rng in bodies:
        if rng:
            lo, hi = (int(x) for x in re.findall(r"\d+", rng))
            items += ["%s[%d].x" % (name, k) for k in range(lo, hi + 1)]
        else:
            items.append(name + ".x")
    return text.rstrip("\n") + "\noutput every 10 ms: " + ", ".join(items + ENERGY) + "\n"


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: energy_model.py IN.nsm OUT.nsm\n")
        return 1
    with open(argv[1]) as f:
        text = f.read()
    out = rewrite(text)
    with open(argv[2], "w") as f:
        f.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
