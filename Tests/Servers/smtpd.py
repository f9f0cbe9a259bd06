#!/usr/bin/python3
"""A throw-away SMTP server on loopback for triage's integration tests.

Uses Debian's python3-aiosmtpd. At start it makes a test CA and a server
certificate for localhost/127.0.0.1 (test-ca.sh), then listens on three free
ports chosen by the kernel:

  starttls  STARTTLS offered and required before MAIL; AUTH PLAIN/LOGIN only
            after STARTTLS, and required
  smtps     TLS from the first byte (implicit TLS); AUTH required
  plain     no STARTTLS at all (a client that requires TLS must refuse it)
  wronghost implicit TLS with a certificate (from the test CA) for
            mail.example.test only, so a client on "localhost" must refuse it

With a second argument CASES (a folder made by tls-cases.sh: the TLS table's
certificates and its `tls-cases` list), each case NAME also gets two listeners
on its own loopback address with its certificate, implicit TLS and STARTTLS,
in ready.json as "case:NAME:smtps" and "case:NAME:starttls".

Every AUTH command that arrives is logged, before it is checked, as a line
"LISTENER" in DIR/auth.log (the tests' proof that no credential was sent).

Each accepted message is written atomically to DIR/mail/NNNN-LISTENER.eml:
X-Test-* header lines (envelope sender and recipients, listener, TLS, user)
followed by the message exactly as received. RCPT TO an address at
@refused.test is answered 550. The ports and file paths are written to
DIR/ready.json once every listener is up. The server stops on SIGTERM or
SIGINT, or when its parent process goes away.

Usage: smtpd.py DIR [CASES]   (credentials from $SMTPD_USER and $SMTPD_PASSWORD)
"""
import asyncio
import json
import os
import signal
import ssl
import subprocess
import sys

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

WORK = os.path.abspath(sys.argv[1])
CASES = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
USER = os.environ.get("SMTPD_USER", "tester")
PASSWORD = os.environ.get("SMTPD_PASSWORD", "secret")
MAIL = os.path.join(WORK, "mail")


def openssl(*args):
    subprocess.run(["openssl", *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def make_certificates():
    # The certificates come from test-ca.sh, like every test server's.
    subprocess.run(["bash", "-c", '. "$0/test-ca.sh" && cd "$1" && new_ca test-ca "triage test-ca"'
                    ' && new_ca other-ca "triage other-ca" && leaf server test-ca "DNS:localhost,IP:127.0.0.1"'
                    ' && leaf wronghost test-ca DNS:mail.example.test',
                    os.path.dirname(os.path.abspath(__file__)), WORK], check=True)
    ca_pem = os.path.join(WORK, "test-ca.pem")
    pem, key = os.path.join(WORK, "server.pem"), os.path.join(WORK, "server.key")
    # A hashed certificate folder holding the test CA, like /etc/ssl/certs.
    trusted = os.path.join(WORK, "trusted-dir")
    os.makedirs(trusted, exist_ok=True)
    with open(ca_pem, "rb") as src, open(os.path.join(trusted, "test-ca.pem"), "wb") as dst:
        dst.write(src.read())
    openssl("rehash", trusted)
    empty = os.path.join(WORK, "empty-dir")
    os.makedirs(empty, exist_ok=True)
    return ca_pem, pem, key, trusted, empty


class Handler:
    counter = 0

    def __init__(self, listener):
        self.listener = listener

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.lower().endswith("@refused.test"):
            return "550 5.1.1 <%s>: Recipient address rejected: mailbox unavailable" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        Handler.counter += 1
        tls = session.ssl is not None or server.transport.get_extra_info("sslcontext") is not None
        login = session.auth_data.login.decode() if isinstance(session.auth_data, LoginPassword) else ""
        head = ("X-Test-Envelope-From: %s\r\nX-Test-Envelope-To: %s\r\nX-Test-Listener: %s\r\n"
                "X-Test-TLS: %s\r\nX-Test-Auth-User: %s\r\n") % (
            envelope.mail_from, ", ".join(envelope.rcpt_tos), self.listener, "yes" if tls else "no", login)
        content = envelope.original_content or envelope.content
        name = "%04d-%s.eml" % (Handler.counter, self.listener)
        tmp = os.path.join(MAIL, "." + name + ".tmp")
        with open(tmp, "wb") as f:
            f.write(head.encode() + content)
        os.rename(tmp, os.path.join(MAIL, name))
        return "250 2.0.0 Message accepted for delivery"


class LoggingSMTP(SMTP):
    """Logs each AUTH command's arrival (not its data) before handling it."""

    async def smtp_AUTH(self, arg):
        with open(os.path.join(WORK, "auth.log"), "a") as f:
            f.write(self.event_handler.listener + "\n")
        return await super().smtp_AUTH(arg)


def authenticator(server, session, envelope, mechanism, auth_data):
    ok = (isinstance(auth_data, LoginPassword)
          and auth_data.login == USER.encode() and auth_data.password == PASSWORD.encode())
    return AuthResult(success=ok, handled=False, auth_data=auth_data if ok else None)


async def main():
    os.makedirs(MAIL, exist_ok=True)
    ca, cert, key, trusted, empty = make_certificates()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    wrong_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    wrong_context.load_cert_chain(os.path.join(WORK, "wronghost.pem"), os.path.join(WORK, "wronghost.key"))

    loop = asyncio.get_running_loop()
    common = dict(hostname="localhost", decode_data=False, authenticator=authenticator)
    servers = {
        "starttls": await loop.create_server(
            lambda: LoggingSMTP(Handler("starttls"), tls_context=context, require_starttls=True,
                         auth_required=True, auth_require_tls=True, **common),
            host="127.0.0.1", port=0),
        # Implicit TLS: aiosmtpd only counts STARTTLS as TLS for auth_require_tls,
        # and this whole connection is TLS, so that check is off here.
        "smtps": await loop.create_server(
            lambda: LoggingSMTP(Handler("smtps"), auth_required=True, auth_require_tls=False, **common),
            host="127.0.0.1", port=0, ssl=context),
        "wronghost": await loop.create_server(
            lambda: LoggingSMTP(Handler("wronghost"), auth_required=True, auth_require_tls=False, **common),
            host="127.0.0.1", port=0, ssl=wrong_context),
        "plain": await loop.create_server(
            lambda: SMTP(Handler("plain"), auth_required=False, auth_require_tls=True, **common),
            host="127.0.0.1", port=0),
    }
    if CASES:
        with open(os.path.join(CASES, "tls-cases")) as f:
            cases = [line.split() for line in f if line.strip()]
        for name, address in cases:
            case_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            case_context.load_cert_chain(os.path.join(CASES, name + ".pem"), os.path.join(CASES, name + ".key"))
            smtps, starttls = "case:%s:smtps" % name, "case:%s:starttls" % name
            servers[smtps] = await loop.create_server(
                lambda n=smtps: LoggingSMTP(Handler(n), auth_required=True, auth_require_tls=False, **common),
                host=address, port=0, ssl=case_context)
            servers[starttls] = await loop.create_server(
                lambda n=starttls, c=case_context: LoggingSMTP(Handler(n), tls_context=c, require_starttls=True,
                                                                 auth_required=True, auth_require_tls=True, **common),
                host=address, port=0)
    ready = {name: s.sockets[0].getsockname()[1] for name, s in servers.items()}
    ready.update(ca=ca, other_ca=os.path.join(WORK, "other-ca.pem"), trusted_dir=trusted,
                 empty_dir=empty, mail=MAIL, server_cert=cert, server_key=key, pid=os.getpid())
    tmp = os.path.join(WORK, ".ready.json")
    with open(tmp, "w") as f:
        json.dump(ready, f)
    os.rename(tmp, os.path.join(WORK, "ready.json"))

    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    parent = os.getppid()

    async def watch_parent():
        while os.getppid() == parent:
            await asyncio.sleep(0.5)
        stop.set()

    watcher = asyncio.create_task(watch_parent())
    await stop.wait()
    watcher.cancel()
    for s in servers.values():
        s.close()


if __name__ == "__main__":
    asyncio.run(main())
