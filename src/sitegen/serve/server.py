"""The HTTP side: a threading server answering from the current Snapshot, plus the event stream."""

from __future__ import annotations

import json
import socket
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from . import routes
from .state import SiteState, Snapshot

KEEPALIVE_S = 15.0  # a comment line this often lets a dead client be noticed and dropped


def build_event(snapshot: Snapshot) -> bytes:
    """One Server-Sent Event: the served version and the latest build's problems."""
    state = {
        "version": snapshot.version,
        "problems": [
            {
                "file": p.file,
                "line": p.line,
                "field": p.field,
                "message": p.message,
                "severity": p.severity,
                "text": str(p),
            }
            for p in snapshot.problems
        ],
    }
    return f"event: build\ndata: {json.dumps(state)}\n\n".encode()


class PreviewServer(ThreadingHTTPServer):
    """One thread per connection, so an open event stream never holds up a page request."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], state: SiteState) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        self.state = state
        super().__init__(address, PreviewHandler)


class PreviewHandler(BaseHTTPRequestHandler):
    server: PreviewServer
    server_version = "sitegen-serve"
    timeout = 10  # seconds a silent client may hold its connection (and shutdown) open

    def do_GET(self) -> None:
        if self.path.partition("?")[0] == routes.EVENTS_PATH:
            self._stream_events()
        else:
            self._send(routes.reply(self.server.state.current(), self.path), body=True)

    def do_HEAD(self) -> None:
        self._send(routes.reply(self.server.state.current(), self.path), body=False)

    def _send(self, reply: routes.Reply, body: bool) -> None:
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("Content-Length", str(len(reply.body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        if reply.location is not None:
            self.send_header("Location", reply.location)
        self.end_headers()
        if body:
            self.wfile.write(reply.body)

    def _stream_events(self) -> None:
        """Send the state now and after every change until the client or the server goes."""
        state = self.server.state
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        snapshot = state.current()
        try:
            self.wfile.write(build_event(snapshot))
            self.wfile.flush()
            while True:
                latest = state.wait_for_change(snapshot.token, KEEPALIVE_S)
                if state.closed:
                    return
                if latest.token == snapshot.token:
                    self.wfile.write(b": keep-alive\n\n")
                else:
                    snapshot = latest
                    self.wfile.write(build_event(snapshot))
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            return  # the page went away

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the console is for build results, not for every request."""
