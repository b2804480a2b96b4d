"""Bring your own chunks: upload another library's chunk file, see its alignment report.

The upload is aligned to the current document (``chunkviz.eval.imported.import_chunks``) and
kept in the app state by its id, as aligned offsets; the configuration picker then offers it
beside the registered strategies on every page (``chunkviz.ui.pickers.configuration_picker``).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from chunkviz.eval.align import AlignmentReport
from chunkviz.eval.imported import IMPORTED, ImportedChunking, check_chunk_file, import_chunks
from chunkviz.text import Lang
from chunkviz.ui.guard import guard
from chunkviz.ui.i18n import tr
from chunkviz.ui.pickers import imported_option
from chunkviz.ui.state import AppState
from chunkviz.ui.uploader import file_uploader
from chunkviz.views.markup import escape_markdown

_CLIP = 60  # characters of a gap shown in the report's table
#: Imported chunkings a session keeps (the oldest goes first): each holds a document's offsets.
MAX_IMPORTS = 8


def _clip(s: str) -> str:
    return s if len(s) <= _CLIP else s[: _CLIP - 1] + "…"


def report_summary(lang: Lang, chunking: ImportedChunking) -> str:
    """The alignment report in one paragraph (Markdown-safe: the file name is escaped)."""
    r = chunking.report
    return tr(
        "import.summary",
        name=escape_markdown(chunking.name),
        total=len(r.chunks),
        format=r.format,
        aligned=r.aligned_count,
        as_is=sum(1 for c in r.chunks if c.as_is),
        not_as_is=len(r.not_as_is),
        wrong=len(r.wrong_claims),
        gaps=len(r.gaps),
        chars=r.uncovered_chars,
        chunks=len(chunking.result.chunks),
        lang=lang,
    )


def report_rows(lang: Lang, report: AlignmentReport) -> list[dict[str, Any]]:
    """Every problem of the report as a table row.

    Chunks not found as-is, wrong claimed starts, chunks inside the previous one (left out of
    the chunking), and text no chunk holds.
    """
    col = {
        k: tr(f"import.col_{k}", lang=lang)
        for k in ("problem", "chunk", "claimed", "start", "end", "text")
    }
    rows: list[dict[str, Any]] = []
    for c in report.not_as_is:
        rows.append(
            {
                col["problem"]: tr(f"import.match_{c.match}", lang=lang),
                col["chunk"]: c.index,
                col["claimed"]: c.claimed_start,
                col["start"]: c.start,
                col["end"]: c.end,
                col["text"]: "",
            }
        )
    for c in report.wrong_claims:
        rows.append(
            {
                col["problem"]: tr("import.wrong_claim", lang=lang),
                col["chunk"]: c.index,
                col["claimed"]: c.claimed_start,
                col["start"]: c.start,
                col["end"]: c.end,
                col["text"]: "",
            }
        )
    by_index = {c.index: c for c in report.chunks}
    for i in report.nested:
        c = by_index[i]
        rows.append(
            {
                col["problem"]: tr("import.nested", lang=lang),
                col["chunk"]: i,
                col["claimed"]: c.claimed_start,
                col["start"]: c.start,
                col["end"]: c.end,
                col["text"]: "",
            }
        )
    for g in report.gaps:
        rows.append(
            {
                col["problem"]: tr("import.gap", lang=lang),
                col["chunk"]: None,
                col["claimed"]: None,
                col["start"]: g.start,
                col["end"]: g.end,
                col["text"]: _clip(g.text),
            }
        )
    return rows


def chunks_importer(state: AppState, *, prefix: str) -> None:
    """The upload of a chunk file and the report of each chunking imported for this document."""
    lang = state.lang
    document = state.document
    upload = file_uploader(
        tr("import.upload", lang=lang),
        types=["json", "jsonl"],
        key=f"{prefix}chunks_upload",
        lang=lang,
        help=tr("import.upload_help", lang=lang),
    )
    seen = f"{prefix}chunks_file"
    wanted = upload.file_id if upload is not None else None
    if upload is not None and st.session_state.get(seen) != wanted:
        st.session_state[seen] = wanted
        with guard() as attempt:
            check_chunk_file(upload.size, upload.name)  # before the bytes are read
            chunking = import_chunks(upload.getvalue(), upload.name, document.text)
        if attempt.ok:
            state.imported[chunking.id] = chunking
            while len(state.imported) > MAX_IMPORTS:
                del state.imported[next(iter(state.imported))]
            # The import becomes the current configuration (it was the last of the box's
            # options, and nothing showed it): the picker drawn after this starts there.
            state.strategy = IMPORTED
            state.set_params(IMPORTED, {"id": chunking.id, "name": chunking.name})
            st.session_state[f"{prefix}strategy_{lang}"] = imported_option(chunking.id)
    for chunking in state.imported_for(document):
        st.markdown(report_summary(lang, chunking))
        rows = report_rows(lang, chunking.report)
        if rows:
            st.dataframe(
                rows, hide_index=True, key=f"{prefix}import_{chunking.id}", width="stretch"
            )
    if state.imported and not state.imported_for(document):
        st.caption(tr("import.other_document", lang=lang))
