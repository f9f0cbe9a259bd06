#!/usr/bin/python3
"""A scripted ManageSieve server (RFC 5804) on 127.0.0.1 for what Dovecot cannot show.

    fake-managesieve.py DIR MODE CERT KEY

Listens on a free port and writes {"port": N} to DIR/ready.json; serves one
connection after another in MODE until SIGTERM or its parent goes away; logs
each command line to DIR/commands (AUTHENTICATE's argument masked). MODE:
  good        a well-behaved session: greeting, STARTTLS, capabilities again,
              AUTHENTICATE PLAIN, PUTSCRIPT, SETACTIVE, LISTSCRIPTS whose script
              names come as literals ({6} CRLF triage), LOGOUT (the control)
Hostile modes send their bytes in the plain-text greeting (before STARTTLS, where
anyone on the path could), then keep the connection open and silent:
  negative    "SIEVE" {-5}          a negative literal length
  plus        "SIEVE" {+5}          a signed length
  client      "SIEVE" {5+}          a client-only literal (literal-c2s)
  overflow    "SIEVE" {99999999999999999999999}
  huge        "SIEVE" {4294967295}  then bytes without end
  letters     "SIEVE" {5a}
  empty       "SIEVE" {}
  midline     "SIEVE" {5} "x"       a literal length that does not end its line
  unquoted    "SIEVE" "fileinto     a quoted string cut by the line end
  endless     a greeting line that never ends (bytes without CRLF, without end)
"""
import json
import os
import socket
import ssl
import sys
import threading
import time

work, mode, cert, key = sys.argv[1:5]
parent = os.getppid()

HOSTILE = {
    "negative": b'"IMPLEMENTATION" "fake"\r\n"SIEVE" {-5}\r\nhello\r\nOK\r\n',
    "plus": b'"IMPLEMENTATION" "fake"\r\n"SIEVE" {+5}\r\nhello\r\nOK\r\n',
    "client": b'"IMPLEMENTATION" "fake"\r\n"SIEVE" {5+}\r\nhello\r\nOK\r\n',
    "overflow": b'"IMPLEMENTATION" "fake"\r\n"SIEVE" {99999999999999999999999}\r\nhello\r\nOK\r\n',
    "huge": b'"IMPLEMENTATION" "fake"\r\n"SIEVE" {4294967295}\r\n',
    "letters": b'"IMPLEMENTATION" "fake"\r\n"SIEVE" {5a}\r\nhello\r\nOK\r\n',
    "empty": b'"IMPLEMENTATION" "fake"\r\n"SIEVE" {}\r\nhello\r\nOK\r\n',
    "midline": b'"IMPLEMENTATION" "fake"\r\n"SIEVE" {5} "x"\r\nhello\r\nOK\r\n',
    "unquoted": b'"IMPLEMENTATION" "fake"\r\n"SIEVE" "fileinto\r\n"STARTTLS"\r\nOK\r\n',
    "endless": b'"IMPLEMENTATION" "',
}
CAPS_PLAIN = b'"IMPLEMENTATION" "fake"\r\n"SIEVE" "fileinto"\r\n"STARTTLS"\r\n"SASL" ""\r\nOK "ready"\r\n'
CAPS_TLS = b'"IMPLEMENTATION" "fake"\r\n"SIEVE" {8}\r\nfileinto\r\n"SASL" "PLAIN"\r\nOK\r\n'

context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
log_lock = threading.Lock()


def log(text):
    with log_lock, open(os.path.join(work, "commands"), "a") as f:
        f.write(text + "\n")


def endless(conn, chunk):
    try:
        while True:
            conn.sendall(chunk)
    except OSError:
        pass


def hostile(conn):
    conn.sendall(HOSTILE[mode])
    if mode == "huge":
        endless(conn, b"x" * 65536)
    elif mode == "endless":
        endless(conn, b"y" * 65536)
    else:
        # Silent and open: a client that waited for more (or sent LOGOUT and waited
        # for its answer) would hang until its timeout.
        conn.settimeout(30)
        try:
            while True:
                data = conn.recv(4096)
                if not data:
                    break
                log(data.decode("utf-8", "replace").rstrip("\r\n"))
        except OSError:
            pass


def good(conn):
    conn.sendall(CAPS_PLAIN)
    reader = conn.makefile("rb")
    scripts = {}
    active = None
    while True:
        line = reader.readline()
        if not line:
            return
        text = line.decode("utf-8", "replace").rstrip("\r\n")
        word = text.split(" ")[0].upper()
        log("AUTHENTICATE ***" if word == "AUTHENTICATE" else text)
        if word == "STARTTLS":
            conn.sendall(b'OK "Begin TLS negotiation now."\r\n')
            conn = context.wrap_socket(conn, server_side=True)
            reader = conn.makefile("rb")
            conn.sendall(CAPS_TLS)
        elif word == "AUTHENTICATE":
            conn.sendall(b'OK "Logged in."\r\n')
        elif word == "PUTSCRIPT":
            # PUTSCRIPT "name" {N+} CRLF N bytes CRLF
            name = text.split('"')[1]
            size = int(text[text.rindex("{") + 1:].rstrip("+}"))
            scripts[name] = reader.read(size)
            reader.readline()
            conn.sendall(b"OK\r\n")
        elif word == "SETACTIVE":
            active = text.split('"')[1]
            conn.sendall(b"OK\r\n")
        elif word == "LISTSCRIPTS":
            out = b""
            for name in sorted(scripts):
                data = name.encode()
                out += b"{%d}\r\n%s%s\r\n" % (len(data), data, b" ACTIVE" if name == active else b"")
            conn.sendall(out + b'OK "Listscripts completed."\r\n')
        elif word == "LOGOUT":
            conn.sendall(b'OK "Logout completed."\r\n')
            return
        else:
            conn.sendall(b'NO "unknown command"\r\n')


def serve(conn):
    try:
        hostile(conn) if mode in HOSTILE else good(conn)
    except (OSError, ssl.SSLError) as error:
        log("connection error: %s" % error)
    finally:
        conn.close()


def watch_parent():
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", 0))
listener.listen(8)
threading.Thread(target=watch_parent, daemon=True).start()
with open(os.path.join(work, "ready.json.tmp"), "w") as f:
    json.dump({"port": listener.getsockname()[1]}, f)
os.rename(os.path.join(work, "ready.json.tmp"), os.path.join(work, "ready.json"))
while True:
    client, _ = listener.accept()
    threading.Thread(target=serve, args=(client,), daemon=True).start()
