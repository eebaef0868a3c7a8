"""LoadGen's `mlperf_log_summary.txt`: `name : value` lines -> the figures one result gives."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..common import positive

# `Completed tokens per second: 18592.24`, `50.00 percentile first token latency (ns)   : 6858`
LINE = re.compile(r"^\s*(?P<name>[^:\n]*?)\s*:\s*(?P<value>.*?)\s*$", re.MULTILINE)
NS_PER_MS = 1e6  # divided by, so that 726163084 ns is 726.163084 ms, not 726.1630839999999


@dataclass(frozen=True)
class LogSummary:
    """What one summary says, by LoadGen's own names (the first line of each name counts)."""

    values: dict[str, str]

    def text(self, name: str) -> str | None:
        return self.values.get(name.lower())

    def number(self, *names: str) -> float | None:
        """The first of `names` the summary has, as a number > 0 (None if none is)."""
        for name in names:
            if (value := positive(self.text(name))) is not None:
                return value
        return None

    @property
    def valid(self) -> bool:
        return (self.text("Result is") or "").upper() == "VALID"

    def latency_ms(self, what: str) -> dict[str, float]:
        """A latency mapping (ms) from `Mean <what> (ns)` and its 50/90/99th percentiles."""
        figures = {
            "median": self.number(f"50.00 percentile {what} (ns)"),
            "mean": self.number(f"Mean {what} (ns)"),
            "p90": self.number(f"90.00 percentile {what} (ns)"),
            "p99": self.number(f"99.00 percentile {what} (ns)"),
        }
        if figures["median"] is None:
            return {}
        return {k: v / NS_PER_MS for k, v in figures.items() if v is not None}

    def bound_ms(self, name: str) -> float | None:
        """A scenario's latency bound, `ttft_latency (ns)` or `tpot_latency (ns)`, in ms."""
        value = self.number(f"{name} (ns)")
        return None if value is None else value / NS_PER_MS


def parse_summary(text: str) -> LogSummary:
    """Every `name : value` line of a summary, names lower-cased; the first of a name wins
    (`Completed tokens per second` is written twice, with one value)."""
    values: dict[str, str] = {}
    for match in LINE.finditer(text):
        values.setdefault(match["name"].lower(), match["value"])
    return LogSummary(values)
