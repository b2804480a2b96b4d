"""Read a file, evaluate a corpus, tune a document: the public workflows of ``chunkviz``.

``read``, ``evaluate`` and ``tune`` return the objects the command line and the pages use
(``Document``, the benchmark ``Results``, the Tune page's ``TuneResult`` inside a
``Recommendation``), each with ``to_json()``. Their heavy imports load on the first call, so
``import chunkviz`` stays light.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from chunkviz.errors import ParameterError, shown
from chunkviz.eval.decision import DEFAULT_BUDGET_CHARS
from chunkviz.limits import MAX_BUDGET_CHARS, MIN_BUDGET_CHARS

if TYPE_CHECKING:
    from chunkviz.datasets.base import Dataset
    from chunkviz.document import Document, Question
    from chunkviz.eval.engine import Progress
    from chunkviz.eval.grid import Config
    from chunkviz.eval.results import Results
    from chunkviz.eval.tune import TunePoint, TuneResult
    from chunkviz.outputs import TuneReport
    from chunkviz.retrieval.base import Backend


def read(path: str | Path) -> Document:
    """Read a file as the app reads an upload of it (txt, md, html, pdf, docx, ...).

    Args:
        path: The file.

    Returns:
        The document: its id is ``content_id`` of the text, so the same text gets the same
        synthetic questions, and the same recommendation, here, on the command line and in the
        app.

    Raises:
        InputTextError: The file cannot be read as a document (binary, too large, ...).
    """
    from chunkviz.eval.tune import document_from_file

    return document_from_file(path)


def _corpus(corpus: Dataset | Document | Sequence[Document] | str) -> Dataset:
    from chunkviz.datasets import load_dataset
    from chunkviz.datasets.base import Dataset
    from chunkviz.document import Document

    if isinstance(corpus, Dataset):
        return corpus
    if isinstance(corpus, str):
        return load_dataset(corpus)
    documents = (corpus,) if isinstance(corpus, Document) else tuple(corpus)
    if not all(isinstance(d, Document) for d in documents):
        raise ParameterError("corpus_type", kind=type(corpus).__name__)
    name = documents[0].title if len(documents) == 1 else f"{len(documents)} documents"
    return Dataset(name, documents, tuple(q for d in documents for q in d.questions))


def _configs(configs: str | Sequence[Config | str] | None) -> tuple[Config, ...]:
    from chunkviz.eval.grid import default_grid, parse_grid

    if configs is None:
        return default_grid()
    if isinstance(configs, str):
        return parse_grid(configs)
    return tuple(parse_grid(c)[0] if isinstance(c, str) else c for c in configs)


def evaluate(
    corpus: Dataset | Document | Sequence[Document] | str,
    configs: str | Sequence[Config | str] | None = None,
    *,
    backend: Backend | str = "bm25",
    budget: int | None = None,
    sample: int = 0,
    seed: int = 0,
    cache_dir: str | Path | None = None,
    progress: Progress | None = None,
) -> Results:
    """Benchmark chunking configurations on a corpus with questions (``chunkviz bench``).

    Args:
        corpus: A dataset spec (``"jsquad"``, ``"squad:PATH"``, ``"mtcb:PATH"``, ...), a
            ``Dataset``, or documents carrying their questions.
        configs: ``None`` (the seed study's grid), a grid spec (``"default"``, ``"tune"``,
            ``"fixed-400-80,paragraph"``) or a list of labels or ``Config`` values.
        backend: A backend or its name (``bm25``, ``use-m3``, ``e5-small``, ``st:<model>``).
        budget: The context budget in characters of the decision at a budget (default: the
            runner's, ``chunkviz.eval.runner.BUDGET_CHARS``, 2,000).
        sample: Questions to sample (0: all).
        seed: Seed of the sample and of the statistics.
        cache_dir: Embedding cache folder (default: the user's cache).
        progress: ``callback(stage, done, total, message)``.

    Returns:
        The typed results, as ``chunkviz bench`` writes them (``results.to_json()``).

    Raises:
        MissingDependencyError: The backend or the token count needs a package (checked before
            any work, with the extra to install).
        ParameterError: Bad configurations, budget or sample.
        DatasetError: A corpus that cannot be read.
    """
    from chunkviz.eval.preflight import preflight
    from chunkviz.eval.runner import BUDGET_CHARS, run_benchmark

    if budget is not None and (
        isinstance(budget, bool)
        or not isinstance(budget, int)
        or not MIN_BUDGET_CHARS <= budget <= MAX_BUDGET_CHARS
    ):
        raise ParameterError(
            "budget_range",
            value=shown(budget),
            min=MIN_BUDGET_CHARS,
            max=MAX_BUDGET_CHARS,
            default=DEFAULT_BUDGET_CHARS,
        )
    grid = _configs(configs)
    ready = preflight(backend, cache_dir=cache_dir)
    data = _corpus(corpus)
    spec = corpus if isinstance(corpus, str) else None
    return run_benchmark(
        data,
        grid,
        ready.backend,
        cache_dir=cache_dir,
        progress=progress,
        spec=spec,
        sample=sample,
        seed=seed,
        budget_chars=BUDGET_CHARS if budget is None else budget,
    )


@dataclass(frozen=True)
class Recommendation:
    """What ``tune`` recommends, and the Tune page's whole result behind it.

    Attributes:
        result: The ``TuneResult`` the Tune page shows (results, points, the decision at the
            budget, stability).
    """

    result: TuneResult

    @property
    def pick(self) -> str:
        """The recommended configuration's label (``fixed-400-80``, ``paragraph``, ...)."""
        return self.result.pick

    @property
    def configs(self) -> tuple[TunePoint, ...]:
        """Every configuration's quality and costs, in grid order."""
        return self.result.points

    @property
    def results(self) -> Results:
        """The benchmark results of the run (``results.to_json()`` is its results file)."""
        return self.result.results

    def report(self) -> TuneReport:
        """The ``chunkviz.tune`` document (``chunkviz tune --format json``)."""
        from chunkviz.outputs import tune_report

        return tune_report(self.result)

    def to_json(self) -> str:
        """``chunkviz tune --format json``'s output: docs/cli-schema.json describes it."""
        from chunkviz.outputs import to_json

        return to_json(self.report())


def tune(
    document: str | Document,
    *,
    questions: Sequence[Question | Mapping[str, Any]] = (),
    synthetic: int | None = None,
    backend: Backend | str = "bm25",
    configs: str | Sequence[Config | str] | None = None,
    margin: float | None = None,
    budget: int = DEFAULT_BUDGET_CHARS,
    seed: int = 0,
    cache_dir: str | Path | None = None,
    progress: Progress | None = None,
) -> Recommendation:
    """Recommend a chunking configuration for one document (``chunkviz tune``, the Tune page).

    Args:
        document: The text, or a ``Document`` (``chunkviz.read(path)``).
        questions: Your own pairs: ``Question`` values, or mappings with ``question`` and
            ``answer`` (the answer is located in the text).
        synthetic: Synthetic questions to draw from the document (default 400 without
            ``questions``, else 0).
        backend: A backend or its name.
        configs: The grid (default: the tune grid of 16 configurations).
        margin: The equivalence margin of the recommendation (default 0.01).
        budget: The reader's context budget in characters, where the recommendation is made
            (default 2,000; equal k is kept beside it as a second view).
        seed: Seed of the synthetic questions and the statistics.
        cache_dir: Embedding cache folder.
        progress: ``callback(stage, done, total, message)``.

    Returns:
        The recommendation: ``.pick`` is the configuration's label; ``.to_json()`` the
        ``chunkviz.tune`` document.

    Raises:
        MissingDependencyError: The backend or the token count needs a package (checked first).
        ParameterError: No questions at all, or bad settings.
    """
    from chunkviz.document import Document, Question, content_id, locate_questions
    from chunkviz.eval.preflight import preflight
    from chunkviz.eval.synthetic import DEFAULT_QUESTIONS
    from chunkviz.eval.tune import tune as run_tune

    if isinstance(document, str):
        document = Document(content_id(document), "text", document, origin="paste")
    elif not isinstance(document, Document):
        raise ParameterError("document_type", kind=type(document).__name__)
    ready = preflight(backend, cache_dir=cache_dir)
    pairs = [q for q in questions if not isinstance(q, Question)]
    own = [q for q in questions if isinstance(q, Question)]
    own += locate_questions(document.text, pairs, doc_id=document.doc_id) if pairs else []
    made = synthetic if synthetic is not None else (0 if own else DEFAULT_QUESTIONS)
    grid = None if configs is None else _configs(configs)
    return Recommendation(
        run_tune(
            document,
            questions=own,
            synthetic=made,
            configs=grid,
            backend=ready.backend,
            seed=seed,
            cache_dir=cache_dir,
            progress=progress,
            margin=margin,
            budget=budget,
        )
    )
