#!/usr/bin/python3
"""A scripted IMAP server on 127.0.0.1 for `triage watch` against a hostile server.

    watch-imap.py DIR MODE CERT KEY

Implicit TLS (CERT, KEY), any number of connections one after the other or at
once; a mailbox INBOX holding one message, accepting any login. Each connection
gets the mode in DIR/mode when that file exists (the test changes it), else MODE;
a connection idling in normal mode is closed when DIR/mode changes. Writes its port
to DIR/ready.json and appends "SECONDS CONNECTION COMMAND" to DIR/commands for
each command line it gets (SECONDS since the server started; LOGIN arguments
masked). MODE:
  close-after-login  answers LOGIN, then closes the connection at the client's
                     first SELECT (unanswered): the session never gets going
  close-on-idle      a normal session, but answers IDLE with "+ idling" and
                     closes the connection right after
  exists-flood       a normal session, but in IDLE announces "* N EXISTS" without
                     pause (N growing) until DONE, which it answers
  normal             a normal session
Stops on SIGTERM or when its parent goes away.
"""
import json
import os
import select
import socket
import ssl
import sys
import threading
import time

work, mode, cert, key = sys.argv[1:5]
parent = os.getppid()
started = time.monotonic()
lock = threading.Lock()
log = open(os.path.join(work, "commands"), "a", buffering=1)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
caps = "IMAP4rev1 IDLE UIDPLUS MOVE"
header = b"From: a@example.test\r\nSubject: old\r\nMessage-ID: <old@example.test>\r\n\r\n"
body = b"Hello.\r\n"


def current_mode():
    try:
        with open(os.path.join(work, "mode")) as f:
            return f.read().strip() or mode
    except OSError:
        return mode


def note(number, text):
    with lock:
        log.write("%.3f %d %s\n" % (time.monotonic() - started, number, text))


class Closed(Exception):
    pass


class Session:
    def __init__(self, conn, number):
        self.conn, self.number, self.buffer = conn, number, b""
        self.mode = current_mode()

    def send(self, text):
        self.conn.sendall(text.encode() if isinstance(text, str) else text)

    def ready(self, seconds):
        """Whether a line can be read without waiting longer than `seconds`."""
        if b"\n" in self.buffer or self.conn.pending():
            return True
        return bool(select.select([self.conn], [], [], seconds)[0])

    def line(self):
        while b"\n" not in self.buffer:
            data = self.conn.recv(65536)
            if not data:
                raise Closed()
            self.buffer += data
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode("utf-8", "replace").rstrip("\r")

    def idle(self, tag):
        self.send("+ idling\r\n")
        if self.mode == "close-on-idle":
            raise Closed()
        count = 1
        while True:
            if self.mode == "exists-flood":
                count += 1
                self.send("* %d EXISTS\r\n" % count)
                waiting = 0.001
            else:
                waiting = 1.0
            if self.ready(waiting):
                done = self.line()
                note(self.number, done)
                self.send("%s OK idle done\r\n" % tag)
                return
            if self.mode != "exists-flood" and (os.getppid() != parent or current_mode() != self.mode):
                raise Closed()

    def serve(self):
        self.send("* OK [CAPABILITY %s] watch-imap ready\r\n" % caps)
        while True:
            while not self.ready(1.0):
                if os.getppid() != parent:
                    raise Closed()
            text = self.line()
            words = text.split(" ")
            tag, command = words[0], " ".join(words[1:3]).upper()
            note(self.number, tag + " LOGIN ***" if words[1:2] == ["LOGIN"] else text)
            if command.startswith("CAPABILITY"):
                self.send("* CAPABILITY %s\r\n%s OK done\r\n" % (caps, tag))
            elif command.startswith("LOGIN") or command.startswith("AUTHENTICATE"):
                self.send("%s OK [CAPABILITY %s] logged in\r\n" % (tag, caps))
            elif command.startswith("SELECT") or command.startswith("EXAMINE"):
                if self.mode == "close-after-login":
                    raise Closed()
                self.send("* 1 EXISTS\r\n* 0 RECENT\r\n* FLAGS (\\Seen \\Deleted)\r\n"
                          "* OK [PERMANENTFLAGS (\\Seen \\Deleted \\*)] ok\r\n"
                          "* OK [UIDVALIDITY 42] ok\r\n* OK [UIDNEXT 2] ok\r\n%s OK [READ-WRITE] done\r\n" % tag)
            elif command.startswith("LIST") or command.startswith("LSUB"):
                self.send('* LIST (\\HasNoChildren) "/" INBOX\r\n%s OK done\r\n' % tag)
            elif command.startswith("STATUS"):
                self.send("* STATUS INBOX (MESSAGES 1 UIDNEXT 2 UIDVALIDITY 42)\r\n%s OK done\r\n" % tag)
            elif command.startswith("NAMESPACE"):
                self.send('* NAMESPACE (("" "/")) NIL NIL\r\n%s OK done\r\n' % tag)
            elif command.startswith("UID SEARCH"):
                self.send("* SEARCH 1\r\n%s OK done\r\n" % tag)
            elif command.startswith("UID FETCH"):
                self.send(b"* 1 FETCH (UID 1 FLAGS (\\Seen) RFC822.SIZE " + str(len(header) + len(body)).encode()
                          + b' INTERNALDATE "02-Jan-2024 09:30:00 +0100" BODY[HEADER] {'
                          + str(len(header)).encode() + b"}\r\n" + header + b")\r\n" + tag.encode() + b" OK done\r\n")
            elif command.startswith("IDLE"):
                self.idle(tag)
            elif command.startswith("LOGOUT"):
                self.send("* BYE bye\r\n%s OK done\r\n" % tag)
                return
            else:
                self.send("%s OK done\r\n" % tag)


def serve(conn, number):
    try:
        conn = context.wrap_socket(conn, server_side=True)
        Session(conn, number).serve()
    except (Closed, OSError, ssl.SSLError):
        pass
    finally:
        note(number, "closed")
        try:
            conn.close()
        except OSError:
            pass


listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", 0))
listener.listen(16)
tmp = os.path.join(work, ".ready.json")
with open(tmp, "w") as f:
    json.dump({"port": listener.getsockname()[1]}, f)
os.rename(tmp, os.path.join(work, "ready.json"))
listener.settimeout(1.0)
connections = 0
while os.getppid() == parent:
    try:
        conn, _ = listener.accept()
    except socket.timeout:
        continue
    connections += 1
    note(connections, "connected")
    threading.Thread(target=serve, args=(conn, connections), daemon=True).start()
