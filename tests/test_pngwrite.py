"""The palette PNG writer: read back by zlib and Pillow as its entries and palette."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from sitegen import pngwrite
from sitegen.fingerprint import library_versions


def _rows(entries: np.ndarray) -> np.ndarray:
    rows = np.zeros((entries.shape[0], entries.shape[1] + 1), np.uint8)
    rows[:, 1:] = entries
    return rows


def test_a_png_reads_back_as_its_entries_and_palette():
    rng = np.random.default_rng(9)
    entries = np.repeat(rng.integers(0, 7, (40, 30)), 4, axis=1).astype(np.uint8)
    palette = bytes(rng.integers(0, 256, 21).astype(np.uint8))
    with Image.open(io.BytesIO(pngwrite.png(_rows(entries), palette))) as image:
        assert image.mode == "P" and image.size == (120, 40)
        assert np.array_equal(np.asarray(image), entries)
        assert bytes(image.getpalette()[:21]) == palette


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 40),
    st.integers(1, 60),
    st.lists(st.tuples(st.integers(0, 255), st.integers(1, 900)), min_size=1, max_size=30),
)
def test_any_entries_come_back_from_zlib_with_every_chunk_checked(height, width, runs):
    values, lengths = (np.array(column) for column in zip(*runs, strict=True))
    entries = np.resize(np.repeat(values, lengths), height * width)
    rows = _rows(entries.astype(np.uint8).reshape(height, width))
    data = pngwrite.png(rows, b"\x10\x20\x30" * 256)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = {}, 8
    while at < len(data):  # each chunk: length, kind, data, the CRC of kind and data
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        assert data[at + 8 + length : at + 12 + length] == struct.pack(
            ">I", zlib.crc32(kind + body)
        )
        chunks[kind] = body
        at += 12 + length
    assert list(chunks) == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    assert struct.unpack(">IIBBBBB", chunks[b"IHDR"]) == (width, height, 8, 3, 0, 0, 0)
    assert zlib.decompress(chunks[b"IDAT"]) == rows.tobytes()  # zlib checks the adler32


def test_the_same_pixels_are_the_same_bytes():
    rows = np.zeros((10, 11), np.uint8)
    rows[3:5, 4:9] = 2
    assert pngwrite.png(rows, b"\0\0\0" * 3) == pngwrite.png(rows.copy(), b"\0\0\0" * 3)
    # a view of other strides is written as its rows
    wide = np.zeros((10, 22), np.uint8)
    wide[:, ::2] = rows
    assert pngwrite.png(wide[:, ::2], b"\0\0\0" * 3) == pngwrite.png(rows, b"\0\0\0" * 3)


@pytest.mark.parametrize("palette", [b"\0\0", b"\0" * 771])
def test_a_palette_not_of_1_to_256_triples_is_refused(palette):
    with pytest.raises(ValueError, match="RGB triples"):
        pngwrite.png(np.zeros((2, 3), np.uint8), palette)


def test_the_encoders_version_is_in_the_builds_fingerprint():
    # a new isal may write other bytes for the same card: every card is then drawn again
    assert any(v.startswith("isal=") and v != "isal=none" for v in library_versions())
