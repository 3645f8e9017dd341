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
during the run.  Every error is an nsm.Error subclass with a message (the
runtime's or the compiler's own text where there is one); codes, event
kinds and contacts are named by the runtime's name functions, never parsed
out of messages; runs that cannot work are refused up front by the
runtime's nsm_run_check; Ctrl-C raises nsm.Interrupted with the partial
result; cached objects are verified by size and checksum (docs/python.md).
"""
import collections
import csv
import ctypes
import errno
import fcntl
import functools
import glob
import hashlib
import json
import math
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
import warnings

try:
    import numpy as np
except ImportError as _err:   # pragma: no cover - tested in a bare venv
    if not (isinstance(_err, ModuleNotFoundError) and _err.name == "numpy"):
        # numpy is there but its import failed (Ctrl-C during it becomes
        # numpy's "could not import module datetime"): the advice to
        # install it named the wrong cause
        _why = (str(_err).strip().splitlines() or [type(_err).__name__])[-1]
        raise ImportError("nsm needs numpy, which is installed for this Python (%s) but "
                          "failed to import: %s (if the import was interrupted, import nsm "
                          "again)" % (sys.executable, _why)) from _err
    raise ImportError(
        "nsm needs numpy, which this Python (%s) cannot import: use Debian's python3 "
        "(/usr/bin/python3) with python3-numpy (apt-get install python3-numpy), create "
        "the virtual environment with `python3 -m venv --system-site-packages`, or "
        "install numpy into this interpreter" % sys.executable) from _err

from ._version import __version__

__all__ = ["compile", "compile_source", "Model", "Result", "Branch", "Param", "Error", "CompileError", "ParameterError",
           "SettingError", "SimulationError", "ColumnError", "ArgumentError", "OutOfMemoryError",
           "Interrupted", "SimulationWarning", "EVENT_DTYPE", "last_warnings", "__version__"]

METHODS = {"rk4": 0, "adaptive": 1, "exact": 2, "taylor": 3}
METHOD_NAMES = {v: k for k, v in METHODS.items()}
AUDIT_FIELDS = ("kinetic", "potential", "springs", "gravity", "contacts", "injected",
                "dissipated", "lost", "e0", "error", "error_max", "energy_max",
                "aster_energy", "aster_force", "steps", "dissipated_other", "injected_other")
STATS_FIELDS = ("impacts", "zeno", "phases", "contact_time", "impulse", "peak_force",
                "max_speed", "energy_lost", "damper_energy", "aster_force")
FRICTION_FIELDS = ("dissipated", "surface_work", "stick_time", "sticks", "slips",
                   "reversals", "state")
EVFIELDS = 8

Param = collections.namedtuple("Param", "value unit")
Param.__doc__ = "A model parameter: its default value (SI) and unit text."
Output = collections.namedtuple("Output", "name unit")


class Error(Exception):
    """Base class of nsm's errors; each carries a message saying what and why."""


class CompileError(Error):
    """nsmc rejected the model, the generated C did not build, or nsmc, the C
    compiler or the cache could not be used.  The message is the compiler's
    diagnostics (file:line:col: error: ...) or says what to fix."""


class ParameterError(Error, ValueError):
    """An unknown parameter, or a value the model rejects."""


class SettingError(Error, ValueError):
    """A bad run setting (t_end, method, dt, every, tolerances, caps, zeno),
    or settings that make the run impossible (too many samples or steps)."""


class ColumnError(Error, KeyError):
    """A result has no output column of that name (a KeyError too)."""


class ArgumentError(Error, TypeError):
    """A call whose arguments do not fit the function (a misspelt keyword
    such as run(tend=1), too many arguments, one missing): Python's
    TypeError, which it also is, with Python's own error as __cause__."""


class OutOfMemoryError(Error, MemoryError):
    """Memory ran out creating a simulation or recording a run (a
    MemoryError too)."""


class SimulationWarning(UserWarning):
    """A warning of the runtime about a run that goes on (the simulators
    print them as "warning: ..."): a contact far from the origin located
    only to its tolerance band, a step reduced below dt for stability.
    Shown with warnings.warn; a run's are also kept in Result.warnings."""


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

    def __reduce__(self):
        """Pickled with all its fields: unpickling called the class with the
        message alone (a TypeError), so a failed run in a multiprocessing
        worker stalled the pool's map for ever."""
        return type(self), (self.message, self.status, self.t, self.mode, self.contact,
                            self.result)


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (SIGINT) during a run or a study: it stopped before its next
    step (however small the steps).  A KeyboardInterrupt (so that it ends a
    script as Ctrl-C does), with t (the time reached) and result (what was
    computed: run's Result; section's records; sweep's (p, rec) so far;
    continuation's Branch so far; None for lyapunov and floquet; basins'
    rows of the initial states finished, as dicts of nsmc sweep's
    summary.csv columns, with t None: a label needs the whole grid; and
    sweep's with t None when stopped between two values' runs)."""

    def __init__(self, t, result):
        super().__init__("interrupted at t = %.9g s" % t if t is not None else
                         "interrupted between runs (the points finished are in result)")
        self.t, self.result = t, result

    def __reduce__(self):
        """Pickled with its time and result (as SimulationError)."""
        return type(self), (self.t, self.result)


def _api(fn):
    """A public function or method whose every error is an nsm.Error with a
    message: Python's TypeError for arguments that do not fit its signature
    (run(tend=1): raised before any of its code runs) becomes an
    ArgumentError, memory running out an OutOfMemoryError, and any other
    exception that escapes it (the caller's own, raised by a value's
    __eq__, __iter__ or items() where no argument check caught it first) an
    nsm.Error naming it; the original is chained as __cause__.
    KeyboardInterrupt (Interrupted) and warnings raised as errors pass."""
    where, stopped = fn.__qualname__, getattr(fn, "_stopped", None)

    @functools.wraps(fn)
    def call(*args, **kwargs):
        depth = -1
        try:    # from the first line: a Ctrl-C anywhere in the call is seen
            depth = getattr(_said, "depth", 0)
            if depth == 0:      # a call from outside the package: its own warnings
                _said.lines, _said.outer = [], sys.exc_info()[1]
            _said.depth = depth + 1
            return fn(*args, **kwargs)
        except (Error, Warning):
            raise
        except KeyboardInterrupt as err:
            # a stop before fn's own conversion (at its first instruction)
            if stopped is None or isinstance(err, Interrupted):
                raise
            raise stopped(*args) from None
        except MemoryError as err:
            raise OutOfMemoryError("%s: out of memory%s" % (where, ": %s" % err if str(err)
                                                            else "")) from err
        except Exception as err:
            if isinstance(err, TypeError) and err.__traceback__ is not None and \
                    err.__traceback__.tb_next is None:     # the call's own binding
                raise ArgumentError(str(err)) from err
            raise Error("%s: the call raised %s: %s" % (where, type(err).__name__, str(err) or
                                                          "(no message)")) from err
        finally:
            if depth >= 0:
                _said.depth = depth
    return call


def _stops_as(make):
    """Marks a public method whose Ctrl-C anywhere, even before its own
    conversion, is make(self, ...)'s exception (an Interrupted with what
    it promises for a stop before any result); _api reads the mark."""
    def mark(fn):
        fn._stopped = make
        return fn
    return mark


# The runtime's warnings of the last public call in each thread (texts), for
# last_warnings(); outer: the exception being handled where that call was
# made (not one of the call's own on its way).
_said = threading.local()


def last_warnings():
    """The runtime's warnings (texts) of the last call into the package made
    in this thread: a study that returns plain arrays (section, sweep,
    lyapunov, floquet, basins) keeps them here, as a run keeps its own in
    Result.warnings (each was also shown with warnings.warn as a
    SimulationWarning).  A new list on each call; [] before any."""
    return list(getattr(_said, "lines", []))


def _warn_all(name, lines):
    """Shows the runtime's warnings with warnings.warn (SimulationWarning, at
    the caller's line) and keeps them for last_warnings().  Under
    warnings.simplefilter("error") a warning shown while one of the call's
    own exceptions is on its way (a study's clean-up after a failure) does
    not replace it: it is added to that exception's notes (Python 3.11)
    and kept; otherwise it is raised as the filter asks."""
    if hasattr(_said, "lines"):
        _said.lines.extend(lines)
    pending = sys.exc_info()[1]
    ours = pending is not None and pending is not getattr(_said, "outer", None)
    for line in lines:
        try:
            warnings.warn("%s: %s" % (name, line), SimulationWarning,
                          stacklevel=_caller_level())
        except Warning:
            if not ours:
                raise
            if hasattr(pending, "add_note"):
                pending.add_note("warning (raised as an error by the warnings filter while "
                                 "this exception was on its way): %s: %s" % (name, line))


def _caller(what, error, fn, *args):
    """fn(*args) on a value of the caller's (a comparison, an iteration,
    items()), whose own exception (a __eq__ that raises) becomes error
    naming what, the exception chained: it passed through unchanged."""
    try:
        return fn(*args)
    except Error:
        raise
    except Exception as err:
        raise error("%s: the given value raised %s: %s" % (what, type(err).__name__,
                                                          str(err) or "(no message)")) from err


def _caller_level():
    """The stacklevel of warnings.warn, called by the function calling this,
    that names the first frame outside this package (the user's line)."""
    f, level = sys._getframe(1), 1
    while f is not None and f.f_code.co_filename == __file__:
        f, level = f.f_back, level + 1
    return level


def _plural(n, one, many=None):
    """'1 contact', '2 contacts' (many: an irregular plural, 'bodies')."""
    return "%d %s" % (n, one if n == 1 else many or one + "s")


def _locate():
    """Where nsmc, libnsmrt.so and the headers are, as a module-like object:
    the _paths.py written by CMake (build tree, install, or a pip install
    from either), else $NSMC or the nsmc on PATH with the shared library
    and headers of its install prefix."""
    try:
        from . import _paths
        return _paths
    except ImportError:
        pass
    nsmc = os.environ.get("NSMC") or shutil.which("nsmc")
    if not nsmc:
        raise CompileError("nsmc was not found: this copy of the package was installed "
                           "without nsm's build; install nsm (cmake --install) and put its "
                           "bin/ on PATH, set NSMC to its nsmc, or pip install the package "
                           "from the build tree (build/python)")
    nsmc = os.path.realpath(nsmc)
    prefix = os.path.dirname(os.path.dirname(nsmc))
    libs = [os.path.join(d, "libnsmrt.so") for d in
            (os.path.dirname(nsmc), os.path.join(prefix, "lib"), os.path.join(prefix, "lib64"))]
    libs += [os.path.join(prefix, "lib", d, "libnsmrt.so")
             for d in sorted(os.listdir(os.path.join(prefix, "lib")))
             if os.path.isdir(os.path.join(prefix, "lib", d))] \
        if os.path.isdir(os.path.join(prefix, "lib")) else []
    lib = next((f for f in libs if os.path.exists(f)), None)
    inc = os.path.join(prefix, "include")
    if not lib or not os.path.exists(os.path.join(inc, "nsm", "nsm.h")):
        raise CompileError("the runtime of %s (libnsmrt.so and include/nsm/nsm.h under %s) "
                           "was not found: use an installed nsm (cmake --install) or pip "
                           "install the package from the build tree" % (nsmc, prefix))
    return type("_paths", (), dict(NSMC=nsmc, LIBNSMRT=lib, INCLUDE=inc, CFLAGS=[]))


def _cache_root():
    """$XDG_CACHE_HOME/nsm, $HOME/.cache/nsm, else /tmp/nsm-cache-UID, as
    `nsmc run` uses: a relative XDG_CACHE_HOME or HOME is ignored (the XDG
    base directory rules; a relative HOME put the cache under the current
    folder).  The folder is made (mode 0700) and checked by _cache_safe."""
    x = os.environ.get("XDG_CACHE_HOME", "")
    if x.startswith("/"):
        return _cache_safe(os.path.join(x, "nsm"))
    home = os.environ.get("HOME", "")
    if home.startswith("/"):
        return _cache_safe(os.path.join(home, ".cache", "nsm"))
    return _cache_safe("/tmp/nsm-cache-%d" % os.getuid())


def _cache_safe(root):
    """root, made (mode 0700) when missing and checked by _path_safe as a
    folder: the package loads the programs found there, and
    /tmp/nsm-cache-UID could be made beforehand by another local user who
    would plant one.  CompileError otherwise."""
    try:
        if not os.path.lexists(root):
            os.makedirs(root, exist_ok=True)
            os.chmod(root, 0o700)
        os.stat(root)
    except OSError as err:
        raise _cache_error(root, err) from None
    _path_safe("folder", root, True)
    return root


def _path_why(path, folder):
    """(why, stat) for the cache's path that is not safe to use, (None, _)
    when it is safe or not there; nsmc run's rule (cache_path_why): the path
    itself (lstat) must be ours, as a link in a shared folder can be swapped
    by its owner at any time; a link of ours is judged by its target where
    a folder is wanted (folder), as any folder, and in place of an entry's
    file is never followed (_cache_verify calls it damaged: rebuilt); a
    link to nothing is left to the caller."""
    st = os.lstat(path)
    if st.st_uid != os.geteuid():
        return ("it is a link owned by another user" if stat.S_ISLNK(st.st_mode) else
                "it is owned by another user"), st
    if stat.S_ISLNK(st.st_mode):
        if not folder:
            return None, st
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return None, st
    if folder and not stat.S_ISDIR(st.st_mode):
        return "it is not a folder", st
    if st.st_uid != os.geteuid():
        return "it is a link to a path owned by another user", st
    if st.st_mode & 0o022:
        return "it is writable by other users", st
    return None, st


def _path_safe(noun, path, folder=False):
    """Refuses (CompileError) the cache's path (noun: its "folder", or an
    "entry"'s folder or file) when _path_why says it is not safe, with nsmc
    run's message: the package loads the object its checksum vouches for,
    and under umask 000 an entry was writable by any local user."""
    try:
        why, st = _path_why(path, folder)
    except FileNotFoundError:
        return
    except OSError as err:
        raise _cache_error(path, err) from None
    if why:
        raise CompileError("the cache %s %s is not safe to use: %s (owner uid %d, mode "
                           "%04o): another user could plant or replace a program there that "
                           "would be loaded; remove it (nsmc cache clean) or make it yours "
                           "alone (chmod go-w), or set XDG_CACHE_HOME to a folder of yours"
                           % (noun, path, why, st.st_uid, st.st_mode & 0o7777))


def _entry_safe(d, so, sumfile):
    """The cache entry's folder d and files so, sumfile checked by _path_safe
    (as nsmc run checks its entries); False when they are safe."""
    _path_safe("entry", d, True)
    _path_safe("entry", so)
    _path_safe("entry", sumfile)
    return False


def _cache_error(path, err):
    """CompileError for a cache that cannot be used, with the command line's hint."""
    return CompileError("cannot write the model's cache %s: %s (set XDG_CACHE_HOME to a "
                        "writable directory)" % (path, err.strerror or err))


def _hash_file(h, path):
    """Feeds a file's bytes (or its name when unreadable) to a hash."""
    try:
        with open(path, "rb") as f:
            h.update(f.read())
    except OSError:
        h.update(path.encode())


def _digest(path):
    """(sha256 hex, size) of a file's bytes, or None when it cannot be read."""
    h, size = hashlib.sha256(), 0
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
                size += len(block)
    except OSError:
        return None
    return h.hexdigest(), size


def _tmp_name(path):
    """A temporary name next to path, unique per process and thread."""
    return "%s.tmp%d.%d" % (path, os.getpid(), threading.get_ident())


def _write_atomic(path, text):
    """Writes text to path (a cache entry's file) through a unique temporary
    renamed into place, mode 0600 whatever the umask (under umask 000 a
    checksum others could write let them vouch for an object of theirs)."""
    tmp = _tmp_name(path)
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            os.fchmod(f.fileno(), 0o600)
            f.write(text)
        os.replace(tmp, path)
    except BaseException:       # Ctrl-C too: no temporary left in the cache
        _unlink(tmp)
        raise


def _unlink(path):
    """Removes a file, or an empty folder in a file's place, if it is there
    (a folder where a cached file belongs was said to be rebuilt, then every
    compile failed with "Is a directory")."""
    try:
        os.unlink(path)
    except IsADirectoryError:
        try:
            os.rmdir(path)
        except OSError:
            pass
    except OSError:
        pass


def _stale_clear(so):
    """Removes the temporaries of so (so.tmpPID.THREAD) whose process is gone:
    a build killed outright (SIGKILL, a power cut) left its half-written or
    whole object in the cache for ever.  Called under the entry's lock."""
    for tmp in glob.glob(glob.escape(so) + ".tmp*"):
        m = re.match(r"\.tmp(\d+)\.\d+$", tmp[len(so):])
        if not m or int(m.group(1)) == os.getpid():
            continue
        try:
            os.kill(int(m.group(1)), 0)
        except ProcessLookupError:
            _unlink(tmp)
        except OSError:
            pass        # alive, another user's


def _lock_clear(lockfile):
    """Removes what is not a regular file of its own in the lock file's
    place: an empty folder, a FIFO (its open waited for a reader for ever),
    a link or a device, and a hard link to another file (the holder's
    process id replaced that file's contents); only the name goes."""
    try:
        st = os.lstat(lockfile)
    except OSError:
        return
    if not stat.S_ISREG(st.st_mode) or st.st_nlink > 1:
        _unlink(lockfile)


def _lock_holder(lockfile):
    """The process id the holder of a cache entry's lock wrote into it, as a
    text for a note ("process 123"), or a plain word when it wrote none."""
    try:
        with open(lockfile, "rb") as f:
            text = f.read(64).decode("ascii", "replace").strip()
    except OSError:
        text = ""
    return "process " + text if text.isdigit() else "another process"


def _note(text):
    """Says text on stderr, as the warnings module says a warning: a stderr
    that cannot take it (a full disk, a reader gone, closed) loses the note
    only.  The note of a damaged cache entry onto /dev/full ended
    nsm.compile with "the call raised OSError: No space left on device",
    the entry left damaged."""
    if sys.stderr is None:      # started without one: print(file=None) wrote to stdout
        return
    try:
        print(text, file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):
        pass


def _lock_take(lock, lockfile):
    """Takes a cache entry's lock, waiting for its holder: after about a
    second of waiting, says once on stderr which process holds it (a compile
    waited without a word for as long as another held it, for ever when that
    one was stopped); Ctrl-C still ends the wait.  The holder's process id is
    then written into the lock file for the next waiter's note."""
    waited, said = 0.0, False
    while True:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            pass
        except OSError:
            return      # a file system without locks: the unique temporaries still keep it whole
        if waited >= 1.0 and not said:
            _note("nsm: note: waiting for %s, which holds the cache entry's lock %s"
                  % (_lock_holder(lockfile), lockfile))
            said = True
        time.sleep(0.05)
        waited += 0.05
    try:
        if os.fstat(lock.fileno()).st_nlink != 1:
            return      # linked since _lock_clear: another file's contents, never replaced
        lock.truncate(0)
        lock.write("%d\n" % os.getpid())
        lock.flush()
    except OSError:
        pass            # the note then names no process; the lock itself holds


def _lock_current(lock, lockfile):
    """Whether the lock taken is still the entry's lock file: `nsmc cache
    clean` removes an entry whose lock it can take, and a compile that waited
    on that lock then wrote into a folder no longer there (a CompileError
    with the C compiler's "No such file or directory")."""
    try:
        held, now = os.fstat(lock.fileno()), os.stat(lockfile)
    except OSError:
        return False
    return (held.st_ino, held.st_dev) == (now.st_ino, now.st_dev)


def _cache_verify(so, sumfile, key):
    """Checks a cached shared object against the checksum written when it
    was built (as nsmc's cache does) and the key of the entry it was built
    for: (1, None) whole, (0, None) absent, (-1, why) damaged.  A damaged
    object is never loaded: a truncated one kills the interpreter (SIGBUS)
    when its pages are touched, and another entry's whole object and
    checksum copied into this one gave another model without a word."""
    try:
        st = os.lstat(so)
    except FileNotFoundError:
        return 0, None
    except OSError:
        return -1, "unreadable"
    # a folder, a device or a link (to /dev/zero: read for ever) is never
    # read, and a size other than the checksum's is decided without reading
    if not stat.S_ISREG(st.st_mode):
        return -1, "not a regular file"
    # the checksum file likewise: a FIFO hung the open, a link to /dev/zero
    # was read into memory without end (7.8 GB in 20 s); it holds 80 bytes
    try:
        if not stat.S_ISREG(os.lstat(sumfile).st_mode):
            return -1, "no checksum"
        with open(sumfile, encoding="ascii") as f:
            want_h, want_size, *built_for = f.read(200).split()
        want_size = int(want_size)
    except (OSError, ValueError, UnicodeDecodeError):
        return -1, "no checksum"
    if built_for != [key]:
        return -1, "built for another model or by an older nsm"
    if st.st_size != want_size:
        return -1, "empty" if st.st_size == 0 else "truncated or grown"
    got = _digest(so)
    if got is None:
        return -1, "unreadable"
    if got[1] != want_size:
        return -1, "empty" if got[1] == 0 else "truncated or grown"
    if got[0] != want_h:
        return -1, "checksum mismatch"
    return 1, None


def _object_check(so_path):
    """Checks a model's shared object against the checksum its cache entry
    keeps beside it (NAME.sum), when there is one, before it is loaded: a
    Model unpickled (a multiprocessing worker, a pickle kept on disk) after
    its cached object was cut short killed the interpreter with SIGBUS, as
    nsm.compile never lets it.  CompileError when it is damaged; an object
    without a checksum (built by hand) is loaded as it is."""
    path = os.fsdecode(so_path)
    if not path.endswith(".so"):
        return
    sumfile = path[:-3] + ".sum"
    try:
        if not stat.S_ISREG(os.lstat(sumfile).st_mode):
            return      # never opened: a FIFO's open waits for a writer for ever
        with open(sumfile, "rb") as f:
            fields = f.read(200).split()
    except OSError:
        return
    key = fields[2].decode("ascii", "replace") if len(fields) == 3 else ""
    state, why = _cache_verify(path, sumfile, key)
    if state < 0:
        raise CompileError("the model's shared object %s is damaged (%s): compile the model "
                           "again (nsm.compile rebuilds it)" % (path, why))


def _load_hint(so_path, otherwise="compile the model again"):
    """What to do when an object cannot be loaded: a cache on a file system
    mounted noexec is named as such (the hint "compile the model again"
    only gave the same error again); otherwise the hint given."""
    try:
        noexec = os.statvfs(os.path.dirname(so_path) or ".").f_flag & os.ST_NOEXEC
    except OSError:
        noexec = 0
    if noexec:
        return ("its folder is on a file system mounted noexec, where no program may be "
                "loaded: set XDG_CACHE_HOME to a folder on another file system")
    return otherwise


def _cell(text):
    """A CSV cell of nsmc's tables: a number, or its word as written
    ("none", "failed") and None for an empty cell, never an exception."""
    if text == "":
        return None
    try:
        return float(text)
    except ValueError:
        return text


def _csv_rows(path):
    """The rows of one of nsmc's CSV tables as dicts of its header's columns
    (_cell's values; a quoted message kept whole), [] when the file is not
    there (a study stopped before its first point)."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
    except FileNotFoundError:
        return []
    head = rows[0] if rows else []
    return [dict(zip(head, (_cell(v) for v in row))) for row in rows[1:] if row]


# Loads a shared object in a child interpreter, as Model loads it.
_LOAD_TRIAL = "import ctypes, sys; ctypes.CDLL(sys.argv[1]).nsmpy_describe"


class _SignalsHeld:
    """A with-block during which SIGINT and SIGTERM are only noted, raised
    once it ends: a KeyboardInterrupt or SIGTERM's _Terminated raised
    inside subprocess's wait (between its lock's acquire and the with that
    releases it) left the lock held, and the clean-up's own wait then
    blocked for ever (nsm.compile sent SIGTERM as its load child ended did
    not end).  release() ends the hold without raising and returns the
    signals noted, for a caller that raises them once it can (Popen's
    child must be stopped first).  Only in the main thread, over handlers
    set from Python."""

    def __enter__(self):
        self.pending, self.old = [], {}
        if threading.current_thread() is threading.main_thread():
            for x in (signal.SIGINT, signal.SIGTERM):
                if signal.getsignal(x) is not None:
                    self.old[x] = signal.signal(x, lambda n, frame: self.pending.append(n))
        return self

    def release(self):
        """Puts the handlers back; the signals noted, SIGTERM first (the
        first raised ends the caller, and SIGTERM is the stronger stop)."""
        for x, h in self.old.items():
            signal.signal(x, h)
        self.old = {}
        got, self.pending = sorted(set(self.pending), key=lambda n: n != signal.SIGTERM), []
        return got

    def __exit__(self, *exc):
        _raise_signals(self.release())
        return False


def _raise_signals(sigs):
    """Raises the signals a _SignalsHeld noted, through their handlers."""
    for x in sigs:
        signal.raise_signal(x)


def _load_trial(so):
    """Why the newly built so cannot be loaded (the first line the child
    said, or its exit status), or None when a child interpreter loads it:
    CC="cc -fsanitize=address" builds an object whose loading ends the
    interpreter (the sanitizer's start-up, before any of the model's code),
    so it is tried in a child once per build, never in this process first.
    Skipped when there is no interpreter to start (an embedded Python)."""
    if not sys.executable:
        return None
    try:
        with _SignalsHeld():    # a child of some milliseconds: a stop waits for its end
            p = subprocess.run([sys.executable, "-I", "-S", "-c", _LOAD_TRIAL, so],
                               capture_output=True, text=True, errors="replace", timeout=300)
    except subprocess.TimeoutExpired:
        return "loading it did not end within 300 s"
    except OSError as err:
        return None if err.errno in (errno.ENOENT, errno.EACCES) else str(err)
    if p.returncode == 0:
        return None
    lines = [ln.strip() for ln in p.stderr.splitlines() if ln.strip()]
    return lines[0] if lines else "the interpreter loading it ended with status %d" % p.returncode


def _run_tool(cmd, what):
    """Runs a program (nsmc or the C compiler); CompileError when it cannot
    be started.  Ctrl-C sends it SIGINT and awaits it (_run_stoppable),
    then raises KeyboardInterrupt: subprocess.run's own wait could take the
    KeyboardInterrupt with its lock held and its clean-up then waited for
    ever."""
    p, stopped = _run_stoppable(cmd, what)
    if stopped:
        raise KeyboardInterrupt
    return p


def _tool_error(cmd, what, err):
    """CompileError for a program that cannot be started, with the hint."""
    if isinstance(err, FileNotFoundError):
        hint = "set CC to your C compiler" if what == "the C compiler" else \
            "build nsm, or install it and put its bin/ on PATH"
        return CompileError("%s '%s' was not found (%s)" % (what, cmd[0], hint))
    return CompileError("%s '%s' cannot be run: %s" % (what, cmd[0], err.strerror or err))


class _Terminated(BaseException):
    """SIGTERM taken while nsm.compile runs the C compiler (_sigterm_held):
    raised through the compile's clean-up, then the signal's own action."""


def _on_term(signum, frame):
    """_sigterm_held's handler: the compile's clean-up runs first."""
    raise _Terminated()


def _sigterm_held(call):
    """call() with SIGTERM's default action (ending the process) held until
    the compile's clean-up has run: the C compiler stopped and awaited, its
    folder, the entry's temporary and its C removed; then the process ends
    by SIGTERM as before.  It ended at once, leaving them (the next compile
    removed the temporary).  The call covers the entry's C being written
    and the object's check after the compile (its load in a child
    interpreter, its checksum, its rename), where a SIGTERM left the
    object's temporary in the cache.  Only in the main thread, and only over the
    default action: a handler of the caller's, or SIGTERM ignored, is kept
    as it is."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        return call()
    signal.signal(signal.SIGTERM, _on_term)
    try:
        return call()
    except _Terminated:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
        raise       # not reached: the default action ends the process
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _popen_held(cmd, **kw):
    """subprocess.Popen(cmd, **kw) with SIGINT and SIGTERM held while the
    child starts (_SignalsHeld); returns (the Popen, the signals that came
    meanwhile), to be raised once the caller can stop the child.  A
    KeyboardInterrupt raised inside Popen (as it waits for the child's
    exec) lost the child: a C compiler went on alone and the entry's C was
    left in the cache.  A Popen that fails raises the held signals at
    once."""
    with _SignalsHeld() as held:
        pr = subprocess.Popen(cmd, **kw)
        return pr, held.release()


def _slice(pr):
    """One slice (50 ms) of awaiting pr, with SIGINT and SIGTERM held:
    (out, err) once it has ended, else None; the signals that came are
    returned as the second item, to be raised by the caller."""
    with _SignalsHeld() as held:
        try:
            got = pr.communicate(timeout=0.05)
        except subprocess.TimeoutExpired:
            got = None
        return got, held.release()


def _stop_child(pr):
    """Sends the child SIGINT and awaits it, in held slices: a second Ctrl-C
    or SIGTERM, or 60 s without its end, kills it.  Returns (out, err) and
    the SIGTERMs that came meanwhile (a second SIGINT is spent on the
    kill)."""
    if pr.poll() is None:
        pr.send_signal(signal.SIGINT)
    end, later = time.monotonic() + 60, []
    while True:
        got, sigs = _slice(pr)
        later += [x for x in sigs if x == signal.SIGTERM and x not in later]
        if got is not None:
            return got, later
        if sigs or time.monotonic() > end:
            pr.kill()


def _ended(done, pending):
    """(done, False) for a program that ended in a slice where no signal
    came; with a Ctrl-C in that slice, (done, True), as when it comes as the
    program ends (the signals noted were dropped, and a build stopped as its
    compiler ended went on); SIGTERM's _Terminated is raised."""
    try:
        _raise_signals(pending)
    except KeyboardInterrupt:
        return done, True
    return done, False


def _run_stoppable(cmd, what, env=None, cwd=None):
    """Runs a program (the C compiler, nsmc, a study's nsmc sweep --basin)
    with Ctrl-C honoured as the studies run in process honour it: the
    program is sent SIGINT (a terminal's Ctrl-C reaches it already; a
    KeyboardInterrupt raised without a signal, _thread.interrupt_main()'s,
    did not) and awaited, so that it keeps its finished points in its
    partial files, and then (CompletedProcess, True) is returned; else
    (CompletedProcess, False).  A second Ctrl-C while it ends kills it.  A
    SIGTERM taken by _sigterm_held stops the program the same way, then goes
    on as _Terminated.  The program is awaited in slices of 50 ms with the
    signals held (_slice), and those that came are raised between slices,
    never inside subprocess's wait (a KeyboardInterrupt raised there, with
    its lock held, left the clean-up's wait blocked for ever).
    CompileError when the program cannot be started."""
    try:
        pr, pending = _popen_held(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, errors="replace", env=env, cwd=cwd)
    except OSError as err:
        raise _tool_error(cmd, what, err) from None
    while True:
        try:
            _raise_signals(pending)     # a Ctrl-C or SIGTERM of the last slice
            got, pending = _slice(pr)
            if got is not None:
                return _ended(subprocess.CompletedProcess(cmd, pr.returncode, *got), pending)
        except (KeyboardInterrupt, _Terminated) as err:
            stop = err
            break
    got, later = _stop_child(pr)
    if isinstance(stop, _Terminated):
        raise stop
    _raise_signals(later)
    return subprocess.CompletedProcess(cmd, pr.returncode, *got), True


class _TempDir(tempfile.TemporaryDirectory):
    """A TemporaryDirectory removed with SIGINT and SIGTERM held: a Ctrl-C
    or SIGTERM in the middle of its removal left part of it in TMPDIR (a
    basins study's folder, under SIGTERM as nsmc had just ended)."""

    def cleanup(self):
        """Removes the folder, the stop signals raised once it is gone."""
        with _SignalsHeld():
            super().cleanup()


def _tempdir(prefix, what):
    """A temporary folder for what (made with the stop signals held, removed
    likewise: _TempDir); CompileError with the hint when none can be made
    (a TMPDIR removed during the session escaped as a raw
    FileNotFoundError from compile_source and basins)."""
    try:
        with _SignalsHeld():
            return _TempDir(prefix=prefix)
    except OSError as err:
        raise CompileError("cannot make a temporary folder for %s: %s (set TMPDIR to a "
                           "writable directory)" % (what, err.strerror or err)) from None


def _write_temp(path, text, what):
    """Writes a model's text to a temporary file for nsmc; CompileError with
    the hint when it cannot be written (a file-size limit escaped as a raw
    OSError)."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as err:
        raise CompileError("cannot write %s to %s: %s (set TMPDIR to a writable directory "
                           "with room)" % (what, path, err.strerror or err)) from None


def _model_arg(path):
    """A model file's path as nsmc's argument: never read as an option or as
    standard input ("--help" ran nsmc's help, then a bare FileNotFoundError;
    "-" read Python's standard input), CompileError for a NUL (a bare
    ValueError from exec)."""
    arg = os.fspath(path)
    nul, dash, here = ("\0", "-", "./") if isinstance(arg, str) else (b"\0", b"-", b"./")
    if nul in arg:
        raise CompileError("the model's path %r holds a NUL character" % (arg,))
    return here + arg if arg.startswith(dash) else arg


def _generate(path, paths):
    """Runs nsmc on a model file; returns the C text."""
    arg = _model_arg(path)
    with _tempdir("nsm-py-", "nsmc's output") as tmp:
        out = os.path.join(tmp, "model.c")
        p = _run_tool([paths.NSMC, arg, "-o", out], "nsmc")
        if p.returncode != 0:
            raise CompileError(p.stderr.strip() or "nsmc failed with exit status %d"
                               % p.returncode)
        try:
            with open(out, encoding="utf-8") as f:
                return f.read()
        except OSError as err:
            raise CompileError("nsmc exited 0 but wrote no C for %r: %s"
                               % (arg, err.strerror or err)) from None


def _cc_tmpdir():
    """A folder of its own for the C compiler's temporaries (TMPDIR/nsm-cc-*),
    or None when none can be made (the compiler then uses TMPDIR)."""
    try:
        return tempfile.mkdtemp(prefix="nsm-cc-")
    except OSError:
        return None


def _cc_tmpdir_remove(d):
    """Removes _cc_tmpdir's folder d with what the compiler's children left
    in it, tried again for up to a second (a child outliving its stopped
    compiler may still create a file there)."""
    with _SignalsHeld():     # a stop in the middle of rmtree left part of it
        for _ in range(100):
            if d is None or not os.path.exists(d):
                return
            shutil.rmtree(d, ignore_errors=True)
            time.sleep(0.01)


def _compile_into(so, sumfile, csrc, full, tmp, cc, verbose, key):
    """Builds the shared object so with the command full (its output tmp, a
    unique temporary), writes its checksum and the entry's key to sumfile,
    then renames it into place; CompileError when the C does not build."""
    if verbose:
        print(" ".join(full))
    try:
        # Ctrl-C while it builds: the compiler is sent SIGINT and awaited, so
        # that it removes its own temporaries (killed, as subprocess.run
        # kills it, it left its .s, .o and .res files in TMPDIR), in a folder
        # of its own removed after it (a child of a stopped compiler may
        # create one after the compiler's cleanup)
        cc_tmp = None
        try:
            with _SignalsHeld():    # a stop as it is made: the folder is removed
                cc_tmp = _cc_tmpdir()
            env = dict(os.environ, TMPDIR=cc_tmp) if cc_tmp else None
            p, stopped = _run_stoppable(full, "the C compiler", env)
        finally:
            _cc_tmpdir_remove(cc_tmp)
    except BaseException as err:    # its half-written output was left in the
        _unlink(tmp)                # cache under the temporary name
        if isinstance(err, (_Terminated, KeyboardInterrupt)):
            _unlink(csrc)           # no half entry
        raise
    if stopped:
        _unlink(tmp)
        _unlink(csrc)           # no half entry: the next compile builds it whole
        raise KeyboardInterrupt
    if p.returncode != 0:
        _unlink(tmp)
        said = p.stderr.strip() or "exit status %d" % p.returncode
        if cc != ["cc"]:    # the user's compiler or flags (CC='cc -DX'), named as nsmc names them
            raise CompileError("the C compiler named by CC (%r) failed on the generated C (%s):"
                               "\n%s\n(nsm is built and checked with the default compiler: "
                               "unset CC, or give a C99 compiler and flags that leave the "
                               "runtime's headers as they are)"
                               % (os.environ.get("CC", ""), csrc, said))
        raise CompileError("the generated C (%s) did not build with %s:\n%s"
                           % (csrc, cc[0], said))
    try:
        _install_built(so, sumfile, csrc, tmp, cc, key)
    except (_Terminated, KeyboardInterrupt):
        # SIGTERM or Ctrl-C after the compile (while a child interpreter
        # loads the object, or as its checksum is written): the object's
        # temporary was left in the cache; unless it was renamed into place,
        # the entry keeps no half of itself (its checksum, its C)
        if os.path.lexists(tmp) or not os.path.exists(so):
            _unlink(tmp)
            _unlink(sumfile)
            _unlink(csrc)
        raise


def _install_built(so, sumfile, csrc, tmp, cc, key):
    """Checks the object the compiler wrote to tmp (it loads in a child
    interpreter), writes its checksum and the entry's key to sumfile and
    renames it into place; CompileError when it cannot be used."""
    got = _digest(tmp)
    if got is None:     # the compiler's fault, not the cache's (CC=true blamed the cache)
        raise CompileError("the C compiler '%s' exited 0 but wrote no shared object from %s "
                           "(set CC to your C compiler)" % (" ".join(cc), csrc))
    why = _load_trial(tmp)
    if why is not None:
        _unlink(tmp)
        raise CompileError("the shared object that '%s' built from %s cannot be loaded into "
                           "Python: %s (%s)" % (" ".join(cc), csrc, why,
                                                _load_hint(tmp, "set CC to a plain C compiler")))
    try:
        os.chmod(tmp, 0o700)
        _write_atomic(sumfile, "%s %d %s\n" % (got + (key,)))
        os.replace(tmp, so)
    except BaseException as err:
        _unlink(tmp)
        if isinstance(err, OSError):
            raise _cache_error(so, err) from None
        raise


def _build(ctext, paths, load, verbose=False):
    """Builds (or finds whole in the cache) the shared object of a model's C
    text and loads it with load(path); returns what load returned and the
    model table's symbol.  One builder at a time per cache entry (a lock
    file), temporary names unique per process and thread, a damaged cached
    object rebuilt.  The object is loaded with the entry's lock still held:
    loaded after it, `nsmc cache clean` could remove the object in between
    (a CompileError, "damaged (unreadable)", from a compile beside a
    clean)."""
    m = re.search(r"^const nsm_model (nsm_model_\w+) =", ctext, re.M)
    if not m:
        raise CompileError("nsmc's output holds no model table")
    symbol = m.group(1)
    cc = os.environ.get("CC", "").split() or ["cc"]
    helper = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_record.c")
    libdir = os.path.dirname(paths.LIBNSMRT)
    cmd = cc + ["-O2", "-fPIC", "-shared", "-DNSM_NO_MAIN", "-DNSMPY_MODEL=" + symbol,
                "-I", paths.INCLUDE] + list(paths.CFLAGS)
    cli = os.path.join(libdir, "libnsmcli.a")   # --set's unit reading (nsmpy_param_value)
    link = [cli, "-L", libdir, "-Wl,-rpath," + libdir, "-lnsmrt", "-lm"]
    h = hashlib.sha256()
    h.update(ctext.encode())
    for f in (helper, paths.LIBNSMRT, cli, os.path.join(paths.INCLUDE, "nsm", "nsm.h"),
              os.path.join(paths.INCLUDE, "nsm", "model.h")):
        _hash_file(h, f)
    h.update("\0".join(cmd + link).encode())
    # the entry's folder and files named by the model's name cut to 100
    # characters: a name of 230 or more made a file name longer than the
    # system's 255 bytes ("File name too long ... set XDG_CACHE_HOME"); the
    # key keeps two names cut alike apart
    name, key = symbol[len("nsm_model_"):][:100], h.hexdigest()
    d = os.path.join(_cache_root(), "py-%s-%s" % (name, key[:16]))
    so, sumfile, csrc = (os.path.join(d, name + ext) for ext in (".so", ".sum", ".c"))
    lockfile = os.path.join(d, ".lock")
    for _ in range(100):
        try:
            os.mkdir(d, 0o700)
            os.chmod(d, 0o700)      # whatever the umask
        except OSError:
            pass                    # there already, or makedirs below says why
        try:
            os.makedirs(d, exist_ok=True)
        except OSError as err:
            if isinstance(err, FileExistsError) and not os.path.lexists(d):
                continue    # removed by nsmc cache clean as makedirs checked it: again
            raise _cache_error(d, err) from None
        _lock_clear(lockfile)
        try:
            # never through a link, never waiting for a FIFO's reader
            lock = os.fdopen(os.open(lockfile, os.O_WRONLY | os.O_CREAT | os.O_APPEND |
                                     os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o600), "a")
        except FileNotFoundError:
            continue    # the entry removed meanwhile (nsmc cache clean): again
        except OSError as err:
            # a read-only cache (a read-only mount, a shared cache) whose entry
            # is whole is used as it is, as nsmc run uses it (it was refused)
            if err.errno in (errno.EROFS, errno.EACCES) and \
                    not _entry_safe(d, so, sumfile) and \
                    _cache_verify(so, sumfile, key)[0] > 0:
                return load(so), symbol
            raise _cache_error(lockfile, err) from None
        _lock_take(lock, lockfile)
        if _lock_current(lock, lockfile):
            break
        lock.close()    # cleaned while we waited: the lock file is no longer there
    else:
        raise _cache_error(lockfile, OSError(errno.EAGAIN, "the entry was removed by each of "
                                             "100 tries to lock it"))
    with lock:
        _entry_safe(d, so, sumfile)
        _stale_clear(so)
        _stale_clear(sumfile)
        _stale_clear(csrc)
        state, why = _cache_verify(so, sumfile, key)
        if state > 0:
            return load(so), symbol
        if state < 0:
            _note("nsm: note: the cached model %s is damaged (%s); rebuilding it" % (so, why))
            _unlink(so)
        _unlink(sumfile)
        if os.path.isdir(csrc) and not os.path.islink(csrc):
            _unlink(csrc)
        tmp = _tmp_name(so)

        def write_and_compile():
            """The entry's C, then its object (under _sigterm_held: a
            SIGTERM as the C was written left its temporary)."""
            try:
                _write_atomic(csrc, ctext)
            except OSError as err:
                raise _cache_error(csrc, err) from None
            _compile_into(so, sumfile, csrc, cmd + ["-o", tmp, csrc, helper] + link, tmp, cc,
                          verbose, key)
        _sigterm_held(write_and_compile)
        return load(so), symbol


@_api
def compile(path, verbose=False):
    """Compiles a .nsm model (nsmc, then the C compiler, cached); returns a Model.
    Raises CompileError with nsmc's diagnostics when the model is wrong, and
    with what to fix when nsmc, the C compiler or the cache cannot be used."""
    if not isinstance(path, (str, bytes, os.PathLike)):
        # None or a number escaped as a bare TypeError from os.fspath
        raise CompileError("compile needs the path of a .nsm file, got %r (nsm.compile_source "
                           "takes a model's text)" % (path,))
    # as run()'s zeno: verbose="no" was taken as true
    verbose = _flag(verbose, "verbose")
    paths = _locate()

    def build():
        """nsmc's C, then the object, loaded: under the compile's SIGTERM
        hold from nsmc's start (a SIGTERM as nsmc ran ended the process at
        once, nsmc's folder left in TMPDIR)."""
        return _build(_generate(path, paths), paths, Model, verbose)
    m, _ = _sigterm_held(build)
    try:
        # UTF-8, as nsmc reads it (an ASCII locale, LC_ALL=C with PYTHONUTF8=0,
        # failed on a non-ASCII comment with a bare UnicodeDecodeError)
        with open(path, encoding="utf-8") as f:
            m._source = f.read()
    except (OSError, UnicodeDecodeError):
        m._source = None
    return m


class _SectionRecord(ctypes.Structure):
    """nsm_section_record (nsm/nsm.h)."""
    _fields_ = [("t", ctypes.c_double), ("phase", ctypes.c_double), ("index", ctypes.c_long),
                ("y", ctypes.POINTER(ctypes.c_double))]


_SECTION_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                               ctypes.POINTER(_SectionRecord))


class _ContOptions(ctypes.Structure):
    """nsm_cont_options (nsm/nsm.h)."""
    _fields_ = [("param", ctypes.c_char_p), ("from_", ctypes.c_double), ("to", ctypes.c_double),
                ("period", ctypes.c_char_p), ("periods", ctypes.c_int),
                ("ds", ctypes.c_double), ("ds_min", ctypes.c_double), ("ds_max", ctypes.c_double),
                ("max_points", ctypes.c_long), ("tol", ctypes.c_double),
                ("transient", ctypes.c_long), ("switch_pd", ctypes.c_int), ("curve", ctypes.c_int),
                ("param2", ctypes.c_char_p), ("from2", ctypes.c_double), ("to2", ctypes.c_double)]


class _ContPoint(ctypes.Structure):
    """nsm_cont_point (nsm/nsm.h)."""
    _fields_ = [("kind", ctypes.c_int), ("param", ctypes.c_double), ("period", ctypes.c_double),
                ("n2", ctypes.c_int), ("y", ctypes.POINTER(ctypes.c_double)),
                ("mu_re", ctypes.POINTER(ctypes.c_double)),
                ("mu_im", ctypes.POINTER(ctypes.c_double)), ("stable", ctypes.c_int),
                ("impacts", ctypes.c_long), ("min_gap", ctypes.c_double),
                ("min_speed", ctypes.c_double), ("dpds", ctypes.c_double),
                ("index", ctypes.c_long), ("param2", ctypes.c_double)]


_CONT_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                            ctypes.POINTER(_ContPoint))

# enum nsm_cont_kind, in order
CONT_KINDS = ("regular", "start", "fold", "flip", "ns", "grazing", "switch")


@_api
def compile_source(text, verbose=False):
    """Compiles a model given as the text of a .nsm file (written to a
    temporary file for nsmc; cached like compile()); returns a Model."""
    if not isinstance(text, str):
        raise CompileError("compile_source needs the model's text as a str, got %r"
                           % type(text).__name__)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:   # a lone surrogate escaped as a bare UnicodeEncodeError
        raise CompileError("the model's text is not valid Unicode: %r at character %d cannot "
                           "be written as UTF-8" % (text[err.start:err.end], err.start)) from None

    def from_text():
        """The text in a temporary file, compiled (under the compile's
        SIGTERM hold: the file's folder is removed before the end)."""
        with _tempdir("nsm-src-", "the model's text") as d:
            path = os.path.join(d, "model.nsm")
            _write_temp(path, text, "the model's text")
            return compile(path, verbose)
    return _sigterm_held(from_text)


def _declare(lib):
    """Argument and result types of the C functions used."""
    P, D, I, L, S = ctypes.c_void_p, ctypes.c_double, ctypes.c_int, ctypes.c_long, ctypes.c_char_p
    DP = ctypes.POINTER(ctypes.c_double)
    sigs = {
        "nsmpy_model": (P, []), "nsmpy_describe": (L, [ctypes.c_char_p, L]),
        "nsmpy_rec_new": (P, []), "nsmpy_rec_free": (None, [P]),
        "nsmpy_rec_ncol": (I, [P]), "nsmpy_rec_nsamples": (L, [P]),
        "nsmpy_rec_samples": (DP, [P]), "nsmpy_rec_nevents": (L, [P]),
        "nsmpy_rec_events": (DP, [P]), "nsmpy_rec_names": (ctypes.POINTER(S), [P]),
        "nsmpy_rec_oom": (I, [P]), "nsmpy_rec_interrupted": (I, [P]),
        "nsmpy_run": (I, [P, P, D, I]), "nsmpy_audit": (I, [P, DP]),
        "nsmpy_catch_begin": (I, [P]), "nsmpy_catch_end": (I, [P]),
        "nsmpy_catch_stop": (None, []),
        "nsmpy_param_value": (I, [ctypes.c_char_p, ctypes.c_char_p, DP, ctypes.c_char_p,
                                  ctypes.c_size_t]),
        "nsmpy_warn_attach": (P, [P]), "nsmpy_warn_free": (None, [P]),
        "nsmpy_warn_take": (P, [P, ctypes.POINTER(ctypes.c_size_t)]),
        "nsm_sim_check_tangent": (I, [P, S]),
        "nsmpy_contact_stats": (I, [P, I, DP]), "nsmpy_friction_stats": (I, [P, I, DP]),
        "nsm_sim_space_friction_dissipated": (I, [P, I, DP]),
        "nsm_sim_create": (P, [P]), "nsm_sim_free": (None, [P]),
        "nsm_model_check": (I, [P, ctypes.POINTER(S)]),
        "nsm_status_name": (S, [I]), "nsm_event_kind_name": (S, [I]),
        "nsm_sim_failed_contact": (S, [P]),
        "nsm_run_check": (I, [D, D, D, L, ctypes.c_char_p, I]),
        "nsm_sim_get_max_steps": (L, [P]),
        "nsm_sim_set_param": (I, [P, S, D]), "nsm_sim_set_method": (I, [P, I]),
        "nsm_sim_set_dt": (I, [P, D]), "nsm_sim_set_every": (I, [P, D]),
        "nsm_sim_set_tolerances": (I, [P, D, D]), "nsm_sim_set_max_steps": (I, [P, L]),
        "nsm_sim_set_max_event_rate": (I, [P, D]), "nsm_sim_set_zeno": (I, [P, I]),
        "nsm_sim_set_audit": (I, [P, I]), "nsm_sim_message": (S, [P]),
        "nsm_sim_time": (D, [P]), "nsm_sim_mode_has": (I, [P, I]),
        "nsm_sim_steps": (L, [P]), "nsm_sim_events": (L, [P]),
        "nsm_sim_get_method": (I, [P]),
        "nsm_sim_model_times": (I, [P, DP, DP, DP]),
        "nsm_sim_reset": (I, [P]), "nsm_sim_state": (DP, [P]),
        "nsm_sim_check_run": (I, [P, D]),
        "nsm_sim_set_initial_state": (I, [P, DP]), "nsm_sim_run_until": (I, [P, D]),
        "nsm_sim_lyapunov": (I, [P, D, D, DP]),
        "nsm_sim_lyapunov_check": (I, [P, D, D]),
        "nsm_sim_periodic_orbit": (I, [P, D, DP, DP, DP]),
        "nsm_sim_set_section": (I, [P, S]), "nsm_sim_set_section_period": (I, [P, S]),
        "nsm_sim_set_section_handler": (None, [P, _SECTION_FN, P]),
        "nsm_sim_eval": (I, [P, S, DP]),
        "nsm_cont_defaults": (None, [ctypes.POINTER(_ContOptions)]),
        "nsm_sim_continue": (I, [P, ctypes.POINTER(_ContOptions), DP, _CONT_FN, P]),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = res, args


def _text(b):
    """A C string from the runtime as text ('' for NULL)."""
    return b.decode("utf-8", "replace") if b else ""


# The texts of a number the simulators' options take (setfile_number: blanks
# before it, then a plain decimal number, nothing after), ASCII only.
_DECIMAL = re.compile(r"[ \t]*[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)


_TEXT_RULE = (" (a text is taken as the simulators' options take it: a plain decimal "
              "number such as '10' or '2.5e-3', no underscores, words or other digits)")


def _float(value):
    """float(value), but a text (str or bytes) only as the simulators' options
    take it: float() also takes '1_0', 'infinity', ' 1 ' and full-width
    digits, which the command line refuses (ValueError then)."""
    if isinstance(value, (bytes, bytearray)):
        value = bytes(value).decode("ascii", "replace")
    if isinstance(value, str) and not _DECIMAL.fullmatch(value):
        raise ValueError("not a decimal number")
    return float(value)


def _number(value, what, error=None):
    """value as a finite float, else error (SettingError by default) naming what."""
    error = error or SettingError
    if _not_real(value):
        # numpy's complex was cut to its real part (a warning only) and True
        # taken as 1, where counts refuse it
        raise error("%s must be a real number, got %r" % (what, value))
    try:
        x = _float(value)
    except (TypeError, ValueError):
        raise error("%s must be a number, got %r%s" % (what, value, _TEXT_RULE
                                                       if isinstance(value, (str, bytes))
                                                       else "")) from None
    except OverflowError:   # 10**400: beyond a double's range (it escaped as OverflowError)
        raise error("%s must be a finite number, got %s, beyond a double's range"
                    % (what, _shown(value))) from None
    except Exception as err:    # the value's own __float__ failed: a bare RuntimeError
        raise error("%s must be a number, got %s, whose conversion to float raised %s: %s"
                    % (what, _shown(value), type(err).__name__, err)) from err
    if not math.isfinite(x):
        raise error("%s must be a finite number, got %r" % (what, value))
    if x == 0 and _nonzero(value):
        raise error("%s is %s, below the range of a double: it would be taken as 0 "
                    "(nonzero doubles are at least 4.9e-324 in magnitude)"
                    % (what, _shown(value)))
    return x


def _nonzero(value):
    """Whether value, which float() read as 0, is nonzero (it underflowed:
    '1e-400', Decimal('1e-400'), Fraction(1, 10**400)); a text of zeros
    ('0.0e-999') is 0 indeed."""
    if isinstance(value, (bytes, bytearray)):
        value = bytes(value).decode("ascii", "replace")
    if isinstance(value, str):
        return re.search(r"[1-9]", re.split(r"[eE]", value)[0]) is not None
    try:
        return bool(value != 0)
    except Exception:       # a value that cannot be compared: float() is its word
        return False


def _check_signals():
    """Runs the interpreter's pending signal handlers now (a SIGINT that
    came before the runtime's handler was installed raises its
    KeyboardInterrupt here, not after the run)."""
    if ctypes.pythonapi.PyErr_CheckSignals() != 0:     # ctypes raises it itself
        raise KeyboardInterrupt


class _Worker:
    """One thread of the process that runs calls for _watched, kept between
    runs (a thread started per run cost 0.4 ms, twice a short run's time)
    and started again when it is gone (in a child after fork)."""

    def __init__(self):
        self.go, self.done = threading.Event(), threading.Event()
        self.job, self.box, self.thread = None, {}, None

    def start(self, call):
        """Hands call to the thread; done is set when it has returned."""
        if self.thread is None or not self.thread.is_alive():
            self.thread = threading.Thread(target=self._loop, name="nsm-run", daemon=True)
            self.thread.start()
        self.job, self.box = call, {}
        self.done.clear()
        self.go.set()

    def _loop(self):
        """The thread: each call handed to it, its result or exception in box."""
        while True:
            self.go.wait()
            self.go.clear()
            box = self.box
            try:
                box["rc"] = self.job()
            except BaseException as err:     # handed to the caller's thread
                box["err"] = err
            finally:
                self.job = None
                self.done.set()


_worker = _Worker()


def _watched(call, stop):
    """call() run in a worker thread while this (the main) thread waits in
    slices of 50 ms, so that a KeyboardInterrupt the interpreter raises
    without a real signal (_thread.interrupt_main(), IDLE's Ctrl-C: the
    runtime's SIGINT handler never sees it, and the run went on to its end)
    is raised here within one slice: stop() then asks the run to stop
    before its next step, as a real SIGINT does.  The worker is always
    awaited (the simulation is freed after this returns); an exception
    other than KeyboardInterrupt raised while waiting (a Python signal
    handler's) also stops the run and is raised again once it has.
    call()'s result, or the exception it raised."""
    _worker.start(call)
    box, done = _worker.box, _worker.done
    pending = None
    while not done.is_set():
        try:
            done.wait(0.05)
        except BaseException as err:    # KeyboardInterrupt: hit, said by the caller
            stop()
            if not isinstance(err, KeyboardInterrupt) and pending is None:
                pending = err
    if pending is not None:
        raise pending
    if "err" in box:
        raise box["err"]
    return box["rc"]


def _not_real(value):
    """Whether value is a complex number or a boolean (scalar or array), or
    an array of numpy's dates or durations: float() takes numpy's complex as
    its real part and True as 1, and astype(float) a timedelta64 array as
    its count of its own unit (500 ms swept as 500) where a timedelta64
    scalar is refused."""
    if isinstance(value, (bool, np.bool_, complex, np.complexfloating)):
        return True
    return isinstance(value, np.ndarray) and value.dtype.kind in "bcmM"


def _shown(value):
    """repr(value) for a message, shortened when long (a 401-digit integer)."""
    text = repr(value)
    return text if len(text) < 40 else text[:20] + "...(%d characters)" % len(text)


def _count(value, what, lo, hi=100000000):
    """value as a whole number in [lo, hi], else SettingError naming what (a
    count of 2.7, NaN or 'abc' used to be cut, or to escape as a bare
    ValueError)."""
    if isinstance(value, (bool, np.bool_)):
        raise SettingError("%s must be a whole number, got %r" % (what, value))
    try:
        x = _float(value)
    except (TypeError, ValueError):
        raise SettingError("%s must be a whole number, got %r" % (what, value)) from None
    except Exception as err:    # 10**400 escaped as a bare OverflowError, a failing
        # __float__ as its own exception
        raise SettingError("%s must be a whole number from %d to %d, got %s (%s: %s)"
                           % (what, lo, hi, _shown(value), type(err).__name__, err)) from err
    if x == 0 and _nonzero(value):
        # '1e-400' read as 0: a sweep's transient of 0 records ran silently
        raise SettingError("%s is %s, below the range of a double: it would be taken as 0 "
                           "(nonzero doubles are at least 4.9e-324 in magnitude)"
                           % (what, _shown(value)))
    if not (math.isfinite(x) and x == int(x) and lo <= x <= hi):
        raise SettingError("%s must be a whole number from %d to %d, got %r" % (what, lo, hi, value))
    return int(x)


def _sweep_value(value):
    """A value to sweep given as a text or an object (Decimal), as _float
    reads it, else ParameterError when it is nonzero but reads as 0: '1e-400'
    and Decimal('1e-400') were swept as 0 without a word (F = 0, an
    unforced run, where the call asked for a force)."""
    x = _float(value)
    if x == 0 and _nonzero(value):
        raise ParameterError("values: %s is below the range of a double: it would be taken "
                             "as 0 (nonzero doubles are at least 4.9e-324 in magnitude)"
                             % _shown(value))
    return x


# nsmc sweep's limits (runtime/programs/sweep.c): the runs of a grid
# (SW_MAX_POINTS) and the records kept per run (--record)
_SWEEP_MAX_RUNS = 100000000
_SWEEP_MAX_RECORD = 10000000


def _grid_check(counts):
    """SettingError, in nsmc sweep's words (grid_size), for a grid of more
    than _SWEEP_MAX_RUNS runs: Model.sweep of 10^8 + 1 values checked every
    value, for hours, before its first run, where nsmc sweep refuses it at
    once; basins' grid was refused by nsmc sweep after its compile."""
    total = 1.0
    for n in counts:
        total *= n
    if total > _SWEEP_MAX_RUNS:
        raise SettingError("the grid has %.6g runs (%s), more than the %d a sweep may run: use "
                           "fewer points" % (total, " x ".join(str(n) for n in counts),
                                             _SWEEP_MAX_RUNS))


def _ctext(text, what, error=None):
    """text as the UTF-8 bytes of a C string, else SettingError naming what:
    a lone surrogate escaped as a bare UnicodeEncodeError, and a NUL cut the
    text short without a word (t_end="10\\0*1000" ran to 10 s)."""
    try:
        b = text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise (error or SettingError)("%s %r is not valid text: %s"
                                      % (what, text, err.reason)) from None
    if b"\0" in b:
        raise (error or SettingError)("%s %r holds a NUL character" % (what, text))
    return b


def _spec(value, what, example="impact:stop"):
    """value as a text argument (a section, a basin's coordinate), else
    SettingError with an example of such a text: None or a number used to
    escape as AttributeError, and a coordinate was told to be a text "such
    as 'impact:stop'", a section."""
    if isinstance(value, str) and _plain(value):
        return _plain(value)
    if isinstance(value, str):
        # "" is the runtime's "no section": section("") returned no records,
        # as if nothing crossed it, and sweep blamed t_max
        raise SettingError("%s is empty: give a text such as %r" % (what, example))
    raise SettingError("%s must be a text such as %r, got %r" % (what, example, value))


def _not_swept(params, names):
    """A params entry for a swept or continued parameter is refused: the
    study would override it without a word (as nsmc sweep's --set is)."""
    for name in names:
        if _caller("params", ParameterError, lambda: bool(params) and name in params):
            raise ParameterError("params[%r]: the parameter is swept or continued by this study"
                                 % name)


def _plain(text):
    """A str subclass as its text, a plain str, so that its own __eq__,
    __hash__, __str__ or encode (which may raise: the exception escaped
    as it was) are never called; anything else as it is."""
    return str.__str__(text) if isinstance(text, str) else text


def _method(method):
    """method if it names a method, else SettingError (a list escaped as a
    bare TypeError, unhashable)."""
    method = _plain(method)
    if not isinstance(method, str) or method not in METHODS:
        raise SettingError("unknown method %r (valid: rk4, adaptive, exact, taylor)" % (method,))
    return method


def _param_name(params, name):
    """ParameterError unless name is one of the model's parameters (a list
    or another unhashable name escaped as a bare TypeError); the name as a
    plain str (_plain)."""
    name = _plain(name)
    if not isinstance(name, str) or name not in params:
        raise ParameterError("%r: the model has no such parameter; valid parameters: %s"
                             % (name, ", ".join(params) or "(none)"))
    return name


def _params_dict(params):
    """ParameterError unless params is None or a dict {name: value} (a list
    escaped from the studies as a bare TypeError or AttributeError)."""
    if params is not None and not hasattr(params, "items"):
        raise ParameterError("params must be a dict {name: value}, got %r" % (params,))


def _pairs(mapping, what):
    """The (name, value) pairs of a dict argument (params, init) as a list,
    ParameterError naming what when its items() raises or gives something
    other than pairs (the caller's exception chained; it escaped as it
    was, or as a bare ValueError from the unpacking)."""
    if mapping is None:
        return []
    items = _caller("%s.items()" % what, ParameterError, lambda: list(mapping.items()))
    for item in items:
        if not (isinstance(item, tuple) and len(item) == 2):
            raise ParameterError("%s.items() must give (name, value) pairs, got %s"
                                 % (what, _shown(item)))
    return items


def _flag(value, what):
    """value as a boolean: True, False (or 1, 0, numpy's booleans); text such
    as 'no' is refused rather than taken as true."""
    if isinstance(value, (bool, np.bool_)) or (isinstance(value, (int, np.integer))
                                               and value in (0, 1)):
        return bool(value)
    raise SettingError("%s must be True or False, got %r" % (what, value))


class Model:
    """A compiled model: its parameters, outputs and contacts, and run()."""

    def __init__(self, so_path=None, *extra, **options):
        # a wrong argument (Model(3), Model(), a second argument) escaped as a
        # bare TypeError from ctypes or from the call itself
        if extra or options or not isinstance(so_path, (str, bytes, os.PathLike)):
            given = ", ".join([repr(so_path)] + [repr(x) for x in extra] +
                              ["%s=%r" % kv for kv in options.items()])
            raise CompileError("nsm.Model takes one argument, the path of a model's shared "
                               "object as nsm.compile builds it (nsm.compile(\"model.nsm\") "
                               "returns the Model), got %s" % given)
        self.path = so_path
        _object_check(so_path)
        try:
            self._lib = ctypes.CDLL(os.fsdecode(so_path))
            _declare(self._lib)
        except (OSError, AttributeError, ValueError) as err:
            raise CompileError("cannot load the model's shared object %s: %s (%s)"
                               % (so_path, err, _load_hint(so_path))) from None
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
        self._nq = int(d.get("nq", len(self.bodies)))
        self.params = collections.OrderedDict((n, Param(v, u)) for n, u, v in d["params"])
        self.outputs = [Output(n, u) for n, u in d["outputs"]]
        self.contacts = [n for n, _ in d["gaps"]]
        self.laws = dict((n, law) for n, law in d["gaps"])
        self.frictions = list(d.get("frictions", []))
        self.space_frictions = list(d.get("space_frictions", []))
        self.defaults = dict(t_end=d["t_end"], dt=d["dt"], every=d["every"],
                             method=d["method"])
        self._table = self._lib.nsmpy_model()
        self._source = None
        self._warns = {}        # each live simulation's warning store (_create, _free)

    def __reduce__(self):
        """Pickled as its shared object's path (and its source, for basins),
        loaded again on unpickling: a Model holds ctypes functions, so a
        Result (which refers to its model) could be neither pickled nor
        deep-copied, nor sent back from a multiprocessing worker (a bare
        AttributeError)."""
        return Model, (self.path,), {"_source": self._source}

    def __repr__(self):
        return "<nsm.Model %s: %s, %s, %s, %s>" % (
            self.name, _plural(len(self.bodies), "body", "bodies"),
            _plural(len(self.params), "parameter"), _plural(len(self.contacts), "contact"),
            _plural(len(self.outputs), "output"))

    def _set_params(self, sim, params):
        """Applies parameter overrides; ParameterError names the bad one."""
        lib = self._lib
        if params is not None and not hasattr(params, "items"):
            raise ParameterError("params must be a dict {name: value}, got %r" % (params,))
        for name, value in _pairs(params, "params"):
            name = _plain(name)
            if not isinstance(name, str) or name not in self.params:
                # repr: a NUL, a newline or another control character in the
                # name is shown escaped ('a\x00b'), as in every other message
                # (it was shown raw)
                raise ParameterError("unknown parameter %r; valid parameters: %s"
                                     % (name, ", ".join(self.params) or "(none)"))
            x = self._with_unit(name, value)
            if x is None:
                x = _number(value, "parameter '%s'" % name, ParameterError)
            if lib.nsm_sim_set_param(sim, name.encode(), x) != 0:
                raise ParameterError(_text(lib.nsm_sim_message(sim)) or
                                     "invalid value %r of parameter '%s'" % (value, name))

    def _param_number(self, name, value, other):
        """A value of parameter name in SI: a text as --set NAME='VALUE' reads
        it (_with_unit: a unit of the parameter's dimension, --set's
        messages), anything else by other(value).  A sweep's values and a
        continuation's ends refused '2.5 rad/s' ("must be numbers"), which
        nsmc sweep --param takes, and said nothing of the unit in '2.5 1/s'
        that --set calls unknown."""
        x = self._with_unit(name, value) if name in self.params else None
        return other(value) if x is None else x

    def _with_unit(self, name, value):
        """A text value of parameter name ('2.5', '2 ', '981 cm/s^2') in SI,
        read by the command line's own code as --set NAME='VALUE' reads it
        (setfile_value: blanks around the number, an optional unit of the
        parameter's dimension): params={'h': '2 '} was refused while --set
        'h=2 ' was taken.  None for a value that is not a text, or one
        holding a NUL (C would read only what stands before it: _number
        refuses it)."""
        text = value.decode("ascii", "replace") if isinstance(value, (bytes, bytearray)) \
            else value
        if not isinstance(text, str) or "\0" in text:
            return None
        x, err = ctypes.c_double(), ctypes.create_string_buffer(512)
        if self._lib.nsmpy_param_value(text.encode("utf-8", "replace"),
                                       self.params[name].unit.encode(), ctypes.byref(x), err,
                                       len(err)) != 0:
            raise ParameterError("bad value %r for parameter '%s': %s"
                                 % (value, name, _text(err.value)))
        return x.value

    def _configure(self, sim, method, params, dt, every, rtol, atol, max_steps,
                   max_event_rate, zeno):
        """Applies a run's settings to a fresh simulation object."""
        lib = self._lib
        self._set_params(sim, params)
        if method is not None:
            lib.nsm_sim_set_method(sim, METHODS[_method(method)])
        checks = [(dt, lib.nsm_sim_set_dt, "dt", "a time >= 0 (s)"),
                  (every, lib.nsm_sim_set_every, "every", "a time >= 0 (s)"),
                  (max_event_rate, lib.nsm_sim_set_max_event_rate, "max_event_rate",
                   "a rate > 0 (events per second)")]
        for value, fn, what, want in checks:
            if value is not None and fn(sim, _number(value, what)) != 0:
                raise SettingError("%s must be %s, got %r" % (what, want, value))
        if rtol is not None or atol is not None:
            r = _number(1e-9 if rtol is None else rtol, "rtol")
            a = _number(1e-12 if atol is None else atol, "atol")
            if lib.nsm_sim_set_tolerances(sim, r, a) != 0:
                raise SettingError("rtol must be > 0 and atol >= 0, got rtol=%r, atol=%r"
                                   % (rtol, atol))
            meth = METHOD_NAMES.get(lib.nsm_sim_get_method(sim), "this method")
            if meth != "adaptive":
                # only adaptive's error control reads them: with another
                # method they were taken without a word and changed nothing
                # (the simulators refuse --rtol and --atol so)
                given = " and ".join(w for w, v in (("rtol", rtol), ("atol", atol))
                                     if v is not None)
                both = " and " in given
                raise SettingError("%s %s of the adaptive method: %s does not use %s (give "
                                   "method='adaptive', or leave %s out)"
                                   % (given, "are tolerances" if both else "is a tolerance",
                                      meth, "them" if both else "it", "them" if both else "it"))
        if max_steps is not None:
            n = _number(max_steps, "max_steps")
            # an integer as given (2**63 - 1 was rounded to 2**63 as a float
            # and refused as not "> 0")
            k = int(max_steps) if isinstance(max_steps, (int, np.integer)) else \
                int(n) if n == int(n) else 0
            if not 0 < k < 2 ** 63 or lib.nsm_sim_set_max_steps(sim, k):
                raise SettingError("max_steps must be a whole number from 1 to 2^63 - 1, got %r"
                                   % (max_steps,))
        lib.nsm_sim_set_zeno(sim, 1 if _flag(zeno, "zeno") else 0)
        lib.nsm_sim_set_audit(sim, 1)

    def _times(self, sim, t_end, dt, every):
        """The run's t_end, checked with its sampling period, step and step
        cap by the runtime's rule (nsm_run_check: no end time that is not
        finite, no period or step below the time resolution, at most 1e8
        samples, no more steps than the cap), before anything runs."""
        lib = self._lib
        te, h, ev = (ctypes.c_double(0) for _ in range(3))
        asked = [None if given is not None else ctypes.byref(x)
                 for given, x in ((t_end, te), (dt, h), (every, ev))]
        if lib.nsm_sim_model_times(sim, *asked):
            raise ParameterError(_text(lib.nsm_sim_message(sim)) or
                                 "the model's t_end, dt or output period is not a positive "
                                 "time with these parameters")
        t_end = te.value if t_end is None else _number(t_end, "t_end")
        dt = h.value if dt is None else float(dt)
        every = ev.value if every is None else float(every)
        why = ctypes.create_string_buffer(400)
        if lib.nsm_run_check(t_end, every, dt, lib.nsm_sim_get_max_steps(sim), why,
                             len(why)) != 0:
            raise SettingError("this run is refused: %s (t_end = %g s, every = %g s, dt = %g s)"
                               % (_text(why.value), t_end, every, dt))
        return t_end

    def _check_run(self, sim, t_end):
        """What the run would refuse before its first step (nsm_sim_check_run:
        taylor on a linear model, exact on a nonlinear one, a step or section
        period below the time resolution) raised as the command line's
        option errors map: SettingError (exit 1 there, not a failed run),
        ParameterError when the model rejects its parameters."""
        lib = self._lib
        # parameters that make the model impossible at its start (cart_friction
        # with M = 0 or l = 0: a singular mass matrix) are the parameters'
        # fault, as in the studies (_study) and the command line's exit 1
        # naming them; they were SettingErrors
        if lib.nsm_sim_reset(sim) != 0:
            raise ParameterError(_text(lib.nsm_sim_message(sim)) or
                                 "the model cannot start with these parameters")
        rc = lib.nsm_sim_check_run(sim, t_end)
        if rc == 0:
            return
        msg = _text(lib.nsm_sim_message(sim)) or "the run is refused (%s)" % _text(
            lib.nsm_status_name(rc))
        if _text(lib.nsm_status_name(rc)) == "NSM_EMODEL":
            raise ParameterError(msg)
        raise SettingError(msg)

    def _create(self):
        """A fresh simulation object; CompileError for a table this runtime
        cannot run, OutOfMemoryError when memory runs out."""
        sim = self._lib.nsm_sim_create(self._table)
        if sim:
            self._warns[sim] = self._lib.nsmpy_warn_attach(sim)
            return sim
        why = ctypes.c_char_p()
        if self._lib.nsm_model_check(self._table, ctypes.byref(why)) != 0:
            raise CompileError("the runtime cannot run %s: %s" % (self.path, _text(why.value)))
        raise OutOfMemoryError("out of memory creating the simulation of %s" % self.name)

    def _warnings(self, sim):
        """The runtime's warnings about sim since the last call (the band of a
        contact far from the origin, a step reduced for stability), each
        shown with warnings.warn as a SimulationWarning; their texts as a
        list.  The simulators print them; Python dropped them."""
        n = ctypes.c_size_t(0)
        text = self._lib.nsmpy_warn_take(self._warns.get(sim), ctypes.byref(n))
        lines = ctypes.string_at(text, n.value).decode("utf-8", "replace").splitlines() \
            if n.value else []
        _warn_all(self.name, lines)
        return lines

    def _free(self, sim):
        """Frees a simulation made by _create, its warnings shown first."""
        try:
            self._warnings(sim)
        finally:
            self._lib.nsm_sim_free(sim)
            self._lib.nsmpy_warn_free(self._warns.pop(sim, None))

    def _initial(self, sim, init):
        """Starts the simulation's resets from init: a dict {"BODY.x" or
        "BODY.v": value} over the model's `init`, or all 2n values
        (positions, then velocities).  ParameterError for a bad name or size."""
        lib = self._lib
        if init is None:
            return
        if self._nq != len(self.bodies):
            # a body in space has a quaternion: its state is not (x, v) per body
            raise ParameterError("init is not supported for a model with bodies in space "
                                 "(its orientation is a quaternion): set their initial "
                                 "state in the model's init or through its parameters")
        n2 = 2 * len(self.bodies)
        if lib.nsm_sim_reset(sim) != 0:
            raise ParameterError(_text(lib.nsm_sim_message(sim)) or "the model cannot start")
        y = np.ctypeslib.as_array(lib.nsm_sim_state(sim), (n2,)).copy()
        if hasattr(init, "items"):
            names = ["%s.%s" % (b, c) for c in "xv" for b in self.bodies]
            for name, value in _pairs(init, "init"):
                name = _plain(name)
                if not isinstance(name, str) or name not in names:
                    raise ParameterError("init: %r is not a coordinate of the state (valid: %s)"
                                         % (name, ", ".join(names)))
                y[names.index(name)] = _number(value, "init %s" % name, ParameterError)
        else:
            if isinstance(init, (str, bytes, bytearray, set, frozenset)):
                # a text was taken digit by digit (init="05": x = 0, v = 5 m/s)
                # and a set in its hash order
                raise ParameterError("init must be a dict {\"BODY.x\" or \"BODY.v\": value} "
                                     "or the %d values of the state (positions, then "
                                     "velocities) in order, got %r" % (n2, init))
            try:
                vals = list(init)
            except TypeError:
                raise ParameterError("init must be a dict {\"BODY.x\" or \"BODY.v\": value} or "
                                     "the %d values of the state (positions, then velocities), "
                                     "got %r" % (n2, init)) from None
            except Exception as err:    # the caller's own __iter__ raised: it escaped as it was
                raise ParameterError("init: iterating over the given value raised %s: %s"
                                     % (type(err).__name__, str(err) or "(no message)")) from err
            if len(vals) != n2:
                raise ParameterError("init needs %d values (positions, then velocities), got %d"
                                     % (n2, len(vals)))
            y = np.array([_number(v, "init", ParameterError) for v in vals], dtype=float)
        buf = (ctypes.c_double * n2)(*y)
        lib.nsm_sim_set_initial_state(sim, buf)

    def _study(self, params, method, init):
        """A configured simulation for a study (the caller frees it)."""
        sim = self._create()
        try:
            self._configure(sim, method, params, None, None, None, None, None, None, True)
            self._lib.nsm_sim_set_audit(sim, 0)
            self._initial(sim, init)
            # a value the model rejects at its setup (sweep("e", [2.0])) or
            # an initial state inside a gap: the command line's exit 1 ("the
            # model cannot start"), as run() raises it; it was a SimulationError
            if self._lib.nsm_sim_reset(sim) != 0:
                raise ParameterError(_text(self._lib.nsm_sim_message(sim)) or
                                     "the model cannot start with these parameters")
            self._check_run(sim, 0.0)    # the method against the model
        except BaseException:
            self._free(sim)
            raise
        return sim

    def _unsampled(self, sim, t_end):
        """Lets a study's run to t_end step past the model's output period
        when the command line would refuse that period over the run (more
        than 1e8 samples, nsm_run_check): a study keeps no samples, and
        stepping to each of them made a section over 1e10 s of a slow
        pendulum run 151 s to the step cap, where the simulator refuses the
        run and runs it with --every 0 in 9 steps.  Shorter runs keep the
        landings at the output period, as the simulator's sections do."""
        lib = self._lib
        te, h, ev = (ctypes.c_double(0) for _ in range(3))
        if lib.nsm_sim_model_times(sim, ctypes.byref(te), ctypes.byref(h), ctypes.byref(ev)):
            return
        why = ctypes.create_string_buffer(400)
        if lib.nsm_run_check(t_end, ev.value, 0.0, 0, why, len(why)) != 0:
            lib.nsm_sim_set_every(sim, 0.0)

    def _eval(self, sim, expr):
        """A time given as a number or an expression of the parameters."""
        if isinstance(expr, str):
            v = ctypes.c_double(0)
            if self._lib.nsm_sim_eval(sim, _ctext(expr, "expression"), ctypes.byref(v)) != 0:
                raise SettingError("cannot evaluate %r: %s"
                                   % (expr, _text(self._lib.nsm_sim_message(sim))))
            return v.value
        return _number(expr, "time")

    def _time(self, sim, expr, what, zero=False):
        """A study's time (_eval) that must be positive (zero: >= 0), else a
        SettingError naming it: a negative t_end or a period of 0 used to
        reach the runtime and come back as a SimulationError with no
        reason."""
        x = self._eval(sim, expr)
        if not (x >= 0 if zero else x > 0):
            raise SettingError("%s must be a %s time (s), got %r = %g"
                               % (what, "non-negative" if zero else "positive", expr, x))
        return x

    def _section_refused(self, sim, spec):
        """Raises SettingError for a section the run cannot start with
        ("period:0", "period:1:-1": a period or a start out of range), as
        the command line refuses it (exit 1) and as "period:1e-300" is
        refused: it was a SimulationError, the class of a run that failed."""
        why = _text(self._lib.nsm_sim_message(sim)) or "the run cannot start with it"
        why = re.sub(r"^t = \S+ s, mode \S+: ", "", why)
        raise SettingError("section %s: %s" % (_shown(spec), why))

    def _fail(self, sim, what):
        """Raises SimulationError with the runtime's reason for a study (the
        status and the time when the runtime gave none)."""
        lib = self._lib
        why = _text(lib.nsm_sim_message(sim)) or "the run failed at t = %g s" % lib.nsm_sim_time(sim)
        if why.startswith(what + ": "):
            why = why[len(what) + 2:]
        raise SimulationError("%s: %s" % (what, why), what, lib.nsm_sim_time(sim), [], None, None)

    def _interruptible(self, sim, call, partial):
        """call() (a runtime call that simulates with sim: a study's run, its
        transient, a Lyapunov spectrum, a shooting, a continuation) with
        Ctrl-C honoured as run() honours it: the run stops before its next
        step and Interrupted carries partial() (what the study had computed;
        these calls ignored Ctrl-C to their end, and a section's came back
        as a SimulationError "stopped by the section handler").  Only in the
        interpreter's main thread with its own SIGINT handler in place."""
        lib = self._lib
        if not (threading.current_thread() is threading.main_thread() and
                signal.getsignal(signal.SIGINT) is signal.default_int_handler):
            return call()
        # nsmpy_catch_begin inside the try and nsmpy_catch_end always: a
        # KeyboardInterrupt raised as begin returned left the runtime's
        # handler in place (Ctrl-C ignored, the next one ending Python); and
        # a SIGINT that reached the interpreter's handler just before ours
        # was installed is raised here, before the run (the run went on to
        # its end deaf to it, then the KeyboardInterrupt threw it away)
        try:
            caught = lib.nsmpy_catch_begin(sim)
            _check_signals()
            rc = _watched(call, lib.nsmpy_catch_stop) if caught else call()
        finally:
            hit = lib.nsmpy_catch_end(sim)
        if caught and hit:
            raise Interrupted(lib.nsm_sim_time(sim), partial())
        return rc

    def _tangent(self, sim, who):
        """SettingError, as the command line's exit 1, for a study of the
        tangent dynamics (Lyapunov, Floquet, continuation) the model cannot
        have (nonlinear forces, time switches, moving surfaces): they failed
        as a SimulationError after the transient."""
        if self._lib.nsm_sim_check_tangent(sim, who.encode()) != 0:
            raise SettingError(_text(self._lib.nsm_sim_message(sim)))

    @_api
    def section(self, spec, t_end=None, period=None, params=None, init=None, method=None):
        """Records of a Poincare section (docs/studies.md: "impact:GAP",
        "period:T[:T0]", "plane:F[:up|down|both]") from t = 0 to t_end (a
        time or an expression of the parameters; default the model's), as a
        numpy array with one row per record: t, phase, then the state
        (positions, then velocities).  period: the phase's period."""
        lib = self._lib
        spec = _spec(spec, "spec")
        sim = self._study(params, method, init)
        rows, n2 = [], 2 * len(self.bodies)

        def on_rec(ud, s, rec):
            r = rec.contents
            rows.append([r.t, r.phase] + [r.y[i] for i in range(n2)])
            return 0
        fn = _SECTION_FN(on_rec)
        try:
            if period is not None:      # 0 or -1: the command line's option error
                self._time(sim, period, "period")
            if lib.nsm_sim_set_section(sim, _ctext(spec, "section")) != 0 or (
                    period is not None and
                    lib.nsm_sim_set_section_period(sim, _ctext(str(period), "period")) != 0):
                raise SettingError(_text(lib.nsm_sim_message(sim)))
            lib.nsm_sim_set_section_handler(sim, fn, None)
            if lib.nsm_sim_reset(sim) != 0:     # the start passed _study's reset:
                self._section_refused(sim, spec)    # the section is what failed
            te = (self._times(sim, None, None, None) if t_end is None
                  else self._time(sim, t_end, "t_end"))
            self._unsampled(sim, te)
            self._check_run(sim, te)     # the command line's option errors
            records = lambda: np.array(rows, dtype=float).reshape(-1, 2 + n2)  # noqa: E731
            if self._interruptible(sim, lambda: lib.nsm_sim_run_until(sim, te), records) != 0:
                self._fail(sim, "section")
            return records()
        finally:
            self._free(sim)

    @_api
    def lyapunov(self, duration, interval, transient=0.0, params=None, init=None, method=None):
        """The Lyapunov spectrum [1/s], a numpy array of 2n exponents in
        decreasing order, of the motion from t = transient over duration,
        reorthonormalised every interval (times or expressions of the
        parameters; nsm_sim_lyapunov: exact flows and saltation matrices)."""
        lib = self._lib
        sim = self._study(params, method, init)
        try:
            tr = self._time(sim, transient, "transient", zero=True)
            du, iv = self._time(sim, duration, "duration"), self._time(sim, interval, "interval")
            # the command line's rule for --lyapunov-interval (nsm_run_check):
            # an interval of 1e-300 s, or a duration of 1e300 s, never ended
            why = ctypes.create_string_buffer(400)
            if lib.nsm_run_check(tr + du, iv, 0.0, 0, why, len(why)) != 0:
                raise SettingError("this study is refused: %s (transient + duration = %g s, "
                                   "interval = %g s)" % (_text(why.value), tr + du, iv))
            self._unsampled(sim, tr + du)
            self._check_run(sim, tr + du)    # the command line's option errors
            # the tangent vectors start at t = 0 without a transient: a contact
            # held there is known from the reset, as the simulator's --lyapunov
            # refuses it (it was a SimulationError of the first step)
            held = [c for j, c in enumerate(self.contacts) if lib.nsm_sim_mode_has(sim, j)]
            if not tr > 0 and held:
                raise SettingError("lyapunov: the motion does not start in free flight (contact "
                                   "'%s' is held at t = 0): give transient=T past it" % held[0])
            self._tangent(sim, "lyapunov")
            if tr > 0 and self._interruptible(sim, lambda: lib.nsm_sim_run_until(sim, tr),
                                              lambda: None) != 0:
                self._fail(sim, "lyapunov")
            # a span too short for the exponents (1e-300 s read 0 for every
            # one) is refused as the command line refuses it
            if lib.nsm_sim_lyapunov_check(sim, du, iv) != 0:
                raise SettingError(_text(lib.nsm_sim_message(sim)))
            lam = (ctypes.c_double * (2 * len(self.bodies)))()
            if self._interruptible(sim, lambda: lib.nsm_sim_lyapunov(sim, du, iv, lam),
                                   lambda: None) != 0:
                self._fail(sim, "lyapunov")
            return np.array(lam[:], dtype=float)
        finally:
            self._free(sim)

    @_api
    def floquet(self, period, transient=0.0, params=None, init=None, method=None):
        """The periodic orbit of the given period (a time or an expression of
        the parameters) reached after transient (rounded up to whole periods:
        the orbit passes through t = 0, at the forcing's phase 0), refined by
        shooting, and its Floquet multipliers: (state at the orbit's start,
        t = 0 modulo the period, as a numpy array, multipliers as a complex
        numpy array).  Unstable orbits converge too."""
        lib = self._lib
        sim = self._study(params, method, init)
        try:
            T = self._time(sim, period, "period")
            tr = self._time(sim, transient, "transient", zero=True)
            self._unsampled(sim, tr + T)
            self._check_run(sim, tr + T)     # the command line's option errors
            self._tangent(sim, "floquet")
            # the orbit is sought through t = 0 (nsm_sim_periodic_orbit): the
            # guess must be at the forcing's phase 0, so the transient runs on
            # to a whole number of periods (a state at t = 50 s taken as one
            # at t = 0 led Newton's method to another orbit or into the gap)
            tr = math.ceil(tr / T) * T
            if tr > 0 and self._interruptible(sim, lambda: lib.nsm_sim_run_until(sim, tr),
                                              lambda: None) != 0:
                self._fail(sim, "floquet")
            n2 = 2 * len(self.bodies)
            y = (ctypes.c_double * n2)(*lib.nsm_sim_state(sim)[:n2])
            re, im = (ctypes.c_double * n2)(), (ctypes.c_double * n2)()
            if self._interruptible(sim, lambda: lib.nsm_sim_periodic_orbit(sim, T, y, re, im),
                                   lambda: None) != 0:
                self._fail(sim, "floquet")
            return np.array(y[:]), np.array(re[:]) + 1j * np.array(im[:])
        finally:
            self._free(sim)

    @_api
    def continuation(self, param, start, stop, curve=None, param2=None, start2=None, stop2=None,
                     period="2*pi/omega", periods=1, init=None, transient=200, ds=0.01,
                     ds_min=1e-9, ds_max=0.05, max_points=10000, tol=1e-10, switch_pd=False,
                     params=None, method=None):
        """Pseudo-arclength continuation of a periodic orbit (nsm_sim_continue,
        docs/studies.md "Continuation"): the orbit of `periods` forcing
        periods `period` followed in `param` from start toward stop, stable
        and unstable, with its folds, period doublings, Neimark-Sacker points
        and grazings located to tol.  switch_pd: at the first period doubling
        go on along the doubled orbit.  curve="fold", "flip" or "grazing"
        with param2, start2, stop2: the curve of those points in (param,
        param2) instead, from the first one on the branch at param2 = start2.
        init: the state the first orbit is sought from (after transient
        periods).  Returns a Branch of numpy arrays, one row per point."""
        lib = self._lib
        kinds = {None: 0, "fold": 2, "flip": 3, "grazing": 5}
        curve = _plain(curve)
        if not (curve is None or isinstance(curve, str)) or curve not in kinds:
            raise SettingError("curve=%r: expected 'fold', 'flip' or 'grazing'" % (curve,))
        if (curve is None) != (param2 is None):
            raise SettingError("a curve needs param2, start2 and stop2; param2 is the second "
                               "parameter of a curve")
        param = _param_name(self.params, param)
        if curve is not None:
            param2 = _param_name(self.params, param2)
        o = _ContOptions()
        lib.nsm_cont_defaults(ctypes.byref(o))
        o.param = _ctext(str(param), "param", ParameterError)
        o.period = _ctext(str(period), "period")
        o.from_ = self._param_number(param, start, lambda v: _number(v, "start", SettingError))
        o.to = self._param_number(param, stop, lambda v: _number(v, "stop", SettingError))
        if o.from_ == o.to:
            raise SettingError("start and stop are equal (%r): the branch has no range" % start)
        o.periods = _count(periods, "periods", 1, 1000)
        o.transient = _count(transient, "transient", 0)
        o.max_points = _count(max_points, "max_points", 1)
        o.ds, o.ds_min, o.ds_max, o.tol = (_number(v, n, SettingError) for v, n in
                                           ((ds, "ds"), (ds_min, "ds_min"), (ds_max, "ds_max"),
                                            (tol, "tol")))
        for x, v, n in ((o.ds, ds, "ds"), (o.ds_min, ds_min, "ds_min"),
                        (o.ds_max, ds_max, "ds_max"), (o.tol, tol, "tol")):
            if not x > 0:   # as the command line's --ds ... --tol (it read "below the
                # rounding" for tol, "bad options" for the steps)
                raise SettingError("%s=%r: expected a positive number" % (n, v))
        if not o.ds_min <= o.ds <= o.ds_max:    # as nsmc continue: it read "bad options"
            raise SettingError("the steps must satisfy ds_min <= ds <= ds_max (ds_min=%r, ds=%r, "
                               "ds_max=%r)" % (ds_min, ds, ds_max))
        if o.tol < 4e-16 * max(1.0, abs(o.from_), abs(o.to)):
            raise SettingError("tol=%r: below the rounding of the parameter over [%r, %r]"
                               % (tol, start, stop))
        o.switch_pd, o.curve = int(_flag(switch_pd, "switch_pd")), kinds[curve]
        if curve is not None:
            o.param2 = _ctext(str(param2), "param2", ParameterError)
            o.from2 = self._param_number(param2, start2,
                                         lambda v: _number(v, "start2", SettingError))
            o.to2 = self._param_number(param2, stop2, lambda v: _number(v, "stop2", SettingError))
            # as nsmc continue's "--param2 omega: the same parameter as
            # --param" and "FROM and TO are equal": one was "continuation:
            # bad options (steps, range or period)", the other ran the whole
            # branch and raised SimulationError (no point to start from)
            if o.param2 == o.param:
                raise SettingError("param2=%r: the same parameter as param: a curve follows a "
                                   "point in two different parameters" % (param2,))
            if o.from2 == o.to2:
                raise SettingError("start2 and stop2 are equal (%r): the curve has no range"
                                   % (start2,))
        _params_dict(params)
        _not_swept(params, [param] + ([param2] if curve else []))
        self._ends_check(params, method, o, curve is not None)
        sim = self._study(params, method, init)
        n2 = 2 * len(self.bodies)
        rows = []
        try:
            self._tangent(sim, "continuation")
        except BaseException:
            self._free(sim)
            raise

        def on_point(ud, s, pt):
            q = pt.contents
            rows.append((q.kind, q.param, q.param2, q.stable, [q.y[i] for i in range(n2)],
                         q.period, q.impacts, q.min_gap, q.min_speed, q.dpds,
                         [complex(q.mu_re[i], q.mu_im[i]) for i in range(n2)]))
            return 0
        fn = _CONT_FN(on_point)
        try:
            y = None
            if init is not None:
                y = (ctypes.c_double * n2)(*lib.nsm_sim_state(sim)[:n2])
            rc = self._interruptible(sim, lambda: lib.nsm_sim_continue(sim, ctypes.byref(o), y,
                                                                       fn, None),
                                     lambda: Branch(rows, n2, "interrupted"))
            msg = _text(lib.nsm_sim_message(sim))
            if rc != 0:
                if rc == 1:     # NSM_EINVAL
                    raise SettingError("continuation: bad options (%s)" % msg if msg else
                                       "continuation: bad options (steps, range or period)")
                self._fail(sim, "continuation")
            branch = Branch(rows, n2, msg)
            branch.warnings = self._warnings(sim)
            return branch
        finally:
            self._free(sim)

    def _ends_check(self, params, method, o, curve):
        """ParameterError unless the model can start at each end of the
        continued ranges (start and stop, and a curve's start2 and stop2,
        the other parameter at its start), and the period at the start, as
        `nsmc continue` and sweeps refuse them: a stop the model rejects (e
        up to 1.5) ended the branch
        near the bound with a message blaming the orbit's impact count, a
        start it rejects was a SimulationError.  On a simulation of its own:
        the continuation's keeps its initial state."""
        lib = self._lib
        sim = self._study(params, method, None)
        try:
            names = [o.param] + ([o.param2] if curve else [])
            ends = [(o.from_, o.to)] + ([(o.from2, o.to2)] if curve else [])
            for p, name in enumerate(names):
                for k, v in enumerate(ends[p]):
                    if p == 1:
                        lib.nsm_sim_set_param(sim, names[0], ends[0][0])
                    if lib.nsm_sim_set_param(sim, name, v) != 0 or lib.nsm_sim_reset(sim) != 0:
                        raise ParameterError("%s=%r: the model cannot start at %s = %r (the "
                                             "range's %s): %s"
                                             % ("param2" if p else "param", _text(name),
                                                _text(name), v, ("start", "stop")[k],
                                                _text(lib.nsm_sim_message(sim))))
            # the period at the start, as nsmc continue's --period: 0, -1 or
            # "omega-2.5" there ran the set-up, then raised SimulationError
            lib.nsm_sim_set_param(sim, names[0], ends[0][0])
            t = ctypes.c_double(0)
            bad = lib.nsm_sim_eval(sim, o.period, ctypes.byref(t)) != 0
            if bad or not t.value > 0:
                raise SettingError("period=%r: %s at %s = %r%s"
                                   % (_text(o.period), _text(lib.nsm_sim_message(sim)) if bad
                                      else "not a positive time of the parameters",
                                      _text(names[0]), ends[0][0],
                                      " (the default period is 2*pi/omega: give period for a "
                                      "model without omega)" if b"omega" in o.period else ""))
        finally:
            self._free(sim)

    @_api
    @_stops_as(lambda self, *rest: Interrupted(None, self._sweep_partial([], [])))
    def sweep(self, param, values, section, period=None, transient=100, record=100, t_max=None,
              params=None, init=None, method=None):
        """A brute-force bifurcation diagram: for each value of param, the
        records of the section (as section()) from t = 0, the first
        `transient` dropped and the next `record` kept (fewer when the run
        reaches t_max, default the model's t_end, first).  Returns (p, rec):
        p the parameter of each kept record, rec its row t, phase, state."""
        ps, rows = [], []
        try:
            return self._sweep_checked(param, values, section, period, transient, record, t_max,
                                       params, init, method, ps, rows)
        except KeyboardInterrupt as err:
            # a Ctrl-C outside a run (the arguments' and the values' checks,
            # a run's set-up, in Python) was a bare KeyboardInterrupt and the
            # finished values' records were lost; within a run it is
            # Interrupted already
            if isinstance(err, Interrupted):
                raise
            raise Interrupted(None, self._sweep_partial(ps, rows)) from None

    def _sweep_partial(self, ps, rows):
        """The records kept so far, as sweep returns them."""
        return (np.array(ps, dtype=float),
                np.array(rows, dtype=float).reshape(-1, 2 + 2 * len(self.bodies)))

    def _sweep_checked(self, param, values, section, period, transient, record, t_max, params,
                       init, method, ps, rows):
        """sweep's arguments checked, then its runs (_sweep_values)."""
        param = _param_name(self.params, param)
        _params_dict(params)
        _not_swept(params, [param])
        section = _spec(section, "section")
        transient = _count(transient, "transient", 0)
        record = _count(record, "record", 1, _SWEEP_MAX_RECORD)
        if _caller("values", ParameterError, np.ma.is_masked, values):
            # np.asarray drops the mask: the masked entries' hidden values
            # were swept as if given
            mask = np.ma.getmaskarray(values).ravel()
            raise ParameterError("values: a masked array with %s (at %s): a masked entry has "
                                 "no value to sweep; give the values to sweep (values."
                                 "compressed() for the unmasked ones)"
                                 % (_plural(int(mask.sum()), "masked entry", "masked entries"),
                                    ", ".join(str(i) for i in np.flatnonzero(mask)[:10]) +
                                    (", ..." if mask.sum() > 10 else "")))
        try:
            raw = np.asarray(values)
            if raw.ndim <= 1:   # before astype's copy and the values' checks
                _grid_check([raw.size])
            real = not (_not_real(raw) or (raw.dtype == object and
                                           any(_not_real(v) for v in raw.flat)))
            if real and raw.dtype.kind in "USO":   # texts as run() takes them ('1_0' was 10)
                # a list's texts as --set reads them (a bare text is no list)
                conv = (lambda v: self._param_number(param, v, _sweep_value)) if raw.ndim \
                    else _sweep_value
                raw = np.vectorize(conv, otypes=[float])(raw) if raw.size else raw
            values = np.atleast_1d(raw.astype(float)) if real else None
        except (SettingError, ParameterError):
            raise
        except (TypeError, ValueError):
            raise ParameterError("values must be numbers, got %r" % (values,)) from None
        except Exception as err:    # [10**400] escaped as a bare OverflowError
            raise ParameterError("values must be finite numbers, got %s (%s: %s)"
                                 % (_shown(values), type(err).__name__, err)) from err
        if not real:    # complex values were swept by their real parts, booleans as 0 and 1
            raise ParameterError("values must be real numbers, got an array of %s" % raw.dtype)
        if values.ndim != 1:
            # a 2-D array escaped as a bare TypeError from float() of a row
            raise ParameterError("values must be a sequence of numbers (one dimension), got an "
                                 "array of shape %s" % (values.shape,))
        if values.size == 0:
            raise SettingError("values is empty: a sweep needs at least one value of %s" % param)
        if self._nq != len(self.bodies):
            # nsmc sweep's exit 1 before the grid; it was a SimulationError
            # of the first value
            raise SettingError("sweeps, basins and continuation do not take bodies in space yet "
                               "(their Poincare sections and tangent dynamics need a chart of "
                               "the quaternions)")
        return self._sweep_values(param, values, section, period, t_max, params, method, init,
                                  transient, record, ps, rows,
                                  lambda: self._sweep_partial(ps, rows))

    def _sweep_values(self, param, values, section, period, t_max, params, method, init,
                      transient, record, ps, rows, partial):
        """sweep's runs, one per value, their kept records appended to ps
        and rows; (p, rec), or SimulationError when no value gave records."""
        lib = self._lib
        n2 = 2 * len(self.bodies)
        # every value's section, period and horizon before the first run, as
        # nsmc sweep checks its axes before the grid (a period of 1e-300 ran
        # to the first value's failure, a SimulationError)
        for v in values:
            probe, _ = self._sweep_sim(param, float(v), section, period, t_max, params, method,
                                       init)
            self._free(probe)
        for v in values:
            seen = [0]

            def on_rec(ud, s, rec):
                r = rec.contents
                seen[0] += 1
                if seen[0] > transient:
                    ps.append(float(v))
                    rows.append([r.t, r.phase] + [r.y[i] for i in range(n2)])
                return 1 if seen[0] >= transient + record else 0
            fn = _SECTION_FN(on_rec)
            sim, te = self._sweep_sim(param, float(v), section, period, t_max, params, method,
                                      init)
            try:
                lib.nsm_sim_set_section_handler(sim, fn, None)
                rc = self._interruptible(sim, lambda: lib.nsm_sim_run_until(sim, te), partial)
                if rc not in (0, 8):     # NSM_ESTOPPED: the records are in
                    self._fail(sim, "sweep at %s = %r" % (param, float(v)))
            finally:
                self._free(sim)
        if not ps:
            # nsmc sweep's exit 3: empty arrays were returned without a word
            raise SimulationError("sweep: no value gave section records (no value of %s "
                                  "reached more than transient=%d records of %s before t_max): "
                                  "give a longer t_max, a smaller transient or another section"
                                  % (param, transient, section), "sweep", te, [], None,
                                  (np.zeros(0), np.zeros((0, 2 + n2))))
        return partial()

    def _sweep_sim(self, param, v, section, period, t_max, params, method, init):
        """(sim, t_max) of the sweep's point param = v: its section and
        period set and its run to t_max checked as nsmc sweep checks its
        axes (nsm_sim_check_run), a SettingError naming the argument
        otherwise; the caller frees sim."""
        lib = self._lib
        pv = dict(params or {})
        pv[param] = v
        sim = self._study(pv, method, init)
        try:
            if period is not None:      # 0 or -1: nsmc sweep's option error
                self._time(sim, period, "period")
            if lib.nsm_sim_set_section(sim, _ctext(section, "section")) != 0 or (
                    period is not None and
                    lib.nsm_sim_set_section_period(sim, _ctext(str(period), "period")) != 0):
                raise SettingError(_text(lib.nsm_sim_message(sim)))
            if lib.nsm_sim_reset(sim) != 0:     # the start passed _study's reset
                self._section_refused(sim, section)
            te = (self._times(sim, None, None, None) if t_max is None
                  else self._eval(sim, t_max))
            if not te > 0:
                raise SettingError("t_max=%r is %r s at %s = %r: not a positive time"
                                   % (t_max, te, param, v))
            self._unsampled(sim, te)
            try:
                self._check_run(sim, te)
            except SettingError as e:
                raise SettingError("sweep at %s = %r (period=%r, t_max=%r): %s"
                                   % (param, v, period, t_max, e)) from None
        except BaseException:
            self._free(sim)
            raise
        return sim, te

    @_api
    def basins(self, x, y, section, period=None, transient=100, record=100, tol=1e-4,
               t_max=None, params=None, jobs=1, method=None, pilot=None):
        """Basins of attraction (nsmc sweep --basin, docs/studies.md): x and
        y are (COORDINATE, start, stop, count) with COORDINATE "BODY.x" or
        "BODY.v"; each initial state of the grid is run and classified by the
        attractor it reaches, numbered in order of first appearance.  Returns
        (xs, ys, labels, attractors): the axes, labels[i, j] the attractor
        of (xs[j], ys[i]) (0 no period found, -1 failed), and one dict per
        attractor (period, records, points, fraction, section point).
        pilot: the pilot lattice's most values per axis (--basin-pilot,
        default 16; 0 runs every state to its own repeat, without reference
        orbits: the same labels and attractors)."""
        if self._source is None:
            raise SettingError("basins need the model's source: compile it with nsm.compile "
                               "or nsm.compile_source")
        axes, counts, coords = [], [], []
        for name, ax in (("x", x), ("y", y)):
            try:
                c, a, b, k = ax
            except (TypeError, ValueError):
                # None or a generator escaped as a bare TypeError from len()
                raise SettingError("%s=%r: expected (COORDINATE, start, stop, count)"
                                   % (name, ax)) from None
            counts.append(_count(k, name + " count", 1, _SWEEP_MAX_RUNS))
            coords.append(_spec(c, name + " coordinate", "M.x"))
            axes.append("%s=%r:%r:%d" % (coords[-1], _number(a, name), _number(b, name),
                                         counts[-1]))
        # one coordinate on both axes: nsmc sweep's refusal came through as
        # "nsmc sweep --basin: nsmc sweep: error: --basin M.x is given twice"
        if coords[0].strip() == coords[1].strip():
            raise SettingError("x and y both name the coordinate %r: the two axes of basins are "
                               "two different coordinates (such as 'M.x' and 'M.v')"
                               % coords[0].strip())
        _grid_check(counts)
        section = _spec(section, "section")
        # checked as sweep() checks them: transient=2.7 and jobs=2.5 were cut
        # to 2 without a word, None or 'abc' escaped as bare TypeError or
        # ValueError, a params list as AttributeError; and, before nsmc
        # sweep's compile, as its --record and --basin-tol
        transient = _count(transient, "transient", 0)
        record = _count(record, "record", 1, _SWEEP_MAX_RECORD)
        tol = _number(tol, "tol")
        if not 0 < tol < 1:
            raise SettingError("tol=%r: a relative tolerance between 0 and 1, as nsmc sweep's "
                               "--basin-tol" % (tol,))
        jobs = _count(jobs, "jobs", 1, 1024)
        if method is not None:
            _method(method)
        _params_dict(params)
        self._basins_params(params, method)
        paths = _locate()

        def study():
            """nsmc sweep --basin in a temporary folder: (its grid, attractors)."""
            return self._basins_in(paths, axes, section, transient, record, tol, jobs, period,
                                   t_max, method, pilot, params)
        # SIGTERM (at its default action) stops nsmc and removes the folder
        # before the process ends by it: nsmc went on alone and the folder
        # stayed in TMPDIR
        grid, atts = _sigterm_held(study)
        nx, ny = counts
        xs, ys = grid[:nx, 0], grid[::nx, 1][:ny]
        labels = grid[:, 2].astype(int).reshape(ny, nx)
        return xs, ys, labels, atts

    def _basins_params(self, params, method):
        """basins' params judged as the other studies judge them: an unknown
        parameter or a value the model rejects is a ParameterError (it was a
        SettingError quoting nsmc sweep's refusal, where run, sweep, section
        and continuation raise ParameterError).  The model's own initial
        state is the grid's to replace: a refusal that the model without
        params gives too is left to nsmc sweep."""
        try:
            self._free(self._study(params, method, None))
        except ParameterError:
            if not params:
                return
            try:
                self._free(self._study(None, method, None))
            except Error:
                return
            raise

    def _basins_in(self, paths, axes, section, transient, record, tol, jobs, period, t_max,
                   method, pilot, params):
        """basins' nsmc sweep --basin, run in a temporary folder: (the grid
        of basins.csv, the attractors' rows); Interrupted on Ctrl-C."""
        with _tempdir("nsm-basins-", "nsmc sweep --basin") as d:
            src = os.path.join(d, "model.nsm")
            _write_temp(src, self._source, "the model's source")
            # the model and the results named from the temporary folder, the
            # program's own: a TMPDIR of 4030 bytes is then no output folder
            # past the programs' path limit (outdir_path_check)
            cmd = [paths.NSMC, "sweep", "model.nsm", "--basin", axes[0], "--basin", axes[1],
                   "--section", section, "--transient", str(int(transient)),
                   "--record", str(record), "--basin-tol", repr(tol),
                   "--jobs", str(jobs), "--out-dir", "out"]
            if period is not None:
                cmd += ["--section-period", str(period)]
            if t_max is not None:
                cmd += ["--t-max", str(t_max)]
            if method is not None:
                cmd += ["--method", method]
            if pilot is not None:
                cmd += ["--basin-pilot", str(_count(pilot, "pilot", 0, 1000))]
            for k, v in (params or {}).items():
                x = self._with_unit(k, v) if k in self.params else None
                cmd += ["--set", "%s=%r" % (k, _number(v, k, ParameterError) if x is None
                                            else x)]
            for arg in cmd[1:]:     # a NUL escaped as a bare ValueError from exec
                _ctext(arg, "basins: the argument")
            p, stopped = _run_stoppable(cmd, "nsmc", cwd=d)
            _warn_all(self.name, [ln.split(": warning: ", 1)[1] for ln in p.stderr.splitlines()
                                  if ": warning: " in ln])
            if stopped:
                raise Interrupted(None, _csv_rows(os.path.join(d, "out", "summary.csv.partial")))
            if p.returncode not in (0, 3):
                # the program named once, by the prefix below
                said = "\n".join(ln.split("nsmc sweep: error: ", 1)[-1]
                                 for ln in p.stderr.splitlines()
                                 if not ln.startswith(("nsmc: using the cached",
                                                       "nsmc: compiling the")))
                raise SettingError("nsmc sweep --basin: %s" % (said.strip() or
                                                               "exit status %d" % p.returncode))
            said = [ln for ln in p.stderr.splitlines() if "no initial state gave records" in ln]
            if said:
                raise SimulationError("basins: %s" % said[0].split(": ", 1)[-1].split(": see ")[0], "basins",
                                      0.0, [], None, None)
            grid = np.loadtxt(os.path.join(d, "out", "basins.csv"), delimiter=",", skiprows=1,
                              ndmin=2)
            atts = _csv_rows(os.path.join(d, "out", "attractors.csv"))
        return grid, atts

    @_api
    def run(self, t_end=None, method=None, params=None, every=None, dt=None, rtol=None,
            atol=None, max_steps=None, max_event_rate=None, zeno=True, init=None):
        """Simulates from t = 0 to t_end (default: the model's `simulate`).

        method: "rk4", "adaptive" or "exact"; params: {name: value (SI)};
        every: sampling period (0 = every step); dt: step (largest step of
        adaptive); rtol, atol: adaptive tolerances; max_steps,
        max_event_rate: the guards; zeno: jump over Zeno cascades.  Returns
        a Result; raises ParameterError for a bad parameter, SettingError for
        a bad setting or an impossible run, SimulationError (with the
        partial result) when the run fails and Interrupted (a
        KeyboardInterrupt, with the partial result) on Ctrl-C.  init: the
        initial state, {"BODY.x" or "BODY.v": value} over the model's `init`
        or all 2n values (positions, then velocities)."""
        lib = self._lib
        # converted once: a value whose __float__ answered 1e-300 to the
        # setting and 0.01 to the check ran every=1e-300 past the guard to
        # the step cap (265 s)
        dt, every = (None if v is None else _number(v, what)
                     for v, what in ((dt, "dt"), (every, "every")))
        sim = self._create()
        rec = lib.nsmpy_rec_new()
        try:
            if not rec:
                raise OutOfMemoryError("cannot allocate the run's record")
            self._configure(sim, method, params, dt, every, rtol, atol, max_steps,
                            max_event_rate, zeno)
            self._initial(sim, init)
            t_end = self._times(sim, t_end, dt, every)
            self._check_run(sim, t_end)
            rc = self._interruptible(sim, lambda: lib.nsmpy_run(sim, rec, t_end, 0),
                                     lambda: self._result(sim, rec))
            status = _text(lib.nsm_status_name(rc))
            msg = _text(lib.nsm_sim_message(sim))
            # a parameter the model's setup rejects was raised by _check_run's
            # reset (the same reset nsmpy_run repeats): NSM_EMODEL here comes
            # from the run itself (a frictional impact with no solution at
            # t = 0.5 s), a failed run with its partial result, as the
            # simulator's exit 3 "simulation failed"
            result = self._result(sim, rec)
            result.warnings = self._warnings(sim)
            if lib.nsmpy_rec_oom(rec):
                raise OutOfMemoryError("out of memory recording the run at t = %g s"
                                  % result.t_reached)
            if status != "NSM_OK":
                contact = lib.nsm_sim_failed_contact(sim)
                raise SimulationError(msg or "the run failed (%s) at t = %g s"
                                      % (status, lib.nsm_sim_time(sim)),
                                      status, lib.nsm_sim_time(sim),
                                      self._mode_names(lambda j: lib.nsm_sim_mode_has(sim, j)),
                                      _text(contact) if contact else None, result)
            return result
        finally:
            lib.nsmpy_rec_free(rec)
            self._free(sim)

    def _mode_names(self, closed):
        """Names of the contacts closed in a mode (closed(j): gap j closed)."""
        return [c for j, c in enumerate(self.contacts) if closed(j)]

    def _events(self, rec):
        """The run's events as a structured array (EVENT_DTYPE): the kinds
        and contacts by the runtime's names, of any length; a time switch,
        which has no name, as "switch K"."""
        lib = self._lib
        ne = lib.nsmpy_rec_nevents(rec)
        events = np.zeros(ne, dtype=EVENT_DTYPE)
        if not ne:
            return events
        raw = np.ctypeslib.as_array(lib.nsmpy_rec_events(rec), (ne, EVFIELDS)).copy()
        names = lib.nsmpy_rec_names(rec)
        kinds = {}
        for i, e in enumerate(raw):
            k = int(e[1])
            if k not in kinds:
                kinds[k] = _text(lib.nsm_event_kind_name(k))
            name = names[i]
            contact = _text(name) if name else \
                "switch%d" % int(e[2]) if kinds[k] == "time" else "-"
            events[i] = (e[0], kinds[k], contact, e[3], e[4], e[5], e[6], int(e[7]))
        return events

    def _result(self, sim, rec):
        """Copies a run's samples, events, audit and statistics into a Result."""
        lib = self._lib
        ncol, ns = lib.nsmpy_rec_ncol(rec), lib.nsmpy_rec_nsamples(rec)
        samples = np.zeros((0, ncol))
        if ns:
            samples = np.ctypeslib.as_array(lib.nsmpy_rec_samples(rec), (ns, ncol)).copy()
        events = self._events(rec)
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
                      lib.nsm_sim_steps(sim), METHOD_NAMES[lib.nsm_sim_get_method(sim)],
                      self._friction_stats(sim))

    def _friction_stats(self, sim):
        """Every friction element's statistics after a run, as the
        simulator's summary gives them: {name: {...}} for the elements of
        lines and planar bodies (FRICTION_FIELDS) and for the spatial ones
        (a sphere of a body in space on a plane: "dissipated" only)."""
        lib = self._lib
        planar = collections.OrderedDict()
        fbuf = (ctypes.c_double * len(FRICTION_FIELDS))()
        for k, name in enumerate(self.frictions):
            if lib.nsmpy_friction_stats(sim, k, fbuf) != 0:
                raise SimulationError("no statistics of friction '%s' were kept" % name,
                                      "NSM_EINVAL", lib.nsm_sim_time(sim), [], name, None)
            st = dict(zip(FRICTION_FIELDS, list(fbuf)))
            for f in ("sticks", "slips", "reversals", "state"):
                st[f] = int(st[f])
            planar[name] = st
        space = collections.OrderedDict()
        e = ctypes.c_double()
        for k, name in enumerate(self.space_frictions):
            if lib.nsm_sim_space_friction_dissipated(sim, k, ctypes.byref(e)) != 0:
                raise SimulationError("no statistics of friction '%s' were kept" % name,
                                      "NSM_EINVAL", lib.nsm_sim_time(sim), [], name, None)
            space[name] = {"dissipated": e.value}
        return planar, space


# The events of a run: one record per transition (docs/python.md).
# kind and contact are Python strings (object fields): no name is ever cut.
EVENT_DTYPE = np.dtype([("t", "f8"), ("kind", "O"), ("contact", "O"),
                        ("vrel_before", "f8"), ("vrel_after", "f8"), ("impulse", "f8"),
                        ("energy_lost", "f8"), ("count", "i8")])


class Branch:
    """Points of a continuation (Model.continuation), numpy arrays with one
    row per point in the order of the branch: param, param2 (NaN on a
    branch), kind (regular, start, fold, flip, ns, grazing, switch; on a
    curve the curve's kind), stable, y (the orbit's state at t = 0),
    period, impacts (per orbit), min_gap, min_speed, dpds, multipliers
    (complex, by decreasing modulus); message: the runtime's note on why
    the branch ended, if any; warnings: the runtime's warnings (texts, each
    also shown as a SimulationWarning)."""

    def __init__(self, rows, n2, message):
        self.param = np.array([r[1] for r in rows], dtype=float)
        self.param2 = np.array([r[2] for r in rows], dtype=float)
        self.kind = np.array([CONT_KINDS[r[0]] for r in rows], dtype=object)
        self.stable = np.array([bool(r[3]) for r in rows], dtype=bool)
        self.y = np.array([r[4] for r in rows], dtype=float).reshape(-1, n2)
        self.period = np.array([r[5] for r in rows], dtype=float)
        self.impacts = np.array([r[6] for r in rows], dtype=int)
        self.min_gap = np.array([r[7] for r in rows], dtype=float)
        self.min_speed = np.array([r[8] for r in rows], dtype=float)
        self.dpds = np.array([r[9] for r in rows], dtype=float)
        self.multipliers = np.array([r[10] for r in rows], dtype=complex).reshape(-1, n2)
        self.message = message
        self.warnings = []      # the runtime's warnings (SimulationWarning's texts)

    def __len__(self):
        return len(self.param)

    def special(self, kind):
        """The indices of the points of one kind ("fold", "flip", ...)."""
        return np.flatnonzero(self.kind == kind)

    def __repr__(self):
        return "<nsm.Branch: %s>" % _plural(len(self), "point")


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
    r.frictions      per friction element of a line or a planar body:
                     dissipated, surface_work, stick_time, sticks, slips,
                     reversals, state (0 stuck, +1/-1 slipping)
    r.space_frictions  per spatial friction element: dissipated
    r.t_reached, r.steps, r.method
    r.warnings       the runtime's warnings about the run (texts; each was
                     also shown with warnings.warn as a SimulationWarning)
    """

    def __init__(self, model, samples, events, audit, contacts, t_reached, steps, method,
                 frictions=None):
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
        planar, space = frictions or ({}, {})
        self.frictions, self.space_frictions = planar, space
        self.t_reached, self.steps, self.method = t_reached, steps, method
        self.warnings = []      # the runtime's warnings (SimulationWarning's texts)

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
            raise ColumnError("no output column %r; the columns are: %s"   # a NUL escaped
                              % (name, ", ".join(self.columns))) from None

    def __contains__(self, name):
        return name in self.columns

    def __repr__(self):
        return "<nsm.Result %s: %s to t = %g s, %s, method %s>" % (
            self.model.name, _plural(len(self.t), "sample"), self.t_reached,
            _plural(len(self.events), "event"), self.method)
