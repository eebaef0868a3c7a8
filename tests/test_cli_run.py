"""The `sitegen` program (cli.run): main()'s output and exit status, then out at once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def sitegen(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    command = [sys.executable, "-c", "from sitegen.cli import run; run()", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)


def test_a_build_tells_what_it_built_and_exits_0(make_site):
    root = make_site()
    done = sitegen("build", "--site", str(root))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("built ") and "files into" in done.stdout  # flushed to a pipe
    assert (root / "public/index.html").is_file()


def test_a_build_with_errors_tells_them_and_exits_1(make_site):
    root = make_site(runs={"lab/bad.yaml": "model: [unclosed\n"})
    done = sitegen("build", "--site", str(root))
    assert done.returncode == 1
    assert "data/runs/lab/bad.yaml" in done.stderr
    assert not (root / "public").exists()


def test_usage_errors_and_help_keep_their_status():
    assert sitegen("build", "--no-such-option").returncode == 2
    shown = sitegen("--help")
    assert shown.returncode == 0 and "build" in shown.stdout


def test_a_build_of_a_few_edited_files_does_not_import_pandas(make_site):
    """pandas (0.3 s to import) only where many rows need its hash tables."""
    root = make_site()
    assert sitegen("build", "--site", str(root)).returncode == 0
    run = root / "data/runs/lab/run.yaml"
    run.write_text(run.read_text().replace("1000.0", "1001.0", 1))
    code = (
        "import sys; from sitegen.pipeline.build import build; r = build(sys.argv[1]);"
        "print(len(r.made), 'pandas' in sys.modules)"
    )
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    done = subprocess.run(
        [sys.executable, "-c", code, str(root)], capture_output=True, text=True, env=env
    )
    made, pandas = done.stdout.split()
    assert int(made) > 0 and pandas == "False", done.stderr
