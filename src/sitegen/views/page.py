"""What a plan lists: pages (route, template, typed view) and data files."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from ..charts import Chart
from ..records.names import without_forbidden

if TYPE_CHECKING:
    from ..cards.card import Card


@dataclass(frozen=True)
class Quote:
    """What every page quoting the headline point shows beside its own values."""

    tier: str
    tier_label: str
    tiers: tuple
    pricing: Any
    interactivity: float


@dataclass(frozen=True)
class View:
    """A page's values. Its fields are the template's variables; a Quote's fields are spread."""

    def context(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Quote):
                out.update((q.name, getattr(value, q.name)) for q in dataclasses.fields(value))
            else:
                out[f.name] = value
        return out


@dataclass(frozen=True)
class EmptyView(View):
    """A page with nothing of its own (the 404 page)."""


@dataclass(frozen=True)
class Page:
    """One HTML page. `route` is its folder under the output ("" for the home page)."""

    route: str
    template: str
    title: str
    view: View = field(default_factory=EmptyView)
    filename: str = "index.html"
    in_sitemap: bool = True
    lastmod: str | None = None
    charts: tuple[Chart, ...] = ()  # drawn by the chart step before the page renders
    image: str | None = None  # the output path of its link-preview card (views/social.py)
    jsonld: tuple[Markup, ...] = ()  # structured data beside the template's own (jsonld.py)

    def __post_init__(self) -> None:
        # a title never carries a control, invisible or bidirectional character, whatever
        # text it was made of (names are checked; copy titles and sources are free text)
        object.__setattr__(self, "title", without_forbidden(self.title))

    @property
    def path(self) -> str:
        return self.route + self.filename

    @property
    def context(self) -> dict[str, Any]:
        return self.view.context()


@dataclass(frozen=True)
class DataFile:
    """A file beside the pages: text (written as UTF-8) or, for images, bytes, or a card to
    draw (a step of its own, as charts are: making.Maker draws a chunk's cards together)."""

    path: str
    text: str | bytes | Card

    @property
    def data(self) -> bytes:
        if isinstance(self.text, bytes):
            return self.text
        if isinstance(self.text, str):
            return self.text.encode("utf-8")
        from ..cards.card import card_png

        return card_png(self.text)


@dataclass
class Plan:
    pages: list[Page] = field(default_factory=list)
    files: list[DataFile] = field(default_factory=list)

    def charts(self) -> list[Chart]:
        return [chart for page in self.pages for chart in page.charts]
