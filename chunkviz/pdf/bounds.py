"""A PDF's compressed streams measured before PDFium reads them: how far they unpack.

PDFium unpacks a page's content streams whole, in memory, and builds its text layer from them
at about 225 bytes per character shown; neither can be bounded from its API once started. So
the file's Flate streams are unpacked here first, a piece at a time with a bounded output
(``zlib.decompressobj(...).decompress(data, max_length)``), counting bytes and keeping none, and
the file is refused as soon as a count passes its limit (``chunkviz.limits``):

- all streams together past ``MAX_INFLATED_BYTES`` (a 1.5 MB file unpacked to 1.5 GiB);
- one content stream (drawing instructions: some MiB of it holds at least a thousand
  operators) past ``MAX_CONTENT_STREAM_BYTES``: a stream shows at most one character per byte,
  so this bounds the characters of a page's text layer (a 24 KB file drew 20 million characters
  on one page), and the page objects PDFium builds from it (about 25 times its bytes). A stream
  stored without a filter is measured as it stands.

A stream whose output is itself zlib data (Flate applied twice) is unpacked again. Streams in
other filters (LZW, RunLength) are not counted; they are rare and expand far less.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator

import numpy as np

from chunkviz.limits import CONTENT_STREAM_BYTES, INFLATED_BYTES

#: Output bytes asked of zlib at a time: what this scan holds in memory at once.
_PIECE = 1 << 20
#: The keyword that opens a stream's data (not the one that ends it), and its line end.
_STREAM = re.compile(rb"(?<!end)stream(?:\r\n|\n|\r)")
#: First two bytes of a zlib stream: deflate, window up to 32 KiB, a valid header checksum.
_ZLIB_HEADER = re.compile(rb"\x78[\x01\x5e\x9c\xda]")
#: Operators in one MiB of a stream that make it content (a word of one or two letters between
#: white space: ``re``, ``f``, ``Tj``, ``cm``...): content streams are made of them, tens of
#: thousands in a MiB, and PDFium builds about 25 times the bytes of a MiB that dense in page
#: objects; random bytes hold a few dozen a MiB by chance.
_CONTENT_OPERATORS = 1_000
#: Strings or arrays shown by Tj or TJ in one MiB that make it content: PDFium keeps at most
#: 32,767 characters of one string, so a MiB of text to show holds at least 32 of them; random
#: bytes hold one in 3 MiB.
_SHOWS = 16
#: How deep Flate inside Flate is followed.
_MAX_NESTING = 3


def _pieces(data: bytes | memoryview, start: int) -> Iterator[bytes]:
    """The unpacked bytes of the zlib stream at ``data[start:]``, ``_PIECE`` bytes at a time.

    Raises:
        zlib.error: Before any output: the data is not zlib. Damage after some output ends the
            stream quietly (PDFium reads what it can too).
    """
    inflater = zlib.decompressobj()
    pos = start
    pending = b""
    produced = False
    while not inflater.eof:
        if not pending:
            if pos >= len(data):
                return
            pending = bytes(data[pos : pos + _PIECE])
            pos += _PIECE
        try:
            out = inflater.decompress(pending, _PIECE)
        except zlib.error:
            if produced:
                return
            raise
        pending = inflater.unconsumed_tail
        if out:
            produced = True
            yield out


def _measure(
    data: bytes | memoryview, start: int, before: int, filename: str, depth: int = 0
) -> int:
    """Bytes the zlib stream at ``data[start:]`` unpacks to, Flate inside Flate followed.

    Checked against the limits as it unpacks (``before``: the bytes of the streams before it).

    Raises:
        zlib.error: The data is not zlib.
        LimitError: A limit passed.
    """
    total = 0
    content = False
    for i, out in enumerate(_pieces(data, start)):
        if i == 0 and depth < _MAX_NESTING and _ZLIB_HEADER.match(out):
            return _measure_nested(data, start, before, filename, depth)
        total += len(out)
        content = content or _is_content(out)
        if content:
            CONTENT_STREAM_BYTES.check(total, filename)
        INFLATED_BYTES.check(before + total, filename)
    return total


def _is_content(data: bytes | bytearray | memoryview) -> bool:
    """Whether some MiB of ``data`` is as dense in operators or shown strings as content is.

    One vectorised pass a MiB (numpy): about a millisecond, where ``bytes.count`` of each
    operator took 60 and a regex 15.
    """
    for i in range(0, len(data), _PIECE):
        a = np.frombuffer(bytes(data[i : i + _PIECE]), dtype=np.uint8)
        if len(a) < 3:
            continue
        space = (a == 0x20) | (a == 0x0A) | (a == 0x0D)
        letter = ((a | 0x20) >= 0x61) & ((a | 0x20) <= 0x7A)
        closer = (a == 0x29) | (a == 0x5D) | (a == 0x3E)  # ) ] >
        # A letter before white space, after white space or after one more letter after it.
        ends = letter[1:-1] & space[2:]
        words = ends & (space[:-2] | (letter[:-2] & np.concatenate(([False], space[:-3]))))
        # Tj or TJ right after ) ] > (or one space after them).
        tj = (a[1:-1] == 0x54) & ((a[2:] == 0x6A) | (a[2:] == 0x4A))
        shown = tj & (closer[:-2] | (space[:-2] & np.concatenate(([False], closer[:-3]))))
        if int(shown.sum()) >= _SHOWS or int(words.sum()) >= _CONTENT_OPERATORS:
            return True
    return False


def _measure_nested(
    data: bytes | memoryview, start: int, before: int, filename: str, depth: int
) -> int:
    # Flate twice: the outer output (compressed data) is kept, at most MAX_INFLATED_BYTES of
    # it, and the inner stream is measured from it; if it is not zlib after all, the outer
    # output is what counts.
    outer = bytearray()
    for out in _pieces(data, start):
        outer += out
        INFLATED_BYTES.check(before + len(outer), filename)
    try:
        return _measure(memoryview(outer), 0, before, filename, depth + 1)
    except zlib.error:
        if _is_content(outer):
            CONTENT_STREAM_BYTES.check(len(outer), filename)
        return len(outer)


def check_streams(data: bytes, filename: str) -> int:
    """Refuse a PDF whose Flate streams unpack too far, as soon as they do.

    Past ``MAX_INFLATED_BYTES`` all together, or past ``MAX_CONTENT_STREAM_BYTES`` in one stream
    of text operators.

    Returns:
        The bytes all Flate streams unpack to.

    Raises:
        LimitError: A count passed its limit; the message names the file, limit and value.
    """
    total = 0
    view = memoryview(data)
    resume = 0  # the end of the last stream stored as it is: keywords inside it are its data
    for match in _STREAM.finditer(data):
        if match.start() < resume:
            continue
        if _ZLIB_HEADER.match(data, match.end()):
            try:
                total += _measure(view, match.end(), total, filename)
                continue
            except zlib.error:  # not Flate data after all: measured as it stands
                pass
        resume = _check_plain(data, match.end(), filename)
    return total


def _check_plain(data: bytes, start: int, filename: str) -> int:
    """Bound a stream stored as it is, and return where it ends.

    Its bytes up to ``endstream`` (or the file's end) are what it shows, and
    ``MAX_CONTENT_STREAM_BYTES`` bounds them as it bounds an unpacked one.
    """
    end = data.find(b"endstream", start)
    end = len(data) if end < 0 else end
    if end - start > CONTENT_STREAM_BYTES.value and _is_content(memoryview(data)[start:end]):
        raise CONTENT_STREAM_BYTES.error(end - start, filename)
    return end
