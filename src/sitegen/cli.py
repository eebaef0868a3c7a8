"""The `sitegen` command: a click group over one module per subcommand (commands/).

A subcommand's module is imported when that subcommand runs (or help lists it), so a command
does not pay for the imports of the others (`import` brings in every importer).
"""

from __future__ import annotations

import importlib

import click

from . import __version__

COMMANDS = {  # name -> (module under commands/, the click command in it)
    "build": ("build", "build"),
    "check": ("check", "check"),
    "import": ("importing", "import_"),
    "init": ("init", "init"),
    "serve": ("serve", "serve"),
}


class _Commands(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, attribute = COMMANDS[name]
        return getattr(importlib.import_module(f".commands.{module}", __package__), attribute)


@click.group(cls=_Commands)
@click.version_option(__version__, prog_name="sitegen")
def main() -> None:
    """Static site generator for LLM-inference benchmark leaderboards."""
