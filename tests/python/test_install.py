"""The package installed with pip (issue 28) into a virtual environment made
with `python3 -m venv --system-site-packages`, offline (--no-index, the
build with Debian's setuptools: --no-build-isolation): from the build tree
(its _paths.py points at that build) and from the source folder python/
with nsm installed under a prefix (nsmc found on PATH).  And the message
when numpy is missing.  Every copy is made in a temporary folder: pip's
in-tree build leaves build/ and *.egg-info where it builds."""
import os
import shutil
import subprocess
import sys

import pytest

SRC = os.environ.get("NSM_SOURCE_DIR", "")
BUILD = os.environ.get("NSM_BUILD_DIR", "")
REFERENCE = "stick@0.000000000 separation@3.257839639 impact@11.828417819 impact@17.744776306"
RUN = ("import nsm, sys\n"
       "r = nsm.compile(sys.argv[1]).run(method='exact')\n"
       "print(nsm.__version__, nsm.__file__)\n"
       "print(' '.join('%s@%.9f' % (k, t) for t, k in zip(r.events['t'], r.events['kind'])))\n")


def venv(path, system=True):
    """A virtual environment without pip of its own (the system's pip is
    seen through --system-site-packages); returns its python."""
    args = [sys.executable, "-m", "venv", "--without-pip"]
    subprocess.run(args + (["--system-site-packages"] if system else []) + [str(path)],
                   check=True, capture_output=True)
    return str(path / "bin" / "python")


def clean_env(tmp_path, **extra):
    """The environment without the build tree's package on PYTHONPATH."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(XDG_CACHE_HOME=str(tmp_path / "cache"), PIP_NO_INDEX="1",
               PIP_DISABLE_PIP_VERSION_CHECK="1", **extra)
    return env


def pip_install(python, folder, env):
    p = subprocess.run([python, "-m", "pip", "install", "--no-build-isolation", "--no-index",
                        "--no-cache-dir", "--root-user-action=ignore", "-q", str(folder)],
                       capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stdout + p.stderr


def check_run(python, env, cwd, site_of):
    """Imports the installed package away from both trees and runs two_mass."""
    p = subprocess.run([python, "-c", RUN, os.path.join(SRC, "models", "two_mass.nsm")],
                       capture_output=True, text=True, env=env, cwd=str(cwd))
    assert p.returncode == 0, p.stderr
    first, second = p.stdout.splitlines()
    version, where = first.split()
    assert version == os.environ["NSM_VERSION"]
    assert where.startswith(str(site_of)) and "site-packages" in where
    assert second == REFERENCE


def test_pip_install_from_the_build_tree(tmp_path):
    copy = tmp_path / "pkg"
    shutil.copytree(os.path.join(BUILD, "python"), copy,
                    ignore=shutil.ignore_patterns("CMakeFiles", "*.cmake", "Makefile", "install"))
    python = venv(tmp_path / "venv")
    env = clean_env(tmp_path)
    pip_install(python, copy, env)
    check_run(python, env, tmp_path, tmp_path / "venv")


def test_pip_install_from_the_source_folder_with_nsm_installed(tmp_path):
    prefix = tmp_path / "prefix"
    subprocess.run(["cmake", "--install", BUILD, "--prefix", str(prefix)], check=True,
                   capture_output=True)
    copy = tmp_path / "pkg"
    shutil.copytree(os.path.join(SRC, "python"), copy,
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "CMakeLists.txt"))
    assert not (copy / "nsm" / "_paths.py").exists()
    python = venv(tmp_path / "venv")
    env = clean_env(tmp_path, PATH=str(prefix / "bin") + os.pathsep + os.environ["PATH"])
    pip_install(python, copy, env)
    check_run(python, env, tmp_path, tmp_path / "venv")
    # without nsmc anywhere: a CompileError naming the fix
    env["PATH"] = "/usr/bin:/bin"
    p = subprocess.run([python, "-c", "import nsm\ntry:\n    nsm.compile('x.nsm')\n"
                        "except nsm.CompileError as e:\n    print(e)\n"],
                       capture_output=True, text=True, env=env, cwd=str(tmp_path))
    assert p.stdout.startswith("nsmc was not found") and "put its bin/ on PATH" in p.stdout, \
        p.stdout + p.stderr


def test_missing_numpy_names_the_fix(tmp_path):
    """An interpreter without numpy (a venv without the system's packages)."""
    python = venv(tmp_path / "bare", system=False)
    env = clean_env(tmp_path, PYTHONPATH=os.path.join(BUILD, "python"))
    p = subprocess.run([python, "-c", "import nsm"], capture_output=True, text=True, env=env,
                       cwd=str(tmp_path))
    assert p.returncode == 1
    last = p.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: nsm needs numpy, which this Python") and \
        "python3-numpy" in last and "--system-site-packages" in last, p.stderr
