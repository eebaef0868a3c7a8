"""Sentences a view writes from a page's numbers, as phrases: the words are the view's, the
markup is the template's (the theme's `sentence` macro in _macros.html prints a stressed
phrase in <strong>)."""

from __future__ import annotations

from typing import NamedTuple


class Phrase(NamedTuple):
    text: str
    strong: bool = False  # the words a reader should not miss: the answer itself


def stressed(text: str) -> Phrase:
    return Phrase(text, strong=True)


def plain(sentence: list[Phrase]) -> str:
    """The sentence as one line of text (a page's description): its phrases joined, white
    space folded."""
    return " ".join("".join(p.text for p in sentence).split())


__all__ = ["Phrase", "plain", "stressed"]
