#!/usr/bin/env python3
"""A SOCKS5 proxy (RFC 1928: no authentication, CONNECT) on a free port of
127.0.0.1, Python's standard library only:

    python3 Tests/Servers/socks_proxy.py LOG
    listening 127.0.0.1:40127

Each CONNECT appends a line to LOG: `CONNECT domain NAME PORT` when the
client asked the proxy to resolve a name (socks5h), `CONNECT ipv4 ADDRESS
PORT` or `CONNECT ipv6 ADDRESS PORT` when it resolved the name itself. A
client that offers no "no authentication" method is refused (method 0xFF).
It exits when standard input closes.
"""

import ipaddress
import socket
import struct
import sys
import threading


def read_exactly(connection, count):
    data = b""
    while len(data) < count:
        chunk = connection.recv(count - len(data))
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return data


def pipe(source, destination):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            destination.sendall(data)
    except OSError:
        pass
    finally:
        for end in (source, destination):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def serve(connection, log, lock):
    try:
        version, count = read_exactly(connection, 2)
        methods = read_exactly(connection, count)
        if version != 5 or 0 not in methods:
            connection.sendall(b"\x05\xff")
            return
        connection.sendall(b"\x05\x00")
        version, command, _, kind = read_exactly(connection, 4)
        if kind == 1:
            host = str(ipaddress.IPv4Address(read_exactly(connection, 4)))
            described = f"ipv4 {host}"
        elif kind == 4:
            host = str(ipaddress.IPv6Address(read_exactly(connection, 16)))
            described = f"ipv6 {host}"
        else:
            host = read_exactly(connection, read_exactly(connection, 1)[0]).decode()
            described = f"domain {host}"
        port = struct.unpack("!H", read_exactly(connection, 2))[0]
        with lock, open(log, "a") as file:
            file.write(f"CONNECT {described} {port}\n")
        if command != 1:
            connection.sendall(b"\x05\x07\x00\x01" + bytes(6))
            return
        try:
            target = socket.create_connection((host, port), timeout=10)
        except OSError:
            connection.sendall(b"\x05\x05\x00\x01" + bytes(6))
            return
        target.settimeout(None)
        connection.sendall(b"\x05\x00\x00\x01" + bytes(6))
        threading.Thread(target=pipe, args=(target, connection), daemon=True).start()
        pipe(connection, target)
    except (ConnectionError, OSError):
        pass
    finally:
        connection.close()


def main():
    log = sys.argv[1]
    lock = threading.Lock()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)

    def accept():
        while True:
            connection, _ = listener.accept()
            threading.Thread(target=serve, args=(connection, log, lock), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    print(f"listening 127.0.0.1:{listener.getsockname()[1]}", flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main()
