#!/usr/bin/env bash
# Measures swift-http-body beside its peers on this machine, in one run, and
# prints each figure with the peer's, the ratio and whether the goal is met.
#
#     Benchmarks/compare.sh
#
# Builds what it needs in release (the root package's uploader, upload-form and
# sink-server, this package's body-bench and multipartkit-peer; with cc, the
# sendfile(2) floor of floor/sendfile-upload.c), generates the inputs in a
# temporary directory (deleted at the end), and stops the sink server on exit.
# Wall time comes from bash's microsecond clock ($EPOCHREALTIME), peak RSS from
# `/usr/bin/time -v`. Each throughput figure is the best of BENCH_RUNS runs
# (3), peers and ours interleaved, so a neighbour's burst of work does not
# decide a ratio; start-up is the median of BENCH_STARTUP_RUNS (21) runs of
# each, interleaved. Sizes: BENCH_FILE_MIB (1024), BENCH_GZIP_MIB (256),
# BENCH_MIXED_MIB (128), BENCH_SNIFF_FILES (10000, also the files of case 6c),
# BENCH_FIELDS (100000, also the number of command-line items in case 9),
# BENCH_REAL_FILES (3000: the real tree of cases 5b and 6e, sampled from
# /usr/share and Python's standard library as they are on disk).
# Exits with status 1 when a goal is missed, after printing the whole table.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
runs=${BENCH_RUNS:-3}
file_mib=${BENCH_FILE_MIB:-1024}
gzip_mib=${BENCH_GZIP_MIB:-256}
mixed_mib=${BENCH_MIXED_MIB:-128}
sniff_files=${BENCH_SNIFF_FILES:-10000}
fields=${BENCH_FIELDS:-100000}
startup_runs=${BENCH_STARTUP_RUNS:-21}
real_files=${BENCH_REAL_FILES:-3000}

fail() { echo "compare.sh: $*" >&2; exit 1; }

for tool in swift curl gzip file cat awk sort paste; do
    command -v "$tool" > /dev/null || fail "'$tool' is required but not installed"
done
[[ -x /usr/bin/time ]] || fail "/usr/bin/time (GNU time) is required for peak RSS but not installed"
[[ -n "${EPOCHREALTIME:-}" ]] || fail "bash 5 or later is required (for \$EPOCHREALTIME)"

work=$(mktemp -d "${TMPDIR:-/tmp}/http-body-compare.XXXXXX")
server_pid=""
cleanup() {
    for pid in $server_pid ${resumable_pid:-}; do kill "$pid" 2> /dev/null || true; wait "$pid" 2> /dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# MARK: Build

echo "Building in release (the first build takes several minutes)..." >&2
# The uploader is built as the README says to install it, with the Swift
# runtime linked in; sink-server cannot be (it uses the test
# support library, and swift-testing has no static build), so it comes first.
swift build -c release --package-path "$root" --product sink-server > "$work/build.log" 2>&1 ||
    { cat "$work/build.log" >&2; fail "building sink-server failed"; }
# The IETF resumable-upload test server (swift-nio-extras' NIOResumableUpload).
swift build -c release --package-path "$root" --product resumable-upload-server > "$work/build.log" 2>&1 ||
    { cat "$work/build.log" >&2; fail "building resumable-upload-server failed"; }
# upload-form is built as a user's own program would be, without the
# uploader's linker flags.
swift build -c release --static-swift-stdlib --package-path "$root" --product upload-form > "$work/build.log" 2>&1 ||
    { cat "$work/build.log" >&2; fail "building upload-form failed"; }
# The uploader as the README installs it, from its own build folder (see
# Scripts/build-uploader.sh).
uploader=$("$root/Scripts/build-uploader.sh" 2> "$work/build.log") ||
    { cat "$work/build.log" >&2; fail "building uploader failed"; }
# The benchmark programs link the Swift runtime in, as the uploader does: a
# 50 ms figure then holds no loading of Swift's shared libraries (about 2 ms).
for product in body-bench multipartkit-peer; do
    swift build -c release --static-swift-stdlib --package-path "$here" --product "$product" > "$work/build.log" 2>&1 ||
        { cat "$work/build.log" >&2; fail "building $product failed"; }
done
bin=$(swift build -c release --static-swift-stdlib --package-path "$root" --show-bin-path)
server_bin=$(swift build -c release --package-path "$root" --show-bin-path)
bench_bin=$(swift build -c release --static-swift-stdlib --package-path "$here" --show-bin-path)

# MARK: Measuring

# measure OUT CMD...: runs CMD once with standard output to OUT; sets WALL
# (seconds), CPU (user + system seconds) and RSS (KiB).
measure() {
    local out=$1
    shift
    local start=$EPOCHREALTIME
    /usr/bin/time -v -o "$work/time.txt" "$@" > "$out" || fail "'$*' failed"
    local end=$EPOCHREALTIME
    WALL=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f", b - a }')
    RSS=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/time.txt")
    CPU=$(awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { printf "%.2f", u + s }' "$work/time.txt")
}

# keep NAME: records the last measure as NAME_WALL, NAME_CPU and NAME_RSS
# when it is NAME's fastest so far (unset NAME_WALL to start afresh).
keep() {
    local wall_var="${1}_WALL"
    if [[ -z "${!wall_var:-}" ]] || awk -v a="$WALL" -v b="${!wall_var}" 'BEGIN { exit !(a < b) }'; then
        printf -v "${1}_WALL" '%s' "$WALL"
        printf -v "${1}_CPU" '%s' "$CPU"
        printf -v "${1}_RSS" '%s' "$RSS"
    fi
}

# duel PEER OURS: runs the functions peer_run and ours_run $runs times,
# alternately, keeping the fastest run of each as PEER_* and OURS_*.
duel() {
    unset "${1}_WALL" "${2}_WALL"
    for _ in $(seq "$runs"); do
        peer_run
        keep "$1"
        ours_run
        keep "$2"
    done
}

rows=()
met_count=0
missed_count=0

# row FIGURE OURS PEER RATIO GOAL MET: one line of the final table.
row() {
    rows+=("$(printf '%-32s | %-36s | %-36s | %-16s | %-30s | %s' "$@")")
    printf '%-32s | %-36s | %-36s | %-16s | %-30s | %s\n' "$@" >&2
    if [[ "$6" == yes ]]; then met_count=$((met_count + 1)); else missed_count=$((missed_count + 1)); fi
}

# Arithmetic helpers on decimal strings.
calc() { awk "BEGIN { printf \"%.${2:-2}f\", $1 }"; }
holds() { awk "BEGIN { exit !($1) }" && echo yes || echo NO; }
mib() { calc "$1 / 1024" 1; }  # KiB -> MiB
rate() { calc "$1 / 1048576 / $2" 0; }  # bytes, seconds -> MiB/s

size_of() { stat -c %s "$1"; }

# MARK: Inputs

echo "Generating inputs in $work..." >&2
"$bench_bin/body-bench" generate text "$work/large.txt" "$file_mib"
"$bench_bin/body-bench" generate text "$work/gzip.txt" "$gzip_mib"
# No extension, and a format the signature table does not know: only libmagic types it.
"$bench_bin/body-bench" generate elf "$work/payload" "$file_mib"
mkdir "$work/mixed" "$work/sniff"
"$bench_bin/body-bench" generate mixed "$work/mixed" "$mixed_mib" > "$work/mixed.list"
"$bench_bin/body-bench" generate sniff "$work/sniff" "$sniff_files" > "$work/sniff.list"
echo "$work/large.txt" > "$work/large.list"
echo "$work/gzip.txt" > "$work/gzip.list"
printf 'hello\n' > "$work/tiny.txt"
# The real tree (issue #29): files nobody generated, half sampled from
# /usr/share and half from Python's standard library (all from /usr/share
# when there is no python3), as they are on disk: text, scripts, XML,
# images, gzip, jars, gettext catalogues, compiled Python (Python's half
# first, in this run's order). A fixed seed picks
# the same sample from the same machine. Only paths that neither curl's
# `form =` syntax nor the uploader's items read specially (letters, digits,
# `._/+-`), and no empty file (file(1) calls it inode/x-empty).
sample_files() {  # sample_files DIR COUNT: paths of COUNT regular files under DIR
    find "$1" -type f -size +0 -readable 2> /dev/null | grep -E '^[A-Za-z0-9._/+-]+$' |
        awk 'BEGIN { srand(29) } { printf "%.9f\t%s\n", rand(), $0 }' | sort -k1,1 | head -n "$2" | cut -f2- || true
}
python_library=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])' 2> /dev/null || true)
: > "$work/real.list"
if [[ -n "$python_library" && -d "$python_library" ]]; then
    sample_files "$python_library" $((real_files / 2)) > "$work/real.list"
fi
# /usr/share makes up the rest, all of it without Python or with a small library.
sample_files /usr/share $((real_files - $(wc -l < "$work/real.list"))) >> "$work/real.list"
real_count=$(wc -l < "$work/real.list")
((real_count == real_files)) || fail "only $real_count real files found for the real tree (BENCH_REAL_FILES=$real_files)"
real_bytes=$(tr '\n' '\0' < "$work/real.list" | xargs -0 stat -c %s | awk '{ s += $1 } END { print s }')
# Arbitrary binary, which must stay application/octet-stream: random bytes
# of several lengths and all 256 byte values in order (libmagic alone calls
# the latter a TGA image).
mkdir "$work/binary"
for length in 256 1000 4096 8192 65536; do head -c "$length" /dev/urandom > "$work/binary/random-$length"; done
LC_ALL=C awk 'BEGIN { for (i = 0; i < 256; i++) printf "%c", i }' > "$work/binary/all-bytes"
ls -d "$work"/binary/* > "$work/binary.list"
large_bytes=$(size_of "$work/large.txt")
gzip_bytes=$(size_of "$work/gzip.txt")

# The inputs just written (about 2.5 GB) go to disk before anything is timed:
# the kernel's writeback of them would otherwise share the cores with the
# first rows (the file part row once read 0.20x cat there, and 1.0x alone).
sync
# Our programs are run as a program installed earlier runs: read back from
# disk, as curl, cat and the system's libraries are. A file the linker has
# just written stays in the page cache as it was written, which here leaves
# 1.5 MB more of the uploader's code resident in every run (the trivial GET
# peaked at 16.5-16.9 MiB so, 15.0-15.4 MiB read back). So, once `sync`
# has put them on disk, their pages are dropped from the cache, and the
# first run reads them back.
for program in "$uploader" "$bin/upload-form" "$bench_bin/body-bench" "$bench_bin/multipartkit-peer"; do
    dd if="$program" iflag=nocache count=0 status=none
done
echo "Machine: $(nproc) cores; load before measuring: $(uptime | sed 's/.*load average: //')" >&2
printf '%-32s | %-36s | %-36s | %-16s | %-30s | %s\n' figure ours peer ratio goal met >&2

# MARK: 1. A file part to a null sink

cat "$work/large.txt" > /dev/null  # warm the page cache for both
peer_run() { measure /dev/null cat "$work/large.txt"; }
ours_run() { measure /dev/null "$bench_bin/body-bench" files "$work/large.list"; }
duel CAT OURS
ratio=$(calc "$CAT_WALL / $OURS_WALL")
row "${file_mib} MiB file part -> /dev/null" \
    "$(rate "$large_bytes" "$OURS_WALL") MiB/s, cpu ${OURS_CPU} s, $(mib "$OURS_RSS") MiB" \
    "cat $(rate "$large_bytes" "$CAT_WALL") MiB/s, cpu ${CAT_CPU} s" \
    "${ratio}x" ">= 0.8x cat, RSS < 32 MiB" \
    "$(holds "$ratio >= 0.8 && $OURS_RSS < 32768")"

# MARK: 2-3. gzip beside pigz -6 with as many threads, on text and on a mixed upload

# Ours compresses with GzipOptions.defaultConcurrency threads (the cores, at
# most 4); pigz gets the same number. pigz compresses our uncompressed body
# (the same bytes), read from standard input so its header, like ours, holds
# no file name.
if ! command -v pigz > /dev/null; then
    echo "Installing pigz from Debian..." >&2
    { apt-get install -y pigz || { apt-get update && apt-get install -y pigz; }; } > "$work/apt.log" 2>&1 ||
        { cat "$work/apt.log" >&2; fail "'pigz' is required and could not be installed (apt-get install -y pigz)"; }
fi
gzip_threads=$(nproc)
((gzip_threads <= 4)) || gzip_threads=4

# pigz_row FIGURE LIST: ours on the multipart body of the files in LIST, beside
# pigz on that body; goal: 1.5 times as fast, at most as large.
pigz_row() {
    local list=$2  # seen by ours_run, which duel calls from here
    "$bench_bin/body-bench" files "$list" > "$work/pigz.body"
    local body_bytes
    body_bytes=$(size_of "$work/pigz.body")
    cat "$work/pigz.body" > /dev/null
    peer_run() { measure /dev/null pigz -6 -p "$gzip_threads" -c < "$work/pigz.body"; }
    ours_run() { measure /dev/null "$bench_bin/body-bench" files "$list" --gzip --gzip-concurrency "$gzip_threads"; }
    duel PIGZ OURS
    local peer_size our_size ratio size_ratio
    peer_size=$(pigz -6 -p "$gzip_threads" -c < "$work/pigz.body" | wc -c)
    our_size=$("$bench_bin/body-bench" files "$list" --gzip --gzip-concurrency "$gzip_threads" | wc -c)
    ratio=$(calc "$PIGZ_WALL / $OURS_WALL")
    size_ratio=$(calc "$our_size / $peer_size" 3)
    row "$1" \
        "$(rate "$body_bytes" "$OURS_WALL") MiB/s, cpu ${OURS_CPU} s, $(calc "$our_size / 1048576" 1) MiB out" \
        "pigz -p $gzip_threads $(rate "$body_bytes" "$PIGZ_WALL") MiB/s, cpu ${PIGZ_CPU} s, $(calc "$peer_size / 1048576" 1) MiB" \
        "${ratio}x, ${size_ratio}x size" ">= 1.5x pigz -6 -p $gzip_threads, <= 1x size" \
        "$(holds "$ratio >= 1.5 && $size_ratio <= 1")"
    rm -f "$work/pigz.body"
}
pigz_row "${gzip_mib} MiB text, gzip" "$work/gzip.list"
pigz_row "${mixed_mib} MiB mixed upload, gzip" "$work/mixed.list"

# MARK: 4. Small text fields, beside multipart-kit's encoder

peer_run() { measure /dev/null "$bench_bin/multipartkit-peer" fields "$fields"; }
ours_run() { measure /dev/null "$bench_bin/body-bench" fields "$fields"; }
duel KIT OURS
ratio=$(calc "$KIT_WALL / $OURS_WALL")
row "$fields text fields" \
    "$(calc "$OURS_WALL * 1000" 0) ms, cpu ${OURS_CPU} s, $(mib "$OURS_RSS") MiB" \
    "multipart-kit $(calc "$KIT_WALL * 1000" 0) ms, cpu ${KIT_CPU} s, $(mib "$KIT_RSS") MiB" \
    "${ratio}x faster" ">= 5x faster, RSS < 32 MiB" \
    "$(holds "$ratio >= 5 && $OURS_RSS < 32768")"

# MARK: 5. Sniffing small files, beside one `file --mime-type` run

cat "$work"/sniff/* > /dev/null
peer_run() { measure "$work/file.out" file --mime-type -b -f "$work/sniff.list"; }
ours_run() { measure "$work/ours.out" "$bench_bin/body-bench" sniff "$work/sniff.list"; }
duel FILE OURS
ratio=$(calc "$FILE_WALL / $OURS_WALL")
# Compare answers line by line; JSON and CSV named by their extension are
# ours to give when file(1) calls the same text text/plain (the issue allows
# it), and so is Markdown, for which file(1) has no name at all. The random
# files (blob-N.bin) are application/octet-stream whatever libmagic's weak
# rules call a few of them (a DOS .com program, zlib: #29); counted apart.
paste -d ' ' "$work/sniff.list" "$work/file.out" "$work/ours.out" > "$work/answers"
mismatches=$(awk '$2 != $3 && !($2 == "text/plain" && ($3 == "application/json" || $3 == "text/csv" || $3 == "text/markdown")) && !($1 ~ /\/blob-[0-9]+\.bin$/ && $3 == "application/octet-stream")' "$work/answers" | wc -l)
named=$(awk '$2 != $3 && $2 == "text/plain" && ($3 == "application/json" || $3 == "text/csv" || $3 == "text/markdown")' "$work/answers" | wc -l)
row "sniff $sniff_files small files" \
    "$(calc "$OURS_WALL * 1000" 0) ms, cpu ${OURS_CPU} s, $mismatches mismatches" \
    "file -f $(calc "$FILE_WALL * 1000" 0) ms, cpu ${FILE_CPU} s" \
    "${ratio}x faster" ">= 5x faster, same answers" \
    "$(holds "$ratio >= 5 && $mismatches == 0")"
if ((mismatches > 0)); then
    echo "  mismatches (path, file(1), ours), by kind:" >&2
    awk '$2 != $3 && !($2 == "text/plain" && ($3 == "application/json" || $3 == "text/csv" || $3 == "text/markdown")) && !($1 ~ /\/blob-[0-9]+\.bin$/ && $3 == "application/octet-stream") {
        n = split($1, parts, "."); key = parts[n] " " $2 " -> " $3; count[key]++; example[key] = $1
    } END { for (k in count) printf "    %5d  %s   (e.g. %s)\n", count[k], k, example[k] }' "$work/answers" >&2
fi
((named == 0)) || echo "  $named JSON/CSV/Markdown files named by extension where file(1) says text/plain (allowed)" >&2
weak=$(awk '$1 ~ /\/blob-[0-9]+\.bin$/ && $2 != $3 && $3 == "application/octet-stream"' "$work/answers" | wc -l)
((weak == 0)) || echo "  $weak random files that file(1) types by a weak rule are application/octet-stream (as they should be)" >&2

# MARK: 5b. Sniffing a real tree, beside `file --mime-type -f` (issue #29 goal 2)

# The same answers, or ours a more specific type of the same family: a text
# type (or JSON, JavaScript, +xml) where file(1) says text/plain; a named
# binary format where it says application/octet-stream; a zip-based format
# (jar, docx, epub) where it says application/zip; and the same type by
# another of its names (text/javascript and application/javascript,
# text/xml and application/xml). Anything else is a disagreement, listed by
# kind: extension, file(1)'s type, ours.
agreement_awk='
function textual(t) { return t ~ /^text\// || t ~ /\+(xml|json)$/ || t ~ /^application\/(json|javascript|xml|yaml|x-sh)$/ }
function alias(t) {
    if (t == "application/javascript") return "text/javascript"
    if (t == "application/xml") return "text/xml"
    if (t == "application/x-gzip") return "application/gzip"
    return t
}
function same(f, o) {
    f = alias(f); o = alias(o)
    if (f == o) return 1
    if (f == "text/plain" && textual(o)) return 1
    if (f == "text/xml" && o ~ /\+xml$/) return 1
    if (f == "application/octet-stream" && !textual(o) && o != "unknown") return 1
    if (f == "application/zip" && o ~ /^application\/(java-archive|epub\+zip|vnd\.)/) return 1
    return 0
}
function kind(path,    n, parts, base) {
    n = split(path, parts, "/"); base = parts[n]
    return match(base, /\.[^.]+$/) ? substr(base, RSTART) : "(none)"
}'
peer_run() { measure "$work/file.out" file --mime-type -b -f "$work/real.list"; }
ours_run() { measure "$work/ours.out" "$bench_bin/body-bench" sniff "$work/real.list"; }
tr '\n' '\0' < "$work/real.list" | xargs -0 cat > /dev/null
duel FILE OURS
ratio=$(calc "$FILE_WALL / $OURS_WALL")
paste -d ' ' "$work/real.list" "$work/file.out" "$work/ours.out" > "$work/answers"
agreeing=$(awk "$agreement_awk"' same($2, $3) { n++ } END { print n + 0 }' "$work/answers")
agreement=$(calc "100 * $agreeing / $real_count" 2)
"$bench_bin/body-bench" sniff "$work/binary.list" > "$work/binary.out"
false_positives=$(grep -cv '^application/octet-stream$' "$work/binary.out" || true)
row "sniff $real_count real files" \
    "$(calc "$OURS_WALL * 1000" 0) ms, cpu ${OURS_CPU} s, ${agreement}% same" \
    "file -f $(calc "$FILE_WALL * 1000" 0) ms, cpu ${FILE_CPU} s" \
    "${ratio}x faster" ">= 3x, >= 99% same, 0 binary FP" \
    "$(holds "$ratio >= 3 && $agreement >= 99 && $false_positives == 0")"
echo "  real tree: $real_count files, $(calc "$real_bytes / 1048576" 1) MiB; arbitrary binary not octet-stream: $false_positives of $(wc -l < "$work/binary.list")" >&2
echo "  disagreements with file(1) (count, extension, file(1) -> ours):" >&2
awk "$agreement_awk"' !same($2, $3) { count[kind($1) " " $2 " -> " $3]++ }
    END { for (k in count) printf "    %5d  %s\n", count[k], k }' "$work/answers" | sort -rn >&2
# Which stage of the standard sniffer named each file (a libmagic call costs
# about a hundred times the others); the uploader of case 6e sniffs alike.
"$bench_bin/body-bench" stages "$work/real.list" > "$work/stages.out"
stages_line="  sniffing stages, $real_count real files: $(awk -F '\t' '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2 }' "$work/stages.out")"
rows+=("$stages_line")
echo "$stages_line" >&2

# MARK: 6. Uploading to a local sink, beside curl -F

"$bin/sink-server" 0 > "$work/sink.txt" &
server_pid=$!
for _ in $(seq 100); do grep -q listening "$work/sink.txt" 2> /dev/null && break; sleep 0.1; done
grep -q listening "$work/sink.txt" || fail "sink-server did not start"
url="http://127.0.0.1:$(sed -E 's/.*:([0-9]+)$/\1/' "$work/sink.txt")/upload"

# upload_row FIGURE CURL_FORM MAX_RATIO MAX_RSS_KIB GOAL: duels curl (peer_run)
# with ours_run and adds a row of both walls, CPU and memory, met when ours
# takes at most MAX_RATIO times curl's wall and at most MAX_RSS_KIB of memory.
upload_row() {
    duel CURL OURS
    local ratio
    ratio=$(calc "$OURS_WALL / $CURL_WALL")
    row "$1" \
        "$(calc "$OURS_WALL" 3) s, cpu ${OURS_CPU} s, $(mib "$OURS_RSS") MiB" \
        "curl $2 $(calc "$CURL_WALL" 3) s, cpu ${CURL_CPU} s, $(mib "$CURL_RSS") MiB" \
        "${ratio}x wall" "$5" \
        "$(holds "$ratio <= $3 && $OURS_RSS <= $4")"
}

# The floor (issue #43 goal 4): the same request, its head and part head
# written in one call and the file's bytes by the kernel (sendfile(2), page
# cache to socket), then the answer read; a small C program built here.
# Interleaved with curl and ours, best of $runs each. The goal: ours at most
# 0.6x curl's wall, or within 1.2x of the floor (what no client can beat:
# the sink's own reading and the loopback copy).
cc=$(command -v cc || command -v clang || echo "$(dirname "$(readlink -f "$(command -v swift)")")/clang")
"$cc" -O2 -o "$work/sendfile-upload" "$here/floor/sendfile-upload.c" || fail "building floor/sendfile-upload.c failed"
sink_port=$(sed -E 's/.*:([0-9]+)$/\1/' "$work/sink.txt")
cat "$work/large.txt" > /dev/null
peer_run() { measure /dev/null curl -sS -o /dev/null -F "file=@$work/large.txt" "$url"; }
ours_run() { measure /dev/null "$uploader" --no-progress "$url" "file@$work/large.txt"; }
unset CURL_WALL OURS_WALL FLOOR_WALL
for _ in $(seq "$runs"); do
    peer_run
    keep CURL
    ours_run
    keep OURS
    measure /dev/null "$work/sendfile-upload" "$sink_port" /upload "$work/large.txt"
    keep FLOOR
done
upload_ratio=$(calc "$OURS_WALL / $CURL_WALL")
floor_ratio=$(calc "$OURS_WALL / $FLOOR_WALL")
row "uploader ${file_mib} MiB -> sink" \
    "$(calc "$OURS_WALL" 3) s, cpu ${OURS_CPU} s, $(mib "$OURS_RSS") MiB" \
    "curl -F $(calc "$CURL_WALL" 3) s, cpu ${CURL_CPU} s, $(mib "$CURL_RSS") MiB" \
    "${upload_ratio}x, ${floor_ratio}x floor" "<= 0.6x curl's or 1.2x floor, RSS < 32 MiB" \
    "$(holds "($upload_ratio <= 0.6 || $floor_ratio <= 1.2) && $OURS_RSS <= 32767")"
# Not a goal: the floor itself, to read the row above against.
floor_line=$(printf '%-32s | %-36s | %-36s | %-16s | %-30s | %s' "  sendfile(2) floor, same request" \
    "$(calc "$FLOOR_WALL" 3) s, cpu ${FLOOR_CPU} s, $(mib "$FLOOR_RSS") MiB" "curl -F $(calc "$CURL_WALL" 3) s" \
    "curl $(calc "$CURL_WALL / $FLOOR_WALL")x floor" "(the sink's and kernel's cost)" "-")
rows+=("$floor_line")
echo "$floor_line" >&2

# MARK: 6b. A file only libmagic can type, by the library's default transport and by uploader

# Both sniff the part (the standard sniffer ends at libmagic for this file),
# and that is checked, so the figures are of the case the goal names.
# (`|| true`: head closes the pipe after the part's head, which ends the dry run.)
{ "$uploader" --dry-run "$url" "file@$work/payload" 2> /dev/null || true; } | head -c 4096 |
    grep -aq '^Content-Type: application/x-executable' || fail "the ELF file's part is not typed application/x-executable"
cat "$work/payload" > /dev/null
# (A goal on memory alone: any wall time meets it.)
peer_run() { measure /dev/null curl -sS -o /dev/null -F "file=@$work/payload" "$url"; }
ours_run() { measure /dev/null "$bin/upload-form" "$url" "$work/payload"; }
upload_row "library ${file_mib} MiB, libmagic type" -F 1000000 24576 "RSS <= 24 MiB"
ours_run() { measure /dev/null "$uploader" --no-progress "$url" "file@$work/payload"; }
upload_row "uploader ${file_mib} MiB, libmagic type" -F 1000000 24576 "RSS <= 24 MiB"

# MARK: 6c. Many small files in one request, beside curl given the same parts

# The sniffing set (15 kinds: text, JSON, CSV, HTML, PNG, JPEG, GIF, gzip, zip,
# PDF, random bytes...), one part each; curl reads its `-F` parts from a config
# file (`form = "fileN=@path"` lines), as a command line this long would be
# for it too. Each file's type is sniffed by ours (curl guesses from the
# extension), libmagic deciding the ones no signature or extension names.
mapfile -t small_items < <(awk '{ printf "file%d@%s\n", NR, $0 }' "$work/sniff.list")
awk '{ printf "form = \"file%d=@%s\"\n", NR, $0 }' "$work/sniff.list" > "$work/curl-form.cfg"
cat "$work"/sniff/* > /dev/null
peer_run() { measure /dev/null curl -sS -o /dev/null -K "$work/curl-form.cfg" "$url"; }
ours_run() { measure /dev/null "$uploader" --no-progress "$url" "${small_items[@]}"; }
upload_row "$sniff_files small files -> sink" -K 1.2 24576 "<= 1.2x curl's wall, RSS <= 24 MiB"
unset small_items

# MARK: 6e. A real tree in one request, beside curl given the same parts (issue #29 goal 1)

# The real tree of case 5b, one part each, in one request; curl reads the same
# parts from a config file of `form = "fileN=@path"` lines and names each by
# its extension, while ours sniffs each (stages counted in case 5b).
mapfile -t real_items < <(awk '{ printf "file%d@%s\n", NR, $0 }' "$work/real.list")
awk '{ printf "form = \"file%d=@%s\"\n", NR, $0 }' "$work/real.list" > "$work/curl-real.cfg"
tr '\n' '\0' < "$work/real.list" | xargs -0 cat > /dev/null
peer_run() { measure /dev/null curl -sS -o /dev/null -K "$work/curl-real.cfg" "$url"; }
ours_run() { measure /dev/null "$uploader" --no-progress "$url" "${real_items[@]}"; }
upload_row "$real_count real files -> sink" -K 1.0 24576 "<= 1x curl's wall, RSS <= 24 MiB"
unset real_items

# MARK: 6f. The same tree as a directory, `name@dir -r` (issue #28)

# The real tree copied under one directory at its paths; ours walks it and
# sends one part per file, each named `files` with filename="tree/PATH" in
# byte order of the paths; curl gets the same parts in that order from a
# config file, the filenames spelled out.
mkdir "$work/tree"
tr '\n' '\0' < "$work/real.list" | xargs -0 cp --parents -t "$work/tree"
(cd "$work" && find tree -type f | LC_ALL=C sort) > "$work/tree.list"
awk -v root="$work" '{ printf "form = \"files=@%s/%s;filename=%s\"\n", root, $0, $0 }' "$work/tree.list" > "$work/curl-tree.cfg"
(cd "$work" && find tree -type f -print0 | xargs -0 cat > /dev/null)
peer_run() { measure /dev/null curl -sS -o /dev/null -K "$work/curl-tree.cfg" "$url"; }
ours_run() { measure /dev/null "$uploader" --no-progress "$url" "files@$work/tree" -r; }
upload_row "files@DIR -r, $real_count real files" -K 1.0 24576 "<= 1x curl's wall, RSS <= 24 MiB"

# MARK: 6d. A trivial GET's memory, beside curl's

peer_run() { measure /dev/null curl -sS -o /dev/null "$url"; }
ours_run() { measure /dev/null "$uploader" GET "$url"; }
duel CURL OURS
row "trivial GET" \
    "$(calc "$OURS_WALL * 1000" 1) ms, $(mib "$OURS_RSS") MiB" \
    "curl $(calc "$CURL_WALL * 1000" 1) ms, $(mib "$CURL_RSS") MiB" \
    "$(calc "$OURS_RSS / $CURL_RSS")x RSS" "RSS <= curl's + 1 MiB" \
    "$(holds "$OURS_RSS <= $CURL_RSS + 1024")"

# MARK: 7. uploader --dry-run to /dev/null, beside cat

peer_run() { measure /dev/null cat "$work/large.txt"; }
ours_run() { measure /dev/null "$uploader" --dry-run "$url" "file@$work/large.txt"; }
duel CAT OURS
ratio=$(calc "$CAT_WALL / $OURS_WALL")
row "uploader --dry-run ${file_mib} MiB" \
    "$(rate "$large_bytes" "$OURS_WALL") MiB/s, cpu ${OURS_CPU} s, $(mib "$OURS_RSS") MiB" \
    "cat $(rate "$large_bytes" "$CAT_WALL") MiB/s, cpu ${CAT_CPU} s" \
    "${ratio}x" ">= 0.8x cat" \
    "$(holds "$ratio >= 0.8")"

# MARK: 7b. uploader --dry-run with --boundary, beside the same dry run with a random boundary

# With a caller-chosen boundary the uploader reads the file once to check it
# does not hold the boundary (before anything is written), then scans it
# again as it writes it; a random boundary needs neither. The contract keeps
# the check before sending, so one extra read is the floor (issue #29 goal 4).
fixed_boundary=compare-sh-7MA4YWxkTrZu0gW
! grep -q "$fixed_boundary" "$work/large.txt" || fail "the text file holds the boundary $fixed_boundary"
peer_run() { measure /dev/null "$uploader" --dry-run "$url" "file@$work/large.txt"; }
ours_run() { measure /dev/null "$uploader" --dry-run --boundary "$fixed_boundary" "$url" "file@$work/large.txt"; }
duel RANDOM OURS
ratio=$(calc "$OURS_WALL / $RANDOM_WALL")
row "${file_mib} MiB --dry-run with --boundary" \
    "$(calc "$OURS_WALL" 3) s, cpu ${OURS_CPU} s, $(mib "$OURS_RSS") MiB" \
    "random boundary $(calc "$RANDOM_WALL" 3) s, cpu ${RANDOM_CPU} s" \
    "${ratio}x" "<= 2.0x random boundary" \
    "$(holds "$ratio <= 2.0")"

# MARK: 8. Start-up: a real tiny upload beside curl's, interleaved

# timed NAME CMD...: runs CMD once and appends its wall time, in seconds, to
# the array NAME.
timed() {
    local -n times=$1
    shift
    local start=$EPOCHREALTIME
    "$@" > /dev/null 2>&1 || fail "'$*' failed"
    local end=$EPOCHREALTIME
    times+=("$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f", b - a }')")
}
# median: the median of the numbers on standard input, one a line.
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# startup_row NAME OURS... -- CURL...: a real tiny upload with our options
# OURS, beside curl -F with its options CURL that ask for the same, run
# interleaved, the medians of $startup_runs runs compared. Scripts pass
# options, so the rows with them are the start-ups users meet.
startup_row() {
    local name=$1 ours_options=() curl_options=()
    shift
    while (($#)) && [[ $1 != -- ]]; do ours_options+=("$1"); shift; done
    (($#)) && shift
    curl_options=("$@")
    local curl_times=() ours_times=()
    for _ in $(seq "$startup_runs"); do
        timed curl_times curl -sS -o /dev/null "${curl_options[@]}" -F "file=@$work/tiny.txt" "$url"
        timed ours_times "$uploader" "${ours_options[@]}" "$url" "file@$work/tiny.txt"
    done
    local curl_start ours_start ratio
    curl_start=$(printf '%s\n' "${curl_times[@]}" | median)
    ours_start=$(printf '%s\n' "${ours_times[@]}" | median)
    measure /dev/null "$uploader" "${ours_options[@]}" "$url" "file@$work/tiny.txt"
    ratio=$(calc "$ours_start / $curl_start")
    row "$name" \
        "$(calc "$ours_start * 1000" 1) ms, $(mib "$RSS") MiB" \
        "curl -F $(calc "$curl_start * 1000" 1) ms" \
        "${ratio}x (median of $startup_runs)" "<= 1.0x curl's time" \
        "$(holds "$ratio <= 1.0")"
}
startup_row "tiny upload, real" --
startup_row "tiny upload, --no-progress" --no-progress -- --no-progress-meter
startup_row "tiny upload, -H 'X-A: b' -v" -H 'X-A: b' -v -- -H 'X-A: b' -v

# MARK: 9. 100,000 text items on the command line (argument parsing was quadratic)

# Short items, and a larger stack limit (the kernel allows argv a quarter of
# it), so 100,000 of them fit on one command line.
ulimit -s 65536 2> /dev/null || true
mapfile -t items < <(awk -v n="$fields" 'BEGIN { for (i = 0; i < n; i++) printf "f%d=v\n", i }')
measure "$work/items.out" "$uploader" --dry-run "$url" "${items[@]}"
items_wall=$WALL
items_rss=$RSS
measure "$work/items.out" "$uploader" --dry-run --multipart --boundary items-boundary "$url" "${items[@]}"
row "$fields items, --dry-run" \
    "json $(calc "$items_wall * 1000" 0) ms, $(mib "$items_rss") MiB; multipart $(calc "$WALL * 1000" 0) ms" \
    "(none: 10,000 items took 1.9 s before)" \
    "-" "< 2 s each" \
    "$(holds "$items_wall < 2 && $WALL < 2")"
unset items

# MARK: 10. A resumable upload (IETF draft) beside a plain one, to the same server

# The server keeps every completed upload: each run's is deleted after it.
mkdir "$work/ietf" "$work/state"
"$server_bin/resumable-upload-server" "$work/ietf" > "$work/ietf.txt" &
resumable_pid=$!
for _ in $(seq 100); do grep -q listening "$work/ietf.txt" 2> /dev/null && break; sleep 0.1; done
grep -q listening "$work/ietf.txt" || fail "resumable-upload-server did not start"
ietf="http://127.0.0.1:$(sed -E 's/.*:([0-9]+)$/\1/' "$work/ietf.txt")/files/large.txt"
forget_uploads() { rm -rf "$work/ietf"/upload-*; }
peer_run() { measure /dev/null "$uploader" --no-progress "$ietf" "file@$work/large.txt"; forget_uploads; }
ours_run() { measure /dev/null "$uploader" --no-progress --resumable --state-dir "$work/state" "$ietf" "file@$work/large.txt"; forget_uploads; }
duel PLAIN OURS
ratio=$(calc "$OURS_WALL / $PLAIN_WALL")
row "uploader --resumable ${file_mib} MiB" \
    "$(calc "$OURS_WALL" 3) s, cpu ${OURS_CPU} s, $(mib "$OURS_RSS") MiB" \
    "plain upload $(calc "$PLAIN_WALL" 3) s, $(mib "$PLAIN_RSS") MiB" \
    "${ratio}x wall" "<= 1.2x the plain upload" \
    "$(holds "$ratio <= 1.2")"

# Restart to the first resumed byte: an upload in 64 MiB appends is killed
# once the server has confirmed half the file; the same command is run again,
# and the time is taken until the server's copy grows past what it held.
state_offset() { local n; n=$(cat "$work/state"/*.json 2> /dev/null | sed -n 's/.*"offset" : \([0-9]*\).*/\1/p'); echo "${n:-0}"; }
partial_size() { local n; n=$(stat -c %s "$work/ietf"/.partial/* 2> /dev/null | sort -n | tail -1); echo "${n:-0}"; }
resume_command=("$uploader" --no-progress --resumable --chunk-size 64M --state-dir "$work/state" "$ietf" "file@$work/large.txt")
restarts=()
for _ in $(seq "$runs"); do
    "${resume_command[@]}" > /dev/null 2>&1 &
    pid=$!
    while kill -0 "$pid" 2> /dev/null && (( $(state_offset) < large_bytes / 2 )); do sleep 0.001; done
    kill -9 "$pid" 2> /dev/null || true
    wait "$pid" 2> /dev/null || true
    sleep 0.2  # the server reads what the killed connection had delivered
    held=$(partial_size)
    ((held > 0)) || fail "the killed upload left nothing on the server"
    start=$EPOCHREALTIME
    "${resume_command[@]}" > /dev/null 2>&1 &
    pid=$!
    while (( $(partial_size) <= held )) && kill -0 "$pid" 2> /dev/null; do :; done
    end=$EPOCHREALTIME
    wait "$pid" || fail "the resumed upload failed"
    restarts+=("$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f", b - a }')")
    forget_uploads
done
restart=$(printf '%s\n' "${restarts[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
row "restart to first resumed byte" \
    "$(calc "$restart * 1000" 1) ms (median of $runs)" \
    "(none: curl and HTTPie start again at 0)" \
    "-" "<= 100 ms" \
    "$(holds "$restart <= 0.1")"

# MARK: 11. SigV4 payload hashing (issue #14), beside openssl dgst -sha256

# The SHA-256 that SigV4Middleware signs, of the 1 GiB file read once as a
# file body (PayloadDigest.sha256(of:)). "Per core" is bytes over the process's
# CPU time (it hashes on one thread), so a loaded machine does not decide it.
swift build -c release --static-swift-stdlib --package-path "$here" --product sigv4-bench > "$work/build.log" 2>&1 ||
    { cat "$work/build.log" >&2; fail "building sigv4-bench failed"; }
command -v openssl > /dev/null || fail "'openssl' is required for the SigV4 hashing figure but not installed"
cat "$work/large.txt" > /dev/null
peer_run() { measure "$work/peer.sha256" openssl dgst -sha256 -r "$work/large.txt"; }
ours_run() { measure "$work/ours.sha256" "$bench_bin/sigv4-bench" hash "$work/large.txt"; }
duel OPENSSL SIGV4
[[ "$(cut -d' ' -f1 "$work/peer.sha256")" == "$(cat "$work/ours.sha256")" ]] ||
    fail "sigv4-bench and openssl disagree on the SHA-256 of $work/large.txt"
per_core=$(calc "$large_bytes / 1000000000 / ($SIGV4_CPU > 0 ? $SIGV4_CPU : 0.01)")
openssl_per_core=$(calc "$large_bytes / 1000000000 / ($OPENSSL_CPU > 0 ? $OPENSSL_CPU : 0.01)")
ratio=$(calc "$OPENSSL_WALL / $SIGV4_WALL")
row "SigV4 payload SHA-256, ${file_mib} MiB" \
    "$(rate "$large_bytes" "$SIGV4_WALL") MiB/s, ${per_core} GB/s/core, $(mib "$SIGV4_RSS") MiB" \
    "openssl $(rate "$large_bytes" "$OPENSSL_WALL") MiB/s, ${openssl_per_core} GB/s/core" \
    "${ratio}x" ">= 1 GB/s per core" \
    "$(holds "$per_core >= 1")"

# MARK: 12. Object stores: a multipart upload beside boto3 (Benchmarks/compare-s3.sh)

source "$here/compare-s3.sh"

# MARK: Summary

echo >&2
echo "swift-http-body beside its peers ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(uptime | sed 's/.*load average: //'))"
printf '%-32s | %-36s | %-36s | %-16s | %-30s | %s\n' figure ours peer ratio goal met
printf '%s\n' "${rows[@]}"
echo "goals met: $met_count, missed: $missed_count"
((missed_count == 0)) || exit 1
