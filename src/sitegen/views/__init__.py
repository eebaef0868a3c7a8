"""The page plan: view builders, one per page kind, each returning a page with a typed view.

`plan_site` only lists what the build emits, as (route, template, view) pages and data files;
charts are drawn by a step of their own (charts.step), templates render the views (render.py).
"""

from __future__ import annotations

from ..content import Content
from ..records import Problems, Site
from ..tables import WorkloadSummary
from .catalog import gpu_page
from .compare import compare_outputs
from .copy_pages import content_pages, not_found_page
from .model import model_outputs
from .overview import overview_outputs
from .page import DataFile, Page, Plan, Quote, View
from .pair import pair_data, pair_page
from .run import run_outputs
from .sources import Sources, compare_route


def plan_site(
    site: Site, pairs: dict[tuple[str, str], list[WorkloadSummary]], content: Content
) -> tuple[Plan, Problems]:
    """Every page and data file of the site, and the problems editors' copy raised."""
    src = Sources(site, pairs, content)
    plan = Plan()
    overview, downloads = overview_outputs(src)
    plan.pages.append(overview)
    for model, gpu in src.pair_keys:
        plan.pages.append(pair_page(src, model, gpu))
        plan.files.append(pair_data(src, model, gpu))
    for model in src.models:
        page, data = model_outputs(src, model)
        plan.pages.append(page)
        plan.files.append(data)
    plan.pages.extend(gpu_page(src, gpu) for gpu in src.gpus)
    for page, data in compare_outputs(src):
        plan.pages.append(page)
        plan.files.append(data)
    plan.pages.extend(content_pages(src))
    for run in site.runs:
        page, data = run_outputs(src, run)
        plan.pages.append(page)
        plan.files.append(data)
    plan.pages.append(not_found_page())
    plan.files.extend(downloads)
    return plan, src.problems


__all__ = ["DataFile", "Page", "Plan", "Quote", "View", "compare_route", "plan_site"]
