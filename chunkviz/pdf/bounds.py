"""A PDF's compressed streams measured before PDFium reads them: how far they unpack.

PDFium unpacks a page's content streams whole, in memory, and builds its text layer from them
at about 225 bytes per character shown; neither can be bounded from its API once started. So
the file's Flate streams are unpacked here first, a piece at a time with a bounded output
(``zlib.decompressobj(...).decompress(data, max_length)``), counting bytes and keeping none, and
the file is refused as soon as a count passes its limit (``chunkviz.limits``):

- all streams together past ``MAX_INFLATED_BYTES`` (a 1.5 MB file unpacked to 1.5 GiB);
- one stream of text operators (it holds ``BT``) past ``MAX_TEXT_STREAM_BYTES``: a stream
  shows at most one character per byte, so this bounds the characters of a page's text layer
  (a 24 KB file drew 20 million characters on one page). A stream stored without a filter is
  measured as it stands.

A stream whose output is itself zlib data (Flate applied twice) is unpacked again. Streams in
other filters (LZW, RunLength) are not counted; they are rare and expand far less.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator

from chunkviz.limits import INFLATED_BYTES, TEXT_STREAM_BYTES

#: Output bytes asked of zlib at a time: what this scan holds in memory at once.
_PIECE = 1 << 20
#: The keyword that opens a stream's data (not the one that ends it), and its line end.
_STREAM = re.compile(rb"(?<!end)stream(?:\r\n|\n|\r)")
#: First two bytes of a zlib stream: deflate, window up to 32 KiB, a valid header checksum.
_ZLIB_HEADER = re.compile(rb"\x78[\x01\x5e\x9c\xda]")
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


def _measure(data: bytes | memoryview, start: int, before: int, filename: str,
             depth: int = 0) -> int:
    """Bytes the zlib stream at ``data[start:]`` unpacks to, Flate inside Flate followed.

    Checked against the limits as it unpacks (``before``: the bytes of the streams before it).

    Raises:
        zlib.error: The data is not zlib.
        LimitError: A limit passed.
    """
    total = 0
    text = False
    tail = b""
    for i, out in enumerate(_pieces(data, start)):
        if i == 0 and depth < _MAX_NESTING and _ZLIB_HEADER.match(out):
            return _measure_nested(data, start, before, filename, depth)
        total += len(out)
        text = text or b"BT" in tail + out[:1] or b"BT" in out
        tail = out[-1:]
        if text:
            TEXT_STREAM_BYTES.check(total, filename)
        INFLATED_BYTES.check(before + total, filename)
    return total


def _measure_nested(data: bytes | memoryview, start: int, before: int, filename: str,
                    depth: int) -> int:
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
        if b"BT" in outer:
            TEXT_STREAM_BYTES.check(len(outer), filename)
        return len(outer)


def check_streams(data: bytes, filename: str) -> int:
    """Refuse a PDF whose Flate streams unpack too far, as soon as they do.

    Past ``MAX_INFLATED_BYTES`` all together, or past ``MAX_TEXT_STREAM_BYTES`` in one stream
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
    ``MAX_TEXT_STREAM_BYTES`` bounds them as it bounds an unpacked one.
    """
    end = data.find(b"endstream", start)
    end = len(data) if end < 0 else end
    if end - start > TEXT_STREAM_BYTES.value and data.find(b"BT", start, end) >= 0:
        raise TEXT_STREAM_BYTES.error(end - start, filename)
    return end
