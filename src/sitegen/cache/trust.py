"""What a build keeps between runs (cached charts, the output manifest): where it may be kept,
and how a later build knows that it wrote it.

Cached SVG is inlined into pages as it is, so an entry must be ours: each is signed with an
HMAC whose key lives in the user's cache folder (`$XDG_CACHE_HOME/sitegen/key`, by default
`~/.cache/sitegen/key`), never beside the site. A `.sitegen-cache/` restored from another
machine or another job (a CI cache a pull request could have filled), or edited, fails the
check and is drawn again; without a key (no writable home) nothing is cached. The cache folder
must be the site's own: a `.sitegen-cache` that is a link (which a pull request can add) is
not used, so nothing is written or pruned through it.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import os
import secrets
import stat
from pathlib import Path

from ..layout import SiteLayout

KEY_BYTES = 32


def key_file() -> Path:
    return _key_file(os.environ.get("XDG_CACHE_HOME"), os.environ.get("HOME"))


@functools.lru_cache(maxsize=4)
def _key_file(xdg_cache_home: str | None, home: str | None) -> Path:
    """Where the key is for these variables (a build signs every cache entry: found once)."""
    base = xdg_cache_home or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "sitegen" / "key"


@functools.lru_cache(maxsize=4)
def _key(path: Path) -> bytes | None:
    """The key in `path`, made on first use; None when it cannot be read or made."""
    with contextlib.suppress(OSError):
        data = path.read_bytes()
        if len(data) == KEY_BYTES and stat.S_ISREG(path.stat().st_mode):
            return data
        return None  # something else is there: trust nothing rather than replace it
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp = path.with_name(f".key-{secrets.token_hex(8)}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(secrets.token_bytes(KEY_BYTES))
        try:
            os.link(tmp, path)  # fails if another build made the key meanwhile: read that one
        finally:
            os.unlink(tmp)
    except FileExistsError:
        pass
    except OSError:
        return None
    with contextlib.suppress(OSError):
        data = path.read_bytes()
        return data if len(data) == KEY_BYTES else None
    return None


def sign(text: str | bytes) -> str | None:
    """The HMAC of `text` (UTF-8 when text) under this user's key; None when there is no key."""
    key = _key(key_file())
    if key is None:
        return None
    data = text.encode("utf-8") if isinstance(text, str) else text
    return hmac.new(key, data, hashlib.sha256).hexdigest()


def verify(text: str, mac: str) -> bool:
    expected = sign(text)
    return expected is not None and hmac.compare_digest(expected, mac)


def cache_folder(site_root: Path, *parts: str) -> Path | None:
    """<site>/.sitegen-cache/<parts>, or None when it cannot be the site's own: a link, or a
    file, anywhere on the way, or no key to sign with (then nothing is cached)."""
    if _key(key_file()) is None:
        return None
    folder = SiteLayout(Path(site_root)).cache
    for place in (folder, *(folder.joinpath(*parts[: i + 1]) for i in range(len(parts)))):
        if place.is_symlink() or (place.exists() and not place.is_dir()):
            return None
    return folder.joinpath(*parts)
