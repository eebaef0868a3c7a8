"""The HTTP side: a threading server answering from the current Snapshot, plus the event stream."""

from __future__ import annotations

import contextlib
import json
import selectors
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from ..records.problems import shown
from . import routes
from .hosts import host_allowed, refusal
from .state import SiteState, Snapshot

KEEPALIVE_S = 15.0  # a comment line this often, for proxies and a client gone without a word
GONE_CHECK_S = 0.25  # how soon a closed event stream is noticed, and its slot freed


def build_event(snapshot: Snapshot) -> bytes:
    """One Server-Sent Event: the served version and the latest build's problems, their
    parts escaped as the console shows them (the overlay shows `text`)."""
    state = {
        "version": snapshot.version,
        "problems": [
            {
                "file": shown(p.file),
                "line": p.line,
                "field": shown(p.field),
                "message": shown(p.message),
                "severity": p.severity,
                "text": str(p),
            }
            for p in snapshot.problems
        ],
    }
    return f"event: build\ndata: {json.dumps(state)}\n\n".encode()


_BUSY_BODY = b"sitegen serve: too many connections, try again\n"
BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
    b"Retry-After: 1\r\nConnection: close\r\n"
    + f"Content-Length: {len(_BUSY_BODY)}\r\n\r\n".encode()
    + _BUSY_BODY
)


class PreviewServer(ThreadingHTTPServer):
    """One thread per connection, so an open event stream never holds up a page request;
    at most `max_connections` at once (each open page holds one for its events), further
    ones are answered 503 at once rather than given a thread each."""

    daemon_threads = True
    allow_reuse_address = True
    max_connections = 64

    def __init__(self, address: tuple[str, int], state: SiteState) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        self.state = state
        self.bind_host = address[0]
        self._slots = threading.BoundedSemaphore(self.max_connections)
        super().__init__(address, PreviewHandler)

    def process_request(self, request, client_address) -> None:  # type: ignore[no-untyped-def]
        if not self._slots.acquire(blocking=False):
            with contextlib.suppress(OSError):
                request.settimeout(1.0)
                request.sendall(BUSY)
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request, client_address) -> None:  # type: ignore[no-untyped-def]
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()


class PreviewHandler(BaseHTTPRequestHandler):
    server: PreviewServer
    server_version = "sitegen-serve"
    timeout = 10  # seconds a silent client may hold its connection (and shutdown) open

    def do_GET(self) -> None:
        if not self._for_us():
            self._send(self._refused(), body=True)
        elif self.path.partition("?")[0] == routes.EVENTS_PATH:
            self._stream_events()
        else:
            self._send(routes.reply(self.server.state.current(), self.path), body=True)

    def do_HEAD(self) -> None:
        reply = routes.reply(self.server.state.current(), self.path)
        self._send(reply if self._for_us() else self._refused(), body=False)

    def _for_us(self) -> bool:
        """A request naming this preview in its Host header (see hosts.py)."""
        port = self.server.server_address[1]
        return host_allowed(self.headers.get("Host"), self.server.bind_host, port)

    def _refused(self) -> routes.Reply:
        port = self.server.server_address[1]
        body = refusal(self.headers.get("Host"), self.server.bind_host, port)
        return routes.Reply(403, body, routes.CONTENT_TYPES[".txt"])

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
        """Send the state now and after every change until the client or the server goes.

        Between changes the socket is watched for the client's end (it sends nothing after
        its request), so a closed page frees its connection slot within GONE_CHECK_S rather
        than at the next write, which a closed socket may still accept."""
        state = self.server.state
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        snapshot = state.current()
        with selectors.DefaultSelector() as watch:
            watch.register(self.connection, selectors.EVENT_READ)
            try:
                self.wfile.write(build_event(snapshot))
                self.wfile.flush()
                written = time.monotonic()
                while not state.closed:
                    latest = state.wait_for_change(snapshot.token, GONE_CHECK_S)
                    if state.closed or (watch.select(0) and self._client_gone()):
                        return
                    if latest.token != snapshot.token:
                        snapshot = latest
                        self.wfile.write(build_event(snapshot))
                    elif time.monotonic() - written >= KEEPALIVE_S:
                        self.wfile.write(b": keep-alive\n\n")
                    else:
                        continue
                    self.wfile.flush()
                    written = time.monotonic()
            except OSError:  # BrokenPipe, ConnectionReset, a timeout: the page went away
                return

    def _client_gone(self) -> bool:
        """The readable socket of an event stream: at its end (or broken) once the client
        closed it; anything else the client sends is read and ignored."""
        try:
            return not self.connection.recv(4096)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            return True

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the console is for build results, not for every request."""
