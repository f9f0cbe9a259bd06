#!/usr/bin/python3
"""A TLS-terminating reverse proxy for servers that speak plain HTTP only
(Xandikos): accepts TLS on 127.0.0.1:LISTEN with CERT/KEY, requires HTTP Basic
authentication USER:PASSWORD on every request (Xandikos has none of its own),
and relays the bytes to 127.0.0.1:BACKEND.

  tls-proxy.py LISTEN BACKEND CERT KEY USER PASSWORD [REQUEST_LOG]

With REQUEST_LOG, the request line of each request passed on is appended to that
file (the tests count the requests a sync makes).

Each client connection gets its own backend connection. Requests are read one at
a time (head, then a Content-Length body; the CalDAV clients here send no chunked
bodies), each checked for the credentials before it is passed on; answers are
relayed back as they come. A request without them gets 401 and the connection ends.
"""
import asyncio
import base64
import ssl
import sys

LISTEN, BACKEND, CERT, KEY, USER, PASSWORD = sys.argv[1:7]
REQUEST_LOG = sys.argv[7] if len(sys.argv) > 7 else None
EXPECTED = "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
UNAUTHORIZED = (b"HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"test\"\r\n"
                b"Content-Length: 0\r\nConnection: close\r\n\r\n")


async def read_head(reader):
    """One request's head (up to the blank line), or b"" at the end."""
    try:
        return await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as e:
        return e.partial
    except asyncio.LimitOverrunError:
        return b""


def header(head, name):
    for line in head.split(b"\r\n")[1:]:
        if b":" in line:
            key, value = line.split(b":", 1)
            if key.strip().lower() == name:
                return value.strip().decode("latin-1")
    return None


async def relay_answers(backend, client):
    try:
        while True:
            data = await backend.read(65536)
            if not data:
                break
            client.write(data)
            await client.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        client.close()


async def handle(client_reader, client_writer):
    backend_reader, backend_writer = await asyncio.open_connection("127.0.0.1", int(BACKEND))
    answers = asyncio.ensure_future(relay_answers(backend_reader, client_writer))
    try:
        while True:
            head = await read_head(client_reader)
            if not head:
                break
            if header(head, b"authorization") != EXPECTED:
                client_writer.write(UNAUTHORIZED)
                await client_writer.drain()
                break
            if REQUEST_LOG:
                with open(REQUEST_LOG, "ab") as log:
                    log.write(head.split(b"\r\n", 1)[0] + b"\n")
            backend_writer.write(head)
            length = int(header(head, b"content-length") or 0)
            if length:
                backend_writer.write(await client_reader.readexactly(length))
            await backend_writer.drain()
    except (ConnectionError, asyncio.IncompleteReadError, ssl.SSLError):
        pass
    finally:
        backend_writer.close()
        await asyncio.sleep(0.2)
        answers.cancel()
        client_writer.close()


async def main():
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(CERT, KEY)
    server = await asyncio.start_server(handle, "127.0.0.1", int(LISTEN), ssl=context)
    async with server:
        await server.serve_forever()


asyncio.run(main())
