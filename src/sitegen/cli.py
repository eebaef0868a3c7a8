"""The `sitegen` command: a click group over one module per subcommand (commands/)."""

from __future__ import annotations

import click

from . import __version__
from .commands.build import build
from .commands.check import check
from .commands.importing import import_
from .commands.serve import serve


@click.group()
@click.version_option(__version__, prog_name="sitegen")
def main() -> None:
    """Static site generator for LLM-inference benchmark leaderboards."""


for command in (build, check, import_, serve):
    main.add_command(command)
