"""Editors' copy: Markdown with YAML front matter, placeholders rendered in a sandbox."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import yaml
from jinja2.sandbox import SandboxedEnvironment
from markdown_it import MarkdownIt
from markupsafe import Markup

from .display import FILTERS
from .records.problems import Problem, Problems

FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*\r?\n", re.S)
PLACEHOLDER = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)


@dataclass(frozen=True)
class Copy:
    """One Markdown file: where it lives, its front matter, its body and the body's first line."""

    rel: str
    meta: dict
    body: str
    body_line: int = 1

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
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        problems.add(Problem(rel, None, "", f"cannot read: {exc}"))
        return None
    match = FRONT_MATTER.match(text)
    if not match:
        return Copy(rel, {}, text, 1)
    try:
        meta = yaml.safe_load(match.group(1)) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problems.add(
            Problem(
                rel,
                mark.line + 2 if mark else 1,
                "front matter",
                f"not valid YAML: {getattr(exc, 'problem', exc)}",
            )
        )
        return None
    if not isinstance(meta, dict):
        problems.add(Problem(rel, 2, "front matter", "expected a mapping of fields"))
        return None
    return Copy(rel, meta, text[match.end() :], text[: match.end()].count("\n") + 1)


def _slugs(value: Any) -> list[str] | None:
    if value is None:
        return None
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


def _check_faq(copy: Copy, site_models: dict, site_gpus: dict, problems: Problems) -> bool:
    good = True
    if not isinstance(copy.meta.get("question"), str) or not copy.meta["question"].strip():
        problems.add(
            Problem(
                copy.rel,
                2,
                "question",
                f"expected a question in the front matter, got {copy.meta.get('question')!r}",
            )
        )
        good = False
    for key, known, file in (("model", site_models, "models"), ("gpu", site_gpus, "gpus")):
        for slug in _slugs(copy.meta.get(key)) or []:
            if slug not in known:
                problems.add(
                    Problem(
                        copy.rel,
                        2,
                        key,
                        f'expected a slug defined in data/{file}.yaml, got "{slug}"',
                    )
                )
                good = False
    order = copy.meta.get("order", 0)
    if isinstance(order, bool) or not isinstance(order, int | float):
        problems.add(Problem(copy.rel, 2, "order", f"expected a number, got {order!r}"))
        good = False
    return good


def load_content(root: Path, models: dict, gpus: dict, problems: Problems) -> Content:
    """Every Markdown file under content/, sorted into where it shows."""
    content = Content()
    base = root / "content"
    if not base.is_dir():
        return content
    for path in sorted(base.rglob("*.md")):
        rel = path.relative_to(root).as_posix()
        parts = path.relative_to(base).with_suffix("").parts
        copy = read_copy(path, rel, problems)
        if copy is None:
            continue
        if parts[0] == "faq" and len(parts) == 2:
            if _check_faq(copy, models, gpus, problems):
                content.faq.append(copy)
        elif parts[0] == "models" and len(parts) == 2:
            content.models[parts[1]] = copy
        elif parts[0] == "gpus" and len(parts) == 2:
            content.gpus[parts[1]] = copy
        elif parts[0] == "pairs" and len(parts) == 3:
            content.pairs[(parts[1], parts[2])] = copy
        elif parts[0] == "runs" and len(parts) == 2:
            content.runs[parts[1]] = copy
        elif len(parts) == 1:
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

    def filter_(value, *args):
        if isinstance(value, jinja2.Undefined):
            value._fail_with_undefined_error()
        return fn(value, *args)

    return filter_


def _sandbox() -> SandboxedEnvironment:
    env = SandboxedEnvironment(
        undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=True
    )
    env.filters.update({name: _strict(fn) for name, fn in FILTERS.items()})
    return env


_ENV = _sandbox()
_MARKDOWN = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")


def _failing_line(copy: Copy, text: str, context: dict) -> tuple[int, str]:
    """Find which placeholder fails by rendering each alone."""
    for match in PLACEHOLDER.finditer(text):
        try:
            _ENV.from_string(match.group(0)).render(context)
        except Exception as exc:  # noqa: BLE001 - an editor's expression may fail in any way
            return copy.body_line + text[: match.start()].count("\n"), f"{match.group(0)}: {exc}"
    return copy.body_line, "a placeholder failed"


def fill(copy: Copy, text: str, context: dict) -> str:
    """Render placeholders in `text` (the body or a front-matter field) in the sandbox."""
    if "{" not in text:
        return text
    try:
        return _ENV.from_string(text).render(context)
    except jinja2.TemplateSyntaxError as exc:
        line = copy.body_line + (exc.lineno or 1) - 1
        raise CopyError(
            Problem(copy.rel, line, "placeholder", exc.message or "syntax error")
        ) from None
    except Exception:  # noqa: BLE001 - undefined names, filters given the wrong type, ...
        line, message = _failing_line(copy, text, context)
        raise CopyError(Problem(copy.rel, line, "placeholder", message)) from None


def markdown(text: str) -> Markup:
    """CommonMark with tables; raw HTML is escaped, never passed through."""
    return Markup(_MARKDOWN.render(text))


def render_copy(copy: Copy, context: dict) -> Markup:
    return markdown(fill(copy, copy.body, context))
