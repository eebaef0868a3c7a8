"""What changed between run dates: changes.json, the changes page, a pair page's section and
the feeds' regressions, against numbers worked out here from the run records."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import feedparser
import pytest
import yaml

from conftest import REPO, SITE_CONFIG, config, sweep
from sitegen.pipeline.build import render_site
from test_bad_input import check

# -- an independent reading of a frontier: Pareto by its definition, d3's curveMonotoneX ------


def pareto(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The points no other point matches or beats on both axes, by interactivity."""
    unique = set(points)
    return sorted(
        p for p in unique if not any(q != p and q[0] >= p[0] and q[1] >= p[1] for q in unique)
    )


def _sign(v: float) -> int:
    return (v > 0) - (v < 0)


def d3_value(front: list[tuple[float, float]], x: float) -> float | None:
    """The value at x of the curve d3.curveMonotoneX draws through `front` (its Bezier
    control points sit at thirds of each segment's width, so y is a cubic in (x - x0) / h)."""
    xs, ys = [p[0] for p in front], [p[1] for p in front]
    if x > xs[-1]:
        return None
    if x <= xs[0]:
        return ys[0]
    n = len(xs)
    i = max(k for k in range(n - 1) if xs[k] < x)
    h = xs[i + 1] - xs[i]
    t = (x - xs[i]) / h
    if n == 2:  # d3 draws a line between two points
        return ys[0] + t * (ys[1] - ys[0])

    def inner(k: int) -> float:  # d3's slope3 at point k
        h0, h1 = xs[k] - xs[k - 1], xs[k + 1] - xs[k]
        s0, s1 = (ys[k] - ys[k - 1]) / h0, (ys[k + 1] - ys[k]) / h1
        p = (s0 * h1 + s1 * h0) / (h0 + h1)
        return (_sign(s0) + _sign(s1)) * min(abs(s0), abs(s1), 0.5 * abs(p))

    slopes = [0.0] * n
    for k in range(1, n - 1):
        slopes[k] = inner(k)
    slopes[0] = (3 * (ys[1] - ys[0]) / (xs[1] - xs[0]) - slopes[1]) / 2  # d3's slope2
    slopes[-1] = (3 * (ys[-1] - ys[-2]) / (xs[-1] - xs[-2]) - slopes[-2]) / 2
    c1 = ys[i] + h * slopes[i] / 3
    c2 = ys[i + 1] - h * slopes[i + 1] / 3
    u = 1 - t
    return u**3 * ys[i] + 3 * u * u * t * c1 + 3 * u * t * t * c2 + t**3 * ys[i + 1]


def expected_entries(files: list[Path], targets: list[float], headline: float) -> list[dict]:
    """The change entries of the sweeps in `files`, worked out from the YAML alone."""
    curves: dict[tuple, dict[str, list]] = {}
    for path in files:
        run = yaml.load(path.read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        if run.get("kind", "sweep") != "sweep":
            continue
        key = (run["model"], run["gpu"], run["workload"], run["engine"], run["precision"])
        points = curves.setdefault(key, {}).setdefault(str(run["date"]), [])
        for c in run["configs"]:
            if c.get("status", "ok") == "ok":
                points.append((1000.0 / c["tpot_ms"]["median"], c["throughput_per_gpu"]))
    entries = []
    for key, days in curves.items():
        dates = sorted(days)
        for before_date, after_date in zip(dates, dates[1:], strict=False):
            before, after = pareto(days[before_date]), pareto(days[after_date])
            rungs = []
            for t in targets:
                b, a = d3_value(before, t), d3_value(after, t)
                if b is not None and a is not None:
                    rungs.append({"target": t, "before": b, "after": a, "change": a / b - 1})
            if not any(abs(r["change"]) >= 0.10 - 1e-12 for r in rungs):
                continue
            hb, ha = d3_value(before, headline), d3_value(after, headline)
            head = ha / hb - 1 if hb is not None and ha is not None else None
            deciding = head if head is not None else max(rungs, key=lambda r: abs(r["change"]))
            deciding = deciding if head is not None else deciding["change"]
            entries.append(
                {
                    "date": after_date,
                    "previous_date": before_date,
                    "model": key[0],
                    "gpu": key[1],
                    "workload": key[2],
                    "tokens": "total",
                    "engine": key[3],
                    "precision": key[4],
                    "kind": "regression" if deciding < 0 else "improvement",
                    "headline_change": head,
                    "rungs": rungs,
                    "url": f"models/{key[0]}/{key[1]}/",
                }
            )
    return entries


def _same(found: object, expected: object) -> bool:
    """JSON values equal, floats to within rounding."""
    if isinstance(expected, float) and isinstance(found, int | float):
        return math.isclose(found, expected, rel_tol=1e-9)
    if isinstance(expected, dict) and isinstance(found, dict):
        return found.keys() == expected.keys() and all(
            _same(found[k], v) for k, v in expected.items()
        )
    if isinstance(expected, list) and isinstance(found, list):
        return len(found) == len(expected) and all(map(_same, found, expected))
    return found == expected


def test_flagship_changes_of_a_pair_are_its_ladders_compared_date_by_date(flagship_files):
    _, files = flagship_files
    flagship = yaml.safe_load((REPO / "sitegen.yaml").read_text())
    runs = sorted((REPO / "data/runs").rglob("*.yaml"))
    b300 = [p for p in runs if "-b300-" in p.name]
    expected = expected_entries(b300, flagship["targets"], flagship["headline"]["interactivity"])
    found = [e for e in json.loads(files["changes.json"]) if e["gpu"] == "b300"]
    assert {e["kind"] for e in expected} == {"regression", "improvement"}
    assert any(e["headline_change"] is None for e in expected)
    key = lambda e: (e["date"], e["workload"], e["engine"], e["precision"])  # noqa: E731
    assert sorted(map(key, found)) == sorted(map(key, expected))
    by_key = {key(e): e for e in found}
    for entry in expected:
        assert _same(by_key[key(entry)], entry), key(entry)
    # the newest first, over the whole site
    dates = [e["date"] for e in json.loads(files["changes.json"])]
    assert dates == sorted(dates, reverse=True)


def test_flagship_pages_link_the_changes(flagship_files):
    _, files = flagship_files
    overview = files["index.html"].decode()
    assert 'href="changes/"' in overview  # the navigation and the overview's own link
    assert overview.count('href="changes/"') >= 2
    pair = files["models/deepseek-r1/b300/index.html"].decode()
    assert 'id="what-changed"' in pair and 'href="../../../changes/"' in pair
    assert "changes/index.html" in files


# -- small sites -------------------------------------------------------------------------------

CONFIG_MEASURED = {**SITE_CONFIG, "frontier": {"method": "measured"}}  # targets 10 20 50 100


def one_point(date: str, engine: str, throughput: float, **extra) -> dict:
    """A sweep whose only config serves 100 tok/s per user: every target reads `throughput`."""
    return sweep(date=date, engine=engine, configs=[config(8, 64, throughput, 10.0)], **extra)


def build(make_site, runs: dict, **overrides) -> dict[str, bytes]:
    files, _ = render_site(make_site(runs=runs, **overrides))
    return files


def entries(files: dict[str, bytes]) -> list[dict]:
    return json.loads(files["changes.json"])


@pytest.fixture
def edges(make_site) -> dict[str, bytes]:
    """Three curves from 1000 tokens/s per GPU: +9 %, +10 %, -10 %."""
    runs = {}
    for engine, after in (("nine", 1090.0), ("ten", 1100.0), ("minus-ten", 900.0)):
        runs[f"lab/{engine}-1.yaml"] = one_point("2026-10-01", engine, 1000.0)
        runs[f"lab/{engine}-2.yaml"] = one_point("2026-10-08", engine, after)
    return build(make_site, runs, config=CONFIG_MEASURED)


def test_a_change_of_the_threshold_makes_an_entry_and_less_does_not(edges):
    found = {e["engine"]: e for e in entries(edges)}
    assert set(found) == {"ten", "minus-ten"}
    ten = found["ten"]
    assert ten["kind"] == "improvement" and ten["date"] == "2026-10-08"
    assert ten["previous_date"] == "2026-10-01"
    assert [r["target"] for r in ten["rungs"]] == [10, 20, 50, 100]
    assert all(r["before"] == 1000 and r["after"] == 1100 for r in ten["rungs"])
    assert ten["headline_change"] == pytest.approx(0.10)
    assert found["minus-ten"]["kind"] == "regression"
    assert found["minus-ten"]["headline_change"] == pytest.approx(-0.10)
    assert ten["url"] == "models/m1/g1/" and ten["model"] == "m1" and ten["gpu"] == "g1"
    assert ten["workload"] == "chat" and ten["precision"] == "fp8"


def test_the_threshold_is_a_setting(make_site):
    runs = {
        "lab/a-1.yaml": one_point("2026-10-01", "a", 1000.0),
        "lab/a-2.yaml": one_point("2026-10-08", "a", 1150.0),
    }
    assert entries(build(make_site, runs, config=CONFIG_MEASURED))
    strict = {**CONFIG_MEASURED, "change_threshold": 0.2}
    files = build(make_site, runs, config=strict)
    assert entries(files) == []
    page = files["models/m1/g1/index.html"].decode()
    assert "changed by at least 20 % at any per-user target between run dates" in page


def test_the_headline_decides_the_kind(make_site):
    # at 10 tok/s per user -40 %, at the headline (20) and above +5 %
    before = [config(8, 64, 1000.0, 10.0), config(8, 8, 5000.0, 1000 / 12)]
    after = [config(8, 64, 1050.0, 10.0), config(8, 8, 3000.0, 1000 / 12)]
    runs = {
        "lab/a-1.yaml": sweep(date="2026-10-01", configs=before),
        "lab/a-2.yaml": sweep(date="2026-10-08", configs=after),
    }
    (entry,) = entries(build(make_site, runs, config=CONFIG_MEASURED))
    changes = {r["target"]: r["change"] for r in entry["rungs"]}
    assert changes[10] == pytest.approx(-0.4) and changes[20] == pytest.approx(0.05)
    assert entry["kind"] == "improvement" and entry["headline_change"] == pytest.approx(0.05)


def test_where_one_date_misses_the_headline_the_largest_change_decides(make_site):
    # headline 100 tok/s per user, which only the later dates reach
    headline_100 = {**CONFIG_MEASURED, "headline": {"interactivity": 100, "tier": "owning"}}

    def two(date: str, engine: str, slow: float, fast: float, fast_tpot: float) -> dict:
        configs = [config(8, 8, slow, 1000 / 12), config(8, 64, fast, fast_tpot)]
        return sweep(date=date, engine=engine, configs=configs)

    runs = {
        # before: 2000 at 10 tok/s per user, 1000 at 20 and 50, nothing at 100
        "lab/down-1.yaml": two("2026-10-01", "down", 2000.0, 1000.0, 1000 / 60),
        "lab/up-1.yaml": two("2026-10-01", "up", 2000.0, 1000.0, 1000 / 60),
        # after: 10 +15 %, 20 and 50 -30 % (down); 10 -15 %, 20 and 50 +30 % (up)
        "lab/down-2.yaml": two("2026-10-08", "down", 2300.0, 700.0, 1000 / 150),
        "lab/up-2.yaml": two("2026-10-08", "up", 1700.0, 1300.0, 1000 / 150),
    }
    found = {e["engine"]: e for e in entries(build(make_site, runs, config=headline_100))}
    for engine, kind, changes in (
        ("down", "regression", [0.15, -0.3, -0.3]),
        ("up", "improvement", [-0.15, 0.3, 0.3]),
    ):
        entry = found[engine]
        assert entry["headline_change"] is None
        assert [r["target"] for r in entry["rungs"]] == [10, 20, 50]  # 100: not both
        assert [r["change"] for r in entry["rungs"]] == pytest.approx(changes)
        assert entry["kind"] == kind


def history_runs() -> dict[str, dict]:
    """One curve over four dates: up 20 %, down 25 %, up 2 % (no entry); another GPU's curve
    down on the second date; a third model's, up."""
    return {
        "lab/a-1.yaml": one_point("2026-09-01", "vllm", 1000.0),
        "lab/a-2.yaml": one_point("2026-09-15", "vllm", 1200.0),
        "lab/a-3.yaml": one_point("2026-10-01", "vllm", 900.0),
        "lab/a-4.yaml": one_point("2026-10-20", "vllm", 918.0),
        "lab/b-1.yaml": one_point("2026-09-01", "vllm", 1000.0, gpu="g2"),
        "lab/b-2.yaml": one_point("2026-09-15", "vllm", 500.0, gpu="g2"),
        "lab/c-1.yaml": one_point("2026-09-01", "sglang", 1000.0, model="m2"),
        "lab/c-2.yaml": one_point("2026-10-01", "sglang", 2000.0, model="m2"),
    }


@pytest.fixture
def history(make_site) -> dict[str, bytes]:
    return build(make_site, history_runs(), config=CONFIG_MEASURED)


def test_entries_are_newest_first(history):
    found = [(e["date"], e["model"], e["gpu"], e["kind"]) for e in entries(history)]
    assert found == [
        ("2026-10-01", "m1", "g1", "regression"),
        ("2026-10-01", "m2", "g1", "improvement"),
        ("2026-09-15", "m1", "g1", "improvement"),
        ("2026-09-15", "m1", "g2", "regression"),
    ]


def _rows(html: str) -> list[str]:
    """The text of each entry row of a page's table of changes."""
    table = re.search(r'<table class="numbers changes">.*?\n</table>', html, re.S).group(0)
    rows = re.findall(r'<tr id="change-[^"]+" class="change[^"]*".*?\n    </tr>', table, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", r).split()) for r in rows]


def test_the_changes_page_lists_every_entry_and_says_which_are_regressions(history):
    html = history["changes/index.html"].decode()
    rows = _rows(html)
    assert len(rows) == 4
    assert rows[0].startswith("2026-10-01 since 2026-09-15 Regression -25 % at 20 tok/s/user")
    assert "Model One on GPU One" in rows[0] and "vLLM FP8" in rows[0]
    assert "20 1,200 900 -25 %" in rows[0]  # target, before, after, change
    assert rows[1].startswith("2026-10-01 since 2026-09-01 Improvement +100 %")
    assert "Model Two on GPU One" in rows[1]
    assert "Regression" in rows[3] and "GPU Two" in rows[3]
    # the filter: its options and each row's data, the script a file of the theme
    assert 'data-model="m1" data-gpu="g2"' in html
    assert '<option value="m2">Model Two</option>' in html
    assert '<option value="g2">GPU Two</option>' in html
    assert '<script src="../assets/changes.js" defer></script>' in html
    assert "assets/changes.js" in history
    assert '<a href="../models/m1/g1/">Model One on GPU One</a>' in html


def test_a_pair_page_lists_its_latest_changes(history):
    html = history["models/m1/g1/index.html"].decode()
    section = re.search(r'<section class="what-changed".*?</section>', html, re.S).group(0)
    rows = _rows(section)
    assert [r.split()[0] for r in rows] == ["2026-10-01", "2026-09-15"]
    assert "Regression" in rows[0] and "Improvement" in rows[1]
    assert 'href="../../../changes/"' in section
    other = history["models/m2/g1/index.html"].decode()
    assert len(_rows(other)) == 1 and "Improvement" in _rows(other)[0]  # m2's own entry


def test_a_pair_page_without_changes_says_so(make_site):
    runs = {"lab/a.yaml": one_point("2026-10-01", "vllm", 1000.0)}
    files = build(make_site, runs)
    lone = files["models/m1/g1/index.html"].decode()
    assert "No engine and precision of Model One on GPU One changed by at least 10 %" in lone
    assert entries(files) == []
    assert "No engine and precision has changed" in files["changes/index.html"].decode()


def test_a_pair_page_shows_its_latest_five(make_site):
    runs = {
        f"lab/a-{day:02}.yaml": one_point(f"2026-10-{day:02}", "vllm", 1000.0 * 1.5**day)
        for day in range(1, 9)
    }
    files = build(make_site, runs, config=CONFIG_MEASURED)
    section = re.search(
        r'<section class="what-changed".*?</section>',
        files["models/m1/g1/index.html"].decode(),
        re.S,
    ).group(0)
    assert [r.split()[0] for r in _rows(section)] == [f"2026-10-0{d}" for d in (8, 7, 6, 5, 4)]
    assert "the latest 5 of 7" in section


def test_regressions_are_entries_of_the_feeds(history, make_site, tmp_path):
    base = SITE_CONFIG["base_url"]
    feed = feedparser.parse(history["feed.xml"])
    assert not feed.bozo, feed.bozo_exception
    regressions = [e for e in feed.entries if "regression" in {t.term for t in e.tags}]
    assert [e.updated[:10] for e in regressions] == ["2026-10-01", "2026-09-15"]
    assert len(feed.entries) == 8 + 2  # every run, and each regression
    first = regressions[0]
    assert first.title == (
        "Regression: Model One on GPU One, vLLM FP8, Chat: -25 % at 20 tok/s per user"
    )
    assert "1,200 -> 900 (-25 %)" in first.summary and "2026-09-15" in first.summary
    link = {x.rel: x.href for x in first.links}
    page, anchor = link["alternate"].removeprefix(base).split("#")
    assert page == "changes/" and f'id="{anchor}"' in history["changes/index.html"].decode()
    assert first.id == link["alternate"]
    assert link["related"] == base + "models/m1/g1/"
    # the model's feed has its own regressions; the other model has none
    m1 = feedparser.parse(history["models/m1/feed.xml"])
    assert sum("regression" in {t.term for t in e.tags} for e in m1.entries) == 2
    m2 = feedparser.parse(history["models/m2/feed.xml"])
    assert not any("regression" in {t.term for t in e.tags} for e in m2.entries)
    # the feed's newest entry dates it; entries stay newest first
    dates = [e.updated_parsed for e in feed.entries]
    assert dates == sorted(dates, reverse=True)


def test_entry_ids_do_not_change_from_build_to_build(make_site):
    runs = {
        "lab/a-1.yaml": one_point("2026-09-01", "vllm", 1000.0),
        "lab/a-2.yaml": one_point("2026-09-15", "vllm", 800.0),
        "lab/a-3.yaml": one_point("2026-10-01", "vllm", 600.0),
    }
    root = make_site(runs=runs, config=CONFIG_MEASURED)

    def ids() -> list[str]:
        feed = feedparser.parse(render_site(root)[0]["feed.xml"])
        return [e.id for e in feed.entries if "#change-" in e.id]

    first = ids()
    assert len(first) == 2
    (root / "data/runs/lab/a-1.yaml").unlink()  # the entry of 09-15 goes, 10-01's stays
    assert ids() == first[:1]


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("change_threshold", 0, "expected a number > 0, got 0"),
        ("change_threshold", -0.1, "expected a number > 0, got -0.1"),
        ("change_threshold", "ten", 'expected a number > 0, got "ten"'),
        ("spread_days", 0, "expected an integer >= 1, got 0"),
        ("spread_days", 1.5, "expected an integer >= 1, got 1.5"),
        ("spread_days", True, "expected an integer >= 1, got true"),
    ],
)
def test_a_bad_setting_names_sitegen_yaml_and_the_field(make_site, field, value, expected):
    root = make_site(config={**SITE_CONFIG, field: value})
    code, out = check(root)
    assert code == 1
    assert re.search(rf"sitegen\.yaml:\d+: {field}: {re.escape(expected)}", out), out


def test_good_settings_are_read(make_site):
    from sitegen.records import load_site

    root = make_site(config={**SITE_CONFIG, "change_threshold": 0.25, "spread_days": 14})
    site, problems = load_site(root, use_cache=False)
    assert not problems.has_errors
    assert site.config.change_threshold == 0.25 and site.config.spread_days == 14
    default, _ = load_site(make_site(config=SITE_CONFIG), use_cache=False)
    assert (default.config.change_threshold, default.config.spread_days) == (0.10, 30)


def test_an_edit_makes_the_changes_again_and_they_equal_a_fresh_build(make_site, tmp_path):
    from sitegen.pipeline.build import build as build_into

    runs = {
        "lab/a-1.yaml": one_point("2026-09-01", "vllm", 1000.0),
        "lab/a-2.yaml": one_point("2026-09-15", "vllm", 1050.0),
        "lab/b-1.yaml": one_point("2026-09-01", "vllm", 1000.0, model="m2"),
    }
    root = make_site(runs=runs, config=CONFIG_MEASURED)
    build_into(root)
    assert json.loads((root / "public/changes.json").read_text()) == []
    edited = one_point("2026-09-15", "vllm", 700.0)  # now a 30 % fall
    (root / "data/runs/lab/a-2.yaml").write_text(yaml.safe_dump(edited))
    made = set(build_into(root).made)
    assert {"changes", "feed", "feed m1", "pair m1 g1"} <= made
    assert "feed m2" not in made and "pair m2 g1" not in made
    (entry,) = json.loads((root / "public/changes.json").read_text())
    assert entry["kind"] == "regression" and entry["headline_change"] == pytest.approx(-0.3)
    assert "Regression" in (root / "public/changes/index.html").read_text()
    fresh = tmp_path / "fresh"
    build_into(root, fresh, use_cache=False)
    for name in ("changes.json", "changes/index.html", "feed.xml", "models/m1/feed.xml"):
        assert (root / "public" / name).read_bytes() == (fresh / name).read_bytes(), name


def test_the_filter_hides_other_models_and_gpus_and_without_javascript_all_show(
    make_site, tmp_path, browser
):
    from sitegen.pipeline.build import build as build_into

    # the history's runs but m1 on g1's last two dates
    runs = {k: v for k, v in history_runs().items() if k not in ("lab/a-3.yaml", "lab/a-4.yaml")}
    out = tmp_path / "public"
    build_into(make_site(runs=runs, config=CONFIG_MEASURED), out)
    page_url = (out / "changes/index.html").as_uri()
    rows = "table.changes > tbody > tr"

    plain = browser.new_context(java_script_enabled=False)
    page = plain.new_page()
    page.goto(page_url)
    assert page.locator(rows).count() == 3
    assert not page.locator("#change-filter").is_visible()
    plain.close()

    context = browser.new_context()
    page = context.new_page()
    page.goto(page_url)
    assert page.locator("#change-filter").is_visible()
    page.select_option("#cf-model", "m1")
    visible = page.locator(rows + ":visible")
    assert visible.count() == 2
    assert page.locator(".change-status").inner_text() == "2 of 3 changes shown."
    page.select_option("#cf-gpu", "g2")
    assert visible.count() == 1 and "GPU Two" in visible.first.inner_text()
    page.select_option("#cf-model", "m2")
    assert visible.count() == 0 and page.locator(".change-empty").is_visible()
    context.close()


def test_the_changes_page_lists_the_newest_entries_and_says_where_the_rest_are(
    flagship, monkeypatch
):
    monkeypatch.setattr("sitegen.views.changes.PAGE_LATEST", 10)
    files, _ = render_site(flagship, use_cache=False)
    every = json.loads(files["changes.json"])
    assert len(every) > 10
    html = files["changes/index.html"].decode()
    listed = re.findall(r'<tr id="(change-[^"]+)"', html)
    assert len(listed) == 10
    assert f"The newest 10 of {len(every)} changes" in html
    assert 'href="../changes.json"' in html
