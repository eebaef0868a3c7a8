"""What the link-preview card of a pair, model and comparison page says (cards.py draws it).

Each card reads what its page's headline reads: the default workload's summary at the headline
target, and the envelopes its page charts.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from ..calc.envelope import Envelope
from ..calc.tables import WorkloadSummary
from ..cards.card import Card, Series, series_of
from ..render import display
from .sources import Sources

IMAGE = "social.png"
MODEL_SERIES = 3  # the best GPUs a model's card draws


def image_path(route: str) -> str:
    """The output path of the card of the page at `route`."""
    return route + IMAGE


def _footer(src: Sources) -> str:
    parts = urlsplit(src.site.config.base_url)
    return (parts.netloc + parts.path).rstrip("/")


def _series(src: Sources, label: str, summary: WorkloadSummary) -> Series:
    """A summary's envelope as a card draws it, made once per plan: a pair's is on its own
    card and on the cards of its comparisons."""
    return src.per_row(_envelope_series, src.envelope(summary), label)


def _envelope_series(env: Envelope, label: str) -> Series:
    return series_of(label, [(p.interactivity, p.throughput_per_gpu) for p in env.points()])


def _at(src: Sources) -> str:
    return f"at {display.rate(src.site.config.headline_interactivity)} tokens/s per user"


def _cost(src: Sources, costs: dict | None, counted: str) -> str:
    cost = (costs or {}).get(src.tier)
    if cost is None:
        return ""
    return f"{display.dollars(cost)} per million {display.counted(counted)}"


def _default(src: Sources, summaries: list[WorkloadSummary]) -> WorkloadSummary | None:
    return summaries[0] if summaries else None


def _unreached(base: dict, nothing: str, second: str, series: tuple, mark: float) -> Card:
    """A card with no headline figure: what does not reach the target, the curves it has."""
    lines = (f"{nothing} tokens/s per user", second)
    return Card(**base, figure="", unit="", lines=lines, series=series, x_mark=mark)


def pair_card(src: Sources, model: str, gpu: str) -> Card:
    site = src.site
    m, g = site.models[model], site.gpus[gpu]
    main = _default(src, src.summaries(model, gpu))
    title = f"{m.name} on {g.name}"
    base = {"site": site.config.title, "title": title, "footer": _footer(src)}
    if main is None:
        return Card(**base, figure="", unit="", lines=("Matrix runs: see the run reports",))
    head = main.headline
    workload = site.workloads[main.workload].name
    series = (_series(src, g.name, main),)
    mark = site.config.headline_interactivity
    if head.throughput_per_gpu is None:
        return _unreached(base, f"No config reaches {display.rate(mark)}", workload, series, mark)
    how = f"{display.engine_name(head.engine)} {display.precision_name(head.precision)}"
    lines = (_at(src), _cost(src, head.cost_per_million_tokens, main.tokens), f"{how}, {workload}")
    return Card(
        **base,
        figure=display.tokens(head.throughput_per_gpu),
        unit=display.per_gpu(main.tokens),
        lines=tuple(line for line in lines if line),
        series=series,
        x_mark=mark,
    )


def model_card(src: Sources, model: str) -> Card:
    site = src.site
    m = site.models[model]
    fields = src.fields(model)
    base = {
        "site": site.config.title,
        "title": f"{m.name} on every GPU",
        "footer": _footer(src),
    }
    if not fields:
        return Card(**base, figure="", unit="", lines=("Matrix runs: see the run reports",))
    f = fields[0]
    best = f.headline.best
    mark = site.config.headline_interactivity
    series = tuple(_series(src, site.gpus[g].name, f.summaries[g]) for g in f.gpus[:MODEL_SERIES])
    names = f"{display.plural(len(src.gpus_of(model)), 'GPU')} measured"
    if best is None:
        return _unreached(base, f"No GPU reaches {display.rate(mark)}", names, series, mark)
    row = f.headline.by_gpu[best]
    return Card(
        **base,
        figure=display.tokens(row.throughput_per_gpu),
        unit=f"{display.per_gpu(site.tokens(f.workload))} on {site.gpus[best].name}",
        lines=(_at(src), f"the best of {names}", site.workloads[f.workload].name),
        series=series,
        x_mark=mark,
    )


def compare_card(src: Sources, model: str, a: str, b: str) -> Card:
    site = src.site
    m, ga, gb = site.models[model], site.gpus[a], site.gpus[b]
    sa, sb = _default(src, src.summaries(model, a)), _default(src, src.summaries(model, b))
    base = {
        "site": site.config.title,
        "title": f"{m.name}: {ga.name} vs {gb.name}",
        "footer": _footer(src),
    }
    sides = [(g.name, s) for g, s in ((ga, sa), (gb, sb)) if s is not None]
    series = tuple(_series(src, name, s) for name, s in sides)
    mark = site.config.headline_interactivity
    same = sa is not None and sb is not None and sa.workload == sb.workload
    ta = sa.headline.throughput_per_gpu if sa else None
    tb = sb.headline.throughput_per_gpu if sb else None
    if not same or not ta or not tb:
        return Card(
            **base,
            figure="",
            unit="",
            lines=("Tokens/s per GPU and $ per million tokens", "at every per-user target"),
            series=series,
            x_mark=mark,
        )
    lead, trail, ratio = (ga, gb, ta / tb) if ta >= tb else (gb, ga, tb / ta)
    return Card(
        **base,
        figure=display.ratio(ratio),
        unit=f"{lead.name} over {trail.name}",
        lines=(
            f"{display.per_gpu(sa.tokens)} {_at(src)}",
            f"{ga.name}: {display.tokens(ta)}, {gb.name}: {display.tokens(tb)}",
            site.workloads[sa.workload].name,
        ),
        series=series,
        x_mark=mark,
    )


__all__ = ["IMAGE", "compare_card", "image_path", "model_card", "pair_card"]
