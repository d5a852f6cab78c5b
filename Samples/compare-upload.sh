#!/usr/bin/env bash
# Uploads one file to a local sink server with `upload-file` (AsyncHTTPClient
# transport) and with `curl -F`, in the same run, and prints wall time and
# peak RSS for each. Usage: Samples/compare-upload.sh [FILE] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
file=${1:-}
runs=${2:-3}
made=""
server=""
trap 'rm -f "$made" /tmp/sink-server.$$; [[ -n "$server" ]] && kill "$server" 2>/dev/null; true' EXIT
if [[ -z "$file" ]]; then
    file=$(mktemp -d)/big.bin
    made=$file
    head -c 1073741824 /dev/urandom > "$file"
fi
swift build -c release --product upload-file >/dev/null
swift build -c release --product sink-server >/dev/null
bin=$(swift build -c release --show-bin-path)
"$bin/sink-server" 0 > /tmp/sink-server.$$ &
server=$!
until grep -q listening /tmp/sink-server.$$ 2>/dev/null; do sleep 0.1; done
port=$(sed -E 's/.*:([0-9]+)$/\1/' /tmp/sink-server.$$)
cat "$file" > /dev/null  # warm the page cache for both
for run in $(seq "$runs"); do
    /usr/bin/time -f "upload-file: wall %e s, peak RSS %M KiB" "$bin/upload-file" "http://127.0.0.1:$port/upload" "$file"
    /usr/bin/time -f "curl -F:      wall %e s, peak RSS %M KiB" curl -s -o /dev/null -F "file=@$file" "http://127.0.0.1:$port/upload"
    /usr/bin/time -f "curl -T:      wall %e s, peak RSS %M KiB" curl -s -o /dev/null -T "$file" "http://127.0.0.1:$port/upload"
done
