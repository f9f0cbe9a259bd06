#!/usr/bin/python3
"""GNU Mailutils' imap4d on 127.0.0.1, for what a server without custom keywords does.

    imap4d.py WORKDIR

imap4d serves one connection on its standard input and output (inetd mode) with
--preauth: the session is logged in as the user running it, with WORKDIR/inbox (an
mbox the test writes) as INBOX. This script plays inetd: it listens on a free port,
writes {"port": N} to WORKDIR/ready.json, and starts one imap4d per connection. No
system service, no change outside WORKDIR. It exits on SIGTERM or when its parent
goes away. Mailutils' PERMANENTFLAGS lack \\*, and a STORE of a keyword gets
"BAD Unrecognized flag".
"""
import json
import os
import signal
import socket
import subprocess
import sys

work = sys.argv[1]
config = os.path.join(work, "imap4d.conf")
with open(config, "w") as f:
    f.write('mailbox {\n  mailbox-pattern "%s";\n};\nlogging {\n  syslog false;\n};\n' % os.path.join(work, "inbox"))
if not os.path.exists(os.path.join(work, "inbox")):
    open(os.path.join(work, "inbox"), "w").close()
os.chmod(os.path.join(work, "inbox"), 0o600)

listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(8)
listener.settimeout(1)
with open(os.path.join(work, "ready.tmp"), "w") as f:
    json.dump({"port": listener.getsockname()[1]}, f)
os.rename(os.path.join(work, "ready.tmp"), os.path.join(work, "ready.json"))

signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
parent = os.getppid()
log = open(os.path.join(work, "imap4d.log"), "a")
children = []
while os.getppid() == parent:
    try:
        conn, _ = listener.accept()
    except socket.timeout:
        children = [c for c in children if c.poll() is None]
        continue
    children.append(subprocess.Popen(["imap4d", "--config-file=" + config, "-i", "--preauth"],
                                     stdin=conn, stdout=conn, stderr=log, close_fds=True))
    conn.close()
