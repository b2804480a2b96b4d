"""PDFs printed once per test session by Chromium: the seed articles and JSQuAD articles."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.pdf.printing import CHROMIUM, article_html, blocks, print_pdfs

REPO = Path(__file__).resolve().parents[2]
#: The seed articles (not shipped with the repository): CHUNKVIZ_SEEDS, else the shared folder
#: that lies beside every checkout, CI's clone included.
SEEDS = Path(os.environ.get("CHUNKVIZ_SEEDS", REPO.parent / "shared" / "seeds"))
#: JSQuAD validation articles printed (the first ones of the vendored file).
JSQUAD_ARTICLES = 4


@dataclass(frozen=True)
class Printed:
    """A printed PDF and what was printed: its paragraphs and the answers it holds."""

    name: str
    pdf: Path
    paragraphs: tuple[str, ...]
    answers: tuple[str, ...] = ()


def _sources() -> dict[str, tuple[list[str], list[str]]]:
    out: dict[str, tuple[list[str], list[str]]] = {}
    for path in sorted(SEEDS.glob("*.txt")):
        out[f"seed{path.stem[:3]}"] = (blocks(path.read_text(encoding="utf-8")), [])
    vendored = REPO / "chunkviz/data/jsquad/valid-v1.3.json"
    data = json.loads(vendored.read_text(encoding="utf-8"))["data"]
    for article in data[:JSQUAD_ARTICLES]:
        # The long-document corpus's rule: each paragraph's "title [SEP] " prefix removed.
        paragraphs = [p["context"].split("[SEP]", 1)[-1].strip() for p in article["paragraphs"]]
        answers = [q["answers"][0]["text"] for p in article["paragraphs"] for q in p["qas"]]
        out[f"jsquad{len(out)}"] = ([article["title"], *paragraphs], answers)
    return out


@pytest.fixture(scope="session")
def printed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Printed]:
    """Every source printed to PDF (one browser for all): name -> ``Printed``."""
    if not Path(CHROMIUM).exists() or shutil.which("fc-list") is None:
        pytest.fail(f"{CHROMIUM} and fonts-noto-cjk are needed: run scripts/ensure-chromium.sh")
    sources = _sources()
    folder = tmp_path_factory.mktemp("printed")
    paths = print_pdfs({n: article_html(p) for n, (p, _) in sources.items()}, folder)
    return {n: Printed(n, paths[n], tuple(p), tuple(a)) for n, (p, a) in sources.items()}
