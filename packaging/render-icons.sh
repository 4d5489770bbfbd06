#!/usr/bin/env bash
# Renders the PNG sizes of the application icon from the scalable SVG, into the hicolor tree
# under resources/icons. Run it after editing the SVG and keep the PNGs with the source (they
# are installed as they are, so a package build does not need librsvg).
# Needs rsvg-convert (apt-get install librsvg2-bin).
set -euo pipefail
cd "$(dirname "$0")/.."
id=io.github.comet_explorer.CometExplorer
svg=resources/icons/hicolor/scalable/apps/$id.svg
command -v rsvg-convert >/dev/null || { echo "render-icons: needs rsvg-convert (apt-get install librsvg2-bin)" >&2; exit 1; }
for s in 16 32 48 64 128 256; do
  out=resources/icons/hicolor/${s}x${s}/apps/$id.png
  mkdir -p "$(dirname "$out")"
  rsvg-convert --width "$s" --height "$s" --format png "$svg" --output "$out"
  echo "render-icons: $out"
done
