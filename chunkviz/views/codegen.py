"""A chunkviz configuration as Python code for LangChain, LlamaIndex and chonkie.

Each snippet says how close it is: ``equivalent`` (the same chunks; for the fixed character
window this is checked by tests/views/test_codegen.py against the installed peers), ``closest`` (the
library's nearest splitter, whose output differs; the note says how) or ``none`` (the library has
no such splitter; the snippet is a comment saying so). chunkviz's own call is always exact.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from chunkviz.eval.imported import IMPORTED
from chunkviz.strategies.snap import active_params
from chunkviz.text import Lang, has, text

Library = Literal["chunkviz", "langchain", "llamaindex", "chonkie"]
Fidelity = Literal["exact", "equivalent", "closest", "none"]
LIBRARIES: tuple[Library, ...] = ("chunkviz", "langchain", "llamaindex", "chonkie")


@dataclass(frozen=True, slots=True)
class Snippet:
    """Code for one library.

    Attributes:
        library: The target library.
        fidelity: ``exact``/``equivalent`` (same chunks), ``closest`` or ``none``.
        code: Python source (a comment when there is no equivalent).
        note: One line on what differs, in English.
        note_id: The note's catalogue key (``codegen_note.<id>``), so a page shows it in the
            reader's language; ``none`` notes name the library instead (``codegen_note.none``).
    """

    library: Library
    fidelity: Fidelity
    code: str
    note: str = ""
    note_id: str = ""


def _kwargs(params: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in params.items())


def _chunkviz(strategy: str, params: Mapping[str, Any]) -> Snippet:
    if strategy == IMPORTED:
        # Chunks imported from a file are re-made by aligning the same file, not by a strategy.
        code = (
            "from chunkviz.eval.align import align_file\n\n"
            f"report = align_file(text, {str(params.get('name', 'chunks.json'))!r})\n"
            "result = report.result()  # the aligned offsets, as on this page"
        )
        return Snippet("chunkviz", "exact", code)
    args = _kwargs(active_params(params))
    code = (
        "import chunkviz\n\n"
        f"result = chunkviz.chunk(text, {strategy!r}{', ' + args if args else ''})\n"
        "chunks = result.chunk_texts()  # text[c.start:c.end] for every chunk"
    )
    return Snippet("chunkviz", "exact", code)


#: How each library spells its own name.
NAMES: dict[Library, str] = {
    "chunkviz": "chunkviz",
    "langchain": "LangChain",
    "llamaindex": "LlamaIndex",
    "chonkie": "chonkie",
}


def _none(library: Library, strategy: str) -> Snippet:
    code = f"# {NAMES[library]} has no splitter equivalent to chunkviz's {strategy!r} strategy."
    return Snippet(library, "none", code, f"No {NAMES[library]} equivalent.", "none")


def _size_overlap(params: Mapping[str, Any]) -> tuple[int, int]:
    return int(params.get("size", 400)), int(params.get("overlap", 0) or 0)


def _fixed(library: Library, params: Mapping[str, Any]) -> Snippet:
    size, overlap = _size_overlap(params)
    tokens = params.get("unit", "chars") == "tokens"
    if library == "langchain":
        if tokens:
            return Snippet(
                library,
                "closest",
                "from langchain_text_splitters import TokenTextSplitter\n\n"
                f"splitter = TokenTextSplitter(chunk_size={size}, chunk_overlap={overlap})\n"
                "chunks = splitter.split_text(text)",
                "Counts tiktoken tokens, not the tokens of chunkviz's active model.",
                note_id="lc_tokens",
            )
        return Snippet(
            library,
            "equivalent",
            "from langchain_text_splitters import CharacterTextSplitter\n\n"
            "splitter = CharacterTextSplitter(\n"
            f'    separator="", chunk_size={size}, chunk_overlap={overlap}, '
            "strip_whitespace=False\n)\n"
            "chunks = splitter.split_text(text)",
            "Same windows: an empty separator splits into characters and merges them back.",
            note_id="lc_chars",
        )
    if library == "chonkie":
        if tokens:
            return Snippet(
                library,
                "closest",
                "from chonkie import TokenChunker\n\n"
                f'chunker = TokenChunker(tokenizer="gpt2", chunk_size={size}, '
                f"chunk_overlap={overlap})\n"
                "chunks = [c.text for c in chunker.chunk(text)]",
                "Same windowing, but over the tokenizer you name, not chunkviz's active model.",
                note_id="chonkie_tokens",
            )
        return Snippet(
            library,
            "equivalent",
            "from chonkie import TokenChunker\n\n"
            f'chunker = TokenChunker(tokenizer="character", chunk_size={size}, '
            f"chunk_overlap={overlap})\n"
            "chunks = [c.text for c in chunker.chunk(text)]",
            "Same windows: chonkie's character tokenizer makes tokens of single characters.",
            note_id="chonkie_chars",
        )
    if tokens:
        return Snippet(
            library,
            "closest",
            "from llama_index.core.node_parser import TokenTextSplitter\n\n"
            f"splitter = TokenTextSplitter(chunk_size={size}, chunk_overlap={overlap})\n"
            "chunks = splitter.split_text(text)",
            "Splits at word separators first and counts tiktoken tokens.",
            note_id="li_tokens",
        )
    return Snippet(
        library,
        "none",
        "# LlamaIndex has no fixed character window: its splitters count tokens and prefer\n"
        "# word/sentence separators. The nearest is TokenTextSplitter (token counts):\n"
        "# from llama_index.core.node_parser import TokenTextSplitter\n"
        f"# splitter = TokenTextSplitter(chunk_size={size}, chunk_overlap={overlap})",
        "No character-window splitter in LlamaIndex.",
        note_id="li_no_window",
    )


def _paragraph(library: Library, params: Mapping[str, Any]) -> Snippet:
    if library == "langchain":
        return Snippet(
            library,
            "closest",
            "from langchain_text_splitters import CharacterTextSplitter\n\n"
            "# chunk_size=1 keeps every paragraph on its own (LangChain logs a warning per\n"
            "# paragraph longer than chunk_size); a larger chunk_size merges short paragraphs.\n"
            'splitter = CharacterTextSplitter(separator="\\n\\n", chunk_size=1, chunk_overlap=0)\n'
            "chunks = splitter.split_text(text)",
            "Splits at blank lines only (chunkviz falls back to line breaks when there are none).",
            note_id="lc_paragraph",
        )
    return _none(library, "paragraph")


def _recursive(library: Library, params: Mapping[str, Any]) -> Snippet:
    size, overlap = _size_overlap(params)
    separators = params.get("separators")
    if library == "langchain":
        seps = f"    separators={list(separators)!r},\n" if separators else ""
        return Snippet(
            library,
            "closest",
            "from langchain_text_splitters import RecursiveCharacterTextSplitter\n\n"
            "splitter = RecursiveCharacterTextSplitter(\n"
            f'{seps}    chunk_size={size}, chunk_overlap={overlap}, keep_separator="end",\n'
            "    strip_whitespace=False,\n)\n"
            "chunks = splitter.split_text(text)",
            "Same idea; merge and overlap rules differ in detail.",
            note_id="lc_recursive",
        )
    if library == "chonkie":
        return Snippet(
            library,
            "closest",
            "from chonkie import RecursiveChunker\n\n"
            f'chunker = RecursiveChunker(tokenizer="character", chunk_size={size})\n'
            "chunks = [c.text for c in chunker.chunk(text)]",
            "chonkie's recursive chunker has no overlap and its own separator rules.",
            note_id="chonkie_recursive",
        )
    return _none(library, "recursive")


def _sentence(library: Library, params: Mapping[str, Any]) -> Snippet:
    size, overlap = _size_overlap(params)
    if library == "chonkie":
        return Snippet(
            library,
            "closest",
            "from chonkie import SentenceChunker\n\n"
            f'chunker = SentenceChunker(tokenizer="character", chunk_size={size}, '
            f"chunk_overlap={overlap},\n"
            '                          delim=["。", "！", "？", ". ", "! ", "? ", "\\n"])\n'
            "chunks = [c.text for c in chunker.chunk(text)]",
            "Packs sentences up to chunk_size; its overlap counts characters, not sentences.",
            note_id="chonkie_sentence",
        )
    if library == "llamaindex":
        return Snippet(
            library,
            "closest",
            "from llama_index.core.node_parser import SentenceSplitter\n\n"
            f"splitter = SentenceSplitter(chunk_size={size}, chunk_overlap={overlap})\n"
            "chunks = splitter.split_text(text)",
            "Counts tiktoken tokens and uses its own sentence rules.",
            note_id="li_sentence",
        )
    return _none(library, "sentence")


def _markdown(library: Library, params: Mapping[str, Any]) -> Snippet:
    if library == "langchain":
        return Snippet(
            library,
            "closest",
            "from langchain_text_splitters import MarkdownHeaderTextSplitter\n\n"
            "splitter = MarkdownHeaderTextSplitter(\n"
            '    headers_to_split_on=[("#", "h1"), ("##", "h2"), ("###", "h3")],\n'
            "    strip_headers=False,\n)\n"
            "docs = splitter.split_text(text)  # headings go to metadata, not a prefix",
            "Heading path is kept as metadata rather than a breadcrumb prefix.",
            note_id="lc_markdown",
        )
    if library == "llamaindex":
        return Snippet(
            library,
            "closest",
            "from llama_index.core import Document\n"
            "from llama_index.core.node_parser import MarkdownNodeParser\n\n"
            "nodes = MarkdownNodeParser().get_nodes_from_documents([Document(text=text)])",
            "Splits at every heading; the heading path goes to metadata.",
            note_id="li_markdown",
        )
    return _none(library, "markdown")


_BUILDERS: dict[str, Callable[[Library, Mapping[str, Any]], Snippet]] = {
    "fixed": _fixed,
    "paragraph": _paragraph,
    "recursive": _recursive,
    "sentence": _sentence,
    "markdown": _markdown,
}


#: The file ``import_back_code`` writes (Explore's import reads JSON lists of strings or nodes).
IMPORT_FILE = "chunks.json"


def import_back_code(snip: Snippet) -> str | None:
    """Lines to run after ``snip`` that save the library's own chunks for Explore's import.

    A ``closest`` snippet cannot carry a recommendation into the library (its chunks differ);
    importing the chunks it really makes puts them in every view instead. None where there is
    nothing to import back: chunkviz itself, a library with the same chunks, or no splitter.
    """
    if snip.library == "chunkviz" or snip.fidelity != "closest":
        return None
    last = snip.code.rstrip().splitlines()[-1]
    # LlamaIndex nodes carry their own offsets (start_char_idx); LangChain Documents their
    # text; the other snippets end with a list of texts.
    items = {
        "nodes": "[{'text': n.text, 'start_char_idx': n.start_char_idx} for n in nodes]",
        "docs": "[d.page_content for d in docs]",
    }.get(last.split(" =")[0], "chunks")
    return (
        "import json\n\n"
        f"with open({IMPORT_FILE!r}, 'w', encoding='utf-8') as f:\n"
        f"    json.dump({items}, f, ensure_ascii=False)"
    )


def note_text(lang: Lang, snip: Snippet) -> str:
    """The snippet's note in ``lang`` (its English ``note`` when it has no catalogue key)."""
    key = f"codegen_note.{snip.note_id}"
    return (
        text(lang, key, library=NAMES[snip.library])
        if snip.note_id and has("en", key)
        else snip.note
    )


def snippet(strategy: str, params: Mapping[str, Any], library: Library) -> Snippet:
    """Code that chunks ``text`` like chunkviz's ``strategy`` with ``params`` in ``library``."""
    if library == "chunkviz":
        return _chunkviz(strategy, params)
    builder = _BUILDERS.get(strategy)
    if builder is None:
        return _none(library, strategy)
    snap = params.get("snap", "none")
    made = builder(library, {k: v for k, v in params.items() if k not in ("snap", "max_shift")})
    if snap != "none" and made.fidelity in ("exact", "equivalent"):
        # No peer moves a window's cuts to word boundaries: its chunks are the unsnapped ones.
        return Snippet(
            library,
            "closest",
            made.code,
            "Cuts where the window lands: no snapping to word boundaries.",
            "no_snap",
        )
    return made


def snippets(strategy: str, params: Mapping[str, Any]) -> list[Snippet]:
    """Snippets for every library, chunkviz first."""
    return [snippet(strategy, params, lib) for lib in LIBRARIES]
