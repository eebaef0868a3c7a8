"""Display names: the characters a name may not carry, and the folding that finds lookalikes.

A name shows on pages, in titles and in link previews, where an invisible character (a
zero-width space), a bidirectional control (a right-to-left override, which reorders what
follows it) or a control character (ESC, a newline) hides or changes what a reader sees. And
two names that differ only in such characters, in case, in compatibility forms (NFKC) or in a
Cyrillic or Greek letter drawn like a Latin one read as one name on the page, as two rows.
"""

from __future__ import annotations

import unicodedata

# control, format (zero-width, bidirectional, soft hyphen), line and paragraph separators,
# private use and surrogates
FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs"})
# letters and marks that draw nothing: Hangul fillers, the combining grapheme joiner, the
# Braille blank
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u034f\u2800")

# Cyrillic and Greek letters drawn like Latin ones (after NFKC, before casefolding); a small,
# common set from Unicode's confusables.txt, not the whole table
CONFUSABLES = str.maketrans(
    {
        # Cyrillic capitals
        "А": "A", "В": "B", "Е": "E", "Ѕ": "S", "І": "I", "Ј": "J", "К": "K", "М": "M",
        "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "Х": "X", "Ү": "Y", "Ԛ": "Q",
        "Ԝ": "W", "Ꙅ": "S", "Ӏ": "I",
        # Cyrillic small letters
        "а": "a", "е": "e", "ѕ": "s", "і": "i", "ј": "j", "о": "o", "р": "p", "с": "c",
        "у": "y", "х": "x", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ү": "y", "ӏ": "l",
        # Greek capitals
        "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
        "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
        # Greek small letters
        "ο": "o", "ν": "v", "ι": "i", "κ": "k", "ρ": "p", "α": "a", "τ": "t", "υ": "u",
    }
)  # fmt: skip


def forbidden(ch: str) -> bool:
    """Whether a name may not carry this character (it is invisible or a control)."""
    return ch in INVISIBLE or unicodedata.category(ch) in FORBIDDEN_CATEGORIES


def first_forbidden(text: str) -> str | None:
    """The first character of `text` a name may not carry, if any."""
    return next((ch for ch in text if forbidden(ch)), None)


def without_forbidden(text: str) -> str:
    """`text` without the characters a name may not carry (and no control in a title)."""
    if first_forbidden(text) is None:
        return text
    return "".join(ch for ch in text if not forbidden(ch))


def describe_char(ch: str) -> str:
    """U+202E (RIGHT-TO-LEFT OVERRIDE): a character named, never shown."""
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}" + (f" ({name})" if name else "")


def fold(name: str) -> str:
    """What a name looks like: equal for names a reader cannot tell apart."""
    text = without_forbidden(unicodedata.normalize("NFKC", name))
    text = unicodedata.normalize("NFKC", text.translate(CONFUSABLES)).casefold()
    return " ".join(text.split())
