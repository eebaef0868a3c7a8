"""Bad input never crashes a build: every problem is a `file:line: field: message` line."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from conftest import PRICING, config, sweep
from sitegen.cli import main
from sitegen.records import load_site

GOOD = yaml.safe_dump(sweep(), sort_keys=False)


def run_cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        result.exc_info and "".join(__import__("traceback").format_exception(*result.exc_info))
    )
    return result.exit_code, result.output


def problems_of(root: Path) -> list[str]:
    _, problems = load_site(root)
    return [str(p) for p in problems.sorted()]


def check(root: Path) -> tuple[int, str]:
    return run_cli("check", "--site", str(root))


# -- --out must never point at the site's own files -------------------------------------------


@pytest.mark.parametrize("where", [".", "..", "data", "content", "data/runs"])
def test_out_that_would_replace_the_site_is_refused(make_site, where):
    root = make_site(content={"about.md": "About\n"})
    before = sorted(p.relative_to(root) for p in root.rglob("*"))
    code, out = run_cli("build", "--site", str(root), "--out", str(root / where))
    assert code == 1
    assert "--out: " in out and "Traceback" not in out
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == before


def test_out_holding_another_site_is_refused(make_site, tmp_path):
    root = make_site()
    other = tmp_path / "other"
    other.mkdir()
    (other / "sitegen.yaml").write_text("title: x\n")
    code, out = run_cli("build", "--site", str(root), "--out", str(other))
    assert code == 1 and "--out: " in out
    assert (other / "sitegen.yaml").exists()


def test_out_elsewhere_still_builds(make_site, tmp_path):
    root = make_site()
    code, out = run_cli("build", "--site", str(root), "--out", str(tmp_path / "www"))
    assert code == 0, out
    assert (tmp_path / "www" / "index.html").is_file()


# -- YAML and JSON the parser trips on ---------------------------------------------------------


def test_impossible_date_is_a_field_problem(make_site):
    text = GOOD.replace("date: '2026-10-01'", "date: 2026-13-45")
    code, out = check(make_site(runs={"lab/run.yaml": text}))
    assert code == 1
    expected = 'run.yaml:3: date: expected an ISO date (YYYY-MM-DD), got "2026-13-45"'
    assert "data/runs/lab/" + expected in out


@pytest.mark.parametrize(
    "text, line",
    [
        ("kind: sweep\n? [a, b]\n: 1\n", 2),
        ("a: &a [*a]\nb: *a\n", None),
        ("a: " + "[" * 3000 + "]" * 3000 + "\n", None),
    ],
    ids=["list-as-key", "recursive-alias", "deep-nesting"],
)
def test_strange_yaml_is_reported_not_raised(make_site, text, line):
    code, out = check(make_site(runs={"lab/run.yaml": text}))
    assert code == 1
    assert "data/runs/lab/run.yaml" in out
    if line:
        assert f"data/runs/lab/run.yaml:{line}: " in out


def test_alias_bomb_does_not_blow_up(make_site):
    rows = ['a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]']
    rows += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    code, out = check(make_site(runs={"lab/run.yaml": "\n".join(rows) + "\n"}))
    # refused when read: expanded, its 10**9 values would hang whatever prints them
    assert code == 1
    assert "lab/run.yaml:2: not valid YAML: its aliases (*name) expand to more than" in out


def test_deeply_nested_json_is_reported(make_site):
    text = '{"a": ' + "[" * 100_000 + "]" * 100_000 + "}"
    code, out = check(make_site(runs={"lab/run.json": text}))
    assert code == 1 and "data/runs/lab/run.json: not valid JSON: nested too deeply" in out


def test_merge_key_may_override_a_merged_field(make_site):
    text = GOOD.replace("configs:\n", "base: &b {gpus: 8, concurrency: 2}\nconfigs:\n")
    text = text.replace("- gpus: 8\n  concurrency: 64\n", "- <<: *b\n  concurrency: 64\n")
    assert "<<: *b" in text
    errors = [p for p in problems_of(make_site(runs={"lab/run.yaml": text})) if "warning" not in p]
    assert errors == []


def test_duplicate_key_in_one_mapping_is_still_an_error(make_site):
    problems = problems_of(make_site(runs={"lab/run.yaml": GOOD + "model: m2\n"}))
    assert any("duplicate key 'model'" in p for p in problems)


def test_duplicate_json_key_is_an_error_with_its_line(make_site):
    text = json.dumps(sweep(), indent=1)
    text = text[: text.rindex("}")] + ',\n "model": "m2"\n}'
    problems = problems_of(make_site(runs={"lab/run.json": text}))
    last = len(text.splitlines()) - 1
    assert problems == [f"data/runs/lab/run.json:{last}: not valid JSON: duplicate key 'model'"]


def test_byte_order_mark_is_accepted_in_json_and_yaml(make_site):
    root = make_site(
        runs={"lab/a.json": "\ufeff" + json.dumps(sweep()), "lab/b.yaml": "\ufeff" + GOOD}
    )
    assert [p for p in problems_of(root) if "warning" not in p and "duplicate" not in p] == []


def test_non_utf8_bytes_name_their_line(make_site):
    root = make_site()
    path = root / "data/runs/lab/run.yaml"
    path.write_bytes(GOOD.encode() + b"notes: caf\xe9\n")
    line = len(GOOD.splitlines()) + 1
    assert problems_of(root) == [
        f"data/runs/lab/run.yaml:{line}: not UTF-8 text (byte 0xe9); save the file as UTF-8"
    ]


def test_exponent_numbers_are_numbers(make_site):
    text = GOOD.replace("throughput_per_gpu: 1000.0", "throughput_per_gpu: 1e3")
    assert "1e3" in text
    site, problems = load_site(make_site(runs={"lab/run.yaml": text}))
    assert site is not None, problems.errors
    assert site.runs[0].configs[0].throughput_per_gpu == 1000.0


# -- values of the wrong kind or size ----------------------------------------------------------

MATRIX = {
    "kind": "matrix",
    "source": "LocalMaxxing",
    "date": "2026-11-11",
    "model": "m1",
    "gpu": "g1",
    "gpus": 2,
    "engine": "paiton",
    "precision": "mxfp4",
    "decode": [
        {"context": 0, "concurrency": 1, "aggregate_tok_s": 9, "per_request_tok_s": 9, "ttft_s": 1}
    ],
}


def test_matrix_context_that_is_a_list_is_reported(make_site):
    record = {
        **MATRIX,
        "prefill": [{"context": [1]}, {"context": [1]}],
        "decode": MATRIX["decode"] + [{"context": [1], "concurrency": {"a": 1}}] * 2,
    }
    code, out = check(make_site(runs={"lab/m.yaml": record}))
    assert code == 1 and "Traceback" not in out
    assert "prefill[0].context: expected an integer >= 0, got a list" in out
    assert "decode[1].concurrency: expected an integer >= 1, got a mapping" in out


def test_matrix_host_and_bench_need_plain_values(make_site):
    record = {
        **MATRIX,
        "host": {"cpu": {"model": "EPYC"}, 3: "x", "rated_power_w": "a lot"},
        "bench": {"tool": ["lmx"], "decode_seconds": "thirty", "max_output_tokens": "2k"},
    }
    code, out = check(make_site(runs={"lab/m.yaml": record}))
    assert code == 1 and "Traceback" not in out
    for expected in (
        "host.cpu: expected a plain value (text or a number), got a mapping",
        "host[3]: expected a field name (text), got 3",
        'host.rated_power_w: expected a number > 0, got "a lot"',
        "bench.tool: expected a plain value (text or a number), got a list",
        'bench.decode_seconds: expected a number > 0, got "thirty"',
        'bench.max_output_tokens: expected an integer >= 1, got "2k"',
    ):
        assert expected in out


def test_matrix_title_is_checked_with_the_other_fields(make_site):
    problems = problems_of(make_site(runs={"lab/m.yaml": {**MATRIX, "gpus": 0, "title": [1]}}))
    assert any("gpus: expected an integer >= 1, got 0" in p for p in problems)
    assert any("title: expected a string, got a list" in p for p in problems)


@pytest.mark.parametrize(
    "value, got",
    [
        ("5e-324", "got 5e-324"),
        ("1.7e308", "got 1.7e+308"),
        ("9" * 5000, "got infinity"),
        (".nan", "got NaN (not a number)"),
        ("-.inf", "got -infinity"),
    ],
)
def test_numbers_out_of_any_sane_range_are_reported(make_site, value, got):
    text = GOOD.replace("throughput_per_gpu: 1000.0", f"throughput_per_gpu: {value}")
    code, out = check(make_site(runs={"lab/run.yaml": text}))
    assert code == 1 and "Traceback" not in out
    assert "run.yaml:12: configs[0].throughput_per_gpu: expected a number" in out
    assert got in out


def test_huge_integer_is_reported_without_printing_it(make_site):
    record = sweep(configs=[config(10**400, 4, 100.0, 10.0)])
    code, out = check(make_site(runs={"lab/run.yaml": record}))
    assert code == 1
    assert "configs[0].gpus: expected an integer between 1 and" in out
    assert "got a number of about 401 digits" in out


@pytest.mark.parametrize("tag", ["!!binary aGVsbG8=", "!!set {a, b}"])
def test_binary_and_sets_are_not_strings(make_site, tag):
    text = GOOD.replace("engine: vllm", f"engine: {tag}")
    problems = problems_of(make_site(runs={"lab/run.yaml": text}))
    assert len(problems) == 1 and "run.yaml:6: engine: expected a string, got " in problems[0]


def test_null_entry_says_null_not_missing(make_site):
    problems = problems_of(make_site(models={"m1": None, "m2": {"name": "Two"}}, runs={}))
    assert problems == ["data/models.yaml:1: m1: expected a mapping, got null"]


def test_empty_run_file_says_it_is_empty(make_site):
    for text in ("", "# only a comment\n"):
        problems = problems_of(make_site(runs={"lab/run.yaml": text}))
        assert problems == [
            "data/runs/lab/run.yaml: expected a run record (a mapping), got an empty file"
        ]


# -- content/: front matter, file names and placeholders ---------------------------------------


def content_problems(make_site, files: dict[str, str]) -> list[str]:
    code, out = check(make_site(content=files))
    assert code == 1 and "Traceback" not in out
    return [line for line in out.splitlines() if line.startswith("content/")]


def test_unclosed_front_matter_is_named(make_site):
    problems = content_problems(make_site, {"faq/a.md": "---\nquestion: Why?\n\nBecause.\n"})
    assert problems == [
        "content/faq/a.md:1: front matter: no closing --- line after the front matter"
    ]


def test_front_matter_fields_are_reported_on_their_own_line(make_site):
    faq = "---\nquestion: Why?\nmodel: m1\n\norder: first\n---\nBecause.\n"
    problems = content_problems(make_site, {"faq/a.md": faq})
    assert problems == ['content/faq/a.md:5: order: expected a number, got "first"']


@pytest.mark.parametrize(
    "field, expected",
    [
        ("order: .nan", "content/faq/a.md:3: order: expected a number, got NaN (not a number)"),
        (
            "model: {a: 1}",
            "content/faq/a.md:3: model: expected a slug or a list of slugs, got a mapping",
        ),
        (
            "question: again?",
            "content/faq/a.md:3: front matter: not valid YAML: duplicate key 'question'",
        ),
    ],
)
def test_bad_faq_fields(make_site, field, expected):
    problems = content_problems(make_site, {"faq/a.md": f"---\nquestion: Why?\n{field}\n---\nA.\n"})
    assert problems == [expected]


def test_binary_content_names_its_line(make_site):
    root = make_site(content={"about.md": "x"})
    (root / "content/about.md").write_bytes(b"---\ntitle: About\n---\n\xff\xfe\x00\n")
    code, out = check(root)
    assert code == 1
    assert "content/about.md:4: not UTF-8 text (byte 0xff); save the file as UTF-8" in out


def test_page_title_must_be_text(make_site):
    problems = content_problems(make_site, {"about.md": "---\ntitle: [1, 2]\n---\nBody.\n"})
    assert problems == ["content/about.md:2: title: expected text, got a list"]


def test_page_file_name_must_be_a_slug(make_site):
    problems = content_problems(make_site, {"About Us.md": "Body.\n"})
    assert len(problems) == 1 and problems[0].startswith("content/About Us.md: the file name")


@pytest.mark.parametrize(
    "name", ["models/m9.md", "gpus/g9.md", "pairs/m1/g9.md", "runs/lab-nope.md"]
)
def test_copy_for_something_the_site_lacks_is_reported(make_site, name):
    problems = content_problems(make_site, {name: "An intro.\n"})
    assert len(problems) == 1
    assert problems[0].startswith(f"content/{name}: expected a ")
    assert "would show on no page" in problems[0]


@pytest.mark.parametrize(
    "tag", ["{% include 'x.html' %}", "{% import 'x.html' as x %}", "{% extends 'x.html' %}"]
)
def test_include_and_import_are_refused_in_words(make_site, tag):
    problems = content_problems(make_site, {"about.md": f"Line one.\n\n{tag}\n"})
    assert problems == [
        "content/about.md:3: placeholder: {% "
        + tag.split()[1]
        + " %} cannot be used in content: a placeholder may only quote the page's values, "
        "never another file"
    ]


# -- missing files and folders, pricing --------------------------------------------------------


def test_missing_data_folder_is_one_problem(make_site):
    import shutil

    root = make_site()
    shutil.rmtree(root / "data")
    code, out = check(root)
    assert code == 1
    assert [line for line in out.splitlines() if line.startswith(("data", "sitegen"))] == [
        f"data/: not found in {root}: a site keeps models.yaml, gpus.yaml, workloads.yaml, "
        "pricing.yaml and runs/ there"
    ]


def test_unreadable_file_is_not_also_reported_field_by_field(make_site):
    root = make_site()
    (root / "sitegen.yaml").write_bytes(b"title: caf\xe9\n")
    assert problems_of(root) == [
        "sitegen.yaml:1: not UTF-8 text (byte 0xe9); save the file as UTF-8"
    ]


def test_pricing_without_tiers_is_reported_in_pricing_yaml(make_site):
    pricing = {"source": "x", "as_of": "2026-07", "tiers": {}, "prices": {}}
    errors = [p for p in problems_of(make_site(pricing=pricing)) if "(warning)" not in p]
    assert errors == [
        "data/pricing.yaml:3: tiers: expected at least one tier, such as owning: {label: Owning}"
    ]


def test_gpu_missing_one_tier_price_is_a_warning(make_site):
    pricing = {**PRICING, "prices": {"g1": {"owning": 2.0}}}
    site, problems = load_site(make_site(pricing=pricing))
    assert site is not None
    assert [str(p) for p in problems.warnings] == [
        "data/pricing.yaml:9: prices.g1.retail: no retail price for GPU 'g1'; its retail cost "
        "cells will say that no price is known (warning)"
    ]


def test_run_file_with_upper_case_extension_is_a_warning(make_site):
    root = make_site(runs={"lab/run.yaml": sweep(), "lab/other.YAML": GOOD})
    assert problems_of(root) == [
        "data/runs/lab/other.YAML: not read: a run record's extension is lowercase .yaml, .yml, "
        ".json or .parquet (warning)"
    ]


def test_hidden_folders_and_other_extensions_are_skipped(make_site):
    root = make_site(
        runs={"lab/run.yaml": sweep(), ".drafts/x.yaml": "{{{", "lab/README.md": "# notes\n"}
    )
    assert problems_of(root) == []


def test_broken_link_in_runs_is_reported(make_site):
    root = make_site()
    (root / "data/runs/lab/gone.yaml").symlink_to(root / "nowhere.yaml")
    assert problems_of(root) == [
        "data/runs/lab/gone.yaml: cannot read: a link to a file that does not exist"
    ]


# -- dates, tabs, --out a file -------------------------------------------------------------------


@pytest.mark.parametrize(
    "written, day",
    [
        ("2026-10-01", "2026-10-01"),
        ("'2026-10-01'", "2026-10-01"),
        ("2026-10-01 10:00:00", "2026-10-01"),
        ("2026-10-01T23:30:00-05:00", "2026-10-02"),
        ("'2026-10-01T23:30:00-05:00'", "2026-10-02"),
        ("'2026-10-01T10:00:00Z'", "2026-10-01"),
    ],
)
def test_a_date_with_a_time_is_dated_by_its_utc_day_quoted_or_not(make_site, written, day):
    text = GOOD.replace("date: '2026-10-01'", f"date: {written}")
    site, problems = load_site(make_site(runs={"lab/run.yaml": text}))
    assert site is not None, problems.errors
    assert site.runs[0].date.isoformat() == day


def test_json_date_with_offset_matches_yaml(make_site):
    record = sweep(date="2026-10-01T23:30:00-05:00")
    site, problems = load_site(make_site(runs={"lab/run.json": json.dumps(record)}))
    assert site is not None and site.runs[0].date.isoformat() == "2026-10-02"


def test_tab_indent_says_so(make_site):
    problems = problems_of(make_site(models="m1:\n\tname: One\n", runs={}))
    assert problems == [
        "data/models.yaml:2: not valid YAML: found character that cannot start any token "
        "(a tab: YAML indents with spaces only)"
    ]


def test_out_that_is_a_file_is_a_problem_not_a_usage_error(make_site, tmp_path):
    root = make_site()
    target = tmp_path / "a-file"
    target.write_text("keep me")
    code, out = run_cli("build", "--site", str(root), "--out", str(target))
    assert code == 1 and f"--out: {target} is a file" in out
    assert target.read_text() == "keep me"


def test_faq_placeholder_failing_on_one_page_names_that_page(make_site):
    slow = sweep(gpu="g2", configs=[config(8, 64, 1000.0, 100.0)])  # 10 tok/s: below target 20
    faq = "---\nquestion: How much?\n---\n{{ headline.throughput_per_gpu * 2 }} tokens.\n"
    root = make_site(
        runs={"lab/run.yaml": sweep(), "lab/slow.yaml": slow}, content={"faq/a.md": faq}
    )
    code, out = check(root)
    assert code == 1
    (problem,) = [line for line in out.splitlines() if line.startswith("content/")]
    assert problem.startswith(
        "content/faq/a.md:4: placeholder: {{ headline.throughput_per_gpu * 2 }}"
    )
    assert problem.endswith(
        "(on the page of Model One on GPU Two, where no config reaches the headline target, "
        "so headline values are empty)"
    )


def test_unknown_keys_that_are_not_text_are_named_as_written_on_their_line(make_site):
    problems = problems_of(make_site(runs={"lab/run.yaml": GOOD + "5: x\nnull: y\n"}))
    n = len(GOOD.splitlines())
    assert problems == [
        f"data/runs/lab/run.yaml:{n + 1}: 5: unknown field, ignored (warning)",
        f"data/runs/lab/run.yaml:{n + 2}: null: unknown field, ignored (warning)",
    ]


def test_duplicate_key_in_one_line_json_names_line_one(make_site):
    text = json.dumps(sweep())[:-1] + ', "model": "m2"}'
    assert problems_of(make_site(runs={"lab/run.json": text})) == [
        "data/runs/lab/run.json:1: not valid JSON: duplicate key 'model'"
    ]


def test_placeholder_in_a_question_is_reported_on_the_question_line(make_site):
    faq = "---\norder: 1\nquestion: How fast is {{ nosuch }}?\n---\nLine five.\n"
    problems = content_problems(make_site, {"faq/a.md": faq})
    assert len(problems) == 1
    assert problems[0].startswith(
        "content/faq/a.md:3: question: {{ nosuch }}: 'nosuch' is undefined"
    )


@pytest.mark.parametrize(
    "text",
    ["---\n---\nAbout us.\n", "---\ntitle: About\n---", "---\r\ntitle: About\r\n---\r\nx\r\n"],
)
def test_empty_or_last_line_front_matter_is_closed(make_site, text):
    code, out = check(make_site(content={"about.md": text}))
    assert code == 0, out


# -- a site's own templates --------------------------------------------------------------------


@pytest.mark.parametrize(
    "template, expected",
    [
        ("{% block x %}\n{{ oops( }}\n", "templates/content.html:2: template: unexpected '}'"),
        (
            "{% extends 'base.html' %}\n{% block main %}{{ nosuch.x }}{% endblock %}\n",
            "templates/content.html:2: template: 'nosuch' is undefined",
        ),
        (b"\xff\xfe", "templates/content.html:1: not UTF-8 text (byte 0xff)"),
        ("{% include 'nowhere.html' %}\n", "templates/: template: nowhere.html: not found"),
    ],
    ids=["syntax", "undefined", "binary", "missing-include"],
)
def test_broken_site_template_is_a_problem(make_site, tmp_path, template, expected):
    root = make_site(content={"about.md": "About.\n"})
    path = root / "templates" / "content.html"
    path.parent.mkdir()
    if isinstance(template, bytes):
        path.write_bytes(template)
    else:
        path.write_text(template)
    for command in ("check", "build"):
        code, out = run_cli(command, "--site", str(root))
        assert code == 1 and "Traceback" not in out
        assert expected in out
    assert not (root / "public").exists()


def test_out_below_a_file_is_a_problem(make_site, tmp_path):
    root = make_site()
    (tmp_path / "a-file").write_text("x")
    code, out = run_cli("build", "--site", str(root), "--out", str(tmp_path / "a-file" / "www"))
    assert code == 1 and "Traceback" not in out
    assert f"--out: {tmp_path / 'a-file'} is a file, so the folder" in out


def test_out_that_cannot_be_written_is_a_problem(make_site, monkeypatch, tmp_path):
    real = os.open

    def refuse(path, flags, *args, **kwargs):
        if ".www.new-" in str(path) and flags & os.O_CREAT:  # a file staged for --out www
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    code, out = run_cli("build", "--site", str(make_site()), "--out", str(tmp_path / "www"))
    assert code == 1 and "Traceback" not in out
    assert "--out: cannot write" in out and "Permission denied" in out
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".www")) == [
        ".www.lock"
    ]  # the staging folder is gone, and no output was made


def test_yes_no_where_text_goes_says_to_quote_it(make_site):
    text = GOOD.replace("precision: fp8", "precision: no")
    assert problems_of(make_site(runs={"lab/run.yaml": text})) == [
        "data/runs/lab/run.yaml:7: precision: expected a string, got false (unquoted yes, no, "
        "on, off, true and false are booleans in YAML: quote it)"
    ]


def test_booleans_are_not_strings(make_site):
    problems = problems_of(make_site(runs={"lab/run.yaml": sweep(engine=True, source=False)}))
    assert [p.split(": ", 2)[1] for p in problems] == ["source", "engine"]
