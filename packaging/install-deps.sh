#!/usr/bin/env bash
# Installs the Debian 12 packages that building, testing and running COMET Explorer need.
# Idempotent: when everything is present it prints one line and changes nothing.
set -euo pipefail

packages=(
  # toolchain
  g++ cmake ninja-build pkg-config
  # libraries
  qt6-base-dev libqt6opengl6-dev qt6-charts-dev qt6-svg-dev libtbb-dev nlohmann-json3-dev libcli11-dev libbenchmark-dev
  # headless GUI runs and readable text in screenshots
  xvfb xauth fonts-dejavu-core
  # tests rasterise exported PDFs (pdftoppm, pdftotext, pdfinfo)
  poppler-utils
  # packaging (.deb via CPack needs file and dpkg-shlibdeps)
  file dpkg-dev
  # package validation in tests/packaging/check_deb.sh: desktop-file-validate, appstreamcli,
  # update-mime-database, and man + col to render the manual pages
  desktop-file-utils appstream shared-mime-info man-db bsdextrautils
  # fuzzing the parsers (tests/fuzz/run.sh): clang with libFuzzer
  clang libclang-rt-14-dev
  # style and static analysis of a change (.ci/lint): clang-format, clang-tidy, clazy
  clang-format clang-tidy clazy
)
# libqt6opengl6-dev is only a Recommends of qt6-base-dev, but Qt6Charts' CMake config needs it.

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
