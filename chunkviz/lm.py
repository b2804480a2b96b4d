"""Language models that give each sentence a perplexity, for perplexity chunking (seed 004).

Two kinds share one small interface (``LanguageModel``: a ``name`` and
``perplexities(text, spans)``):

- ``CharNgramLM`` (the offline default): an interpolated Kneser-Ney character n-gram model
  (Chen & Goodman 1999, "An empirical study of smoothing techniques for language modeling",
  section 3.5) that *reads the document in order*: each sentence is scored by the model of the
  sentences before it, then added to it. It needs no weights and no network and treats
  Japanese, English and emoji alike. A sentence that continues the topic is predictable from
  what came before (low perplexity); one that starts a new topic is not (a jump).
- ``TransformersLM``: a causal language model loaded through ``transformers`` from a local path
  or the local Hugging Face cache (never downloaded at run time), scoring each sentence on its
  own as seed 004 does with GPT-2.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from chunkviz.errors import MissingDependencyError, ModelUnavailableError, ParameterError

# Padding symbols from Unicode's private use area: a text may contain them, which only merges
# their counts with the padding's (the model stays a valid distribution).
_BOS = "\ue000"
_EOS = "\ue001"
CHAR_NGRAM = "char-ngram"
HF_PREFIX = "hf:"


@runtime_checkable
class LanguageModel(Protocol):
    """Anything that gives each span of a text a perplexity."""

    name: str

    def perplexities(self, text: str, spans: Sequence[tuple[int, int]]) -> np.ndarray:
        """Perplexity of each ``text[start:end]``, shape ``(len(spans),)``.

        NaN marks a span with nothing to predict.
        """
        ...


class CharNgramLM:
    """Interpolated Kneser-Ney character n-gram model, learned from the text it reads.

    For the highest order ``n`` and history ``h`` (the ``n - 1`` previous characters)::

        P(w | h) = max(c(h w) - D, 0) / c(h) + D * N1+(h •) / c(h) * P_lower(w | h[1:])

    Lower orders use continuation counts ``N1+(• g)`` (how many different characters precede the
    n-gram ``g``) in place of ``c``; the unigram level is interpolated with a uniform
    distribution over the seen characters plus one unknown, so unseen characters keep a
    probability. A history never seen backs off to the lower order entirely. Each span is padded
    with ``n - 1`` start symbols and one end symbol.

    Attributes:
        order: ``n``, the longest n-gram (1 to 8).
        discount: ``D``, subtracted from every count (0 < D < 1).
    """

    def __init__(self, order: int = 3, discount: float = 0.75) -> None:
        """Set up an empty model.

        Raises:
            ParameterError: ``order`` outside 1..8 or ``discount`` outside (0, 1).
        """
        if not 1 <= order <= 8:
            raise ParameterError("lm_order", order=order)
        if not 0.0 < discount < 1.0:
            raise ParameterError("lm_discount", discount=discount)
        self.order = order
        self.discount = discount
        self.name = f"character {order}-gram, Kneser-Ney (reads the document in order)"
        # counts[k][g]: raw counts for k == order, continuation counts N1+(. g) below it.
        self._counts: list[dict[str, int]] = [{} for _ in range(order + 1)]
        self._context: list[dict[str, int]] = [{} for _ in range(order + 1)]
        self._followers: list[dict[str, int]] = [{} for _ in range(order + 1)]
        self._chars: set[str] = set()
        self._vocabulary = 0

    def _padded(self, piece: str) -> str:
        return _BOS * (self.order - 1) + piece + _EOS

    def fit(self, pieces: Sequence[str]) -> CharNgramLM:
        """Count the n-grams of ``pieces`` (replacing earlier counts) and return the model."""
        n = self.order
        self._counts = [{} for _ in range(n + 1)]
        self._context = [{} for _ in range(n + 1)]
        self._followers = [{} for _ in range(n + 1)]
        self._chars = set()
        self._vocabulary = 0
        for piece in pieces:
            self.update(piece)
        return self

    def update(self, piece: str) -> None:
        """Add the n-grams of ``piece`` to the counts (the model keeps learning as it reads)."""
        n = self.order
        padded = self._padded(piece)
        for i in range(n - 1, len(padded)):
            self._add(n, padded[i - n + 1 : i + 1])
        self._chars.update(piece)
        self._chars.add(_EOS)
        self._vocabulary = len(self._chars)

    def _add(self, k: int, gram: str) -> None:
        # At the top order a count is a count; below it, a new (k+1)-gram type x·g adds one
        # distinct left neighbour to g. Either way, the first sighting of a type at level k
        # adds a follower to its history and one continuation to the level below.
        counts = self._counts[k]
        seen = counts.get(gram, 0)
        counts[gram] = seen + 1
        history = gram[:-1]
        self._context[k][history] = self._context[k].get(history, 0) + 1
        if seen == 0:
            self._followers[k][history] = self._followers[k].get(history, 0) + 1
            if k > 1:
                self._add(k - 1, gram[1:])

    def probability(self, history: str, char: str) -> float:
        """``P(char | history)``; ``history`` holds the ``order - 1`` previous characters."""
        d = self.discount
        # Unigram level, interpolated with the uniform distribution (one slot for unknowns).
        p = 1.0 / (self._vocabulary + 1)
        for k in range(1, self.order + 1):
            h = history[len(history) - (k - 1) :] if k > 1 else ""
            den = self._context[k].get(h, 0)
            if den == 0:
                continue  # unseen history: keep the lower-order estimate as it is
            num = self._counts[k].get(h + char, 0)
            p = max(num - d, 0.0) / den + d * self._followers[k][h] / den * p
        return p

    def perplexity(self, piece: str) -> float:
        """``exp`` of the mean negative log-probability of ``piece``'s characters and its end."""
        padded = self._padded(piece)
        n = self.order
        total = 0.0
        for i in range(n - 1, len(padded)):
            total -= math.log(self.probability(padded[i - n + 1 : i], padded[i]))
        return math.exp(total / (len(padded) - n + 1))

    def perplexities(self, text: str, spans: Sequence[tuple[int, int]]) -> np.ndarray:
        """Perplexity of each span given the spans before it (the model reads in order).

        Span ``i`` is scored by a model fitted on spans ``0 .. i-1``, then added to it, as a
        causal language model reads a document. The first span has nothing before it: NaN.
        ``self`` is left as it is (a shared, cached instance is never refitted).
        """
        reader = CharNgramLM(self.order, self.discount)
        out = np.full(len(spans), np.nan, dtype=np.float64)
        for i, (s, e) in enumerate(spans):
            piece = text[s:e]
            if i > 0:
                out[i] = reader.perplexity(piece)
            reader.update(piece)
        return out


class TransformersLM:
    """A causal language model from ``transformers``, loaded only from local files.

    Each span is scored on its own (seed 004): ``exp`` of the mean token cross-entropy, with the
    model's beginning-of-sequence token in front when it has one. A span with fewer than one
    predictable token gets NaN.
    """

    def __init__(self, model: str, *, max_length: int = 512) -> None:
        """Load ``model`` (a local folder or a name in the local Hugging Face cache).

        Raises:
            MissingDependencyError: ``transformers`` or ``torch`` is not installed.
            ModelUnavailableError: The model is not on this machine.
        """
        try:
            import torch  # noqa: F401
            from transformers import AutoModelForCausalLM, AutoTokenizer
        except ImportError as exc:
            raise MissingDependencyError("lm_not_installed") from exc
        try:
            self._tokenizer = AutoTokenizer.from_pretrained(model, local_files_only=True)
            self._model = AutoModelForCausalLM.from_pretrained(model, local_files_only=True)
        except (OSError, ValueError) as exc:
            raise ModelUnavailableError("lm_unavailable", model=model) from exc
        self._model.eval()  # type: ignore[no-untyped-call]
        self.max_length = max_length
        self.model = model
        self.name = f"{Path(model).name if Path(model).exists() else model} (transformers)"

    def perplexity(self, piece: str) -> float:
        """Perplexity of ``piece`` under the model (NaN with nothing to predict)."""
        # torch (chunkviz[models]) stays out of `import chunkviz.lm`; __init__ checked it.
        import torch

        ids: list[int] = list(self._tokenizer(piece, add_special_tokens=False)["input_ids"])
        bos = self._tokenizer.bos_token_id
        if bos is not None:
            ids = [bos, *ids]
        ids = ids[: self.max_length]
        if len(ids) < 2:
            return float("nan")
        with torch.no_grad():
            tensor = torch.tensor([ids])
            loss = self._model(input_ids=tensor, labels=tensor).loss
        return float(torch.exp(loss))

    def perplexities(self, text: str, spans: Sequence[tuple[int, int]]) -> np.ndarray:
        """Perplexity of each span, each read on its own."""
        return np.array([self.perplexity(text[s:e]) for s, e in spans], dtype=np.float64)

    def write_question(self, passage: str, answer: str, *, max_new_tokens: int = 48) -> str:
        """A question about ``passage`` that ``answer`` answers (synthetic questions, ``lm``).

        Greedy decoding, so the same model and inputs give the same question. The first line
        the model writes after the prompt is the question.
        """
        # torch (chunkviz[models]) stays out of `import chunkviz.lm`; __init__ checked it.
        import torch

        prompt = f"文章: {passage}\n答え: {answer}\n質問:"
        encoded = self._tokenizer(prompt, return_tensors="pt")
        with torch.no_grad():
            out = self._model.generate(
                **encoded,
                max_new_tokens=max_new_tokens,
                do_sample=False,
                pad_token_id=self._tokenizer.eos_token_id,
            )
        new = out[0][encoded["input_ids"].shape[1] :]
        written = str(self._tokenizer.decode(new, skip_special_tokens=True))
        return written.strip().split("\n")[0].strip()


@lru_cache(maxsize=2)
def _transformers_lm(model: str) -> TransformersLM:
    return TransformersLM(model)


def get_language_model(spec: str, *, order: int = 3) -> Any:
    """The language model named by ``spec``.

    Args:
        spec: ``char-ngram`` (offline default) or ``hf:<local path or cached model name>``.
        order: n-gram order for ``char-ngram``.

    Returns:
        A ``LanguageModel``; transformers models are kept in a small cache (slow to load).

    Raises:
        ParameterError: An unknown spec.
        ModelUnavailableError: A transformers model that is not on this machine.
    """
    if spec == CHAR_NGRAM:
        return CharNgramLM(order)
    if spec.startswith(HF_PREFIX) and len(spec) > len(HF_PREFIX):
        return _transformers_lm(spec[len(HF_PREFIX) :])
    raise ParameterError("lm_spec", value=spec)
