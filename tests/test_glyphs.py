"""Text as glyph outlines of the shipped fonts: widths, cutting to fit, and what is dropped."""

from __future__ import annotations

from sitegen.cards import glyphs


def test_printable_drops_control_and_format_characters_and_folds_spaces():
    assert glyphs.printable("a\x00b\x1b c\n\td\u200b\u202e") == "ab c d"
    assert glyphs.printable("  plain  text ") == "plain text"
    assert glyphs.printable("B200") == "B200"


def test_width_grows_with_text_and_size():
    face = glyphs.face("regular")
    assert 0 < face.width("i", 20) < face.width("W", 20) < face.width("WW", 20)
    assert face.width("W", 40) == 2 * face.width("W", 20)
    assert glyphs.face("bold").width("abc", 20) > face.width("abc", 20)


def test_fit_cuts_with_an_ellipsis_to_the_width():
    text = "A very long model name " * 5
    cut = glyphs.fit(text, 30, 300)
    assert cut.endswith(glyphs.ELLIPSIS) and len(cut) < len(text)
    assert glyphs.face("regular").width(cut, 30) <= 300
    assert glyphs.fit("Short", 30, 300) == "Short"


def _fit_by_cutting(text: str, size: float, width: float) -> str:
    """What fit() did before it read no further than fits: cut one character at a time."""
    f = glyphs.face("regular")
    text = glyphs.printable(text)
    if f.width(text, size) <= width:
        return text
    while text and f.width(text + glyphs.ELLIPSIS, size) > width:
        text = text[:-1]
    return text.rstrip() + glyphs.ELLIPSIS


def test_fit_cuts_where_cutting_a_character_at_a_time_would():
    for text in ("", "x", "Model One on GPU Two", "a b " * 30, "WWWW iiii " * 9, "\x00" * 5):
        for width in (0, 5, 29.9, 100, 300, 1000):
            assert glyphs.fit(text, 30, width) == _fit_by_cutting(text, 30, width), (text, width)


def test_fit_reads_no_more_of_a_huge_string_than_fits():
    import time

    huge = "W" * 2_000_000
    start = time.process_time()
    cut = glyphs.fit(huge, 30, 300)
    assert time.process_time() - start < 1.0
    assert cut.endswith(glyphs.ELLIPSIS) and glyphs.face().width(cut, 30) <= 300


def test_a_character_the_font_lacks_is_as_wide_as_its_missing_glyph():
    face = glyphs.face("regular")
    assert face.glyph("\U0010fffd") == ".notdef"
    assert face.advance("\U0010fffd") == face.advance("\U0010fffc") > 0


def test_the_fonts_are_shipped_with_their_license():
    folder = glyphs.font_dir()
    assert all((folder / name).is_file() for name in glyphs.FACES.values())
    assert "Bitstream" in (folder / "LICENSE.txt").read_text()
    assert len(glyphs.fonts_digest()) == 32
