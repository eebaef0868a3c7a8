"""The palette PNG writer: runs of bytes as deflate codes, read back by zlib and Pillow."""

from __future__ import annotations

import io
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from sitegen.cards import pngwrite


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


def _runs_of(draw_values, draw_lengths):
    return np.repeat(np.array(draw_values, np.uint8), draw_lengths)


@st.composite
def _edited_pairs(draw):
    """A reference and bytes like it: the same but for a stretch somewhere (perhaps at an
    end, perhaps nowhere), runs crossing the stretch's ends, of any length."""
    values = draw(st.lists(st.integers(0, 255), min_size=1, max_size=40))
    lengths = draw(st.lists(st.integers(1, 700), min_size=len(values), max_size=len(values)))
    ref = _runs_of(values, lengths)
    raw = ref.copy()
    for _ in range(draw(st.integers(0, 3))):
        start = draw(st.integers(0, ref.size - 1))
        stop = draw(st.integers(start, min(ref.size, start + 300)))
        raw[start:stop] = draw(st.integers(0, 255))
    return ref, raw


def _fresh(raw: np.ndarray) -> bytes:
    return pngwrite._whole(np.ascontiguousarray(raw, np.uint8).reshape(-1))[0]


@settings(max_examples=300, deadline=None)
@given(_edited_pairs())
def test_bytes_like_the_last_ones_are_the_bytes_written_afresh(pair):
    ref, raw = pair
    pngwrite._reference = None
    pngwrite.deflate(ref)  # the reference
    stream = pngwrite.deflate(raw)
    assert stream == _fresh(raw)
    assert zlib.decompress(stream) == raw.tobytes()
    assert pngwrite.deflate(raw) == stream  # again: the same bytes, through itself or not


_SHORT_RUNS = [0, 1] * 48  # 96 runs of one byte


@pytest.mark.parametrize(
    "ref, raw",
    [
        # a run of the reference starts where the first word that differs does (byte
        # 104); in the bytes, the run before (of 8) runs on into it
        (_SHORT_RUNS + [5] * 8 + [7] * 64, _SHORT_RUNS + [5] * 9 + [7] * 63),
        # and at the other end: the run before the reused ones starts a byte early
        ([7] * 64 + [5] * 8 + _SHORT_RUNS, [7] * 63 + [5] * 9 + _SHORT_RUNS),
        ([7] * 67 + [5] * 8 + _SHORT_RUNS, [7] * 66 + [5] * 9 + _SHORT_RUNS),  # odd bytes
        (_SHORT_RUNS + [0] * 8, _SHORT_RUNS + [0] * 7 + [1]),  # the last byte
        ([0] * 8 + _SHORT_RUNS, [1] + [0] * 7 + _SHORT_RUNS),  # the first
    ],
)
def test_the_reused_runs_end_where_the_bytes_runs_do(ref, raw):
    ref, raw = np.array(ref, np.uint8), np.array(raw, np.uint8)
    pngwrite._reference = None
    pngwrite.deflate(ref)
    used = pngwrite._reference.encode(raw)
    assert used is not None  # the reference's runs were used
    assert used == _fresh(raw) and pngwrite.deflate(raw) == used


def test_a_card_like_stream_reuses_its_head_and_tail_and_is_the_same_bytes():
    rng = np.random.default_rng(2)
    base = np.zeros((630, 1201), np.uint8)
    base[:14, 1:] = 1
    base[60:90, 65:600] = rng.integers(0, 40, (30, 535))  # a name on every card
    base[560:600, 65:500] = rng.integers(0, 40, (40, 435))  # a footer
    reused = []
    between = pngwrite._between

    def spy(raw, ref, k, m):
        reused.append((int(ref.starts[k]), raw.size - int(ref.starts[m])))
        return between(raw, ref, k, m)

    pngwrite._reference = None
    pngwrite.deflate(base)
    pngwrite._between = spy
    try:
        for trial in range(5):
            card = base.copy()
            card[120 + trial : 400, 65:700] = rng.integers(0, 60, (280 - trial, 635))
            assert pngwrite.deflate(card) == _fresh(card)
    finally:
        pngwrite._between = between
    assert len(reused) == 5
    # the runs up to the name's last row, from the footer's first: the runs after and before
    # them run into the changed rows
    assert all(head > 89 * 1201 and tail > 60 * 1201 for head, tail in reused)


def test_bytes_unlike_the_last_ones_become_the_reference():
    rng = np.random.default_rng(4)
    first, other = rng.integers(0, 3, (2, 5000)).astype(np.uint8)
    pngwrite._reference = None
    pngwrite.deflate(first)
    assert pngwrite.deflate(other) == _fresh(other)
    assert np.array_equal(pngwrite._reference.raw, other)
    assert pngwrite.deflate(other[:4999]) == _fresh(other[:4999])  # another size


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**200 - 1), st.integers(0, 199), st.integers(0, 200), st.integers(63, 300))
def test_or_bits_moves_a_stretch_of_bits(value, start, length, at):
    stop = min(start + length, 200)
    at = max(at, start % 64)
    src = np.array([(value >> (64 * i)) & (2**64 - 1) for i in range(4)], np.uint64)
    out = np.zeros(10, np.uint64)
    pngwrite._or_bits(out, src, start, stop, at)
    got = sum(int(w) << (64 * i) for i, w in enumerate(out))
    assert got == ((value >> start) & ((1 << max(stop - start, 0)) - 1)) << at
