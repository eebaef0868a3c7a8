"""Issue 28, finding 10: a closed event stream frees its connection slot at once."""

from __future__ import annotations

import http.client
import time
from pathlib import Path

from sitegen.serve import Preview
from sitegen.serve.server import PreviewServer
from test_serve import PAIR, EventStream, request


def soon(attempt, seconds: float = 2.0):  # type: ignore[no-untyped-def]
    """What `attempt` returns once it does not fail, trying for `seconds` (not the 15 s of a
    keep-alive, after which a dead client used to be noticed)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return attempt()
        except (AssertionError, ConnectionError, http.client.HTTPException):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def page(preview: Preview) -> None:
    assert request(preview, PAIR).status == 200


def test_closed_event_streams_free_their_slots_at_once(serve_site: Path) -> None:
    with Preview(serve_site, port=0) as preview:
        for _ in range(2 * PreviewServer.max_connections):  # more than there are slots
            stream = soon(lambda: EventStream(preview.port))
            stream.next()  # the server holds the stream open, waiting for a change
            stream.close()
        soon(lambda: page(preview))
        # and every slot is free again: as many open streams as there are slots
        streams = [
            soon(lambda: EventStream(preview.port))
            for _ in range(PreviewServer.max_connections - 1)
        ]
        for stream in streams:
            stream.next()
        soon(lambda: page(preview))  # once the last of the closed ones is noticed
        for stream in streams:
            stream.close()
