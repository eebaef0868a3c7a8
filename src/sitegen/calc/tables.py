"""numpy: run records -> one summary per model x GPU x workload, ready for pages and JSON."""

from __future__ import annotations

import bisect
import dataclasses
import datetime as dt
import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..records import OUTPUT, TOTAL, Site, SweepRun
from ..records.columnar import ConfigTable, run_rows
from . import energy, frontier, limits
from .energy import Energy, Power

Frontier = tuple[frontier.Point, ...]
CurveKey = tuple[str, str, str, str, str]  # model, gpu, workload, engine, precision
Reader = Callable[[float], float | None]  # frontier.reader: a curve's value at a target


@dataclass(frozen=True)
class LadderRow:
    target: float
    throughput_per_gpu: float | None
    engine: str | None
    precision: str | None
    # tier -> $ per million tokens; None when the GPU has no price or the rung no value
    cost_per_million_tokens: dict[str, float] | None
    energy: Energy | None = None  # None where no power is known or the rung has no value
    # tier -> $ per million input (output) tokens, the whole GPU-hour charged to them; None
    # also where the workload's input or output length is unknown (docs/pages.md, "Costs")
    cost_per_million_input_tokens: dict[str, float] | None = None
    cost_per_million_output_tokens: dict[str, float] | None = None
    # the measured config the rung reads: run, concurrency, gpus, interactivity,
    # throughput_per_gpu, mbu (SITE.md); None where the rung has no value
    reads: dict | None = None
    spread: dict | None = None  # n, min, max, days of the curve's runs; None under two


@dataclass(frozen=True)
class HistoryPoint:
    date: dt.date
    throughput_per_gpu: float | None  # at the headline target; None if unreachable that day
    run_ids: tuple[str, ...]


@dataclass(frozen=True)
class CurveRung:
    """One curve's own value at a target of the ladder, and the power behind it."""

    target: float
    throughput_per_gpu: float | None
    power: Power | None  # None where unreached or no power is known
    reads: dict | None = None  # the config read (LadderRow.reads)
    spread: dict | None = None  # LadderRow.spread


@dataclass(frozen=True)
class CurveSummary:
    """One engine x precision of a summary. Its points (every ok config of its current runs)
    are read from the site's config table when a page asks for them, not kept: they were
    half of a big site's summaries' memory, and only the pair's own page shows them."""

    engine: str
    precision: str
    frontier: tuple[frontier.Point, ...]
    point_rows: tuple[int, ...] = ()  # each point's row in the site's config table
    point_runs: tuple[str, ...] = ()  # each point's run id
    point_dates: tuple[str, ...] = ()  # each point's run date, ISO
    history: tuple[HistoryPoint, ...] = ()
    frontier_power_w: tuple[float | None, ...] = ()  # measured power of each frontier point
    rungs: tuple[CurveRung, ...] = ()  # at each of rung_targets(site)
    table: ConfigTable | None = field(default=None, compare=False, repr=False)
    # what MBU reads of the catalogs for this curve, or the field it lacks
    basis: limits.Basis | str | None = field(default=None, compare=False, repr=False)
    tokens: str = TOTAL  # what its throughput counts: "total" or "output" tokens
    sources: tuple[str, ...] = ()  # who measured its current runs, sorted

    @property
    def points(self) -> list[dict]:
        """The points as data.json lists them, in the summary's order."""
        if self.table is None or not self.point_rows:
            return []
        mbu = mbu_of(self.table, self.point_rows, self.engine, self.basis)
        return point_dicts(self.table, self.point_rows, self.point_runs, mbu, self.tokens)


def throughput_column(tokens: str) -> str:
    """The table column a throughput counting `tokens` is read from."""
    return "output_throughput_per_gpu" if tokens == OUTPUT else "throughput_per_gpu"


def laddered(
    table: ConfigTable,
    sweeps: Sequence[SweepRun],
    rows: np.ndarray,
    lengths: np.ndarray,
    output_workloads: frozenset[str],
) -> np.ndarray:
    """The throughput per GPU that ranks each config at table `rows` (of `sweeps`, `lengths`
    configs each): output tokens/s in the workloads counted in output tokens, else total."""
    columns = table.columns
    throughput = columns["throughput_per_gpu"][rows]
    if not output_workloads:
        return throughput
    counted = np.array([r.workload in output_workloads for r in sweeps], dtype=bool)
    output = np.repeat(counted, lengths)
    return np.where(output, columns["output_throughput_per_gpu"][rows], throughput)


def whole(values: np.ndarray) -> list[int | None]:
    """An integer column's values as Python ints, None where absent (NaN)."""
    return [None if v != v else int(v) for v in values.tolist()]


def point_dicts(
    table: ConfigTable,
    rows: Sequence[int],
    runs: Sequence[str],
    mbu: Sequence[tuple[float | None, str | None]] | None = None,
    tokens: str = TOTAL,
) -> list[dict]:
    """The configs at table `rows` (of runs `runs`) as points: the same numbers, by the same
    float operations, as the summary's order computed them; with `mbu` (mbu_of), each its MBU
    or why it has none. `throughput_per_gpu` counts `tokens`; an open-loop config has no
    concurrency (None) and its `request_rate`."""
    at = np.asarray(rows, dtype=np.int64)
    columns = table.columns
    tpot = columns["tpot_ms"][at]
    rates = columns["request_rate"][at]
    points = [
        {
            "interactivity": x,
            "throughput_per_gpu": y,
            "concurrency": concurrency,
            "gpus": gpus,
            "tp": None if tp != tp else int(tp),
            "ttft_ms": ttft,
            "tpot_ms": tpot_ms,
            "run": run,
        }
        for x, y, concurrency, gpus, tp, ttft, tpot_ms, run in zip(
            (1000.0 / tpot).tolist(),  # as SweepConfig's: NaN without TPOT
            columns[throughput_column(tokens)][at].tolist(),
            whole(columns["concurrency"][at]),
            columns["gpus"][at].astype(np.int64).tolist(),
            columns["tp"][at].tolist(),
            columns["ttft_ms"][at].tolist(),
            tpot.tolist(),
            runs,
            strict=True,
        )
    ]
    if not np.isnan(rates).all():
        for point, rate in zip(points, rates.tolist(), strict=True):
            if rate == rate:
                point["request_rate"] = rate
    if mbu is not None:
        for point, (value, missing) in zip(points, mbu, strict=True):
            point["mbu"] = value
            if missing is not None:
                point["mbu_missing"] = missing
    return points


def mbu_of(
    table: ConfigTable, rows: Sequence[int], engine: str, basis: limits.Basis | str | None
) -> list[tuple[float | None, str | None]]:
    """(MBU, None) or (None, why none) of the configs at table `rows`, all of one curve."""
    if basis is None:
        return [(None, None)] * len(rows)
    values = table.values(rows, limits.LAYOUT_FIELDS)
    return [limits.mbu(basis, engine, layout) for layout in limits.layouts(values)]


@dataclass(frozen=True)
class WorkloadSummary:
    """What a model x GPU page says about one workload."""

    model: str
    gpu: str
    workload: str
    configs: int
    engines: tuple[str, ...]
    precisions: tuple[str, ...]
    first_date: dt.date
    last_date: dt.date
    peak_throughput_per_gpu: float
    ladder: tuple[LadderRow, ...]
    curves: tuple[CurveSummary, ...]
    headline: LadderRow
    headline_config: dict | None  # the measured config quoted beside the headline
    fastest_ttft: dict
    fastest_tpot: dict
    failed: tuple[dict, ...]
    current_runs: tuple[str, ...]
    older_runs: tuple[str, ...] = field(default=())
    # the bandwidth limit for the headline config's GPUs, or None and why (SITE.md)
    limit: limits.Limit | None = None
    limit_missing: str | None = None
    tokens: str = TOTAL  # what every throughput, cost and energy figure counts
    sources: tuple[str, ...] = ()  # who measured the current runs, sorted


class _Configs:
    """Every sweep config of a site in summary order, as numpy columns (one item a config).

    The order: curve (model, GPU, workload, engine, precision), run date, ok before failed,
    interactivity, throughput, then the site's own (runs by date and id, configs as recorded).
    A span's values become Python objects only when a summary reads them (`values`): the
    columns of half a million configs as lists were half of summarising a big site, making
    them and freeing them.
    """

    def __init__(
        self, sweeps: list[SweepRun], table: ConfigTable, output_workloads: frozenset[str]
    ) -> None:
        rows, lengths, index = run_rows(sweeps)
        run = np.repeat(np.arange(len(sweeps)), lengths)
        self.day_keys, day_of_run = day_ranks(sweeps)
        columns = table.columns
        failed = columns["status"][rows] != "ok"
        group = day_of_run[run] * 2 + failed  # a curve's date, its ok configs before the failed
        interactivity = 1000.0 / columns["tpot_ms"][rows]  # as SweepConfig's: NaN without TPOT
        throughput = laddered(table, sweeps, rows, lengths, output_workloads)
        order = np.lexsort((throughput, interactivity, group))  # stable
        group = group[order]
        starts = np.concatenate(([0], np.flatnonzero(group[1:] != group[:-1]) + 1))
        edges = [*starts.tolist(), len(group)]
        # the configs on their span's Pareto frontier: their points, and each span's share
        on = np.flatnonzero(beats_the_rest(throughput[order], starts))
        self._front_x = interactivity[order][on].tolist()
        self._front_y = throughput[order][on].tolist()
        self._spans = (group[starts].tolist(), edges, np.searchsorted(on, edges).tolist())
        self.sweeps = sweeps
        self.table = table
        self._day_runs = _runs_by_day(sweeps, lengths, day_of_run, len(self.day_keys))
        self._run = run[order]  # each config's sweep, as its position in `sweeps`
        self._ids = np.empty(len(sweeps), dtype=object)
        self._ids[:] = [r.id for r in sweeps]
        self._sources = {r.id: r.source for r in sweeps}
        taken = rows[order]
        power_w = columns["power_w"][taken]
        self._columns = {
            "table_rows": taken,
            "indices": index[order],
            "interactivity": interactivity[order],
            "throughput_per_gpu": throughput[order],
            "concurrency": columns["concurrency"][taken],  # NaN where open loop
            "request_rate": columns["request_rate"][taken],  # NaN where closed loop
            "gpus": columns["gpus"][taken].astype(np.int64),
            "ttft_ms": columns["ttft_ms"][taken],
            "tpot_ms": columns["tpot_ms"][taken],
            "power_w": power_w,  # NaN where not measured
        }
        self._measured = np.flatnonzero(~np.isnan(power_w))  # where it is, ascending

    def values(self, name: str, span: range) -> list:
        """Column `name` of the configs at positions `span`, as Python numbers."""
        return self._columns[name][span.start : span.stop].tolist()

    def value(self, name: str, at: int) -> Any:
        """Column `name` of the config at position `at`, as a Python number."""
        return self._columns[name][at].item()

    def load(self, at: int) -> dict:
        """The load of the config at position `at`: its concurrency (None where open loop)
        and, where it has one, its request rate."""
        concurrency, rate = self.value("concurrency", at), self.value("request_rate", at)
        load: dict[str, Any] = {
            "concurrency": None if concurrency != concurrency else int(concurrency)
        }
        if rate == rate:
            load["request_rate"] = rate
        return load

    def run_ids(self, span: range) -> list[str]:
        """The run id of each config at positions `span`."""
        return self._ids[self._run[span.start : span.stop]].tolist()

    def run_id(self, at: int) -> str:
        return self._ids[self._run[at]]

    def source_of(self, run_id: str) -> str:
        """Who measured the run `run_id`."""
        return self._sources[run_id]

    def day_runs(self, rank: int) -> tuple[str, ...]:
        """The ids of the runs with configs on the (curve, date) of `rank`, sorted."""
        return self._day_runs[rank]

    def sweep(self, at: int) -> SweepRun:
        """The run of the config at position `at`."""
        return self.sweeps[self._run[at]]

    def spans(self) -> Iterator[tuple[int, bool, range, range]]:
        """(day rank, ok, positions, frontier points) of each of a curve's dates' ok configs
        and its failed ones; the frontier's points index `_front_x` and `_front_y`."""
        groups, edges, fronts = self._spans
        for i, group in enumerate(groups):
            yield (
                group // 2,
                group % 2 == 0,
                range(edges[i], edges[i + 1]),
                range(fronts[i], fronts[i + 1]),
            )

    def frontier(self, points: range) -> Frontier:
        """The Pareto frontier of a span's configs, from the points on it (a span's `front`)."""
        xs, ys = self._front_x, self._front_y
        return frontier.pareto_frontier(
            map(frontier.Point, xs[points.start : points.stop], ys[points.start : points.stop])
        )

    def first_at(self, span: range, point: frontier.Point) -> int:
        """The position of the first config of `span` at `point` (a point of its frontier)."""
        columns = self._columns
        xs = columns["interactivity"][span.start : span.stop]
        ys = columns["throughput_per_gpu"][span.start : span.stop]
        same = (xs == point.interactivity) & (ys == point.throughput_per_gpu)
        return span.start + int(np.flatnonzero(same)[0])

    def frontier_power(self, front: Frontier, span: range) -> tuple:
        """The measured power per GPU of each frontier point (the first config at that point)."""
        on = self._measured
        measured = on[np.searchsorted(on, span.start) : np.searchsorted(on, span.stop)]
        columns = self._columns
        xs = columns["interactivity"][measured].tolist()
        ys = columns["throughput_per_gpu"][measured].tolist()
        watts = columns["power_w"][measured].tolist()
        power: dict[tuple[float, float], float] = {}
        for x, y, w in zip(xs, ys, watts, strict=True):
            power.setdefault((x, y), w)
        return tuple(power.get((p.interactivity, p.throughput_per_gpu)) for p in front)


def _runs_by_day(
    sweeps: list[SweepRun], lengths: np.ndarray, day_of_run: np.ndarray, days: int
) -> list[tuple[str, ...]]:
    """For each (curve, date) rank, the ids of its sweeps that have configs, sorted."""
    found: list[set[str]] = [set() for _ in range(days)]
    for sweep, length, rank in zip(sweeps, lengths.tolist(), day_of_run.tolist(), strict=True):
        if length:
            found[rank].add(sweep.id)
    return [tuple(sorted(ids)) for ids in found]


def beats_the_rest(values: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Whether each value is above every later value of its span (spans begin at `starts`).

    Where a span's points are sorted by interactivity, then throughput, the throughputs that
    beat the rest are exactly its Pareto frontier (of equal points, one).
    """
    n = len(values)
    span = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, n)))
    best = running_max(values[::-1], span[::-1])
    before = np.concatenate(([-np.inf], best[:-1]))  # the best of the values after each
    before[n - np.append(starts[1:], n)] = -np.inf  # a span's last value: nothing after it
    return (values[::-1] > before)[::-1]


def running_max(values: np.ndarray, group: np.ndarray) -> np.ndarray:
    """Each value's maximum with those before it in its group (groups are runs of equal
    `group`), NaN skipped and kept where it stands: the values of pandas'
    groupby(group).cummax() (a zero's sign aside), in numpy alone: pandas is imported only
    where a build needs it, and a one-edit build's summaries do not."""
    nan = np.isnan(values)
    best = np.where(nan, -np.inf, values)
    step = 1
    while step < len(best):  # each value takes the best of the 2**k before it in its group
        same = group[step:] == group[:-step]
        if not same.any():
            break
        np.maximum(best[step:], np.where(same, best[:-step], -np.inf), out=best[step:])
        step *= 2
    best[nan] = np.nan
    return best


def day_ranks(sweeps: Sequence[SweepRun]) -> tuple[list[tuple[CurveKey, dt.date]], np.ndarray]:
    """The (curve, date) of the sweeps, sorted, and each sweep's as its rank among them."""
    keys = [((r.model, r.gpu, r.workload, r.engine, r.precision), r.date) for r in sweeps]
    ranked = sorted(set(keys))
    rank = {key: i for i, key in enumerate(ranked)}
    return ranked, np.array([rank[key] for key in keys], dtype=np.int64)


@dataclass(frozen=True)
class _Day:
    """The configs of one curve's runs of one date, as positions in the summary order."""

    date: dt.date
    ok: range
    failed: range
    front: range  # the points of the ok configs' frontier (_Configs.frontier)
    runs: tuple[str, ...]  # the day's run ids, sorted


@dataclass(frozen=True)
class _Curve:
    key: CurveKey
    days: tuple[_Day, ...]  # by date; the last holds the curve's current runs

    @property
    def now(self) -> _Day:
        return self.days[-1]


def _days(configs: _Configs) -> Iterator[tuple[CurveKey, _Day]]:
    """Each curve's dates with their configs, in the order of the curve keys, then dates."""
    for rank, spans in itertools.groupby(configs.spans(), key=lambda span: span[0]):
        key, date = configs.day_keys[rank]
        ok = failed = front = range(0)
        for _, good, span, points in spans:
            if good:
                ok, front = span, points
            else:
                failed = span
        yield key, _Day(date, ok, failed, front, configs.day_runs(rank))


def _curves(configs: _Configs) -> Iterator[_Curve]:
    """Each curve of the site with its days, in the order of the curve keys."""
    for key, days in itertools.groupby(_days(configs), key=lambda day: day[0]):
        yield _Curve(key, tuple(day for _, day in days))


PENDING = "?"  # a quote's parallelism until _Quoting.label fills it in


class _Quoting:
    """Turns configs into what a page quotes. The parallelism label comes from the config
    itself: quotes are made with it pending, and `label` makes their configs all at once."""

    def __init__(self, site: Site, configs: _Configs) -> None:
        self.table = site.table
        self.tokens = site.tokens  # what a workload's throughputs count
        self.configs = configs
        self.pending: list[tuple[dict, int]] = []

    def _later(self, quote: dict, at: int) -> dict:
        self.pending.append((quote, self.configs.value("table_rows", at)))
        return quote

    def config(self, at: int) -> dict:
        """A config as the page quotes it: its point, and where it comes from."""
        configs = self.configs
        row = configs.value("table_rows", at)
        sweep = self.configs.sweep(at)
        tokens = self.tokens(sweep.workload)
        (point,) = point_dicts(configs.table, [row], [configs.run_id(at)], tokens=tokens)
        quote = dict(
            point,
            engine=sweep.engine,
            precision=sweep.precision,
            parallelism=PENDING,
            date=sweep.date,
            index=configs.value("indices", at),
        )
        return self._later(quote, at)

    def failed(self, at: int) -> dict:
        c, sweep = self.configs, self.configs.sweep(at)
        quote = {
            "run": sweep.id,
            "engine": sweep.engine,
            "precision": sweep.precision,
            "parallelism": PENDING,
            "index": c.value("indices", at),
            **c.load(at),
            "gpus": c.value("gpus", at),
        }
        return self._later(quote, at)

    def label(self) -> None:
        """Fill in the parallelism of every pending quote from its config, made from the table."""
        if self.pending:
            made = self.table.at([row for _, row in self.pending])
            for (quote, _), config in zip(self.pending, made, strict=True):
                quote["parallelism"] = config.parallelism
        self.pending = []


class _Rungs:
    """Turns a curve's value at a target into what a ladder row says: the cost at every tier,
    split into input and output where the workload's lengths are known, and the energy."""

    def __init__(self, site: Site, gpu: str, workload: str) -> None:
        self.tokens = site.tokens(workload)
        prices = site.pricing.for_gpu(gpu)
        self.prices = [(t.slug, prices[t.slug]) for t in site.pricing.tiers if t.slug in prices]
        self.all_in = energy.all_in(site.gpus[gpu].all_in_power_kw)
        self.method = site.config.frontier_method
        self.spread_days = site.config.spread_days
        lengths = site.workloads[workload]
        self.catalogs = (site.models, site.gpus[gpu], lengths)
        isl, osl = lengths.isl, lengths.osl
        # the shares of input and of output tokens in the total that throughput counts
        self.shares = (isl / (isl + osl), osl / (isl + osl)) if isl and osl else None

    def cost(self, throughput: float | None, share: float = 1.0) -> dict[str, float] | None:
        if throughput is None or not self.prices:
            return None
        return {
            tier: frontier.cost_per_million_tokens(price, throughput * share)
            for tier, price in self.prices
        }

    def basis(self, model: str, precision: str) -> limits.Basis | str:
        models, gpu, workload = self.catalogs
        return limits.basis(models[model], gpu, workload, precision)

    def curve_rungs(
        self,
        front: Frontier,
        power_w: tuple,
        read: Reader,
        targets: list[float],
        reads: Sequence[dict | None],
        spreads: Sequence[dict | None],
    ) -> tuple[CurveRung, ...]:
        """A curve's value at each target (`read`: frontier.reader of `front`), the power
        behind it (measured where the points read have it, power_w, else the all-in figure),
        the config each target reads and the spread of its runs."""
        measured = any(w is not None for w in power_w)
        rungs = []
        for target, read_config, spread in zip(targets, reads, spreads, strict=True):
            value = read(target)
            power = None
            if value is not None:
                power = self.power(front, power_w, target) if measured else self.all_in
            rungs.append(CurveRung(target, value, power, read_config, spread))
        return tuple(rungs)

    def power(self, front: Frontier, power_w: tuple, target: float) -> Power | None:
        watts = energy.power_at(front, power_w, target, self.method)
        return energy.measured(watts) if watts is not None else self.all_in

    def row(self, rung: frontier.Rung, of_curve: CurveRung | None) -> LadderRow:
        """The ladder row of `rung`, with the power, config read and spread of the curve it
        is read from."""
        power = of_curve.power if of_curve else None
        throughput = rung.throughput_per_gpu
        split = self.shares if throughput is not None else None
        if self.tokens == OUTPUT:  # throughput counts output tokens alone: no input share
            per_input, per_output = None, self.cost(throughput)
        else:
            per_input = self.cost(throughput, split[0]) if split else None
            per_output = self.cost(throughput, split[1]) if split else None
        return LadderRow(
            rung.target,
            throughput,
            rung.engine,
            rung.precision,
            self.cost(throughput),
            energy.energy(throughput, power) if power and throughput else None,
            per_input,
            per_output,
            of_curve.reads if of_curve else None,
            of_curve.spread if of_curve else None,
        )


def _best_row(make: _Rungs, curves: dict, targets: list[float], target: float) -> LadderRow:
    """The ladder row at `target` from the curves' own rungs, as frontier.best_at picks it."""
    i = targets.index(target)
    values = ((c.engine, c.precision, c.rungs[i].throughput_per_gpu) for c in curves.values())
    best = frontier.best_of(target, values)
    curve = curves.get((best.engine, best.precision))
    return make.row(best, curve.rungs[i] if curve else None)


def rung_targets(site: Site) -> list[float]:
    """The ladder's targets and the headline's, sorted: where each curve is read on its own."""
    config = site.config
    return sorted({*config.targets, config.headline_interactivity})


def _headline_row(configs: _Configs, span: range, target: float) -> int | None:
    """The measured config that carries the headline: the highest throughput meeting the target."""
    xs = configs.values("interactivity", span)
    ys = configs.values("throughput_per_gpu", span)
    meeting = [i for i, x in enumerate(xs) if x >= target]
    if not meeting:
        return None
    return span.start + max(meeting, key=lambda i: (ys[i], xs[i]))


def _fastest(configs: _Configs, spans: list[range], latency: str) -> int:
    """The config of the lowest latency (column `latency`) among `spans`; ties to the lowest
    run id, then index."""
    values = [(span, configs.values(latency, span)) for span in spans]
    least = min(min(span_values) for _, span_values in values)
    tied = [span.start + i for span, vs in values for i, v in enumerate(vs) if v == least]
    return min(tied, key=lambda at: (configs.run_id(at), configs.value("indices", at)))


def _reads(
    configs: _Configs,
    front: Frontier,
    span: range,
    engine: str,
    basis: limits.Basis | str,
    targets: list[float],
) -> list[tuple[dict, int] | None]:
    """At each target, the measured config a rung of this curve reads: the config (the first
    at its point) of the frontier point with the lowest interactivity at or above the target,
    and its row in the config table."""
    xs = [p.interactivity for p in front]
    at = [bisect.bisect_left(xs, target) for target in targets]
    wanted = sorted({j for j in at if j < len(front)})
    positions = [configs.first_at(span, front[j]) for j in wanted]
    rows = [configs.value("table_rows", position) for position in positions]
    found: dict[int, tuple[dict, int]] = {}
    for j, position, row, (mbu, missing) in zip(
        wanted, positions, rows, mbu_of(configs.table, rows, engine, basis), strict=True
    ):
        read = {
            "run": configs.run_id(position),
            **configs.load(position),
            "gpus": configs.value("gpus", position),
            "interactivity": front[j].interactivity,
            "throughput_per_gpu": front[j].throughput_per_gpu,
            "mbu": mbu,
        }
        if missing is not None:
            read["mbu_missing"] = missing
        found[j] = (read, row)
    return [found.get(j) for j in at]


def _spreads(
    configs: _Configs, curve: _Curve, fronts: list[Frontier], make: _Rungs, targets: list
) -> list[dict | None]:
    """At each target, the curve's value computed from each of its runs dated within
    spread_days of its latest, one run at a time: n, min, max (None under two values)."""
    latest = curve.now.date
    values: list[list[float]] = [[] for _ in targets]
    for day, front in zip(curve.days, fronts, strict=True):
        if (latest - day.date).days > make.spread_days:
            continue
        if len(day.runs) == 1:
            run_fronts = [front]
        else:
            xs = configs.values("interactivity", day.ok)
            ys = configs.values("throughput_per_gpu", day.ok)
            runs = configs.run_ids(day.ok)
            run_fronts = [
                frontier.pareto_frontier(
                    frontier.Point(x, y) for x, y, r in zip(xs, ys, runs, strict=True) if r == run
                )
                for run in day.runs
            ]
        for run_front in run_fronts:
            read = frontier.reader(run_front, make.method)
            for i, target in enumerate(targets):
                value = read(target)
                if value is not None:
                    values[i].append(value)
    return [
        {"n": len(vs), "min": min(vs), "max": max(vs), "days": make.spread_days}
        if len(vs) >= 2
        else None
        for vs in values
    ]


def _curve_summary(
    configs: _Configs, curve: _Curve, make: _Rungs, targets: list[float], headline: float
) -> tuple[CurveSummary, list[int | None]]:
    """One engine x precision: its current points and frontier, and its value on every date;
    and the table row of the config each target reads."""
    fronts = [configs.frontier(day.front) for day in curve.days]
    read = frontier.reader(fronts[-1], make.method)  # value_at of the current frontier
    values = [frontier.value_at(f, headline, make.method) for f in fronts[:-1]] + [read(headline)]
    history = tuple(
        HistoryPoint(day.date, value, day.runs)
        for day, value in zip(curve.days, values, strict=True)
    )
    now, front = curve.now, fronts[-1]
    model, engine, precision = curve.key[0], curve.key[3], curve.key[4]
    basis = make.basis(model, precision)
    power_w = configs.frontier_power(front, now.ok)
    reads = _reads(configs, front, now.ok, engine, basis, targets)
    spreads = _spreads(configs, curve, fronts, make, targets)
    rows = [read[1] if read else None for read in reads]
    summary = CurveSummary(
        *curve.key[3:],
        front,
        point_rows=tuple(configs.values("table_rows", now.ok)),
        point_runs=tuple(configs.run_ids(now.ok)),
        point_dates=(now.date.isoformat(),) * len(now.ok),
        history=history,
        frontier_power_w=power_w,
        rungs=make.curve_rungs(
            front, power_w, read, targets, [r[0] if r else None for r in reads], spreads
        ),
        table=configs.table,
        basis=basis,
        tokens=make.tokens,
        sources=_sources(configs, now.runs),
    )
    return summary, rows


def _sources(configs: _Configs, runs: Sequence[str]) -> tuple[str, ...]:
    """Who measured `runs` (ids), sorted."""
    return tuple(sorted({configs.source_of(run) for run in runs}))


def summarise_workload(
    site: Site, configs: _Configs, curves: list[_Curve], quote: _Quoting
) -> WorkloadSummary | None:
    """One model x GPU x workload from its curves (current runs and older)."""
    model, gpu, workload = curves[0].key[:3]
    config = site.config
    live = [c for c in curves if c.now.ok]  # curves with ok configs in their current runs
    if not live:
        return None
    make = _Rungs(site, gpu, workload)
    targets = rung_targets(site)
    headline = config.headline_interactivity
    made = {c.key[3:]: _curve_summary(configs, c, make, targets, headline) for c in live}
    summaries = {key: curve for key, (curve, _) in made.items()}
    ladder = [_best_row(make, summaries, targets, t) for t in sorted(config.targets)]
    head = _best_row(make, summaries, targets, headline)
    rows = made.get((head.engine, head.precision), (None, []))[1]
    row = rows[targets.index(headline)] if rows else None
    limit, limit_missing = _limit(configs, summaries, targets, head, row, live, make.tokens)
    headline_config = None
    if head.engine is not None:
        (on_curve,) = (c for c in live if c.key[3:] == (head.engine, head.precision))
        at = _headline_row(configs, on_curve.now.ok, headline)
        headline_config = quote.config(at) if at is not None else None
    ok = [c.now.ok for c in live]
    dates = [c.now.date for c in curves]
    current = {run for c in curves for run in c.now.runs}
    every = {run for c in curves for day in c.days for run in day.runs}
    return WorkloadSummary(
        model=model,
        gpu=gpu,
        workload=workload,
        configs=sum(map(len, ok)),
        engines=tuple(sorted({c.key[3] for c in live})),
        precisions=tuple(sorted({c.key[4] for c in live})),
        first_date=min(dates),
        last_date=max(dates),
        peak_throughput_per_gpu=max(max(configs.values("throughput_per_gpu", s)) for s in ok),
        ladder=tuple(ladder),
        curves=tuple(summaries.values()),
        headline=head,
        headline_config=headline_config,
        fastest_ttft=quote.config(_fastest(configs, ok, "ttft_ms")),
        fastest_tpot=quote.config(_fastest(configs, ok, "tpot_ms")),
        failed=tuple(quote.failed(at) for c in curves for at in c.now.failed),
        current_runs=tuple(sorted(current)),
        older_runs=tuple(sorted(every - current)),
        limit=limit,
        limit_missing=limit_missing,
        tokens=make.tokens,
        sources=tuple(sorted({s for c in summaries.values() for s in c.sources})),
    )


def _limit(
    configs: _Configs,
    summaries: dict,
    targets: list[float],
    head: LadderRow,
    row: int | None,
    live: list[_Curve],
    tokens: str,
) -> tuple[limits.Limit | None, str | None]:
    """The bandwidth limit for the GPUs of the config the headline reads (at table `row`),
    from the slowest point or target, or None and why: `headline` where nothing reaches it,
    else the missing catalog field."""
    curve = summaries.get((head.engine, head.precision))
    if curve is None or row is None:
        return None, "headline"
    if isinstance(curve.basis, str):
        return None, curve.basis
    table = configs.table.columns
    decode_gpus = table["decode_gpus"][row]
    gpus = int(decode_gpus if decode_gpus == decode_gpus else table["gpus"][row])
    slowest = min(targets[0], *(min(configs.values("interactivity", c.now.ok)) for c in live))
    basis = curve.basis
    if tokens == OUTPUT:  # its line counts output tokens, as the ladder does
        basis = dataclasses.replace(basis, total_per_output=1.0)
    return limits.limit(basis, gpus, slowest), None


def _workloads(configs: _Configs) -> Iterator[list[_Curve]]:
    """The curves of each model x GPU x workload, in the order of their keys."""
    for _, curves in itertools.groupby(_curves(configs), key=lambda curve: curve.key[:3]):
        yield list(curves)


def summarise(site: Site) -> dict[tuple[str, str], list[WorkloadSummary]]:
    """(model, gpu) -> its workloads' summaries, the default workload first.

    numpy orders every config once (by curve, date, status and point); each model x GPU x
    workload is then assembled from spans of that order, Python objects made only for what
    the summary holds.
    """
    sweeps = site.sweeps
    pairs: dict[tuple[str, str], list[WorkloadSummary]] = {}
    if not sweeps or site.table is None or not any(len(r.configs) for r in sweeps):
        return pairs
    configs = _Configs(sweeps, site.table, site.output_workloads)
    quote = _Quoting(site, configs)
    for curves in _workloads(configs):
        summary = summarise_workload(site, configs, curves, quote)
        if summary is not None:
            pairs.setdefault((summary.model, summary.gpu), []).append(summary)
    quote.label()
    default = site.config.default_workload
    for summaries in pairs.values():
        summaries.sort(key=lambda s: (s.workload != default, s.workload))
    return pairs
