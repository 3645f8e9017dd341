"""Reference for two_mass_b (Dedow & Murphy, 'grazing'), e = 0.9.

Initial conditions exactly as printed (six digits):
u1 = 0.879773, u2 = 3.768875, u1' = 1.611922, u2' = 0.325024.
See README.md for what the physics gives and why it differs from the paper.
The events file carries input_shift: how far each event moves when the
initial state is rounded to double (twomass.input_shift).
"""
import sys

import piecewise as pw
import twomass


def compute():
    out, log = twomass.compute("two_mass_b", ["0.879773", "1.611922", "3.768875", "0.325024"], "0.9",
                               with_shift=True)
    return [out], log


if __name__ == "__main__":
    out, log = compute()
    if "-v" in sys.argv:
        print("\n".join(twomass.describe(log)))
    pw.main(out)
