"""Write chunkviz/samples/jsquad_tsuyu.json: the JSQuAD article 梅雨 as one long document.

The document is built the way the study built its corpus (paragraph bodies in numeric paragraph
order, the ``title [SEP] `` prefix removed, concatenated without separator), and every question
whose answer lies in the body keeps its span in document coordinates.

Usage: python scripts/build_jsquad_sample.py [PATH_TO_valid-v1.3.json]
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = Path("/work/shared/data/jsquad/valid-v1.3.json")
TITLE = "梅雨"
OUT = ROOT / "chunkviz" / "samples" / "jsquad_tsuyu.json"
_PARAGRAPH = re.compile(r"p(\d+)q\d+$")


def main() -> None:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_SOURCE
    if not source.exists():
        source = ROOT / "data" / "jsquad" / "valid-v1.3.json"
    article = next(a for a in json.loads(source.read_text("utf-8"))["data"] if a["title"] == TITLE)
    numbered = []
    for p in article["paragraphs"]:
        number = int(_PARAGRAPH.search(p["qas"][0]["id"]).group(1))
        numbered.append((number, p))
    numbered.sort(key=lambda item: item[0])
    text = ""
    starts: list[int] = []
    questions = []
    for _number, p in numbered:
        context = p["context"]
        cut = context.index(" [SEP] ") + len(" [SEP] ")
        body = context[cut:]
        offset = len(text) - cut
        starts.append(len(text))
        text += body
        for qa in p["qas"]:
            answer = qa["answers"][0]
            if answer["answer_start"] < cut:
                continue  # the answer is in the removed title
            start = answer["answer_start"] + offset
            if text[start : start + len(answer["text"])] != answer["text"]:
                raise SystemExit(f"offset mismatch for {qa['id']}")
            questions.append(
                {"id": qa["id"], "question": qa["question"], "answer": answer["text"],
                 "start": start}
            )
    data = {
        "title": TITLE,
        "source": "JSQuAD v1.3 validation (JGLUE), CC BY-SA 4.0; article 梅雨, unchanged text",
        "text": text,
        "paragraph_starts": starts,
        "qa_pairs": questions,
    }
    OUT.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", "utf-8")
    print(f"wrote {OUT}: {len(text)} chars, {len(starts)} paragraphs, {len(questions)} questions")


if __name__ == "__main__":
    main()
