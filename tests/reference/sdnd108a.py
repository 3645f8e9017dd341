"""Reference for sdnd108a_force and sdnd108a_gap: mass on an elastic ground (k = 100, c = 0)."""
import piecewise as pw
import sdnd108

if __name__ == "__main__":
    pw.main(sdnd108.compute("sdnd108a", 0))
