"""An 8-bit palette PNG from an array of palette indices, compressed as runs.

A card is mostly long runs of one colour: each run is written as one literal and copies of
the byte before it (deflate's distance 1), with one Huffman code made for cards (LENGTHS),
all of it with numpy: no byte-by-byte loop in Python, no zlib call over the 756 KB of
pixels. A card encodes in about 0.8 ms of CPU, where zlib's fastest level takes 1.4 ms, for
PNGs about as small (37 KB; zlib's: 33 KB). The same pixels give the same bytes on every
machine: nothing here depends on a library's version. Cards of a site share their top (the
accent bar, the site's name) and their bottom (the footer, the panel's foot): the codes of
those runs are kept from the stream before and reused (_Reference), the same bytes as if
found again.
"""

from __future__ import annotations

import struct
import threading
import zlib

import numpy as np

MAX_MATCH = 258
ADLER = 65521


def _reversed(code: int, bits: int) -> int:
    """A Huffman code as deflate packs it, first bit lowest."""
    return int(f"{code:0{bits}b}"[::-1], 2)


def _canonical(lengths: list[int]) -> list[tuple[int, int]]:
    """The packed code and bit count of each symbol of a Huffman code given by its code
    lengths (RFC 1951, 3.2.2: shorter codes first, in order of symbol within a length)."""
    count = [0] * 16
    for n in lengths:
        count[n] += 1
    count[0] = 0
    code, first = 0, [0] * 16
    for bits in range(1, 16):
        code = (code + count[bits - 1]) << 1
        first[bits] = code
    out = []
    for n in lengths:
        out.append((_reversed(first[n], n), n) if n else (0, 0))
        first[n] += bool(n)
    return out


def huffman_lengths(weights: list[int], limit: int) -> list[int]:
    """Code lengths (at most `limit` bits) of a Huffman code for symbols of these weights
    (0: no code). Where the tree would be deeper, the weights are halved until it is not."""
    import heapq

    weights = list(weights)
    while True:
        heap = [(w, i, (i,)) for i, w in enumerate(weights) if w]
        lengths = [0] * len(weights)
        if len(heap) == 1:
            lengths[heap[0][1]] = 1
            return lengths
        heapq.heapify(heap)
        tie = len(weights)
        while len(heap) > 1:
            w1, _, a = heapq.heappop(heap)
            w2, _, b = heapq.heappop(heap)
            for i in a + b:
                lengths[i] += 1
            heapq.heappush(heap, (w1 + w2, tie, a + b))
            tie += 1
        if max(lengths) <= limit:
            return lengths
        weights = [(w + 1) // 2 if w else 0 for w in weights]


# The code lengths (in hex) of the literal/length code every PNG is written with: a Huffman
# code (of at most 10 bits, so that three literals fit one 32-bit code) of the bytes and copy
# lengths of the flagship's cards (palette entries 0 to 227), where every symbol has a code,
# so that any bytes can be written. It costs nothing a card (its header is made once) and
# writes cards a third smaller than deflate's fixed code (python bench/cards.py --train
# makes it anew from a site's cards).
# Symbols 0-255 are the bytes, 256 the end of the block, 257-285 the copy lengths.
LENGTHS = [
    int(n, 16)
    for n in (
        "38a7669aaa7777787778777774a6777777777767664a9aa99aa9aaaa9a87a9a99aaa9aaa"
        "9aa97aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa9999966777767778868898999898988985"
    )
]
DISTANCE_BITS = 1  # one distance code (distance 1), of one bit


LITERAL = _canonical(LENGTHS)  # (packed code, bit count) of each literal/length symbol
ORDER = (16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15)  # RFC 1951, 3.2.7


def _literal(symbol: int) -> tuple[int, int]:
    return LITERAL[symbol]


def _header() -> tuple[np.ndarray, np.ndarray, int]:
    """The codes of the (last, dynamic) block's header that sets LENGTHS and the one
    distance code: (bits, offsets, its length in bits). The code lengths are written with a
    Huffman code of their own (no repeat codes)."""
    every = [*LENGTHS, DISTANCE_BITS]
    meta = huffman_lengths([every.count(n) for n in range(19)], 7)
    meta_codes = _canonical(meta)
    ordered = [meta[i] for i in ORDER]
    while len(ordered) > 4 and not ordered[-1]:
        ordered.pop()
    codes = [(1, 1), (2, 2), (len(LENGTHS) - 257, 5), (0, 5), (len(ordered) - 4, 4)]
    codes += [(n, 3) for n in ordered] + [meta_codes[n] for n in every]
    counts = np.array([n for _, n in codes])
    offsets = np.cumsum(counts) - counts
    return np.array([b for b, _ in codes], np.uint64), offsets, int(counts.sum())


HEADER_BITS, HEADER_OFFSETS, HEADER_SIZE = _header()


def _header_words() -> np.ndarray:
    """The header's codes packed into 64-bit words (the last one partly)."""
    value = sum(int(b) << int(o) for b, o in zip(HEADER_BITS, HEADER_OFFSETS, strict=True))
    count = (HEADER_SIZE + 63) // 64
    return np.array([(value >> (64 * i)) & (2**64 - 1) for i in range(count)], np.uint64)


HEADER_WORDS = _header_words()


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
    length code, the length's extra bits, then the one distance code (one zero bit)."""
    copy = {}
    for symbol, base, extra in _length_symbols():
        code, bits = _literal(symbol)
        # 284's last length would be 258, which is 285's: 285 comes later and keeps it
        for length in range(base, min(base + (1 << extra), MAX_MATCH + 1)):
            copy[length] = code | ((length - base) << bits), bits + extra + DISTANCE_BITS
    return copy


def _run_table() -> tuple[np.ndarray, np.ndarray]:
    """Packed bits and bit count of a run of byte v, `length` long (1 to 258), at
    [v * 259 + length]: the byte, then a copy of the rest, or the byte again where the rest
    is 1 or 2 bytes (no copy is shorter than 3). At most 9 + 18 bits."""
    copy = _copies()
    bits = np.zeros(256 * 259, np.uint64)
    counts = np.zeros(256 * 259, np.int64)
    for v in range(256):
        code, n = _literal(v)
        for length in range(1, MAX_MATCH + 1):
            if length <= 3:
                b, c = sum(code << (n * i) for i in range(length)), n * length
            else:
                b, c = code | (copy[length - 1][0] << n), n + copy[length - 1][1]
            bits[v * 259 + length], counts[v * 259 + length] = b, c
    return bits, counts


RUN_BITS, RUN_COUNT = _run_table()
BITS_WIDTH = 32  # RUN holds a run's code in its low 32 bits and their count above
BITS_MASK = (1 << BITS_WIDTH) - 1
RUN = (RUN_BITS | (RUN_COUNT.astype(np.uint64) << np.uint64(BITS_WIDTH))).view(np.int64)
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


def _adler_terms(
    n: int, starts: np.ndarray, lengths: np.ndarray, values: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Each run's terms of zlib's checksum of the n bytes (Adler-32: A = 1 + sum b,
    B = n + sum (n - i) b): a run of byte v from s, l long, adds v l to the first sum and
    v l (2 (n - s) - l + 1) (twice its share, a whole number) to the second. Integers all
    through: every sum is below 2**53 (255 * n * n at most, for n the 756,630 bytes of a
    card)."""
    weighted = np.multiply(values, lengths, dtype=np.int64)  # v l
    span = np.multiply(starts, -2, dtype=np.int64)
    span += 2 * n + 1
    span -= lengths
    return weighted, span


def _adler32(n: int, a_sum: int, b_twice: int) -> int:
    """Adler-32 of n bytes from the sums of their runs' terms (_adler_terms)."""
    return (((n + b_twice // 2) % ADLER) << 16) | ((1 + a_sum) % ADLER)


def _adler_sums(
    n: int, starts: np.ndarray, lengths: np.ndarray, values: np.ndarray
) -> tuple[int, int]:
    """The sums of the runs' terms (np.dot of integers is numpy's own loop, not BLAS': no
    threads spinning on the other cores)."""
    weighted, span = _adler_terms(n, starts, lengths, values)
    return int(weighted.sum()), int(np.dot(weighted, span))


def _codes(
    lengths: np.ndarray, values: np.ndarray, base: int = HEADER_SIZE
) -> tuple[list, np.ndarray]:
    """Every code to write, as lists of (packed bits, bit offset from `base`, by default
    just after the block's header), each list in order of offset, and where each run's codes
    start (and, last, where they end). A run is one code (its byte and
    a copy of the rest, from a table), and a run longer than 258 bytes has more: copies of
    258 bytes, and one of 3 where the rest would otherwise leave 1 or 2 bytes over (the
    first copy is then of 256 or 257)."""
    key = np.multiply(values, 259, dtype=np.intp)
    key += lengths
    long = np.flatnonzero(lengths > MAX_MATCH)
    rest = lengths[long] - 1
    full, tail = np.divmod(rest, MAX_MATCH)
    odd = (tail > 0) & (tail < 3)
    first = np.where(odd, tail + MAX_MATCH - 3, tail)  # 0: no copy but the 258s
    full -= odd
    key[long] += first + 1 - lengths[long]  # a long run's first code: its byte, its odd copy
    run = RUN[key]
    counts = run >> BITS_WIDTH
    bits = run & BITS_MASK
    own = counts[long]
    counts[long] += full * FULL_COUNT + odd * THREE_COUNT
    offsets = np.empty(counts.size + 1, np.int64)
    offsets[0] = base
    np.cumsum(counts, out=offsets[1:])
    offsets[1:] += base
    # each long run's extra codes: its copy of 3 (where it has one), then its copies of 258
    after = offsets[long] + own
    fulls = np.repeat(after + odd * THREE_COUNT, full)
    fulls += (np.arange(fulls.size) - np.repeat(np.cumsum(full) - full, full)) * FULL_COUNT
    threes = after[odd]
    codes = [
        (bits, offsets[:-1]),
        (np.full(threes.size, THREE_BITS, np.int64), threes),
        (np.full(fulls.size, FULL_BITS, np.int64), fulls),
    ]
    return codes, offsets


def _pack(words: np.ndarray, bits: np.ndarray, offsets: np.ndarray) -> None:
    """Add codes (each under 64 bits) at their bit offsets (in order, the codes not
    overlapping; both int64, not negative) to `words` (uint64), first bit lowest: as no
    bits overlap, adding them is or-ing them. A word's codes are summed as differences of
    one running sum (uint64 wraps, but no word's own sum does), and only the last code of
    a word can run into the next."""
    if not offsets.size:
        return
    bits, offsets = bits.view(np.uint64), offsets.view(np.uint64)
    word = offsets >> np.uint64(6)
    shift = offsets & np.uint64(63)
    low = np.left_shift(bits, shift)
    np.cumsum(low, out=low)
    ends = np.append(np.flatnonzero(word[1:] != word[:-1]), word.size - 1)
    sums = low[ends]
    sums[1:] -= sums[:-1].copy()
    at = word[ends].astype(np.intp)
    words[at] += sums
    words[at + 1] += (bits[ends] >> np.uint64(1)) >> (np.uint64(63) - shift[ends])


def symbol_counts(raw: np.ndarray) -> np.ndarray:
    """How often `raw` written as runs uses each literal/length symbol (0-285): what
    LENGTHS was made from (python bench/cards.py --train)."""
    _, lengths, values = _runs(np.ascontiguousarray(raw, np.uint8).reshape(-1))
    rest = lengths - 1
    counts = np.zeros(286, np.int64)
    counts[:256] = np.bincount(values, 1 + np.where(rest < 3, rest, 0), 256).astype(np.int64)
    full, tail = np.divmod(rest[rest >= 3], MAX_MATCH)
    odd = (tail > 0) & (tail < 3)
    copies = np.concatenate(
        (np.full(int((full - odd).sum()), MAX_MATCH), tail[tail >= 3], tail[odd] + 255)
    )
    symbol = np.zeros(MAX_MATCH + 1, np.int64)
    for code, base, extra in _length_symbols():
        symbol[base : min(base + (1 << extra), MAX_MATCH + 1)] = code
    counts += np.bincount(symbol[copies], minlength=286)
    counts[257] += int(odd.sum())  # the copies of 3 after an odd tail
    counts[256] += 1
    return counts


class _Reference:
    """A stream deflate wrote, kept so that the next of as many bytes can reuse the codes of
    its first and last runs where its bytes are the same: a card's top (the accent bar, the
    site's name) and bottom (the footer, the panel's foot) are the same on every card of a
    site, about a third of its bytes and a fifth of its runs."""

    def __init__(self, raw: np.ndarray, starts: np.ndarray, offsets: np.ndarray, terms, body):
        """body: the stream's bits (after zlib's 2 bytes) as 64-bit words, first bit lowest."""
        self.raw, self.starts, self.offsets = raw.copy(), starts, offsets
        self.words = self.raw[: raw.size // 8 * 8].view(np.uint64)
        weighted, span = terms
        self.a_sums = np.concatenate(([0], np.cumsum(weighted)))  # of the runs before each
        self.b_sums = np.concatenate(([0], np.cumsum(weighted * span)))
        self.body, self.bits = body, int(offsets[-1]) + LITERAL[256][1]
        self.stream = b""  # set by _whole

    def encode(self, raw: np.ndarray) -> bytes | None:
        """The stream of `raw` (as many bytes as these) through these bytes' codes, or None
        where fewer than a quarter of its bytes are in runs the same as these'."""
        n = raw.size
        words = raw[: n // 8 * 8].view(np.uint64)
        same_head = 8 * _same_words(words, self.words, 1)  # bytes the same from the start
        same_tail = 8 * _same_words(words, self.words, -1)  # from the word-aligned end
        odd = n - n // 8 * 8
        if odd and not np.array_equal(raw[n - odd :], self.raw[n - odd :]):
            same_tail = 0
        elif same_head == words.size * 8:
            return self.stream  # the same bytes
        else:
            same_tail += odd
        # the run holding the same head's last byte is cut there: the runs before it reused
        k = max(int(np.searchsorted(self.starts, same_head - 1, "right")) - 1, 0)
        # the first run to start after the same tail's first byte, and all after it
        m = int(np.searchsorted(self.starts, n - same_tail + 1, "left"))
        last = int(self.starts[m]) if m < self.starts.size else n
        if 4 * (int(self.starts[k]) + n - last) < n:
            return None
        return _between(raw, self, k, m)


def _same_words(a: np.ndarray, b: np.ndarray, way: int) -> int:
    """How many words are the same in a and b from the start (way 1) or from the end (-1),
    compared 4,096 at a time (a card's differ within the first 15,000 from each end)."""
    if way < 0:
        a, b = a[::-1], b[::-1]
    for start in range(0, a.size, 4096):
        differ = np.not_equal(a[start : start + 4096], b[start : start + 4096])
        first = int(differ.argmax())
        if differ[first]:
            return start + first
    return a.size


_reference: _Reference | None = None
_reference_lock = threading.Lock()


def deflate(raw: np.ndarray) -> bytes:
    """`raw` (uint8) as a zlib stream: one block of the code LENGTHS sets. Where the bytes
    the stream before held are much the same, the codes of their same first and last runs
    are reused: the same bytes, in less time."""
    global _reference
    raw = np.ascontiguousarray(raw, np.uint8).reshape(-1)
    if raw.size == 0:
        return zlib.compress(b"")
    with _reference_lock:
        ref = _reference
        if ref is not None and ref.raw.size == raw.size and (stream := ref.encode(raw)):
            return stream
        stream, _reference = _whole(raw)
        return stream


def _whole(raw: np.ndarray) -> tuple[bytes, _Reference]:
    """The stream of `raw`, and what a reference to it needs."""
    starts, lengths, values = _runs(raw)
    codes, offsets = _codes(lengths, values)
    end = int(offsets[-1])
    stop, stop_count = LITERAL[256]  # the end of the block
    total = end + stop_count
    words = np.zeros((total + 63) // 64 + 1, np.uint64)
    words[: HEADER_WORDS.size] = HEADER_WORDS
    for bits, at in codes:
        _pack(words, bits, at)
    words[end >> 6] += np.uint64((stop << (end & 63)) & (2**64 - 1))
    words[(end >> 6) + 1] += np.uint64(stop >> (64 - (end & 63)))
    body = words.astype("<u8").tobytes()[: (total + 7) // 8]
    terms = _adler_terms(raw.size, starts, lengths, values)
    check = _adler32(raw.size, int(terms[0].sum()), int(np.dot(*terms)))
    stream = b"\x78\x01" + body + struct.pack(">I", check)
    ref = _Reference(raw, starts, offsets, terms, words)
    ref.stream = stream
    return stream, ref


def _between(raw: np.ndarray, ref: _Reference, k: int, m: int) -> bytes:
    """The stream of `raw`: the reference's codes of its runs before the k-th and from the
    m-th on, and between them the codes of the runs of `raw` there (from the k-th run's
    first byte to the m-th's), at the bit where the k-th run's began."""
    n = raw.size
    first = int(ref.starts[k])
    last = int(ref.starts[m]) if m < ref.starts.size else n
    starts, lengths, values = _runs(raw[first:last])
    starts += first
    head = int(ref.offsets[k])  # the head's bits, reused
    codes, offsets = _codes(lengths, values, head)
    end = int(offsets[-1])
    tail = int(ref.offsets[m])  # where the m-th run's codes (or the block's end) began
    total = end + ref.bits - tail
    words = np.zeros((total + 63) // 64 + 2, np.uint64)
    words[: head >> 6] = ref.body[: head >> 6]
    words[head >> 6] = ref.body[head >> 6] & np.uint64((1 << (head & 63)) - 1)
    for bits, at in codes:
        _pack(words, bits, at)
    _or_bits(words, ref.body, tail, ref.bits, end)
    body = words.astype("<u8").tobytes()[: (total + 7) // 8]
    a_mid, b_mid = _adler_sums(n, starts, lengths, values)
    a_sum = int(ref.a_sums[k]) + a_mid + int(ref.a_sums[-1] - ref.a_sums[m])
    b_twice = int(ref.b_sums[k]) + b_mid + int(ref.b_sums[-1] - ref.b_sums[m])
    return b"\x78\x01" + body + struct.pack(">I", _adler32(n, a_sum, b_twice))


def _or_bits(out: np.ndarray, src: np.ndarray, start: int, stop: int, at: int) -> None:
    """Or the bits [start, stop) of `src` into `out` from bit `at` (64-bit words, first bit
    lowest; at >= start % 64, as a stream's tail is after its header)."""
    if stop <= start:
        return
    chunk = src[start >> 6 : ((stop - 1) >> 6) + 1].copy()
    chunk[0] &= np.uint64(~((1 << (start & 63)) - 1) & (2**64 - 1))
    if stop & 63:
        chunk[-1] &= np.uint64((1 << (stop & 63)) - 1)
    word, bit = divmod(at - (start & 63), 64)  # where the chunk's first bit goes
    out[word : word + chunk.size] |= chunk << np.uint64(bit)
    if bit:
        out[word + 1 : word + 1 + chunk.size] |= chunk >> np.uint64(64 - bit)


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
