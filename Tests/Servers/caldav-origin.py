#!/usr/bin/python3
"""A scripted CalDAV server on loopback that sends its client elsewhere, for the
tests of where triage's CalDAV password may go (issue 24, fault 2).

It listens on three ports of 127.0.0.1: "main" and "other" (HTTPS, with CERT and
KEY) and "plain" (HTTP). Every request on any of them is logged, before it is
answered, as one JSON line in DIR/requests.log: {"port", "host", "method", "path",
"authorization"} (authorization: whether the request carried that header), so a
test sees on the server side which port got what. The first path segment of a
request on "main" picks what the server does:

  /redirect-other/...    302 to https://127.0.0.1:OTHER/dav/ (another port)
  /redirect-plain/...    302 to http://127.0.0.1:PLAIN/dav/ (plain http, same host)
  /redirect-host/...     307 to https://localhost:MAIN/dav/ (another host name, same port)
  /principal-other/...   207: current-user-principal https://127.0.0.1:OTHER/principal/
  /home-plain/...        207: calendar-home-set http://127.0.0.1:PLAIN/home/
  /home-netpath/...      207: calendar-home-set //127.0.0.1:OTHER/home/ (a network-path reference)
  /calendar-other/       207: calendar-home-set /calendar-other/home/, whose Depth 1
                         listing names the task list "Tasks" at https://127.0.0.1:OTHER/cal/

Anything else (and everything on "other" and "plain") is a 404. Ports go to
DIR/ready.json. Stops on SIGTERM or when the parent process goes away.

Usage: caldav-origin.py DIR CERT KEY
"""
import http.server
import json
import os
import signal
import ssl
import sys
import threading
import time

WORK = os.path.abspath(sys.argv[1])
LOG = os.path.join(WORK, "requests.log")
lock = threading.Lock()
ports = {}

MULTISTATUS = """<?xml version="1.0" encoding="utf-8"?>
<d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">%s</d:multistatus>"""


def response(href, props):
    return ("<d:response><d:href>%s</d:href><d:propstat><d:prop>%s</d:prop>"
            "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>") % (href, props)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def handle_any(self):
        length = int(self.headers.get("Content-Length", "0"))
        if length:
            self.rfile.read(length)
        port = self.server.server_address[1]
        record = {"port": port, "host": self.headers.get("Host", ""), "method": self.command, "path": self.path,
                  "authorization": "Authorization" in self.headers}
        with lock:
            with open(LOG, "a") as f:
                f.write(json.dumps(record) + "\n")
        main, other, plain = ports["main"], ports["other"], ports["plain"]
        first = self.path.strip("/").split("/")[0] if port == main else ""
        if first == "redirect-other":
            return self.answer(302, location="https://127.0.0.1:%d/dav/" % other)
        if first == "redirect-plain":
            return self.answer(302, location="http://127.0.0.1:%d/dav/" % plain)
        if first == "redirect-host":
            return self.answer(307, location="https://localhost:%d/dav/" % main)
        if self.command == "PROPFIND" and first == "principal-other":
            return self.multistatus(response(self.path, "<d:current-user-principal><d:href>https://127.0.0.1:%d/principal/"
                                             "</d:href></d:current-user-principal>" % other))
        if self.command == "PROPFIND" and first == "home-plain":
            return self.multistatus(response(self.path, "<c:calendar-home-set><d:href>http://127.0.0.1:%d/home/"
                                             "</d:href></c:calendar-home-set>" % plain))
        if self.command == "PROPFIND" and first == "home-netpath":
            return self.multistatus(response(self.path, "<c:calendar-home-set><d:href>//127.0.0.1:%d/home/"
                                             "</d:href></c:calendar-home-set>" % other))
        if self.command == "PROPFIND" and first == "calendar-other":
            if self.path.rstrip("/").endswith("/home"):
                calendar = ("<d:resourcetype><d:collection/><c:calendar/></d:resourcetype><d:displayname>Tasks</d:displayname>"
                            "<c:supported-calendar-component-set><c:comp name=\"VTODO\"/></c:supported-calendar-component-set>")
                return self.multistatus(response(self.path, "<d:resourcetype><d:collection/></d:resourcetype>")
                                        + response("https://127.0.0.1:%d/cal/" % other, calendar))
            return self.multistatus(response(self.path, "<c:calendar-home-set><d:href>/calendar-other/home/"
                                             "</d:href></c:calendar-home-set>"))
        return self.answer(404)

    def multistatus(self, responses):
        self.answer(207, body=(MULTISTATUS % responses).encode(), kind="application/xml; charset=utf-8")

    def answer(self, status, location=None, body=b"", kind="text/plain"):
        self.send_response(status)
        if location:
            self.send_header("Location", location)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_PUT = do_DELETE = do_REPORT = do_PROPFIND = do_MKCALENDAR = do_OPTIONS = handle_any

    def log_message(self, *args):
        pass


def start(secure):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    if secure:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(sys.argv[2], sys.argv[3])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_address[1]


open(LOG, "w").close()
ports["main"] = start(True)
ports["other"] = start(True)
ports["plain"] = start(False)
tmp = os.path.join(WORK, ".ready.json")
with open(tmp, "w") as f:
    json.dump(dict(ports, log=LOG), f)
os.rename(tmp, os.path.join(WORK, "ready.json"))

signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
parent = os.getppid()
while os.getppid() == parent:
    time.sleep(0.5)
