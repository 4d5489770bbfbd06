#!/usr/bin/env bash
# End-to-end check of the Debian package (CTest test `package_deb`, docs/packaging.md):
#
#  1. copies the source tree (what git would commit, untracked files included) to WORK/src and
#     builds a Release tree with CMAKE_INSTALL_PREFIX=/usr in WORK/build, then `cpack -G DEB`;
#  2. checks the control data and the file list, and validates the installed files:
#     desktop-file-validate, appstreamcli validate --no-net (and validate-tree), the icon sizes,
#     the MIME type (update-mime-database), the manual pages (every command of `comet-cli --help`
#     has a section in comet-cli.1), the changelog version, and lintian errors when lintian is there;
#  3. extracts the .deb with dpkg-deb -x into WORK/root and runs comet-cli (--version, eval,
#     validate, compare, sweep, report) and `comet-explorer --screenshot` from there. The copy's
#     presets/ folder (the build's fallback) is renamed away first and COMET_PRESETS_DIR is unset,
#     so the programs must find /usr/share/comet-explorer/presets relative to their own executable;
#  4. with COMET_PACKAGE_INSTALL=1 (root, on a disposable machine such as CI only): installs the
#     .deb with `apt-get install ./comet-explorer_*.deb`, runs the same checks on /usr/bin, and
#     removes it again with `apt-get remove`.
#
# Usage: tests/packaging/check_deb.sh [--work DIR] [--keep]
#   --work DIR  build and check in DIR (kept, so a second run is incremental); default: a
#               temporary directory that is deleted afterwards unless --keep is given.
# Environment: COMET_PACKAGE_INSTALL=1 (see 4), COMET_PACKAGE_CMAKE_ARGS (extra configure
# arguments, e.g. -DCOMET_LTO=OFF). Needs the packages of packaging/install-deps.sh.
set -euo pipefail

src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work="" keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --work) work="${2:?--work needs a DIR}"; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,24p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "check_deb: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
if [ -z "$work" ]; then
  work=$(mktemp -d "${TMPDIR:-/tmp}/comet-package-check.XXXXXX")
  [ "$keep" = 1 ] || cleanup_work=1
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)

pkg=comet-explorer
app_id=io.github.comet_explorer.CometExplorer
t_start=$SECONDS
step() { printf '\n== [%4ds] %s\n' $((SECONDS - t_start)) "$*"; }
fail() { echo "check_deb: FAIL: $*" >&2; exit 1; }
need() { command -v "$1" >/dev/null 2>&1 || fail "'$1' is missing: run packaging/install-deps.sh ($2)"; }
# expect_match TEXT REGEX WHAT
expect_match() { grep -Eq -- "$2" <<<"$1" || { printf '%s\n' "$1" | tail -20 >&2; fail "$3: output does not match /$2/"; }; }

need cmake cmake; need ninja ninja-build; need cpack cmake; need dpkg-deb dpkg
need dpkg-shlibdeps dpkg-dev; need file file; need desktop-file-validate desktop-file-utils
need appstreamcli appstream; need update-mime-database shared-mime-info; need man man-db; need col bsdextrautils

hidden_presets=""
installed=0
on_exit() {
  local rc=$?
  if [ -n "$hidden_presets" ] && [ -d "$hidden_presets.hidden" ]; then mv "$hidden_presets.hidden" "$hidden_presets"; fi
  if [ "$installed" = 1 ]; then
    echo "check_deb: removing the installed $pkg" >&2
    DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq "$pkg" >/dev/null 2>&1 || true
  fi
  if [ "${cleanup_work:-0}" = 1 ]; then rm -rf "$work"; fi
  [ $rc -eq 0 ] && echo "check_deb: PASS ($((SECONDS - t_start)) s)" || echo "check_deb: FAIL (exit $rc, $((SECONDS - t_start)) s; work dir $work)" >&2
}
trap on_exit EXIT

# ---------------------------------------------------------------------------------------------
step "1. copy the sources to $work/src"
rm -rf "$work/src"
mkdir -p "$work/src"
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  # Tracked and untracked-but-not-ignored files that exist (tar keeps their times, so --work
  # reruns rebuild only what changed).
  (cd "$src" && git ls-files -z --cached --others --exclude-standard |
     while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
     tar --null -T - -cf -) | tar -C "$work/src" -xf -
else
  tar -C "$src" --exclude=./build --exclude=./out --exclude=./.git -cf - . | tar -C "$work/src" -xf -
fi
[ -f "$work/src/CMakeLists.txt" ] || fail "copying the sources to $work/src"

step "2. configure and build a Release tree (prefix /usr) in $work/build"
export CCACHE_BASEDIR="$work"   # the same compiler command lines in any work dir: cache hits
# shellcheck disable=SC2086
cmake -S "$work/src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
      -DCOMET_BUILD_TESTS=OFF -DCOMET_BUILD_BENCHMARKS=OFF ${COMET_PACKAGE_CMAKE_ARGS:-} \
      >"$work/configure.log" 2>&1 || { tail -30 "$work/configure.log" >&2; fail "configure (log: $work/configure.log)"; }
t0=$SECONDS
cmake --build "$work/build" >"$work/build.log" 2>&1 || { grep -v '^\[' "$work/build.log" | tail -40 >&2; fail "build (log: $work/build.log)"; }
echo "built in $((SECONDS - t0)) s"
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$work/build/CMakeCache.txt")
[ -n "$version" ] || fail "no CMAKE_PROJECT_VERSION in the cache"

step "3. cpack -G DEB"
rm -f "$work/build/${pkg}"_*.deb
(cd "$work/build" && cpack -G DEB) >"$work/cpack.log" 2>&1 || { tail -30 "$work/cpack.log" >&2; fail "cpack (log: $work/cpack.log)"; }
debs=("$work/build/${pkg}_${version}_"*.deb)
[ -f "${debs[0]}" ] || fail "cpack wrote no ${pkg}_${version}_*.deb"
deb=${debs[0]}
echo "$deb ($(du -k "$deb" | cut -f1) KiB)"

step "4. control data and contents"
dpkg-deb -I "$deb"
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = "$pkg" ] || fail "Package is '$(field Package)'"
[ "$(field Version)" = "$version" ] || fail "Version is '$(field Version)', project version $version"
[ "$(field Section)" = "science" ] || fail "Section is '$(field Section)'"
depends=$(field Depends)
depends_names=$(tr ',' '\n' <<<"$depends" | sed 's/^ *//; s/ .*//')
for d in qt6-qpa-plugins libqt6core6 libqt6gui6 libqt6widgets6 libqt6charts6 libtbb12 libstdc++6; do
  grep -qxF "$d" <<<"$depends_names" || fail "Depends lacks $d: $depends"
done
contents=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|')
expected=(
  /usr/bin/comet-cli /usr/bin/comet-explorer
  /usr/share/comet-explorer/presets/scenarios/default.comet.json
  /usr/share/comet-explorer/presets/validation/megatron-narayanan-2021.json
  /usr/share/comet-explorer/presets/nodes/dgx-a100-80gb.json
  /usr/share/comet-explorer/presets/models/megatron-1t.json
  /usr/share/comet-explorer/presets/software/megatron-core-te-eager.json
  /usr/share/comet-explorer/presets/sweeps/hbm-vs-scaleout.sweep.json
  "/usr/share/applications/$app_id.desktop" "/usr/share/metainfo/$app_id.metainfo.xml"
  "/usr/share/mime/packages/$app_id.xml" "/usr/share/icons/hicolor/scalable/apps/$app_id.svg"
  /usr/share/man/man1/comet-cli.1.gz /usr/share/man/man1/comet-explorer.1.gz
  "/usr/share/doc/$pkg/copyright" "/usr/share/doc/$pkg/changelog.gz"
)
for s in 16 32 48 64 128 256; do expected+=("/usr/share/icons/hicolor/${s}x${s}/apps/$app_id.png"); done
for f in "${expected[@]}"; do grep -qxF "$f" <<<"$contents" || fail "the package lacks $f"; done
outside=$(grep -Ev '^/(usr/?|usr/(bin|share)(/.*)?)$' <<<"$contents" || true)
[ -z "$outside" ] || fail "files outside /usr/bin and /usr/share: $(head -3 <<<"$outside")"
echo "$(grep -vc '/$' <<<"$contents") files, all expected ones present"

step "5. extract with dpkg-deb -x and validate the installed files"
root="$work/root"
rm -rf "$root"
dpkg-deb -x "$deb" "$root"
desktop-file-validate "$root/usr/share/applications/$app_id.desktop" || fail "desktop-file-validate"
echo "desktop-file-validate: ok"
appstreamcli validate --no-net "$root/usr/share/metainfo/$app_id.metainfo.xml" || fail "appstreamcli validate"
appstreamcli validate-tree --no-net "$root" || fail "appstreamcli validate-tree"
for s in 16 32 48 64 128 256; do
  file "$root/usr/share/icons/hicolor/${s}x${s}/apps/$app_id.png" | grep -q "PNG image data, $s x $s," || fail "icon ${s}x${s} is not a $s x $s PNG"
done
echo "icons: scalable SVG and PNG 16..256 ok"
rm -rf "$work/mime" && mkdir -p "$work/mime/packages"
cp "$root/usr/share/mime/packages/$app_id.xml" "$work/mime/packages/"
mime_out=$(update-mime-database "$work/mime" 2>&1) || { echo "$mime_out" >&2; fail "update-mime-database"; }
grep -q '^60:application/x-comet-scenario:\*\.comet\.json$' "$work/mime/globs2" || fail "MIME glob *.comet.json missing in globs2"
echo "MIME type application/x-comet-scenario: ok"
for page in comet-cli comet-explorer; do
  warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$root/usr/share/man/man1/$page.1.gz" 2>&1 >/dev/null) || fail "man $page"
  [ -z "$warnings" ] || fail "man $page.1 warns: $warnings"
done
man_text=$(MANWIDTH=200 man -l "$root/usr/share/man/man1/comet-cli.1.gz" 2>/dev/null | col -b)
commands=$("$root/usr/bin/comet-cli" --help | awk '/^Commands:/{on=1; next} on && /^  [a-z]/{print $1} on && /^$/{on=0}')
[ -n "$commands" ] || fail "no commands in comet-cli --help"
for c in $commands; do
  grep -Eq "^   $c( |$)" <<<"$man_text" || fail "comet-cli.1 has no section for the command '$c'"
done
grep -q 'COMMAND --help' <<<"$man_text" || fail "comet-cli.1 does not refer to 'comet-cli COMMAND --help'"
echo "manual pages: render without warnings; comet-cli.1 documents $(wc -w <<<"$commands") commands"
changelog_version=$(gzip -dc "$root/usr/share/doc/$pkg/changelog.gz" | sed -n '1s/^[^ ]* (\([^)]*\)).*/\1/p')
[ "$changelog_version" = "$version" ] || fail "packaging/changelog is for $changelog_version, the project is $version"
if command -v lintian >/dev/null 2>&1; then
  lintian_out=$(lintian --suppress-tags hardening-no-bindnow,hardening-no-fortify-functions "$deb" 2>&1 | grep -v '^running with root' || true)
  [ -z "$lintian_out" ] || echo "$lintian_out"
  grep -q '^E:' <<<"$lintian_out" && fail "lintian errors"
  echo "lintian: no errors"
else
  echo "lintian: not installed, skipped"
fi

# ---------------------------------------------------------------------------------------------
# The programs must find the packaged presets by themselves: hide the build's fallback (the
# copy's presets/, compiled in as the source presets dir) and run in a clean environment.
hidden_presets="$work/src/presets"
grep -aqF "$hidden_presets" "$root/usr/bin/comet-cli" ||
  echo "note: comet-cli does not embed $hidden_presets (no source-tree fallback to hide)"
mv "$hidden_presets" "$hidden_presets.hidden"

# run_programs PREFIX LABEL: PREFIX is where usr/ is ("" once installed).
run_programs() {
  local prefix=$1 label=$2 home="$work/home-$2" out rc
  local bin="$prefix/usr/bin" presets="$prefix/usr/share/comet-explorer/presets"
  rm -rf "$home" && mkdir -p "$home" && mkdir -m 0700 "$home/runtime"
  run() {
    env -u COMET_PRESETS_DIR -u COMET_USER_PRESETS_DIR -u DISPLAY -u WAYLAND_DISPLAY \
        HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_DATA_HOME="$home/.local/share" \
        XDG_CACHE_HOME="$home/.cache" XDG_RUNTIME_DIR="$home/runtime" QT_QPA_PLATFORM=offscreen "$@"
  }
  # check WHAT REGEX COMMAND...: exit status 0 and output matching REGEX
  check() {
    local what=$1 regex=$2; shift 2
    out=$(run "$@" 2>&1) && rc=0 || rc=$?
    [ $rc -eq 0 ] || { printf '%s\n' "$out" | tail -20 >&2; fail "$label: $what exited $rc"; }
    expect_match "$out" "$regex" "$label: $what"
    echo "$label: $what: ok"
  }
  check "comet-cli --version" "^comet-cli $version\$" "$bin/comet-cli" --version
  check "comet-cli eval default.comet.json" "Iteration time" "$bin/comet-cli" eval "$presets/scenarios/default.comet.json"
  check "comet-cli validate (Narayanan 2021)" "10 cases: mean absolute error" "$bin/comet-cli" validate "$presets/validation/megatron-narayanan-2021.json" --max-mean 10 --max-worst 12
  check "comet-cli validate (every shipped table)" "All tables: [0-9]+ cases: mean absolute error" "$bin/comet-cli" validate --max-mean 24 --max-worst 62 --max-inexpressible 12
  check "comet-cli compare default.comet.json" "1\.00x" "$bin/comet-cli" compare "$presets/scenarios/default.comet.json"
  check "comet-cli sweep hbm-vs-scaleout.sweep.json" "Legend" "$bin/comet-cli" sweep "$presets/sweeps/hbm-vs-scaleout.sweep.json" --quiet
  check "comet-cli report --pdf" "wrote .*report-$label.pdf" "$bin/comet-cli" report "$presets/scenarios/default.comet.json" --pdf "$work/report-$label.pdf" --steps 5
  head -c 5 "$work/report-$label.pdf" | grep -q '^%PDF-' || fail "$label: report-$label.pdf is not a PDF"
  check "comet-explorer --version" "$version" "$bin/comet-explorer" --version
  local shot="$work/screenshot-$label.png"
  rm -f "$shot"
  check "comet-explorer --screenshot (bundled default scenario)" "" "$bin/comet-explorer" --screenshot "$shot"
  [ -s "$shot" ] || fail "$label: the screenshot $shot is missing or empty"
  file "$shot" | grep -q "PNG image data, 1600 x 1000" || fail "$label: $shot: $(file -b "$shot")"
  echo "$label: $shot: $(file -b "$shot"), $(du -k "$shot" | cut -f1) KiB"
}

step "6. run the extracted programs from $root (presets found relative to the executable)"
run_programs "$root" extracted

# ---------------------------------------------------------------------------------------------
if [ "${COMET_PACKAGE_INSTALL:-0}" = 1 ]; then
  step "7. apt-get install the .deb, run /usr/bin/comet-cli and comet-explorer, apt-get remove"
  [ "$(id -u)" -eq 0 ] || fail "COMET_PACKAGE_INSTALL=1 needs root"
  need apt-get apt
  if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    fail "$pkg is already installed on this machine; remove it first (this check installs and removes it)"
  fi
  t0=$SECONDS
  installed=1
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$deb" >"$work/apt-install.log" 2>&1 ||
    { tail -30 "$work/apt-install.log" >&2; fail "apt-get install $deb (log: $work/apt-install.log)"; }
  echo "apt-get install: $(grep -Eo '^[0-9]+ upgraded, [0-9]+ newly installed' "$work/apt-install.log" || true) ($((SECONDS - t0)) s)"
  dpkg-query -W -f='${Status} ${Version}\n' "$pkg" | grep -q "install ok installed $version" || fail "dpkg does not list $pkg $version as installed"
  [ "$(command -v comet-cli)" = /usr/bin/comet-cli ] || fail "comet-cli is not /usr/bin/comet-cli on PATH"
  desktop-file-validate "/usr/share/applications/$app_id.desktop" || fail "desktop-file-validate (installed)"
  run_programs "" installed
  DEBIAN_FRONTEND=noninteractive apt-get remove -y -q "$pkg" >"$work/apt-remove.log" 2>&1 ||
    { tail -20 "$work/apt-remove.log" >&2; fail "apt-get remove $pkg"; }
  installed=0
  if [ -e /usr/bin/comet-cli ] || [ -e /usr/bin/comet-explorer ]; then fail "apt-get remove left the programs in /usr/bin"; fi
  [ ! -e /usr/share/comet-explorer ] || fail "apt-get remove left /usr/share/comet-explorer"
  echo "apt-get remove: ok, /usr/bin/comet-cli, /usr/bin/comet-explorer and /usr/share/comet-explorer are gone"
else
  step "7. skipped: set COMET_PACKAGE_INSTALL=1 (as root, on a disposable machine) to apt-get install and remove the .deb"
fi
