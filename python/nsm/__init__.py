"""nsm — nonsmooth mechanics, compiled, from Python.

    import nsm
    m = nsm.compile("models/two_mass.nsm")      # nsmc + cc, cached
    m.params                                   # {"m1": Param(5.0, "kg"), ...}
    r = m.run(t_end=20, method="exact", params={"e": 0.5}, every=0.01)
    r.t, r["M1.x"], r.state                    # numpy arrays
    r.events                                   # numpy structured array
    r.audit, r.contacts                        # energy audit, per-contact statistics

`compile` runs nsmc (the program) to generate the model's C, builds it with
the C compiler into a shared object linked against the shared libnsmrt, and
caches that object like `nsmc run` caches its simulators.  The runs go
through libnsmrt's API (nsm/nsm.h) with ctypes; a small C helper compiled
into the same object (_record.c) keeps the samples and events in C arrays
during the run.  Errors are Python exceptions carrying the runtime's or the
compiler's own message (see docs/python.md).
"""
import collections
import ctypes
import hashlib
import json
import os
import re
import subprocess
import tempfile

import numpy as np

from . import _paths

__all__ = ["compile", "Model", "Result", "Param", "Error", "CompileError", "ParameterError",
           "SimulationError", "EVENT_DTYPE"]

# nsm.h's status codes, by number.
STATUS = {0: "NSM_OK", 1: "NSM_EINVAL", 2: "NSM_ENOMEM", 3: "NSM_EMODEL", 4: "NSM_ESTEPS",
          5: "NSM_EEVENTS", 6: "NSM_ENUMERIC", 7: "NSM_EMETHOD", 8: "NSM_ESTOPPED"}
METHODS = {"rk4": 0, "adaptive": 1, "exact": 2}
AUDIT_FIELDS = ("kinetic", "potential", "springs", "gravity", "contacts", "injected",
                "dissipated", "lost", "e0", "error", "error_max", "energy_max",
                "aster_energy", "aster_force", "steps", "dissipated_other", "injected_other")
STATS_FIELDS = ("impacts", "zeno", "phases", "contact_time", "impulse", "peak_force",
                "max_speed", "energy_lost", "damper_energy", "aster_force")
EVFIELDS = 8

Param = collections.namedtuple("Param", "value unit")
Param.__doc__ = "A model parameter: its default value (SI) and unit text."
Output = collections.namedtuple("Output", "name unit")


class Error(Exception):
    """Base class of nsm's errors."""


class CompileError(Error):
    """nsmc rejected the model, or the generated C did not build.  The message
    is the compiler's diagnostics (file:line:col: error: ...)."""


class ParameterError(Error, ValueError):
    """An unknown parameter, or a value the model rejects."""


class SimulationError(Error):
    """A run that failed.  Attributes: message (the runtime's text, naming
    the time, the mode and the contact), status (e.g. "NSM_ESTEPS"), t (the
    time reached), mode (names of the contacts closed then), contact (the
    contact the failure is about, or None) and result (what was computed up
    to the failure, a Result)."""

    def __init__(self, message, status, t, mode, contact, result):
        super().__init__(message)
        self.message, self.status, self.t = message, status, t
        self.mode, self.contact, self.result = mode, contact, result


def _cache_root():
    """$XDG_CACHE_HOME/nsm or ~/.cache/nsm, as `nsmc run` uses."""
    x = os.environ.get("XDG_CACHE_HOME", "")
    if x.startswith("/"):
        return os.path.join(x, "nsm")
    home = os.environ.get("HOME", "")
    if home:
        return os.path.join(home, ".cache", "nsm")
    return "/tmp/nsm-cache-%d" % os.getuid()


def _hash_file(h, path):
    """Feeds a file's bytes (or its name when unreadable) to a hash."""
    try:
        with open(path, "rb") as f:
            h.update(f.read())
    except OSError:
        h.update(path.encode())


def _generate(path):
    """Runs nsmc on a model file; returns the C text."""
    with tempfile.TemporaryDirectory(prefix="nsm-py-") as tmp:
        out = os.path.join(tmp, "model.c")
        p = subprocess.run([_paths.NSMC, os.fspath(path), "-o", out], capture_output=True,
                           text=True)
        if p.returncode != 0:
            raise CompileError(p.stderr.strip() or "nsmc failed with exit status %d"
                               % p.returncode)
        with open(out, encoding="utf-8") as f:
            return f.read()


def _build(ctext, verbose=False):
    """Builds (or finds in the cache) the shared object of a model's C text;
    returns its path and the model table's symbol."""
    m = re.search(r"^const nsm_model (nsm_model_\w+) =", ctext, re.M)
    if not m:
        raise CompileError("nsmc's output holds no model table")
    symbol = m.group(1)
    cc = os.environ.get("CC", "").split() or ["cc"]
    helper = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_record.c")
    libdir = os.path.dirname(_paths.LIBNSMRT)
    cmd = cc + ["-O2", "-fPIC", "-shared", "-DNSM_NO_MAIN", "-DNSMPY_MODEL=" + symbol,
                "-I", _paths.INCLUDE] + list(_paths.CFLAGS)
    link = ["-L", libdir, "-Wl,-rpath," + libdir, "-lnsmrt", "-lm"]
    h = hashlib.sha256()
    h.update(ctext.encode())
    for f in (helper, _paths.LIBNSMRT, os.path.join(_paths.INCLUDE, "nsm", "nsm.h"),
              os.path.join(_paths.INCLUDE, "nsm", "model.h")):
        _hash_file(h, f)
    h.update("\0".join(cmd + link).encode())
    name = symbol[len("nsm_model_"):]
    d = os.path.join(_cache_root(), "py-%s-%s" % (name, h.hexdigest()[:16]))
    so = os.path.join(d, name + ".so")
    if os.path.exists(so):
        return so, symbol
    os.makedirs(d, exist_ok=True)
    csrc = os.path.join(d, name + ".c")
    tmp = "%s.tmp%d" % (csrc, os.getpid())
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(ctext)
    os.replace(tmp, csrc)
    tmp = "%s.tmp%d" % (so, os.getpid())
    full = cmd + ["-o", tmp, csrc, helper] + link
    if verbose:
        print(" ".join(full))
    p = subprocess.run(full, capture_output=True, text=True)
    if p.returncode != 0:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise CompileError("the generated C (%s) did not build with %s:\n%s"
                           % (csrc, cc[0], p.stderr.strip()))
    os.replace(tmp, so)
    return so, symbol


def compile(path, verbose=False):
    """Compiles a .nsm model (nsmc, then the C compiler, cached); returns a Model.
    Raises CompileError with nsmc's diagnostics when the model is wrong."""
    so, _ = _build(_generate(path), verbose)
    return Model(so)


def _declare(lib):
    """Argument and result types of the C functions used."""
    P, D, I, L, S = ctypes.c_void_p, ctypes.c_double, ctypes.c_int, ctypes.c_long, ctypes.c_char_p
    DP = ctypes.POINTER(ctypes.c_double)
    sigs = {
        "nsmpy_model": (P, []), "nsmpy_describe": (L, [ctypes.c_char_p, L]),
        "nsmpy_rec_new": (P, []), "nsmpy_rec_free": (None, [P]),
        "nsmpy_rec_ncol": (I, [P]), "nsmpy_rec_nsamples": (L, [P]),
        "nsmpy_rec_samples": (DP, [P]), "nsmpy_rec_nevents": (L, [P]),
        "nsmpy_rec_events": (DP, [P]), "nsmpy_rec_oom": (I, [P]),
        "nsmpy_run": (I, [P, P, D]), "nsmpy_audit": (I, [P, DP]),
        "nsmpy_contact_stats": (I, [P, I, DP]),
        "nsm_sim_create": (P, [P]), "nsm_sim_free": (None, [P]),
        "nsm_sim_set_param": (I, [P, S, D]), "nsm_sim_set_method": (I, [P, I]),
        "nsm_sim_set_dt": (I, [P, D]), "nsm_sim_set_every": (I, [P, D]),
        "nsm_sim_set_tolerances": (I, [P, D, D]), "nsm_sim_set_max_steps": (I, [P, L]),
        "nsm_sim_set_max_event_rate": (I, [P, D]), "nsm_sim_set_zeno": (I, [P, I]),
        "nsm_sim_set_audit": (I, [P, I]), "nsm_sim_message": (S, [P]),
        "nsm_sim_time": (D, [P]), "nsm_sim_mode_has": (I, [P, I]),
        "nsm_sim_steps": (L, [P]), "nsm_sim_events": (L, [P]),
        "nsm_sim_get_method": (I, [P]),
        "nsm_sim_model_times": (I, [P, DP, DP, DP]),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = res, args


class Model:
    """A compiled model: its parameters, outputs and contacts, and run()."""

    def __init__(self, so_path):
        self.path = so_path
        self._lib = ctypes.CDLL(so_path)
        _declare(self._lib)
        size = 1 << 16
        while True:
            buf = ctypes.create_string_buffer(size)
            n = self._lib.nsmpy_describe(buf, size)
            if n < size:
                break
            size = max(n + 1, 8 * size)
        d = json.loads(buf.value.decode("utf-8"))
        self.name, self.title = d["name"], d["title"]
        self.bodies = list(d["bodies"])
        self.params = collections.OrderedDict((n, Param(v, u)) for n, u, v in d["params"])
        self.outputs = [Output(n, u) for n, u in d["outputs"]]
        self.contacts = [n for n, _ in d["gaps"]]
        self.laws = dict((n, law) for n, law in d["gaps"])
        self.frictions = list(d.get("frictions", []))
        self.defaults = dict(t_end=d["t_end"], dt=d["dt"], every=d["every"],
                             method=d["method"])
        self._kinds = list(d["kinds"])
        self._table = self._lib.nsmpy_model()

    def __repr__(self):
        return "<nsm.Model %s: %d bodies, %d parameters, %d contacts, %d outputs>" % (
            self.name, len(self.bodies), len(self.params), len(self.contacts),
            len(self.outputs))

    def _configure(self, sim, method, params, dt, every, rtol, atol, max_steps,
                   max_event_rate, zeno):
        """Applies a run's settings to a fresh simulation object."""
        lib = self._lib
        for name, value in (params or {}).items():
            if name not in self.params:
                raise ParameterError("unknown parameter '%s'; valid parameters: %s"
                                     % (name, ", ".join(self.params) or "(none)"))
            if lib.nsm_sim_set_param(sim, name.encode(), float(value)) != 0:
                raise ParameterError(lib.nsm_sim_message(sim).decode())
        if method is not None:
            if method not in METHODS:
                raise ValueError("unknown method '%s' (valid: rk4, adaptive, exact)" % method)
            lib.nsm_sim_set_method(sim, METHODS[method])
        checks = [(dt, lib.nsm_sim_set_dt, "dt"), (every, lib.nsm_sim_set_every, "every"),
                  (max_event_rate, lib.nsm_sim_set_max_event_rate, "max_event_rate")]
        for value, fn, what in checks:
            if value is not None and fn(sim, float(value)) != 0:
                raise ValueError("bad value %r for %s" % (value, what))
        if (rtol is not None or atol is not None) and lib.nsm_sim_set_tolerances(
                sim, float(1e-9 if rtol is None else rtol),
                float(1e-12 if atol is None else atol)) != 0:
            raise ValueError("bad tolerances rtol=%r, atol=%r" % (rtol, atol))
        if max_steps is not None and lib.nsm_sim_set_max_steps(sim, int(max_steps)) != 0:
            raise ValueError("bad value %r for max_steps" % max_steps)
        lib.nsm_sim_set_zeno(sim, 1 if zeno else 0)
        lib.nsm_sim_set_audit(sim, 1)

    def run(self, t_end=None, method=None, params=None, every=None, dt=None, rtol=None,
            atol=None, max_steps=None, max_event_rate=None, zeno=True):
        """Simulates from t = 0 to t_end (default: the model's `simulate`).

        method: "rk4", "adaptive" or "exact"; params: {name: value (SI)};
        every: sampling period (0 = every step); dt: step (largest step of
        adaptive); rtol, atol: adaptive tolerances; max_steps,
        max_event_rate: the guards; zeno: jump over Zeno cascades.  Returns
        a Result; raises ParameterError for a bad parameter and
        SimulationError (with the partial result) when the run fails."""
        if t_end is not None and not float(t_end) >= 0:
            raise ValueError("t_end must be >= 0, got %r" % t_end)
        lib = self._lib
        sim = lib.nsm_sim_create(self._table)
        if not sim:
            raise Error("cannot create the simulation (ABI mismatch or out of memory)")
        rec = lib.nsmpy_rec_new()
        try:
            if not rec:
                raise MemoryError("cannot allocate the run's record")
            self._configure(sim, method, params, dt, every, rtol, atol, max_steps,
                            max_event_rate, zeno)
            if t_end is None:
                # the model's `simulate` t_end with these parameters (it may use them)
                te = ctypes.c_double(self.defaults["t_end"])
                if lib.nsm_sim_model_times(sim, ctypes.byref(te), None, None) != 0:
                    raise ParameterError("the model's t_end is not a positive time with "
                                         "these parameters")
                t_end = te.value
            t_end = float(t_end)
            rc = lib.nsmpy_run(sim, rec, t_end)
            if rc == 3:   # NSM_EMODEL: setup rejected a parameter value
                raise ParameterError(lib.nsm_sim_message(sim).decode())
            result = self._result(sim, rec)
            if lib.nsmpy_rec_oom(rec):
                raise MemoryError("out of memory recording the run at t = %g s"
                                  % result.t_reached)
            if rc != 0:
                msg = lib.nsm_sim_message(sim).decode()
                m = re.search(r"contact '([^']*)'", msg)
                raise SimulationError(msg, STATUS.get(rc, str(rc)), lib.nsm_sim_time(sim),
                                      self._mode_names(lambda j: lib.nsm_sim_mode_has(sim, j)),
                                      m.group(1) if m else None, result)
            return result
        finally:
            lib.nsmpy_rec_free(rec)
            lib.nsm_sim_free(sim)

    def _mode_names(self, closed):
        """Names of the contacts closed in a mode (closed(j): gap j closed)."""
        return [c for j, c in enumerate(self.contacts) if closed(j)]

    def _result(self, sim, rec):
        """Copies a run's samples, events, audit and statistics into a Result."""
        lib = self._lib
        ncol, ns = lib.nsmpy_rec_ncol(rec), lib.nsmpy_rec_nsamples(rec)
        samples = np.zeros((0, ncol))
        if ns:
            samples = np.ctypeslib.as_array(lib.nsmpy_rec_samples(rec), (ns, ncol)).copy()
        ne = lib.nsmpy_rec_nevents(rec)
        raw = np.zeros((0, EVFIELDS))
        if ne:
            raw = np.ctypeslib.as_array(lib.nsmpy_rec_events(rec), (ne, EVFIELDS)).copy()
        events = np.zeros(ne, dtype=EVENT_DTYPE)
        for i, e in enumerate(raw):
            kind, contact = int(e[1]), int(e[2])
            events[i] = (e[0], self._kinds[kind] if 0 <= kind < len(self._kinds) else "?",
                         "switch%d" % contact if kind == 6 else
                         (self.contacts[contact] if 0 <= contact < len(self.contacts) else
                          self.frictions[contact - len(self.contacts)]
                          if 0 <= contact - len(self.contacts) < len(self.frictions) else "-"),
                         e[3], e[4], e[5], e[6], int(e[7]))
        buf = (ctypes.c_double * len(AUDIT_FIELDS))()
        lib.nsmpy_audit(sim, buf)
        audit = dict(zip(AUDIT_FIELDS, list(buf)))
        audit["steps"] = int(audit["steps"])
        contacts = collections.OrderedDict()
        sbuf = (ctypes.c_double * len(STATS_FIELDS))()
        for j, c in enumerate(self.contacts):
            lib.nsmpy_contact_stats(sim, j, sbuf)
            st = dict(zip(STATS_FIELDS, list(sbuf)))
            for k in ("impacts", "zeno", "phases"):
                st[k] = int(st[k])
            st["law"] = self.laws[c]
            contacts[c] = st
        return Result(self, samples, events, audit, contacts, lib.nsm_sim_time(sim),
                      lib.nsm_sim_steps(sim), ["rk4", "adaptive", "exact"][
                          lib.nsm_sim_get_method(sim)])


# The events of a run: one record per transition (docs/python.md).
EVENT_DTYPE = np.dtype([("t", "f8"), ("kind", "U13"), ("contact", "U64"),
                        ("vrel_before", "f8"), ("vrel_after", "f8"), ("impulse", "f8"),
                        ("energy_lost", "f8"), ("count", "i8")])


class Result:
    """One run: samples as numpy arrays, events as a structured array.

    r.t              sample times (s)
    r["M1.x"]        an output column by name (r.columns lists them)
    r.state          the state y = (x, v) at every sample, shape (samples, 2n)
    r.x, r.v         its positions and velocities, columns in r.bodies' order
    r.events         structured array: t, kind, contact, vrel_before,
                     vrel_after, impulse, energy_lost, count
    r.audit          the energy audit (dict, as nsm_audit: kinetic, ...)
    r.contacts       per contact: impacts, zeno, phases, contact_time, ...
    r.t_reached, r.steps, r.method
    """

    def __init__(self, model, samples, events, audit, contacts, t_reached, steps, method):
        n = len(model.outputs)
        self.model = model
        self.t = samples[:, 0]
        self.columns = [o.name for o in model.outputs]
        self.units = dict((o.name, o.unit) for o in model.outputs)
        self._out = samples[:, 1:1 + n]
        self.state = samples[:, 1 + n:]
        self.bodies = list(model.bodies)
        self.events = events
        self.audit = audit
        self.contacts = contacts
        self.t_reached, self.steps, self.method = t_reached, steps, method

    @property
    def x(self):
        """Positions of every body at every sample."""
        return self.state[:, :len(self.bodies)]

    @property
    def v(self):
        """Velocities of every body at every sample."""
        return self.state[:, len(self.bodies):]

    def __getitem__(self, name):
        try:
            return self._out[:, self.columns.index(name)]
        except ValueError:
            raise KeyError("no output column '%s'; the columns are: %s"
                           % (name, ", ".join(self.columns))) from None

    def __contains__(self, name):
        return name in self.columns

    def __repr__(self):
        return "<nsm.Result %s: %d samples to t = %g s, %d events, method %s>" % (
            self.model.name, len(self.t), self.t_reached, len(self.events), self.method)
