#!/usr/bin/env bash
# Installs what xsim needs on Debian (when missing), then configures, builds and installs
# xsim into ./install. Used by the README's two commands and by CI. Idempotent.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${XSIM_BUILD_DIR:-$here/build}
prefix=${XSIM_PREFIX:-$here/install}

packages=(g++ gfortran python3 cmake ninja-build pkg-config libopenmpi-dev openmpi-bin libboost-context-dev libhwloc-dev
          libtomlplusplus-dev libgtest-dev libbenchmark-dev python3-numpy python3-matplotlib python3-mpi4py
          libopen-trace-format2-dev otf2-tools libgc-dev libhdf5-openmpi-dev libcoarrays-openmpi-dev libiberty-dev python3-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null
cmake --build "$build" -j"$(nproc)"
cmake --install "$build" >/dev/null
echo "bootstrap: xsim built in $build and installed in $prefix"
