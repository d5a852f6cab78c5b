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
import signal
import socket
import subprocess
import sys
import time


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
               "--num-workers", "1", "--num-acceptors", "1", "--log-file", args.log]
    if args.basic_auth:
        command += ["--basic-auth", args.basic_auth]
    # The test process stops this wrapper with SIGTERM right after closing
    # its standard input; Python's default handling of SIGTERM would end it
    # without running the `finally` below, leaving proxy.py running.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    child = subprocess.Popen(command, stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            if child.poll() is not None:
                sys.exit(f"proxy.py exited with status {child.returncode}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    sys.exit("proxy.py did not listen within 60 seconds")
                time.sleep(0.1)
        print(f"listening 127.0.0.1:{port}", flush=True)
        sys.stdin.read()
    finally:
        child.terminate()
        try:
            child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            child.kill()


if __name__ == "__main__":
    main()
