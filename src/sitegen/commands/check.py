"""`sitegen check`: every check of a build, without writing anything (for hooks and CI)."""

from __future__ import annotations

from pathlib import Path

import click

from ..records.problems import plural
from ._shared import report, site_option


@click.command("check")
@site_option()
@click.option("--strict", is_flag=True, help="Fail on warnings too.")
def check(site_dir: Path, strict: bool) -> None:
    """Load, check and render the site as a build does, but write nothing."""
    from ..pipeline.build import render_site

    # SiteError: click prints every problem and exits 1
    files, problems = render_site(site_dir, strict=strict, use_cache=False, notes=True)
    report(problems)
    pages = sum(1 for name in files if name.endswith(".html"))
    counts = [
        plural(n, kind)
        for n, kind in ((len(problems.warnings), "warning"), (len(problems.notes), "note"))
        if n
    ]
    click.echo(
        f"ok: {pages} pages, {len(files)} files would be built"
        + (f" ({', '.join(counts)})" if counts else "")
    )
