"""The palette PNG writer: runs of bytes as deflate codes, read back by zlib and Pillow."""

from __future__ import annotations

import io
import zlib

import numpy as np
import pytest
from PIL import Image

from sitegen import pngwrite


@pytest.mark.parametrize("length", [1, 2, 3, 4, 257, 258, 259, 260, 261, 516, 517, 518, 100_000])
def test_a_run_of_any_length_comes_back_from_zlib(length):
    for start in (b"", b"\x01", b"\x07\x07"):
        raw = np.frombuffer(start + b"\x05" * length + b"\x09", np.uint8)
        assert zlib.decompress(pngwrite.deflate(raw)) == raw.tobytes()


def test_random_bytes_and_runs_come_back_from_zlib_with_their_checksum():
    rng = np.random.default_rng(5)
    for trial in range(100):
        values = rng.integers(0, 256, int(rng.integers(1, 60))).astype(np.uint8)
        lengths = rng.integers(1, 900 if trial % 2 else 4, values.size)
        raw = np.repeat(values, lengths)
        stream = pngwrite.deflate(raw)
        assert zlib.decompress(stream) == raw.tobytes()  # zlib checks the adler32
        assert stream[-4:] == zlib.adler32(raw).to_bytes(4, "big")
    assert zlib.decompress(pngwrite.deflate(np.zeros(0, np.uint8))) == b""


def test_a_png_reads_back_as_its_entries_and_palette():
    rng = np.random.default_rng(9)
    entries = np.repeat(rng.integers(0, 7, (40, 30)), 4, axis=1).astype(np.uint8)
    rows = np.zeros((40, 121), np.uint8)
    rows[:, 1:] = entries
    palette = bytes(rng.integers(0, 256, 21).astype(np.uint8))
    with Image.open(io.BytesIO(pngwrite.png(rows, palette))) as image:
        assert image.mode == "P" and image.size == (120, 40)
        assert np.array_equal(np.asarray(image), entries)
        assert bytes(image.getpalette()[:21]) == palette


def test_the_same_pixels_are_the_same_bytes():
    rows = np.zeros((10, 11), np.uint8)
    rows[3:5, 4:9] = 2
    assert pngwrite.png(rows, b"\0\0\0" * 3) == pngwrite.png(rows.copy(), b"\0\0\0" * 3)


def test_the_cards_code_gives_every_symbol_a_code_and_fits_the_packer():
    lengths = pngwrite.LENGTHS
    assert len(lengths) == 286 and min(lengths) >= 1 and max(lengths) <= 10
    assert sum(2.0**-n for n in lengths) == 1.0  # complete, as inflate requires
    # a run's code (three literals, or a literal and a copy) fits the packer's 32-bit words
    assert int(pngwrite.RUN_COUNT.max()) <= 32


def test_huffman_lengths_are_shorter_for_commoner_symbols_and_limited():
    lengths = pngwrite.huffman_lengths([1000, 10, 10, 1, 0, 1], 15)
    assert lengths[4] == 0 and lengths[0] == min(n for n in lengths if n)
    assert sum(2.0**-n for n in lengths if n) == 1.0
    skewed = pngwrite.huffman_lengths([2**i for i in range(30)], 10)
    assert max(skewed) <= 10 and sum(2.0**-n for n in skewed) == 1.0
