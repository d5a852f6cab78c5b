#!/usr/bin/env python3
"""botocore's Signature Version 4 signers as an independent oracle for the
AWSSigning tests: the same request, signed by both, must come out the same.

Reads one JSON request a line on standard input and writes one JSON answer a
line, until standard input closes (one process serves a whole test):

    {"signer": "s3", "method": "PUT", "url": "https://bucket.s3.amazonaws.com/k?a=1",
     "headers": [["Content-Type", "text/plain"]], "body": "<base64>" | null,
     "unsignedPayload": false, "accessKeyID": "AKID", "secretAccessKey": "…",
     "sessionToken": null, "region": "us-east-1", "service": "s3",
     "date": "20150830T123600Z", "expires": 3600}

signer is "sigv4" (botocore.auth.SigV4Auth: any service), "s3" (S3SigV4Auth,
which sets X-Amz-Content-SHA256 from the body, or UNSIGNED-PAYLOAD when
unsignedPayload is true) or "s3-query" (S3SigV4QueryAuth: a presigned URL valid
for `expires` seconds). The answer:

    {"headers": [[name, value], …], "url": "…", "canonicalRequest": "…", "stringToSign": "…"}

or {"error": "…"}.

signer "s3-post" asks boto3's generate_presigned_post for a form instead:

    {"signer": "s3-post", "bucket": "b", "key": "avatars/${filename}",
     "fields": {"Content-Type": "image/png"}, "conditions": [...], "expires": 600,
     "accessKeyID": …, "secretAccessKey": …, "sessionToken": …, "region": …, "date": …}

and answers {"url": "…", "fields": {…}} as boto3 returns it. The signing time is the given date, not the clock:
botocore reads it from botocore.auth.get_current_datetime, replaced here per
request. The packages come from Tests/Servers/requirements.txt.
"""

import base64
import datetime
import json
import sys

import boto3
import botocore.auth
import botocore.signers
from botocore.auth import S3SigV4Auth, S3SigV4QueryAuth, SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.config import Config
from botocore.credentials import Credentials


def sign(order):
    credentials = Credentials(order["accessKeyID"], order["secretAccessKey"], order.get("sessionToken"))
    service = order.get("service", "s3")
    region = order["region"]
    signer = order["signer"]
    if signer == "sigv4":
        auth = SigV4Auth(credentials, service, region)
    elif signer == "s3":
        auth = S3SigV4Auth(credentials, service, region)
    elif signer == "s3-query":
        auth = S3SigV4QueryAuth(credentials, service, region, expires=order.get("expires", 3600))
    else:
        raise ValueError(f"unknown signer {signer}")
    body = base64.b64decode(order["body"]) if order.get("body") is not None else None
    request = AWSRequest(method=order["method"], url=order["url"], data=body)
    for name, value in order.get("headers", []):
        # An email.message: assigning adds one more value of a repeated name
        # (botocore joins them with commas when it signs).
        request.headers[name] = value
    if order.get("unsignedPayload"):
        request.context["client_config"] = Config(s3={"payload_signing_enabled": False})
        request.context["payload_signing_enabled"] = False
    date = datetime.datetime.strptime(order["date"], "%Y%m%dT%H%M%SZ")
    botocore.auth.get_current_datetime = lambda: date
    seen = {}
    canonical_request, string_to_sign = auth.canonical_request, auth.string_to_sign

    def keep_canonical_request(request):
        seen["canonicalRequest"] = canonical_request(request)
        return seen["canonicalRequest"]

    def keep_string_to_sign(request, canonical):
        seen["stringToSign"] = string_to_sign(request, canonical)
        return seen["stringToSign"]

    auth.canonical_request, auth.string_to_sign = keep_canonical_request, keep_string_to_sign
    auth.add_auth(request)
    return {"headers": [[name, value] for name, value in request.headers.items()], "url": request.url, **seen}


def presigned_post(order):
    date = datetime.datetime.strptime(order["date"], "%Y%m%dT%H%M%SZ")
    botocore.auth.get_current_datetime = lambda: date
    botocore.signers.get_current_datetime = lambda: date
    client = boto3.client(
        "s3",
        region_name=order["region"],
        aws_access_key_id=order["accessKeyID"],
        aws_secret_access_key=order["secretAccessKey"],
        aws_session_token=order.get("sessionToken"),
        # SigV4 everywhere: presigned POST forms default to SigV2's fields otherwise.
        config=Config(signature_version="s3v4"),
    )
    return client.generate_presigned_post(
        order["bucket"], order["key"], Fields=order.get("fields"), Conditions=order.get("conditions"),
        ExpiresIn=order.get("expires", 3600),
    )


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            order = json.loads(line)
            answer = presigned_post(order) if order.get("signer") == "s3-post" else sign(order)
        except Exception as error:  # the test shows it; the process keeps serving
            answer = {"error": f"{type(error).__name__}: {error}"}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
