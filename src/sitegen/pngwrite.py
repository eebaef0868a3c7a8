"""An 8-bit palette PNG from an array of palette indices, compressed as runs.

A card is mostly long runs of one colour: each run is written as one literal and copies of
the byte before it (deflate's distance 1), with deflate's fixed Huffman codes, all of it with
numpy (no byte-by-byte loop in Python, no zlib call over the 756 KB of pixels: zlib's fastest
level costs 1.7 ms a card, this 0.3 ms, for PNGs of about the same size). The same pixels
give the same bytes on every machine: nothing here depends on a library's version.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

MAX_MATCH = 258
ADLER = 65521


def _reversed(code: int, bits: int) -> int:
    """A Huffman code as deflate packs it, first bit lowest."""
    return int(f"{code:0{bits}b}"[::-1], 2)


def _fixed_literal(symbol: int) -> tuple[int, int]:
    """The fixed Huffman code of a literal/length symbol (RFC 1951, 3.2.6), packed."""
    if symbol < 144:
        code, bits = 0x30 + symbol, 8
    elif symbol < 256:
        code, bits = 0x190 + symbol - 144, 9
    elif symbol < 280:
        code, bits = symbol - 256, 7
    else:
        code, bits = 0xC0 + symbol - 280, 8
    return _reversed(code, bits), bits


def _length_symbols() -> list[tuple[int, int, int]]:
    """(symbol, base length, extra bits) of deflate's 29 length codes."""
    out, base, symbol = [], 3, 257
    for extra, count in ((0, 8), (1, 4), (2, 4), (3, 4), (4, 4), (5, 4)):
        for _ in range(count):
            out.append((symbol, base, extra))
            base += 1 << extra
            symbol += 1
    return [*out, (285, 258, 0)]


def _copies() -> dict[int, tuple[int, int]]:
    """Packed bits and bit count of a copy of each length (3 to 258) at distance 1: its
    length code, the length's extra bits, then distance code 0 (five zero bits)."""
    copy = {}
    for symbol, base, extra in _length_symbols():
        code, bits = _fixed_literal(symbol)
        # 284's last length would be 258, which is 285's: 285 comes later and keeps it
        for length in range(base, min(base + (1 << extra), MAX_MATCH + 1)):
            copy[length] = code | ((length - base) << bits), bits + extra + 5
    return copy


def _run_table() -> tuple[np.ndarray, np.ndarray]:
    """Packed bits and bit count of a run of byte v, `length` long (1 to 258), at
    [v * 259 + length]: the byte, then a copy of the rest, or the byte again where the rest
    is 1 or 2 bytes (no copy is shorter than 3). At most 9 + 18 bits."""
    copy = _copies()
    bits = np.zeros(256 * 259, np.uint64)
    counts = np.zeros(256 * 259, np.int64)
    for v in range(256):
        code, n = _fixed_literal(v)
        for length in range(1, MAX_MATCH + 1):
            if length <= 3:
                b, c = sum(code << (n * i) for i in range(length)), n * length
            else:
                b, c = code | (copy[length - 1][0] << n), n + copy[length - 1][1]
            bits[v * 259 + length], counts[v * 259 + length] = b, c
    return bits, counts


RUN_BITS, RUN_COUNT = _run_table()
FULL_BITS, FULL_COUNT = _copies()[MAX_MATCH]
THREE_BITS, THREE_COUNT = _copies()[3]


class _Scratch:
    """Buffers kept between calls: a card's 756 KB of comparisons would otherwise be memory
    mapped and faulted in afresh for each card (more CPU than the comparing)."""

    def __init__(self) -> None:
        self._buffers: dict[str, np.ndarray] = {}

    def get(self, name: str, size: int, dtype: type) -> np.ndarray:
        buf = self._buffers.get(name)
        if buf is None or buf.size < size:
            buf = self._buffers[name] = np.empty(max(size, 1), dtype)
        return buf[:size]


_scratch = _Scratch()


def _runs(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Start, length and byte of each run of one byte value in `raw`."""
    changed = _scratch.get("changed", raw.size - 1, np.bool_)
    np.not_equal(raw[1:], raw[:-1], out=changed)
    ends = np.flatnonzero(changed)
    starts = np.empty(ends.size + 1, np.int64)
    starts[0] = 0
    np.add(ends, 1, out=starts[1:])
    lengths = np.empty_like(starts)
    np.subtract(starts[1:], starts[:-1], out=lengths[:-1])
    lengths[-1] = raw.size - starts[-1]
    return starts, lengths, raw[starts]


def _adler32(n: int, starts: np.ndarray, lengths: np.ndarray, values: np.ndarray) -> int:
    """zlib's checksum of the bytes, from their runs: A = 1 + sum b, B = n + sum (n - i) b.
    Every term and partial sum is an integer below 2**53 (255 * n * n at most, for n the
    756,630 bytes of a card), so float64 sums them exactly. (Not np.dot: BLAS' threads
    would spin on the other cores for longer than the sum takes.)"""
    v, length = values.astype(np.float64), lengths.astype(np.float64)
    a = (1 + int((v * length).sum())) % ADLER
    # sum of (n - i) over a run's bytes i = s .. s + l - 1: l (n - s) - l (l - 1) / 2
    weights = length * (n - starts) - length * (length - 1) / 2
    weights *= v
    b = (n + int(weights.sum())) % ADLER
    return (b << 16) | a


def _codes(lengths: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, ...]:
    """Every code to write as packed bits, bit count and bit offset (after the 3 bits of
    the block's header). A run is one code (its byte and a copy of the rest, from a table),
    and a run longer than 258 bytes has more: copies of 258 bytes, and one of 3 where the
    rest would otherwise leave 1 or 2 bytes over (the first copy is then of 256 or 257)."""
    long = np.flatnonzero(lengths > MAX_MATCH)
    rest = lengths[long] - 1
    full, tail = np.divmod(rest, MAX_MATCH)
    odd = (tail > 0) & (tail < 3)
    first = np.where(odd, tail + MAX_MATCH - 3, tail)  # 0: no copy but the 258s
    full -= odd
    key = np.multiply(values, 259, dtype=np.intp)
    key += lengths
    key[long] += first + 1 - lengths[long]  # a long run's first code: its byte, its odd copy
    bits, counts = RUN_BITS[key], RUN_COUNT[key]
    extra = full * FULL_COUNT + odd * THREE_COUNT
    size = counts.copy()
    size[long] += extra
    offsets = np.cumsum(size)
    offsets -= size
    offsets += 3
    # each long run's extra codes: its copy of 3 (where it has one), then its copies of 258
    after = offsets[long] + counts[long]
    fulls = np.repeat(after + odd * THREE_COUNT, full)
    fulls += (np.arange(fulls.size) - np.repeat(np.cumsum(full) - full, full)) * FULL_COUNT
    threes = int(odd.sum())
    more = np.full(threes + fulls.size, FULL_BITS, np.uint64)
    more[:threes] = THREE_BITS
    end = int(offsets[-1] + size[-1])
    return ((bits, counts, offsets), (more, None, np.concatenate((after[odd], fulls)))), end


def _pack(codes, total: int) -> bytes:
    """The codes at their bit offsets, first bit lowest (each at most 32 bits long)."""
    words = (total + 31) // 32 + 1
    out = np.zeros(words, np.float64)
    for bits, _, offsets in codes:
        if not offsets.size:
            continue
        word = offsets >> 5
        placed = bits << (offsets & 31).astype(np.uint64)
        # codes never overlap, so adding their bits is or-ing them (float64 holds every
        # 32-bit word exactly)
        out += np.bincount(word, (placed & np.uint64(0xFFFFFFFF)).astype(np.float64), words)
        out += np.bincount(word + 1, (placed >> np.uint64(32)).astype(np.float64), words)
    return out.astype("<u4").tobytes()[: (total + 7) // 8]


def deflate(raw: np.ndarray) -> bytes:
    """`raw` (uint8) as a zlib stream: one block of fixed Huffman codes."""
    raw = np.ascontiguousarray(raw, np.uint8).reshape(-1)
    if raw.size == 0:
        return zlib.compress(b"")
    starts, lengths, values = _runs(raw)
    codes, end = _codes(lengths, values)
    header = (np.array([3], np.uint64), None, np.array([0]))  # last block, fixed codes
    # the end of the block is code 256: seven zero bits, nothing to add
    body = _pack((header, *codes), end + 7)
    return b"\x78\x01" + body + struct.pack(">I", _adler32(raw.size, starts, lengths, values))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(rows: np.ndarray, palette: bytes) -> bytes:
    """An 8-bit palette PNG of `rows`: height x (1 + width) palette indices, each row led by
    its filter byte (0: none), so that the array is already the stream PNG compresses."""
    height, stride = rows.shape
    if palette and (len(palette) % 3 or len(palette) > 768):
        raise ValueError("a palette is 1 to 256 RGB triples")
    ihdr = struct.pack(">IIBBBBB", stride - 1, height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", ihdr),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", deflate(rows)),
            _chunk(b"IEND", b""),
        )
    )
