#!/usr/bin/python3
"""A TCP proxy on 127.0.0.1 that cuts connections off after N bytes.

    cutoff-proxy.py DIR TARGET_HOST TARGET_PORT

Forwards each connection to TARGET_HOST:TARGET_PORT (bytes as they are: TLS
passes through untouched). Before each connection it reads DIR/plan:
  pass       forward everything
  drop N     forward the first N bytes (both directions together), then close both sides
  stall N    forward the first N bytes, then forward nothing more and keep both
             sides open until the client goes away
After each connection it appends "BYTES" (bytes forwarded) to DIR/totals.
Live connections (for `triage watch`, which stays connected): DIR/live holds
"EPOCH MODE"; a connection that started under another EPOCH (or before the
file existed) is, once the file names a new EPOCH, either closed (MODE cut: a
network drop) or left open forwarding nothing (MODE stall: a silent connection);
each such connection then appends "EPOCH" to DIR/applied.
The port goes to DIR/ready.json. Stops on SIGTERM or when its parent goes away.
"""
import json
import os
import select
import socket
import sys
import threading

work, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
parent = os.getppid()


def plan():
    try:
        words = open(os.path.join(work, "plan")).read().split()
    except OSError:
        return "pass", None
    if not words or words[0] == "pass":
        return "pass", None
    return words[0], int(words[1])


# --- live connections (triage watch tests) ---
def live():
    try:
        words = open(os.path.join(work, "live")).read().split()
    except OSError:
        return None, None
    return (words[0], words[1]) if len(words) == 2 else (None, None)
# --- end live connections ---


def serve(client):
    mode, limit = plan()
    born, _ = live()
    try:
        upstream = socket.create_connection((host, port))
    except OSError:
        client.close()
        return
    sent = 0
    peers = {client: upstream, upstream: client}
    try:
        while True:
            readable, _, _ = select.select(list(peers), [], [], 1.0)
            if os.getppid() != parent:
                break
            epoch, live_mode = live()
            if epoch is not None and epoch != born:
                if live_mode == "stall":
                    mode, limit = "stall", sent
                # So a test can wait for the cut instead of sleeping.
                with open(os.path.join(work, "applied"), "a") as f:
                    f.write("%s\n" % epoch)
                break
            done = False
            for sock in readable:
                room = None if limit is None else limit - sent
                if room is not None and room <= 0:
                    done = True
                    break
                data = sock.recv(65536 if room is None else min(65536, room))
                if not data:
                    done = True
                    break
                peers[sock].sendall(data)
                sent += len(data)
            if limit is not None and sent >= limit:
                done = True
            if done:
                break
        if mode == "stall" and limit is not None and sent >= limit:
            # Forward nothing more; wait until the client gives up.
            while True:
                readable, _, _ = select.select([client], [], [], 1.0)
                if os.getppid() != parent:
                    break
                if readable:
                    try:
                        if not client.recv(65536):
                            break
                    except OSError:
                        break
    except OSError:
        pass
    finally:
        for sock in (client, upstream):
            try:
                sock.close()
            except OSError:
                pass
        with open(os.path.join(work, "totals"), "a") as f:
            f.write("%d\n" % sent)


listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", 0))
listener.listen(16)
tmp = os.path.join(work, ".ready.json")
with open(tmp, "w") as f:
    json.dump({"port": listener.getsockname()[1]}, f)
os.rename(tmp, os.path.join(work, "ready.json"))
listener.settimeout(1.0)
while os.getppid() == parent:
    try:
        conn, _ = listener.accept()
    except socket.timeout:
        continue
    threading.Thread(target=serve, args=(conn,), daemon=True).start()
