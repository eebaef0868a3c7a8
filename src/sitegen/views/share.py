"""What makes a page travel: its breadcrumbs and Dataset JSON-LD, its link-preview card and
badge, and the site's feeds and llms.txt, as jobs of the plan (views/__init__.py).

A card is a job of its own, keyed by what it shows, so a page made again for another reason
(its template, editors' copy) does not draw its PNG again.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable

from markupsafe import Markup

from ..cards.badges import BADGE, badge_markdown, badge_size, badge_svg, badge_value
from ..cards.glyphs import fonts_digest
from .compare import compared
from .datafiles import pair_route
from .feeds import FEED, model_feed, model_feed_path, site_feed
from .jsonld import Download, breadcrumbs, dataset_jsonld
from .keys import Keys
from .llms import LLMS, llms_txt
from .page import DataFile, Page
from .social import compare_card, image_path, model_card, pair_card
from .sources import Sources, compare_route, embed_route, gpu_pair_route

JSON, CSV = "application/json", "text/csv"


def _dates(src: Sources, pairs: list[tuple[str, str]]) -> tuple[dt.date, dt.date] | None:
    """First and last date of the current runs of `pairs`' summaries."""
    briefs = src.briefs
    found = [s for pair in pairs for s in briefs.get(pair, ())]
    if not found:
        return None
    return min(s.first_date for s in found), max(s.last_date for s in found)


class Share:
    """The extras of one plan's pages, and its share jobs."""

    def __init__(self, src: Sources) -> None:
        self.src = src
        self.base = src.site.config.base_url

    def _with(
        self, page: Page, trail: list[tuple[str, str]] | None, *extra: Markup, image: bool
    ) -> Page:
        """`page` with its breadcrumbs (None: the overview has none), `extra` JSON-LD, and
        its card's path where it has one."""
        blocks = tuple(extra)
        if trail is not None:
            blocks = (breadcrumbs(self.base, trail), *blocks)
        card = image_path(page.route) if image else None
        return dataclasses.replace(page, jsonld=page.jsonld + blocks, image=card)

    def _model(self, model: str) -> tuple[str, str]:
        return self.src.site.models[model].name, f"models/{model}/"

    def dataset(
        self,
        name: str,
        description: str,
        url: str,
        downloads: list[Download],
        pairs: list[tuple[str, str]],
    ) -> Markup:
        config = self.src.site.config
        return dataset_jsonld(
            name=name,
            description=description,
            url=url,
            license=config.license,
            creator=config.title or self.base,
            downloads=downloads,
            dates=_dates(self.src, pairs),
            keywords=["LLM inference", "benchmark", "tokens per second", "GPU"],
        )

    def overview(self, page: Page) -> Page:
        b = self.base
        config = self.src.site.config
        data = self.dataset(
            f"{config.title}: leaderboard",
            page.context.get("description") or config.description,
            b,
            [
                Download(b + "data/leaderboard.json", JSON),
                Download(b + "data/leaderboard.csv", CSV),
            ],
            self.src.pair_keys,
        )
        return self._with(page, None, data, image=False)

    def pair(self, page: Page, model: str, gpu: str) -> Page:
        route = pair_route(model, gpu)
        data = self.dataset(
            page.title,
            page.context.get("description", ""),
            self.base + route,
            [Download(self.base + route + "data.json", JSON)],
            [(model, gpu)],
        )
        trail = [self._model(model), (self.src.site.gpus[gpu].name, route)]
        # an embed where the pair has a sweep to chart (views/embed.py)
        embed = self.base + embed_route(model, gpu) if self.src.summaries(model, gpu) else None
        view = dataclasses.replace(page.view, badge=self.badge(model, gpu), embed=embed)
        page = dataclasses.replace(page, view=view)
        return self._with(page, trail, data, image=self._carded("pair"))

    def pair_workload(self, page: Page, model: str, gpu: str) -> Page:
        """The page of a pair's workload other than its main one (views/pair.py)."""
        trail = [
            self._model(model),
            (self.src.site.gpus[gpu].name, pair_route(model, gpu)),
            (page.view.w["workload"].name, page.route),
        ]
        return self._with(page, trail, image=False)

    def model_workload(self, page: Page, model: str) -> Page:
        """The page of a model's workload other than its main one (views/model.py)."""
        trail = [self._model(model), (page.view.w["workload"].name, page.route)]
        return self._with(page, trail, image=False)

    def model(self, page: Page, model: str) -> Page:
        return self._with(page, [self._model(model)], image=self._carded("model"))

    def _carded(self, kind: str) -> bool:
        """Whether pages of `kind` have a link-preview card (sitegen.yaml's `cards`)."""
        return kind in self.src.site.config.cards

    def gpu(self, page: Page, gpu: str) -> Page:
        return self._with(page, [(self.src.site.gpus[gpu].name, f"gpus/{gpu}/")], image=False)

    def _gpu_pair(self, a: str, b: str) -> tuple[str, str]:
        gpus = self.src.site.gpus
        return f"{gpus[a].name} vs {gpus[b].name}", gpu_pair_route(a, b)

    def compare(self, page: Page, model: str, a: str, b: str) -> Page:
        trail = [self._gpu_pair(a, b), (self.src.site.models[model].name, page.route)]
        return self._with(page, trail, image=self._carded("compare"))

    def gpu_pair(self, page: Page, a: str, b: str) -> Page:
        return self._with(page, [self._gpu_pair(a, b)], image=False)

    def run(self, page: Page, model: str, gpu: str) -> Page:
        site = self.src.site
        pair = (f"{site.models[model].name} on {site.gpus[gpu].name}", pair_route(model, gpu))
        return self._with(page, [self._model(model), pair, (page.title, page.route)], image=False)

    def changes(self, page: Page) -> Page:
        return self._with(page, [(page.title, page.route)], image=False)

    def content(self, page: Page) -> Page:
        return self._with(page, [(page.title, page.route)], image=False)

    def badge(self, model: str, gpu: str) -> dict | None:
        """The pair page's badge: its address, its size in pixels and the Markdown that embeds
        it."""
        src = self.src
        if (model, gpu) not in src.briefs:  # no summary: no headline to show
            return None
        route = pair_route(model, gpu)
        name = f"{src.site.models[model].name} on {src.site.gpus[gpu].name}"
        main = src.briefs[(model, gpu)][0]
        head, counted = main.headline, src.site.tokens(main.workload)
        width, height = badge_size(
            src.site.gpus[gpu].name, badge_value(head.throughput_per_gpu, head.target, counted)
        )
        return {
            "path": route + BADGE,
            "width": width,
            "height": height,
            "markdown": badge_markdown(name, self.base + route + BADGE, self.base + route),
        }


def badge_file(src: Sources, model: str, gpu: str) -> DataFile:
    main = src.briefs[(model, gpu)][0]
    head = main.headline
    value = badge_value(head.throughput_per_gpu, head.target, src.site.tokens(main.workload))
    svg = badge_svg(src.site.gpus[gpu].name, value, head.throughput_per_gpu is not None)
    return DataFile(pair_route(model, gpu) + BADGE, svg)


def share_jobs(src: Sources, keys: Keys, job: Callable, kept: Callable) -> list:
    """The jobs of the cards, badges, feeds and llms.txt; `job(name, key, make)` makes one,
    `kept(name)` gives the last plan's job of that name where it still stands."""
    site = src.site
    fonts = fonts_digest()
    out = []
    cards = site.config.cards
    for model, gpu in src.pair_keys:
        name = f"card {model} {gpu}"
        out.append(
            kept(name)
            or job(
                name,
                keys.of("card", None, fonts, "pair" in cards, keys.pair(model, gpu)),
                lambda src, m=model, g=gpu: ([], _pair_files(src, m, g)),
            )
        )
    for model in src.models:
        if "model" in cards:
            name = f"card {model}"
            out.append(
                kept(name)
                or job(
                    name,
                    keys.of("card", None, fonts, [keys.pair(model, g) for g in src.gpus_of(model)]),
                    lambda src, m=model: (
                        [],
                        [DataFile(image_path(f"models/{m}/"), model_card(src, m))],
                    ),
                )
            )
        name = f"feed {model}"
        out.append(
            kept(name)
            or job(
                name,
                # its regressions read the figures of its pairs' runs
                keys.of(
                    "feed",
                    None,
                    keys.facts(model),
                    [keys.pair(model, g) for g in src.gpus_of(model)],
                ),
                lambda src, m=model: ([], [_model_feed(src, m)]),
            )
        )
    for model, a, b in compared(src) if "compare" in cards else ():
        name = f"card {model} {a} {b}"
        out.append(
            kept(name)
            or job(
                name,
                keys.of("card", None, fonts, keys.pair(model, a), keys.pair(model, b)),
                lambda src, m=model, a=a, b=b: (
                    [],
                    [DataFile(image_path(compare_route(a, b, m)), compare_card(src, m, a, b))],
                ),
            )
        )
    # a feed shows what its runs are and, of their numbers, the regressions between run dates
    out.append(
        kept("feed")
        or job(
            "feed",
            keys.of(
                "feed",
                None,
                [keys.facts(m) for m in src.models],
                sorted(keys.pair(*k) for k in src.pair_keys),
            ),
            lambda src: ([], [DataFile(FEED, site_feed(src.site, src.all_changes))]),
        )
    )
    out.append(
        kept("llms.txt")
        or job(
            "llms.txt",
            keys.of("llms", None, sorted(keys.pair(*k) for k in src.pair_keys)),
            lambda src: ([], [DataFile(LLMS, llms_txt(src.site, src.briefs, src.brief_memo))]),
        )
    )
    return out


def _model_feed(src: Sources, model: str) -> DataFile:
    """A model's feed: its runs and its regressions."""
    changes = [c for c in src.all_changes if c.model == model]
    return DataFile(
        model_feed_path(model), model_feed(src.site, model, src.runs_of_model(model), changes)
    )


def _pair_files(src: Sources, model: str, gpu: str) -> list[DataFile]:
    """A pair's card (where pair pages have cards) and badge (where it has a headline)."""
    files = []
    if "pair" in src.site.config.cards:
        files.append(DataFile(image_path(pair_route(model, gpu)), pair_card(src, model, gpu)))
    if (model, gpu) in src.briefs:
        files.append(badge_file(src, model, gpu))
    return files


__all__ = ["FEED", "LLMS", "Share", "share_jobs"]
