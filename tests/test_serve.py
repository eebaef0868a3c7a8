"""sitegen serve over HTTP (no browser): routes, 404s, rebuilds, problems, events, shutdown."""

from __future__ import annotations

import http.client
import json
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from sitegen.cli import main
from sitegen.output.newsite import create_site
from sitegen.output.staging import MARKER, MARKER_TEXT
from sitegen.pipeline.build import build, render_site
from sitegen.serve import Preview
from sitegen.serve.rebuild import Rebuilder, base_path
from sitegen.serve.routes import EVENTS_PATH, Redirect, locate, script_tag
from sitegen.serve.state import SiteState

PAIR = "/board/models/tiny-llm/x100/"
RUN = "data/runs/demo/tiny-x100.yaml"
FAQ = "content/faq/warmup.md"


def request(preview: Preview, target: str, method: str = "GET") -> http.client.HTTPResponse:
    """Send `target` exactly as given (no client-side normalisation) and read the answer."""
    conn = http.client.HTTPConnection("127.0.0.1", preview.port, timeout=10)
    conn.putrequest(method, target, skip_host=True, skip_accept_encoding=True)
    conn.putheader("Host", f"127.0.0.1:{preview.port}")
    conn.endheaders()
    response = conn.getresponse()
    response.body = response.read()  # type: ignore[attr-defined]
    conn.close()
    return response


def strip_script(body: bytes, preview: Preview) -> bytes:
    tag = script_tag(preview.state.current().version)
    assert body.count(tag) == 1
    return body.replace(tag, b"")


class EventStream:
    """A client of /__sitegen/events that reads one event at a time."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
        self.conn.request("GET", EVENTS_PATH)
        self.response = self.conn.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("Content-Type") == "text/event-stream"

    def next(self) -> dict:
        name, data = None, None
        while True:
            line = self.response.readline().decode().rstrip("\n")
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                data = json.loads(line[6:])
            elif line == "" and name:
                assert name == "build"
                return data

    def close(self) -> None:
        self.conn.close()


# Routing, without a server -------------------------------------------------------------------

FILES = {
    "index.html": b"home",
    "404.html": b"missing",
    "models/m/g/index.html": b"pair",
    "models/m/g/data.json": b"{}",
    "assets/style.css": b"css",
}


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("/board/", "index.html"),
        ("/board/?x=1", "index.html"),
        ("/board/models/m/g/", "models/m/g/index.html"),
        ("/board/models/m/g/index.html", "models/m/g/index.html"),
        ("/board/models/m/g/data.json", "models/m/g/data.json"),
        ("/board/assets/style%2Ecss", "assets/style.css"),  # encoded, but not a step
        ("/board/models/m/g", Redirect("/board/models/m/g/")),
        ("/board/models/m/g?a=b", Redirect("/board/models/m/g/?a=b")),
        ("/board", Redirect("/board/")),
        ("/", Redirect("/board/")),
    ],
)
def test_locate_serves_site_files_and_redirects_folders(target: str, expected: object) -> None:
    assert locate(FILES, "/board/", target) == expected


TRAVERSALS = [
    "/board/../etc/passwd",
    "/board/models/../index.html",  # even a step that stays inside the site
    "/board/./index.html",
    "/board/%2e%2e/etc/passwd",
    "/board/%2E%2E/%2e%2e/etc/passwd",
    "/board/.%2e/index.html",
    "/board/models%2fm%2fg/index.html",
    "/board/..%2f..%2fetc%2fpasswd",
    "/board/models/m/g%5cdata.json",
    "/board/models\\m\\g\\data.json",
    "/board/..\\..\\etc\\passwd",
    "/board//etc/passwd",
    "/board/models//m/g/",
    "/etc/passwd",
    "/board/%00index.html",
    "/board/%ff%fe",
    "http://example.org/board/index.html",
    "C:\\Windows\\win.ini",
    "board/index.html",
    "*",
]


@pytest.mark.parametrize("target", TRAVERSALS)
def test_locate_refuses_every_other_spelling(target: str) -> None:
    assert locate(FILES, "/board/", target) is None


def test_locate_at_the_root_path() -> None:
    assert locate(FILES, "/", "/") == "index.html"
    assert locate(FILES, "/", "/models/m/g") == Redirect("/models/m/g/")
    assert locate(FILES, "/", "/board/") is None


@pytest.mark.parametrize(
    ("base_url", "path"),
    [
        ("https://example.org/leaderboard/", "/leaderboard/"),
        ("https://example.org/a/b", "/a/b/"),
        ("https://example.org", "/"),
        ("https://example.org//x//", "/x/"),
    ],
)
def test_base_path_comes_from_base_url(base_url: str, path: str) -> None:
    assert base_path(base_url) == path


def test_base_path_of_no_or_a_broken_url_is_the_root() -> None:
    assert base_path("") == "/"
    assert base_path("http://[::1/x/") == "/"  # urlsplit: "Invalid IPv6 URL"


def test_the_preview_serves_under_the_base_path_its_build_read(tmp_path: Path) -> None:
    """The base path comes with the build that read it: a config edited to another base_url
    moves the site there on the rebuild, and a broken config leaves the last good one."""
    site = tmp_path / "site"
    create_site(site)
    config = site / "sitegen.yaml"
    rebuilder = Rebuilder(site, SiteState())
    assert rebuilder.build_now().snapshot.base_path == "/leaderboard/"  # the new site's
    config.write_text(config.read_text().replace("/leaderboard/", "/board/"))
    assert rebuilder.build_now({"sitegen.yaml"}).snapshot.base_path == "/board/"
    config.write_text("base_url: [unclosed\n")
    report = rebuilder.build_now({"sitegen.yaml"})
    assert report.snapshot.problems and report.snapshot.base_path == "/board/"


# Serving ------------------------------------------------------------------------------------


@pytest.mark.parametrize("target", TRAVERSALS)
def test_traversal_attempts_get_the_sites_404_page(preview: Preview, target: str) -> None:
    response = request(preview, target)
    assert response.status == 404
    assert response.getheader("Content-Type") == "text/html; charset=utf-8"
    site_404 = preview.state.current().files["404.html"]
    assert strip_script(response.body, preview) == site_404
    assert b"root:" not in response.body


def test_a_missing_page_gets_status_404_and_the_404_page(preview: Preview) -> None:
    response = request(preview, "/board/models/tiny-llm/h100/")
    assert response.status == 404
    assert b"Page not found" in response.body
    assert b"/__sitegen/livereload.js" in response.body


def test_pages_under_the_base_path(preview: Preview) -> None:
    home = request(preview, "/board/")
    assert home.status == 200
    assert home.getheader("Cache-Control") == "no-store"
    pair = request(preview, PAIR)
    assert pair.status == 200
    assert b"Yes: every run starts after a warm-up pass." in pair.body


@pytest.mark.parametrize(
    ("target", "location"),
    [
        ("/", "/board/"),
        ("/board", "/board/"),
        ("/board/models/tiny-llm/x100", PAIR),
        ("/board/models/tiny-llm/x100?tab=faq", PAIR + "?tab=faq"),
    ],
)
def test_folders_without_slash_redirect(preview: Preview, target: str, location: str) -> None:
    response = request(preview, target)
    assert response.status == 302
    assert response.getheader("Location") == location


@pytest.mark.parametrize(
    ("target", "content_type"),
    [
        ("/board/", "text/html; charset=utf-8"),
        ("/board/assets/style.css", "text/css; charset=utf-8"),
        ("/board/models/tiny-llm/x100/data.json", "application/json"),
        ("/board/data/leaderboard.csv", "text/csv; charset=utf-8"),
        ("/board/sitemap.xml", "application/xml"),
        ("/board/robots.txt", "text/plain; charset=utf-8"),
        ("/__sitegen/livereload.js", "text/javascript; charset=utf-8"),
    ],
)
def test_content_types(preview: Preview, target: str, content_type: str) -> None:
    response = request(preview, target)
    assert response.status == 200
    assert response.getheader("Content-Type") == content_type
    assert response.getheader("X-Content-Type-Options") == "nosniff"


def test_head_sends_headers_only(preview: Preview) -> None:
    response = request(preview, PAIR, method="HEAD")
    assert response.status == 200
    assert int(response.getheader("Content-Length")) > 1000
    assert response.body == b""


def test_served_files_are_the_built_files_plus_one_script_tag(
    preview: Preview, serve_site: Path, tmp_path: Path
) -> None:
    out = tmp_path / "built"
    build(serve_site, out)
    built = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert built.pop(MARKER) == MARKER_TEXT  # the build's note to itself, not part of the site
    assert built.keys() == preview.state.current().files.keys()
    for name, data in built.items():
        body = request(preview, "/board/" + name).body
        if name.endswith(".html"):
            assert strip_script(body, preview) == data, name
            assert body.index(b"<script src=") < body.rindex(b"</body>"), name
        else:
            assert body == data, name


def test_public_is_neither_read_nor_written(serve_site: Path, wait_until, tmp_path: Path) -> None:
    public = serve_site / "public"
    (public / "models").mkdir(parents=True)
    (public / "index.html").write_bytes(b"an old build")
    (public / "models" / "stale.html").write_bytes(b"gone from the site")
    secret = tmp_path / "secret.txt"
    secret.write_bytes(b"outside the site")
    (public / "leak.txt").symlink_to(secret)
    before = {p: p.read_bytes() for p in public.rglob("*") if p.is_file()}
    with Preview(serve_site, port=0) as preview:
        assert request(preview, "/board/").body != b"an old build"
        assert request(preview, "/board/models/stale.html").status == 404
        assert request(preview, "/board/leak.txt").status == 404
        version = preview.state.current().version
        (serve_site / FAQ).write_text("---\nquestion: Changed?\n---\nChanged.\n")
        wait_until(lambda: preview.state.current().version != version, what="a rebuild")
    after = {p: p.read_bytes() for p in public.rglob("*") if p.is_file()}
    assert after == before


def test_public_is_not_created(preview: Preview, serve_site: Path) -> None:
    assert request(preview, "/board/").status == 200
    assert not (serve_site / "public").exists()


# Rebuilds and events ------------------------------------------------------------------------


def test_an_edit_rebuilds_and_the_page_changes(
    preview: Preview, serve_site: Path, wait_until
) -> None:
    events = EventStream(preview.port)
    first = events.next()
    assert first == {"version": preview.state.current().version, "problems": []}
    (serve_site / FAQ).write_text(
        "---\nquestion: Was the server warmed up?\n---\nFreshly edited answer.\n"
    )
    changed = events.next()
    assert changed["version"] != first["version"] and changed["problems"] == []
    assert b"Freshly edited answer." in request(preview, PAIR).body
    events.close()


def test_a_broken_record_keeps_the_last_good_site_and_reports_file_and_line(
    preview: Preview, serve_site: Path
) -> None:
    good_page = request(preview, PAIR).body
    events = EventStream(preview.port)
    good = events.next()
    record = serve_site / RUN
    text = record.read_text()
    record.write_text(text.replace("tpot_ms: {median: 20.0}", "tpot_ms: {median: fast}"))
    broken = events.next()
    assert broken["version"] == good["version"]
    [problem] = broken["problems"]
    assert (problem["file"], problem["line"]) == (RUN, 13)
    assert problem["field"] == "configs[1].tpot_ms.median"
    assert problem["text"].startswith(f"{RUN}:13: configs[1].tpot_ms.median: expected a number")
    assert request(preview, PAIR).body == good_page  # still the last good build

    record.write_text(text)  # fixed: the same output as before, so only the problems go
    fixed = events.next()
    assert fixed == {"version": good["version"], "problems": []}
    events.close()


def test_a_template_error_names_the_template_and_line(preview: Preview, serve_site: Path) -> None:
    events = EventStream(preview.port)
    events.next()
    (serve_site / "templates").mkdir()
    (serve_site / "templates" / "404.html").write_text(
        '{% extends "base.html" %}\n{% block main %}\n<p>{{ oops( }}</p>\n{% endblock %}\n'
    )
    while not (state := events.next())["problems"]:
        pass  # the folder may be seen before the file's content
    [problem] = state["problems"]
    assert (problem["file"], problem["line"], problem["field"]) == (
        "templates/404.html",
        3,
        "template",
    )
    events.close()


def test_a_template_rendering_error_names_the_template_and_line(
    serve_site: Path, capsys: pytest.CaptureFixture
) -> None:
    (serve_site / "templates").mkdir()
    (serve_site / "templates" / "404.html").write_text(
        '{% extends "base.html" %}\n{% block main %}\n<p>{{ no_such_value }}</p>\n{% endblock %}\n'
    )
    outcome = Rebuilder(serve_site, SiteState()).build_now()
    assert [str(p) for p in outcome.snapshot.problems] == [
        "templates/404.html:3: template: 'no_such_value' is undefined"
    ]
    assert outcome.snapshot.files == {}
    assert "Traceback" not in capsys.readouterr().err  # the site's mistake, not a crash


def test_a_crash_in_the_build_is_shown_and_the_last_good_site_kept(
    serve_site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rebuilder = Rebuilder(serve_site, SiteState())
    good = rebuilder.build_now().snapshot

    def crash(site_root: Path, **options: object) -> None:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr("sitegen.serve.rebuild.render_outputs", crash)
    broken = rebuilder.build_now().snapshot
    assert [str(p) for p in broken.problems] == [
        "sitegen: ZeroDivisionError: the build crashed: division by zero"
    ]
    assert (broken.files, broken.version) == (good.files, good.version)


def test_ten_saves_make_one_rebuild(preview: Preview, serve_site: Path, wait_until) -> None:
    builds = preview.rebuilder.builds
    for i in range(10):
        (serve_site / "content" / "faq" / f"q{i}.md").write_text(
            f"---\nquestion: Question {i}?\norder: {i + 2}\n---\nAnswer number {i}.\n"
        )
    wait_until(lambda: preview.rebuilder.builds > builds, what="the rebuild")
    # One more change after it: if the ten saves had made two builds, this would be the third.
    (serve_site / "content" / "faq" / "q0.md").write_text("---\nquestion: Last?\n---\nLast.\n")
    wait_until(lambda: preview.rebuilder.builds >= builds + 2, what="the second rebuild")
    assert preview.rebuilder.builds == builds + 2
    page = request(preview, PAIR).body
    assert all(f"Answer number {i}.".encode() in page for i in range(1, 10))


def test_a_config_edit_rebuilds(preview: Preview, serve_site: Path, wait_until) -> None:
    config = serve_site / "sitegen.yaml"
    config.write_text(config.read_text().replace("Serve Test Leaderboard", "Renamed Board"))
    wait_until(lambda: b"Renamed Board" in request(preview, "/board/").body, what="new title")


def test_an_input_folder_made_after_start_is_watched(serve_site: Path, wait_until) -> None:
    shutil.rmtree(serve_site / "content")
    with Preview(serve_site, port=0) as preview:
        assert b"warm-up" not in request(preview, PAIR).body
        faq = serve_site / "content" / "faq"
        faq.mkdir(parents=True)
        wait_until(lambda: "content" in preview.watcher.watched_folders, what="a watch on it")
        (faq / "new.md").write_text("---\nquestion: New?\n---\nA brand new answer.\n")
        wait_until(lambda: b"A brand new answer." in request(preview, PAIR).body, what="the FAQ")


def test_the_first_build_failing_serves_the_problems_until_fixed(
    serve_site: Path, wait_until
) -> None:
    record = serve_site / RUN
    text = record.read_text()
    record.write_text(text.replace("gpu: x100", "gpu: x999"))
    with Preview(serve_site, port=0) as preview:
        response = request(preview, PAIR)
        assert response.status == 503
        assert f"{RUN}:6: gpu: expected".encode() in response.body
        assert b"/__sitegen/livereload.js" in response.body
        record.write_text(text)
        wait_until(lambda: request(preview, PAIR).status == 200, what="the fixed build")


# Concurrency and shutdown -------------------------------------------------------------------


def test_open_event_streams_do_not_block_pages(preview: Preview) -> None:
    streams = [EventStream(preview.port) for _ in range(8)]
    for stream in streams:
        stream.next()
    assert request(preview, PAIR).status == 200
    for stream in streams:
        stream.close()


def test_stop_ends_open_event_streams(serve_site: Path) -> None:
    preview = Preview(serve_site, port=0)
    preview.start()
    stream = EventStream(preview.port)
    stream.next()
    stopper = threading.Thread(target=preview.stop)
    stopper.start()
    stopper.join(timeout=20)
    assert not stopper.is_alive()
    assert stream.response.readline() == b""  # the server closed the stream
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", preview.port), timeout=2).close()


def test_render_site_is_what_is_served(preview: Preview, serve_site: Path) -> None:
    files, _ = render_site(serve_site)
    assert preview.state.current().files == files


# The command --------------------------------------------------------------------------------


def test_serve_refuses_a_busy_port(serve_site: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--site", str(serve_site), "--port", str(port)])
    assert result.exit_code == 1
    assert f"cannot listen on 127.0.0.1:{port}" in result.output


def test_serve_needs_a_site_folder(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["serve", "--site", str(tmp_path), "--port", "0"])
    assert result.exit_code == 1
    assert f"sitegen.yaml: not found in {tmp_path}: is this a site folder?" in result.output


def test_a_rebuild_makes_only_the_pages_whose_inputs_changed(
    serve_site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sitegen.pipeline import build as build_module

    made: list[tuple[str, ...]] = []
    real = build_module.render_outputs

    def recording(*args: object, **options: object):
        rendered = real(*args, **options)
        made.append(rendered.made)
        return rendered

    monkeypatch.setattr("sitegen.serve.rebuild.render_outputs", recording)
    rebuilder = Rebuilder(serve_site, SiteState())
    first = rebuilder.build_now().snapshot
    again = rebuilder.build_now().snapshot
    assert len(made[0]) > 3 and made[1] == ()
    assert again.files == first.files
    page = serve_site / "content" / "methodology.md"
    page.write_text("---\ntitle: Method\n---\nMeasured with care.\n")
    after = rebuilder.build_now().snapshot
    assert made[2]  # the new page, and every page whose navigation lists it
    assert b"Measured with care." in after.files["methodology/index.html"]
    rendered_fresh, _ = build_module.render_site(serve_site, use_cache=False)
    assert after.files == rendered_fresh


# Host headers and the connection cap -----------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "bind", "allowed"),
    [
        ("127.0.0.1:8000", "127.0.0.1", True),
        ("localhost:8000", "127.0.0.1", True),
        ("LOCALHOST:8000", "127.0.0.1", True),
        ("[::1]:8000", "::1", True),
        ("[::1]:8000", "127.0.0.1", True),
        ("evil.example:8000", "127.0.0.1", False),  # DNS rebinding: the attacker's name
        ("localhost.evil.example:8000", "127.0.0.1", False),
        ("127.0.0.1:8001", "127.0.0.1", False),  # another port
        ("127.0.0.1", "127.0.0.1", False),  # port 80 implied
        ("", "127.0.0.1", False),
        (None, "127.0.0.1", False),
        ("127.0.0.1:8000 x", "127.0.0.1", False),
        ("[::1:8000", "::1", False),
        ("preview.lan:8000", "preview.lan", True),  # the --host given
        ("192.168.1.5:8000", "0.0.0.0", True),  # every address: any IP, never a name
        ("[fe80::1]:8000", "::", True),
        ("evil.example:8000", "0.0.0.0", False),
        ("192.168.1.5:8000", "127.0.0.1", False),
    ],
)
def test_host_allowed(header, bind, allowed) -> None:
    from sitegen.serve.hosts import host_allowed

    assert host_allowed(header, bind, 8000) is allowed


def raw_get(port: int, host: str, target: str = "/board/") -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.putrequest("GET", target, skip_host=True)
    conn.putheader("Host", host)
    conn.endheaders()
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, body


def test_a_request_for_another_name_is_refused(preview: Preview) -> None:
    port = preview.port
    assert raw_get(port, f"localhost:{port}")[0] == 200
    status, body = raw_get(port, f"attacker.example:{port}")
    assert status == 403 and b"answers only to requests for localhost" in body
    assert raw_get(port, f"attacker.example:{port}", "/__sitegen/events")[0] == 403


def test_connections_beyond_the_cap_get_503_at_once(serve_site: Path, monkeypatch) -> None:
    from sitegen.serve.server import PreviewServer

    monkeypatch.setattr(PreviewServer, "max_connections", 3)
    with Preview(serve_site, port=0) as preview:
        idle = [socket.create_connection(("127.0.0.1", preview.port)) for _ in range(3)]
        try:
            extra = socket.create_connection(("127.0.0.1", preview.port), timeout=5)
            answer = extra.recv(200)
            extra.close()
            assert answer.startswith(b"HTTP/1.1 503 ")
        finally:
            for conn in idle:
                conn.close()
        status = 0
        for _ in range(100):  # the idle ones' threads end once their sockets close
            try:
                status = request(preview, "/board/").status
            except (ConnectionError, http.client.HTTPException):
                status = 0
            if status == 200:
                break
            time.sleep(0.05)
        assert status == 200


def test_the_first_build_is_made_on_every_core_with_the_same_files(
    serve_site: Path, monkeypatch, only_new_threads
) -> None:
    from sitegen.pipeline import making

    alone = Rebuilder(serve_site, SiteState()).build_now().snapshot.files
    forked: list[int] = []
    real_make_all = making.make_all

    def counting(maker, jobs, progress, workers=1):
        forked.append(workers)
        return real_make_all(maker, jobs, progress, workers)

    monkeypatch.setattr(making, "PARALLEL_FROM_JOBS", 1)
    monkeypatch.setattr(making, "CHUNK_JOBS", 2)
    monkeypatch.setattr("sitegen.pipeline.stages.make_all", counting)
    monkeypatch.setattr(
        "sitegen.pipeline.making.os.sched_getaffinity", lambda pid: {0, 1}, raising=False
    )
    with Preview(serve_site, port=0) as preview:
        first = preview.state.current().files
    assert forked and forked[0] == 2  # the first build, before any other thread, forked
    assert first == alone


def test_a_later_build_is_never_forked_beside_the_previews_threads(serve_site: Path) -> None:
    from sitegen.pipeline import making

    with Preview(serve_site, port=0):
        assert threading.active_count() > 1
        assert making.workers_for(10**6) == 1


def test_an_edit_made_during_the_first_build_is_rebuilt(
    serve_site: Path, wait_until, monkeypatch
) -> None:
    preview = Preview(serve_site, port=0)
    real_build_now = preview.rebuilder.build_now

    def build_then_edit(*args, **kwargs):
        report = real_build_now(*args, **kwargs)
        if preview.rebuilder.builds == 1:  # as if saved while the first build ran
            (serve_site / FAQ).write_text(
                "---\nquestion: Was the server warmed up?\n---\nEdited while it built.\n"
            )
        return report

    monkeypatch.setattr(preview.rebuilder, "build_now", build_then_edit)
    with preview:
        assert b"Edited while it built." not in request(preview, PAIR).body
        wait_until(
            lambda: b"Edited while it built." in request(preview, PAIR).body,
            what="the rebuild of an edit made during the first build",
        )


def test_the_failed_build_page_lists_every_problem_as_text():
    """Before any build succeeds the preview shows the problems, escaped, with its script."""
    from sitegen.records import Problem
    from sitegen.serve.routes import failed_page
    from sitegen.serve.state import Snapshot

    problems = (
        Problem("data/gpus.yaml", 3, "name", "expected text, got <script>alert(1)</script>"),
        Problem("content/faq/a.md", None, "", "cannot read"),
    )
    page = failed_page(Snapshot(problems=problems, version="v7")).decode()
    assert page.count("<li>") == 2
    assert "data/gpus.yaml:3: name: expected text, got &lt;script&gt;" in page
    assert "<script>alert" not in page
    assert page.rstrip().endswith("</html>") and 'data-version="v7"' in page
