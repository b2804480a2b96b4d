"""PDF documents read as they were printed: text by layout, with each character's page and box.

``compat`` folds compatibility ideographs, ``layout`` turns positioned characters into lines and
paragraphs, ``reader`` gets those characters out of a PDF with pypdfium2, ``pages`` holds the
per-character page and box arrays a ``Document`` keeps, and ``render`` draws a page.
"""
