"""Templates compiled ahead by another process: Jinja's parse and code generation off the
path of the build that renders them.

A build that makes a few pages still compiles every template they use: Jinja parses each and
generates its Python (0.14 s for the 13 templates of a site), and page keys parse each again
for the templates it uses. The survey's child (survey.py) does both while the build loads and
plans, and hands over, per template, the digest of its source, the Python Jinja made of it and
the templates it names. Here they go in through Jinja's own hook for compiled templates (a
BytecodeCache, kept in memory only: nothing is read back from disk). A template whose source
is no longer the one the child compiled (edited meanwhile) is compiled here, as Jinja always
does; one the child could not compile is too, and reports its own error.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import jinja2
import jinja2.meta

# Jinja's key of a template (its name and file) -> [source digest, file name, Python, references]
Compiled = dict[str, list]


def source_digest(source: str) -> str:
    return hashlib.sha1(source.encode("utf-8")).hexdigest()  # noqa: S324 - Jinja's own


def references(env: jinja2.Environment, source: str) -> tuple[str | None, ...]:
    """The templates a template's source extends, includes or imports (None: a name computed
    at render time)."""
    return tuple(jinja2.meta.find_referenced_templates(env.parse(source)))


def compile_all(env: jinja2.Environment) -> Compiled:
    """Every page template of `env` ready to hand over; one that fails is left out."""
    out: Compiled = {}
    for name in env.list_templates(filter_func=lambda name: name.endswith(".html")):
        try:
            source, filename, _ = env.loader.get_source(env, name)
            python = env.compile(source, name, filename, raw=True)
            refs = list(references(env, source))
        except (jinja2.TemplateError, UnicodeDecodeError, OSError):
            continue
        out[_KEYS.get_cache_key(name, filename)] = [source_digest(source), filename, python, refs]
    return out


_KEYS = jinja2.BytecodeCache()  # Jinja's keys of templates, as a bucket has them


class HandedCode(jinja2.BytecodeCache):
    """Jinja's compiled-template hook, given templates compiled by another process."""

    def __init__(self, compiled: Callable[[], Compiled | None]) -> None:
        self._compiled = compiled  # asked when the first template is loaded
        self._entries: dict[str, list] | None = None
        self._references: dict[str, tuple[str | None, ...]] = {}  # source digest -> names

    def _handed(self) -> dict[str, list]:
        if self._entries is None:
            self._entries = {}
            handed = self._compiled()
            if isinstance(handed, dict):
                for key, entry in handed.items():
                    if isinstance(key, str) and _valid(entry):
                        self._entries[key] = entry
                        self._references[entry[0]] = tuple(entry[3])
        return self._entries

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        entry = self._handed().get(bucket.key)
        if entry is not None and entry[0] == bucket.checksum:  # the source the child compiled
            _, filename, python, _ = entry
            bucket.code = compile(python, filename or "<template>", "exec")  # as Jinja does

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """Nothing is kept: the next build's child compiles again."""

    def references(self, source: str) -> tuple[str | None, ...] | None:
        """What references(source) gives, if the child found it; else None."""
        self._handed()
        return self._references.get(source_digest(source))


def _valid(entry: object) -> bool:
    if not (isinstance(entry, list) and len(entry) == 4):
        return False
    digest, filename, python, refs = entry
    return (
        isinstance(digest, str)
        and (filename is None or isinstance(filename, str))
        and isinstance(python, str)
        and isinstance(refs, list)
        and all(r is None or isinstance(r, str) for r in refs)
    )
