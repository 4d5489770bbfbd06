#!/usr/bin/env bash
# Builds the libFuzzer targets (CMake preset "fuzz": clang, ASan + UBSan) and runs each one for
# SECONDS_PER_TARGET seconds (default 30) on a copy of its seed corpus (tests/fuzz/corpus/<target>).
# Prints the number of executions per target; exits 1 on any crash, leak, timeout or failed
# check, 2 when clang or libFuzzer is missing or the build fails. docs/fuzzing.md has the details.
#
#   tests/fuzz/run.sh            # 30 s per target
#   tests/fuzz/run.sh 15         # what .ci/run runs
#   FUZZ_TARGETS="fuzz_sweep fuzz_preset" tests/fuzz/run.sh 600
#
# Environment: FUZZ_TARGETS (default: all seven), FUZZ_WORK_DIR (default build/fuzz/run; each
# target's grown corpus, log and crash artifacts go to FUZZ_WORK_DIR/<target>), FUZZ_ARGS (extra
# libFuzzer flags, e.g. "-use_value_profile=1"; not -jobs, whose output goes to other files).
set -euo pipefail

seconds="${1:-30}"
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 [SECONDS_PER_TARGET]   (a positive whole number of seconds; default 30)" >&2
  exit 2
fi

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
targets=(${FUZZ_TARGETS:-fuzz_scenario fuzz_sweep fuzz_preset fuzz_import_calculon fuzz_import_hf fuzz_validation fuzz_op_table})
work="${FUZZ_WORK_DIR:-$root/build/fuzz/run}"
bin="$root/build/fuzz/tests/fuzz"

# ---- clang and libFuzzer ------------------------------------------------------------------
if ! command -v clang++ >/dev/null 2>&1; then
  echo "fuzz: clang++ not found. The fuzz targets need clang with libFuzzer; on Debian 12:" >&2
  echo "fuzz:   sudo apt-get install --no-install-recommends clang libclang-rt-14-dev" >&2
  exit 2
fi
probe_dir="$(mktemp -d)"
trap 'rm -rf "$probe_dir"' EXIT
printf '#include <cstddef>\n#include <cstdint>\nextern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }\n' \
  > "$probe_dir/probe.cpp"
if ! clang++ -fsanitize=fuzzer,address,undefined "$probe_dir/probe.cpp" -o "$probe_dir/probe" 2> "$probe_dir/err"; then
  echo "fuzz: clang++ cannot link -fsanitize=fuzzer (libFuzzer runtime missing?); on Debian 12:" >&2
  echo "fuzz:   sudo apt-get install --no-install-recommends libclang-rt-14-dev" >&2
  sed 's/^/fuzz:   /' "$probe_dir/err" | head -5 >&2
  exit 2
fi

# ---- build --------------------------------------------------------------------------------
cd "$root"
start=$SECONDS
if ! { cmake --preset fuzz >/dev/null && cmake --build --preset fuzz; } > "$probe_dir/build.log" 2>&1; then
  echo "fuzz: the build failed:" >&2
  tail -40 "$probe_dir/build.log" >&2
  exit 2
fi
echo "fuzz: built ${#targets[@]} targets in $((SECONDS - start)) s (build/fuzz)"

# ---- run ----------------------------------------------------------------------------------
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
failed=()
total_runs=0
printf '%-22s %12s %8s %10s  %s\n' target executions seconds corpus result
for t in "${targets[@]}"; do
  if [ ! -x "$bin/$t" ]; then
    echo "fuzz: unknown target '$t' (no $bin/$t)" >&2
    exit 2
  fi
  dir="$work/$t"
  rm -rf "$dir"
  mkdir -p "$dir/artifacts"
  cp -r "$here/corpus/$t" "$dir/corpus"
  seeds=$(find "$dir/corpus" -type f | wc -l)
  rc=0
  # setsid: no controlling terminal, so no input can make a parser wait on /dev/tty.
  # The outer timeout only guards against a fuzzer that does not stop by itself.
  timeout --kill-after=30 $((seconds + 300)) setsid "$bin/$t" \
    -dict="$here/json.dict" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$dir/artifacts/" ${FUZZ_ARGS:-} "$dir/corpus" \
    < /dev/null > "$dir/log.txt" 2>&1 || rc=$?
  runs=$(sed -n 's/^Done \([0-9][0-9]*\) runs in .*/\1/p' "$dir/log.txt" | tail -1)
  grown=$(find "$dir/corpus" -type f | wc -l)
  artifacts=$(find "$dir/artifacts" -type f | wc -l)
  if [ "$rc" -eq 0 ] && [ -n "$runs" ] && [ "$artifacts" -eq 0 ]; then
    result="ok, no crash"
    total_runs=$((total_runs + runs))
  else
    result="FAILED (exit $rc, $artifacts artifacts in $dir/artifacts; log $dir/log.txt)"
    failed+=("$t")
  fi
  printf '%-22s %12s %8s %10s  %s\n' "$t" "${runs:-?}" "$seconds" "$seeds->$grown" "$result"
done

if [ ${#failed[@]} -ne 0 ]; then
  for t in "${failed[@]}"; do
    echo
    echo "==== $t: end of $work/$t/log.txt"
    grep -v '^#[0-9]' "$work/$t/log.txt" | tail -40
  done
  echo
  echo "fuzz: FAILED: ${failed[*]}. Reproduce with: build/fuzz/tests/fuzz/<target> <artifact>" >&2
  exit 1
fi
echo "fuzz: ${#targets[@]} targets, $total_runs executions in total, no crash, leak or timeout ($((SECONDS - start)) s with the build)"
