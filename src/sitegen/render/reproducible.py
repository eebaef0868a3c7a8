"""Output that is the same in every build: a template or placeholder that prints an object
(a function, a class, a generator: text with its memory address) is refused, not published."""

from __future__ import annotations

import datetime as dt
import re
import types
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import jinja2

ADDRESS = re.compile(r" at 0x[0-9a-fA-F]{4,}")
_ADDRESS_START = " at 0x"  # in every match of ADDRESS and _PAGE_ADDRESS: a fast first test
# in a finished page an address shows inside the markup of a repr, escaped or not
_PAGE_ADDRESS = re.compile(r"(?:<|&lt;)[^<>&\n]{1,200}? at 0x[0-9a-fA-F]{4,}(?:>|&gt;)")
_PLAIN = (str, int, float, Decimal, dt.date, jinja2.Undefined)


class NotReproducible(ValueError):
    """A value printed into a page whose text would differ from one build to the next."""


def _shown(text: str) -> str:
    text = ADDRESS.sub(" at 0x...", text)
    return text if len(text) <= 80 else text[:77] + "..."


def printable(value: Any) -> Any:
    """`value` unchanged when printing it gives the same text in every build; raises
    NotReproducible for an object (the finalize of every Jinja environment)."""
    if value is None or isinstance(value, _PLAIN):
        return value
    if callable(value) or isinstance(value, types.ModuleType | Iterator):
        raise NotReproducible(
            f"prints an object, not a value: {_shown(repr(value))} (its text is not a "
            "number or a word of the page, and can change from build to build)"
        )
    # markup objects (a drawn chart) print their HTML: that text is the one to check
    text = value.__html__() if hasattr(value, "__html__") else str(value)
    if _ADDRESS_START in text and ADDRESS.search(text):
        raise NotReproducible(
            f"prints an object's memory address, which changes from build to build: {_shown(text)}"
        )
    return value


def check_text(text: str) -> None:
    """A piece of text made by a placeholder: NotReproducible if it holds a memory address."""
    if _ADDRESS_START in text and ADDRESS.search(text):
        raise NotReproducible(
            f"prints an object's memory address, which changes from build to build: {_shown(text)}"
        )


def page_address(html: str) -> str | None:
    """The first object repr with a memory address in a finished page, for a message."""
    if _ADDRESS_START not in html:  # the regex is slow on a big page; this test is not
        return None
    match = _PAGE_ADDRESS.search(html)
    return _shown(match.group(0)) if match else None
