"""What the scripts that compile their models by hand share (studies/,
settings/, outputs/, nonlinear/): their options (--nsmc, the runtime's
--lib and --include, --cc, --cflags) and the compile of a model into a
simulator with them.

A script in a folder below tests/ takes it as

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from simbuild import build_sim, sim_parser
"""
import argparse
import os
import subprocess


def sim_parser(description=None):
    """An argument parser with the options of a script that compiles its
    models: --nsmc, --lib and --include (required), --cc (cc) and --cflags
    (-O2); the script adds its own."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--nsmc", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--cflags", default="-O2")
    return ap


def build_sim(args, model, work, name=None):
    """The simulator of the model file model, built in work as NAME (the
    model's base name unless given): nsmc's C compiled with args' compiler,
    flags, runtime headers and libraries; its path.  A failed step raises
    CalledProcessError."""
    name = name or os.path.splitext(os.path.basename(model))[0]
    c, exe = os.path.join(work, name + ".c"), os.path.join(work, name)
    subprocess.run([args.nsmc, model, "-o", c], check=True)
    subprocess.run([args.cc] + args.cflags.split() + [c, "-I", args.include]
                   + args.lib.split(os.pathsep) + ["-lm", "-o", exe], check=True)
    return exe
