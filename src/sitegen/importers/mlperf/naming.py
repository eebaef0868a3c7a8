"""MLPerf's names -> a record's: the engine and its version from `framework`, the precision
from `weight_data_types`, GPU kinds of a system, and catalog slugs by alias."""

from __future__ import annotations

import re

from ..common import engine_from_backend

# `TensorRT 10.11`, `vLLM 0.9.0.2.dev108+g71faa1880`, `vllm-0.9.0`: a name, then a version
VERSIONED = re.compile(r"^(?P<name>.*?)(?:[\s_-]+v?(?P<version>\d[^\s,]*))?$")
SLUG_SAFE = re.compile(r"[^a-z0-9.]+")
# `AMD Instinct MI300X 192GB HBM3 (x32), AMD Instinct MI325X 256GB HBM3e (x16)`
KIND_COUNT = re.compile(r"\(x\d+\)")


def slugify(text: str) -> str:
    return SLUG_SAFE.sub("-", text.lower()).strip("-.")


def engine_of(software: str) -> tuple[str, str | None]:
    """(engine, engine_version) of a `framework` string: its first part, `TensorRT 10.11,
    CUDA 12.9` -> (tensorrt-llm, "TensorRT 10.11"); the version keeps the name it belongs
    to where that is not the engine's own (TensorRT's is not TensorRT-LLM's)."""
    first = software.split(",")[0].strip()
    found = VERSIONED.match(first)
    name = (found["name"] if found else first).strip() or first
    version = found["version"] if found else None
    # the engine its first word names, as for the benchmark clients' backends; else its name
    engine = engine_from_backend(name) or slugify(name)
    if version and slugify(name) != engine:
        version = f"{name} {version}"
    return engine, version


def precision_of(weight_data_types: str) -> str:
    """`FP4` -> `fp4`, `NVFP4` -> `nvfp4`; several types joined by `+` (`fp8+fp4`)."""
    parts = [p for p in re.split(r"[\s,/+]+", weight_data_types.strip().lower()) if p]
    return "+".join(dict.fromkeys(parts))


def gpu_kinds(accelerator: str) -> int:
    """How many GPU kinds a system's `accelerator_model_name` lists, each with its count."""
    return len(KIND_COUNT.findall(accelerator))
