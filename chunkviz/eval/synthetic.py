"""Synthetic questions drawn from the document, so the retrieval metrics run with no labels.

Every question here is synthetic and says so: its id starts with ``synthetic:<form>:``, the
dataset's notes carry ``SYNTHETIC_NOTE`` and the form's own caveat, and ``synthetic_record``
gives what a results file and a page show beside every figure computed from them.

Forms (each question's answer is a probe span, ``chunkviz.eval.probes``):

- ``cloze``: the probe's sentence with the probe masked. Measured on JSQuAD, it saturates BM25
  (the query repeats the passage verbatim) and ranks configurations poorly; kept as a baseline.
- ``keywords``: up to ``KEYWORDS`` other probes of the probe's sentence, nearest first, joined
  by spaces: the key terms a user would type, without the passage's other surface words.
- ``template``: the keywords inside a question template chosen by the probe's kind (``…は
  いつ？`` for numbers, ``…とは何？`` otherwise).
- ``inverse``: inverse cloze, the sentence next to the probe's (the previous one, else the
  next), as the query.
- ``context``: three key terms spread over the probe's sentence and its two neighbours (the
  term of each neighbouring sentence nearest the probe, then the nearest other term of its own):
  like a real question, it needs the answer's surroundings, not only its sentence. It ranked
  JSQuAD's 8-configuration default grid well over the whole corpus, but per document it was too
  easy (most configurations at Recall@5 1): superseded by ``calibrated``.
- ``calibrated``: a question as people write one from a passage, with its difficulty calibrated on
  JSQuAD's real questions (the default before ``shaped``): the other key terms of the answer's
  sentence, each kept with probability ``CALIBRATED_KEEP`` (at most ``CALIBRATED_TERMS``), sometimes
  one key term of a neighbouring sentence and the document's most frequent term (its topic), in a
  shuffled order, joined by ``の`` (spaces in Latin text) and ended by a question word for the
  answer's kind. Only answers whose surface occurs once among the document's key terms are asked
  about, so the answer's place is not ambiguous. Each question's random choices come from a hash of
  the seed, the document and the answer's span, so the same inputs give the same questions on any
  machine. The probabilities were chosen with ``bench/synthetic_per_document.py``: with them the
  mean synthetic Recall@5 over the tune grid lies 0.004 below the real questions' (``context``:
  0.018 above), and per configuration within about 0.03 (``docs/benchmarks.md``).
- ``shaped`` (the default): the layout of a real question around its answer, filled with the
  document's own words. Each answer borrows the shape of one of JSQuAD's real questions
  (``chunkviz.eval.question_shapes``: for each run of the question's words found in its article,
  in which sentence it lay relative to the answer, how far from it, and whether inside the
  answer's paragraph) and takes the document's characters at the same places around the new
  answer. Real questions borrow words from neighbouring sentences of the paragraph their writer
  read and share short runs with far places by chance, and that is what tells chunkings apart:
  a sentence-aligned chunk loses the neighbour, a small chunk the context that outweighs the
  chance matches. Runs from the answer's paragraph stay in the new answer's paragraph and grow
  to whole words; runs from outside it keep their length. Built from key terms of the answer's own
  sentence, ``calibrated`` ranked sentence-aligned chunkings too high; ``shaped`` ranks the tune
  grid on JSQuAD like the real questions do (the mean over articles: rho 0.99 against 0.92) and
  per article closer too (``VALIDATION``). A JSQuAD article never borrows its own questions'
  shapes. The questions are not fluent: they are the document's words in a real question's
  places, and say so (``CAVEATS``).
- ``lm``: a local causal language model (``hf:<local path>``, loaded as ``perplexity`` loads it)
  writes a question for the probe's sentence; kept only when the question does not contain the
  answer and the answer lies in the sentence.

How well each form ranks configurations like real questions is measured per article by
``bench/synthetic_per_document.py`` (Tune's pick, its regret and held-out score:
``bench/synthetic_validation.py``; corpus-level: ``bench/synthetic_corpus.py``) and recorded in
``docs/benchmarks.md``; ``VALIDATION`` holds those figures so that every synthetic result can
show them.
"""

from __future__ import annotations

import hashlib
import random
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from itertools import groupby
from typing import Any, Literal

from chunkviz.datasets.base import Dataset, Document, Question
from chunkviz.datasets.sampling import sample_questions
from chunkviz.errors import ParameterError
from chunkviz.eval.probes import (
    DEFAULT_METHOD,
    Method,
    Probe,
    extract_probes,
    mostly_latin,
    script_of,
)
from chunkviz.eval.question_shapes import Piece, Shape, paragraph_starts, shapes_for
from chunkviz.model import Span
from chunkviz.segment import sentence_spans

Form = Literal["cloze", "keywords", "template", "inverse", "context", "calibrated", "shaped", "lm"]
FORMS: tuple[Form, ...] = (
    "cloze",
    "keywords",
    "template",
    "inverse",
    "context",
    "calibrated",
    "shaped",
    "lm",
)
KEYWORDS = 3
#: The form shipped by default: per JSQuAD document, the one whose ranking of the tune grid and
#: whose pick came closest to the real questions' (docs/benchmarks.md).
DEFAULT_FORM: Form = "shaped"
#: How many synthetic questions Tune asks by default (the CLI and the page): on JSQuAD's validation
#: split 400 ranked the tune grid closer to the real questions than 200 or 600 (median rho over
#: seeds 0-4: 0.867 against 0.854 and 0.862; docs/benchmarks.md), and Tune on 30,000 characters
#: takes 7.9 of its 10 CPU s (600: 9.6, too near the bound on a busy machine).
DEFAULT_QUESTIONS = 400
#: ``calibrated``'s difficulty, calibrated on JSQuAD's validation split (docs/benchmarks.md): the
#: share of the sentence's other key terms kept, at most this many of them, how often a key term
#: of a neighbouring sentence and the document's topic term are added.
CALIBRATED_KEEP = 0.3
CALIBRATED_TERMS = 3
CALIBRATED_NEIGHBOUR = 0.3
CALIBRATED_TOPIC = 0.5
MASK = "＿＿"
SYNTHETIC_NOTE = (
    "synthetic questions generated from the document itself, not written by people; figures "
    "computed from them estimate, they do not measure"
)
CAVEATS: Mapping[Form, str] = {
    "cloze": "cloze questions repeat the passage's own words, so they favour lexical retrieval "
    "(BM25) and overstate its quality",
    "keywords": "keyword questions reuse the document's key terms, so they favour lexical "
    "retrieval",
    "template": "template questions reuse the document's key terms, so they favour lexical "
    "retrieval",
    "inverse": "inverse-cloze questions are a neighbouring sentence, not a question",
    "context": "context-keyword questions reuse key terms of the answer's sentence and its "
    "neighbours, so they favour lexical retrieval",
    "calibrated": "questions assembled from a few key terms of the answer's sentence, calibrated "
    "to be as hard as JSQuAD's real questions for BM25; they still reuse the "
    "document's words, so they favour lexical retrieval",
    "shaped": "questions made of the document's own words, laid out around each answer as "
    "JSQuAD's real questions lay theirs out (Japanese Wikipedia, BM25); they reuse "
    "the document's words, so they favour lexical retrieval, and are not fluent "
    "questions",
    "lm": "questions written by a language model from the passage; they may reuse its words",
}
#: Per JSQuAD article, how well each form's synthetic Recall@5 ranks the tune grid's 16
#: configurations like that article's own real questions: the median over the 38 validation
#: articles with at least 20 real questions of Spearman's rho (``DEFAULT_QUESTIONS`` synthetic
#: questions, seed 0), per backend; ``VALIDATION_MIN`` holds the lowest. Tune runs on one
#: document, so the figure shown beside its results is this per-article one, never a
#: corpus-level rank correlation (which pooled 59 documents and read higher). Computed by
#: ``bench/synthetic_per_document.py`` and reproduced in docs/benchmarks.md; a form or backend
#: not measured per article is "not validated". The real questions' own split-half rho was 0.72;
#: a ranking blind to the document (the other articles' mean real Recall@5) reaches 0.85.
VALIDATION: Mapping[str, Mapping[str, float]] = {
    "shaped": {"bm25": 0.88},
    "calibrated": {"bm25": 0.78},
    "context": {"bm25": 0.70},
    "cloze": {"bm25": 0.49},
}
VALIDATION_MIN: Mapping[str, Mapping[str, float]] = {
    "shaped": {"bm25": 0.43},
    "calibrated": {"bm25": 0.37},
    "context": {"bm25": 0.06},
    "cloze": {"bm25": 0.06},
}
#: Articles behind ``VALIDATION``.
VALIDATION_ARTICLES = 38
#: Below this rho a form is said not to rank configurations usefully (on the page and in files).
USEFUL_RHO = 0.8

_TEMPLATES = {"number": "{}はいつ、いくつ？", "other": "{}とは何？"}
_QUESTION_ENDS = {
    ("ja", "number"): "はいつ？",
    ("ja", "other"): "は何？",
    ("en", "number"): " when?",
    ("en", "other"): " what?",
}


def _sentence_of(sentences: Sequence[tuple[int, int]], starts: Sequence[int], p: Probe) -> int:
    i = bisect_right(starts, p.start) - 1
    if i >= 0 and sentences[i][0] <= p.start and p.end <= sentences[i][1]:
        return i
    return -1


#: Probes on each side of a probe, in its sentence's list, that ``_keywords`` looks at. A
#: sentence rarely holds more; text with no sentence ends is one sentence of every probe, and
#: looking at all of them for each probe made the questions quadratic in the document.
_NEIGHBOURS = 32


class _Group:
    """The probes that lie wholly inside one sentence, in document order, and their starts."""

    __slots__ = ("probes", "starts")

    def __init__(self) -> None:
        self.probes: list[Probe] = []
        self.starts: list[int] = []


def _keywords(text: str, group: _Group, p: Probe, limit: int = KEYWORDS) -> list[str]:
    # The nearest probes are around p's place among the sentence's probes.
    at = bisect_left(group.starts, p.start)
    others = [
        q
        for q in group.probes[max(0, at - _NEIGHBOURS) : at + _NEIGHBOURS]
        if q.end <= p.start or q.start >= p.end
    ]
    # Nearest first, then in document order; the same terms once.
    others.sort(key=lambda q: (min(abs(q.start - p.end), abs(p.start - q.end)), q.start))
    chosen: list[str] = []
    for q in others:
        term = text[q.start : q.end]
        if term not in chosen and term != text[p.start : p.end]:
            chosen.append(term)
        if len(chosen) == limit:
            break
    return chosen


def _rng(seed: int, doc_id: str, p: Probe) -> random.Random:
    """A generator of one question's choices: from the seed and the answer's place only."""
    digest = hashlib.sha256(f"{seed}:{doc_id}:{p.start}:{p.end}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _asked(
    text: str, groups: Sequence[_Group], surfaces: Counter[str]
) -> Iterator[tuple[int, int, Probe]]:
    """``(sentence, place in its group, probe)`` of each answer a question is made for.

    Those are the probes whose surface occurs once among the key terms (``surfaces``), so the
    answer's place is not ambiguous.
    """
    for i, group in enumerate(groups):
        for j, p in enumerate(group.probes):
            if surfaces[text[p.start : p.end]] == 1:
                yield i, j, p


def _question_end(lang: str, p: Probe) -> str:
    """The question word that ends a question about ``p`` (``いつ`` / ``when`` for a number)."""
    return _QUESTION_ENDS[(lang, "number" if p.kind == "number" else "other")]


def _calibrated_form(
    document: Document, groups: Sequence[_Group], seed: int
) -> list[tuple[Probe, str]]:
    """``calibrated`` for every probe that can be asked about, linear in the probes.

    Each probe looks only at the ``_NEIGHBOURS`` probes on either side within its own sentence's
    group (and one neighbour's), never at all of them: a document that is one long sentence
    stays linear.
    """
    text = document.text
    surfaces = Counter(text[p.start : p.end] for g in groups for p in g.probes)
    topic = surfaces.most_common(1)[0][0] if surfaces else ""
    lang = "en" if mostly_latin(text) else "ja"
    join = " " if lang == "en" else "の"
    out: list[tuple[Probe, str]] = []
    for i, j, p in _asked(text, groups, surfaces):
        own = groups[i].probes
        answer = text[p.start : p.end]
        near_own = own[max(0, j - _NEIGHBOURS) : j] + own[j + 1 : j + 1 + _NEIGHBOURS]
        terms = [
            t
            for t in dict.fromkeys(
                text[q.start : q.end] for q in near_own if q.end <= p.start or q.start >= p.end
            )
            if answer not in t and t not in answer
        ]
        if not terms:
            continue
        rng = _rng(seed, document.doc_id, p)
        kept = [t for t in terms if rng.random() < CALIBRATED_KEEP] or [rng.choice(terms)]
        kept = kept[:CALIBRATED_TERMS]
        if rng.random() < CALIBRATED_NEIGHBOUR:
            k = i + rng.choice((-1, 1))
            near = groups[k].probes[:_NEIGHBOURS] if 0 <= k < len(groups) else []
            other = [text[q.start : q.end] for q in near if answer not in text[q.start : q.end]]
            if other:
                kept.append(rng.choice(other))
        if rng.random() < CALIBRATED_TOPIC and topic and topic != answer and topic not in kept:
            kept.insert(0, topic)
        rng.shuffle(kept)
        out.append((p, join.join(kept) + _question_end(lang, p)))
    out.sort(key=lambda pq: (pq[0].start, pq[0].end))
    return out


#: How far a piece may grow to the whole word it cuts into (characters on each side): bounded,
#: so a document that is one long run of one script stays linear.
_SNAP = 8


def _snap(text: str, x: int, y: int, lo: int, hi: int) -> tuple[int, int]:
    """``[x, y)`` widened, within ``[lo, hi)``, to whole runs of the script its ends cut into."""
    kind = script_of(text[x])
    stop = max(lo, x - _SNAP)
    while kind and x > stop and script_of(text[x - 1]) == kind:
        x -= 1
    kind = script_of(text[y - 1])
    stop = min(hi, y + _SNAP)
    while kind and y < stop and script_of(text[y]) == kind:
        y += 1
    return x, y


def _shaped_piece(
    text: str,
    sentences: Sequence[tuple[int, int]],
    home: int,
    paragraph: tuple[int, int],
    p: Probe,
    piece: Piece,
) -> tuple[int, int] | None:
    """Where one piece of a real question's shape lands around the answer ``p``, or None.

    ``paragraph`` is the range of sentence indices of the answer's paragraph.
    """
    moved, place, length, inside = piece
    if moved == 0:
        s, e = sentences[home]
        if place < 0:  # ends -place - 1 characters before the answer, inside its sentence
            y = min(p.start, max(p.start + int(place) + 1, s + 2))
            x, lo, hi = max(y - length, s), s, p.start
        else:  # starts place characters after the answer
            x = max(p.end, min(p.end + int(place), e - 2))
            y, lo, hi = min(x + length, e), p.end, e
    else:
        j = home + moved
        a, b = paragraph
        if inside and not a <= j < b and b - a > 1:
            j = a + (j - a) % (b - a)  # the writer's paragraph: its sentences wrap around
        j %= len(sentences)  # far sentences wrap around the document
        if j == home:
            return None
        lo, hi = sentences[j]
        x = lo + int(place * max(1, hi - lo - length))
        y = min(x + length, hi)
    if y - x < 2:
        return None
    if moved == 0 or inside:
        # A word the writer took from the paragraph, grown to whole words. A run outside it is
        # mostly a chance match of the question's own words (half are two characters long):
        # grown into a whole rare word it would point retrieval far away, as real ones do not.
        x, y = _snap(text, x, y, lo, hi)
    return None if x < p.end and y > p.start else (x, y)


def _paragraph_ranges(
    document: Document, sentences: Sequence[tuple[int, int]]
) -> list[tuple[int, int]]:
    """For each sentence, the range of sentence indices of its paragraph (``paragraph_starts``)."""
    starts = paragraph_starts(document)
    ranges: list[tuple[int, int]] = []
    for _, run in groupby(bisect_right(starts, s) for s, _ in sentences):
        n = len(list(run))
        ranges += [(len(ranges), len(ranges) + n)] * n
    return ranges


def _shaped_form(
    document: Document,
    sentences: Sequence[tuple[int, int]],
    groups: Sequence[_Group],
    seed: int,
    shapes: Sequence[Shape],
) -> list[tuple[Probe, str]]:
    """``shaped`` for every probe that can be asked about: a real question's layout, new words.

    Each answer borrows the shape of one real question (``chunkviz.eval.question_shapes``),
    drawn by a hash of the seed, the document and the answer, and each piece of that shape takes
    the document's characters at the same place relative to the new answer: the same distance in
    its sentence, the same sentence before or after it at the same relative position, inside the
    answer's paragraph when the real piece was inside its own. Pieces from the paragraph grow to
    the whole word they cut into. Only answers whose surface occurs once among the key terms are
    asked about, as for ``calibrated``. Linear: each question costs its shape's pieces.
    """
    text = document.text
    if not shapes:
        return []
    paragraphs = _paragraph_ranges(document, sentences)
    surfaces = Counter(text[p.start : p.end] for g in groups for p in g.probes)
    lang = "en" if mostly_latin(text) else "ja"
    out: list[tuple[Probe, str]] = []
    for home, _, p in _asked(text, groups, surfaces):
        answer = text[p.start : p.end]
        shape = shapes[_rng(seed, document.doc_id, p).randrange(len(shapes))]
        parts = []
        for piece in shape:
            span = _shaped_piece(text, sentences, home, paragraphs[home], p, piece)
            if span is not None and answer not in text[span[0] : span[1]]:
                parts.append(text[span[0] : span[1]])
        if parts:
            out.append((p, " ".join(parts) + _question_end(lang, p)))
    out.sort(key=lambda pq: (pq[0].start, pq[0].end))
    return out


def _question(
    form: Form,
    text: str,
    groups: Sequence[_Group],
    sentences: Sequence[tuple[int, int]],
    i: int,
    p: Probe,
    writer: Any,
) -> str:
    s, e = sentences[i]
    if form == "cloze":
        return text[s : p.start] + MASK + text[p.end : e]
    if form == "keywords":
        return " ".join(_keywords(text, groups[i], p))
    if form == "context":
        terms: list[str] = []
        for j in (i - 1, i + 1):
            if 0 <= j < len(sentences):
                terms += [t for t in _keywords(text, groups[j], p, 1) if t not in terms]
        own = [t for t in _keywords(text, groups[i], p, 1) if t not in terms]
        return " ".join([*terms, *own]) if terms else ""
    if form == "template":
        kw = " ".join(_keywords(text, groups[i], p))
        return _TEMPLATES["number" if p.kind == "number" else "other"].format(kw) if kw else ""
    if form == "inverse":
        j = i - 1 if i > 0 else i + 1
        if j >= len(sentences):
            return ""
        return text[sentences[j][0] : sentences[j][1]]
    question: str = writer.write_question(text[s:e], text[p.start : p.end])
    return "" if text[p.start : p.end] in question else question


def synthetic_questions(
    document: Document,
    form: Form,
    *,
    probes: Sequence[Probe] | None = None,
    method: Method = DEFAULT_METHOD,
    writer: Any = None,
    seed: int = 0,
) -> tuple[Question, ...]:
    """One synthetic question per probe that the form can make a question of.

    Args:
        document: The document.
        form: ``cloze``, ``keywords``, ``template``, ``inverse`` or ``lm``.
        probes: The answer spans (default: ``extract_probes(document.text, method=method)``).
        method: Probe extraction method when ``probes`` is not given.
        writer: For ``lm``: an object with ``write_question(passage, answer) -> str``
            (``chunkviz.lm.get_language_model("hf:<path>")``).
        seed: For ``calibrated``: the seed of its random choices (the same seed, document and
            answer give the same question).

    Returns:
        Questions whose ids start with ``synthetic:<form>:``; a probe outside any sentence, or
        with nothing to ask from (no other key term in its sentence, no neighbour sentence, a
        written question that gives the answer away) yields none.

    Raises:
        ParameterError: An unknown form, or ``lm`` without a writer.
    """
    if form not in FORMS:
        raise ParameterError("one_of", name="form", value=form, choices=list(FORMS))
    if form == "lm" and writer is None:
        raise ParameterError("form_lm_needs_lm")
    text = document.text
    found = extract_probes(text, method=method) if probes is None else tuple(probes)
    sentences = sentence_spans(text)
    starts = [s for s, _ in sentences]
    # Each probe is looked up among its own sentence's probes (and its neighbours'), never
    # among all of them: linear in the document.
    where = [_sentence_of(sentences, starts, p) for p in found]
    groups = [_Group() for _ in sentences]
    for p, i in sorted(zip(found, where, strict=True), key=lambda x: (x[0].start, x[0].end)):
        if i >= 0:
            groups[i].probes.append(p)
            groups[i].starts.append(p.start)
    out: list[Question] = []
    if form in ("calibrated", "shaped"):
        made = (
            _calibrated_form(document, groups, seed)
            if form == "calibrated"
            else _shaped_form(document, sentences, groups, seed, shapes_for(document.doc_id))
        )
        return tuple(
            Question(
                f"synthetic:{form}:{document.doc_id}:{p.start}-{p.end}",
                document.doc_id,
                q,
                text[p.start : p.end],
                (Span(document.doc_id, p.start, p.end),),
            )
            for p, q in made
        )
    for p, i in zip(found, where, strict=True):
        if i < 0:
            continue
        q = _question(form, text, groups, sentences, i, p, writer).strip()
        if not q:
            continue
        answer = text[p.start : p.end]
        out.append(
            Question(
                f"synthetic:{form}:{document.doc_id}:{p.start}-{p.end}",
                document.doc_id,
                q,
                answer,
                (Span(document.doc_id, p.start, p.end),),
            )
        )
    return tuple(out)


def synthetic_dataset(
    documents: Sequence[Document],
    form: Form,
    *,
    n: int = 0,
    seed: int = 0,
    method: Method = DEFAULT_METHOD,
    writer: Any = None,
    name: str | None = None,
) -> Dataset:
    """The documents with ``n`` synthetic questions of ``form`` (0: one per usable probe).

    The sample is drawn by the project's one sampler (``sample_questions``), so the same seed
    gives the same questions; the dataset's notes say the questions are synthetic and give the
    form's caveat.
    """
    questions = tuple(
        q
        for d in documents
        for q in synthetic_questions(d, form, method=method, writer=writer, seed=seed)
    )
    data = Dataset(
        name or f"synthetic-{form}",
        tuple(documents),
        questions,
        notes=(SYNTHETIC_NOTE, CAVEATS[form]),
    )
    if n and n < len(questions):
        data = sample_questions(data, n, seed)
    return data


def synthetic_record(form: Form, backend: str, questions: int, seed: int) -> dict[str, Any]:
    """What a results file and a page show beside every figure computed from these questions."""
    rho = VALIDATION.get(form, {}).get(backend)
    if rho is None:
        validation = (
            f"{form} questions are not validated per document for backend {backend} (see "
            "docs/benchmarks.md)"
        )
    else:
        low = VALIDATION_MIN[form][backend]
        validation = (
            f"on {VALIDATION_ARTICLES} JSQuAD articles, {form} questions ranked the tune grid "
            f"like each article's real questions with median Spearman rho = {rho:.2f} (lowest "
            f"{low:.2f}; {backend})"
        )
        if rho < USEFUL_RHO:
            validation += (
                f", below {USEFUL_RHO}: not a useful ranking; rest the choice on the lost "
                "counts and your own question/answer pairs"
            )
    return {
        "synthetic": True,
        "form": form,
        "questions": questions,
        "seed": seed,
        "note": SYNTHETIC_NOTE,
        "caveat": CAVEATS[form],
        "validation_rho": rho,
        "validation": validation,
    }
