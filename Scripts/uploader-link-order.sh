#!/usr/bin/env bash
# Writes Scripts/uploader-link-order.txt: the functions `uploader` executes in
# the runs users make most (a tiny upload, a GET, a large upload typed by
# libmagic, a form of small files and one of twenty, a directory sent with
# -r, a dry run, a JSON body, and multipart uploads to an object store over
# HTTP and HTTPS, of one file and of a directory), most shared first, one
# symbol a line, as lld's
# --symbol-ordering-file reads them.
# Scripts/build-uploader.sh links it on Linux in that order, so the code a
# run touches is packed into a few megabytes of pages instead of spread over
# the binary's 34 MB of text (every page fault maps the 64 KB around it).
#
#     Scripts/uploader-link-order.sh
#
# Run it after changes that move the hot path (a new dependency, a new step
# in sending), then commit the file. A stale file costs memory, never
# correctness: names it holds that no longer exist are ignored, and
# functions it does not name are laid out as the linker would anyway.
# Needs valgrind (callgrind), objcopy and python3; builds in release; the
# object-store runs go to moto (Scripts/test-python.sh makes its Python,
# from PyPI on first use), serving HTTPS with a private CA's certificate
# made by Tests/Servers/tls_server.py.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out="$root/Scripts/uploader-link-order.txt"

fail() { echo "uploader-link-order.sh: $*" >&2; exit 1; }
command -v valgrind > /dev/null || fail "valgrind is required (apt-get install valgrind)"
command -v python3 > /dev/null || fail "python3 is required"

work=$(mktemp -d "${TMPDIR:-/tmp}/uploader-link-order.XXXXXX")
server_pid=""
cleanup() {
    for pid in $server_pid; do kill "$pid" 2> /dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

[[ -f "$out" ]] || : > "$out"  # the build reads it; a first run starts from none
swift build -c release --product sink-server > "$work/build.log" 2>&1 ||
    { cat "$work/build.log" >&2; fail "building sink-server failed"; }
uploader=$(Scripts/build-uploader.sh 2> "$work/build.log") ||
    { cat "$work/build.log" >&2; fail "building uploader failed"; }
"$(swift build -c release --show-bin-path)/sink-server" 0 > "$work/sink.txt" &
server_pid=$!
# The object store: moto over HTTP and over HTTPS, a bucket on each.
python=$(Scripts/test-python.sh)
PYTHONPATH="$root/Tests/Servers" "$python" -c 'import pathlib, sys, tls_server; tls_server.make_files(pathlib.Path(sys.argv[1]), "ok")' "$work"
free_port() { "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
s3_port=$(free_port)
"$python" -m moto.server -H 127.0.0.1 -p "$s3_port" > "$work/moto.log" 2>&1 &
server_pid="$server_pid $!"
s3_tls_port=$(free_port)
"$python" -m moto.server -H 127.0.0.1 -p "$s3_tls_port" --ssl-cert "$work/server.pem" --ssl-key "$work/server-key.pem" > "$work/moto-tls.log" 2>&1 &
server_pid="$server_pid $!"
for endpoint in "http://127.0.0.1:$s3_port" "https://127.0.0.1:$s3_tls_port"; do
    for _ in $(seq 200); do curl -s --cacert "$work/ca.pem" -o /dev/null "$endpoint/" && break; sleep 0.1; done
    curl -sS --cacert "$work/ca.pem" -o /dev/null -X PUT "$endpoint/bench" || fail "moto did not start at $endpoint"
done
export AWS_ACCESS_KEY_ID=order AWS_SECRET_ACCESS_KEY=order AWS_REGION=us-east-1
for _ in $(seq 100); do grep -q listening "$work/sink.txt" 2> /dev/null && break; sleep 0.1; done
grep -q listening "$work/sink.txt" || fail "sink-server did not start"
url="http://127.0.0.1:$(sed -E 's/.*:([0-9]+)$/\1/' "$work/sink.txt")/upload"

# A copy without the DWARF, which valgrind's reader stumbles over in a binary
# this size; the symbol table, all the names need, stays.
objcopy --strip-debug "$uploader" "$work/uploader"

# Inputs: text named by its extension, signatures the table knows, bytes only
# libmagic can type (an ELF header on random bytes, no extension).
printf 'hello\n' > "$work/tiny.txt"
printf '# Notes\n\nSome text.\n' > "$work/notes.md"
{ printf '\x89PNG\r\n\x1a\n'; head -c 2000 /dev/urandom; } > "$work/photo.png"
{ printf '%%PDF-1.4\n'; head -c 2000 /dev/urandom; } > "$work/report.pdf"
head -c 3000 /dev/urandom > "$work/blob.bin"
# A directory of them, sent with -r (its walk, then the same batch sniff).
mkdir -p "$work/tree/docs" "$work/tree/images"
cp "$work/tiny.txt" "$work/notes.md" "$work/tree/docs/"
cp "$work/photo.png" "$work/blob.bin" "$work/tree/images/"
cp "$work/report.pdf" "$work/tree/"
{ printf '\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x3e\x00'; head -c $((8 << 20)) /dev/urandom; } > "$work/payload"
# Four parts of 5 MiB for the object store, and a directory of a few files.
head -c $((20 << 20)) /dev/urandom > "$work/object.bin"
mkdir -p "$work/objects/large"
cp "$work/notes.md" "$work/photo.png" "$work/blob.bin" "$work/objects/"
head -c $((12 << 20)) /dev/urandom > "$work/objects/large/object.bin"
s3=(--no-progress --state-dir "$work/state" --part-size 5M --concurrency 4)

runs=(
    "$url file@$work/tiny.txt"
    "GET $url"
    "$url file@$work/payload"
    "$url a@$work/photo.png b@$work/report.pdf c@$work/notes.md d@$work/blob.bin title=Hello"
    # Enough files to be typed on every core at once (RequestAssembler).
    "$url $(for i in 1 2 3 4 5; do printf 'a%s@%s b%s@%s c%s@%s d%s@%s ' "$i" "$work/photo.png" "$i" "$work/report.pdf" "$i" "$work/notes.md" "$i" "$work/blob.bin"; done)"
    "$url files@$work/tree -r"
    "--dry-run $url file@$work/tiny.txt"
    "$url name=Ada count:=3"
    "${s3[*]} s3://bench/object.bin $work/object.bin --endpoint-url http://127.0.0.1:$s3_port"
    "${s3[*]} s3://bench/object.bin $work/object.bin --endpoint-url https://127.0.0.1:$s3_tls_port --cacert $work/ca.pem"
    "${s3[*]} s3://bench/tree/ $work/objects --recursive --endpoint-url http://127.0.0.1:$s3_port"
)
for index in "${!runs[@]}"; do
    # shellcheck disable=SC2086 # each run is a list of arguments
    valgrind --tool=callgrind --demangle=no --compress-strings=no --compress-pos=no --dump-instr=yes \
        --callgrind-out-file="$work/run.$index" "$work/uploader" ${runs[$index]} > /dev/null 2> "$work/valgrind.log" ||
        { cat "$work/valgrind.log" >&2; fail "run $index failed: uploader ${runs[$index]}"; }
done

# Functions executed, by how many runs executed them, then by instructions.
# Each executed instruction's address is placed in the function whose symbol
# encloses it, so code callgrind names otherwise (a merged function, an alias,
# a thunk it folds into its caller) is ordered too; every name at that
# address is listed, since the linker moves the section any of them names.
nm --defined-only --print-size "$work/uploader" > "$work/symbols"
python3 - "$work" "${#runs[@]}" "$out" <<'PY'
import bisect, collections, sys
work, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
names_at, size_at = collections.defaultdict(list), collections.Counter()
for line in open(f"{work}/symbols"):
    fields = line.split()
    if len(fields) == 4 and fields[2] in "tTwW":
        start = int(fields[0], 16)
        names_at[start].append(fields[3])
        size_at[start] = max(size_at[start], int(fields[1], 16))
starts = sorted(names_at)
runs, cost = collections.Counter(), collections.Counter()
entry = {name: address for address, names in names_at.items() for name in names}
for index in range(count):
    executed = collections.Counter()
    lowest = {}
    function, after_call = None, False
    for line in open(f"{work}/run.{index}", errors="replace"):
        if line.startswith("fn="):
            function = line[3:].strip()
        elif line.startswith("calls="):
            after_call = True
        elif line.startswith("0x"):
            fields = line.split()
            address = int(fields[0], 16)
            # The line after calls= holds the call's inclusive cost, the
            # callee's instructions: the address is executed, the cost not ours.
            own = 0 if after_call or not fields[-1].isdigit() else int(fields[-1])
            executed[address] += own
            lowest[function] = min(address, lowest.get(function, address))
            after_call = False
    # callgrind gives run-time addresses and nm the file's: the load base is
    # the offset on which most functions' lowest executed address (their
    # entry) and their symbol agree.
    offsets = collections.Counter(address - entry[name] for name, address in lowest.items() if name in entry)
    if not offsets:
        sys.exit(f"run {index}: no executed function matched the symbol table")
    base = offsets.most_common(1)[0][0]
    seen = set()
    for address, instructions in executed.items():
        slot = bisect.bisect_right(starts, address - base) - 1
        if slot < 0 or address - base >= starts[slot] + size_at[starts[slot]]:
            continue  # a shared library's code, or the linker's stubs
        for name in names_at[starts[slot]]:
            cost[name] += instructions
            if name not in seen:
                seen.add(name)
                runs[name] += 1
names = sorted(runs, key=lambda name: (-runs[name], -cost[name], name))
with open(out, "w") as file:
    file.writelines(f"{name}\n" for name in names)
print(f"{out}: {len(names)} functions")
PY
# SwiftPM does not know the link reads the file: remove the binary so the
# next build links it again, in the new order.
rm -f "$uploader"
