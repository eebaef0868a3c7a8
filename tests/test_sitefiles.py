"""Reading only the site's own files: links that leave its input folders are refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from sitegen.cli import main
from sitegen.records import Problems
from sitegen.records.sitefiles import SiteFiles


def site_with(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    for name in ("data/runs/lab", "content/faq", "templates", ".git"):
        (root / name).mkdir(parents=True)
    (root / "sitegen.yaml").write_text("title: x\n")
    (root / "data/runs/lab/a.yaml").write_text("a: 1\n")
    (root / ".git/config").write_text("token\n")
    (tmp_path / "outside.yaml").write_text("b: 2\n")
    return root


def rels(root: Path, paths: list[Path]) -> list[str]:
    return [p.relative_to(root).as_posix() for p in paths]


def test_walk_follows_links_that_stay_inside_and_names_the_others(tmp_path) -> None:
    root = site_with(tmp_path)
    runs = root / "data/runs"
    (runs / "b.yaml").symlink_to("lab/a.yaml")
    (runs / "loop").symlink_to(".")  # a folder that holds itself: walked once
    (runs / "out.yaml").symlink_to(tmp_path / "outside.yaml")
    (runs / "git.yaml").symlink_to("../../.git/config")
    (runs / "gone.yaml").symlink_to("nowhere.yaml")
    (runs / "notes.txt").symlink_to(tmp_path / "outside.yaml")  # not wanted: not read, no error
    problems = Problems()
    found = SiteFiles(root).walk(runs, problems, wanted=lambda name: name.endswith(".yaml"))
    assert rels(root, found) == ["data/runs/b.yaml", "data/runs/lab/a.yaml"]
    assert sorted((p.file, p.message.split(":")[0]) for p in problems.items) == [
        (
            "data/runs/git.yaml",
            "a link to outside the site's data/, content/ and templates/ folders",
        ),
        ("data/runs/gone.yaml", "cannot read"),
        (
            "data/runs/out.yaml",
            "a link to outside the site's data/, content/ and templates/ folders",
        ),
    ]


def test_an_input_folder_linked_to_the_site_folder_itself_is_refused(tmp_path) -> None:
    root = site_with(tmp_path)
    (root / "content/faq").rmdir()
    (root / "content").rmdir()
    (root / "content").symlink_to(".")  # would make .git/ and public/ readable
    problems = Problems()
    assert SiteFiles(root).walk(root / "content", problems) == []
    assert [p.file for p in problems.items] == ["content"]


def test_the_config_may_be_a_link_into_an_input_folder(tmp_path) -> None:
    root = site_with(tmp_path)
    (root / "sitegen.yaml").unlink()
    (root / "data/site.yaml").write_text("title: x\n")
    (root / "sitegen.yaml").symlink_to("data/site.yaml")
    assert SiteFiles(root).check(root / "sitegen.yaml", Problems())
    (root / "sitegen.yaml").unlink()
    (root / "sitegen.yaml").symlink_to(tmp_path / "outside.yaml")
    problems = Problems()
    assert not SiteFiles(root).check(root / "sitegen.yaml", problems)
    assert [p.file for p in problems.items] == ["sitegen.yaml"]


def test_walk_names_are_walk_paths_in_the_order_paths_sort(tmp_path) -> None:
    """Names sort as their paths do, part by part: "a/x" before "a-b/x" (as text, "-" < "/")."""
    root = tmp_path / "site"
    for name in ("a/x.yaml", "a-b/x.yaml", "a/b/c.yaml", "a.b/y.yaml", "A/z.yaml", "a/.h.yaml"):
        (root / "data" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "data" / name).write_text("x")
    (root / "sitegen.yaml").write_text("title: t\n")
    files = SiteFiles(root)
    names = files.walk_names(root / "data", Problems())
    paths = files.walk(root / "data", Problems())
    assert names == [p.relative_to(root).as_posix() for p in paths]
    assert paths == sorted(
        root / "data" / n
        for n in ("a/x.yaml", "a-b/x.yaml", "a/b/c.yaml", "a.b/y.yaml", "A/z.yaml", "a/.h.yaml")
    )
    assert names.index("data/a/x.yaml") < names.index("data/a-b/x.yaml")
    assert sorted(names) != names  # text order would differ
    assert not files.met_links


LOOPS = {
    "two links to each other": {"data/runs/a": "b", "data/runs/b": "a"},
    "a link to itself": {"data/runs/self.yaml": "self.yaml"},
    "a run file's link into a loop": {
        "data/runs/x.yaml": "a",
        "data/runs/a": "b",
        "data/runs/b": "a",
    },
}


@pytest.mark.parametrize("links", list(LOOPS.values()), ids=list(LOOPS))
@pytest.mark.parametrize("command", ["check", "build"])
def test_a_loop_of_links_in_runs_is_an_error_naming_it(make_site, command, links) -> None:
    """A loop of links made `check` and `build` a traceback (issue 28): now an error naming
    each link of it, exit status 1, and no output written."""
    root = make_site()
    for name, target in links.items():
        (root / name).symlink_to(target)

    result = CliRunner().invoke(main, [command, "--site", str(root)])

    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    for name in links:
        assert f"{name}: " in result.output
    assert not (root / "public").exists()


def test_a_link_to_its_own_folder_is_walked_once(make_site) -> None:
    """`data/runs/loop -> .` is a loop a walk can end: the runs are read once, no error."""
    root = make_site()
    (root / "data/runs/loop").symlink_to(".")

    result = CliRunner().invoke(main, ["check", "--site", str(root)])

    assert result.exit_code == 0, result.output
