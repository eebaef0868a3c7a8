"""The flagship's DeepSeek R1 data: the records are what `sitegen import inferencex` makes of the
two InferenceX files, in any order, and every ladder is the frontier of the raw API rows,
recomputed here without sitegen's code."""

from __future__ import annotations

import json
import math
from collections import defaultdict
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import REPO, copy_flagship
from sitegen.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "importers"
LATEST = FIXTURES / "deepseek-r1-benchmarks-2026-06-11.json"
HISTORY = FIXTURES / "deepseek-r1-benchmarks-history-2026-06-11.json"
RECORDS = "data/runs/inferencex"
WORKLOADS = {(1024, 1024): "1k1k", (1024, 8192): "1k8k", (8192, 1024): "8k1k"}
GPUS = ("b200", "b300", "gb200", "gb300", "h100", "h200", "mi300x", "mi325x", "mi355x")


def import_(site: Path, *files: Path, out: str = RECORDS, fmt: str = "yaml") -> str:
    args = ["import", "inferencex", *map(str, files), "--out", str(site / out)]
    args += ["--model", "deepseek-r1", "--format", fmt, "--site", str(site)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "warning" not in result.stderr, result.stderr
    return result.stdout.splitlines()[-1]


def r1_records(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("deepseek-r1*"))}


def without_r1(root: Path) -> Path:
    """A copy of the flagship without its DeepSeek R1 records, as before they were imported."""
    site = copy_flagship(root)
    for path in (site / RECORDS).glob("deepseek-r1*"):
        path.unlink()
    return site


def test_the_records_are_what_importing_both_files_gives(tmp_path: Path) -> None:
    site = without_r1(tmp_path / "site")
    assert import_(site, LATEST) == "imported 435 configs into 190 records"
    summary = import_(site, HISTORY)
    assert summary == "imported 1462 configs into 583 records (230 already there)"
    committed = r1_records(REPO / RECORDS)
    assert len(committed) == 606  # 190 + 583 records, 167 of them in both files
    assert r1_records(site / RECORDS) == committed


def _subset(tmp_path: Path, source: Path) -> Path:
    """The rows of three GPUs at 1k/1k: 50 of the latest results and 60 of the history, 30 of
    them in both files (the history's copies without power, image, mean and p90)."""
    rows = [
        row
        for row in json.loads(source.read_text())
        if row["hardware"] in ("b300", "gb300", "h100") and (row["isl"], row["osl"]) == (1024, 1024)
    ]
    path = tmp_path / source.name
    path.write_text(json.dumps(rows))
    return path


@pytest.mark.parametrize(("fmt", "out"), [("yaml", RECORDS), ("parquet", "data/runs/r1.parquet")])
def test_importing_in_either_order_or_twice_gives_the_same_bytes(
    tmp_path: Path, fmt: str, out: str
) -> None:
    latest, history = _subset(tmp_path, LATEST), _subset(tmp_path, HISTORY)
    trees = {}
    for name, order in {"ab": (latest, history), "ba": (history, latest)}.items():
        site = without_r1(tmp_path / name)
        for path in order:
            import_(site, path, out=out, fmt=fmt)
        trees[name] = r1_records(site / RECORDS) or {out: (site / out).read_bytes()}
    assert trees["ab"] == trees["ba"]
    assert len(trees["ab"]) == (30 if fmt == "yaml" else 1)
    site = tmp_path / "ab"
    before = {p: p.stat().st_mtime_ns for p in (site / "data/runs").rglob("*")}
    for path in (latest, history):  # A, B, then A, B again
        assert import_(site, path, out=out, fmt=fmt).endswith("already there)")
    again = r1_records(site / RECORDS) or {out: (site / out).read_bytes()}
    assert again == trees["ab"]
    assert {p: p.stat().st_mtime_ns for p in (site / "data/runs").rglob("*")} == before


# -- every ladder, recomputed from the API rows --------------------------------------------------


def _rows() -> list[dict]:
    """Both files' rows, each measurement once (230 rows are in both)."""
    seen: dict[str, dict] = {}
    for path in (LATEST, HISTORY):
        for row in json.loads(path.read_text()):
            identity = {k: v for k, v in row.items() if k not in ("metrics", "image")}
            seen.setdefault(json.dumps(identity, sort_keys=True), row)
    return list(seen.values())


def _monotone(xs: list[float], ys: list[float], x: float) -> float:
    """d3.curveMonotoneX through the points, read at x (Steffen inside, (3s - m)/2 at ends)."""
    slopes = [(ys[i + 1] - ys[i]) / (xs[i + 1] - xs[i]) for i in range(len(xs) - 1)]
    tangents = [slopes[0]] * len(xs)
    if len(xs) > 2:
        for i in range(1, len(xs) - 1):
            h0, h1 = xs[i] - xs[i - 1], xs[i + 1] - xs[i]
            s0, s1 = slopes[i - 1], slopes[i]
            p = (s0 * h1 + s1 * h0) / (h0 + h1)
            sign = (s0 > 0) - (s0 < 0) + (s1 > 0) - (s1 < 0)
            tangents[i] = sign * min(abs(s0), abs(s1), 0.5 * abs(p))
        tangents[0] = (3 * slopes[0] - tangents[1]) / 2
        tangents[-1] = (3 * slopes[-1] - tangents[-2]) / 2
    i = max(j for j in range(len(xs) - 1) if xs[j] <= x)
    h, t = xs[i + 1] - xs[i], (x - xs[i]) / (xs[i + 1] - xs[i])
    return (
        (2 * t**3 - 3 * t**2 + 1) * ys[i]
        + (t**3 - 2 * t**2 + t) * h * tangents[i]
        + (-2 * t**3 + 3 * t**2) * ys[i + 1]
        + (t**3 - t**2) * h * tangents[i + 1]
    )


def _curve_value(points: list[tuple[float, float]], target: float) -> float | None:
    """The upper-left Pareto frontier of a curve's points, read at the target."""
    frontier = sorted(
        p for p in points if not any(q != p and q[0] >= p[0] and q[1] >= p[1] for q in points)
    )
    xs, ys = [p[0] for p in frontier], [p[1] for p in frontier]
    if target > xs[-1]:
        return None
    if target <= xs[0] or len(xs) == 1:
        return ys[0]
    return _monotone(xs, ys, target)


def expected_ladders(targets: list[int]) -> dict[tuple[str, str], tuple[int, list]]:
    """(GPU, workload) -> (configs of the current runs, [(value, engine, precision) per target])."""
    curves: dict[tuple, dict[tuple, list[dict]]] = defaultdict(lambda: defaultdict(list))
    for row in _rows():
        engine = row["framework"]
        if row["spec_method"] != "none":
            engine += "-" + row["spec_method"]
        pair = (row["hardware"], WORKLOADS[(row["isl"], row["osl"])])
        curves[pair][(engine, row["precision"])].append(row)
    out = {}
    for pair, by_curve in curves.items():
        current = {}
        for curve, rows in by_curve.items():
            latest = max(row["date"] for row in rows)  # only the latest runs of each curve count
            current[curve] = [
                (1 / row["metrics"]["median_tpot"], row["metrics"]["tput_per_gpu"])
                for row in rows
                if row["date"] == latest
            ]
        ladder = []
        for target in targets:
            values = [(_curve_value(pts, target), curve) for curve, pts in current.items()]
            reached = [(value, curve) for value, curve in values if value is not None]
            best = max(reached, default=None)
            ladder.append((best[0], *best[1]) if best else (None, None, None))
        out[pair] = (sum(len(points) for points in current.values()), ladder)
    return out


@pytest.fixture(scope="module")
def r1_pages(flagship_files) -> dict[str, dict]:
    _, files = flagship_files
    return {gpu: json.loads(files[f"models/deepseek-r1/{gpu}/data.json"]) for gpu in GPUS}


def test_every_ladder_is_the_frontier_of_the_raw_rows(r1_pages) -> None:
    targets = [rung["target"] for rung in r1_pages["b200"]["workloads"]["1k1k"]["ladder"]]
    expected = expected_ladders(targets)
    assert len(expected) == 26  # nine GPUs, three workloads; one GPU has no 1k/8k run
    for (gpu, workload), (configs, ladder) in expected.items():
        built = r1_pages[gpu]["workloads"][workload]
        assert built["configs"] == configs, (gpu, workload)
        got = [(r["throughput_per_gpu"], r["engine"], r["precision"]) for r in built["ladder"]]
        for (value, *curve), (built_value, *built_curve) in zip(ladder, got, strict=True):
            assert built_curve == curve, (gpu, workload, curve)
            if value is None:
                assert built_value is None, (gpu, workload)
            else:  # records keep six significant digits of the API's figures
                assert math.isclose(built_value, value, rel_tol=1e-4), (gpu, workload)


def test_b200_1k1k_keeps_all_38_configs_and_reads_11448_at_30_tokens_per_user(r1_pages) -> None:
    # Before imports merged, the history file replaced the latest run: 26 configs, 12,141.
    summary = r1_pages["b200"]["workloads"]["1k1k"]
    assert summary["configs"] == 38
    rungs = {r["target"]: r for r in summary["ladder"]}
    assert round(rungs[30]["throughput_per_gpu"]) == 11448
    assert round(rungs[50]["throughput_per_gpu"]) == 9148  # the figure SITE.md quotes
    assert (rungs[30]["engine"], rungs[30]["precision"]) == ("dynamo-trt-mtp", "fp4")


def test_pair_pages_and_run_reports_credit_inferencex_with_a_link(flagship_files) -> None:
    _, files = flagship_files
    credit = '<a href="https://inferencex.semianalysis.com/">InferenceX</a> (SemiAnalysis)'
    pair = files["models/deepseek-r1/b200/index.html"].decode()
    measured = pair.split("<dt>Measured by</dt><dd>", 1)[1].split("</dd>", 1)[0]
    assert measured.startswith(credit + ", ")  # MLPerf's submitters follow, with MLCommons
    assert "MLPerf Inference v5.1 (" in measured and "(MLCommons)" in measured
    run = "runs/inferencex-deepseek-r1-b200-dynamo-trt-mtp-fp4-1k1k-2026-01-29/index.html"
    assert f"Source: {credit}." in files[run].decode()
    other = "runs/localmaxxing-paiton-kimi-k3.1-pro-mi355x-2026-11-11/index.html"
    assert "Source: LocalMaxxing." in files[other].decode()  # a source nobody links is named


def test_the_raw_files_are_the_published_ones() -> None:
    latest, history = json.loads(LATEST.read_text()), json.loads(HISTORY.read_text())
    assert (len(latest), len(history)) == (435, 1462)
    assert {row["hardware"] for row in latest} == {row["hardware"] for row in history} == set(GPUS)
