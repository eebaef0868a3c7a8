"""The `sitegen` command: thin click wiring over build, check, import and serve."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from . import __version__
from .records import Problems, SiteError

SITE_OPTION = click.option(
    "--site",
    "site_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=".",
    show_default=True,
    help="The site folder (the one holding sitegen.yaml).",
)


def report(problems: Problems | list) -> None:
    """Print every problem, errors first, one per line on stderr."""
    items = problems.sorted() if isinstance(problems, Problems) else problems
    for problem in sorted(items, key=lambda p: p.severity != "error"):
        click.echo(str(problem), err=True)


def fail(exc: SiteError, what: str) -> None:
    report(exc.problems)
    click.echo(f"{what} failed: {exc.summary}", err=True)
    sys.exit(1)


@click.group()
@click.version_option(__version__, prog_name="sitegen")
def main() -> None:
    """Static site generator for LLM-inference benchmark leaderboards."""


@main.command()
@SITE_OPTION
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where to write the site [default: SITE/public].",
)
@click.option("--strict", is_flag=True, help="Fail on warnings too.")
def build(site_dir: Path, out_dir: Path | None, strict: bool) -> None:
    """Build the site from data/ and content/ into public/."""
    from .build import build as run_build

    try:
        result = run_build(site_dir, out_dir, strict=strict)
    except SiteError as exc:
        fail(exc, "build")
    report(result.problems)
    warnings = len(result.problems.warnings)
    click.echo(
        f"built {result.pages} pages, {result.files} files into {result.out_dir}"
        + (f" ({warnings} warning{'s' * (warnings != 1)})" if warnings else "")
    )


from .commands.serve import serve  # noqa: E402  (at the bottom: each command adds its own line)

main.add_command(serve)

from .commands.check import check  # noqa: E402

main.add_command(check)

from .commands.importing import import_  # noqa: E402

main.add_command(import_)
