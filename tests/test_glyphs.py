"""Text as glyph outlines of the shipped fonts: widths, cutting to fit, and what is dropped."""

from __future__ import annotations

from sitegen import glyphs


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


def test_each_glyph_is_defined_once_and_used_where_drawn():
    g = glyphs.Glyphs()
    first = g.text("aba", 10, 20, 30, "#000", "regular")
    g.text("ab", 10, 60, 30, "#000", "bold")
    defs = g.defs()
    assert first.count("<use") == 3
    assert defs.count("<path") == 4  # a and b, regular and bold
    # a space has no outline: it moves the pen, draws nothing
    assert g.text("a a", 0, 0, 10, "#000", "regular").count("<use") == 2


def test_the_fonts_are_shipped_with_their_license():
    folder = glyphs.font_dir()
    assert all((folder / name).is_file() for name in glyphs.FACES.values())
    assert "Bitstream" in (folder / "LICENSE.txt").read_text()
    assert len(glyphs.fonts_digest()) == 32
