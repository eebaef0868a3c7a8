"""Which Host headers the preview answers: its own names, so that a web page cannot reach it.

A page on any site can point its own name at 127.0.0.1 (DNS rebinding) and then read the
preview as if it were that site; its requests still carry that name in Host. The preview
answers only to localhost, 127.0.0.1 and [::1], to the --host it was given, and, when it
listens on every address (0.0.0.0 or ::), to any IP address (a rebinding page can only send a
name) - each with the preview's port.
"""

from __future__ import annotations

import ipaddress

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
WILDCARDS = ("0.0.0.0", "::", "")


def _ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name.removeprefix("[").removesuffix("]"))
    except ValueError:
        return False
    return True


def _split(header: str) -> tuple[str, str] | None:
    """(name, port) of a Host header; port '' when it has none; None when it cannot be read."""
    if header.startswith("["):
        name, bracket, rest = header.partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            return None
        return name + "]", rest[1:]
    name, colon, port = header.rpartition(":")
    return (name, port) if colon else (header, "")


def _named(bind_host: str) -> str:
    return f"[{bind_host}]" if ":" in bind_host else bind_host


def host_allowed(header: str | None, bind_host: str, port: int) -> bool:
    """True when a request with this Host header is for this preview."""
    if not header or any(c.isspace() for c in header):
        return False
    split = _split(header.lower())
    if split is None:
        return False
    name, given_port = split
    if given_port != str(port) and not (given_port == "" and port == 80):
        return False
    if name in LOOPBACK_NAMES or name == _named(bind_host.lower()):
        return True
    return bind_host in WILDCARDS and _ip(name)


def refusal(header: str | None, bind_host: str, port: int) -> bytes:
    names = ", ".join(f"{name}:{port}" for name in (*LOOPBACK_NAMES, _named(bind_host)))
    return (
        f"sitegen serve answers only to requests for {names}, not to Host: {header or '(none)'}\n"
    ).encode("utf-8", "replace")
