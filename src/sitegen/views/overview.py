"""The overview leaderboard and its downloads (leaderboard.json, leaderboard.csv)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import display
from ..datafiles import leaderboard_csv, leaderboard_rows, to_json
from .page import DataFile, Page, Quote, View
from .sources import Sources


@dataclass(frozen=True)
class OverviewView(View):
    boards: list[dict]  # per workload, the default first: {"workload", "rows"}
    only_matrix: list[tuple[str, str]]  # pairs measured by matrices only
    models: list[Any]
    gpus: list[Any]
    quote: Quote
    description: str


def overview_outputs(src: Sources) -> tuple[Page, list[DataFile]]:
    rows = leaderboard_rows(src.site, src.pairs)
    files = [
        DataFile("data/leaderboard.json", to_json(rows)),
        DataFile("data/leaderboard.csv", leaderboard_csv(src.site, rows)),
    ]
    return overview_page(src, rows), files


def overview_page(src: Sources, rows: list[dict]) -> Page:
    """The overview: one board per workload (the default first), each ranked on its own.

    Throughput on one workload says nothing about another, so rows of different
    workloads are never ranked against each other.
    """
    site = src.site
    default = site.config.default_workload
    boards = []
    for workload in sorted({r["workload"] for r in rows}, key=lambda w: (w != default, w)):
        board = [
            dict(r, model_obj=site.models[r["model"]], gpu_obj=site.gpus[r["gpu"]])
            for r in rows
            if r["workload"] == workload
        ]
        boards.append({"workload": site.workloads[workload], "rows": board})
    models = sorted(src.models, key=lambda m: site.models[m].name)
    gpus = sorted(src.gpus, key=lambda g: site.gpus[g].name)
    leaders = [
        f"{b['rows'][0]['model_obj'].name} on {b['rows'][0]['gpu_obj'].name} at "
        f"{display.tokens(b['rows'][0]['throughput_per_gpu'])} tokens/s per GPU "
        f"({b['workload'].name})"
        for b in boards
        if b["rows"][0]["throughput_per_gpu"] is not None
    ]
    description = site.config.description or (
        f"Tokens/s per GPU and $ per million tokens at "
        f"{display.rate(site.config.headline_interactivity)} tokens/s per user: "
        f"{display.plural(len(models), 'model')} on {display.plural(len(gpus), 'GPU type')}, "
        "measured by concurrency sweeps and ranked per workload."
        + (f" Best: {display.human_list(leaders)}." if leaders else "")
    )
    view = OverviewView(
        boards=boards,
        only_matrix=[k for k in src.pair_keys if k not in src.pairs],
        models=[site.models[m] for m in models],
        gpus=[site.gpus[g] for g in gpus],
        quote=src.quote,
        description=description,
    )
    return Page("", "index.html", site.config.title, view)
