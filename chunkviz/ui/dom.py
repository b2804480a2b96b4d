"""Every selector into the DOM that Streamlit draws, in one list (issue 40).

Streamlit's test ids (``data-testid="st…"``), its class names (``.stPlotlyChart``, the
``st-key-<key>`` class of a keyed element) and the Plotly.js markup that ``st.plotly_chart``
renders are not a public API: an upgrade may rename any of them. chunkviz reaches into them only
through the names below, each with what it targets and the version it was checked on; the CSS
and scripts that use them are built from these names. ``tests/browser/test_dom_browser.py``
opens the page where each is used and fails when one matches nothing, so a rename shows there,
not as a quiet layout change. Checked on Streamlit 1.67.0 (plotly.js as bundled with it).

A plain list of ``str`` constants: add a selector as one more, with its comment, and name the
page it is used on in the browser test's ``WHERE``.
"""

from __future__ import annotations

# --- page layout (Streamlit 1.67.0) --------------------------------------------------------------

#: The block holding a page's main content (under the header, beside the sidebar); its top
#: padding is the blank space above the title. Checked on Streamlit 1.67.0.
MAIN_BLOCK = '[data-testid="stMainBlockContainer"]'

#: One column of ``st.columns``. Checked on Streamlit 1.67.0.
COLUMN = '[data-testid="stColumn"]'

#: The value line (the big number) of an ``st.metric``. Checked on Streamlit 1.67.0.
METRIC_VALUE = '[data-testid="stMetricValue"]'

#: Explore's number tiles: the container ``st.container(key="explore_numbers")`` draws (a keyed
#: element carries the class ``st-key-<key>``). Checked on Streamlit 1.67.0.
EXPLORE_NUMBERS = ".st-key-explore_numbers"

#: The typed twin of a slider: every widget whose key ends in ``__typed``
#: (``chunkviz.ui.controls``), found by its ``st-key-<key>`` class. Checked on Streamlit 1.67.0.
TYPED_TWIN = '[class*="st-key-"][class*="__typed"]'

#: The container of an ``st.markdown`` text (where its Markdown tables are). Checked on
#: Streamlit 1.67.0.
MARKDOWN = '[data-testid="stMarkdownContainer"]'

#: The button that folds the open sidebar (drawn only while it is open). Checked on
#: Streamlit 1.67.0.
SIDEBAR_FOLD_BUTTON = '[data-testid="stSidebarCollapseButton"] button'

# --- charts --------------------------------------------------------------------------------------

#: The element ``st.plotly_chart`` draws. Checked on Streamlit 1.67.0.
PLOTLY_CHART = ".stPlotlyChart"

#: Streamlit's toolbar over an element (full screen, download), drawn while the pointer is
#: over the element. Checked on Streamlit 1.67.0.
ELEMENT_TOOLBAR = '[data-testid="stElementToolbar"]'

#: Plotly.js's root of a drawn chart, inside ``PLOTLY_CHART``. Checked on Streamlit 1.67.0
#: (its bundled plotly.js).
PLOTLY_PLOT = ".js-plotly-plot"

#: Plotly.js's toolbar (the "modebar") over a chart's top right corner. Checked on Streamlit
#: 1.67.0 (its bundled plotly.js).
PLOTLY_MODEBAR = ".modebar-container"

# --- issue 39: short screens and the file uploader (Streamlit 1.67.0) ----------------------------

#: The wrapper Streamlit puts around a container inside a vertical block: the flex item that
#: CSS ``order`` moves. Checked on Streamlit 1.67.0.
LAYOUT_WRAPPER = '[data-testid="stLayoutWrapper"]'

#: The container of Explore's numbers in the settings column
#: (``st.container(key="explore_numbers_slot")``). Checked on Streamlit 1.67.0.
EXPLORE_NUMBERS_SLOT = ".st-key-explore_numbers_slot"

#: A page's title (``st.title`` draws an ``h1``) inside ``MAIN_BLOCK``. Checked on Streamlit
#: 1.67.0.
TITLE = f"{MAIN_BLOCK} h1"

#: The start of a keyed element's class: an element drawn with ``key=k`` carries the class
#: ``st-key-<k>``, so ``KEYED + k`` selects it. Checked on Streamlit 1.67.0.
KEYED = ".st-key-"

#: The text of an ``st.file_uploader``'s button ("Upload"; "Upload directories"), inside its
#: drop zone: written by Streamlit's frontend in English, with no Python option. Checked on
#: Streamlit 1.67.0.
UPLOADER_BUTTON_TEXT = f'[data-testid="stFileUploaderDropzone"] button {MARKDOWN} p'

#: The box of an ``st.file_uploader``'s limits line, inside its drop zone. Checked on
#: Streamlit 1.67.0.
UPLOADER_INSTRUCTIONS = '[data-testid="stFileUploaderDropzoneInstructions"]'

#: The uploader's limits line ("64MB per file • TXT, PDF"), written by Streamlit's frontend in
#: English from ``server.maxUploadSize`` and the accepted types. Checked on Streamlit 1.67.0.
UPLOADER_LIMITS = f"{UPLOADER_INSTRUCTIONS} span"
