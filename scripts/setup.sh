#!/usr/bin/env bash
# Installs the Debian packages routesim needs to build, test and plot, when they are missing.
# As root it runs apt-get; otherwise it prints the exact apt-get line and exits with status 2.
# Open MPI (openmpi-bin, libopenmpi-dev) is installed too: CMake builds the MPI sweep
# distribution when it finds it (docs/sweeps.md); the build works without it. Graphviz
# (graphviz: the `dot` and `neato` programs) draws `topo --svg/--png` pictures (docs/cli.md);
# headless Chromium loads the browser view of a run (`run --trace`) in tests/cli/trace.sh.
set -eu
pkgs="gcc make cmake pkg-config librandom123-dev libgsl-dev libinih-dev libcmocka-dev gnuplot-nox python3 groff-base man-db"
pkgs="$pkgs openmpi-bin libopenmpi-dev graphviz chromium"
missing=""
for p in $pkgs; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
  echo "setup: installing$missing" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends $missing >&2
else
  echo "setup: missing Debian packages; run as root:" >&2
  echo "  apt-get install -y$missing" >&2
  exit 2
fi
