"""How much CPU a link-preview card takes: every card of a site, drawn and encoded.

    python bench/cards.py [SITE] [--repeat N]      (default: the repository's flagship site)

CPU time (time.process_time, so that other work on the machine counts less than wall time
would), best of N passes over the site's pair, model and comparison cards, after one pass
that loads the fonts and the palette (the first card of a process: printed apart). Prints
milliseconds per card, split into drawing and encoding, and the PNGs' mean size; nothing is
asserted (speed is not a test). docs/pages.md has the figures this measured.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from sitegen.calc.tables import summarise
from sitegen.cards import card as cards
from sitegen.records import load_site
from sitegen.render.content import load_content
from sitegen.views import Sources
from sitegen.views.compare import compared
from sitegen.views.social import compare_card, model_card, pair_card

FLAGSHIP = Path(__file__).resolve().parents[1]


def site_cards(root: Path) -> list[cards.Card]:
    site, problems = load_site(root, use_cache=False)
    if site is None:
        raise SystemExit(f"{root}: the site does not load")
    content = load_content(root, site.models, site.gpus, problems, {r.id for r in site.runs})
    src = Sources(site, summarise(site), content)
    return [
        *(pair_card(src, m, g) for m, g in src.pair_keys),
        *(model_card(src, m) for m in src.models),
        *(compare_card(src, m, a, b) for m, a, b in compared(src)),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", nargs="?", type=Path, default=FLAGSHIP)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    all_cards = site_cards(args.site)
    start = time.process_time()
    cards.card_png(all_cards[0])
    first = time.process_time() - start
    sizes = [len(cards.card_png(card)) for card in all_cards]
    encoding = 0.0
    encode = cards.png

    def timed_png(*a):
        nonlocal encoding
        t = time.process_time()
        out = encode(*a)
        encoding += time.process_time() - t
        return out

    best, best_encoding = float("inf"), 0.0
    cards.png = timed_png
    try:
        for _ in range(args.repeat):
            encoding = 0.0
            start = time.process_time()
            for card in all_cards:
                cards.card_png(card)
            took = time.process_time() - start
            if took < best:
                best, best_encoding = took, encoding
    finally:
        cards.png = encode
    n = len(all_cards)
    print(f"{n} cards; the first of the process: {first * 1000:.0f} ms")
    draw_ms, encode_ms = (best - best_encoding) / n * 1000, best_encoding / n * 1000
    print(
        f"ms per card (best of {args.repeat} passes): {best / n * 1000:.2f} "
        f"(drawing {draw_ms:.2f}, encoding {encode_ms:.2f})"
    )
    print(f"PNG: {statistics.mean(sizes) / 1000:.1f} KB a card on average")


if __name__ == "__main__":
    main()
