#!/usr/bin/env python3
"""An S3-compatible server for issue #14's tests: moto on 127.0.0.1, with
signatures checked as S3 checks them.

    "$(Scripts/test-python.sh)" Tests/Servers/s3_server.py
    listening 127.0.0.1:40127
    {"region": "us-east-1", "user": {"accessKeyID": "AKIA…", "secretAccessKey": "…"},
     "session": {"accessKeyID": "ASIA…", "secretAccessKey": "…", "sessionToken": "…"}}

In its default mode moto checks no signature at all: its settings read
INITIAL_NO_AUTH_ACTION_COUNT (infinite when unset), and only requests past
that count are authenticated (moto/core/authorization.py). A test against it
would then pass with any signature. So this script starts moto with
authentication off, creates through moto's own IAM and STS APIs an IAM user
with an access key and a role assumed for temporary credentials (each allowed
s3:*), then turns authentication on for every later request
(POST /moto-api/reset-auth with 0). From then on every S3 request is
authenticated: by header, by presigned URL or by a POST form's signed policy.
moto's own S3 check is replaced by the one below (SignatureCheck says why); it
follows the S3 documentation, and beyond the signature checks the payload hash,
every aws-chunked chunk signature, and each x-amz-checksum-* field (moto
checks none: it keeps a part without looking at its checksum). A wrong signature gets 403
SignatureDoesNotMatch, an unknown key 403 InvalidAccessKeyId, a request with no
signature 403 AccessDenied.

With --folder DIR it also answers HTTPS, on a second port, from the same
buckets: it writes DIR/ca.pem (a private CA, made at start by tls_server.py's
make_files) and a certificate for 127.0.0.1 that CA issued, and adds the
port to the JSON as "tlsPort". Every request whose header signature passed
is then a JSON line of DIR/payloads.log: its method, its raw target, its
x-amz-content-sha256 and its x-amz-checksum-crc32, from the header or from
an aws-chunked trailer (null when absent), so a test sees how each payload
came signed. Buckets named refuses-trailers-* refuse the trailer form as
stores that lack it do (REFUSING_TRAILERS says which).

The first line of standard output is the launchers' contract (the port); the
second is the credentials above, as JSON. The script exits when standard input
closes (the test process holds it open) and on SIGTERM. The packages come from
Tests/Servers/requirements.txt (installed by Scripts/test-python.sh).
"""

import argparse
import base64
import datetime
import hashlib
import hmac
import json
import pathlib
import sys
import threading
import urllib.parse
import urllib.request
import zlib

import boto3
from moto.core.authorization import ActionAuthenticatorMixin
from moto.iam.access_control import S3IAMRequest
from moto.s3.exceptions import AccessForbidden, S3AccessDeniedError, S3ClientError, S3SignatureDoesNotMatchError
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
from moto.server import ThreadedMotoServer
from moto import settings as moto_settings
from werkzeug.exceptions import HTTPException
from werkzeug.serving import make_server

import tls_server

REGION = "us-east-1"
ALLOW_S3 = json.dumps({
    "Version": "2012-10-17",
    "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}],
})
TRUST_ANYONE = json.dumps({
    "Version": "2012-10-17",
    "Statement": [{"Effect": "Allow", "Principal": {"AWS": "*"}, "Action": "sts:AssumeRole"}],
})


def make_credentials(endpoint):
    """An IAM user's key and a role's temporary credentials, made while moto checks nothing."""
    setup = {
        "endpoint_url": endpoint,
        "region_name": REGION,
        "aws_access_key_id": "setup",
        "aws_secret_access_key": "setup",
    }
    iam = boto3.client("iam", **setup)
    iam.create_user(UserName="tests")
    iam.put_user_policy(UserName="tests", PolicyName="s3-all", PolicyDocument=ALLOW_S3)
    key = iam.create_access_key(UserName="tests")["AccessKey"]
    role = iam.create_role(RoleName="tests", AssumeRolePolicyDocument=TRUST_ANYONE)["Role"]
    iam.put_role_policy(RoleName="tests", PolicyName="s3-all", PolicyDocument=ALLOW_S3)
    session = boto3.client("sts", **setup).assume_role(RoleArn=role["Arn"], RoleSessionName="tests")["Credentials"]
    return {
        "region": REGION,
        "user": {"accessKeyID": key["AccessKeyId"], "secretAccessKey": key["SecretAccessKey"]},
        "session": {
            "accessKeyID": session["AccessKeyId"],
            "secretAccessKey": session["SecretAccessKey"],
            "sessionToken": session["SessionToken"],
        },
    }


def signing_key(secret, day, region, service):
    """SigV4's derived key: an HMAC chain over the day, region, service and "aws4_request"."""
    key = f"AWS4{secret}".encode()
    for part in (day, region, service, "aws4_request"):
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    return key


def hmac_hex(key, text):
    return hmac.new(key, text.encode(), hashlib.sha256).hexdigest()


def sha256_hex(data):
    return hashlib.sha256(data).hexdigest()


def aws_quote(text):
    """URI-encodes as SigV4 does: all but A-Z a-z 0-9 - _ . ~ (RFC 3986's unreserved)."""
    return urllib.parse.quote(text, safe="-_.~")


class RawTarget:
    """The request target as it came off the wire (werkzeug's RAW_URI), and its
    canonical forms as S3 computes them: each path segment decoded and encoded
    once, each query name and value decoded, encoded and sorted."""

    def __init__(self, raw_uri):
        split = urllib.parse.urlsplit(raw_uri)
        self.path = "/".join(aws_quote(urllib.parse.unquote(segment)) for segment in split.path.split("/"))
        self.pairs = [
            (urllib.parse.unquote(name), urllib.parse.unquote(value))
            for name, _, value in (item.partition("=") for item in split.query.split("&") if item)
        ]

    def canonical_query(self, leaving_out=()):
        encoded = sorted((aws_quote(name), aws_quote(value)) for name, value in self.pairs if name not in leaving_out)
        return "&".join(f"{name}={value}" for name, value in encoded)


# The checksums S3 recomputes from a payload, by the field that carries them
# (base64 of the digest's bytes; a CRC's big-endian). CRC32C and CRC64NVME
# are left out: the standard library has neither, and no client here sends them.
CHECKSUMS = {
    "x-amz-checksum-crc32": lambda data: zlib.crc32(data).to_bytes(4, "big"),
    "x-amz-checksum-sha1": lambda data: hashlib.sha1(data).digest(),
    "x-amz-checksum-sha256": lambda data: hashlib.sha256(data).digest(),
}


def expired(amz_date, seconds):
    signed = datetime.datetime.strptime(amz_date, "%Y%m%dT%H%M%SZ").replace(tzinfo=datetime.timezone.utc)
    return datetime.datetime.now(datetime.timezone.utc) > signed + datetime.timedelta(seconds=seconds)


class SignatureCheck(S3IAMRequest):
    """What moto's S3IAMRequest does (find the key's owner, compare signatures,
    apply IAM policies), with the signature computed as S3 documents it.

    moto's own check rebuilds the request for botocore from werkzeug's URL,
    which is not the one sent: keys holding characters such as `+ = : @ $`
    fail with a correct signature. And it needs an Authorization header, so a
    presigned URL or a POST form made moto answer 500. Subclasses give the
    credential, signature and string to sign of each form of authentication."""

    def __init__(self, raw_uri, credential, signature, token, **arguments):
        self.raw_uri = raw_uri
        self.target = RawTarget(raw_uri)
        headers = dict(arguments.pop("headers"))
        # moto reads these three from Authorization, and the session token from the headers.
        headers["Authorization"] = f"AWS4-HMAC-SHA256 Credential={credential}, SignedHeaders=, Signature={signature}"
        headers.pop("X-Amz-Security-Token", None)
        if token is not None:
            headers["X-Amz-Security-Token"] = token
        self.day = credential.split("/")[1] if credential.count("/") == 4 else ""
        super().__init__(headers=headers, **arguments)

    def secret(self):
        return self._access_key.create_credentials().secret_key

    def key(self):
        return signing_key(self.secret(), self.day, self._region, self._service)

    def scope(self):
        return f"{self.day}/{self._region}/{self._service}/aws4_request"

    def string_to_sign(self, amz_date, canonical_request):
        return "\n".join(["AWS4-HMAC-SHA256", amz_date, self.scope(), sha256_hex(canonical_request.encode())])

    def canonical_request(self, signed_headers, payload):
        lowered = {}
        for name, value in self.original_headers.items():
            lowered.setdefault(name.lower(), []).append(" ".join(value.split()))
        lines = "".join(f"{name}:{','.join(lowered.get(name, []))}\n" for name in signed_headers)
        return "\n".join([self._method, self.target.path, self.canonical_query(), lines, ";".join(signed_headers), payload])


class HeaderSignedRequest(SignatureCheck):
    """Authorization: AWS4-HMAC-SHA256 … (sigv4-auth-using-authorization-header).
    Beyond the signature, as S3 does: x-amz-content-sha256 must be the body's
    SHA-256 (or UNSIGNED-PAYLOAD), and an aws-chunked body's chunk signatures
    must each be right (sigv4-streaming)."""

    def __init__(self, raw_uri, **arguments):
        headers = arguments["headers"]
        authorization = headers.get("Authorization", "")
        fields = dict(
            part.strip().partition("=")[::2]
            for part in authorization.removeprefix("AWS4-HMAC-SHA256").split(",")
        )
        self.original_headers = headers
        self.signed_headers = fields.get("SignedHeaders", "").split(";")
        super().__init__(raw_uri, fields.get("Credential", ""), fields.get("Signature", ""), headers.get("X-Amz-Security-Token"), **arguments)

    def canonical_query(self):
        return self.target.canonical_query()

    def check_signature(self):
        if not authorization_is_sigv4(self.original_headers.get("Authorization", "")):
            raise AccessForbidden("Only AWS4-HMAC-SHA256 Authorization is accepted")
        if "host" not in self.signed_headers:
            raise AccessForbidden("SignedHeaders must include host")
        super().check_signature()
        payload = self.original_headers.get("X-Amz-Content-SHA256")
        body = self._body if isinstance(self._body, bytes) else (self._body or "").encode()
        if payload is None:
            raise InvalidRequestError("Missing required header for this request: x-amz-content-sha256")
        crc32 = self.original_headers.get("x-amz-checksum-crc32")
        if payload == "STREAMING-UNSIGNED-PAYLOAD-TRAILER":
            if self.target.path.startswith("/" + REFUSING_TRAILERS):
                PAYLOAD_LOG.record(self._method, self.raw_uri, payload, None)
                raise TrailerNotImplementedError()
            crc32 = self.check_trailer(body)
        if payload == "STREAMING-AWS4-HMAC-SHA256-PAYLOAD":
            self.check_chunks(body)
        elif payload not in ("UNSIGNED-PAYLOAD", "STREAMING-UNSIGNED-PAYLOAD-TRAILER") and payload != sha256_hex(body):
            raise S3ClientError("XAmzContentSHA256Mismatch", "The provided 'x-amz-content-sha256' header does not match what was computed.")
        if not payload.startswith("STREAMING-"):
            self.check_checksums(body)
        PAYLOAD_LOG.record(self._method, self.raw_uri, payload, crc32)

    def check_trailer(self, body):
        """STREAMING-UNSIGNED-PAYLOAD-TRAILER: chunks `hex-size\\r\\n DATA \\r\\n`
        without signatures, the last of size 0, then the trailer fields that
        x-amz-trailer names and an empty line. As S3 does, each checksum in
        the trailer is checked against the decoded bytes (400 BadDigest) and
        the decoded length against x-amz-decoded-content-length (moto checks
        neither). Returns the trailer's x-amz-checksum-crc32."""
        offset = 0
        decoded = bytearray()
        while True:
            line_end = body.find(b"\r\n", offset)
            if line_end < 0:
                raise IncompleteBodyError("an aws-chunked chunk header has no CRLF")
            size = int(body[offset:line_end].decode("latin-1"), 16)
            offset = line_end + 2
            if size == 0:
                break
            if body[offset + size : offset + size + 2] != b"\r\n" or len(body) < offset + size:
                raise IncompleteBodyError("an aws-chunked chunk is shorter than its size or lacks its CRLF")
            decoded += body[offset : offset + size]
            offset += size + 2
        trailer = {}
        while True:
            line_end = body.find(b"\r\n", offset)
            if line_end < 0:
                raise IncompleteBodyError("the trailer does not end with an empty line")
            line = body[offset:line_end].decode("latin-1")
            offset = line_end + 2
            if not line:
                break
            name, _, value = line.partition(":")
            trailer[name.strip().lower()] = value.strip()
        if offset != len(body):
            raise IncompleteBodyError("bytes follow the trailer")
        if str(len(decoded)) != self.original_headers.get("X-Amz-Decoded-Content-Length"):
            raise IncompleteBodyError("x-amz-decoded-content-length differs from the chunks' total")
        announced = [name.strip().lower() for name in self.original_headers.get("x-amz-trailer", "").split(",") if name.strip()]
        if sorted(announced) != sorted(trailer):
            raise S3ClientError("InvalidTrailer", "Invalid trailing header names in x-amz-trailer.")
        for name, digest in CHECKSUMS.items():
            value = trailer.get(name)
            if value is not None and value != base64.b64encode(digest(bytes(decoded))).decode():
                algorithm = name.removeprefix("x-amz-checksum-").upper()
                raise S3ClientError("BadDigest", f"The {algorithm} you specified did not match the calculated checksum.")
        return trailer.get("x-amz-checksum-crc32")

    def check_checksums(self, body):
        """As S3 does: a checksum field that differs from the payload's is
        refused with 400 BadDigest (an aws-chunked body, whose payload is
        the decoded one, is not checked here)."""
        for name, digest in CHECKSUMS.items():
            value = self.original_headers.get(name)
            if value is not None and value != base64.b64encode(digest(body)).decode():
                algorithm = name.removeprefix("x-amz-checksum-").upper()
                raise S3ClientError("BadDigest", f"The {algorithm} you specified did not match the calculated checksum.")

    def check_chunks(self, body):
        """Each chunk is `hex-size;chunk-signature=SIG\\r\\n DATA \\r\\n`, signed over the
        previous signature (the header's, for the first) and the data's SHA-256;
        the last has size 0."""
        previous = self.original_headers_signature
        amz_date = self.original_headers.get("X-Amz-Date", "")
        key = self.key()
        empty = sha256_hex(b"")
        offset = 0
        decoded = 0
        while True:
            line_end = body.find(b"\r\n", offset)
            if line_end < 0:
                raise IncompleteBodyError("an aws-chunked chunk header has no CRLF")
            size_text, _, extension = body[offset:line_end].decode("latin-1").partition(";chunk-signature=")
            size = int(size_text, 16)
            data = body[line_end + 2 : line_end + 2 + size]
            if len(data) != size or body[line_end + 2 + size : line_end + 4 + size] != b"\r\n":
                raise IncompleteBodyError("an aws-chunked chunk is shorter than its size or lacks its CRLF")
            string_to_sign = "\n".join(["AWS4-HMAC-SHA256-PAYLOAD", amz_date, self.scope(), previous, empty, sha256_hex(data)])
            expected = hmac_hex(key, string_to_sign)
            if extension != expected:
                raise S3SignatureDoesNotMatchError()
            previous = expected
            decoded += size
            offset = line_end + 4 + size
            if size == 0:
                break
        if offset != len(body):
            raise IncompleteBodyError("bytes follow the final aws-chunked chunk")
        if str(decoded) != self.original_headers.get("X-Amz-Decoded-Content-Length"):
            raise IncompleteBodyError("x-amz-decoded-content-length differs from the chunks' total")

    @property
    def original_headers_signature(self):
        return self._get_string_between("Signature=", ",", self.original_headers.get("Authorization", "")).strip()

    def _calculate_signature(self):
        amz_date = self.original_headers.get("X-Amz-Date", "")
        payload = self.original_headers.get("X-Amz-Content-SHA256", "UNSIGNED-PAYLOAD")
        canonical = self.canonical_request(self.signed_headers, payload)
        return hmac_hex(self.key(), self.string_to_sign(amz_date, canonical))


class PresignedRequest(SignatureCheck):
    """A presigned URL (sigv4-query-string-auth): every query parameter but
    X-Amz-Signature is signed, the payload is UNSIGNED-PAYLOAD, and the URL
    must not have expired."""

    def __init__(self, raw_uri, **arguments):
        query = dict(RawTarget(raw_uri).pairs)
        self.query = query
        self.original_headers = arguments["headers"]
        self.signed_headers = query.get("X-Amz-SignedHeaders", "").split(";")
        super().__init__(raw_uri, query.get("X-Amz-Credential", ""), query.get("X-Amz-Signature", ""), query.get("X-Amz-Security-Token"), **arguments)

    def canonical_query(self):
        return self.target.canonical_query(leaving_out=("X-Amz-Signature",))

    def check_signature(self):
        if self.query.get("X-Amz-Algorithm") != "AWS4-HMAC-SHA256" or "X-Amz-Date" not in self.query:
            raise AccessForbidden("A presigned URL needs X-Amz-Algorithm=AWS4-HMAC-SHA256 and X-Amz-Date")
        try:
            expires = int(self.query.get("X-Amz-Expires", ""))
        except ValueError:
            raise AccessForbidden("X-Amz-Expires must be a number of seconds")
        if not 1 <= expires <= 604800:
            raise AccessForbidden("X-Amz-Expires must be between 1 second and 7 days")
        if expired(self.query["X-Amz-Date"], expires):
            raise AccessForbidden("Request has expired")
        super().check_signature()

    def _calculate_signature(self):
        canonical = self.canonical_request(self.signed_headers, "UNSIGNED-PAYLOAD")
        return hmac_hex(self.key(), self.string_to_sign(self.query["X-Amz-Date"], canonical))


class PostPolicyRequest(SignatureCheck):
    """A browser-style POST upload (sigv4-UsingHTTPPOST): the form's policy is
    signed, not the request: HMAC-SHA256 of the base64 policy with the derived
    key of x-amz-credential's day, region and service. The policy must not have
    expired; its conditions are not checked (moto does not either)."""

    def __init__(self, raw_uri, **arguments):
        fields = {name.lower(): values[0] for name, values in arguments["data"].items()}
        self.fields = fields
        super().__init__(raw_uri, fields.get("x-amz-credential", ""), fields.get("x-amz-signature", ""), fields.get("x-amz-security-token"), **arguments)

    def check_signature(self):
        try:
            policy = json.loads(base64.b64decode(self.fields.get("policy", ""), validate=True))
            expiration = datetime.datetime.fromisoformat(policy["expiration"].replace("Z", "+00:00"))
        except (ValueError, KeyError, TypeError):
            raise AccessForbidden("The policy field is not base64 JSON with an expiration")
        if datetime.datetime.now(datetime.timezone.utc) > expiration:
            raise AccessForbidden("Invalid according to Policy: Policy expired.")
        if self.fields.get("x-amz-algorithm") != "AWS4-HMAC-SHA256":
            raise AccessForbidden("x-amz-algorithm must be AWS4-HMAC-SHA256")
        super().check_signature()

    def _calculate_signature(self):
        return hmac_hex(self.key(), self.fields.get("policy", ""))


class PayloadLog:
    """DIR/payloads.log when --folder is given: one JSON line per request
    whose header signature passed."""

    def __init__(self):
        self.path = None
        self.lock = threading.Lock()

    def record(self, method, raw_uri, payload, crc32):
        if self.path is None:
            return
        line = json.dumps({"method": method, "target": raw_uri, "payload": payload, "crc32": crc32})
        with self.lock, self.path.open("a") as file:
            file.write(line + "\n")


PAYLOAD_LOG = PayloadLog()


def serve_tls(host, folder):
    """The same buckets over HTTPS with a private CA's certificate; returns the port."""
    tls_server.make_files(folder, "ok")
    server = make_server(host, 0, DomainDispatcherApplication(create_backend_app), threaded=True,
                         ssl_context=(str(folder / "server.pem"), str(folder / "server-key.pem")))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_address[1]


def authorization_is_sigv4(value):
    return value.startswith("AWS4-HMAC-SHA256 ")


class InvalidRequestError(S3ClientError):
    def __init__(self, message):
        super().__init__("InvalidRequest", message)


# Buckets whose names begin so answer STREAMING-UNSIGNED-PAYLOAD-TRAILER as
# stores that do not implement it do: 501 NotImplemented with the message
# Cloudflare R2 sent botocore 1.36 (duolicious/duolicious#609), before
# reading the body. The refused request is logged (its crc32 null).
REFUSING_TRAILERS = "refuses-trailers-"


class TrailerNotImplementedError(HTTPException):
    """A 501 with S3's error document: moto sends a ServiceException with the
    status its model gives the code, 400 for NotImplemented, so the status is
    set here, as werkzeug's exceptions carry it."""
    code = 501
    description = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NotImplemented</Code>'
        "<Message>STREAMING-UNSIGNED-PAYLOAD-TRAILER not implemented</Message></Error>"
    )

    def get_headers(self, environ=None, scope=None):
        return [("Content-Type", "application/xml")]


class IncompleteBodyError(S3ClientError):
    def __init__(self, detail):
        super().__init__("IncompleteBody", f"The request body is not a valid aws-chunked body: {detail}")


def check_signatures_as_s3_does():
    """Sends every authenticated S3 request through the checks above."""
    original = ActionAuthenticatorMixin._authenticate_and_authorize_action

    def authenticate(self, iam_request_cls, resource="*"):
        counting = ActionAuthenticatorMixin.request_count < moto_settings.INITIAL_NO_AUTH_ACTION_COUNT
        if iam_request_cls is not S3IAMRequest or counting:
            return original(self, iam_request_cls, resource)
        raw_uri = self.request.environ.get("RAW_URI") or self.uri
        if "Authorization" in self.headers:
            check = HeaderSignedRequest
        elif "X-Amz-Signature" in dict(RawTarget(raw_uri).pairs):
            check = PresignedRequest
        elif self.method == "POST" and any(name.lower() == "x-amz-signature" for name in self.data):
            check = PostPolicyRequest
        else:
            raise S3AccessDeniedError()
        return original(self, lambda **arguments: check(raw_uri, **arguments), resource)

    ActionAuthenticatorMixin._authenticate_and_authorize_action = authenticate


def turn_authentication_on(endpoint):
    """Every request from now on is authenticated (none are let through uncounted)."""
    # Not urllib's default form type: moto reads the count from the raw body,
    # which werkzeug leaves empty once it has parsed a form.
    request = urllib.request.Request(
        f"{endpoint}/moto-api/reset-auth", data=b"0", method="POST", headers={"Content-Type": "text/plain"}
    )
    with urllib.request.urlopen(request) as response:
        response.read()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--no-auth", action="store_true", help="leave moto's authentication off (its default)")
    parser.add_argument("--folder", type=pathlib.Path, help="also serve HTTPS, its CA and the payload log here")
    arguments = parser.parse_args()

    check_signatures_as_s3_does()
    server = ThreadedMotoServer(ip_address=arguments.host, port=arguments.port, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    credentials = make_credentials(endpoint)
    if arguments.folder is not None:
        arguments.folder.mkdir(parents=True, exist_ok=True)
        credentials["tlsPort"] = serve_tls(host, arguments.folder)
        PAYLOAD_LOG.path = arguments.folder / "payloads.log"
    if not arguments.no_auth:
        turn_authentication_on(endpoint)
    print(f"listening {host}:{port}", flush=True)
    print(json.dumps(credentials), flush=True)
    # The test process holds standard input open; it closes when that process ends.
    while sys.stdin.buffer.read(4096):
        pass
    server.stop()


if __name__ == "__main__":
    main()
