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

or {"error": "…"}. The signing time is the given date, not the clock:
botocore reads it from botocore.auth.get_current_datetime, replaced here per
request. The packages come from Tests/Servers/requirements.txt.
"""

import base64
import datetime
import json
import sys

import botocore.auth
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


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            answer = sign(json.loads(line))
        except Exception as error:  # the test shows it; the process keeps serving
            answer = {"error": f"{type(error).__name__}: {error}"}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
