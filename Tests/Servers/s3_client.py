#!/usr/bin/env python3
"""boto3 as the uploader tests' independent S3 client (issue #14): reads back
what `uploader s3://...` stored, and makes presigned POST forms as users get
them from their backends.

    S3_ENDPOINT=http://127.0.0.1:PORT AWS_ACCESS_KEY_ID=... AWS_SECRET_ACCESS_KEY=... \\
        "$(Scripts/test-python.sh)" Tests/Servers/s3_client.py COMMAND ARGS...

Commands (each prints one JSON object):
    make-bucket BUCKET
    get BUCKET KEY            {"size", "sha256", "contentType", "eTag", "checksumCRC32", "metadata"}: CRC32 as
                              the store keeps it (for a multipart upload, its parts' composite: "…-N")
    list BUCKET               {"objects": {KEY: {"size", "sha256"}}}: every object in the bucket, read back
    parts BUCKET              {"uploads": [{"key", "uploadId", "bytes"}]}: unfinished uploads and the bytes they hold
    presigned-post BUCKET KEY {"url", "fields"}: boto3's generate_presigned_post
"""

import hashlib
import json
import os
import sys

import boto3
from botocore.config import Config


def client():
    return boto3.client(
        "s3",
        endpoint_url=os.environ["S3_ENDPOINT"],
        region_name=os.environ.get("AWS_REGION", "us-east-1"),
        aws_access_key_id=os.environ["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=os.environ["AWS_SECRET_ACCESS_KEY"],
        # SigV4 everywhere: presigned POST forms default to SigV2's fields otherwise.
        config=Config(signature_version="s3v4"),
    )


def main(command, *args):
    s3 = client()
    if command == "make-bucket":
        s3.create_bucket(Bucket=args[0])
        return {"bucket": args[0]}
    if command == "get":
        answer = s3.get_object(Bucket=args[0], Key=args[1], ChecksumMode="ENABLED")
        digest = hashlib.sha256()
        size = 0
        for chunk in answer["Body"].iter_chunks(1 << 20):
            digest.update(chunk)
            size += len(chunk)
        return {
            "size": size,
            "sha256": digest.hexdigest(),
            "contentType": answer.get("ContentType"),
            "eTag": answer.get("ETag"),
            "checksumCRC32": answer.get("ChecksumCRC32"),
            "metadata": answer.get("Metadata") or {},
        }
    if command == "list":
        objects = {}
        for page in s3.get_paginator("list_objects_v2").paginate(Bucket=args[0]):
            for entry in page.get("Contents", []):
                body = s3.get_object(Bucket=args[0], Key=entry["Key"])["Body"].read()
                objects[entry["Key"]] = {"size": len(body), "sha256": hashlib.sha256(body).hexdigest()}
        return {"objects": objects}
    if command == "parts":
        uploads = []
        for upload in s3.list_multipart_uploads(Bucket=args[0]).get("Uploads", []):
            parts = s3.list_parts(Bucket=args[0], Key=upload["Key"], UploadId=upload["UploadId"]).get("Parts", [])
            uploads.append({"key": upload["Key"], "uploadId": upload["UploadId"], "bytes": sum(p["Size"] for p in parts)})
        return {"uploads": uploads}
    if command == "presigned-post":
        return s3.generate_presigned_post(args[0], args[1], ExpiresIn=600)
    raise SystemExit(f"unknown command {command}")


if __name__ == "__main__":
    print(json.dumps(main(*sys.argv[1:])))
