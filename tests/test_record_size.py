"""A run record of a million values in a field the site does not know (2 MB of text) is refused
for its size, naming file, line and field, at a small multiple of its size in memory: reading it
whole, with a line for every value for the message, took 575 MB (290 times the file)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import REPO, sweep

# Runs `sitegen check` in this process and writes its peak resident memory (KiB) to the file
# named first: VmHWM, of this program alone (ru_maxrss would keep the size of the process that
# started it, which it had until its exec)
MEASURED = """
import re, sys
from sitegen.cli import main
out, sys.argv = sys.argv[1], ["sitegen", *sys.argv[2:]]
try:
    main()
finally:
    status = open("/proc/self/status").read()
    open(out, "w").write(re.search(r"VmHWM:\\s+(\\d+)", status).group(1))
"""
MILLION = 1_000_000


def huge_yaml() -> str:
    return yaml.safe_dump(sweep(), sort_keys=False) + "extra: [" + "1," * MILLION + "1]\n"


def huge_json() -> str:
    text = json.dumps(sweep(), indent=1)
    return text[: text.rindex("}")] + ',\n "extra": [' + "1," * MILLION + "1]\n}\n"


@pytest.mark.parametrize(("name", "text"), [("big.yaml", huge_yaml), ("big.json", huge_json)])
def test_a_record_of_a_million_values_is_refused_in_bounded_memory(
    make_site, tmp_path: Path, name: str, text
) -> None:
    body = text()
    assert 2_000_000 < len(body) < 2_100_000
    line = body[: body.index("extra")].count("\n") + 1  # the million are all on this line
    site = make_site(runs={f"lab/{name}": body})
    peak = tmp_path / "peak"
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    result = subprocess.run(
        [sys.executable, "-c", MEASURED, str(peak), "check", "--site", str(site)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    peak_mb = int(peak.read_text()) / 1024
    assert peak_mb < 200, f"{peak_mb:.0f} MB to check a 2 MB record"
    assert result.returncode == 1, result.stdout + result.stderr
    output = result.stdout + result.stderr
    assert re.search(rf"data/runs/lab/{name}:{line}: extra: holds more than [\d,]+ values", output)
