#!/usr/bin/env python3
"""Pictures for mirrored builds without the internet: an HTTP server on 127.0.0.1 that
answers /N.png (any whole number N) with a small PNG of its own colour, and anything else
with a 404. The pictures of `roost generate --picture-base http://127.0.0.1:PORT`.

    scripts/picture_server.py [PORT]     # prints "serving http://127.0.0.1:PORT", Ctrl-C stops

From Python (the browser tests): `server, base = start()`, then `server.shutdown()`.
"""
import http.server
import re
import struct
import sys
import threading
import zlib


def png(n, size=48):
    """A size×size RGB PNG of one colour picked by n."""
    colour = bytes(((n * 73) % 256, (n * 151) % 256, (n * 199 + 64) % 256))
    raw = b"".join(b"\x00" + colour * size for _ in range(size))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    requests = 0
    lock = threading.Lock()

    def do_GET(self):
        with Handler.lock:
            Handler.requests += 1
        match = re.fullmatch(r"/(\d{1,9})\.png", self.path.split("?")[0])
        if match:
            body, status, kind = png(int(match.group(1))), 200, "image/png"
        else:
            body, status, kind = b"not here", 404, "text/plain"
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def start(port=0):
    """Serves on 127.0.0.1 in a thread; returns the server and its base URL."""
    http.server.ThreadingHTTPServer.daemon_threads = True
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, "http://127.0.0.1:%d" % server.server_address[1]


if __name__ == "__main__":
    server, base = start(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    print("serving " + base, flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.shutdown()
