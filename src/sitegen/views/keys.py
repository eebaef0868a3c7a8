"""Page keys: the digest of everything that goes into an output, computed before building it.

A job's key covers what its view builder reads: the run files of the pairs it shows (by the
digest of the very bytes that were parsed), the editors' copy it quotes, the templates it
renders with (the template and every template it extends, includes or imports), and what every
page shares: sitegen.yaml and the catalogs, the navigation, and the code itself. Equal keys
mean equal outputs, so a build can keep the last output of a job whose key did not change.
"""

from __future__ import annotations

import functools
from collections.abc import Collection
from typing import Any, NamedTuple

import jinja2
import jinja2.meta

from ..cache import keys as keyhash
from ..cache.codeversion import code_version
from ..records import Run
from ..records.fingerprint import library_versions
from ..render.content import Copy
from .feeds import entry_facts
from .sources import Sources

_h = keyhash.of


@functools.lru_cache(maxsize=512)
def _references(env: jinja2.Environment, source: str) -> tuple[str | None, ...]:
    """The templates a template's source extends, includes or imports (None: a name computed
    at render time), parsed once per process: the preview keys every build's jobs again."""
    return tuple(jinja2.meta.find_referenced_templates(env.parse(source)))


def pair_read(model: str, gpu: str) -> str:
    """What a key that reads a pair's run files records it read (slugs hold no colon)."""
    return f"pair:{model}:{gpu}"


def facts_read(model: str) -> str:
    """What a key that reads a model's runs' feed facts records it read."""
    return f"facts:{model}"


class KeysFound(NamedTuple):
    """What one plan's keys found: pair digests, models' feed facts, the templates keys were
    made with, and what each key read (Keys.reads)."""

    pairs: dict[tuple[str, str], str]
    facts: dict[str, str]
    used: set[str]
    reads: dict[str, Collection[str]]


class Keys:
    """Key makers for one plan's jobs. With `record`, each key made is kept with what of the
    runs it read (`reads`: the pairs and the run files whose digest went into it, and the
    models whose runs' feed facts did: `pair_read`, `facts_read`), which the preview's next plan
    asks (views.replan)."""

    def __init__(
        self, src: Sources, env: jinja2.Environment, nav_pages: list[str], record: bool = False
    ) -> None:
        self.src = src
        self.env = env
        catalogs = src.site.shared_digests()
        # the code and the libraries that shape a page (a new rasteriser draws other cards)
        self.shared = _h(code_version(), library_versions(), catalogs, nav_pages)
        self._templates: dict[str, str] = {}
        self._pairs: dict[tuple[str, str], str] = {}
        self._facts: dict[str, str] = {}  # model -> its runs' feed facts
        self.used: set[str] = set()  # the templates keys were made with
        self.reads: dict[str, Collection[str]] = {}  # key -> the run files, pairs, models it read
        self._reading: set | None = set() if record else None

    def of(self, kind: str, template: str | None, *parts: Any) -> str:
        """The key of a job of `kind` rendered with `template`, reading `parts`."""
        key = _h(kind, self.shared, self.template(template) if template else None, parts)
        if self._reading is not None:
            self.reads[key] = frozenset(self._reading)
            self._reading.clear()
            if template:
                self.used.add(template)
        return key

    @property
    def recording(self) -> bool:
        """Whether each key keeps what it read."""
        return self._reading is not None

    def found(self) -> KeysFound:
        """What this plan's keys found, for the next plan to carry (nothing of the sources)."""
        return KeysFound(self._pairs, self._facts, self.used, self.reads)

    def carry(self, last: KeysFound, stale: set) -> None:
        """The last plan's pair digests and models' feed facts, but the `stale` ones (of what
        a rebuild read again), taken as this plan's; its templates as used by this one."""
        self._pairs = {k: v for k, v in last.pairs.items() if pair_read(*k) not in stale}
        self._facts = {k: v for k, v in last.facts.items() if facts_read(k) not in stale}
        self.used.update(last.used)  # a kept job's key was made with them

    def template(self, name: str) -> str:
        """The digest of a template and of every template it uses, however deep."""
        if name not in self._templates:
            seen: dict[str, str] = {}
            todo = [name]
            while todo:
                current = todo.pop()
                if current in seen:
                    continue
                try:
                    source, _, _ = self.env.loader.get_source(self.env, current)
                    refs = list(_references(self.env, source))
                except (jinja2.TemplateError, UnicodeDecodeError) as exc:
                    seen[current] = repr(exc)  # rendering reports it, with its line
                    continue
                seen[current] = source
                if None in refs:  # a name computed at render time: it may be any template
                    refs = self.env.list_templates()
                todo.extend(refs)
            self._templates[name] = _h(sorted(seen.items()))
        return self._templates[name]

    def run(self, run: Run) -> tuple[str, str, str | None]:
        """A run file's bytes, as what names them: a key's part, which the key hashes (a run's
        job and its pair's jobs read it; 16,000 digests of their own were a tenth of a plan)."""
        if self._reading is not None:
            self._reading.add(run.path)
        return self.src.site.run_identity(run)

    def facts(self, model: str) -> str:
        """What the feed entries of a model's runs say (feeds.entry_facts), in the site's
        order: a feed whose runs' facts did not change is the same feed, whatever their
        figures are. Made once per plan."""
        if self._reading is not None:
            self._reading.add(facts_read(model))
        if model not in self._facts:
            self._facts[model] = _h([entry_facts(r) for r in self.src.runs_of_model(model)])
        return self._facts[model]

    def pair(self, model: str, gpu: str) -> str:
        """Every run file of a model x GPU: its summaries are a function of these alone."""
        if self._reading is not None:
            self._reading.add(pair_read(model, gpu))
        if (model, gpu) not in self._pairs:
            runs = self.src.runs_of.get((model, gpu), [])
            self._pairs[(model, gpu)] = _h(sorted(map(self.src.site.run_identity, runs)))
        return self._pairs[(model, gpu)]

    @staticmethod
    def copy(copy: Copy | None) -> str | None:
        if copy is None:
            return None
        return _h(copy.rel, copy.meta, copy.body, copy.body_line)

    @functools.cached_property
    def faq(self) -> str:
        return _h([self.copy(c) for c in self.src.content.faq])
