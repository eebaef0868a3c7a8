"""Reading data/: schema, loading with source positions, problems (errors, warnings)."""

from __future__ import annotations

from .load import check_run, load_site, run_id
from .model import (
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

__all__ = [
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
