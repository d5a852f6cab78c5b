#!/usr/bin/env python3
"""nginx (the Debian package) as an unprivileged child of the test, on two
free ports of 127.0.0.1, with a private CA made at start (openssl):

    python3 Tests/Servers/nginx_server.py FOLDER
    listening 127.0.0.1:40127

FOLDER receives ca.pem (the CA that issued the server's certificate for
127.0.0.1 and localhost), the configuration, nginx's logs and its temporary
folders. The port printed serves TLS with HTTP/2 (ALPN h2, then http/1.1);
FOLDER/plain-port holds a second port serving plain HTTP/1.1. Both serve:

  PUT  /dav/NAME     WebDAV: the body is read whole (after `100 Continue`
                     when the request asks for it) and stored; 201
  *    /small/...    client_max_body_size 1m: a larger Content-Length is
                     answered 413 before any of the body is read
  *    /private/...  auth_basic: 401 before any of the body is read

FOLDER/access.log has one line a request:
`METHOD URI PROTOCOL STATUS request_length=BYTES expect="VALUE"`, where
BYTES counts what nginx read of the request, head and body. nginx stops
when standard input closes.
"""

import os
import shutil
import socket
import subprocess
import sys

from child_server import serve_child


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def openssl(*arguments, folder):
    subprocess.run(["openssl", *arguments], check=True, cwd=folder, capture_output=True)


def make_certificates(folder):
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
            "-subj", "/CN=uploader test CA", "-keyout", "ca-key.pem", "-out", "ca.pem",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign", folder=folder)
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=127.0.0.1",
            "-keyout", "server-key.pem", "-out", "server.csr", folder=folder)
    with open(os.path.join(folder, "server.ext"), "w") as file:
        file.write("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca-key.pem", "-CAcreateserial",
            "-days", "2", "-extfile", "server.ext", "-out", "server.pem", folder=folder)


def main():
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.path.exists(nginx):
        sys.exit("nginx is not installed (Debian package nginx; .ci/run installs it)")
    folder = os.path.abspath(sys.argv[1])
    os.makedirs(os.path.join(folder, "dav"), exist_ok=True)
    os.chmod(folder, 0o777)
    os.chmod(os.path.join(folder, "dav"), 0o777)
    make_certificates(folder)
    digest = subprocess.run(["openssl", "passwd", "-apr1", "secret"], check=True, capture_output=True, text=True).stdout.strip()
    with open(os.path.join(folder, "htpasswd"), "w") as file:
        file.write(f"user:{digest}\n")
    tls_port, plain_port = free_port(), free_port()
    user = "user www-data;\n" if os.geteuid() == 0 else ""
    temporary = "".join(f"{kind}_temp_path {folder}/{kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    locations = f"""
        root {folder};
        location /dav/ {{ dav_methods PUT; create_full_put_path on; client_max_body_size 0; }}
        location /small/ {{ client_max_body_size 1m; return 200 "small\\n"; }}
        location /private/ {{ auth_basic "uploads"; auth_basic_user_file {folder}/htpasswd; dav_methods PUT; create_full_put_path on; client_max_body_size 0; }}
    """
    config = f"""{user}daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log info;
events {{ worker_connections 64; }}
http {{
    {temporary}
    log_format uploads '$request_method $request_uri $server_protocol $status request_length=$request_length expect="$http_expect"';
    access_log {folder}/access.log uploads;
    server {{
        listen 127.0.0.1:{tls_port} ssl http2;
        ssl_certificate {folder}/server.pem;
        ssl_certificate_key {folder}/server-key.pem;
        {locations}
    }}
    server {{
        listen 127.0.0.1:{plain_port};
        {locations}
    }}
}}
"""
    path = os.path.join(folder, "nginx.conf")
    with open(path, "w") as file:
        file.write(config)
    with open(os.path.join(folder, "plain-port"), "w") as file:
        file.write(str(plain_port))
    # -e: the error log before the configuration is read, else /var/log/nginx.
    error_log = os.path.join(folder, "error.log")
    serve_child([nginx, "-c", path, "-e", error_log, "-p", folder], "nginx", [tls_port, plain_port], tls_port, log=error_log)


if __name__ == "__main__":
    main()
