"""Output that is the same in every build: printing an object is refused."""

from __future__ import annotations

import datetime as dt

import pytest
from markupsafe import Markup

from sitegen.render.reproducible import NotReproducible, page_address, printable


class Plain:
    pass


@pytest.mark.parametrize(
    "value",
    ["text", Markup("<b>x</b>"), 3, 2.5, dt.date(2026, 1, 2), None, True, [1, "a"], {"a": 1}],
)
def test_values_print_as_they_are(value) -> None:
    assert printable(value) is value


@pytest.mark.parametrize(
    "value", [range, len, printable, iter([1]), (x for x in []), pytest, Plain()]
)
def test_objects_are_refused(value) -> None:
    with pytest.raises(NotReproducible):
        printable(value)


def test_an_address_in_a_page_is_found_escaped_or_not() -> None:
    assert page_address("<p>&lt;function f at 0x7f3a2b1c&gt;</p>") == "&lt;function f at 0x...&gt;"
    assert page_address("<p><object at 0xdeadbeef></p>") == "<object at 0x...>"
    assert page_address("<p>measured at 0x1234 offset</p>") is None


class Drawn:
    """Markup-like: what it prints is its HTML, not its repr."""

    def __init__(self, html: str) -> None:
        self.html = html

    def __html__(self) -> str:
        return self.html

    def __repr__(self) -> str:
        return "Drawn(...)"


def test_markup_objects_are_checked_by_the_html_they_print() -> None:
    fine = Drawn("<svg><title>A100</title></svg>")
    assert printable(fine) is fine
    with pytest.raises(NotReproducible):
        printable(Drawn("<svg><title><object at 0x7f3a2b1c></title></svg>"))
