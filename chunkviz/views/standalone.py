"""The highlighted view saved as one standalone HTML file: the whole document, offline.

The file holds the view's own stylesheet (``chunkviz.views.highlight.STYLE``) inline, the legend,
a line saying which document and configuration it shows, and ``render_html`` of the whole text
(every page of it), so it has the same colours, chunk numbers and marks as the page. It has no
script and loads nothing: a Content-Security-Policy forbids both, so even a file edited by hand
cannot fetch or run anything. Every piece of user text (the document, its name, the questions,
parameter values) is escaped by ``chunkviz.views.markup.escape_html``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chunkviz.model import ChunkingResult
from chunkviz.text import Lang, text
from chunkviz.views.explore import QAResult
from chunkviz.views.highlight import STYLE, Mark, labels_for, legend_html, render_html
from chunkviz.views.markup import escape_html

# No script, no network, no frames: styles inline only.
CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

# The page box scrolls at 65vh; a saved file shows the whole document in the page itself.
_FILE_STYLE = """
body { margin: 1.5rem auto; max-width: 60rem; padding: 0 1rem; color: #1f2328;
       font-family: system-ui, sans-serif; }
h1 { font-size: 1.3rem; }
.hl-config { color: #57606a; font-size: 0.9rem; }
.hl-box { max-height: none; overflow: visible; }
"""


def _params_line(params: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in params.items())


def standalone_html(
    result: ChunkingResult,
    marks: Sequence[Mark],
    qa: Sequence[QAResult],
    *,
    name: str,
    lang: Lang,
) -> str:
    """One HTML file of the whole highlighted document.

    Args:
        result: The chunking shown.
        marks: The answer marks (``qa_report``'s), as on the page.
        qa: The question statuses, for the broken count in the heading line.
        name: The document's name (the user's file name: escaped here).
        lang: The language of the legend and of the tooltips.

    Returns:
        A complete ``<!DOCTYPE html>`` document, UTF-8.
    """
    body = render_html(
        result.text, result.chunks, marks, labels=labels_for(lang), parents=result.parents
    )
    broken = sum(1 for r in qa if r.status == "broken")
    title = text(lang, "highlight.saved_title", name=name)
    config = text(
        lang,
        "highlight.saved_config",
        strategy=result.strategy,
        params=_params_line(result.params),
        chunks=len(result.chunks),
        broken=broken,
        questions=len(qa),
        chars=len(result.text),
    )
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape_html(title)}</title>\n"
        f"<style>{STYLE}{_FILE_STYLE}</style>\n</head>\n<body>\n"
        f"<h1>{escape_html(title)}</h1>\n"
        f'<p class="hl-config">{escape_html(config)}</p>\n'
        f"{legend_html(lang, parents=bool(result.parents))}\n"
        f'<div class="hl-box">{body}</div>\n</body>\n</html>\n'
    )


def standalone_filename(name: str, strategy: str) -> str:
    """A safe file name for the saved view: the document's name reduced to word characters."""
    stem = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in name).strip("-")[:60]
    return f"highlight-{stem or 'document'}-{strategy}.html"
