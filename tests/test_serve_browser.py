"""sitegen serve in a real browser: edits show up without a reload, problems as an overlay."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sitegen.serve import Preview

RUN = "data/runs/demo/tiny-x100.yaml"
FAQ = "content/faq/warmup.md"
TIMEOUT_MS = 20_000


@pytest.fixture
def page(preview: Preview, browser) -> Iterator:
    context = browser.new_context()
    try:
        tab = context.new_page()
        tab.set_default_timeout(TIMEOUT_MS)
        yield tab
    finally:
        context.close()


def test_edits_reload_the_page_and_problems_show_over_it(
    preview: Preview, serve_site: Path, page
) -> None:
    page.goto(preview.url + "models/tiny-llm/x100/")
    faq = page.locator("#faq")
    faq.get_by_text("Yes: every run starts after a warm-up pass.").wait_for()

    # 1. An editor saves a new answer: the page shows it without a manual reload.
    (serve_site / FAQ).write_text(
        "---\nquestion: Was the server warmed up?\norder: 1\n---\n"
        "Yes: ten minutes of warm-up traffic before each run.\n"
    )
    faq.get_by_text("Yes: ten minutes of warm-up traffic before each run.").wait_for()
    assert faq.get_by_text("every run starts after a warm-up pass").count() == 0

    # 2. A broken run record: the page stays, and a box names the file and the line.
    record = serve_site / RUN
    good = record.read_text()
    record.write_text(good.replace("tpot_ms: {median: 20.0}", "tpot_ms: {median: fast}"))
    overlay = page.locator("#sitegen-problems")
    overlay.wait_for(state="visible")
    problem = overlay.locator(".sitegen-problem")
    assert problem.count() == 1
    assert problem.inner_text().startswith(f"{RUN}:13: configs[1].tpot_ms.median: expected")
    assert faq.get_by_text("ten minutes of warm-up traffic").is_visible()

    # 3. Fixed, and a further edit: the box goes and the page shows the new build.
    record.write_text(good.replace("throughput_per_gpu: 6000", "throughput_per_gpu: 6100"))
    overlay.wait_for(state="detached")
    page.wait_for_function(
        # the page may be between two documents as it reloads: no <main> for a moment
        "() => document.querySelector('main')?.innerText.includes('6,100')",
        timeout=TIMEOUT_MS,
    )
    faq.get_by_text("ten minutes of warm-up traffic").wait_for()
