#!/usr/bin/env python3
"""squid (the Debian package) with its STOCK configuration, started on a
free port of 127.0.0.1 as an unprivileged child of the test:

    python3 Tests/Servers/squid_proxy.py FOLDER [--basic-auth USER:PASS]
    listening 127.0.0.1:40127

The configuration is /etc/squid/squid.conf as installed, with only what a
child of the test needs changed: `http_port` on 127.0.0.1 and the free
port, the pid file, logs and core dumps in FOLDER, and the effective user
(`proxy`, as Debian runs it) when started as root, since squid refuses to
run as root. One `http_access allow` line for 127.0.0.1 goes where the
stock file says "INSERT YOUR OWN RULE(S) HERE", after its `deny CONNECT
!SSL_ports`; with --basic-auth, `auth_param basic` with a password file
made here (openssl passwd -apr1) and a rule that asks for it. The access
log is FOLDER/access.log. squid stops when standard input closes.
"""

import argparse
import os
import shutil
import socket
import subprocess
import sys

from child_server import serve_child

STOCK = "/etc/squid/squid.conf"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("--basic-auth")
    args = parser.parse_args()
    squid = shutil.which("squid") or "/usr/sbin/squid"
    if not os.path.exists(squid) or not os.path.exists(STOCK):
        sys.exit("squid is not installed (Debian package squid; .ci/run installs it): no " + (STOCK if os.path.exists(squid) else squid))
    folder = os.path.abspath(args.folder)
    os.makedirs(folder, exist_ok=True)
    os.chmod(folder, 0o777)  # the effective user writes its logs here
    port = free_port()
    stock = open(STOCK).read()
    rules = "acl test_client src 127.0.0.1\n"
    if args.basic_auth:
        user, password = args.basic_auth.split(":", 1)
        digest = subprocess.run(["openssl", "passwd", "-apr1", password], check=True, capture_output=True, text=True).stdout.strip()
        passwords = os.path.join(folder, "passwords")
        with open(passwords, "w") as file:
            file.write(f"{user}:{digest}\n")
        os.chmod(passwords, 0o644)
        rules += (f"auth_param basic program /usr/lib/squid/basic_ncsa_auth {passwords}\n"
                  "acl authenticated proxy_auth REQUIRED\n"
                  "http_access deny !authenticated\n")
    rules += "http_access allow test_client\n"
    marker = "include /etc/squid/conf.d/*.conf\n"
    replacements = [("\nhttp_port 3128\n", f"\nhttp_port 127.0.0.1:{port}\n"),
                    ("\ncoredump_dir /var/spool/squid\n", f"\ncoredump_dir {folder}\n"),
                    ("\n" + marker, "\n" + marker + rules)]
    for old, new in replacements:
        if old not in stock:
            sys.exit(f"{STOCK} is not the stock configuration: it has no line {old.strip()!r}")
        stock = stock.replace(old, new, 1)
    user = "cache_effective_user proxy\n" if os.geteuid() == 0 else ""
    config = os.path.join(folder, "squid.conf")
    with open(config, "w") as file:
        file.write(f"pid_filename {folder}/squid.pid\ncache_log {folder}/cache.log\n"
                   f"access_log stdio:{folder}/access.log\n{user}shutdown_lifetime 0 seconds\n" + stock)
    serve_child([squid, "-N", "-f", config], "squid", [port], port, log=os.path.join(folder, "cache.log"))


if __name__ == "__main__":
    main()
