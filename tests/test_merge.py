"""importers.merge: an imported record merged into the one already there, pure values."""

from __future__ import annotations

import datetime as dt
import itertools
import json

from sitegen.importers.merge import Side, merge_notes, merge_records
from sitegen.records.schema import CONFIG_FIELDS

NOTES_A = "Imported with sitegen import inferencex from a.json (InferenceX API)."
NOTES_B = "Imported with sitegen import inferencex from b.json (InferenceX API)."


def config(concurrency: int, tpot: float = 20.0, **extra) -> dict:
    return {
        "gpus": 8,
        "tp": 8,
        "concurrency": concurrency,
        "throughput_per_gpu": 1000.0 / concurrency,
        "ttft_ms": {"median": 500.0},
        "tpot_ms": {"median": tpot},
        **extra,
    }


def record(configs: list[dict], notes: str = NOTES_A, **extra) -> dict:
    return {
        "kind": "sweep",
        "source": "InferenceX",
        "date": dt.date(2026, 6, 11),
        "model": "m1",
        "gpu": "g1",
        "engine": "sglang",
        "precision": "fp4",
        "workload": "1k1k",
        "notes": notes,
        "configs": configs,
        **extra,
    }


def written(value: dict) -> str:
    """A record as text, key order included (dicts compare equal in any order)."""
    return json.dumps(value, default=str)


def test_configs_already_there_are_kept_and_new_ones_added_in_concurrency_order() -> None:
    merged = merge_records(record([config(64), config(4)]), record([config(16)], NOTES_B))
    assert [c["concurrency"] for c in merged.record["configs"]] == [4, 16, 64]
    assert (merged.items_before, merged.items_after, merged.conflicts) == (2, 3, ())


def test_an_identical_config_is_not_repeated() -> None:
    old = record([config(4), config(16)])
    merged = merge_records(old, record([config(16)]))
    assert merged.record == old and merged.conflicts == ()
    assert merged.items_after == 2


def test_fields_only_one_side_has_are_joined_whichever_came_first() -> None:
    # The latest-results file has mean, p90 and power; the history file only medians and p99.
    full = config(4, power_w=700.0, image="sglang:0.5")
    full["tpot_ms"] = {"median": 20.0, "mean": 20.4, "p90": 21.0, "p99": 24.0}
    lean = config(4)
    lean["tpot_ms"] = {"median": 20.0, "p99": 24.0}
    one = merge_records(record([full]), record([lean], NOTES_B)).record
    other = merge_records(record([lean], NOTES_B), record([full])).record
    assert written(one) == written(other)  # key order too: it is the order of the YAML
    assert list(one["configs"][0]) == [k for k in CONFIG_FIELDS if k in full]
    assert list(one["configs"][0]["tpot_ms"]) == ["median", "mean", "p90", "p99"]
    assert one["configs"][0]["power_w"] == 700.0


def test_a_value_measured_differently_is_a_conflict_with_both_values() -> None:
    old = record([config(4), config(16, tpot=20.0)])
    merged = merge_records(old, record([config(16, tpot=25.0)]))
    (conflict,) = merged.conflicts
    assert conflict.first == Side(True, ("configs", 1, "tpot_ms", "median"))
    assert conflict.second == Side(False, ("configs", 0, "tpot_ms", "median"))
    assert (conflict.first_value, conflict.second_value) == (20.0, 25.0)
    assert conflict.item == "gpus 8, tp 8, concurrency 16"
    assert merged.record["configs"][1]["tpot_ms"]["median"] == 20.0  # never overwritten


def test_every_conflict_is_reported() -> None:
    old = record([config(4), config(16)])
    new = record([config(4, tpot=30.0, throughput_per_gpu=1.0), config(16, tpot=31.0)])
    fields = sorted(".".join(map(str, c.first.path[2:])) for c in merge_records(old, new).conflicts)
    assert fields == ["throughput_per_gpu", "tpot_ms.median", "tpot_ms.median"]


def test_two_configs_of_one_import_with_one_key_are_merged_or_a_conflict() -> None:
    same = merge_records(None, record([config(4), config(4, power_w=600.0)]))
    assert same.record["configs"] == [config(4, power_w=600.0)] and same.conflicts == ()
    differ = merge_records(None, record([config(4), config(4, tpot=9.0)]))
    (conflict,) = differ.conflicts
    assert (conflict.first.existing, conflict.second.existing) == (False, False)
    assert (conflict.first.path[1], conflict.second.path[1]) == (0, 1)


def test_configs_that_differ_in_any_key_field_are_two_configs() -> None:
    configs = [
        config(4, ep=8, dp_attention=True),
        config(4, ep=8, dp_attention=False),
        config(4, ep=8, dp_attention=False, spec_decoding="mtp"),
        config(4, disagg=True, prefill_gpus=4, decode_gpus=4),
    ]
    for order in itertools.permutations(configs):
        merged = merge_records(None, record(list(order)))
        assert len(merged.record["configs"]) == 4 and merged.conflicts == ()
        assert written(merged.record) == written(merge_records(None, record(configs)).record)


def test_true_is_not_the_number_one() -> None:
    merged = merge_records(record([config(4, dp=1)]), record([config(4, dp=True)]))
    assert len(merged.record["configs"]) == 2


def test_a_run_field_that_differs_is_a_conflict() -> None:
    merged = merge_records(record([config(4)]), record([config(4)], date=dt.date(2026, 6, 12)))
    (conflict,) = merged.conflicts
    assert conflict.first.path == ("date",) and conflict.item == ""


def test_a_json_records_date_is_the_same_date() -> None:
    merged = merge_records(record([config(4)], date="2026-06-11"), record([config(4)]))
    assert merged.conflicts == ()


def test_url_and_engine_version_as_one_import_of_both_files_gives_them() -> None:
    a = record([config(4)], url="https://x/runs/2", engine_version="0.5.2")
    b = record([config(4)], url="https://x/runs/1", engine_version="0.5.1, 0.5.3")
    for one, other in ((a, b), (b, a)):
        merged = merge_records(one, other).record
        assert merged["url"] == "https://x/runs/1"
        assert merged["engine_version"] == "0.5.1, 0.5.2, 0.5.3"


def test_notes_keep_an_editors_words_first_and_each_import_once_sorted() -> None:
    edited = "Rerun after a driver update.\n" + NOTES_B
    assert merge_notes(edited, NOTES_A) == "\n".join(
        ["Rerun after a driver update.", NOTES_A, NOTES_B]
    )
    assert merge_notes(NOTES_A, NOTES_A) == NOTES_A
    assert merge_notes(NOTES_A, NOTES_B) == merge_notes(NOTES_B, NOTES_A)


def test_fields_of_the_record_already_there_are_kept() -> None:
    old = record([config(4)], illustrative=True, title_of_mine="x")
    merged = merge_records(old, record([config(4)])).record
    assert merged["illustrative"] is True and merged["title_of_mine"] == "x"


def test_merging_is_the_same_in_any_order_and_twice() -> None:
    a = record([config(1), config(4, power_w=500.0), config(16)], NOTES_A, url="https://x/2")
    b = record([config(4), config(64)], NOTES_B, url="https://x/1")
    ab = merge_records(a, b).record
    assert written(merge_records(b, a).record) == written(ab)
    assert written(merge_records(merge_records(ab, a).record, b).record) == written(ab)


def test_matrix_cells_are_merged_by_context_and_concurrency() -> None:
    def cell(context: int, concurrency: int, rate: float) -> dict:
        return {
            "context": context,
            "concurrency": concurrency,
            "aggregate_tok_s": rate,
            "per_request_tok_s": rate / concurrency,
            "ttft_s": 0.1,
        }

    old = {"kind": "matrix", "decode": [cell(8192, 1, 90.0), cell(0, 1, 110.0)]}
    new = {"kind": "matrix", "decode": [cell(0, 4, 380.0), cell(0, 1, 110.0)]}
    merged = merge_records(old, new)
    cells = [(c["context"], c["concurrency"]) for c in merged.record["decode"]]
    assert cells == [(0, 1), (0, 4), (8192, 1)] and merged.conflicts == ()
    clash = merge_records(old, {"kind": "matrix", "decode": [cell(0, 1, 100.0)]})
    assert [c.first.path for c in clash.conflicts] == [
        ("decode", 1, "aggregate_tok_s"),
        ("decode", 1, "per_request_tok_s"),
    ]
