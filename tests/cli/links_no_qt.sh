#!/bin/sh
# comet-cli must not link Qt (issue 16): fails when ldd lists any Qt library for the program $1.
set -eu
deps=$(ldd "$1")
if printf '%s\n' "$deps" | grep -i 'libQt'; then
  echo "$1 links Qt (above)" >&2
  exit 1
fi
echo "$1: $(printf '%s\n' "$deps" | wc -l) shared libraries, none of Qt"
