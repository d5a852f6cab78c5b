#!/usr/bin/env python3
"""proxy.py (PyPI), a real forward proxy that tunnels CONNECT, for issue
#27's tests, started on a free port of 127.0.0.1:

    "$(Scripts/test-python.sh)" Tests/Servers/forward_proxy.py LOG [--basic-auth USER:PASS]
    listening 127.0.0.1:40127

proxy.py writes its access log (one line per request: `CONNECT host:port`
for a tunnel, the method and URL otherwise) to LOG. This wrapper prints the
port line once the proxy accepts connections, and stops it when standard
input closes, so it never outlives the test process.
"""

import argparse
import socket
import sys

from child_server import serve_child


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("log")
    parser.add_argument("--basic-auth")
    args = parser.parse_args()
    port = free_port()
    command = [sys.executable, "-m", "proxy", "--hostname", "127.0.0.1", "--port", str(port),
               "--num-workers", "1", "--num-acceptors", "1", "--log-file", args.log,
               # A connection idle this long is dropped: longer than a test
               # under a sanitizer takes between its CONNECT and its bytes.
               "--timeout", "120"]
    if args.basic_auth:
        command += ["--basic-auth", args.basic_auth]
    serve_child(command, "proxy.py", [port], port)


if __name__ == "__main__":
    main()
