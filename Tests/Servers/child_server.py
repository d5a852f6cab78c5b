"""Runs a server program as a child for a test: waits until it accepts
connections on every port given, announces `listening 127.0.0.1:PORT` on
standard output, then serves until standard input closes or SIGTERM comes,
and stops the child on every way out."""

import os
import signal
import socket
import subprocess
import sys
import time


def serve_child(command, name, ports, announce, log=None):
    """Starts `command`; `log` is a file whose tail explains an early exit."""
    # The test process stops the wrapper with SIGTERM right after closing its
    # standard input; Python's default handling of SIGTERM would end it
    # without running the `finally` below, leaving the child running.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    child = subprocess.Popen(command, stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            if child.poll() is not None:
                tail = open(log).read()[-2000:] if log and os.path.exists(log) else ""
                sys.exit(f"{name} exited with status {child.returncode}" + (f": {tail}" if tail else ""))
            try:
                for port in ports:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    sys.exit(f"{name} did not listen within 60 seconds")
                time.sleep(0.1)
        print(f"listening 127.0.0.1:{announce}", flush=True)
        sys.stdin.read()
    finally:
        child.terminate()
        try:
            child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            child.kill()
