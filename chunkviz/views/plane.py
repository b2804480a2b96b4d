"""A 2-D toy model of seed 003's lesson: vector length decides raw dot-product rankings.

Each chunk is a vector from the origin whose length stands for the chunk's length (longer chunks
tend to get larger embedding norms when nothing normalises them). A query point is compared with
every chunk under three measures:

- ``dot``: q·d = |q| |d| cos θ — grows with |d|, so a long chunk pointing roughly the right way
  beats a short chunk pointing exactly the right way;
- ``cosine``: cos θ — the direction only;
- ``l2``: −|q − d| — the nearest tip wins, which punishes chunks much longer *or* shorter than
  the query.

When every chunk vector has length 1 the three orders coincide: |d| is constant, and
|q − d|² = |q|² + 1 − 2 q·d falls as q·d rises.

Everything here is pure and works on plain tuples, so the Similarity page, its component and the
tests share one definition.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from chunkviz.errors import ParameterError, shown
from chunkviz.retrieval.base import Measure
from chunkviz.retrieval.ranking import rank_order
from chunkviz.retrieval.similarity import MEASURES, similarity
from chunkviz.text import LANGUAGES, Lang, text

PresetName = Literal["long_vs_short", "normalised", "random"]
PRESETS: tuple[PresetName, ...] = ("long_vs_short", "normalised", "random")

#: Half the side of the square the plane shows: coordinates run from -EXTENT to +EXTENT.
EXTENT = 5.0
#: Longest chunk vector a user may set (it must stay inside the drawn plane).
MAX_LENGTH = EXTENT


@dataclass(frozen=True, slots=True)
class PlanePoint:
    """A chunk vector: its label and the coordinates of its tip.

    Attributes:
        label: Short name shown next to the arrow (``A``, ``long 1`` ...).
        x: Horizontal coordinate of the tip.
        y: Vertical coordinate of the tip (up is positive).
    """

    label: str
    x: float
    y: float

    @property
    def length(self) -> float:
        """Euclidean norm of the vector (stands for the chunk's length)."""
        return math.hypot(self.x, self.y)

    @property
    def angle(self) -> float:
        """Direction in degrees, counter-clockwise from the positive x axis, in (-180, 180]."""
        return math.degrees(math.atan2(self.y, self.x))


def from_polar(label: str, angle: float, length: float) -> PlanePoint:
    """A point at ``angle`` degrees and distance ``length`` from the origin.

    Raises:
        ParameterError: ``length`` is not in (0, MAX_LENGTH].
    """
    _check_length(label, length)
    rad = math.radians(angle)
    return PlanePoint(label, round(length * math.cos(rad), 6), round(length * math.sin(rad), 6))


def _check_length(label: str, length: float) -> None:
    if not (isinstance(length, int | float) and 0 < length <= MAX_LENGTH):
        raise ParameterError("point_length", label=label, value=length, max=MAX_LENGTH)


# --- presets -------------------------------------------------------------------------------------

#: "long vs short": two short chunks aim straight at the default query; two long ones point well
#: away from it. Raw dot product ranks a long one first; cosine and L2 rank a short one first.
_LONG_VS_SHORT: tuple[tuple[str, float, float], ...] = (
    ("A", 20.0, 1.0),
    ("B", 40.0, 1.2),
    ("C", 75.0, 4.5),
    ("D", -30.0, 4.0),
    ("E", 130.0, 2.2),
)
#: Default query for the presets: direction 25°, length 1.5.
DEFAULT_QUERY: tuple[float, float] = (
    round(1.5 * math.cos(math.radians(25.0)), 6),
    round(1.5 * math.sin(math.radians(25.0)), 6),
)


def preset(name: str, *, seed: int = 0, n: int = 6) -> tuple[PlanePoint, ...]:
    """The chunk vectors of a named preset.

    Args:
        name: ``long_vs_short`` (raw dot product prefers the long chunks), ``normalised`` (every
            vector has length 1, so the three measures agree) or ``random`` (seeded).
        seed: Seed of the ``random`` preset (ignored by the others).
        n: Number of points of the ``random`` and ``normalised`` presets (1 to 26).

    Returns:
        The points, labelled in order.

    Raises:
        ParameterError: Unknown preset name or ``n`` out of range.
    """
    if not 1 <= n <= 26:
        raise ParameterError("plane_points", value=n)
    if name == "long_vs_short":
        return tuple(from_polar(label, a, r) for label, a, r in _LONG_VS_SHORT)
    if name == "normalised":
        # Evenly spread directions, all of length 1.
        spread = [-150.0 + 300.0 * i / max(n - 1, 1) for i in range(n)]
        return tuple(from_polar(chr(65 + i), a, 1.0) for i, a in enumerate(spread))
    if name == "random":
        rng = np.random.default_rng(seed)
        angles = rng.uniform(-180.0, 180.0, size=n)
        lengths = rng.uniform(0.5, 4.5, size=n)
        return tuple(
            from_polar(chr(65 + i), round(float(a), 1), round(float(r), 2))
            for i, (a, r) in enumerate(zip(angles, lengths, strict=True))
        )
    raise ParameterError("one_of", name="preset", value=name, choices=list(PRESETS))


# --- editing -------------------------------------------------------------------------------------


def add_point(points: Sequence[PlanePoint], point: PlanePoint) -> tuple[PlanePoint, ...]:
    """``points`` with ``point`` appended (its label must be new)."""
    if any(p.label == point.label for p in points):
        raise ParameterError("point_label", value=point.label)
    _check_length(point.label, point.length)
    return (*points, point)


def points_from_rows(rows: Sequence[Mapping[str, object]]) -> tuple[PlanePoint, ...]:
    """Points from table rows with ``label``, ``angle`` (degrees) and ``length``.

    Rows whose label, angle and length are all empty (a fresh editor row) are skipped; a
    missing label gets the next free letter.

    Raises:
        ParameterError: A length outside (0, MAX_LENGTH], a non-numeric angle or a repeated
            label.
    """
    points: list[PlanePoint] = []
    for i, row in enumerate(rows):
        label_raw, angle_raw, length_raw = row.get("label"), row.get("angle"), row.get("length")
        if all(_is_blank(v) for v in (label_raw, angle_raw, length_raw)):
            continue
        label = str(label_raw).strip() if not _is_blank(label_raw) else _free_label(points)
        angle = _as_float(f"angle of row {i + 1}", angle_raw)
        length = _as_float(f"length of row {i + 1}", length_raw)
        points = list(add_point(points, from_polar(label, angle, length)))
    return tuple(points)


def points_to_rows(points: Sequence[PlanePoint]) -> list[dict[str, object]]:
    """Table rows (``label``, ``angle``, ``length``) for an editor; inverse of points_from_rows."""
    return [
        {"label": p.label, "angle": round(p.angle, 1), "length": round(p.length, 2)} for p in points
    ]


def _is_blank(value: object) -> bool:
    if value is None:
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    return isinstance(value, str) and not value.strip()


def _as_float(name: str, value: object) -> float:
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ParameterError("not_number", name=name, value=shown(value)) from None
    if not math.isfinite(number):
        raise ParameterError("not_finite", name=name, value=shown(value))
    return number


def _free_label(points: Sequence[PlanePoint]) -> str:
    used = {p.label for p in points}
    return next(chr(65 + i) for i in range(len(used) + 1) if chr(65 + i) not in used)


# --- rankings ------------------------------------------------------------------------------------


def scores(points: Sequence[PlanePoint], query: Sequence[float]) -> dict[Measure, np.ndarray]:
    """Score of every point for the query under each measure (higher is better)."""
    docs = np.array([[p.x, p.y] for p in points], dtype=np.float64).reshape(len(points), 2)
    q = np.asarray(query, dtype=np.float64)
    if q.shape != (2,):
        raise ParameterError("plane_query", value=str(tuple(query)))
    return {m: similarity(q, docs, m) for m in MEASURES}


def rankings(
    points: Sequence[PlanePoint], query: Sequence[float]
) -> dict[Measure, tuple[int, ...]]:
    """Point indices from best to worst under each measure (ties: lower index first)."""
    return {m: tuple(int(i) for i in rank_order(s)) for m, s in scores(points, query).items()}


def screen_to_plane(
    px: float, py: float, box: Mapping[str, float], extent: float = EXTENT
) -> tuple[float, float]:
    """Plane coordinates of a screen position inside the drawn plane.

    The component draws the square ``[-extent, extent]²`` as a square SVG rect with y pointing
    up; ``box`` is that rect's bounding box (``x``, ``y``, ``width``, ``height`` in CSS pixels,
    as Playwright's ``bounding_box()`` reports it).
    """
    x = -extent + (px - box["x"]) / box["width"] * 2 * extent
    y = extent - (py - box["y"]) / box["height"] * 2 * extent
    return (x, y)


def component_data(
    points: Sequence[PlanePoint], query: Sequence[float], *, k: int
) -> dict[str, object]:
    """The JSON the plane component draws: points, query, ``k`` and the plane's extent.

    Raises:
        ParameterError: ``k`` is smaller than 1.
    """
    if k < 1:
        raise ParameterError("at_least", name="k", value=k, min=1)
    return {
        "points": [{"label": p.label, "x": p.x, "y": p.y} for p in points],
        "query": {"x": float(query[0]), "y": float(query[1])},
        "k": int(k),
        "extent": EXTENT,
    }


# --- explanations --------------------------------------------------------------------------------


def measure_names(lang: Lang) -> dict[Measure, str]:
    """Display name of each measure in ``lang`` (catalogue section ``measure``)."""
    return {m: text(lang, f"measure.{m}") for m in MEASURES}


def _check_lang(lang: str) -> None:
    if lang not in LANGUAGES:
        raise ParameterError("one_of", name="lang", value=lang, choices=list(LANGUAGES))


def describe_change(
    before: Sequence[int],
    after: Sequence[int],
    labels: Sequence[str],
    *,
    before_name: str,
    after_name: str,
    lang: Lang = "en",
) -> str:
    """One sentence saying how ranking ``after`` differs from ranking ``before``.

    It names the new top item (and the old one if it changed) and the item whose rank moved the
    most; identical rankings get a sentence saying so. The sentences are the catalogue's
    (section ``plane``).

    Args:
        before: Item indices from best to worst (a permutation of ``range(len(labels))``).
        after: The other ranking of the same items.
        labels: Display name of each item.
        before_name: What ``before`` is ("cosine", "the previous position" ...).
        after_name: What ``after`` is.
        lang: A UI language (``chunkviz.text.LANGUAGES``).

    Raises:
        ParameterError: The rankings are not permutations of the same items, or ``lang`` is
            unknown.
    """
    _check_lang(lang)
    n = len(labels)
    if sorted(before) != list(range(n)) or sorted(after) != list(range(n)):
        raise ParameterError(
            "full_rankings", count=n, before=str(list(before)), after=str(list(after))
        )
    if n == 0:
        return text(lang, "plane.nothing")
    names = {"before": before_name, "after": after_name, "After": _cap(after_name)}
    if list(before) == list(after):
        return text(lang, "plane.same", **names)
    pos_before = {item: r for r, item in enumerate(before, start=1)}
    pos_after = {item: r for r, item in enumerate(after, start=1)}
    # The biggest mover; ties go to the item ranked higher under ``after``.
    mover = max(after, key=lambda i: (abs(pos_after[i] - pos_before[i]), -pos_after[i]))
    moved = {"mover": labels[mover], "src": pos_before[mover], "dst": pos_after[mover]}
    new_top, old_top = labels[after[0]], labels[before[0]]
    if after[0] != before[0]:
        tail = (
            text(lang, "plane.tail_mover", **moved)
            if mover not in (after[0], before[0])
            else text(lang, "plane.tail_rise", new=new_top, src=pos_before[after[0]])
        )
        return text(lang, "plane.new_top", new=new_top, old=old_top, tail=tail, **names)
    return text(lang, "plane.same_top", new=new_top, **names, **moved)


def describe_measures(
    points: Sequence[PlanePoint], query: Sequence[float], lang: Lang = "en"
) -> str:
    """One sentence comparing the dot-product ranking with the cosine ranking at ``query``."""
    _check_lang(lang)
    ranks = rankings(points, query)
    names = measure_names(lang)
    return describe_change(
        ranks["cosine"],
        ranks["dot"],
        [p.label for p in points],
        before_name=names["cosine"],
        after_name=names["dot"],
        lang=lang,
    )


def _cap(value: str) -> str:
    return value[:1].upper() + value[1:]


def describe_move(
    points: Sequence[PlanePoint],
    before: Sequence[float],
    after: Sequence[float],
    lang: Lang = "en",
) -> str:
    """One sentence saying how moving the query from ``before`` to ``after`` changed the top 1.

    It names every measure whose best point changed (with the old and new point) and the
    measures that kept theirs.
    """
    _check_lang(lang)
    if not points:
        return text(lang, "plane.nothing")
    old, new = rankings(points, before), rankings(points, after)
    names = measure_names(lang)
    changed = [m for m in MEASURES if old[m][0] != new[m][0]]
    kept = [m for m in MEASURES if old[m][0] == new[m][0]]
    label = [p.label for p in points]
    if not changed:
        return text(lang, "plane.move_none")
    parts = [
        text(lang, "plane.move_part", measure=names[m], old=label[old[m][0]], new=label[new[m][0]])
        for m in changed
    ]
    sentence = text(lang, "plane.move_changed", parts=_join(lang, parts))
    if kept:
        sentence += text(
            lang,
            "plane.move_kept",
            parts=_join(
                lang,
                [
                    text(lang, "plane.move_kept_part", measure=names[m], new=label[new[m][0]])
                    for m in kept
                ],
            ),
        )
    return sentence + text(lang, "plane.move_end")


def _join(lang: Lang, parts: Sequence[str]) -> str:
    last = text(lang, "plane.join_last")
    if len(parts) <= 2:
        return last.join(parts)
    return text(lang, "plane.join").join(parts[:-1]) + last + parts[-1]
