"""`sitegen serve`: preview the site while editing it; rebuilds on save and reloads the pages."""

from __future__ import annotations

import ipaddress
import signal
import threading
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..layout import SiteLayout
from ..records import Problem, SiteError
from ..records.problems import plural, shown
from ._shared import report, site_option

if TYPE_CHECKING:
    from ..serve import BuildReport


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _echo_build(outcome: BuildReport) -> None:
    """One line per build on stderr, after its problems."""

    snapshot = outcome.snapshot
    if snapshot.problems:
        report(list(snapshot.problems))
        errors = sum(1 for p in snapshot.problems if p.severity == "error")
        kept = "the last good site" if snapshot.files else "no site yet"
        click.echo(f"build failed ({plural(errors, 'error')}): serving {kept}", err=True)
        return
    report(list(outcome.warnings))
    took = f"{outcome.seconds * 1000:.0f} ms"
    if not outcome.trigger:
        click.echo(f"built {len(snapshot.files)} files in {took}", err=True)
        return
    what = shown(", ".join(outcome.trigger[:3])) + (" ..." if len(outcome.trigger) > 3 else "")
    changed = outcome.changed_files
    click.echo(f"rebuilt after {what} in {took}: {plural(changed, 'file')} changed", err=True)


@click.command()
@site_option()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port to listen on; 0 picks a free one.",
)
@click.option("--open/--no-open", "open_browser", default=False, help="Open the site in a browser.")
def serve(site_dir: Path, host: str, port: int, open_browser: bool) -> None:
    """Preview the site: rebuild on every save and reload the open pages.

    Builds in memory (public/ is left alone), serves under the path of base_url, watches
    sitegen.yaml, data/, content/ and templates/, and shows build problems in the pages.
    """
    from ..serve import Preview

    if reason := SiteLayout(site_dir).missing():
        raise SiteError([Problem(SiteLayout.CONFIG, None, "", reason)])
    try:
        preview = Preview(site_dir, host, port, on_build=_echo_build)
    except OSError as exc:
        raise click.ClickException(
            f"cannot listen on {host}:{port}: {exc.strerror or exc} (try --port 0)"
        ) from None
    if not _loopback(host):
        click.echo(
            f"warning: {host} is not a loopback address; others can see the preview", err=True
        )
    stopping = threading.Event()

    def on_signal(signum: int, frame: object) -> None:
        if stopping.is_set():  # asked twice: stop waiting for a clean shutdown
            raise KeyboardInterrupt
        stopping.set()

    # Both set explicitly: a shell may start a background job with SIGINT ignored.
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    try:
        preview.start()
        click.echo(f"serving {site_dir} at {preview.url} (Ctrl-C to stop)", err=True)
        if open_browser:
            webbrowser.open(preview.url)
        while not stopping.wait(0.5):
            pass
    finally:
        preview.stop()
        click.echo("stopped", err=True)
