#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer, then under ThreadSanitizer.
# Each sanitizer builds into its own scratch folder (git-ignored) so the normal
# .build stays warm. Too slow for every CI run; call it nightly or before a release.
#
#   Scripts/sanitize.sh            both sanitizers
#   Scripts/sanitize.sh address    one of them (address | thread)
#   SANITIZE_FILTER=Suite Scripts/sanitize.sh   a subset of the tests
#
# Logs go to .build-asan/sanitize.log and .build-tsan/sanitize.log, with the
# sanitizer reports of every process (subprocesses included) at the end.
# Exit status: 0 when every requested run passed with no sanitizer report.
set -uo pipefail
cd "$(dirname "$0")/.."

suppressions="$PWD/Scripts/sanitizer-suppressions"
# halt_on_error keeps the first report readable; detect_leaks is off because
# Swift's runtime metadata caches look like leaks to LeakSanitizer.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:halt_on_error=1:abort_on_error=0:print_summary=1}"
# Swift's crash backtracer reads the dying process's memory, which
# AddressSanitizer then reports as a second, bogus error after a real one.
export SWIFT_BACKTRACE=enable=no
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=0:second_deadlock_stack=1:suppressions=$suppressions/tsan.supp}"
# The tests' wall-clock budgets (TestSupport's TestTime) ten times longer:
# instrumented code runs several times slower, and with every test in
# parallel on a few cores a test can wait tens of seconds for a thread.
export TEST_TIME_SCALE="${TEST_TIME_SCALE:-10}"

sanitizers=("${@:-address thread}")
read -r -a sanitizers <<<"${sanitizers[*]}"
status=0
for sanitizer in "${sanitizers[@]}"; do
    case "$sanitizer" in
        address) scratch=.build-asan ;;
        thread) scratch=.build-tsan ;;
        *) echo "error: unknown sanitizer '$sanitizer' (address or thread)" >&2; exit 2 ;;
    esac
    mkdir -p "$scratch"
    log="$scratch/sanitize.log"
    filter=()
    [[ -n "${SANITIZE_FILTER:-}" ]] && filter=(--filter "$SANITIZE_FILTER")
    # Reports go to files, one per process, so those of the uploader
    # subprocesses the tests run (their standard error is captured by the
    # tests) are counted too; they are appended to the log afterwards.
    report_dir="$PWD/$scratch/sanitizer-reports"
    rm -rf "$report_dir" && mkdir -p "$report_dir"
    echo "== swift test --sanitize=$sanitizer (log: $log)"
    started=$SECONDS
    ASAN_OPTIONS="$ASAN_OPTIONS:log_path=$report_dir/report" TSAN_OPTIONS="$TSAN_OPTIONS:log_path=$report_dir/report" \
        swift test --sanitize="$sanitizer" --scratch-path "$scratch" "${filter[@]}" >"$log" 2>&1
    result=$?
    # The build's time, then the whole run's, and each library's verdict
    # (XCTest's line, then Swift Testing's with its test count).
    grep -E "^Build complete" "$log"
    echo "   wall time $((SECONDS - started)) s"
    grep -E "^(Test Suite 'All tests'|Executed [0-9]+ tests|✔ Test run with|✘ Test run with)" "$log" | sed 's/^/   /'
    for report in "$report_dir"/report.*; do
        [[ -e "$report" ]] || continue
        echo "== sanitizer report of process ${report##*.}"
        cat "$report"
    done >>"$log"
    reports=$(grep -cE "^(==[0-9]+==ERROR: AddressSanitizer|WARNING: ThreadSanitizer|SUMMARY: (Address|Thread)Sanitizer)" "$log")
    echo "   exit $result, sanitizer report lines: $reports"
    grep -E "SUMMARY: (Address|Thread)Sanitizer" "$log" | sort | uniq -c
    if ((result != 0 || reports != 0)); then
        status=1
        echo "   FAILED: see $log" >&2
    fi
done
exit $status
