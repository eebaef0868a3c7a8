"""Reading data/: schema, loading with source positions, problems (errors, warnings)."""

from __future__ import annotations

from typing import Any

from .model import (
    OUTPUT,
    TOTAL,
    Catalogs,
    DecodeCell,
    Gpu,
    Latency,
    MatrixRun,
    Model,
    Pricing,
    Run,
    Site,
    SiteConfig,
    SweepConfig,
    SweepRun,
    Workload,
)
from .problems import Problem, Problems, SiteError

_LOADING = ("check_run", "load_site", "run_id")


def __getattr__(name: str) -> Any:
    """Loading brings in numpy and pyarrow: imported when first used, not by every command
    (a build with nothing to do, `sitegen --help`)."""
    if name in _LOADING:
        from . import load

        return getattr(load, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "OUTPUT",
    "TOTAL",
    "Catalogs",
    "DecodeCell",
    "Gpu",
    "Latency",
    "MatrixRun",
    "Model",
    "Pricing",
    "Problem",
    "Problems",
    "Run",
    "Site",
    "SiteConfig",
    "SiteError",
    "SweepConfig",
    "SweepRun",
    "Workload",
    "check_run",
    "load_site",
    "run_id",
]
