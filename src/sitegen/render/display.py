"""How numbers read on a page: rounded for display only, always with their unit."""

from __future__ import annotations

import functools
import math

from ..records import OUTPUT
from ..records.credits import families
from ..records.problems import plural  # noqa: F401 - the pages write counts as messages do

DASH = "-"

_ENGINE_WORDS = {
    "sglang": "SGLang",
    "vllm": "vLLM",
    "trt": "TRT",
    "trtllm": "TensorRT-LLM",
    "tensorrt": "TensorRT",
    "llm": "LLM",
    "dynamo": "Dynamo",
    "tgi": "TGI",
    "lmdeploy": "LMDeploy",
    "mtp": "MTP",
    "eagle": "EAGLE",
    "eagle3": "EAGLE3",
    "llamacpp": "llama.cpp",
    "mlc": "MLC",
    "atom": "ATOM",
    "sd": "SD",
}
_SPEC_METHODS = {"mtp", "eagle", "eagle3", "ngram", "medusa"}


def _missing(value: float | None) -> bool:
    """None, or a float that is NaN (only NaN is unequal to itself: the common case, a
    number, costs one comparison; a page's charts ask this some 2,500 times)."""
    return value is None or (value != value and isinstance(value, float))


def tokens(value: float | None) -> str:
    """12,926: tokens/s with thousands separators; one decimal below 100."""
    if _missing(value):
        return DASH
    if abs(value) < 100:
        return f"{value:,.1f}"
    return f"{round(value):,}"


def rate(value: float | None) -> str:
    """A per-user speed: 24.1, 50, 150 (149.998 too: no trailing .0)."""
    if _missing(value):
        return DASH
    if abs(value) >= 1000:
        return f"{round(value):,}"
    shown = f"{value:,.1f}"
    return shown[:-2] if shown.endswith(".0") else shown


def dollars(value: float | None) -> str:
    """$1.50 at a dollar or more; below it two significant figures: $0.032, $0.16."""
    if _missing(value):
        return DASH
    if value >= 1 or value == 0:
        return f"${value:,.2f}"
    decimals = 1 - math.floor(math.log10(value))
    return f"${value:.{decimals}f}"


def latency(ms: float | None) -> str:
    """Milliseconds under a second (410 ms, 6.7 ms), seconds above (3.1 s); never 0.0."""
    if _missing(ms):
        return DASH
    if ms < 1:
        return f"{ms:.2g} ms"
    if ms < 10:
        return f"{ms:.1f} ms"
    if ms < 999.5:
        return f"{round(ms)} ms"
    seconds = ms / 1000
    if seconds < 100:
        return f"{seconds:.3g} s"
    return f"{round(seconds):,} s"


def seconds(value: float | None) -> str:
    """A figure given in seconds, shown as latency() shows it."""
    return DASH if _missing(value) else latency(value * 1000)


def context_tokens(count: int) -> str:
    """0, 8K, 32K, 128K: a context length in units of 1,024 tokens."""
    if count == 0:
        return "0"
    if count % 1024 == 0:
        return f"{count // 1024}K"
    return f"{count / 1024:.1f}K"


def significant(value: float) -> str:
    """Three significant figures, never an exponent: 0.131, 2.07, 12.4, 1,240."""
    if value == 0:
        return "0"
    decimals = max(0, 2 - math.floor(math.log10(abs(value))))
    return f"{value:,.{decimals}f}"


def figure(value: float | None) -> str:
    """A catalog's figure as given, without trailing zeros: 0.5, 8, 2,800, 70,272."""
    if _missing(value):
        return DASH
    return f"{value:,.6g}"


def joules(value: float | None) -> str:
    """Energy per token: 0.131 J, 2.07 J."""
    return DASH if _missing(value) else f"{significant(value)} J"


def millions(value: float | None) -> str:
    """A large count in millions: 27,400,000 -> 27.4M."""
    return DASH if _missing(value) else f"{significant(value / 1e6)}M"


def power_source(source: str | None) -> str:
    """Where a power figure comes from: measured with the config, or the GPU's all-in figure."""
    return {"measured": "measured", "all_in": "all-in"}.get(source or "", DASH)


def percent(value: float | None) -> str:
    if _missing(value):
        return DASH
    return f"{value:+.0f} %" if abs(value) >= 1 else f"{value:+.1f} %"


def utilisation(fraction: float | None) -> str:
    """A share of a limit as a percentage: 62 %, 123 %, 0.4 % (no sign: it is not a change)."""
    if _missing(fraction):
        return DASH
    value = fraction * 100
    return f"{value:,.0f} %" if value >= 1 else f"{value:.1g} %"


# why a config or a chart has no MBU or bandwidth limit (calc/limits.py), in words
_MBU_MISSING = {
    "spec_decoding": "speculative decoding",
    "active_params_b": "no active_params_b in models.yaml",
    "total_params_b": "no total_params_b in models.yaml",
    "kv_bytes_per_token": "no kv_bytes_per_token in models.yaml",
    "hbm_tb_s": "no hbm_tb_s in gpus.yaml",
    "isl_osl": "no isl and osl for the workload in workloads.yaml",
    "concurrency": "open loop, no concurrency",
    "precision": "bytes per weight of this precision unknown",
    "status": "failed config",
    "headline": "no config reaches the headline target",
}


def mbu_missing(reason: str | None) -> str:
    """Why a config has no MBU, in words."""
    return _MBU_MISSING.get(reason or "", reason or DASH)


def ratio(value: float | None) -> str:
    """How many times: 12x, 5.8x, 0.20x, 0.054x (two significant figures below 10)."""
    if _missing(value):
        return DASH
    if round(value, 1) >= 10:
        return f"{value:,.0f}x"
    if round(value, 2) >= 1:
        return f"{value:.1f}x"
    if value == 0:
        return "0x"
    decimals = 1 - math.floor(math.log10(value))
    return f"{value:.{decimals}f}x"


@functools.lru_cache(maxsize=1024)  # a site has a few dozen engines, named on every page
def engine_name(slug: str | None) -> str:
    """sglang -> SGLang, dynamo-vllm-mtp -> Dynamo vLLM + MTP."""
    if not slug:
        return DASH
    words, spec = [], []
    for part in slug.split("-"):
        shown = _ENGINE_WORDS.get(part, part[:1].upper() + part[1:])
        (spec if part in _SPEC_METHODS else words).append(shown)
    name = " ".join(words) or slug
    return name + "".join(f" + {s}" for s in spec)


def precision_name(slug: str | None) -> str:
    return slug.upper() if slug else DASH


def counted(tokens: str | None) -> str:
    """What a throughput counts, as a noun: "output tokens" where its workload counts
    generated tokens only (records.OUTPUT), else "tokens" (input + output)."""
    return "output tokens" if tokens == OUTPUT else "tokens"


def counted_all(tokens: str | None) -> str:
    """The same, where a total is said as such: "output tokens", "total tokens"."""
    return "output tokens" if tokens == OUTPUT else "total tokens"


def per_gpu(tokens: str | None) -> str:
    """The unit of a throughput per GPU: "tokens/s per GPU", "output tokens/s per GPU"."""
    return f"{counted(tokens)}/s per GPU"


def per_gpu_short(tokens: str | None) -> str:
    """The same, short: "tok/s/GPU", "output tok/s/GPU"."""
    return "output tok/s/GPU" if tokens == OUTPUT else "tok/s/GPU"


def sentence(words: str) -> str:
    """`words` with a capital first letter, the rest as written ("Tokens/s per GPU")."""
    return words[:1].upper() + words[1:]


def load(concurrency: int | None, request_rate: float | None = None) -> str:
    """A config's load: "concurrency 64", or an open-loop source's "3.78 requests/s"."""
    if concurrency is not None:
        return f"concurrency {concurrency}"
    if request_rate is None:
        return "no load given"
    return f"{significant(request_rate)} requests/s"


def human_list(items: list[str]) -> str:
    """a, b and c."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _sources(sources: list[str] | tuple[str, ...], shown: int | None) -> str:
    parts = []
    for family, members, alone in families(sources):
        if alone:
            parts.append(family)
        if members:
            # a family of two names both: "+1" would be no shorter
            named = members if shown is None or len(members) <= 2 else members[:shown]
            more = len(members) - len(named)
            parts.append(f"{family} ({', '.join(named)}{f' +{more}' if more else ''})")
    return ", ".join(parts)


SOURCES_SHOWN = 1  # the members of a family named before "+3"


def sources_short(sources: list[str] | tuple[str, ...]) -> str:
    """Who measured, a family's members together, one named at most: "InferenceX, MLPerf
    Inference v5.1 (Dell +4)"."""
    return _sources(sources, SOURCES_SHOWN)


def sources_full(sources: list[str] | tuple[str, ...]) -> str:
    """Who measured, every member named: "MLPerf Inference v5.1 (Dell, NVIDIA, Quanta)"."""
    return _sources(sources, None)


FILTERS = {
    "tokens": tokens,
    "rate": rate,
    "dollars": dollars,
    "latency": latency,
    "seconds": seconds,
    "joules": joules,
    "millions": millions,
    "power_source": power_source,
    "context_tokens": context_tokens,
    "percent": percent,
    "utilisation": utilisation,
    "figure": figure,
    "mbu_missing": mbu_missing,
    "ratio": ratio,
    "engine_name": engine_name,
    "precision_name": precision_name,
    "human_list": human_list,
    "counted": counted,
    "counted_all": counted_all,
    "per_gpu": per_gpu,
    "per_gpu_short": per_gpu_short,
    "sentence": sentence,
    "load": load,
    "sources_short": sources_short,
    "sources_full": sources_full,
}
