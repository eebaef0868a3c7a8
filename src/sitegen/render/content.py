"""Editors' copy: Markdown with YAML front matter, placeholders rendered in a sandbox."""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
from markdown_it import MarkdownIt
from markupsafe import Markup

from ..layout import SiteLayout
from ..records.checker import SLUG
from ..records.problems import Problem, Problems, describe
from ..records.sitefiles import SiteFiles, suffix_of
from ..records.urls import markdown_image_problem, markdown_link_problem
from ..records.yamlpos import ParseError, decode, parse
from .display import FILTERS
from .reproducible import NotReproducible
from .sandbox import LimitExceeded, Sandbox, template_line

# the closing line may end the file, and the front matter may be empty
FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(?:(.*?)\r?\n)?---[ \t]*(?:\r?\n|\Z)", re.S)
FRONT_MATTER_START = re.compile(r"\A---[ \t]*\r?\n")
PLACEHOLDER = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)


@dataclass(frozen=True)
class Copy:
    """One Markdown file: where it lives, its front matter, its body and the body's first line."""

    rel: str
    meta: dict
    body: str
    body_line: int = 1
    # file line of each front-matter field, for messages
    meta_lines: dict = field(default_factory=dict, compare=False)

    def line(self, key: str) -> int:
        """The line of a front-matter field, or of the front matter when it is absent."""
        return self.meta_lines.get(key, self.meta_lines.get(None, 1))

    @property
    def name(self) -> str:
        return Path(self.rel).stem


@dataclass
class Content:
    faq: list[Copy] = field(default_factory=list)
    models: dict[str, Copy] = field(default_factory=dict)
    gpus: dict[str, Copy] = field(default_factory=dict)
    pairs: dict[tuple[str, str], Copy] = field(default_factory=dict)
    runs: dict[str, Copy] = field(default_factory=dict)
    pages: dict[str, Copy] = field(default_factory=dict)


class CopyError(Exception):
    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def read_copy(path: Path, rel: str, problems: Problems) -> Copy | None:
    try:
        text = decode(path.read_bytes())
    except OSError as exc:
        problems.add(Problem(rel, None, "", f"cannot read: {exc.strerror or exc}"))
        return None
    except ParseError as exc:
        problems.add(Problem(rel, exc.line, "", exc.message))
        return None
    match = FRONT_MATTER.match(text)
    if not match:
        if FRONT_MATTER_START.match(text):
            problems.add(
                Problem(rel, 1, "front matter", "no closing --- line after the front matter")
            )
            return None
        return Copy(rel, {}, text, 1)
    try:
        doc = parse(match.group(1) or "")
    except ParseError as exc:
        line = exc.line + 1 if exc.line else 1
        problems.add(Problem(rel, line, "front matter", exc.message))
        return None
    meta = {} if doc.data is None else doc.data
    if not isinstance(meta, dict):
        problems.add(
            Problem(rel, 2, "front matter", f"expected a mapping of fields, got {describe(meta)}")
        )
        return None
    # the front matter's first line is the file's second
    lines = {key: doc.lines[(key,)] + 1 for key in meta if (key,) in doc.lines}
    lines[None] = 2
    body_line = text[: match.end()].count("\n") + 1
    return Copy(rel, meta, text[match.end() :], body_line, lines)


def _slugs(value: Any) -> list[str] | None:
    if value is None:
        return None
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


def _is_slug_list(value: Any) -> bool:
    items = value if isinstance(value, list) else [value]
    return all(isinstance(v, str | int | float) and not isinstance(v, bool) for v in items)


def _check_faq(copy: Copy, site_models: dict, site_gpus: dict, problems: Problems) -> bool:
    good = True

    def bad(key: str, message: str) -> None:
        nonlocal good
        problems.add(Problem(copy.rel, copy.line(key), key, message))
        good = False

    question = copy.meta.get("question")
    if not isinstance(question, str) or not question.strip():
        got = (
            "nothing (the field is missing)" if "question" not in copy.meta else describe(question)
        )
        bad("question", f"expected a question in the front matter, got {got}")
    for key, known, file in (("model", site_models, "models"), ("gpu", site_gpus, "gpus")):
        value = copy.meta.get(key)
        if value is not None and not _is_slug_list(value):
            bad(key, f"expected a slug or a list of slugs, got {describe(value)}")
            continue
        for slug in _slugs(value) or []:
            if slug not in known:
                bad(key, f"expected a slug defined in data/{file}.yaml, got {describe(slug)}")
    order = copy.meta.get("order", 0)
    if isinstance(order, bool) or not isinstance(order, int | float) or not math.isfinite(order):
        bad("order", f"expected a number, got {describe(order)}")
    return good


def _check_page(copy: Copy, name: str, problems: Problems) -> bool:
    """content/<name>.md: the name becomes a URL; title and description are text."""
    good = True
    if not SLUG.match(name):
        problems.add(
            Problem(
                copy.rel,
                None,
                "",
                f"the file name {name!r} becomes the page's URL: use lowercase a-z 0-9 . -, "
                "ending with a letter or digit, and rename the file",
            )
        )
        good = False
    for key in ("title", "description"):
        value = copy.meta.get(key)
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, str | int | float)
        ):
            problems.add(
                Problem(copy.rel, copy.line(key), key, f"expected text, got {describe(value)}")
            )
            good = False
    return good


def _check_target(rel: str, kind: str, slug: str, known: Any, file: str, problems: Problems):
    """An intro or write-up for something the site does not have would show nowhere."""
    if known is None or slug in known:
        return True
    problems.add(
        Problem(
            rel,
            None,
            "",
            f'expected a {kind} defined in {file}, got "{slug}" '
            "(this file would show on no page; check the file name)",
        )
    )
    return False


def load_content(
    root: Path, models: dict, gpus: dict, problems: Problems, run_ids: Any = None
) -> Content:
    """Every Markdown file under content/, sorted into where it shows."""
    content = Content()
    base = SiteLayout(root).content
    if not base.is_dir():
        return content
    for path in SiteFiles(root).walk(base, problems, wanted=lambda name: suffix_of(name) == ".md"):
        rel = path.relative_to(root).as_posix()
        parts = path.relative_to(base).with_suffix("").parts
        copy = read_copy(path, rel, problems)
        if copy is None:
            continue
        if parts[0] == "faq" and len(parts) == 2:
            if _check_faq(copy, models, gpus, problems):
                content.faq.append(copy)
        elif parts[0] == "models" and len(parts) == 2:
            if _check_target(rel, "model", parts[1], models, "data/models.yaml", problems):
                content.models[parts[1]] = copy
        elif parts[0] == "gpus" and len(parts) == 2:
            if _check_target(rel, "GPU", parts[1], gpus, "data/gpus.yaml", problems):
                content.gpus[parts[1]] = copy
        elif parts[0] == "pairs" and len(parts) == 3:
            if _check_target(
                rel, "model", parts[1], models, "data/models.yaml", problems
            ) & _check_target(rel, "GPU", parts[2], gpus, "data/gpus.yaml", problems):
                content.pairs[(parts[1], parts[2])] = copy
        elif parts[0] == "runs" and len(parts) == 2:
            if _check_target(rel, "run id", parts[1], run_ids, "data/runs/", problems):
                content.runs[parts[1]] = copy
        elif len(parts) == 1:
            if _check_page(copy, parts[0], problems):
                content.pages[parts[0]] = copy
        else:
            problems.add(Problem(rel, None, "", "not a place content can go (see docs/data.md)"))
    content.faq.sort(key=lambda c: (c.meta.get("order", 0), c.name))
    return content


def faq_applies(copy: Copy, model: str, gpu: str) -> bool:
    models, gpus = _slugs(copy.meta.get("model")), _slugs(copy.meta.get("gpu"))
    return (models is None or model in models) and (gpus is None or gpu in gpus)


def _strict(fn):
    """A display filter that names an unknown placeholder instead of failing on its type."""

    @functools.wraps(fn)
    def filter_(value, *args):
        if isinstance(value, jinja2.Undefined):
            value._fail_with_undefined_error()
        return fn(value, *args)

    return filter_


_ENV = Sandbox({name: _strict(fn) for name, fn in FILTERS.items()})
_MARKDOWN = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")
# markdown-it would silently print a refused link as text; every link is checked by
# `markdown` instead, which names it and its line
_MARKDOWN.validateLink = lambda url: True


def _where(copy: Copy, text: str) -> tuple[int, str]:
    """The first line and field of `text`: the body, or the front-matter field it came from."""
    if text != copy.body:
        for key, value in copy.meta.items():
            # only text holds placeholders (and a list of aliases is never str()-ed: it can
            # be huge)
            if isinstance(key, str) and isinstance(value, str) and value == text:
                return copy.line(key), key
    return copy.body_line, "placeholder"


def _failing_line(first_line: int, text: str, context: dict, failure: Exception) -> tuple[int, str]:
    """The line Jinja names for `failure` and its message, led by the placeholder of that line
    that fails alone in the same words (a block tag such as {% for %} cannot be rendered
    alone, and its body's names are only defined inside it)."""
    line = template_line(failure) or 1
    message = str(failure) or "a placeholder failed"
    for match in PLACEHOLDER.finditer(text):
        if text[: match.start()].count("\n") + 1 != line:
            continue
        try:
            _ENV.render(match.group(0), context)
        except Exception as exc:  # noqa: BLE001 - an editor's expression may fail in any way
            if str(exc) == message:
                return first_line + line - 1, f"{match.group(0)}: {message}"
    return first_line + line - 1, message


def fill(copy: Copy, text: str, context: dict) -> str:
    """Render placeholders in `text` (the body or a front-matter field) in the sandbox."""
    if "{" not in text:
        return text
    first_line, field_ = _where(copy, text)
    try:
        return _ENV.render(text, context)
    except jinja2.TemplateSyntaxError as exc:
        line = first_line + (exc.lineno or 1) - 1
        raise CopyError(Problem(copy.rel, line, field_, exc.message or "syntax error")) from None
    except (LimitExceeded, NotReproducible, RecursionError) as exc:
        line = first_line + (getattr(exc, "line", None) or template_line(exc) or 1) - 1
        message = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise CopyError(Problem(copy.rel, line, field_, message + _on_page(context))) from None
    except Exception as exc:  # noqa: BLE001 - undefined names, filters given the wrong type, ...
        line, message = _failing_line(first_line, text, context, exc)
        raise CopyError(Problem(copy.rel, line, field_, message + _on_page(context))) from None


def _on_page(context: dict) -> str:
    """Which page a placeholder failed on: an FAQ entry joins many, and only some lack a value."""
    model, gpu = context.get("model"), context.get("gpu")
    if model is None or gpu is None:
        return ""
    name = getattr(model, "name", model)
    hint = f" (on the page of {name} on {getattr(gpu, 'name', gpu)}"
    if "headline" not in context:
        hint += ", which has no quick answer: no status: ok config of the default workload"
    elif any(value is None for value in context["headline"].values()):
        hint += ", where no config reaches the headline target, so headline values are empty"
    return hint + ")"


class LinkError(ValueError):
    """A link or image in Markdown that no page may carry; `line` counts from 0."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def _check_links(tokens: list) -> None:
    for token in tokens:
        for child in token.children or ():
            if child.type == "link_open":
                url, why = str(child.attrs.get("href", "")), markdown_link_problem
            elif child.type == "image":
                url, why = str(child.attrs.get("src", "")), markdown_image_problem
            else:
                continue
            if problem := why(url):
                line = token.map[0] if token.map else 0
                raise LinkError(line, f"expected {problem}, got {describe(url)}")


def markdown(text: str) -> Markup:
    """CommonMark with tables; raw HTML is escaped, never passed through; a link that is not
    http(s), mailto or within the site, or an image from elsewhere, raises LinkError."""
    tokens = _MARKDOWN.parse(text)
    _check_links(tokens)
    return Markup(_MARKDOWN.renderer.render(tokens, _MARKDOWN.options, {}))


def render_copy(copy: Copy, context: dict) -> Markup:
    try:
        return markdown(fill(copy, copy.body, context))
    except LinkError as exc:
        raise CopyError(Problem(copy.rel, copy.body_line + exc.line, "link", exc.message)) from None
