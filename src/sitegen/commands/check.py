"""`sitegen check`: every check of a build, without writing anything (for hooks and CI)."""

from __future__ import annotations

from pathlib import Path

import click

from ..records import SiteError


@click.command("check")
@click.option(
    "--site",
    "site_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=".",
    show_default=True,
    help="The site folder (the one holding sitegen.yaml).",
)
@click.option("--strict", is_flag=True, help="Fail on warnings too.")
def check(site_dir: Path, strict: bool) -> None:
    """Load, check and render the site as a build does, but write nothing."""
    from ..build import render_site
    from ..cli import fail, report  # lazily: cli imports this module

    try:
        files, problems = render_site(site_dir, strict=strict)
    except SiteError as exc:
        fail(exc, "check")
    report(problems)
    pages = sum(1 for name in files if name.endswith(".html"))
    warnings = len(problems.warnings)
    click.echo(
        f"ok: {pages} pages, {len(files)} files would be built"
        + (f" ({warnings} warning{'s' * (warnings != 1)})" if warnings else "")
    )
