"""Explore's first screen: the settings, the numbers and the highlighted document side by side.

What a lecturer needs first (the chunks, the red answer, the key numbers) fits one 1400×900
screen: the document and import pickers fold into expanders named after what they hold, the
six numbers sit two to a row beside the settings, and the highlight takes the wider column.
A phone stacks the columns: the numbers stay two to a row (tiles of ``METRIC_WIDTH`` pixels
in a wrapping row) and the highlight follows them.
"""

from __future__ import annotations

from chunkviz.ui.dom import (
    COLUMN,
    EXPLORE_NUMBERS,
    EXPLORE_NUMBERS_SLOT,
    LAYOUT_WRAPPER,
    MAIN_BLOCK,
    METRIC_VALUE,
    TITLE,
    TYPED_TWIN,
)
from chunkviz.ui.i18n import tr
from chunkviz.ui.pickers import document_label
from chunkviz.ui.state import AppState
from chunkviz.views.markup import escape_markdown

#: Width of one number tile: two fit beside each other in the settings column and on a phone.
METRIC_WIDTH = 150

# Less blank space above the title (Streamlit's wide layout starts 6rem down), and smaller
# number tiles, so the highlight's first lines are on the first screen.
# On a phone the typed twin of each slider goes (the slider and its value label stay), and with
# it the stacked column that held it (a column holding no column: not the settings column), so
# no blank row is left under each slider; the settings then take one screen and the highlight
# follows the numbers on the next.
# On a short screen (a projector at 150%: 853×480 CSS pixels, issue 39) the numbers move to the
# top of the settings column (CSS ``order``), under a smaller title, and all of them are on the
# first screen beside the red answer; the header bar (3.75rem) still clears the title.
EXPLORE_CSS = f"""<style>
{MAIN_BLOCK} {{ padding-top: 3rem; }}
{EXPLORE_NUMBERS} {METRIC_VALUE} {{ font-size: 1.6rem; }}
@media (max-height: 560px) and (min-width: 641px) {{
  {MAIN_BLOCK} {{ padding-top: 3.75rem; }}
  {TITLE} {{ font-size: 1.6rem; padding: 0.2rem 0 0; }}
  {LAYOUT_WRAPPER}:has(> {EXPLORE_NUMBERS_SLOT}) {{ order: -1; }}
  {EXPLORE_NUMBERS} {METRIC_VALUE} {{ font-size: 1.15rem; }}
}}
@media (max-width: 640px) {{
  {MAIN_BLOCK} {TYPED_TWIN} {{ display: none; }}
  {COLUMN}:not(:has({COLUMN})):has({TYPED_TWIN}) {{
    display: none;
  }}
}}
</style>"""


def document_heading(state: AppState) -> str:
    """The document expander's label: which document is open, its size and its questions."""
    doc = state.document
    return tr(
        "lesson.document_heading",
        name=escape_markdown(document_label(state.lang, doc)),
        chars=len(doc.text),
        questions=len(doc.questions),
        lang=state.lang,
    )
