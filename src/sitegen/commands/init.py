"""`sitegen init DIR`: start a new site that builds at once."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("init")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--force",
    is_flag=True,
    help="Add the skeleton to a folder that is not empty; no file is overwritten.",
)
def init(directory: Path, force: bool) -> None:
    """Create a new site in DIRECTORY: settings, example data, content, README, CI workflow."""
    from ..output.newsite import create_site

    created = create_site(directory, force=force)  # SiteError: printed by click, exit 1
    for rel in created.written:
        click.echo(f"wrote {directory / rel}")
    for rel in created.kept:
        click.echo(f"kept {directory / rel} (already there)")
    click.echo(
        f"\nNext: sitegen build --site {directory}   (then open {directory / 'public/index.html'})"
        f"\nEdit first: {directory / 'sitegen.yaml'} (title, base_url, license), then data/."
    )
