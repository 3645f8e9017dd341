"""Reference for sdld29 (code_aster SDLD29): eight-mass chain, non-proportional damping.

P1..P8 (m = 10 kg) between fixed points A and B; nine springs k = 1e5 N/m
(A-P1, P1-P2, ..., P8-B); dampers c = 50 on P1-P2 ... P7-P8, cc = 250 on A-P1,
cd = 25 on P8-B.  F = 1 N on P4 for 0 <= t <= 1 s, 0 after; at rest at t = 0.
The 16-state linear system is solved exactly by eigen-decomposition (complex
modes, damping not proportional); at t = 1 s the solution restarts from the
exact state with the force removed (a `time` event).  Self-check: the matrix
exponential of the system augmented with the constant force, at several times.
"""
from mpmath import mp, mpf

import piecewise as pw

mp.dps = 50

N = 8
M, K, C, CC, CD = mpf(10), mpf("1e5"), mpf(50), mpf(250), mpf(25)
F, T_SWITCH, T_END = mpf(1), mpf(1), mpf("1.5")
ASTER_TIMES = [mpf(9 * i) / 100 for i in range(1, 10)] + [mpf("0.91"), mpf("0.99"), mpf("1.45")]


def matrices():
    """State matrix A (y = x1, v1, ..., x8, v8) and the force vector of P4."""
    Km = mp.zeros(N, N)
    Cm = mp.zeros(N, N)
    for i in range(N):
        Km[i, i] = 2 * K
        if i + 1 < N:
            Km[i, i + 1] = Km[i + 1, i] = -K
            Cm[i, i + 1] = Cm[i + 1, i] = -C
    # link dampers: cc on A-P1, c on Pi-Pi+1, cd on P8-B
    links = [CC] + [C] * (N - 1) + [CD]
    for i in range(N):
        Cm[i, i] = links[i] + links[i + 1]
    A = mp.zeros(2 * N, 2 * N)
    for i in range(N):
        A[2 * i, 2 * i + 1] = 1
        for j in range(N):
            A[2 * i + 1, 2 * j] = -Km[i, j] / M
            A[2 * i + 1, 2 * j + 1] = -Cm[i, j] / M
    b = [mpf(0)] * (2 * N)
    b[2 * 3 + 1] = F / M
    return A, b


def compute():
    A, b = matrices()
    forced = pw.Mode(A, b0=b)
    rest = pw.Mode(A)
    rec = pw.Record(["P[%d]" % (i + 1) for i in range(N)])
    tr1 = forced.start(0, [0] * (2 * N))
    rec.segment(0, tr1.y)
    tr2 = rest.start(T_SWITCH, tr1.y(T_SWITCH))
    rec.segment(T_SWITCH, tr2.y)
    rec.event(T_SWITCH, "time", "")
    # independent check: expm of [[A, b], [0, 0]]
    Aug = mp.zeros(2 * N + 1, 2 * N + 1)
    for i in range(2 * N):
        for j in range(2 * N):
            Aug[i, j] = A[i, j]
        Aug[i, 2 * N] = b[i]
    y0 = mp.zeros(2 * N + 1, 1)
    y0[2 * N] = 1
    y1 = mp.expm(Aug * T_SWITCH) * y0
    for i in range(2 * N):
        pw.expect(abs(y1[i] - tr1.y(T_SWITCH)[i]) < mpf("1e-35"), "expm at t = 1")
    y1[2 * N] = 0
    y2 = mp.expm(Aug * (mpf("1.45") - T_SWITCH)) * y1
    for i in range(2 * N):
        pw.expect(abs(y2[i] - rec.state(mpf("1.45"))[i]) < mpf("1e-35"), "expm at t = 1.45")
    times = {mp.nstr(t, 12): t for t in pw.grid(0, T_END, "0.05") + ASTER_TIMES}
    times = sorted(times.values())
    return [("sdld29", pw.events_text(rec), pw.samples_text(rec, times))]


if __name__ == "__main__":
    pw.main(compute())
