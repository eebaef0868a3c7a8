"""Dates outside 2000-01-01 .. 2099-12-31 are an error at their line; no date crashes a chart."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result

from conftest import PRICING, config, sweep
from sitegen.cli import main
from test_parquet import flat_rows, write_frame


def cli(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def record_text(date: str) -> str:
    """A run record with its date written unquoted, as a YAML date."""
    body = yaml.safe_dump(sweep(), sort_keys=False).splitlines()
    return "\n".join(f"date: {date}" if line.startswith("date:") else line for line in body) + "\n"


@pytest.mark.parametrize("date", ["9999-11-30", "0001-01-01", "1900-01-01", "2999-12-31"])
@pytest.mark.parametrize("quoted", [False, True])
def test_a_date_out_of_range_is_an_error_at_its_line(make_site, date: str, quoted: bool) -> None:
    text = record_text(f'"{date}"' if quoted else date)
    line = text.splitlines().index(f'date: "{date}"' if quoted else f"date: {date}") + 1
    root = make_site(runs={"lab/run.yaml": text})
    result = cli("check", "--site", root)
    assert result.exit_code == 1, result.output
    assert f"data/runs/lab/run.yaml:{line}: date: " in result.stderr
    assert "2000-01-01" in result.stderr and "2099-12-31" in result.stderr
    assert "Traceback" not in result.output
    build = cli("build", "--site", root)
    assert build.exit_code == 1 and not (root / "public").exists()


def test_a_date_time_out_of_range_in_a_json_record_is_an_error(make_site) -> None:
    record = {**sweep(), "date": "2100-01-01T01:00:00+02:00"}  # 2099-12-31 in UTC: fine
    late = {**sweep(engine="sglang"), "date": "2099-12-31T23:00:00-02:00"}  # 2100-01-01 UTC
    root = make_site(runs={"a.json": json.dumps(record), "b.json": json.dumps(late)})
    result = cli("check", "--site", root)
    assert result.exit_code == 1, result.output
    assert "data/runs/b.json:1: date: " in result.stderr
    assert "data/runs/a.json" not in result.stderr


def test_a_parquet_archive_keeps_the_same_range(make_site) -> None:
    root = make_site(runs={})
    write_frame(root, "a.parquet", flat_rows(2, date=[dt.date(1900, 1, 1)] * 2))
    result = cli("check", "--site", root)
    assert result.exit_code == 1, result.output
    assert "data/runs/a.parquet: row 1: date: " in result.stderr


def test_a_pricing_date_out_of_range_is_an_error(make_site) -> None:
    root = make_site(pricing={**PRICING, "as_of": "1900-07"})
    result = cli("check", "--site", root)
    assert result.exit_code == 1, result.output
    assert "data/pricing.yaml:2: as_of: " in result.stderr


@pytest.mark.parametrize("date", ["2000-01-01", "2099-12-31"])
def test_the_ends_of_the_range_build(make_site, date: str) -> None:
    root = make_site(runs={"lab/run.yaml": record_text(date)})
    result = cli("build", "--site", root)
    assert result.exit_code == 0, result.output


def test_a_chart_spanning_the_whole_range_draws(make_site) -> None:
    runs = {
        "lab/first.yaml": sweep(date="2000-01-01"),
        "lab/middle.yaml": sweep(date="2050-06-15", configs=[config(8, 64, 1200.0, 100.0)]),
        "lab/last.yaml": sweep(date="2099-12-31", configs=[config(8, 64, 1500.0, 90.0)]),
    }
    root = make_site(runs=runs)
    result = cli("build", "--site", root)
    assert result.exit_code == 0, result.output
    # the history is on the main workload's page
    page = (root / "public" / "models" / "m1" / "g1" / "chat" / "index.html").read_text()
    assert 'class="chart history-chart"' in page
    assert "2000" in page and "2099" in page


@pytest.mark.parametrize(
    ("first", "last"),
    [(-30, 400), (dt.date.max.toordinal() - 400, dt.date.max.toordinal() + 30), (-5, 4_000_000)],
)
def test_date_ticks_never_leave_the_calendar(first: int, last: int) -> None:
    """A scale padded past year 1 or year 9999 still gets ticks, never an overflow."""
    from sitegen.charts.axes import date_ticks
    from sitegen.charts.svg import Scale

    ticks = date_ticks(Scale(first, last, 50.0, 650.0), 40.0, 660.0)
    assert ticks and all(1 <= day <= dt.date.max.toordinal() for day, _ in ticks)
