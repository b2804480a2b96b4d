"""Write chunkviz/samples/jsquad_tsuyu.json: the JSQuAD article 梅雨 as the corpus loader builds it.

The text, paragraph starts and question spans come from ``chunkviz.datasets.load_dataset("jsquad")``
(paragraph bodies in numeric order, ``title [SEP] `` removed, concatenated without separator;
questions whose answer is in the title dropped), so the sample is exactly the study's document.

Usage (from the repository root): PYTHONPATH=. python scripts/build_jsquad_sample.py
"""

from __future__ import annotations

import json
from pathlib import Path

from chunkviz.datasets import load_dataset

TITLE = "梅雨"
OUT = Path(__file__).resolve().parents[1] / "chunkviz" / "samples" / "jsquad_tsuyu.json"


def main() -> None:
    """Build the sample file from the vendored corpus."""
    dataset = load_dataset("jsquad")
    doc = next(d for d in dataset.documents if d.title == TITLE)
    questions = [
        {"id": q.qid, "question": q.question, "answer": q.answer, "start": q.spans[0].start}
        for q in dataset.questions
        if q.doc_id == doc.doc_id
    ]
    data = {
        "title": TITLE,
        "doc_id": doc.doc_id,
        "source": "JSQuAD v1.3 validation (JGLUE), CC BY-SA 4.0; article 梅雨, unchanged text",
        "text": doc.text,
        "paragraph_starts": list(doc.paragraph_starts),
        "qa_pairs": questions,
    }
    OUT.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", "utf-8")
    print(
        f"wrote {OUT}: {len(doc.text)} chars, {len(doc.paragraph_starts)} paragraphs, "
        f"{len(questions)} questions"
    )


if __name__ == "__main__":
    main()
