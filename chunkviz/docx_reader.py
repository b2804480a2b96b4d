"""The text of a Word file (.docx) as its reader sees it: the body and what hangs off it.

The package is read with ``zipfile`` and lxml (python-docx's own XML library) rather than
python-docx's object model, which sees only the body's paragraphs and tables. In document order:

- paragraphs, with headings as Markdown headings (styles ``Title``, ``Heading 1``-``6``,
  ``見出し 1``-``6``) and list numbers and bullets as text, counted from ``numbering.xml`` as Word
  counts them (decimal, letters, roman, full-width, circled, aiueo/iroha, kanji numerals,
  bullets);
- tables as Markdown tables;
- content controls (``w:sdt``), block or inline, by their content;
- text boxes (``w:txbxContent``) after the paragraph they are anchored in (the VML copy Word
  keeps for old readers, ``mc:Fallback``, is left out);
- footnotes, endnotes and comments as Markdown-style notes: ``[^1]`` where cited, ``[^1]: text``
  after the paragraph (``[^e1]`` endnotes, ``[^c1]`` comments);
- equations (``m:oMath``) as linear text between dollar signs (``$(a)/(b)$``).

Strict Open XML (ISO 29500 Strict) names its parts with other namespaces; they are mapped to
the transitional ones before parsing. Deleted revisions, field codes and ruby readings
(furigana, ``w:rt``) are left out.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from zipfile import ZipFile

from chunkviz.limits import TABLE_CELLS, TABLE_COLUMNS
from chunkviz.textio import check_chars

_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_M = "http://schemas.openxmlformats.org/officeDocument/2006/math"
_MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
#: Strict Open XML namespaces and the transitional ones they stand for.
_STRICT = {
    b"http://purl.oclc.org/ooxml/wordprocessingml/main": _W.encode(),
    b"http://purl.oclc.org/ooxml/officeDocument/math": _M.encode(),
    b"http://purl.oclc.org/ooxml/officeDocument/relationships": b"http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    b"http://purl.oclc.org/ooxml/drawingml/main": b"http://schemas.openxmlformats.org/drawingml/2006/main",
    b"http://purl.oclc.org/ooxml/drawingml/wordprocessingDrawing": b"http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing",
}
_HEADING_STYLE = re.compile(r"^(?:heading|見出し)\s*([1-6])$", re.IGNORECASE)


def _w(name: str) -> str:
    return f"{{{_W}}}{name}"


def _m(name: str) -> str:
    return f"{{{_M}}}{name}"


# Inline elements whose text is not the document's: deleted revisions, field codes, properties.
_SKIP = {
    _w(n)
    for n in (
        "delText",
        "instrText",
        "del",
        "moveFrom",
        "rPr",
        "pPr",
        "sdtPr",
        "footnoteRef",
        "endnoteRef",
        "annotationRef",
        "commentRangeStart",
        "commentRangeEnd",
        "proofErr",
        "bookmarkStart",
        "bookmarkEnd",
        "rt",
    )
}  # rt: a ruby's reading (furigana), not its base
_SKIP.add(f"{{{_MC}}}Fallback")


def docx_text(archive: ZipFile, filename: str) -> str:
    """The text of the Word file in ``archive`` (see the module docstring).

    Raises:
        InputTextError: Too many characters (``MAX_CHARS``), counted as blocks are read.
        KeyError, lxml.etree.LxmlError, ValueError: A damaged package (the caller names it).
    """
    reader = _Reader(archive, filename=filename)
    count = 0
    blocks: list[str] = []
    for block in reader.blocks(reader.body()):
        if block.strip():
            blocks.append(block)
            count += len(block) + 2
            check_chars(count, filename)
    return "\n\n".join(blocks)


@dataclass
class _Level:
    start: int = 1
    fmt: str = "decimal"
    text: str = "%1."
    suffix: str = " "


@dataclass
class _Reader:
    archive: ZipFile
    filename: str = "document.docx"
    cells: int = 0  # table cells so far, after horizontal spans (``limits.TABLE_CELLS``)
    parts: dict[str, str] = field(default_factory=dict)  # relationship kind -> part name
    main: str = "word/document.xml"
    styles: dict[str, tuple[str, tuple[str, str] | None, str | None]] = field(
        default_factory=dict
    )  # id -> (name, (numId, ilvl) or None, basedOn)
    abstract: dict[str, dict[int, _Level]] = field(default_factory=dict)
    nums: dict[str, tuple[str, dict[int, int]]] = field(default_factory=dict)
    counters: dict[str, dict[int, int]] = field(default_factory=dict)  # per abstract list
    restarted: set[str] = field(default_factory=set)  # lists whose start override was used
    notes: dict[str, dict[str, Any]] = field(default_factory=dict)  # kind -> id -> element
    numbers: dict[tuple[str, str], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        root = self._xml("_rels/.rels")
        for rel in root.iter(f"{{{_REL}}}Relationship"):
            if rel.get("Type", "").endswith("/officeDocument"):
                self.main = rel.get("Target", self.main).lstrip("/")
        base = posixpath.dirname(self.main)
        rels = posixpath.join(base, "_rels", posixpath.basename(self.main) + ".rels")
        if rels in self.archive.namelist():
            for rel in self._xml(rels).iter(f"{{{_REL}}}Relationship"):
                target = rel.get("Target", "")
                if rel.get("TargetMode") == "External" or not target:
                    continue
                kind = rel.get("Type", "").rsplit("/", 1)[-1]
                name = (
                    target.lstrip("/")
                    if target.startswith("/")
                    else posixpath.normpath(posixpath.join(base, target))
                )
                self.parts.setdefault(kind, name)
        if "styles" in self.parts:
            self._read_styles(self._xml(self.parts["styles"]))
        if "numbering" in self.parts:
            self._read_numbering(self._xml(self.parts["numbering"]))
        for kind, tag in (
            ("footnotes", "footnote"),
            ("endnotes", "endnote"),
            ("comments", "comment"),
        ):
            if kind in self.parts:
                self.notes[tag] = {
                    el.get(_w("id")): el for el in self._xml(self.parts[kind]).iter(_w(tag))
                }

    def _xml(self, name: str) -> Any:
        # Optional (chunkviz[app]): lxml comes with python-docx.
        from lxml import etree

        data = self.archive.read(name)
        for strict, transitional in _STRICT.items():
            data = data.replace(strict, transitional)
        parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
        return etree.fromstring(data, parser)

    def body(self) -> Any:
        body = self._xml(self.main).find(_w("body"))
        if body is None:
            raise KeyError("w:body")
        return body

    # --- styles and numbering ---------------------------------------------------------------

    def _read_styles(self, root: Any) -> None:
        for style in root.iter(_w("style")):
            name_el = style.find(_w("name"))
            based = style.find(_w("basedOn"))
            self.styles[style.get(_w("styleId"), "")] = (
                name_el.get(_w("val"), "") if name_el is not None else "",
                _num_pr(style.find(_w("pPr"))),
                based.get(_w("val")) if based is not None else None,
            )

    def _read_numbering(self, root: Any) -> None:
        for abstract in root.iter(_w("abstractNum")):
            levels: dict[int, _Level] = {}
            for lvl in abstract.iter(_w("lvl")):
                level = _Level()
                for tag, attr in (
                    ("start", "start"),
                    ("numFmt", "fmt"),
                    ("lvlText", "text"),
                    ("suff", "suffix"),
                ):
                    el = lvl.find(_w(tag))
                    if el is None or el.get(_w("val")) is None:
                        continue
                    value = el.get(_w("val"))
                    if attr == "start":
                        level.start = int(value)
                    elif attr == "suffix":
                        level.suffix = "" if value == "nothing" else " "
                    else:
                        setattr(level, attr, value)
                levels[int(lvl.get(_w("ilvl"), "0"))] = level
            self.abstract[abstract.get(_w("abstractNumId"), "")] = levels
        for num in root.iter(_w("num")):
            ref = num.find(_w("abstractNumId"))
            starts = {}
            for override in num.iter(_w("lvlOverride")):
                start = override.find(_w("startOverride"))
                if start is not None:
                    starts[int(override.get(_w("ilvl"), "0"))] = int(start.get(_w("val"), "1"))
            self.nums[num.get(_w("numId"), "")] = (
                ref.get(_w("val"), "") if ref is not None else "",
                starts,
            )

    def _style(self, p: Any) -> tuple[str, tuple[str, str] | None]:
        """The paragraph's style name and its numbering (its own, else its style's)."""
        ppr = p.find(_w("pPr"))
        own = _num_pr(ppr)
        style_el = ppr.find(_w("pStyle")) if ppr is not None else None
        style_id = style_el.get(_w("val")) if style_el is not None else None
        name, numbering = "", own
        seen: set[str] = set()
        while style_id and style_id in self.styles and style_id not in seen:
            seen.add(style_id)
            style_name, style_num, based = self.styles[style_id]
            name = name or style_name
            numbering = numbering or style_num
            style_id = based
        return name, numbering

    def _label(self, num_id: str, ilvl: int) -> str:
        """The next list number (or bullet) of list ``num_id`` at level ``ilvl``, as printed."""
        if num_id not in self.nums or num_id == "0":
            return ""
        abstract_id, starts = self.nums[num_id]
        levels = self.abstract.get(abstract_id, {})
        # NOTE: Word counts a list per abstract definition: lists (w:num) sharing one go on
        # counting, except where one restarts it (a start override, on its first item).
        counts = self.counters.setdefault(abstract_id, {})
        if starts and num_id not in self.restarted:
            self.restarted.add(num_id)
            for deeper in [k for k in counts if k >= min(starts)]:
                del counts[deeper]
            counts.update({k: start - 1 for k, start in starts.items()})
        level = levels.get(ilvl, _Level())
        counts[ilvl] = counts.get(ilvl, level.start - 1) + 1
        for deeper in [k for k in counts if k > ilvl]:
            del counts[deeper]  # a higher level's next item restarts the levels below it

        def value(match: re.Match[str]) -> str:
            k = int(match.group(1)) - 1
            lv = levels.get(k, _Level())
            n = counts.get(k, lv.start)
            return _format_number(n, lv.fmt)

        if level.fmt == "bullet":
            text = "".join("•" if 0xE000 <= ord(ch) <= 0xF8FF else ch for ch in level.text)
        elif level.fmt == "none":
            text = re.sub(r"%[1-9]", "", level.text)
        else:
            text = re.sub(r"%([1-9])", value, level.text)
        return text + level.suffix if text.strip() else ""

    # --- blocks -------------------------------------------------------------------------------

    def blocks(self, container: Any) -> Iterator[str]:
        """The blocks of ``container`` (the body, a cell, a text box) in document order."""
        for child in container:
            tag = child.tag
            if tag == _w("p"):
                yield from self._paragraph(child)
            elif tag == _w("tbl"):
                yield self._table(child)
            elif tag == _w("sdt"):
                content = child.find(_w("sdtContent"))
                if content is not None:
                    yield from self.blocks(content)
            elif tag in (_w("customXml"), _w("ins"), _w("moveTo"), _w("smartTag")):
                yield from self.blocks(child)
            elif tag == f"{{{_MC}}}AlternateContent":
                choice = child.find(f"{{{_MC}}}Choice")
                if choice is not None:
                    yield from self.blocks(choice)

    def _paragraph(self, p: Any) -> Iterator[str]:
        style, numbering = self._style(p)
        refs: list[tuple[str, str]] = []
        boxes: list[Any] = []
        pieces: list[str] = []
        self._inline(p, pieces, refs, boxes)
        label = self._label(numbering[0], int(numbering[1])) if numbering else ""
        yield _heading_prefix(style) + label + "".join(pieces)
        lines = []
        for mark, note in refs:
            text = " ".join(b.strip() for b in self.blocks(note) if b.strip())
            lines.append(f"[^{mark}]: {text}")
        if lines:
            yield "\n".join(lines)
        for box in boxes:
            yield from self.blocks(box)

    def _inline(
        self, el: Any, out: list[str], refs: list[tuple[str, str]], boxes: list[Any]
    ) -> None:
        for child in el:
            tag = child.tag
            if not isinstance(tag, str) or tag in _SKIP:
                continue
            if tag == _w("t"):
                out.append(child.text or "")
            elif tag == _w("tab"):
                out.append("\t")
            elif tag in (_w("br"), _w("cr")):
                out.append("\n")
            elif tag == _w("noBreakHyphen"):
                out.append("-")
            elif tag == _w("sym"):
                code = int(child.get(_w("char"), "0"), 16)
                out.append(chr(code) if code else "")  # a Symbol-font code stays private use
            elif tag == _w("txbxContent"):
                boxes.append(child)
            elif tag in (_m("oMath"), _m("oMathPara")):
                out.append("$" + _math(child) + "$")
            elif tag in (_w("footnoteReference"), _w("endnoteReference"), _w("commentReference")):
                kind = tag.rsplit("}", 1)[1].replace("Reference", "")
                note = self.notes.get(kind, {}).get(child.get(_w("id")))
                if note is None:
                    continue
                key = (kind, child.get(_w("id"), ""))
                number = self.numbers.setdefault(
                    key, 1 + sum(1 for k, _ in self.numbers if k == kind)
                )
                mark = {"footnote": "", "endnote": "e", "comment": "c"}[kind] + str(number)
                out.append(f"[^{mark}]")
                refs.append((mark, note))
            else:
                self._inline(child, out, refs, boxes)

    def _table(self, tbl: Any) -> str:
        rows = []
        for tr in _children(tbl, "tr"):
            cells: list[str] = []
            for tc in _children(tr, "tc"):
                found = tc.find(f"{_w('tcPr')}/{_w('gridSpan')}")
                raw = found.get(_w("val"), "1") if found is not None else "1"
                span = max(1, int(raw)) if raw.isdigit() and len(raw) <= 10 else 1
                # Checked before the row grows: one gridSpan of 2**31 - 1 in 954 bytes asked
                # for 2.8 GB (a vertical merge repeats nothing here, so it costs one cell).
                TABLE_COLUMNS.check(len(cells) + span, self.filename)
                self.cells += span
                TABLE_CELLS.check(self.cells, self.filename)
                cells.append(" ".join(b for b in self.blocks(tc) if b.strip()))
                cells += [""] * (span - 1)
            rows.append(cells)
        return _markdown_table(rows)


def _children(el: Any, name: str) -> Iterator[Any]:
    """``el``'s ``w:<name>`` children, also those inside content controls and custom XML."""
    for child in el:
        if child.tag == _w(name):
            yield child
        elif child.tag in (_w("sdt"), _w("customXml")):
            content = child.find(_w("sdtContent")) if child.tag == _w("sdt") else child
            if content is not None:
                yield from _children(content, name)


def _num_pr(ppr: Any) -> tuple[str, str] | None:
    if ppr is None:
        return None
    num = ppr.find(_w("numPr"))
    if num is None:
        return None
    num_id = num.find(_w("numId"))
    ilvl = num.find(_w("ilvl"))
    if num_id is None:
        return None
    return (num_id.get(_w("val"), "0"), ilvl.get(_w("val"), "0") if ilvl is not None else "0")


_KANJI = "〇一二三四五六七八九"
_FULL_WIDTH = str.maketrans("0123456789", "０１２３４５６７８９")
_AIUEO = (
    "アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワヲン"
)
_IROHA = (
    "イロハニホヘトチリヌルヲワカヨタレソツネナラムウヰノオクヤマケフコエテアサキユメミシヱヒモセス"
)
_ROMAN = (
    (1000, "m"),
    (900, "cm"),
    (500, "d"),
    (400, "cd"),
    (100, "c"),
    (90, "xc"),
    (50, "l"),
    (40, "xl"),
    (10, "x"),
    (9, "ix"),
    (5, "v"),
    (4, "iv"),
    (1, "i"),
)


def _roman(n: int) -> str:
    out = ""
    for value, digits in _ROMAN:
        while n >= value:
            out += digits
            n -= value
    return out


def _letters(n: int) -> str:
    # Word repeats the letter past z: a ... z, aa ... zz.
    return chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1) if n > 0 else str(n)


def _kanji(n: int) -> str:
    if n <= 0 or n >= 100:
        return "".join(_KANJI[int(d)] for d in str(n))
    tens, ones = divmod(n, 10)
    return (("" if tens == 1 else _KANJI[tens]) + "十" if tens else "") + (
        _KANJI[ones] if ones else ""
    )


_FORMATS: dict[str, Callable[[int], str]] = {
    "decimal": str,
    "decimalZero": lambda n: f"{n:02d}",
    "decimalFullWidth": lambda n: str(n).translate(_FULL_WIDTH),
    "decimalHalfWidth": str,
    "decimalEnclosedCircle": lambda n: chr(0x2460 + n - 1) if 1 <= n <= 20 else str(n),
    "decimalEnclosedParen": lambda n: chr(0x2474 + n - 1) if 1 <= n <= 20 else f"({n})",
    "lowerLetter": _letters,
    "upperLetter": lambda n: _letters(n).upper(),
    "lowerRoman": _roman,
    "upperRoman": lambda n: _roman(n).upper(),
    "aiueoFullWidth": lambda n: _AIUEO[(n - 1) % len(_AIUEO)],
    "irohaFullWidth": lambda n: _IROHA[(n - 1) % len(_IROHA)],
    "japaneseCounting": _kanji,
    "chineseCounting": _kanji,
    "ideographDigital": lambda n: "".join(_KANJI[int(d)] for d in str(n)),
    "ideographTraditional": lambda n: "甲乙丙丁戊己庚辛壬癸"[(n - 1) % 10],
}
_FORMATS["decimalFullWidth2"] = _FORMATS["decimalFullWidth"]
_FORMATS["decimalEnclosedCircleChinese"] = _FORMATS["decimalEnclosedCircle"]
_FORMATS["aiueo"] = _FORMATS["aiueoFullWidth"]
_FORMATS["iroha"] = _FORMATS["irohaFullWidth"]


def _format_number(n: int, fmt: str) -> str:
    """``n`` as Word prints it in list format ``fmt`` (decimal for formats not listed)."""
    return _FORMATS.get(fmt, str)(n)


def _math(el: Any) -> str:
    """An equation as linear text: fractions ``(a)/(b)``, ``x^(2)``, ``x_(i)``, ``√(x)``."""
    name = el.tag.rsplit("}", 1)[-1] if isinstance(el.tag, str) else ""

    def part(tag: str) -> str:
        found = el.find(_m(tag))
        return _math(found) if found is not None else ""

    def chr_of(pr: str, default: str) -> str:
        found = el.find(f"{_m(pr)}/{_m('chr')}")
        return found.get(_m("val"), default) if found is not None else default

    if name == "t":
        return el.text or ""
    if name.endswith("Pr"):
        return ""
    if name == "f":
        return f"({part('num')})/({part('den')})"
    if name == "sSup":
        return f"{part('e')}^({part('sup')})"
    if name == "sSub":
        return f"{part('e')}_({part('sub')})"
    if name == "sSubSup":
        return f"{part('e')}_({part('sub')})^({part('sup')})"
    if name == "rad":
        degree = part("deg")
        return f"√{'[' + degree + ']' if degree else ''}({part('e')})"
    if name == "nary":
        sub, sup = part("sub"), part("sup")
        return (
            chr_of("naryPr", "∫")
            + (f"_({sub})" if sub else "")
            + (f"^({sup})" if sup else "")
            + part("e")
        )
    if name == "d":
        begin = el.find(f"{_m('dPr')}/{_m('begChr')}")
        end = el.find(f"{_m('dPr')}/{_m('endChr')}")
        inner = ",".join(_math(e) for e in el.findall(_m("e")))
        return (
            (begin.get(_m("val"), "(") if begin is not None else "(")
            + inner
            + (end.get(_m("val"), ")") if end is not None else ")")
        )
    return "".join(_math(child) for child in el)


def _heading_prefix(style: str | None) -> str:
    """``"## "`` for a paragraph in style Heading 2 (or 見出し 2, Title is 1), else ``""``.

    Word marks headings by paragraph style; as Markdown headings they give the ``markdown``
    strategy its sections and breadcrumbs.
    """
    name = (style or "").strip()
    if name.lower() == "title":
        return "# "
    m = _HEADING_STYLE.match(name)
    return "#" * int(m.group(1)) + " " if m else ""


def _markdown_table(rows: list[list[str]]) -> str:
    """A Word table as a Markdown table: the first row is its header, cells on one line each."""
    if not rows:
        return ""

    def cell(value: str) -> str:
        return " ".join(value.split()).replace("|", "\\|")

    width = max(len(r) for r in rows)
    lines = ["| " + " | ".join(cell(c) for c in r + [""] * (width - len(r))) + " |" for r in rows]
    lines.insert(1, "|" + " --- |" * width)
    return "\n".join(lines)
