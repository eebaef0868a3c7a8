"""QuickMaker makes what the frozen dataclass itself makes, or leaves the class to say why not."""

import dataclasses
import datetime as dt

import pytest

from sitegen.records.model import QuickMaker, SweepRun

FIELDS = {
    "id": "a-b",
    "path": "data/runs/a/b.yaml",
    "kind": "sweep",
    "source": "lab",
    "date": dt.date(2026, 1, 2),
    "model": "m",
    "gpu": "g",
    "engine": "vllm",
    "precision": "fp8",
}


def test_made_as_the_class_makes_it_defaults_included():
    for more in ({}, {"url": "https://x.org/", "workload": "chat", "configs": (1, 2)}):
        quick, slow = QuickMaker(SweepRun)({**FIELDS, **more}), SweepRun(**FIELDS, **more)
        assert type(quick) is SweepRun
        assert quick == slow
        assert vars(quick) == vars(slow)  # each field in the object itself, defaults too
        assert dataclasses.replace(quick, gpu="h") == dataclasses.replace(slow, gpu="h")
        with pytest.raises(dataclasses.FrozenInstanceError):
            quick.gpu = "h"


def test_a_field_missing_or_unknown_is_the_class_s_own_error():
    make = QuickMaker(SweepRun)
    with pytest.raises(TypeError, match="gpu"):
        make({k: v for k, v in FIELDS.items() if k != "gpu"})
    with pytest.raises(TypeError, match="colour"):
        make({**FIELDS, "colour": "red"})


def test_a_class_with_a_factory_or_post_init_is_refused():
    @dataclasses.dataclass(frozen=True)
    class Listed:
        items: list = dataclasses.field(default_factory=list)

    @dataclasses.dataclass(frozen=True)
    class Checked:
        n: int

        def __post_init__(self):
            assert self.n > 0

    for cls in (Listed, Checked):
        with pytest.raises(TypeError):
            QuickMaker(cls)
