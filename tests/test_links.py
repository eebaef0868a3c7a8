"""Links between pages: relative() gives what posixpath.relpath gives, plain paths or not."""

from __future__ import annotations

import itertools
import posixpath

from sitegen.render.environment import relative


def _relpath_link(from_route: str, to_path: str) -> str:
    """relative() as it was written first, on posixpath.relpath."""
    if to_path.endswith("/") or to_path == "":
        rel = posixpath.relpath(to_path or ".", from_route or ".")
        return "./" if rel == "." else rel + "/"
    return posixpath.relpath(to_path, from_route or ".")


PATHS = [
    "",
    "models/",
    "models/m/",
    "models/m/h100/",
    "models/m/h100/data.json",
    "models/n/h100/",
    "runs/r1/",
    "assets/style.css",
    "compare/a-vs-b/m/",
    "a//b/",
    "./models/",
    "models/../runs/",
    "/abs/",
]


def test_links_are_those_of_relpath() -> None:
    for here, there in itertools.product(PATHS, PATHS):
        assert relative(here, there) == _relpath_link(here, there), (here, there)


def test_links_climb_to_the_common_folder() -> None:
    assert relative("models/m/h100/", "models/m/a100/") == "../a100/"
    assert relative("runs/r1/", "") == "../../"
    assert relative("", "assets/style.css") == "assets/style.css"
    assert relative("models/m/", "models/m/") == "./"
