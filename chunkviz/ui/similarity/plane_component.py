"""The similarity plane as a ``st.components.v2`` component (inline HTML/CSS/JS, no iframe).

The JavaScript (``assets/plane.js``) draws chunk vectors as arrows from the origin and a query
point the user drags with mouse or touch (pointer events). While dragging it recomputes the
top-k under dot product, cosine and L2 itself, so the badges follow the pointer; on release it
sends ``pos = {x, y}`` back to Python. Nothing is fetched from the network.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import streamlit as st

from chunkviz.retrieval.base import Measure
from chunkviz.views.plane import PlanePoint, component_data

_ASSETS = Path(__file__).parent / "assets"

# Registered once at import, as Streamlit recommends; the callable only mounts instances.
_PLANE = st.components.v2.component(
    "chunkviz_similarity_plane",
    html='<div class="cv-plane" data-testid="cv-plane"></div>',
    css=(_ASSETS / "plane.css").read_text(encoding="utf-8"),
    js=(_ASSETS / "plane.js").read_text(encoding="utf-8"),
)


def similarity_plane(
    points: Sequence[PlanePoint],
    query: Sequence[float],
    *,
    k: int,
    measure_names: Mapping[Measure, str],
    text: Mapping[str, str],
    key: str,
    on_release: Callable[[], None],
    seq: int = 0,
) -> Any:
    """Mount the plane; its state ``pos`` is the last released ``{x, y, seq}`` (None before).

    Args:
        points: Chunk vectors to draw.
        query: Where the query point starts, ``(x, y)``.
        k: How many top items each measure marks.
        measure_names: Display name of ``dot``, ``cosine`` and ``l2`` in the UI language.
        text: ``query`` (the point's name), ``top`` (column heading) and ``drag_hint``.
        key: Widget key; ``st.session_state[key]["pos"]`` holds the released position.
        on_release: Called (before the rerun) when the user releases the query point.
        seq: The ``seq`` of the released position that ``query`` comes from (0: none). The
            component numbers what it sends, so a rerun answering an older release does not
            pull the point back while the user has already moved it again.
    """
    data = component_data(points, query, k=k)
    data["measures"] = [{"id": m, "name": measure_names[m]} for m in ("dot", "cosine", "l2")]
    data["text"] = dict(text)
    data["seq"] = int(seq)
    return _PLANE(
        key=key, data=data, default={"pos": None}, on_pos_change=on_release, height="content"
    )
