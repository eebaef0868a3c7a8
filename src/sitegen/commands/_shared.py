"""What every command shares: the --site option and how problems are printed."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..records import Problem, Problems, SiteError


def site_option(help: str = "The site folder (the one holding sitegen.yaml)."):
    return click.option(
        "--site",
        "site_dir",
        type=click.Path(file_okay=False, path_type=Path),
        default=".",
        show_default=True,
        help=help,
    )


def report(problems: Problems | list[Problem]) -> None:
    """Print every problem, errors first, one per line on stderr."""
    items = problems.sorted() if isinstance(problems, Problems) else problems
    for problem in sorted(items, key=lambda p: p.severity != "error"):
        click.echo(str(problem), err=True)


def fail(exc: SiteError, what: str) -> None:
    """Print every problem and a summary line, then exit with status 1."""
    report(exc.problems)
    click.echo(f"{what} failed: {exc.summary}", err=True)
    sys.exit(1)
