#!/usr/bin/env python3
"""A tus 1.0 server for issue #13's tests: aiohttp-tus on 127.0.0.1.

    "$(Scripts/test-python.sh)" Tests/Servers/tus_server.py /tmp/tus-uploads
    listening 127.0.0.1:40127

Uploads are created at /uploads (POST, `Upload-Metadata` must carry
`filename`). A finished upload is moved to UPLOAD_DIR/<filename>, and a
summary {"file", "bytes", "sha256"} is written to
UPLOAD_DIR/.done/<filename>.json, so a test can check a large upload without
hashing it again. aiohttp-tus reads each PATCH body whole into memory before
writing any of it: --max-chunk-bytes sets aiohttp's `client_max_size`, the
largest PATCH accepted (a larger one gets 413).

It exits on SIGTERM or SIGINT, and with --exit-on-stdin-eof when standard
input closes, so a test's child never outlives the test process. The packages
come from Tests/Servers/requirements.txt (installed by Scripts/test-python.sh).
"""

import argparse
import asyncio
import hashlib
import json
import signal
import sys
from pathlib import Path

from aiohttp import web
from aiohttp_tus import setup_tus


def summarize(upload_dir):
    async def on_upload_done(request, resource, file_path):
        digest = hashlib.sha256()
        size = 0
        with open(file_path, "rb") as file:
            while block := file.read(1024 * 1024):
                digest.update(block)
                size += len(block)
        done = upload_dir / ".done"
        done.mkdir(exist_ok=True)
        summary = {"file": file_path.name, "bytes": size, "sha256": digest.hexdigest()}
        (done / f"{file_path.name}.json").write_text(json.dumps(summary) + "\n")

    return on_upload_done


async def serve(arguments):
    upload_dir = Path(arguments.upload_dir).absolute()
    upload_dir.mkdir(parents=True, exist_ok=True)
    app = web.Application(client_max_size=arguments.max_chunk_bytes)
    setup_tus(app, upload_path=upload_dir, upload_url="/uploads", on_upload_done=summarize(upload_dir))
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, arguments.host, arguments.port)
    await site.start()
    bound = runner.addresses[0]
    # The first line is the launchers' contract: they read the port from it.
    print(f"listening {bound[0]}:{bound[1]}", flush=True)

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stop.set)
    watcher = asyncio.create_task(wait_for_stdin_eof(stop)) if arguments.exit_on_stdin_eof else None
    await stop.wait()
    if watcher:
        watcher.cancel()
    await runner.cleanup()


async def wait_for_stdin_eof(stop):
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while await reader.read(4096):
        pass
    stop.set()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("upload_dir", help="where uploads are stored (created if missing)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--max-chunk-bytes", type=int, default=16 * 1024 * 1024,
                        help="the largest PATCH body accepted (default 16 MiB)")
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    asyncio.run(serve(parser.parse_args()))


if __name__ == "__main__":
    main()
