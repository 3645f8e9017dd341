#!/bin/sh
# Installs, with apt-get, every Debian package the build, the tests, the plots,
# the Python package and the benchmark against CVODE need, and nothing when they
# are all present already. Run by `make` and `make test`.
set -eu
pkgs="cmake make gcc clang re2c lemon pkgconf python3 python3-mpmath gnuplot-nox
      libhdf5-dev python3-numpy python3-pytest python3-h5py python3-matplotlib libsundials-dev
      libopenmpi-dev openmpi-bin python3-setuptools python3-wheel python3-pip python3-venv
      python3-scipy"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "setup: installing$missing"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends $missing
