"""Explore's downloads: what the files themselves carry (document, configuration, QA status)."""

from __future__ import annotations

import csv
import io
import json

import pytest
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage

import chunkviz
from chunkviz.samples import load_sample
from chunkviz.views import export
from chunkviz.views.explore import qa_report
from tests.app.helpers import page


@pytest.fixture
def downloads(monkeypatch) -> dict[str, bytes]:
    """Every file a download button hands Streamlit's media storage, by file name."""
    files: dict[str, bytes] = {}
    load = MemoryMediaFileStorage.load_and_get_id

    def keep(self, path_or_data, mimetype, kind, filename=None):  # type: ignore[no-untyped-def]
        if filename is not None and isinstance(path_or_data, bytes | str):
            data = path_or_data if isinstance(path_or_data, bytes) else path_or_data.encode()
            files[filename] = data
        return load(self, path_or_data, mimetype, kind, filename)

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", keep)
    return files


def test_downloads_name_the_document_and_give_each_chunks_qa_status(downloads):
    at = page("1_Explore.py", timeout=90)
    at.slider(key="explore_p_fixed_size").set_value(100)
    at.session_state["explore_tab"] = "Export"
    at.run()
    assert not at.exception
    sample = load_sample("jsquad_tsuyu")
    result = chunkviz.chunk(sample.text, "fixed", size=100, overlap=0)
    qa, _marks = qa_report(result, sample.questions)
    stem = export.export_stem(result, sample)
    assert stem == "chunks-JSQuAD_article_梅雨_rainy_season-fixed"

    payload = json.loads(downloads[f"{stem}.json"])
    assert payload["document"]["name"] == sample.title
    assert payload["params"] == {"size": 100, "overlap": 0, "unit": "chars"}
    broken = {r.item.qid for r in qa if r.status == "broken"}
    assert broken  # 寒帯ジェット気流 is cut by chunks 24 and 25 at 100/0
    assert {q for c in payload["chunks"] for q in c["answers_broken"]} == broken
    assert "q1" in payload["chunks"][0]["answers_contained"]  # 小笠原諸島 at 16..21

    rows = list(csv.DictReader(io.StringIO(downloads[f"{stem}.csv"].decode())))
    assert len(rows) == len(result.chunks)
    assert {r["document"] for r in rows} == {sample.title}
    lines = downloads[f"{stem}.jsonl"].decode().splitlines()
    assert json.loads(lines[24])["answers_broken"] == payload["chunks"][24]["answers_broken"]
