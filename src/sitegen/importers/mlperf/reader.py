"""Reading a results tree result by result: its systems checked, its summaries turned into
configs, its names into slugs, what cannot be imported into warnings."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from ...records import Catalogs, Problem
from ...records.problems import WARNING, plural
from ...records.urls import link_problem
from ..common import Identity, Options, read_result, text, whole
from ..planning import match, unmatched
from .naming import engine_of, gpu_kinds, precision_of
from .summary import LogSummary, parse_summary
from .tree import (
    PERFORMANCE_RUN,
    SUMMARY_FILE,
    SUMMARY_RESULTS,
    Result,
    Tree,
    measured_precision,
    read_json_object,
    results,
    summary_rows,
)

PUBLISHER = "MLCommons"
# generated tokens/s of the whole system: Server and Interactive, Offline
TOKENS = ("Completed tokens per second", "Tokens per second")
CURVE_SCENARIOS = ("Server", "Interactive")  # open-loop scenarios with latencies: points
OFFLINE = "Offline"
ROUND = re.compile(r"v\d+\.\d+")  # a round's version in a folder name: inference_results_v5.1
WHAT_IS_READ = (
    "request_rate = Completed samples per second (requests/s, open loop: no concurrency); "
    "output_throughput_per_gpu = Completed tokens per second (generated tokens only, whole "
    "system) / GPUs; no total-token throughput (MLPerf counts generated tokens only); GPUs = "
    "accelerators_per_node x number_of_nodes of the system JSON; ttft_ms, tpot_ms and e2el_ms "
    "from LoadGen's first token latency, time to output token and latency (ns)"
)


@dataclass(frozen=True)
class System:
    """A system JSON, checked: what every result of the system shares."""

    name: str  # system_name, else the folder name
    gpus: int
    per_node: int
    nodes: int
    gpu: str  # the accelerator as the JSON names it
    framework: str


@dataclass(frozen=True)
class Point:
    """A Server or Interactive result, read: a config and what its record is."""

    result: Result
    config: dict[str, Any]
    identity: Identity
    shared: tuple[str, ...]  # notes that every result of its system and benchmark gives
    own: tuple[str, ...]  # notes of this result alone


def bench_of(result: Result) -> tuple[str, str, str]:
    return result.submitter, result.system, result.benchmark


def _bound(ms: float | None) -> str:
    return "?" if ms is None else f"{ms:g} ms"


def _figure(value: float) -> str:
    return f"{value:.10g}"


class TreeReader:
    """Reads a tree result by result, collecting warnings and the Offline notes."""

    def __init__(self, tree: Tree, options: Options, known: Catalogs) -> None:
        self.tree = tree
        self.options = options
        self.known = known
        self.warnings: list[Problem] = []
        self.rows, why = summary_rows(tree)
        if why:
            self._warn(str(tree.root / SUMMARY_RESULTS), "", f"{why}; read without it")
        self.offline: dict[tuple[str, str, str], tuple[str, ...]] = defaultdict(tuple)
        self.said: set[tuple[str, str]] = set()  # (kind, name) of names said not to match
        self.without_tokens: dict[str, int] = defaultdict(int)

    def _warn(self, file: str, field: str, message: str) -> None:
        self.warnings.append(Problem(file, None, field, message, WARNING))

    def read(self) -> list[Point]:
        by_system: dict[tuple[str, str], list[Result]] = defaultdict(list)
        for result in results(self.tree):
            by_system[(result.submitter, result.system)].append(result)
        points: list[Point] = []
        for found in by_system.values():
            summaries = {r: summary for r in found if (summary := self._summary(r)) is not None}
            if not summaries:  # a system of other benchmarks only is none of our business
                continue
            system = self._system(list(summaries))
            if system is None:
                continue
            for result, summary in summaries.items():
                point = self._result(result, summary, system)
                if point is not None:
                    points.append(point)
        if self.without_tokens:
            names = ", ".join(f"{b} ({n})" for b, n in sorted(self.without_tokens.items()))
            self._warn(
                str(self.tree.root),
                "",
                f"results without token figures (not LLM benchmarks) skipped: {names}",
            )
        return points

    def _summary(self, result: Result) -> LogSummary | None:
        """The result's LoadGen summary, if it is one of an LLM benchmark (with token figures);
        None, said, if it is missing."""
        try:
            raw = read_result(result.summary, follow_links=False).decode("utf-8", "replace")
        except FileNotFoundError:
            where = "/".join((*PERFORMANCE_RUN, SUMMARY_FILE))
            self._warn(str(result.folder), "", f"no {where}: skipped")
            return None
        except OSError as exc:
            message = f"{SUMMARY_FILE} not read ({exc.strerror}): skipped"
            self._warn(str(result.folder), "", message)
            return None
        summary = parse_summary(raw)
        if summary.number(*TOKENS) is None:
            self.without_tokens[result.benchmark] += 1
            return None
        return summary

    # -- a system -----------------------------------------------------------------------------

    def _system(self, found: list[Result]) -> System | None:
        """The system of these results, checked; None (said once) if they cannot be imported."""
        first = found[0]
        file = str(first.system_file)
        skipped = ", ".join(f"{r.benchmark}/{r.scenario}" for r in found)
        tail = f"; the results of {first.system} are skipped ({skipped})"
        obj, why = read_json_object(first.system_file)
        if obj is None:
            self._warn(file, "", f"the system description is {why}{tail}")
            return None
        per_node, nodes = whole(obj.get("accelerators_per_node")), whole(obj.get("number_of_nodes"))
        for name, value in (("accelerators_per_node", per_node), ("number_of_nodes", nodes)):
            if value is None:
                got = "missing" if name not in obj else f"got {obj.get(name)!r}"
                self._warn(file, name, f"{got}; expected a whole number >= 1{tail}")
                return None
        assert per_node is not None and nodes is not None
        gpu = text(obj.get("accelerator_model_name")) or ""
        if gpu_kinds(gpu) > 1:
            message = (
                f'"{gpu}" is {gpu_kinds(gpu)} GPU kinds, and a record is of one GPU; '
                f"its throughput per GPU would mix them{tail}"
            )
            self._warn(file, "accelerator_model_name", message)
            return None
        if self.options.gpu is None and match(gpu, self.known.gpus) is None:
            message = unmatched(gpu, self.known.gpus, "gpus", "--gpu") if gpu else "missing"
            self._warn(file, "accelerator_model_name", message + tail)
            return None
        return System(
            name=text(obj.get("system_name")) or first.system,
            gpus=per_node * nodes,
            per_node=per_node,
            nodes=nodes,
            gpu=gpu,
            framework=text(obj.get("framework")) or "",
        )

    # -- a result ------------------------------------------------------------------------------

    def _result(self, result: Result, summary: LogSummary, system: System) -> Point | None:
        if not summary.valid:
            said = summary.text("Result is") or "not stated"
            self._warn(str(result.folder), "", f"Result is {said} (not VALID): skipped")
            return None
        tokens = summary.number(*TOKENS)
        assert tokens is not None  # _summary keeps only summaries with token figures
        row = self.rows.get(result.location, {})
        self._check_count(result, row, system)
        if result.scenario == OFFLINE:
            self._offline(result, system, tokens)
            return None
        if result.scenario not in CURVE_SCENARIOS:
            return None
        config = self._config(result, summary, system, tokens)
        identity = self._identity(result, row, system)
        if config is None or identity is None:
            return None
        shared, own = self._notes(result, summary, system, row)
        return Point(result, config, identity, shared, own)

    def _check_count(self, result: Result, row: dict, system: System) -> None:
        per_node, nodes = whole(row.get("a#")), whole(row.get("Nodes"))
        if per_node and nodes and per_node * nodes != system.gpus:
            self._warn(
                str(result.folder),
                "",
                f"{SUMMARY_RESULTS} says a# {per_node} x Nodes {nodes} = {per_node * nodes} "
                f"GPUs, the system JSON {system.per_node} x {system.nodes} = {system.gpus}; "
                "the system JSON's count is used",
            )

    def _config(
        self, result: Result, summary: LogSummary, system: System, tokens: float
    ) -> dict[str, Any] | None:
        rate = summary.number("Completed samples per second")
        ttft = summary.latency_ms("first token latency")
        tpot = summary.latency_ms("time to output token")
        missing = [
            name
            for name, value in (
                ("Completed samples per second", rate),
                ("50.00 percentile first token latency (ns)", ttft),
                ("50.00 percentile time to output token (ns)", tpot),
            )
            if not value
        ]
        if missing:
            self._warn(str(result.summary), "", f"no {', '.join(missing)}: skipped")
            return None
        config: dict[str, Any] = {
            "gpus": system.gpus,
            "request_rate": rate,
            "output_throughput_per_gpu": tokens / system.gpus,
            "ttft_ms": ttft,
            "tpot_ms": tpot,
        }
        if e2el := summary.latency_ms("latency"):
            config["e2el_ms"] = e2el
        return config

    def _identity(self, result: Result, row: dict, system: System) -> Identity | None:
        o = self.options
        model = o.model or self._slug(result, result.benchmark, "models", "--model")
        workload = o.workload or self._slug(
            result, f"mlperf-{result.benchmark}", "workloads", "--workload"
        )
        gpu = o.gpu or match(system.gpu, self.known.gpus)
        precision = self._precision(result, row)
        if not (model and workload and gpu and precision):
            return None
        engine, version = engine_of(system.framework or text(row.get("Software")) or "")
        return Identity(
            model=model,
            gpu=gpu,
            engine=engine or None,
            engine_version=version,
            precision=precision,
            workload=workload,
            source=f"MLPerf Inference {self._round(row)}({result.submitter})",
            url=self._url(result, row),
            run=f"{result.submitter}-{result.system}",
        )

    def _slug(self, result: Result, raw: str, kind: str, option: str) -> str | None:
        slug = match(raw, getattr(self.known, kind))
        if slug is None and (kind, raw) not in self.said:
            self.said.add((kind, raw))
            message = unmatched(raw, getattr(self.known, kind), kind, option)
            self._warn(str(result.folder), "", f"{message}: its results are skipped")
        return slug

    def _precision(self, result: Result, row: dict) -> str | None:
        if self.options.precision:
            return self.options.precision
        said = text(row.get("weight_data_types")) or measured_precision(result)
        if said:
            return precision_of(said)
        self._warn(
            str(result.folder),
            "",
            f"no weight_data_types ({SUMMARY_RESULTS} has no row for it, measurements/ no "
            "JSON); give --precision: skipped",
        )
        return None

    def _round(self, row: dict) -> str:
        """`v5.1 ` from the row's `version`, else from the tree's folder name, else ''."""
        version = text(row.get("version"))
        if version is None:
            found = ROUND.search(self.tree.root.resolve().name)
            version = found.group(0) if found else None
        return f"{version} " if version else ""

    def _url(self, result: Result, row: dict) -> str | None:
        url = text(row.get("Details"))
        if url and (why := link_problem(url)):
            self._warn(str(result.folder), "Details", f"left out of the record: expected {why}")
            return None
        return url

    # -- notes ---------------------------------------------------------------------------------

    def _notes(
        self, result: Result, summary: LogSummary, system: System, row: dict
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(notes every result of the system and benchmark gives, this result's own)."""
        version = self._round(row).strip()
        software = system.framework or text(row.get("Software")) or "not stated"
        ttft, tpot = summary.bound_ms("ttft_latency"), summary.bound_ms("tpot_latency")
        bounds = (
            f"{result.scenario} bounds of {result.benchmark} (99th percentile): "
            f"TTFT {_bound(ttft)}, TPOT {_bound(tpot)}"
        )
        shared = (
            f"MLPerf Inference {version + ' ' if version else ''}{result.division} division, "
            f"benchmark {result.benchmark}, submitted by {result.submitter}: credit "
            f"{PUBLISHER} and {result.submitter}",
            f"system {system.name} ({result.system}): {system.gpu}, {system.per_node} per node "
            f"x {plural(system.nodes, 'node')} = {system.gpus} GPUs; software {software}",
            f"system file {result.division}/{result.submitter}/systems/{result.system}.json",
        )
        return shared, (bounds, f"result {result.location} (LoadGen {SUMMARY_FILE})")

    def _offline(self, result: Result, system: System, tokens: float) -> None:
        note = (
            f"Offline ({result.benchmark}, {result.location}): {_figure(tokens)} output "
            f"tokens/s for the system, {_figure(tokens / system.gpus)} per GPU; Offline "
            "has no latency, so it is no point of the curve"
        )
        key = bench_of(result)
        self.offline[key] = (*self.offline[key], note)
