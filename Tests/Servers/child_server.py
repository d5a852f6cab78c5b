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


def listens(pid, port):
    """Whether process `pid` (or one it started) listens on `port`.

    The ports come from binding port 0 and closing the socket, so another
    program may take one before the child binds it: a connection that
    succeeds may reach that program. On Linux the listening socket's inode
    (/proc/net/tcp) must be among the child's descriptors; elsewhere a
    connection that succeeds is taken as the child's."""
    if not os.path.exists("/proc/net/tcp"):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    listening = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = open(table).read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            # local address "0100007F:9C40", state 0A (LISTEN), inode
            if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                listening.add(f"socket:[{fields[9]}]")
    return any(listening & descriptors(member) for member in family(pid))


def family(pid):
    """`pid` and every process it started, and they started, and so on."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read()
            except OSError:
                continue
            parents.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(entry))
    members, queue = [], [pid]
    while queue:
        member = queue.pop()
        members.append(member)
        queue += parents.get(member, [])
    return members


def descriptors(pid):
    """What the open descriptors of `pid` point at (`socket:[INODE]`, paths)."""
    try:
        names = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return set()
    targets = set()
    for name in names:
        try:
            targets.add(os.readlink(f"/proc/{pid}/fd/{name}"))
        except OSError:
            pass
    return targets


def serve_child(command, name, ports, announce, log=None):
    """Starts `command`; `log` is a file whose tail explains an early exit."""
    # The test process stops the wrapper with SIGTERM right after closing its
    # standard input; Python's default handling of SIGTERM would end it
    # without running the `finally` below, leaving the child running.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    # A group of its own: the workers it starts are stopped with it.
    child = subprocess.Popen(command, stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            if child.poll() is not None:
                tail = open(log).read()[-2000:] if log and os.path.exists(log) else ""
                sys.exit(f"{name} exited with status {child.returncode}" + (f": {tail}" if tail else ""))
            try:
                for port in ports:
                    if not listens(child.pid, port):
                        raise OSError(f"{name} does not listen on {port} yet")
                break
            except OSError:
                if time.monotonic() > deadline:
                    sys.exit(f"{name} did not listen within 60 seconds")
                time.sleep(0.1)
        print(f"listening 127.0.0.1:{announce}", flush=True)
        sys.stdin.read()
    finally:
        # A SIGTERM that comes while the child stops must not cut this short.
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        stop(child, signal.SIGTERM)
        try:
            child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        stop(child, signal.SIGKILL)  # what is left of the group, workers included
        child.wait()


def stop(child, signal_number):
    """Sends `signal_number` to the child's process group."""
    try:
        os.killpg(child.pid, signal_number)
    except ProcessLookupError:
        pass
