"""Reference for sdnd108b_force and sdnd108b_gap: mass on an absorbent ground (k = 100, c = 5)."""
import piecewise as pw
import sdnd108

if __name__ == "__main__":
    pw.main(sdnd108.compute("sdnd108b", 5))
