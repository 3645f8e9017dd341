"""Runs every reference case: python3 tests/reference/all.py [--check]."""
import os
import subprocess
import sys

CASES = ["selftest", "two_mass_a", "two_mass_b", "two_mass_c", "sdnd121", "sdnd108a",
         "sdnd108b", "sdld29", "sdnd101", "zeno_ball", "bouncing_ball",
         "impacting_oscillator", "ball_two_contacts", "e1_thousand", "rotating_ball",
         "disc_incline", "disc_walls", "coulomb_oscillator", "belt_friction",
         "friction_two_mass", "sliding_block", "forced_impact_oscillator",
         "vibrating_table", "cart_pendulum", "double_pendulum", "cart_friction"]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    failed = []
    for case in CASES:
        r = subprocess.run([sys.executable, "-B", os.path.join(here, case + ".py")] + sys.argv[1:])
        if r.returncode != 0:
            failed.append(case)
    if failed:
        print("failed: " + " ".join(failed), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
