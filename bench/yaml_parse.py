"""How long yamlpos.parse takes on a generated sweep record, line reader against full loader.

    PYTHONPATH=src python bench/yaml_parse.py [--files N] [--repeat R]

Writes no file: takes N YAML records of 32 configs as bench/scale.py writes them (the text of a
2,000-pair site's records), and parses each R times with yamlpos.parse (which reads their
`configs:` lines with json.loads) and with the full loader it falls back to for other shapes
(yaml.load with yamlpos's _Loader), alternating so that a busy machine slows both alike, with
the garbage collector paused while timing (else one reader pays for collecting what the other
left). Prints per file the median over files of the best CPU time.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scale  # noqa: E402 - bench/ beside this file

from sitegen.records import yamlpos  # noqa: E402


def records(count: int) -> list[str]:
    shape = scale.shape_of(2000)
    texts: list[str] = []
    for model in range(shape.models):
        for gpu in range(shape.gpus):
            for path, record in scale.pair_runs(shape, model, gpu):
                texts.append(scale.record_text(path.replace(".json", ".yaml"), record))
                if len(texts) == count:
                    return texts
    return texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    texts = records(args.files)
    readers = {"full loader": yamlpos._parse_full, "yamlpos.parse": yamlpos.parse}
    best: dict[str, list[float]] = {name: [] for name in readers}
    for text in texts:
        times = {name: float("inf") for name in readers}
        for _ in range(args.repeat):
            for name, read in readers.items():
                gc.disable()
                start = time.process_time()
                read(text)
                took = time.process_time() - start
                gc.enable()
                times[name] = min(times[name], took)
        for name in readers:
            best[name].append(times[name])
    size = statistics.median(len(t.encode()) for t in texts)
    print(f"{len(texts)} records of {size / 1000:.1f} kB, best of {args.repeat} CPU times")
    for name, times in best.items():
        print(f"  {name:14} {statistics.median(times) * 1000:6.2f} ms a file (median)")
    ratios = [f / q for f, q in zip(best["full loader"], best["yamlpos.parse"], strict=True)]
    print(f"  speed-up over the full loader: {statistics.median(ratios):.2f}x (median of ratios)")


if __name__ == "__main__":
    main()
