#!/usr/bin/python3
"""A throw-away HTTP(S) server on loopback for triage's webhook tests.

Every POST is written atomically to DIR/requests/NNNN.json as
{"path", "headers", "body"} and answered with the status in the path when it
is /status/NNN (e.g. /status/500), else 200. A POST to /redirect/... is
answered 302 with a Location (/followed/...) and a Set-Cookie; one to /big/N
with N bytes. A POST to /stall/N is recorded,
then answered only after N seconds (a dead endpoint that accepts connections;
the client has usually given up by then). Besides the main port it listens on
three more plain ports ("http_more"), so tests can have several hosts. With
CERT and KEY it listens for HTTPS as well. Ports go to DIR/ready.json. Stops
on SIGTERM or when the parent process goes away.

Usage: httpd.py DIR [CERT KEY]
"""
import http.server
import json
import os
import re
import ssl
import sys
import threading
import time

WORK = os.path.abspath(sys.argv[1])
REQUESTS = os.path.join(WORK, "requests")
lock = threading.Lock()
counter = [0]


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length).decode("utf-8", "replace")
        with lock:
            counter[0] += 1
            name = "%04d.json" % counter[0]
        record = {"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body}
        tmp = os.path.join(REQUESTS, "." + name)
        with open(tmp, "w") as f:
            json.dump(record, f)
        os.rename(tmp, os.path.join(REQUESTS, name))
        stall = re.match(r"^/stall/(\d+)", self.path)
        if stall:
            time.sleep(int(stall.group(1)))
        m = re.match(r"^/status/(\d{3})", self.path)
        status = int(m.group(1)) if m else 200
        reply = b'{"ok": true}' if status < 300 else b"server trouble"
        extra = []
        if self.path.startswith("/redirect/"):
            status, reply = 302, b"moved"
            extra = [("Location", "/followed/" + self.path[len("/redirect/"):]), ("Set-Cookie", "session=s3cret; Path=/")]
        big = re.match(r"^/big/(\d+)", self.path)
        if big:
            reply = b"x" * int(big.group(1))
        try:
            self.send_response(status)
            for name, value in extra:
                self.send_header(name, value)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)
        except OSError:
            pass  # a stalled client went away

    def log_message(self, *args):
        pass


def serve(server):
    threading.Thread(target=server.serve_forever, daemon=True).start()


os.makedirs(REQUESTS, exist_ok=True)
plain = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
serve(plain)
more = [http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler) for _ in range(3)]
for server in more:
    server.daemon_threads = True
    serve(server)
plain.daemon_threads = True
ready = {"http": plain.server_address[1], "http_more": [s.server_address[1] for s in more],
         "requests": REQUESTS, "pid": os.getpid()}
if len(sys.argv) == 4:
    secure = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(sys.argv[2], sys.argv[3])
    secure.socket = context.wrap_socket(secure.socket, server_side=True)
    serve(secure)
    ready["https"] = secure.server_address[1]
tmp = os.path.join(WORK, ".ready.json")
with open(tmp, "w") as f:
    json.dump(ready, f)
os.rename(tmp, os.path.join(WORK, "ready.json"))

import signal
signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
parent = os.getppid()
while os.getppid() == parent:
    time.sleep(0.5)
