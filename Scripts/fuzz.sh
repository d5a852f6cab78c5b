#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ (a separate package that depends on
# this one by path, so `swift test` never builds them) and runs each one.
#
#   Scripts/fuzz.sh                     build, then run every target for FUZZ_SECONDS (600)
#   Scripts/fuzz.sh FuzzRequestItem     one target
#   FUZZ_SECONDS=60 FUZZ_JOBS=2 Scripts/fuzz.sh
#
# Targets, what we are given: FuzzRequestItem (the CLI's item parser),
# FuzzFormEncoder (form and query encoders), FuzzHeaderValidation (the
# builder's HTTPField validation), FuzzRawHTTPRequest (the HTTP/1.1 serializer
# fed random request descriptions), FuzzRawJSON (the JSON checker of `:=`
# values and raw JSON bodies). What a server answers: FuzzS3XML (S3's XML
# replies and ListParts), FuzzResumableHeaders (Upload-Offset, Upload-Length,
# tus's OPTIONS fields and checksum choice, tus metadata), FuzzRetryAfter
# (Retry-After and HTTP dates), FuzzRedirectLocation (a redirect's Location),
# FuzzLogRedaction (the logging middleware hiding credentials in what it logs),
# FuzzJSONPrettyPrinter (a response body through the uploader's --pretty).
# What sits on disk: FuzzAWSConfigFile (~/.aws/config and credentials),
# FuzzResumeState (saved resumable and S3 multipart states), FuzzLegacyState
# (state files of earlier versions, rewritten in today's form),
# FuzzPresignedPost (boto3's presigned-POST JSON), FuzzNetrc (~/.netrc as
# curl reads it), FuzzCookies (cookie jars in curl's format and servers'
# Set-Cookie fields, through RequestBuilder's cookie engine), FuzzSessionFile
# (--session's files, ours and HTTPie's). What we make: FuzzDeflateWalk (the
# walker that joins libdeflate's gzip blocks, fed libdeflate's data at every
# level and arbitrary bytes).
# Seeds are in Fuzz/Corpus/<target>; new inputs go to .build-fuzz/corpus/<target>
# and crashes to .build-fuzz/crashes/<target>. Each run's log ends with
# libFuzzer's final stats (exec/s); the summary prints them with the crash count.
# Exit status: 0 when no target crashed.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work="$root/.build-fuzz"
seconds=${FUZZ_SECONDS:-600}
jobs=${FUZZ_JOBS:-2}
all=(FuzzRequestItem FuzzFormEncoder FuzzHeaderValidation FuzzRawHTTPRequest FuzzRawJSON
    FuzzS3XML FuzzResumableHeaders FuzzRetryAfter FuzzRedirectLocation
    FuzzLogRedaction FuzzJSONPrettyPrinter FuzzAWSConfigFile FuzzResumeState FuzzLegacyState
    FuzzPresignedPost FuzzNetrc FuzzCookies FuzzSessionFile FuzzDeflateWalk)
targets=("${@:-${all[@]}}")
read -r -a targets <<<"${targets[*]}"

mkdir -p "$work"
echo "== building fuzz targets (release, -sanitize=fuzzer,address)"
# SwiftPM keeps the build plan of a path dependency (this package, seen from
# Fuzz/) until a manifest changes, so a source file added here since the last
# fuzz build would be missing; dropping the plan makes it scan again (the
# compiled objects stay, so the build is still incremental).
rm -f "$work/build/release.yaml" "$work/build/release/description.json"
# -enable-testing lets the targets reach the parsers the libraries keep
# internal (`@testable import`), so each parser is fuzzed directly.
(cd Fuzz && nice -n "${FUZZ_NICE:-10}" swift build -c release --scratch-path "$work/build" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -enable-testing) >"$work/build.log" 2>&1 || {
    tail -40 "$work/build.log" >&2
    echo "error: the fuzz build failed (log: $work/build.log)" >&2
    exit 2
}
bin="$work/build/release"

# Swift's crash backtracer reads the dying process's memory, which
# AddressSanitizer then reports as a second, bogus error after every finding.
export SWIFT_BACKTRACE=enable=no

run_target() {
    local target=$1
    mkdir -p "$work/corpus/$target" "$work/crashes/$target"
    # A crash does not stop the run: -fork mode records it and carries on, so
    # one bug does not hide the next.
    "$bin/$target" "$work/corpus/$target" "$root/Fuzz/Corpus/$target" \
        -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
        -fork=1 -ignore_crashes=1 -print_final_stats=1 \
        -artifact_prefix="$work/crashes/$target/" >"$work/$target.log" 2>&1
}

running=0
for target in "${targets[@]}"; do
    echo "== $target for ${seconds}s (log: $work/$target.log)"
    run_target "$target" &
    running=$((running + 1))
    if ((running >= jobs)); then wait -n; running=$((running - 1)); fi
done
wait

status=0
printf '\n%-22s %10s %8s %7s %7s %7s %8s\n' target "runs" "exec/s" cov ft corpus crashes
for target in "${targets[@]}"; do
    log="$work/$target.log"
    runs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
    # The average over the run: runs / seconds of the last status line (each
    # line's own exec/s is one fork job's, which a busy machine can starve).
    seconds_run=$(grep -oE 'time: [0-9]+s' "$log" | tail -1 | grep -oE '[0-9]+')
    speed=$(awk -v r="${runs:-0}" -v t="${seconds_run:-0}" 'BEGIN { if (t > 0) printf "%d", r / t }')
    crashes=$(find "$work/crashes/$target" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
    # Coverage (edges, features) and corpus size as the last status line has them.
    last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1)
    cov=$(grep -oE 'cov: [0-9]+' <<<"$last" | grep -oE '[0-9]+')
    ft=$(grep -oE 'ft: [0-9]+' <<<"$last" | grep -oE '[0-9]+')
    corpus=$(find "$work/corpus/$target" -type f | wc -l)
    printf '%-22s %10s %8s %7s %7s %7s %8s\n' "$target" "${runs:-?}" "${speed:-?}" "${cov:-?}" "${ft:-?}" "$corpus" "$crashes"
    ((crashes == 0)) || status=1
done
exit $status
