#!/usr/bin/env python3
"""An HTTPS server with a private CA made at start, for issue #27's tests.

    "$(Scripts/test-python.sh)" Tests/Servers/tls_server.py DIR --mode ok
    listening 127.0.0.1:40127

It writes to DIR, before printing its port: ca.pem (the private CA),
client.pem and client-key.pem (a client certificate the CA issued, and its
key), client-combined.pem (both in one file), client-key-encrypted.pem (the
same key under a passphrase) and other-key.pem (a key that matches nothing).

--mode says what the server's certificate is:
  ok            issued by the CA for 127.0.0.1 (an IP SAN)
  wrong-name    issued by the CA for wrong.example only
  expired       issued by the CA for 127.0.0.1, valid until yesterday
  client-cert   as ok, and the server requires a client certificate from the CA

Every request is answered 200 with JSON {"method", "path", "bytes",
"client"} (client: the client certificate's common name, or null), and
appended to DIR/requests.log as one JSON line, so a test sees what reached
the server. It exits with --exit-on-stdin-eof when standard input closes.
"""

import argparse
import datetime
import ipaddress
import json
import ssl
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


def name(common_name):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def pem_key(key, password=None):
    encryption = serialization.BestAvailableEncryption(password) if password else serialization.NoEncryption()
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption)


def issue(ca_key, ca_name, subject, key, not_before, not_after, *, sans=None, usage=None, is_ca=False):
    builder = (
        x509.CertificateBuilder()
        .subject_name(name(subject))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(not_before)
        .not_valid_after(not_after)
        .add_extension(x509.BasicConstraints(ca=is_ca, path_length=None), critical=True)
    )
    if is_ca:
        builder = builder.add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True
        )
    if sans:
        builder = builder.add_extension(x509.SubjectAlternativeName(sans), critical=False)
    if usage:
        builder = builder.add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
    return builder.sign(ca_key, hashes.SHA256())


def make_files(folder, mode):
    now = datetime.datetime.now(datetime.timezone.utc)
    day = datetime.timedelta(days=1)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = name("uploader test CA")
    ca = issue(ca_key, ca_name, "uploader test CA", ca_key, now - day, now + 30 * day, is_ca=True)
    (folder / "ca.pem").write_bytes(ca.public_bytes(serialization.Encoding.PEM))

    server_key = ec.generate_private_key(ec.SECP256R1())
    sans = [x509.DNSName("wrong.example")] if mode == "wrong-name" else [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
    not_before, not_after = (now - 10 * day, now - day) if mode == "expired" else (now - day, now + 30 * day)
    server = issue(ca_key, ca_name, "uploader test server", server_key, not_before, not_after,
                   sans=sans, usage=ExtendedKeyUsageOID.SERVER_AUTH)
    (folder / "server.pem").write_bytes(server.public_bytes(serialization.Encoding.PEM))
    (folder / "server-key.pem").write_bytes(pem_key(server_key))

    client_key = ec.generate_private_key(ec.SECP256R1())
    client = issue(ca_key, ca_name, "uploader test client", client_key, now - day, now + 30 * day,
                   usage=ExtendedKeyUsageOID.CLIENT_AUTH)
    client_pem = client.public_bytes(serialization.Encoding.PEM)
    (folder / "client.pem").write_bytes(client_pem)
    (folder / "client-key.pem").write_bytes(pem_key(client_key))
    (folder / "client-combined.pem").write_bytes(client_pem + pem_key(client_key))
    (folder / "client-key-encrypted.pem").write_bytes(pem_key(client_key, b"secret"))
    (folder / "other-key.pem").write_bytes(pem_key(ec.generate_private_key(ec.SECP256R1())))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folder", type=Path)
    parser.add_argument("--mode", choices=["ok", "wrong-name", "expired", "client-cert"], default="ok")
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    args = parser.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    make_files(args.folder, args.mode)
    log = args.folder / "requests.log"
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_):
            pass

        def read_body(self):
            if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                total = 0
                while True:
                    size = int(self.rfile.readline().split(b";")[0], 16)
                    if size == 0:
                        while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                            pass
                        return total
                    total += len(self.rfile.read(size))
                    self.rfile.readline()
            return len(self.rfile.read(int(self.headers.get("Content-Length", "0"))))

        def handle_any(self):
            size = self.read_body()
            peer = self.connection.getpeercert() if hasattr(self.connection, "getpeercert") else None
            client = None
            if peer:
                client = dict(item[0] for item in peer.get("subject", ())).get("commonName")
            record = {"method": self.command, "path": self.path, "bytes": size, "client": client}
            with lock, log.open("a") as file:
                file.write(json.dumps(record) + "\n")
            body = json.dumps(record).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = handle_any

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(args.folder / "server.pem", args.folder / "server-key.pem")
    if args.mode == "client-cert":
        context.verify_mode = ssl.CERT_REQUIRED
        context.load_verify_locations(args.folder / "ca.pem")
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    print(f"listening 127.0.0.1:{httpd.server_address[1]}", flush=True)
    if args.exit_on_stdin_eof:
        def watch():
            sys.stdin.read()
            httpd.shutdown()
        threading.Thread(target=watch, daemon=True).start()
    httpd.serve_forever()


if __name__ == "__main__":
    main()
