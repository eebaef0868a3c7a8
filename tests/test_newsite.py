"""`sitegen init`: a new site that checks and builds at once, a CI workflow that runs the
commands, and a folder that is never written over."""

from __future__ import annotations

from pathlib import Path

import yaml
from click.testing import CliRunner

from sitegen import __version__
from sitegen.cli import main
from sitegen.output.newsite import create_site, skeleton_files

EXPECTED = {
    "sitegen.yaml",
    "README.md",
    ".gitignore",
    ".github/workflows/site.yml",
    "data/models.yaml",
    "data/gpus.yaml",
    "data/workloads.yaml",
    "data/pricing.yaml",
    "content/methodology.md",
}


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_init_then_check_and_build_work(tmp_path):
    site = tmp_path / "board"
    result = run("init", str(site))
    assert result.exit_code == 0, result.output
    assert "sitegen build --site" in result.output
    written = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    assert written >= EXPECTED
    assert len([p for p in written if p.startswith("data/runs/")]) == 2
    assert len([p for p in written if p.startswith("content/faq/")]) == 1
    assert run("check", "--strict", "--site", str(site)).exit_code == 0
    built = run("build", "--strict", "--site", str(site))
    assert built.exit_code == 0, built.output
    public = site / "public"
    assert (public / "index.html").is_file() and (public / "methodology/index.html").is_file()
    pair = public / "models/llama-3.3-70b/h100"
    assert (pair / "index.html").is_file() and (pair / "social.png").is_file()
    report = [p for p in (public / "runs").iterdir() if "matrix" in p.name]
    assert report and (report[0] / "index.html").is_file()  # the matrix run's report
    faq = (pair / "index.html").read_text()
    assert "Why is throughput given per GPU?" in faq


def test_the_records_and_the_settings_say_what_they_are():
    files = skeleton_files()
    kinds = sorted(
        yaml.safe_load(data)["kind"] for rel, data in files.items() if rel.startswith("data/runs/")
    )
    assert kinds == ["matrix", "sweep"]
    settings = files["sitegen.yaml"].decode()
    assert settings.count("\n# ") >= 8  # commented
    assert yaml.safe_load(settings)["license"]


def test_the_workflow_is_yaml_that_checks_builds_and_publishes():
    flow = yaml.safe_load(skeleton_files()[".github/workflows/site.yml"])
    on = flow[True] if True in flow else flow["on"]  # YAML 1.1 reads a bare `on` as true
    assert on["push"] == {"branches": ["main"]}
    steps = flow["jobs"]["build"]["steps"]
    runs = [s["run"] for s in steps if "run" in s]
    assert runs == [
        f'pip install "sitegen=={__version__}"',
        "sitegen check --strict",
        "sitegen build --strict",
    ]
    uses = [s["uses"].split("@")[0] for s in steps if "uses" in s]
    assert uses == ["actions/checkout", "actions/setup-python", "actions/upload-pages-artifact"]
    deploy = flow["jobs"]["deploy"]
    assert deploy["needs"] == "build"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert [s["uses"].split("@")[0] for s in deploy["steps"]] == ["actions/deploy-pages"]
    assert flow["permissions"] == {"contents": "read"}


def test_a_folder_that_is_not_empty_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    result = run("init", str(tmp_path))
    assert result.exit_code == 1
    assert "is not empty" in result.output and "--force" in result.output
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_force_adds_what_is_missing_and_overwrites_nothing(tmp_path):
    (tmp_path / "sitegen.yaml").write_text("title: Mine\n")
    (tmp_path / "data").mkdir()
    (tmp_path / "data/models.yaml").write_text("{}\n")
    result = run("init", str(tmp_path), "--force")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "sitegen.yaml").read_text() == "title: Mine\n"
    assert (tmp_path / "data/models.yaml").read_text() == "{}\n"
    assert "kept" in result.output and (tmp_path / "README.md").is_file()


def test_nothing_is_written_through_a_link(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    site = tmp_path / "site"
    site.mkdir()
    (site / "data").symlink_to(outside, target_is_directory=True)
    created = create_site(site, force=True)
    assert list(outside.iterdir()) == []
    assert "data/models.yaml" in created.kept
    link = tmp_path / "link"
    link.symlink_to(site, target_is_directory=True)
    assert run("init", str(link)).exit_code == 1


def test_the_skeleton_is_in_the_wheel():
    text = (Path(__file__).parents[1] / "pyproject.toml").read_text()
    assert "src/sitegen" in text  # the package folder, skeleton/ and its files included
    assert all(not rel.startswith("dot-") for rel in skeleton_files())
