"""`sitegen build`: data/ and content/ through the templates into public/."""

from __future__ import annotations

from pathlib import Path

import click

from ..pipeline.progress import for_terminal, took
from ..records.problems import plural
from ._shared import report, site_option


@click.command("build")
@site_option()
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),  # a file is refused with the other unsafe places
    default=None,
    help="Where to write the site [default: SITE/public].",
)
@click.option("--strict", is_flag=True, help="Fail on warnings too.")
@click.option(
    "--no-cache",
    "no_cache",
    is_flag=True,
    help="Ignore SITE/.sitegen-cache/: draw every chart, write every file (same output).",
)
def build(site_dir: Path, out_dir: Path | None, strict: bool, no_cache: bool) -> None:
    """Build the site from data/ and content/ into public/."""
    from ..pipeline.build import build as run_build

    # a bar on stderr for a long build on a terminal; SiteError: click prints, exits 1
    with for_terminal() as progress:
        result = run_build(
            site_dir, out_dir, strict=strict, progress=progress, use_cache=not no_cache
        )
    report(result.problems)
    warnings = len(result.problems.warnings)
    kept = result.files - len(result.rewritten)
    click.echo(
        f"built {result.pages} pages, {result.files} files into {result.out_dir}"
        f" in {took(progress.seconds)} ({len(result.rewritten)} written, {kept} unchanged)"
        + (f" ({plural(warnings, 'warning')})" if warnings else "")
    )
