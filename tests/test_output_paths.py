"""Every output path checked in one place: shapes, reserved names, collisions."""

from __future__ import annotations

from sitegen.output.paths import Origin, path_problems


class Named:
    """Origins that name each path after itself, to read the rules without a site."""

    def of(self, path: str, part: int | None = None) -> Origin:
        return Origin(path, None, "" if part is None else str(part), f"the file {path}")


def problems(*paths: str) -> list[str]:
    return [str(p) for p in path_problems(paths, Named()).items]  # type: ignore[arg-type]


def test_a_site_of_ordinary_paths_has_no_problem() -> None:
    assert (
        problems(
            "index.html",
            "404.html",
            "models/m1/index.html",
            "models/m1/g1/index.html",
            "models/m1/g1/data.json",
            "compare/g1-vs-g2/m1/index.html",
            "assets/style.css",
            "data/leaderboard.csv",
        )
        == []
    )


def test_the_same_path_twice() -> None:
    assert problems("a/index.html", "a/index.html") == [
        "a/index.html: the file a/index.html: its output path a/index.html is the path of "
        "both; rename one"
    ]


def test_paths_that_differ_only_in_case() -> None:
    (problem,) = problems("assets/logo.svg", "assets/Logo.svg")
    assert "is assets/logo.svg (the file assets/logo.svg) once case is folded" in problem


def test_a_file_where_another_path_needs_a_folder() -> None:
    (problem,) = problems("models/m1/index.html", "models/m1/index.html/index.html")
    assert problem.startswith("models/m1/index.html/index.html: 2: the output path")
    assert "has a folder named 'index.html'" in problem
    (problem,) = problems("x/page", "x/page/index.html")
    assert "needs the folder x/page/, where the file x/page is the file x/page" in problem


def test_shapes_no_file_system_takes() -> None:
    long_part = "a" * 256
    assert "has a part of 256 bytes" in problems(f"{long_part}/index.html")[0]
    (too_long,) = problems("a/" * 600 + "x")
    assert "is 1201 bytes long (at most 1024)" in too_long
    for odd in ("a\nb/index.html", "a\\b", "a/../b", "a//b", "a:b", "a\u200bb"):
        assert problems(odd), odd


def test_reserved_names_at_the_root() -> None:
    for name in ("404.html", "sitemap.xml", "robots.txt", "index.html", "assets", "data"):
        (problem,) = problems(f"{name}/index.html")
        assert f"is where {name!r} is reserved" in problem
