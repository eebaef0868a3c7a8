"""The `sitegen` command: a click group over one module per subcommand (commands/).

A subcommand's module is imported when that subcommand runs (or help lists it), so a command
does not pay for the imports of the others (`import` brings in every importer).
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import os
import sys

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


def run() -> None:
    """The `sitegen` program: main(), then out at once.

    By the time a command returns, everything it wrote is written and closed; what is left is
    the interpreter freeing every object one by one (a build at 2,000 pairs holds millions:
    0.3 s). So exit handlers run, the standard streams are flushed, and the process ends
    there, with main()'s exit status. Tests and other callers of main() are not affected.
    """
    try:
        main()
        status = 0
    except SystemExit as exc:  # how click's main ends, with the status to exit with
        if exc.code is None or isinstance(exc.code, int):
            status = exc.code or 0
        else:
            print(exc.code, file=sys.stderr)
            status = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a closed pipe: nothing left to tell
            stream.flush()
    os._exit(status)
