"""Where things are in a site folder, and the one message for a folder that is not a site."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from sitegen.cli import main
from sitegen.layout import SiteLayout

VLLM_RESULT = Path(__file__).parent / "fixtures/importers/vllm/c1.json"


def test_the_places_of_a_site(tmp_path: Path) -> None:
    layout = SiteLayout(tmp_path)
    assert layout.config == tmp_path / "sitegen.yaml"
    assert layout.data == tmp_path / "data"
    assert layout.runs == tmp_path / "data/runs"
    assert layout.content == tmp_path / "content"
    assert layout.templates == tmp_path / "templates"
    assert layout.cache == tmp_path / ".sitegen-cache"
    assert layout.public == tmp_path / "public"
    assert SiteLayout(Path()).runs == Path("data/runs")


def test_a_folder_is_a_site_when_it_holds_sitegen_yaml(tmp_path: Path) -> None:
    layout = SiteLayout(tmp_path)
    assert layout.missing() == (
        f"not found in {tmp_path}: is this a site folder? (give --site DIR)"
    )
    (tmp_path / "sitegen.yaml").mkdir()  # a folder of that name is not the config
    assert layout.missing()
    (tmp_path / "sitegen.yaml").rmdir()
    (tmp_path / "sitegen.yaml").write_text("title: x\n")
    assert layout.missing() == ""


@pytest.mark.parametrize(
    "command",
    [
        ["build"],
        ["check"],
        ["serve", "--port", "0"],
        ["import", "vllm", "{site}/c1.json", "--out", "{site}/x.yaml"],
    ],
)
def test_every_command_says_the_same_of_a_folder_that_is_no_site(
    tmp_path: Path, command: list[str]
) -> None:
    shutil.copy(VLLM_RESULT, tmp_path / "c1.json")
    args = [arg.format(site=tmp_path) for arg in command] + ["--site", str(tmp_path)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1
    said = f"sitegen.yaml: not found in {tmp_path}: is this a site folder? (give --site DIR)"
    assert result.stderr.splitlines()[0] == said
    assert not (tmp_path / "public").exists() and not (tmp_path / "x.yaml").exists()
