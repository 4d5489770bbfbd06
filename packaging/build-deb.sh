#!/usr/bin/env bash
# Builds the release tree and the Debian package in build/release (CMake preset `release`:
# Release, CMAKE_INSTALL_PREFIX=/usr; tests and benchmarks off) and prints the .deb's path on
# the last line. Extra arguments go to the configure step, e.g. -DCOMET_LTO=OFF.
#   packaging/build-deb.sh && sudo apt-get install ./build/release/comet-explorer_*.deb
# tests/packaging/check_deb.sh checks such a package end to end (docs/packaging.md).
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in cmake ninja cpack dpkg-shlibdeps file; do
  command -v "$tool" >/dev/null 2>&1 || { echo "build-deb: '$tool' is missing: run packaging/install-deps.sh" >&2; exit 1; }
done
cmake --preset release -DCOMET_BUILD_TESTS=OFF -DCOMET_BUILD_BENCHMARKS=OFF "$@" >/dev/null
cmake --build --preset release
rm -f build/release/comet-explorer_*.deb
(cd build/release && cpack -G DEB)
debs=(build/release/comet-explorer_*.deb)
[ -f "${debs[0]}" ] || { echo "build-deb: cpack wrote no build/release/comet-explorer_*.deb" >&2; exit 1; }
dpkg-deb -f "${debs[0]}" Package Version Architecture Depends
echo "$(pwd)/${debs[0]}"
