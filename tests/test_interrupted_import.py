"""An import killed while it writes leaves staged files (`.NAME.yaml.XXXXXXXX`) that `git add`
would commit: the next import into the same folder removes them, and nothing else."""

from __future__ import annotations

import os
import time
from pathlib import Path

from test_importers import SWEEP_OPTIONS, VLLM, run, site  # noqa: F401 - site is a fixture


def test_the_next_import_removes_what_a_killed_import_left(site: Path) -> None:  # noqa: F811
    folder = site / "data" / "runs" / "lab"
    folder.mkdir(parents=True)
    # staged files of a killed import: a record it was writing, and one of an archive
    left = [folder / ".sweep.yaml.k2_9xq0a", folder / ".old.parquet.abcd1234"]
    # lookalikes that are not the import's own: all stay
    kept = [
        folder / ".notes.yaml.backup",  # not 8 characters of mkstemp
        folder / ".sweep.yaml.ABCD1234",  # not mkstemp's characters
        folder / ".sweep.txt.abcd1234",  # not a file an import writes
        folder / "sweep.yaml.abcd1234",  # not hidden
        folder / "other.yaml",
    ]
    for path in left + kept:
        path.write_text("partial: [1, 2\n")
    week_ago = time.time() - 7 * 86400
    for path in left + kept:
        os.utime(path, (week_ago, week_ago))
    # one staged a moment ago may be a concurrent import's, still writing: it stays
    fresh = folder / ".busy.yaml.zz11yy22"
    fresh.write_text("partial")
    kept.append(fresh)

    target = folder / "sweep.yaml"
    options = [*SWEEP_OPTIONS, "--workload", "chat", "--out", target]
    result = run(site, "vllm", VLLM / "c1.json", *options)

    assert result.exit_code == 0, result.output
    assert target.is_file()
    assert [p.name for p in left if p.exists()] == []
    expected = sorted([target.name, *(p.name for p in kept)])
    assert sorted(p.name for p in folder.iterdir()) == expected
