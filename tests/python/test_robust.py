"""The Python package on hostile input (issue 29): names from the runtime's
API, every error an nsm.Error with a message, the command line's guards on
impossible runs, Ctrl-C keeping the partial result, a damaged cache rebuilt,
threads compiling one model, names of any length.  References: nsm.h's own
text for the names, the models' sources for the contact names."""
import ctypes
import os
import re
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import nsm
from nsm import _paths

BUILD = os.environ.get("NSM_BUILD_DIR", "")


@pytest.fixture(scope="module")
def two_mass(model_path):
    return nsm.compile(model_path("two_mass"))


@pytest.fixture(scope="module")
def rt():
    """libnsmrt.so with the name functions' types."""
    lib = ctypes.CDLL(_paths.LIBNSMRT)
    for f in ("nsm_status_name", "nsm_event_kind_name"):
        getattr(lib, f).restype = ctypes.c_char_p
        getattr(lib, f).argtypes = [ctypes.c_int]
    return lib


def header():
    return open(os.path.join(_paths.INCLUDE, "nsm", "nsm.h")).read()


def test_status_names_are_the_headers(rt):
    """nsm_status_name gives every NSM_ code's name as nsm.h defines it, "unknown" otherwise."""
    codes = {int(v): n for n, v in
             re.findall(r"^#define (NSM_E?[A-Z]+)\s+(\d+)\s*(?:/\*|$)", header(), re.M)}
    assert len(codes) >= 9 and codes[0] == "NSM_OK"
    for v, n in codes.items():
        assert rt.nsm_status_name(v).decode() == n
    for v in (-1, max(codes) + 1, 1 << 30):
        assert rt.nsm_status_name(v) == b"unknown"


def test_event_kind_names_are_the_headers(rt):
    """nsm_event_kind_name names each enum nsm_event_kind value (NSM_EV_X -> "x")."""
    enum = re.search(r"enum nsm_event_kind \{(.*?)\};", header(), re.S).group(1)
    kinds = re.findall(r"NSM_EV_([A-Z_]+)", enum)
    assert kinds[:2] == ["IMPACT", "STICK"] and "REVERSAL" in kinds
    for k, name in enumerate(kinds):
        assert rt.nsm_event_kind_name(k).decode() == name.lower()
    for k in (-1, len(kinds)):
        assert rt.nsm_event_kind_name(k) == b"unknown"


def test_create_failure_names_its_cause(two_mass):
    """A table of another ABI: nsm_sim_create's NULL is told apart from a
    lack of memory (nsm_model_check), and the run says why."""
    fake = ctypes.create_string_buffer(4096)
    ctypes.c_int.from_buffer(fake).value = 999      # abi, the table's first field
    lib = two_mass._lib
    assert lib.nsm_sim_create(ctypes.addressof(fake)) is None
    why = ctypes.c_char_p()
    assert lib.nsm_model_check(ctypes.addressof(fake), ctypes.byref(why)) == 3   # NSM_EMODEL
    assert b"another version" in why.value
    assert lib.nsm_model_check(two_mass._table, None) == 0
    table, two_mass._table = two_mass._table, ctypes.addressof(fake)
    try:
        with pytest.raises(nsm.CompileError, match="another version of the runtime"):
            two_mass.run()
    finally:
        two_mass._table = table


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf"), "abc", None])
def test_bad_parameter_values_have_messages(two_mass, value):
    with pytest.raises(nsm.ParameterError, match=r"parameter 'e' must be a (finite )?number|bad value 'abc' for parameter 'e': expected a number"):
        two_mass.run(params={"e": value})


@pytest.mark.parametrize("kw, text", [
    (dict(t_end=float("inf")), "t_end must be a finite number"),
    (dict(t_end=float("nan")), "t_end must be a finite number"),
    (dict(t_end=-1), "end time -1 s is not a finite time >= 0"),
    (dict(every=float("nan")), "every must be a finite number"),
    (dict(dt=-1), "dt must be a time >= 0"),
    (dict(max_steps=float("inf")), "max_steps must be a finite number"),
    (dict(max_steps=2.5), "max_steps must be a whole number"),
    (dict(rtol=0), "rtol must be > 0"),
    (dict(method="euler"), "unknown method 'euler'"),
    (dict(zeno="no"), "zeno must be True or False, got 'no'"),
    (dict(zeno=2), "zeno must be True or False"),
])
def test_bad_settings_have_messages(two_mass, kw, text):
    """Every bad setting is an nsm.Error (SettingError, also a ValueError) saying what."""
    with pytest.raises(nsm.SettingError, match=re.escape(text)) as ei:
        two_mass.run(**kw)
    assert isinstance(ei.value, nsm.Error) and isinstance(ei.value, ValueError)


@pytest.mark.parametrize("kw, text", [
    (dict(every=1e-300), "below the time resolution"),
    (dict(t_end=1e300), "below the time resolution at t = 1e+300 s"),
    (dict(t_end=20, every=1e-7), "gives about 2e+08 samples"),
    (dict(dt=1e-300, every=0.01), "the time would not advance"),
    (dict(t_end=1e6, dt=1e-3, every=1), "more than the step cap"),
])
def test_impossible_runs_are_refused_up_front(two_mass, kw, text):
    """The command line's rule (nsm_run_check): no run of 1e301 samples or
    1e300 steps is started (these took minutes and gigabytes)."""
    with pytest.raises(nsm.SettingError, match=re.escape(text)):
        two_mass.run(**kw)


def test_the_models_own_period_is_checked(model_path):
    """omega = 1e300 with t_end = 1: the model's own output period
    (2 pi/omega/50) would give 1e299 samples."""
    m = nsm.compile(model_path("forced_impact_oscillator"))
    with pytest.raises(nsm.SettingError, match="samples"):
        m.run(params={"omega": 1e300}, t_end=1)
    r = m.run(params={"omega": 1e300})      # the model's own t_end: 15001 samples
    assert len(r.t) == 15001


def test_zeno_flag_is_taken_as_given(model_path):
    ball = nsm.compile(model_path("bouncing_ball"))
    on = ball.run(t_end=10, method="exact", zeno=True)
    assert "zeno" in list(on.events["kind"])
    with pytest.raises(nsm.SimulationError):
        ball.run(t_end=10, method="exact", zeno=np.bool_(False), max_event_rate=100)


def run_py(code, env=None, timeout=300):
    """Runs Python code in a child interpreter with this test's environment."""
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=e, timeout=timeout)


def test_missing_compiler_and_unwritable_cache_are_compile_errors(model_path, tmp_path):
    """The command line's hints, not FileNotFoundError or PermissionError."""
    path = model_path("two_mass")
    code = "import nsm\ntry:\n    nsm.compile(%r)\nexcept nsm.CompileError as e:\n" \
           "    print('CompileError:', e)\n" % path
    p = run_py(code, {"CC": "/nonexistent/cc", "XDG_CACHE_HOME": str(tmp_path / "c1")})
    assert "CompileError: the C compiler '/nonexistent/cc' was not found (set CC" in p.stdout, \
        p.stdout + p.stderr
    blocker = tmp_path / "file"
    blocker.write_text("")
    p = run_py(code, {"XDG_CACHE_HOME": str(blocker)})
    assert "CompileError: cannot write the model's cache" in p.stdout and \
        "set XDG_CACHE_HOME to a writable directory" in p.stdout, p.stdout + p.stderr
    p = run_py(code.replace(repr(path), repr(str(tmp_path / "none.nsm"))))
    assert p.stdout.startswith("CompileError: ") and "none.nsm" in p.stdout, p.stdout + p.stderr


@pytest.mark.parametrize("damage", ["truncate", "empty"])
def test_damaged_cache_is_rebuilt(model_path, tmp_path, damage):
    """A truncated cached object killed the interpreter (SIGBUS), an empty
    one failed forever: both are found by size and checksum and rebuilt."""
    env = {"XDG_CACHE_HOME": str(tmp_path)}
    code = "import nsm\nr = nsm.compile(%r).run(method='exact')\nprint(len(r.events))\n" \
        % model_path("two_mass")
    p = run_py(code, env)
    assert p.returncode == 0 and p.stdout.strip() == "4", p.stderr
    sos = [os.path.join(d, f) for d, _, fs in os.walk(tmp_path) for f in fs if f.endswith(".so")]
    assert len(sos) == 1
    size = os.path.getsize(sos[0])
    with open(sos[0], "r+b") as f:
        f.truncate(size // 2 if damage == "truncate" else 0)
    p = run_py(code, env)
    assert p.returncode == 0 and p.stdout.strip() == "4", p.stderr
    assert "is damaged (%s)" % ("truncated or grown" if damage == "truncate" else "empty") \
        in p.stderr and "rebuilding it" in p.stderr
    assert os.path.getsize(sos[0]) == size


def test_threads_compile_one_model_with_a_cold_cache(model_path, tmp_path, monkeypatch):
    """Four threads, one model, an empty cache: each gets a whole object."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    out, errors = [None] * 4, []

    def work(i):
        try:
            out[i] = nsm.compile(model_path("two_mass")).run(method="exact").events["t"]
        except BaseException as err:      # the test reports any
            errors.append(repr(err))
    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for o in out:
        np.testing.assert_array_equal(o, out[0])
    left = [f for _, _, fs in os.walk(tmp_path) for f in fs if ".tmp" in f]
    assert not left


def test_long_names_are_not_cut(tmp_path):
    """Two gaps whose 90-character names share their first 63 characters
    stay two names in the events, and the failed contact is named whole."""
    stem = "a_gap_with_a_very_long_name_that_goes_on_and_on_and_on_past_sixty_four_"
    left, right = stem + "characters_left", stem + "characters_right"
    long_floor = "floor_" + "x" * 400
    src = tmp_path / "long.nsm"
    src.write_text(
        "param e = 0.9\nmass M = 1 kg\nspring ground -- M, k = 10 N/m\n"
        "gap %s: M.x >= -0.5 m, impact(e = e)\ngap %s: M.x <= 0.5 m, impact(e = e)\n"
        "mass B = 1 kg\ngravity 9.81\ngap %s: B.x >= 0, impact(e = 0.9)\n"
        "init M.x = 0 m, M.v = 5 m/s, B.x = 1 m\nsimulate t_end = 2 s, method = exact\n"
        % (left, right, long_floor))
    m = nsm.compile(str(src))
    r = m.run(t_end=2)
    names = set(r.events["contact"])
    assert left in names and right in names
    with pytest.raises(nsm.SimulationError) as ei:
        m.run(t_end=30, zeno=False, max_event_rate=100, params={"e": 0.9})
    assert ei.value.contact in (left, right, long_floor)
    assert ei.value.contact == long_floor


INTERRUPT = r"""
import sys, nsm
m = nsm.compile(%r)
print("running", flush=True)
try:
    m.run(t_end=1e4, method="rk4", dt=1e-4, every=0.1)
except KeyboardInterrupt as e:
    r = e.result
    assert isinstance(e, nsm.Interrupted) and 0 < e.t < 1e4, e.t
    assert len(r.t) > 1 and r.t[-1] <= e.t and r.t_reached == e.t
    print("interrupted", len(r.t))
"""


def test_ctrl_c_stops_the_run_and_keeps_the_result(model_path):
    """SIGINT during a run of 1e8 steps: KeyboardInterrupt (nsm.Interrupted)
    at the next sample, with the samples computed so far."""
    p = subprocess.Popen([sys.executable, "-c", INTERRUPT % model_path("two_mass")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "running"
    threading.Event().wait(1.0)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=300)
    assert p.returncode == 0 and out.startswith("interrupted"), out + err


def test_ctrl_c_stops_a_run_of_tiny_steps_at_once(model_path):
    """Steps of 0.1 us and one sample at the end (the first event, at 3.26 s,
    is 3.3e7 steps in): the runtime reads the stop flag before every step,
    so the first SIGINT stops the run within a step, not at the next sample
    or event seconds away."""
    code = INTERRUPT.replace('t_end=1e4, method="rk4", dt=1e-4, every=0.1',
                             't_end=9, method="rk4", dt=1e-7, every=9')
    code = code.replace("len(r.t) > 1", "len(r.t) >= 1")
    p = subprocess.Popen([sys.executable, "-c", code % model_path("two_mass")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "running"
    threading.Event().wait(1.0)
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=300)
    took = time.monotonic() - t0
    assert p.returncode == 0 and out.startswith("interrupted"), out + err
    assert took < 5, took


FRICTION3 = """model fr3 "three friction elements, the last one forced"
param w = 4 rad/s
param A = 3 N
mass M1 = 1 kg
mass M2 = 1 kg
mass M3 = 1 kg
spring S1: ground -- M1, k = 1 N/m
spring S2: ground -- M2, k = 1 N/m
spring S3: ground -- M3, k = 1 N/m
force drive: on M3 = A*sin(w*t)
friction F1: M1 -- ground, mu_s = 0.4, mu_k = 0.3, normal = 1 N
friction F2: M2 -- ground, mu_s = 0.4, mu_k = 0.3, normal = 1 N
friction F3: M3 -- ground, mu_s = 0.5, mu_k = 0.35, normal = 1 N
init M1.x = 0 m
simulate t_end = 20 s, method = exact
"""


def test_failed_friction_element_is_named_right(tmp_path):
    """The event rate cap met by the reversals of F3, the only driven (and
    only reversing) element: the failure names F3, not F2 (an event's
    contact n_gaps + k was read as friction column n_gaps + 2k)."""
    src = tmp_path / "fr3.nsm"
    src.write_text(FRICTION3)
    m = nsm.compile(str(src))
    r = m.run()
    assert set(r.events[r.events["kind"] == "reversal"]["contact"]) == {"F3"}
    with pytest.raises(nsm.SimulationError) as ei:
        m.run(max_event_rate=1)
    assert ei.value.status == "NSM_EEVENTS" and "(reversal)" in ei.value.message
    assert ei.value.contact == "F3" and "friction 'F3'" in ei.value.message


def test_time_switch_events_are_named_by_index(model_path):
    """sdld29's force switches off at t = 1 s (`if t <= 1 s`): one time
    event, which has no name in the runtime, labelled switch0."""
    r = nsm.compile(model_path("sdld29")).run(method="exact")
    assert list(r.events["kind"]) == ["time"] and list(r.events["contact"]) == ["switch0"]
    assert abs(r.events["t"][0] - 1) < 1e-12


@pytest.mark.parametrize("call", [
    lambda m: m.section("period:1", t_end=1e300),
    lambda m: m.floquet(1.0, transient=1e300),
    lambda m: m.lyapunov(1e300, 1),
])
def test_studies_refuse_runs_the_time_axis_cannot_carry(two_mass, call):
    """A study whose end lies where the step cannot move t is refused up
    front as the command line's option error (SettingError), not a failed
    run (SimulationError)."""
    with pytest.raises(nsm.SettingError) as err:
        call(two_mass)
    assert "time resolution" in str(err.value)


def test_init_neither_dict_nor_values_is_a_parameter_error(two_mass):
    """init=5: an nsm error naming what init takes, not Python's TypeError."""
    with pytest.raises(nsm.ParameterError) as err:
        two_mass.run(t_end=0.1, init=5)
    assert "init must be a dict" in str(err.value) and "got 5" in str(err.value)


def test_init_of_a_body_in_space_is_refused(model_path):
    """A rigid body's state is (r, p[4], v, w): init= given as 2n values per
    body (x, v) would set the wrong slots, so it is refused, and the model
    still runs from its own init."""
    top = nsm.compile(model_path("free_top"))
    with pytest.raises(nsm.ParameterError) as err:
        top.run(t_end=0.01, init={"B.x": 1.0})
    assert "bodies in space" in str(err.value)
    with pytest.raises(nsm.ParameterError):
        top.run(t_end=0.01, init=[0.0] * (2 * len(top.bodies)))
    assert top.run(t_end=0.01) is not None


def test_unknown_column_is_an_nsm_error_and_a_key_error(two_mass):
    """result["nope"]: nsm.ColumnError, also a KeyError, listing the columns."""
    r = two_mass.run(t_end=0.1)
    with pytest.raises(nsm.ColumnError) as err:
        r["nope"]
    assert isinstance(err.value, KeyError) and isinstance(err.value, nsm.Error)
    assert "M1.x" in str(err.value)
