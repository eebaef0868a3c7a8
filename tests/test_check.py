"""sitegen check: the checks of a build, nothing written, exit status for hooks and CI."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from conftest import GPUS, config, sweep
from sitegen.cli import main


def check(site: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["check", "--site", str(site), *args])


def test_a_good_site_passes_and_nothing_is_written(make_site) -> None:
    site = make_site()
    before = sorted(p.relative_to(site) for p in site.rglob("*"))
    result = check(site)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("ok: ") and "pages" in result.stdout
    # not public/, and not the chart cache either: a pre-commit hook leaves the tree as it was
    assert sorted(p.relative_to(site) for p in site.rglob("*")) == before


def test_an_error_fails_with_its_line_and_writes_nothing(make_site) -> None:
    bad = sweep(configs=[config(8, 64, 1000.0, 100.0), {**config(8, 4, 200.0, 10.0), "gpus": 0}])
    site = make_site(runs={"lab/bad.yaml": bad})
    result = check(site)
    assert result.exit_code == 1
    assert "data/runs/lab/bad.yaml:" in result.stderr
    assert "configs[1].gpus: expected an integer >= 1, got 0" in result.stderr
    assert "check failed: 1 error" in result.stderr
    assert not (site / "public").exists()


def test_a_broken_placeholder_is_caught_as_in_a_build(make_site) -> None:
    site = make_site(content={"about.md": "Peak: {{ nothing.here }}\n"})
    result = check(site)
    assert result.exit_code == 1
    assert "content/about.md" in result.stderr


def test_warnings_fail_only_with_strict(make_site) -> None:
    # g2 has runs but no price: a warning
    site = make_site(runs={"lab/run.yaml": sweep(gpu="g2")}, gpus=GPUS)
    relaxed = check(site)
    assert relaxed.exit_code == 0, relaxed.output
    assert "no price" in relaxed.stderr and "(1 warning)" in relaxed.stdout
    strict = check(site, "--strict")
    assert strict.exit_code == 1
    assert "no price" in strict.stderr and "check failed" in strict.stderr


def test_a_folder_that_is_no_site(tmp_path: Path) -> None:
    result = check(tmp_path)
    assert result.exit_code == 1
    assert "sitegen.yaml: not found" in result.stderr


def test_the_flagship_site_checks_clean(flagship: Path) -> None:
    result = check(flagship, "--strict")
    assert result.exit_code == 0, result.output
