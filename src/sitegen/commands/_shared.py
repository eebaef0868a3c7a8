"""What every command shares: the --site option and how problems are printed."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..records import Problem, Problems
from ..records.problems import print_problems


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
    items = problems.items if isinstance(problems, Problems) else problems
    print_problems(items, sys.stderr)
