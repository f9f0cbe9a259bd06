#!/usr/bin/python3
"""A throw-away SMTP submission server for the digest integration test.

Usage: digest_smtpd.py DIR
Makes a test CA and a certificate for 127.0.0.1 in DIR (ca.pem, server.pem,
server.key), listens on 127.0.0.1 at a free port with STARTTLS required and
AUTH required (login 'me', password 's3cret', only after TLS), prints the port
on standard output, and writes each accepted message to DIR/received/N.eml
(the envelope recipients to N.rcpt). Stops when standard input closes."""
import os
import socket
import ssl
import subprocess
import sys

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

folder = sys.argv[1]
received = os.path.join(folder, "received")
os.makedirs(received, exist_ok=True)


def openssl(*args):
    subprocess.run(["openssl", *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


p = lambda name: os.path.join(folder, name)
openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=triage test CA",
        "-keyout", p("ca.key"), "-out", p("ca.pem"),
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", p("server.key"), "-out", p("server.csr"))
with open(p("server.ext"), "w") as f:
    f.write("subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n")
openssl("x509", "-req", "-in", p("server.csr"), "-CA", p("ca.pem"), "-CAkey", p("ca.key"), "-CAcreateserial",
        "-days", "2", "-extfile", p("server.ext"), "-out", p("server.pem"))


class Handler:
    async def handle_DATA(self, server, session, envelope):
        n = len([name for name in os.listdir(received) if name.endswith(".eml")]) + 1
        with open(os.path.join(received, f"{n}.rcpt"), "w") as f:
            f.write("\n".join(envelope.rcpt_tos) + "\n")
        with open(os.path.join(received, f"{n}.eml"), "wb") as f:
            f.write(envelope.original_content)
        return "250 Message accepted for delivery"


def authenticator(server, session, envelope, mechanism, auth_data):
    ok = isinstance(auth_data, LoginPassword) and auth_data.login == b"me" and auth_data.password == b"s3cret"
    # handled=False: aiosmtpd then answers 535 itself (its default, True, answers nothing).
    return AuthResult(success=ok, handled=False)


context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
context.load_cert_chain(p("server.pem"), p("server.key"))
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
controller = Controller(Handler(), hostname="127.0.0.1", port=port, tls_context=context, require_starttls=True,
                        authenticator=authenticator, auth_required=True, auth_require_tls=True)
controller.start()
print(port, flush=True)
sys.stdin.read()
controller.stop()
