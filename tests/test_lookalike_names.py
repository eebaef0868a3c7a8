"""Slugs end with a letter or digit; names carry no invisible, bidirectional or control
character; names that read alike are a warning naming both; titles carry no control."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result

from conftest import GPUS, PRICING, sweep
from sitegen.cli import main

H200 = {"h200": {"name": "H200", "vendor": "NVIDIA"}}
BELL_TIERS = {**PRICING["tiers"], "owning": {"label": "Own\x07"}}


def check(site: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["check", "--site", str(site), *args])


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def gpus_text(second_slug: str, second_name: str) -> str:
    gpus = {**GPUS, **H200, second_slug: {"name": second_name, "vendor": "NVIDIA"}}
    return yaml.safe_dump(gpus, sort_keys=False, allow_unicode=True)


@pytest.mark.parametrize("slug", ["h200.", "h200..", "h200-"])
def test_a_slug_ends_with_a_letter_or_digit(make_site, slug: str) -> None:
    text = gpus_text(slug, "H200 SXM")
    site = make_site(gpus=text)
    result = check(site)
    assert result.exit_code == 1, result.output
    line = line_of(text, f"{slug}:")
    assert f"data/gpus.yaml:{line}: {slug}: expected a slug: " in result.stderr
    assert "ending with a letter or digit" in result.stderr


def test_a_run_file_whose_id_ends_with_a_dot_is_an_error(make_site) -> None:
    site = make_site(runs={"lab/run..yaml": sweep()})
    result = check(site)
    assert result.exit_code == 1, result.output
    assert "data/runs/lab/run..yaml:1: run id 'lab-run.'" in result.stderr


@pytest.mark.parametrize("name", ["H200", "\u041d200", "\uff28\uff12\uff10\uff10", "h200 "])
def test_a_name_that_reads_as_another_is_a_warning_naming_both(make_site, name: str) -> None:
    text = gpus_text("h200-nvl", name)
    site = make_site(gpus=text)
    relaxed = check(site)
    assert relaxed.exit_code == 0, relaxed.output
    line = line_of(text, "h200-nvl:") + 1
    (warning,) = [w for w in relaxed.stderr.splitlines() if w.endswith("(warning)")]
    assert warning.startswith(f"data/gpus.yaml:{line}: h200-nvl.name: ")
    assert "looks like the name of h200 (line " in warning
    strict = check(site, "--strict")
    assert strict.exit_code == 1


def test_names_that_differ_are_no_warning(make_site) -> None:
    site = make_site(gpus=gpus_text("h100", "H100"))
    result = check(site, "--strict")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    ("char", "code"),
    [("\u200b", "U+200B"), ("\u202e", "U+202E"), ("\x1b", "U+001B"), ("\u2066", "U+2066")],
)
def test_an_invisible_or_control_character_in_a_gpu_name_is_an_error(
    make_site, char: str, code: str
) -> None:
    text = gpus_text("h200-nvl", f"H{char}200")
    site = make_site(gpus=text)
    result = check(site)
    assert result.exit_code == 1, result.output
    line = line_of(text, "h200-nvl:") + 1
    assert f"data/gpus.yaml:{line}: h200-nvl.name: contains {code}" in result.stderr
    assert char not in result.output
    assert "1 error" in result.stderr  # what refers to the GPU is not reported again


@pytest.mark.parametrize(
    ("file", "override"),
    [
        ("data/models.yaml", {"models": {"m1": {"name": "Model\u202eOne"}}}),
        ("data/workloads.yaml", {"workloads": {"chat": {"name": "Chat\u200d"}}}),
        ("data/pricing.yaml", {"pricing": {**PRICING, "tiers": BELL_TIERS}}),
    ],
)
def test_other_names_are_checked_alike(make_site, file: str, override: dict) -> None:
    site = make_site(**override)
    result = check(site)
    assert result.exit_code == 1, result.output
    assert f"{file}:" in result.stderr and ": contains U+" in result.stderr


@pytest.mark.parametrize(("char", "code"), [("\u202e", "U+202E"), ("\x1b", "U+001B")])
def test_an_engine_with_a_control_character_is_an_error(make_site, char: str, code: str) -> None:
    text = yaml.safe_dump(sweep(engine=f"vllm{char}[31m"), sort_keys=False)
    site = make_site(runs={"lab/run.yaml": text})
    result = check(site)
    assert result.exit_code == 1, result.output
    line = line_of(text, "engine:")
    assert f"data/runs/lab/run.yaml:{line}: engine: contains {code}" in result.stderr
    build = CliRunner().invoke(main, ["build", "--site", str(site)])
    assert build.exit_code == 1 and not (site / "public").exists()


def test_engines_that_read_alike_are_a_warning_naming_both(make_site) -> None:
    runs = {"a/first.yaml": sweep(engine="vllm"), "b/second.yaml": sweep(engine="vLLM")}
    site = make_site(runs=runs)
    relaxed = check(site)
    assert relaxed.exit_code == 0, relaxed.output
    line = line_of(yaml.safe_dump(runs["b/second.yaml"], sort_keys=False), "engine:")
    (warning,) = [w for w in relaxed.stderr.splitlines() if w.endswith("(warning)")]
    assert warning.startswith(f"data/runs/b/second.yaml:{line}: engine: ")
    assert '"vllm"' in warning and "data/runs/a/first.yaml" in warning
    assert check(site, "--strict").exit_code == 1


def test_a_page_title_never_carries_a_control_character(make_site) -> None:
    about = '---\ntitle: "About\\e[31m us\\u202e"\n---\nHello.\n'
    site = make_site(content={"about.md": about})
    result = CliRunner().invoke(main, ["build", "--site", str(site)])
    assert result.exit_code == 0, result.output
    pages = [p.read_text(encoding="utf-8") for p in (site / "public").rglob("*.html")]
    titled = [page for page in pages if "About" in page and "us" in page]
    assert titled
    for page in pages:
        title = page.split("<title>", 1)[1].split("</title>", 1)[0]
        assert not any(ch in title for ch in "\x1b\u202e"), title
