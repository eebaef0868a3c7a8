"""Issue 28, finding 2: no value from the data can write a line a CI runner or a terminal obeys.

Every value, key and file name a message quotes is shown with its control characters escaped
(`\\n`, `\\r`, `\\x1b`, `\\u202e`), in check, build, import and the preview's overlay.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner, Result

from conftest import config, sweep
from sitegen.cli import main
from sitegen.serve import Preview
from test_serve import PAIR, RUN, EventStream, request

KEY = "x\n::error title=PWNED::hi"
VALUE = "m1\r::warning::carriage\x1b[2K\x1b]0;title\x07\u202e\u200b\x85end"
# C0, C1, DEL, line and paragraph separators, bidi and zero-width characters
RAW = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def sitegen(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def assert_inert(result: Result) -> str:
    """Nothing printed starts a workflow command or holds a raw control character."""
    text = result.stdout + result.stderr
    assert not [line for line in text.splitlines() if line.lstrip().startswith("::")], text
    assert not RAW.findall(text.replace("\n", "")), ascii(text)
    return text


def hostile_site(make_site) -> Path:
    record = sweep(
        model=VALUE,
        configs=[config(8, 4, 200.0, 10.0, **{KEY: 1}), config(8, 16, 600.0, 25.0)],
        **{KEY: "hi", "engine": "vllm\r::error::engine\x1b[31m"},
    )
    return make_site(runs={f"lab/{KEY}.yaml": record, "lab/ok.yaml": sweep()})


def test_check_and_build_quote_keys_values_and_file_names_escaped(make_site, tmp_path) -> None:
    site = hostile_site(make_site)
    for result in (
        sitegen("check", "--site", site),
        sitegen("build", "--site", site, "--out", tmp_path / "out"),
    ):
        assert result.exit_code == 1, result.output
        text = assert_inert(result)
        assert "x\\n::error title=PWNED::hi" in text  # the key, shown as typed
        assert "\\r::warning::carriage\\x1b[2K\\x1b]0;title\\x07\\u202e\\u200b\\x85end" in text
        assert "lab/x\\n::error title=PWNED::hi.yaml" in text  # the file named by data
    assert not (tmp_path / "out").exists()


def test_import_quotes_what_the_result_file_says_escaped(make_site, tmp_path) -> None:
    site = make_site(runs={})
    result_file = tmp_path / "result.json"
    result_file.write_text(
        json.dumps(
            {
                "date": "20261104-221530",
                "backend": "vllm",
                "model_id": VALUE,
                "max_concurrency": 1,
                "duration": 80.0,
                "completed": 32,
                "total_input_tokens": 28800,
                "total_output_tokens": 3200,
                "total_token_throughput": "4\n::error::00\x1b[0m",
                "median_ttft_ms": 110.0,
                "median_tpot_ms": 10.0,
            }
        )
    )
    out = site / "data" / "runs" / "v.yaml"
    result = sitegen(
        "import", "vllm", result_file, "--out", out, "--site", site,
        "--gpu", "g1", "--gpus", "2", "--precision", "fp8", "--source", "Lab",
        "--workload", "chat",
    )  # fmt: skip
    assert result.exit_code == 1, result.output
    text = assert_inert(result)
    assert "\\n::error::00\\x1b[0m" in text or "\\u202e" in text
    assert not out.exists()


def test_the_preview_shows_the_same_escaped_text(serve_site: Path, wait_until) -> None:
    record = serve_site / RUN
    good = record.read_text()
    hostile = '"x100\\n::error title=PWNED::hi\\r\\e[31m\\u202e\\x85"'
    record.write_text(good.replace("gpu: x100", f"gpu: {hostile}"))
    expected = "x100\\n::error title=PWNED::hi\\r\\x1b[31m\\u202e\\x85"
    with Preview(serve_site, port=0) as preview:
        page = request(preview, PAIR)  # before any good build: the problems as a page
        assert page.status == 503
        assert expected in page.body.decode()
        assert not RAW.findall(page.body.decode().replace("\n", ""))
        record.write_text(good)
        wait_until(lambda: request(preview, PAIR).status == 200, what="the fixed build")
        events = EventStream(preview.port)  # the overlay: problems over the last good site
        assert events.next()["problems"] == []
        record.write_text(good.replace("gpu: x100", f"gpu: {hostile}"))
        [problem] = events.next()["problems"]
        events.close()
    for text in problem["text"], problem["message"]:
        assert expected in text and not RAW.findall(text)
