# Sourced by compare.sh (it uses its measure, duel, row and calc): issue #14's
# figures. A 1 GiB multipart upload to a local S3-compatible server (moto, as
# the tests use, from Scripts/test-python.sh), 8 MiB
# parts, 4 at once: `uploader s3://` beside boto3's `upload_file` with the same
# TransferConfig (what `aws s3 cp` does), interleaved, best of $runs. A third
# figure is the server's own floor, which no client can beat: the same upload
# with nothing but moto's work, the parts put by curl, 4 at once, with no
# hashing or signing at all, then completed. Both clients create their upload
# with CRC-32 checksums, and moto's completion recomputes each part's, so the
# floor's does too.

python=$("$root/Scripts/test-python.sh")
s3_port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$python" -m moto.server -H 127.0.0.1 -p "$s3_port" > "$work/moto.log" 2>&1 &
moto_pid=$!
server_pid="$server_pid $moto_pid"
s3="http://127.0.0.1:$s3_port"
for _ in $(seq 200); do curl -s -o /dev/null "$s3/" && break; sleep 0.1; done
export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_REGION=us-east-1
curl -sS -o /dev/null -X PUT "$s3/bench"  # moto checks no signature in its default mode

cat > "$work/boto3-upload.py" << 'PY'
import sys, boto3
from boto3.s3.transfer import TransferConfig
endpoint, path, key = sys.argv[1:4]
s3 = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1")
config = TransferConfig(multipart_threshold=8 << 20, multipart_chunksize=8 << 20, max_concurrency=4)
s3.upload_file(path, "bench", key, Config=config)
PY
# floor.sh S3 PARTS HEADS: prints the seconds the parts took; the completion follows.
cat > "$work/floor.sh" << 'SH'
s3=$1 heads=$3
upload=$(curl -sSf -X POST -H 'x-amz-checksum-algorithm: CRC32' "$s3/bench/floor?uploads" | sed -n 's/.*<UploadId>\(.*\)<\/UploadId>.*/\1/p')
start=$EPOCHREALTIME
cd "$2" && ls | awk '{ printf "%s %d\n", $1, NR }' |
    xargs -P4 -n2 sh -c 'curl -sSf -o /dev/null -D "'"$heads"'/$1" -T "$0" "'"$s3"'/bench/floor?partNumber=$1&uploadId='"$upload"'"'
awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.6f\n", b - a }'
# One awk for the whole list: a process per part would add to the floor. XML
# typed as such: curl's default form type would leave moto an empty body.
awk 'BEGIN { printf "<CompleteMultipartUpload>" }
    tolower($1) == "etag:" { sub(/\r$/, "", $2); printf "<Part><PartNumber>%d</PartNumber><ETag>%s</ETag></Part>", ++n, $2 }
    END { printf "</CompleteMultipartUpload>" }' $(seq -f "$heads/%g" "$(ls | wc -l)") |
    curl -sSf -o /dev/null -X POST -H 'Content-Type: application/xml' --data-binary @- "$s3/bench/floor?uploadId=$upload"
SH
mkdir "$work/s3-parts" "$work/s3-heads"
(cd "$work/s3-parts" && split -b 8M -d -a 4 "$work/payload" part)
cat "$work/payload" > /dev/null

peer_run() { measure /dev/null "$python" "$work/boto3-upload.py" "$s3" "$work/payload" boto3.bin; }
ours_run() { measure /dev/null "$bin/uploader" --no-progress --state-dir "$work/state" s3://bench/ours.bin "$work/payload" --endpoint-url "$s3" --part-size 8M --concurrency 4; }
duel BOTO OURS
unset FLOOR_WALL
for _ in $(seq "$runs"); do
    measure "$work/floor-parts" bash "$work/floor.sh" "$s3" "$work/s3-parts" "$work/s3-heads"
    parts_wall=$(cat "$work/floor-parts")
    keep FLOOR
    if [[ "$FLOOR_WALL" == "$WALL" ]]; then FLOOR_PARTS=$parts_wall; fi  # the fastest run's parts
done
ratio=$(calc "$OURS_WALL / $BOTO_WALL")
row "s3 ${file_mib} MiB, 8M x 4 parts" \
    "$(calc "$OURS_WALL" 2) s, cpu ${OURS_CPU} s, $(mib "$OURS_RSS") MiB" \
    "boto3 $(calc "$BOTO_WALL" 2) s, cpu ${BOTO_CPU} s, $(mib "$BOTO_RSS") MiB" \
    "${ratio}x wall, $(calc "$OURS_RSS / $BOTO_RSS")x RSS" "<= 0.5x wall, <= 0.25x RSS" \
    "$(holds "$ratio <= 0.5 && $OURS_RSS * 4 <= $BOTO_RSS")"
# Not a goal: what the server alone needs, to read the ratio above against.
floor_line=$(printf '%-32s | %-36s | %-36s | %-16s | %-30s | %s' "  moto's own floor, same upload" \
    "$(calc "$FLOOR_WALL" 2) s: curl parts $(calc "$FLOOR_PARTS" 2) s + complete" "boto3 $(calc "$BOTO_WALL" 2) s" \
    "$(calc "$FLOOR_WALL / $BOTO_WALL")x wall" "(no client can be faster)" "-")
rows+=("$floor_line")
echo "$floor_line" >&2
kill "$moto_pid" 2> /dev/null || true
