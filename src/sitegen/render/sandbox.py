"""The sandbox editors' placeholders run in: nothing in it can be changed, and every render is
bounded in time, loop steps, the size of what it makes and the size of its output.

Jinja's ImmutableSandboxedEnvironment already refuses `_` attributes and the methods that
change lists and dicts (`headline.costs.update(...)` would rewrite every page's numbers). On
top of it each render gets a Budget, and the template is rewritten before it is compiled so
that every place where work or text can pile up passes through it:

- every `{% for %}` (and a recursive `loop(...)`) counts its iterations as steps;
- every call, filter and intercepted operator counts a step, and checks the clock;
- every value a filter, call, `~`, `+`, `*` or `%` makes counts towards what the render made,
  and no single value may exceed MAX_VALUE; `*`, `**` and `%` are checked before they run,
  as are `replace` and `join`, so that no step allocates much more than it is allowed;
- every piece of output counts towards MAX_OUTPUT;
- filters are the display filters and a list of Jinja's that cannot multiply their input;
  string methods that can (`center`, `replace`, `format`...) are refused, as is `lipsum`.

Exceeding a limit raises LimitExceeded, whose message names the limit.
"""

from __future__ import annotations

import functools
import re
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.filters import FILTERS as JINJA_FILTERS
from jinja2.runtime import LoopContext
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.visitor import NodeTransformer

from .jsonhtml import json_for_html
from .reproducible import check_text, printable

MAX_SECONDS = 1.0  # one file's placeholders on one page
MAX_STEPS = 100_000  # loop iterations, calls, filters and operators
MAX_VALUE = 100_000  # characters (or items) of any one value made
MAX_MADE = 10_000_000  # characters (or items) of all values made, garbage included
MAX_OUTPUT = 1_000_000  # characters of output
MAX_RANGE = 10_000
MAX_INT_BITS = 4_096

# Jinja's filters that make at most about as much as they are given. Left out: center,
# indent, wordwrap, batch, slice (they pad or repeat), filesizeformat, urlize, xmlattr,
# safe, forceescape (markup), pprint (reprs) and random (a different page every build).
JINJA_ALLOWED = (
    "abs",
    "attr",
    "capitalize",
    "count",
    "d",
    "default",
    "dictsort",
    "e",
    "escape",
    "first",
    "float",
    "format",
    "groupby",
    "int",
    "items",
    "join",
    "last",
    "length",
    "list",
    "lower",
    "map",
    "max",
    "min",
    "reject",
    "rejectattr",
    "replace",
    "reverse",
    "round",
    "select",
    "selectattr",
    "sort",
    "string",
    "striptags",
    "sum",
    "title",
    "tojson",
    "trim",
    "truncate",
    "unique",
    "upper",
    "urlencode",
    "wordcount",
)
# str methods that multiply their input (or format it with a width)
AMPLIFYING = frozenset(
    (
        "center",
        "ljust",
        "rjust",
        "zfill",
        "expandtabs",
        "format",
        "format_map",
        "join",
        "replace",
        "translate",
    )
)
# a %-format width or precision: %10s, %.3f, %*d
_FORMAT_SPEC = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")


class LimitExceeded(Exception):
    """A placeholder went over one of the sandbox's limits; `line` is the line of the text
    rendered where it did (None where it cannot be told)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


def template_line(exc: BaseException) -> int | None:
    """The line of the rendered text where `exc` was raised (Jinja maps its frames)."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename == "<template>":
            return frame.lineno
    return None


@dataclass
class Budget:
    deadline: float
    steps: int = 0
    made: int = 0
    output: int = 0


_local = threading.local()


def _budget() -> Budget | None:
    return getattr(_local, "budget", None)


def _step(count: int = 1) -> None:
    budget = _budget()
    if budget is None:  # compiling: nothing is rendered yet
        return
    budget.steps += count
    if budget.steps > MAX_STEPS:
        raise LimitExceeded(
            f"stopped after {MAX_STEPS:,} steps (loop iterations and calls): a placeholder "
            "quotes the page's values, it does not compute at length"
        )
    if time.monotonic() > budget.deadline:
        raise LimitExceeded(f"stopped after {MAX_SECONDS:g} s: placeholders must be quick")


def _sized(value: Any) -> Any:
    """Count a value just made; refuse one larger than MAX_VALUE."""
    if isinstance(value, str | bytes | list | tuple | dict | set | frozenset):
        size = len(value)
        if size > MAX_VALUE:
            raise LimitExceeded(
                f"made a value of {size:,} characters or items (at most {MAX_VALUE:,})"
            )
        budget = _budget()
        if budget is not None:
            budget.made += size
            if budget.made > MAX_MADE:
                raise LimitExceeded(f"made more than {MAX_MADE:,} characters in all")
    elif isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
        raise LimitExceeded(f"made a number of more than {MAX_INT_BITS:,} bits")
    return value


def _refuse_large(projected: int) -> None:
    if projected > MAX_VALUE:
        raise LimitExceeded(
            f"would make a value of {projected:,} characters or items (at most {MAX_VALUE:,})"
        )


def _check_format(template: Any) -> None:
    """A %-format whose width or precision would pad the text beyond MAX_VALUE."""
    if not isinstance(template, str):
        return
    for match in _FORMAT_SPEC.finditer(template):
        for part in match.groups():
            if part == "*" or (part is not None and int(part) > MAX_VALUE):
                raise LimitExceeded(f"a %-format width above {MAX_VALUE:,}: {match.group(0)}")


def _steps(iterable: Iterable) -> Iterator:
    for item in iterable:
        _step()
        yield item


def _ints(*values: Any) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) for v in values)


def bounded_range(*args: int) -> range:
    numbers = range(*args)
    if len(numbers) > MAX_RANGE:
        raise LimitExceeded(f"range of {len(numbers):,} numbers (at most {MAX_RANGE:,})")
    return numbers


# -- filters --------------------------------------------------------------------------------


@jinja2.pass_context
def _loop(context: Any, iterable: Iterable) -> Iterator:
    """What every {% for %} iterates: the same items, each counted as a step."""
    return _steps(iterable)


@jinja2.pass_context
def _made(context: Any, value: Any) -> Any:
    """What every `~` makes, counted and bounded."""
    _step()
    return _sized(value)


@jinja2.pass_context
def _output(context: Any, value: Any) -> str:
    """Every piece of output, counted: the render stops once it has written MAX_OUTPUT."""
    if isinstance(value, jinja2.Undefined):
        return value  # type: ignore[return-value]  # fails as StrictUndefined does
    text = str(printable(value))
    check_text(text)
    budget = _budget()
    if budget is not None:
        budget.output += len(text)
        if budget.output > MAX_OUTPUT:
            raise LimitExceeded(f"wrote more than {MAX_OUTPUT:,} characters")
    return text


INTERNAL = {"__sitegen_loop": _loop, "__sitegen_made": _made, "__sitegen_output": _output}


def _replace(eval_ctx: Any, value: Any, old: Any, new: Any, count: Any = None) -> Any:
    text, old_text, new_text = str(value), str(old), str(new)
    found = text.count(old_text) if old_text else len(text) + 1
    _refuse_large(len(text) + found * max(len(new_text) - len(old_text), 0))
    return JINJA_FILTERS["replace"](eval_ctx, value, old, new, count)


def _join(eval_ctx: Any, value: Iterable, d: str = "", attribute: Any = None) -> str:
    items, size = [], 0
    for item in value:
        _step()
        items.append(item)
        size += len(str(item)) + len(str(d))
        _refuse_large(size)
    return JINJA_FILTERS["join"](eval_ctx, items, d, attribute)


def _format(value: Any, *args: Any, **kwargs: Any) -> str:
    _check_format(value)
    return JINJA_FILTERS["format"](value, *args, **kwargs)


_replace = jinja2.pass_eval_context(_replace)
_join = jinja2.pass_eval_context(_join)
REPLACED = {"replace": _replace, "join": _join, "format": _format, "tojson": json_for_html}


def _bounded(fn: Callable) -> Callable:
    """A filter counted as a step, its number arguments and its result bounded."""

    @functools.wraps(fn)  # keeps pass_context and the like
    def filter_(*args: Any, **kwargs: Any) -> Any:
        _step()
        for arg in (*args, *kwargs.values()):
            if isinstance(arg, int) and not isinstance(arg, bool) and abs(arg) > MAX_VALUE:
                raise LimitExceeded(f"a filter given the number {arg:,} (at most {MAX_VALUE:,})")
        return _sized(fn(*args, **kwargs))

    return filter_


# -- the rewrite ----------------------------------------------------------------------------


def _through(name: str, node: nodes.Expr) -> nodes.Filter:
    return nodes.Filter(node, name, [], [], None, None, lineno=node.lineno)


class _Bound(NodeTransformer):
    """Routes loops, concatenations and output through the budget's filters."""

    def visit_For(self, node: nodes.For) -> nodes.For:
        self.generic_visit(node)
        node.iter = _through("__sitegen_loop", node.iter)
        return node

    def visit_Concat(self, node: nodes.Concat) -> nodes.Filter:
        self.generic_visit(node)
        return _through("__sitegen_made", node)

    def visit_Output(self, node: nodes.Output) -> nodes.Output:
        self.generic_visit(node)
        node.nodes = [_through("__sitegen_output", child) for child in node.nodes]
        return node


# Tags that would read another file: a placeholder only quotes the page's values.
_FILE_TAGS = (nodes.Include, nodes.Import, nodes.FromImport, nodes.Extends)


class Sandbox(ImmutableSandboxedEnvironment):
    """An immutable sandbox whose renders are bounded (see the module's docstring)."""

    intercepted_binops = frozenset(("*", "**", "%", "+", "//"))

    def __init__(self, filters: dict[str, Callable]) -> None:
        super().__init__(
            undefined=jinja2.StrictUndefined,
            autoescape=False,
            keep_trailing_newline=True,
            optimized=False,  # nothing folded at compile time, outside the budget
        )
        self._over_limit: dict[str, tuple[str, int | None]] = {}
        del self.globals["lipsum"]
        self.globals["range"] = bounded_range
        allowed = {name: self.filters[name] for name in JINJA_ALLOWED} | REPLACED | filters
        self.filters = {name: _bounded(fn) for name, fn in allowed.items()} | INTERNAL

    # every attribute, item, call and operator is a step
    def getattr(self, obj: Any, attribute: str) -> Any:
        _step()
        if isinstance(obj, str) and attribute in AMPLIFYING:
            return self.unsafe_undefined(obj, attribute)
        return super().getattr(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        _step()
        if isinstance(obj, str) and isinstance(argument, str) and argument in AMPLIFYING:
            return self.unsafe_undefined(obj, argument)
        return _sized(super().getitem(obj, argument))

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        _step()
        if isinstance(__obj, LoopContext) and args:  # loop(children) of a recursive loop
            args = (_steps(args[0]), *args[1:])
        return _sized(super().call(__context, __obj, *args, **kwargs))

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        _step()
        if operator == "*":
            for many, times in ((left, right), (right, left)):
                if isinstance(many, str | list | tuple) and isinstance(times, int):
                    _refuse_large(len(many) * max(times, 0))
            bits = (left.bit_length() + right.bit_length()) if _ints(left, right) else 0
            if bits > MAX_INT_BITS:
                raise LimitExceeded(f"made a number of more than {MAX_INT_BITS:,} bits")
        elif operator == "**" and _ints(left, right):
            if right > 0 and max(left.bit_length(), 1) * right > MAX_INT_BITS:
                raise LimitExceeded(f"made a number of more than {MAX_INT_BITS:,} bits")
        elif operator == "%":
            _check_format(left)
        return _sized(super().call_binop(context, operator, left, right))

    # compiling: file tags refused, then the rewrite
    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        tree = super()._parse(source, name, filename)
        for node in tree.find_all(_FILE_TAGS):
            tag = {"FromImport": "from ... import"}.get(type(node).__name__, type(node).__name__)
            raise jinja2.TemplateSyntaxError(
                f"{{% {tag.lower()} %}} cannot be used in content: a placeholder may only "
                "quote the page's values, never another file",
                node.lineno,
                name,
                filename,
            )
        return _Bound().visit(tree)

    @functools.lru_cache(maxsize=512)  # noqa: B019 - one sandbox per process, kept for good
    def template(self, text: str) -> jinja2.Template:
        return self.from_string(text)

    def render(self, text: str, context: dict) -> str:
        """`text` rendered with `context` within the limits; LimitExceeded beyond them.

        A text that went over a limit once is not run again (an FAQ entry joins every page:
        one that loops for a second would otherwise cost a second per page).
        """
        if (over := self._over_limit.get(text)) is not None:
            raise LimitExceeded(*over)
        outer = _budget()
        _local.budget = Budget(time.monotonic() + MAX_SECONDS)
        try:
            return self.template(text).render(context)
        except LimitExceeded as exc:
            exc.line = exc.line or template_line(exc)
            if len(self._over_limit) > 256:
                self._over_limit.clear()
            self._over_limit[text] = (str(exc), exc.line)
            raise
        finally:
            _local.budget = outer
