#!/usr/bin/env python3
"""A TCP proxy on 127.0.0.1 that cuts connections mid-body, for resumable-upload tests.

    python3 Tests/Servers/fault_proxy.py --target 127.0.0.1:8080 --cut-after 65536 --cuts 3
    listening 127.0.0.1:40125

It forwards bytes both ways. Each connection counts the bytes it forwards from
the client to the server; the first CUTS connections whose count reaches
CUT_AFTER are cut there: exactly CUT_AFTER bytes reach the server, which then
reads an orderly end of stream (so what it keeps is predictable), and the
client's socket is reset (SO_LINGER 0), as a broken network would leave it.
A connection that closes before reaching CUT_AFTER uses up no cut. After CUTS
cuts everything passes.

    python3 Tests/Servers/fault_proxy.py --target 127.0.0.1:8080 --hold-after 13107200

With --hold-after BYTES the connections together forward at most BYTES from
clients to the server: the connection that reaches the budget forwards up to
it and stops, and from then on every connection holds what it reads instead
of forwarding it (and reads no more, so its client's writes block). A test
uses it to make sure an upload cannot finish before the test is done with it
(a killed client's upload, say). A line `release` on standard input ends the
hold: the held connections are cut as above, so what they held never reaches
the server, and every connection after that passes untouched. `release`
answers with the stats line once the held connections are cut.

Counts are raw TCP bytes, HTTP heads included. They are printed as one JSON
line on standard output whenever a line `stats` arrives on standard input,
and written to --stats FILE (replaced whole) each time a connection closes:
{"connections": 4, "cuts": 3, "held": 0, "client_to_server_bytes": 123, "server_to_client_bytes": 456, "peak_requests_in_flight": 2}
("held" counts the connections the hold stopped, released or not.)

A connection has a request in flight from the first client-to-server bytes
until the first server-to-client bytes after them (read by the proxy before
it forwards them, so before the client can send its next request);
peak_requests_in_flight is the most connections that had one at once.

With --exit-on-stdin-eof it exits when standard input closes, so a test's
child never outlives the test process. Python's standard library only.
"""

import argparse
import asyncio
import json
import os
import signal
import socket
import struct
import sys

CHUNK = 256 * 1024


class Stats:
    def __init__(self, path):
        self.path = path
        self.connections = 0
        self.cuts = 0
        self.held = 0
        self.client_to_server = 0  # bytes, named as pump's directions
        self.server_to_client = 0
        self.in_flight = 0
        self.peak_in_flight = 0

    def as_json(self):
        return json.dumps({
            "connections": self.connections,
            "cuts": self.cuts,
            "held": self.held,
            "client_to_server_bytes": self.client_to_server,
            "server_to_client_bytes": self.server_to_client,
            "peak_requests_in_flight": self.peak_in_flight,
        })

    def save(self):
        if not self.path:
            return
        # Replaced whole, so a reader never sees half a file.
        temporary = f"{self.path}.tmp"
        with open(temporary, "w") as file:
            file.write(self.as_json() + "\n")
        os.replace(temporary, self.path)


class Hold:
    """The --hold-after budget, shared by every connection's client-to-server pump."""

    def __init__(self, budget):
        self.left = budget  # None: no hold was asked for
        self.released = asyncio.Event()
        self.waiting = set()  # the pumps' tasks now waiting for the release

    def room(self):
        """Bytes a connection may still forward; None for any number."""
        return None if self.left is None or self.released.is_set() else self.left

    def spend(self, count):
        if self.room() is not None:
            self.left -= count

    async def release(self):
        """Ends the hold and returns once every held connection is cut."""
        waiting = list(self.waiting)
        self.released.set()
        if waiting:
            await asyncio.wait(waiting)


class Proxy:
    def __init__(self, target_host, target_port, cut_after, cuts, hold_after, stats):
        self.target = (target_host, target_port)
        self.cut_after = cut_after
        self.cuts_left = cuts if cut_after is not None else 0
        self.hold = Hold(hold_after)
        self.stats = stats

    async def handle(self, client_reader, client_writer):
        self.stats.connections += 1
        try:
            server_reader, server_writer = await asyncio.open_connection(*self.target)
        except OSError as error:
            print(f"fault_proxy: cannot reach {self.target}: {error}", file=sys.stderr)
            abort(client_writer)
            return
        # Only the client-to-server direction cuts; the client is the victim.
        exchange = Exchange(self.stats)
        upstream = asyncio.create_task(self.pump(client_reader, server_writer, "client_to_server", exchange, victim=client_writer))
        downstream = asyncio.create_task(self.pump(server_reader, client_writer, "server_to_client", exchange))
        await asyncio.wait({upstream, downstream}, return_when=asyncio.FIRST_COMPLETED)
        cut = upstream.done() and not upstream.cancelled() and upstream.exception() is None and upstream.result()
        if not cut:
            # One side finished: let the other drain what is in flight, briefly.
            await asyncio.wait({upstream, downstream}, timeout=5)
        for task in (upstream, downstream):
            task.cancel()
        for writer in (client_writer, server_writer):
            writer.close()
        exchange.answered()
        self.stats.save()

    async def pump(self, reader, writer, direction, exchange, victim=None):
        """Forwards until the end of stream; with a victim, cuts when due and returns True."""
        forwarded = 0
        while True:
            if victim is not None and self.hold.room() == 0:
                return await self.hold_until_release(writer, victim)
            data = await reader.read(CHUNK)
            if not data:
                if writer.can_write_eof():
                    writer.write_eof()
                return False
            if direction == "client_to_server":
                exchange.asked()
            else:
                exchange.answered()
            cut = victim is not None and self.cuts_left > 0 and forwarded + len(data) >= self.cut_after
            if cut:
                data = data[: self.cut_after - forwarded]
            room = self.hold.room() if victim is not None else None
            # Read while another connection spent the rest: only the room left goes on.
            held = room is not None and len(data) > room
            if held:
                data, cut = data[:room], False
            if victim is not None:
                self.hold.spend(len(data))
            writer.write(data)
            forwarded += len(data)
            setattr(self.stats, direction, getattr(self.stats, direction) + len(data))
            await writer.drain()
            if cut:
                self.cuts_left -= 1
                self.stats.cuts += 1
                # The server reads the bytes let through, then an orderly end.
                writer.close()
                abort(victim)
                return True
            if held:
                return await self.hold_until_release(writer, victim)

    async def hold_until_release(self, writer, victim):
        """Holds a connection (forwarding and reading nothing) until the release, then cuts it."""
        self.stats.held += 1
        task = asyncio.current_task()
        self.hold.waiting.add(task)
        try:
            await self.hold.released.wait()
        finally:
            self.hold.waiting.discard(task)
        # What was sent before the hold reached the server; the rest never does.
        writer.close()
        abort(victim)
        return True


class Exchange:
    """Whether a connection has a request in flight: asked, not yet answered."""

    def __init__(self, stats):
        self.stats = stats
        self.waiting = False

    def asked(self):
        if not self.waiting:
            self.waiting = True
            self.stats.in_flight += 1
            self.stats.peak_in_flight = max(self.stats.peak_in_flight, self.stats.in_flight)

    def answered(self):
        if self.waiting:
            self.waiting = False
            self.stats.in_flight -= 1


def abort(writer):
    """Resets the connection instead of closing it in order."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        except OSError:
            pass
    writer.transport.abort()


async def serve(arguments):
    host, _, port = arguments.target.rpartition(":")
    stats = Stats(arguments.stats)
    proxy = Proxy(host or "127.0.0.1", int(port), arguments.cut_after, arguments.cuts, arguments.hold_after, stats)
    server = await asyncio.start_server(proxy.handle, arguments.host, arguments.port)
    bound = server.sockets[0].getsockname()
    # The first line is the launchers' contract: they read the port from it.
    print(f"listening {bound[0]}:{bound[1]}", flush=True)

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stop.set)
    commands = asyncio.create_task(read_commands(proxy, stop, arguments.exit_on_stdin_eof))
    await stop.wait()
    commands.cancel()
    server.close()
    stats.save()


async def read_commands(proxy, stop, exit_on_eof):
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    try:
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    except (OSError, ValueError):
        return  # no usable standard input (a terminal closed, /dev/null)
    while True:
        line = await reader.readline()
        if not line:
            if exit_on_eof:
                stop.set()
            return
        if line.strip() == b"stats":
            print(proxy.stats.as_json(), flush=True)
        elif line.strip() == b"release":
            await proxy.hold.release()
            print(proxy.stats.as_json(), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", required=True, help="HOST:PORT of the server behind the proxy")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--cut-after", type=int, help="client-to-server bytes per connection before a cut")
    parser.add_argument("--cuts", type=int, default=1, help="how many connections to cut (default 1)")
    parser.add_argument("--hold-after", type=int, help="client-to-server bytes, all connections together, before the hold")
    parser.add_argument("--stats", help="a file the counts are written to at each connection's close")
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    arguments = parser.parse_args()
    if arguments.cut_after is not None and arguments.cut_after < 0:
        parser.error("--cut-after must not be negative")
    if arguments.hold_after is not None and arguments.hold_after < 0:
        parser.error("--hold-after must not be negative")
    asyncio.run(serve(arguments))


if __name__ == "__main__":
    main()
