#!/usr/bin/env python3
"""Answers with compressed bodies, for `--compressed`: Python's own gzip and
zlib make them, so the bytes come from another implementation than the
uploader's inflater, and curl decodes the same answers.

    python3 Tests/Servers/compressed_server.py
    listening 127.0.0.1:40127

Paths (every answer is 200 unless said otherwise):
  /identity       the payload as it is, no Content-Encoding
  /gzip           gzip (RFC 1952), with Content-Length
  /gzip-chunked   gzip sent chunked, in pieces of 1,000 bytes
  /deflate        zlib-wrapped deflate (RFC 1950), as RFC 9110 means it
  /raw-deflate    raw deflate (RFC 1951) under "deflate", as some servers send it
  /gzip-deflate   Content-Encoding: deflate, gzip (deflate applied first)
  /corrupt        "gzip" whose bytes are not gzip data
  /truncated      gzip cut off halfway, with a Content-Length that says so
  /bomb           200 MiB of zeros gzipped (about 200 KB): memory must stay flat
  /br             Content-Encoding: br, which the uploader does not decode
Each response carries X-Accept-Encoding: the request's Accept-Encoding
(or "none"). It exits when standard input closes.
"""

import gzip
import http.server
import random
import sys
import threading
import zlib


def payload():
    """About 3 MB: text that compresses, with incompressible runs between."""
    generator = random.Random(1952)
    pieces = []
    for index in range(300):
        pieces.append((f"line {index}: the quick brown fox jumps over the lazy dog\n" * 80).encode())
        pieces.append(generator.randbytes(4000))
    return b"".join(pieces)


PAYLOAD = payload()


def raw_deflate(data):
    compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush()


def bomb():
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    zeros = bytes(1 << 20)
    return b"".join(compressor.compress(zeros) for _ in range(200)) + compressor.flush()


BODIES = {
    "/identity": (None, PAYLOAD),
    "/gzip": ("gzip", gzip.compress(PAYLOAD, mtime=0)),
    "/deflate": ("deflate", zlib.compress(PAYLOAD)),
    "/raw-deflate": ("deflate", raw_deflate(PAYLOAD)),
    "/gzip-deflate": ("deflate, gzip", gzip.compress(zlib.compress(PAYLOAD), mtime=0)),
    "/corrupt": ("gzip", b"this is not gzip data at all, just text" * 10),
    "/truncated": ("gzip", gzip.compress(PAYLOAD, mtime=0)[: 200_000]),
    "/bomb": ("gzip", bomb()),
    "/br": ("br", b"\x0b\x02\x80hello\x03"),
}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        path = self.path.split("?")[0]
        chunked = path == "/gzip-chunked"
        encoding, body = BODIES["/gzip" if chunked else path] if (path in BODIES or chunked) else (None, None)
        if body is None:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("X-Accept-Encoding", self.headers.get("Accept-Encoding", "none"))
        if encoding:
            self.send_header("Content-Encoding", encoding)
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for start in range(0, len(body), 1000):
                piece = body[start:start + 1000]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            self.wfile.write(b"0\r\n\r\n")
        else:
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    def log_message(self, *arguments):
        pass


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"listening 127.0.0.1:{server.server_address[1]}", flush=True)
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
