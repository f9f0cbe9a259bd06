#!/usr/bin/python3
"""A scripted IMAP server on 127.0.0.1 for what Dovecot cannot show.

    fake-imap.py MODE CERT KEY DIR

Listens on a free port, writes it to DIR/port, logs each command line it gets
to DIR/commands, serves one connection, then exits. MODE:
  gmail      implicit TLS; advertises X-GM-EXT-1, answers FETCH with X-GM-LABELS;
             accepts SASL XOAUTH2 (with Gmail's error dance for token "bad-token")
  inject     plain with STARTTLS; sends an extra line after "OK Begin TLS"
             (the CVE-2020-15953 attack: bytes before the handshake)
  silent     implicit TLS; greets, then never answers a command
"""
import base64
import os
import socket
import ssl
import sys
import time

mode, cert, key, folder = sys.argv[1:5]
listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", 0))
listener.listen(1)
with open(os.path.join(folder, "port.tmp"), "w") as f:
    f.write(str(listener.getsockname()[1]))
os.rename(os.path.join(folder, "port.tmp"), os.path.join(folder, "port"))
log = open(os.path.join(folder, "commands"), "a", buffering=1)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
listener.settimeout(30)
conn, _ = listener.accept()
if mode in ("gmail", "silent"):
    conn = context.wrap_socket(conn, server_side=True)
reader = conn.makefile("rb")


def send(text):
    conn.sendall(text.encode() if isinstance(text, str) else text)


header = (b"From: Alice <alice@example.test>\r\nTo: me@example.test\r\nSubject: Gmail\r\n"
          b"Message-ID: <g1@example.test>\r\n\r\n")
body = b"Hello from Gmail.\r\n"
caps = "IMAP4rev1 UIDPLUS MOVE ID X-GM-EXT-1 AUTH=XOAUTH2"
if mode == "inject":
    caps = "IMAP4rev1 STARTTLS LOGINDISABLED"
send("* OK [CAPABILITY %s] fake ready\r\n" % caps)
while True:
    line = reader.readline()
    if not line:
        break
    text = line.decode("utf-8", "replace").rstrip("\r\n")
    words = text.split(" ")
    tag, command = words[0], " ".join(words[1:3]).upper()
    # Never log a password: the tests check the client's trace, not this file.
    log.write((tag + " LOGIN ***" if words[1:2] == ["LOGIN"] else text) + "\n")
    if mode == "silent":
        time.sleep(30)
        break
    if command.startswith("CAPABILITY"):
        send("* CAPABILITY %s\r\n%s OK done\r\n" % (caps, tag))
    elif command.startswith("STARTTLS") and mode == "inject":
        send("%s OK Begin TLS negotiation now\r\n* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] injected\r\n" % tag)
        break
    elif command.startswith("AUTHENTICATE XOAUTH2"):
        decoded = base64.b64decode(words[3]).decode().replace("\x01", "^A")
        log.write("decoded " + decoded + "\n")
        if "bad-token" in decoded:
            # Gmail: an error challenge, the client answers with an empty line, then NO.
            send("+ eyJzdGF0dXMiOiI0MDEifQ==\r\n")
            reader.readline()
            send("%s NO [AUTHENTICATIONFAILED] Invalid credentials (Failure)\r\n" % tag)
        else:
            send("%s OK [CAPABILITY %s] authenticated\r\n" % (tag, caps))
    elif command.startswith("LOGIN"):
        send("%s OK [CAPABILITY %s] logged in\r\n" % (tag, caps))
    elif command.startswith("SELECT") or command.startswith("EXAMINE"):
        send("* 1 EXISTS\r\n* OK [UIDVALIDITY 42] ok\r\n* OK [UIDNEXT 2] ok\r\n%s OK [READ-WRITE] done\r\n" % tag)
    elif command.startswith("UID FETCH"):
        send(b'* 1 FETCH (UID 1 FLAGS (\\Seen) RFC822.SIZE ' + str(len(header) + len(body)).encode()
             + b' INTERNALDATE "02-Jan-2024 09:30:00 +0100"'
             + b' X-GM-LABELS ("\\\\Important" "no push" Caf&AOk-)'
             + b' BODYSTRUCTURE ("text" "plain" ("charset" "utf-8") NIL NIL "7bit" 19 1 NIL NIL NIL NIL)'
             + b' BODY[HEADER] {' + str(len(header)).encode() + b'}\r\n' + header
             + b' BODY[TEXT]<0> {' + str(len(body)).encode() + b'}\r\n' + body + b')\r\n')
        send("%s OK done\r\n" % tag)
    elif command.startswith("UID STORE"):
        send("%s OK done\r\n" % tag)
    elif command.startswith("LOGOUT"):
        send("* BYE bye\r\n%s OK done\r\n" % tag)
        break
    else:
        send("%s BAD unknown\r\n" % tag)
conn.close()
