"""QuickSiteFiles allows and refuses exactly what SiteFiles does, in fewer system calls."""

from __future__ import annotations

import os

from conftest import sweep
from sitegen.quickfiles import QuickSiteFiles
from sitegen.records.problems import Problems
from sitegen.sitefiles import SiteFiles


def test_the_quick_walk_finds_and_refuses_what_the_walk_does(make_site, tmp_path):
    root = make_site(runs={"lab/a.yaml": sweep(), "lab/b.yaml": sweep(gpu="g2")})
    runs = root / "data/runs"
    outside = tmp_path / "outside"
    (outside / "deep").mkdir(parents=True)
    (outside / "secret.yaml").write_text("x: 1\n")
    (runs / "in-link.yaml").symlink_to(runs / "lab/a.yaml")  # inside: read through
    (runs / "out-link.yaml").symlink_to(outside / "secret.yaml")  # leaves the site
    (runs / "broken.yaml").symlink_to(runs / "nothing.yaml")
    (runs / "dir-out").symlink_to(outside / "deep")  # a folder leaving the site
    (runs / "dir-in").symlink_to(runs / "lab")  # a folder inside: walked once
    (runs / "up").symlink_to(root)  # the site folder itself is no input folder
    os.mkfifo(runs / "pipe.yaml")
    (root / "content").mkdir(exist_ok=True)
    (root / "content/page.md").write_text("# hi\n")
    for folder in ("data", "content"):
        slow, quick = Problems(), Problems()
        assert QuickSiteFiles(root).walk(root / folder, quick) == SiteFiles(root).walk(
            root / folder, slow
        )
        assert quick.sorted() == slow.sorted()
    found = Problems()
    QuickSiteFiles(root).walk(root / "data", found)
    refused = {p.file for p in found.items}
    assert {"data/runs/out-link.yaml", "data/runs/broken.yaml", "data/runs/pipe.yaml"} <= refused
    for name in ("lab/a.yaml", "out-link.yaml", "pipe.yaml", "up"):
        path = runs / name
        assert QuickSiteFiles(root).check(path, Problems()) == SiteFiles(root).check(
            path, Problems()
        )
    config = root / "sitegen.yaml"
    assert QuickSiteFiles(root).check(config, Problems()) == SiteFiles(root).check(
        config, Problems()
    )
