#!/usr/bin/python3
"""A scripted IMAP server on 127.0.0.1 for what Dovecot cannot show.

    fake-imap.py MODE CERT KEY DIR

Listens on a free port, writes it to DIR/port, logs each command line it gets
to DIR/commands, serves one connection, then exits. MODE:
  gmail      implicit TLS; advertises X-GM-EXT-1, answers FETCH with X-GM-LABELS;
             accepts SASL XOAUTH2 (with Gmail's error dance for token "bad-token")
  inject     plain with STARTTLS; sends an extra line after "OK Begin TLS"
             (the CVE-2020-15953 attack: bytes before the handshake), then does
             the handshake and goes on serving over TLS (and accepts LOGIN), so a
             client that took the injected line would be seen logging in
  starttls   the same without the injected line (the control)
  silent     implicit TLS; greets, then never answers a command
  nostarttls plain; advertises no STARTTLS (and would accept LOGIN in the clear)
Hostile modes, implicit TLS, a normal session until the command named:
  malformed     SELECT is answered with garbage
  bye           SELECT is answered with an unexpected BYE, then the connection closes
  flood         SELECT is answered with untagged lines that never end
  deep-nest     SELECT: an unsolicited FETCH whose BODYSTRUCTURE is nested 20,000 levels
                deep, in one line (libetpan's recursive parser overflows the stack)
  drip          SELECT is answered one byte every 0.3 s, forever
  short-literal UID FETCH: a literal announced as 500 bytes holds 20, then silence
  long-literal  UID FETCH: a literal announced as 5 bytes holds the whole header
  huge-literal  UID FETCH: a literal announced as 4,000,000,000 bytes, sent without end
  escape        LOGIN is refused with text holding terminal controls (ESC, BEL, C1 CSI)
  nouidnext     SELECT without UIDNEXT (like Courier) and STATUS refused (unlike Courier)
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
plain_modes = ("inject", "starttls", "nostarttls")
if mode not in plain_modes:
    conn = context.wrap_socket(conn, server_side=True)
reader = conn.makefile("rb")


def send(text):
    conn.sendall(text.encode() if isinstance(text, str) else text)


header = (b"From: Alice <alice@example.test>\r\nTo: me@example.test\r\nSubject: Gmail\r\n"
          b"Message-ID: <g1@example.test>\r\n\r\n")
body = b"Hello from Gmail.\r\n"
caps = "IMAP4rev1 UIDPLUS MOVE ID X-GM-EXT-1 AUTH=XOAUTH2"
if mode in ("inject", "starttls"):
    caps = "IMAP4rev1 STARTTLS LOGINDISABLED"
elif mode == "nostarttls":
    caps = "IMAP4rev1 AUTH=PLAIN"
elif mode not in ("gmail", "silent"):
    caps = "IMAP4rev1 UIDPLUS MOVE ID"


def endless(chunk, pause=0.0):
    """Sends chunk again and again until the client goes away."""
    try:
        while True:
            send(chunk)
            if pause:
                time.sleep(pause)
    except OSError:
        pass
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
    selecting = command.startswith("SELECT") or command.startswith("EXAMINE")
    fetching = command.startswith("UID FETCH")
    if selecting and mode == "malformed":
        send("* 1 EXISTS\r\n* 1 FETCH (UID \x01\x02 FLAGS ((()\r\n%s MAYBE [READ-WRITE\r\n" % tag)
        time.sleep(30)
        break
    if selecting and mode == "bye":
        send("* BYE the server is going away\r\n")
        break
    if selecting and mode == "flood":
        endless(b"* OK flood flood flood flood flood flood flood flood\r\n" * 2000)
        break
    if selecting and mode == "deep-nest":
        send(b"* 1 EXISTS\r\n* 1 FETCH (UID 1 BODYSTRUCTURE " + b"(" * 20000 + b")" * 20000 + b")\r\n"
             + tag.encode() + b" OK [READ-WRITE] done\r\n")
        time.sleep(5)
        break
    if selecting and mode == "drip":
        for byte in b"* OK drip":
            send(bytes([byte]))
            time.sleep(0.3)
        endless(b"p", 0.3)
        break
    if fetching and mode == "short-literal":
        send(b"* 1 FETCH (UID 1 FLAGS () RFC822.SIZE 500 BODY[HEADER] {500}\r\n" + header[:20]
             + b")\r\n" + tag.encode() + b" OK done\r\n")
        time.sleep(30)
        break
    if fetching and mode == "long-literal":
        send(b"* 1 FETCH (UID 1 FLAGS () RFC822.SIZE 5 BODY[HEADER] {5}\r\n" + header
             + b")\r\n" + tag.encode() + b" OK done\r\n")
        time.sleep(30)
        break
    if fetching and mode == "huge-literal":
        send(b"* 1 FETCH (UID 1 FLAGS () RFC822.SIZE 4000000000 BODY[HEADER] {4000000000}\r\n")
        endless(b"x" * 65536)
        break
    if command.startswith("CAPABILITY"):
        send("* CAPABILITY %s\r\n%s OK done\r\n" % (caps, tag))
    elif command.startswith("STARTTLS") and mode in ("inject", "starttls"):
        injected = "* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] injected\r\n" if mode == "inject" else ""
        send("%s OK Begin TLS negotiation now\r\n%s" % (tag, injected))
        # The client sends nothing more in plain text (it waits for this answer), so
        # the reader holds no buffered bytes: go on over TLS as a real server would.
        try:
            conn = context.wrap_socket(conn, server_side=True)
        except (OSError, ssl.SSLError) as error:
            log.write("handshake failed: %s\n" % error)
            break
        reader = conn.makefile("rb")
        caps = "IMAP4rev1 UIDPLUS MOVE ID AUTH=PLAIN"
        log.write("TLS established\n")
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
    elif command.startswith("LOGIN") and mode == "escape":
        send(tag.encode() + b" NO [AUTHENTICATIONFAILED] \x1b]0;owned\x07Denied \xc2\x9b2J \x1b[2Jhere\r\n")
    elif command.startswith("LOGIN"):
        send("%s OK [CAPABILITY %s] logged in\r\n" % (tag, caps))
    elif command.startswith("UID SEARCH"):
        send("* SEARCH 1\r\n%s OK done\r\n" % tag)
    elif (command.startswith("SELECT") or command.startswith("EXAMINE")) and mode == "nouidnext":
        send("* 1 EXISTS\r\n* OK [UIDVALIDITY 42] ok\r\n%s OK [READ-WRITE] done\r\n" % tag)
    elif command.startswith("STATUS") and mode == "nouidnext":
        send("%s NO STATUS of the selected mailbox is not allowed here\r\n" % tag)
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
