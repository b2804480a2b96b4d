"""Question sets with answers as spans of documents (JSQuAD/JaQuAD long documents, SQuAD, user QA).

``load_dataset(spec)`` understands:

- ``jsquad``: the vendored JSQuAD v1.3 validation split as the seed study's 59 long documents;
- ``jsquad:PATH``: any file in JSQuAD's format, built the same way;
- ``jaquad``: the vendored JaQuAD validation split as 101 long documents, each question with its
  question type and answer type (see ``chunkviz.datasets.jaquad``);
- ``jaquad:PATH``: any file in JaQuAD's format, or a folder of such files, built the same way;
- ``squad:PATH``: any SQuAD-format file, one document per paragraph context, any language;
- ``hf:NAME[:SPLIT]``: a Hugging Face hub dataset in SQuAD's columns (``context``, ``question``,
  ``answers``), loaded with ``datasets`` (split ``validation`` by default); needs the network
  unless the dataset is cached;
- ``qa:PAIRS:DOCUMENT``: a user's QA pairs file (CSV/JSON, ``question``, ``answer``) whose
  answers are located in the DOCUMENT file (not-found and repeated answers are listed in
  ``Dataset.notes``; see ``chunkviz.datasets.qa_pairs``);
- ``hf:json:PATH`` (also ``hf:csv:PATH``, ``hf:parquet:PATH``): a local file in SQuAD's columns
  read through ``datasets``'s own loader of that format (works offline);
- ``mtcb:FOLDER``: a dataset of chonkie's MTCB (``corpus/`` and ``questions/``, parquet or JSON
  Lines; see ``chunkviz.datasets.mtcb``), or one that ``chunkviz export`` wrote.
"""

from __future__ import annotations

from chunkviz.datasets.base import Dataset, Document, Question
from chunkviz.datasets.hub import load_hub
from chunkviz.datasets.jaquad import load_jaquad
from chunkviz.datasets.jsquad import load_jsquad
from chunkviz.datasets.qa_pairs import load_qa_dataset
from chunkviz.datasets.squad import load_squad
from chunkviz.errors import DatasetError, Whole

__all__ = ["BUNDLED", "Dataset", "Document", "Question", "load_dataset"]

SPEC_HELP = Whole(
    "jsquad, jsquad:PATH, jaquad, jaquad:PATH, squad:PATH, qa:PAIRS:DOCUMENT, hf:NAME[:SPLIT], "
    "hf:json:PATH, mtcb:FOLDER"
)

#: The bundled corpora ``load_dataset`` reads with no path, in the order pages list them.
BUNDLED = ("jsquad", "jaquad")


def load_dataset(spec: str) -> Dataset:
    """Load the dataset named by ``spec`` (see the module docstring for the forms).

    Raises:
        DatasetError: An unknown form, a missing file, a file in the wrong format, or a hub
            dataset that cannot be reached.
        MissingDependencyError: ``hf:`` without the ``datasets`` package.
    """
    kind, sep, rest = spec.partition(":")
    kind = kind.strip().lower()
    if kind == "jsquad":
        return load_jsquad(rest if sep else None)
    if kind == "jaquad":
        return load_jaquad(rest if sep else None)
    if sep and not rest:
        raise DatasetError("dataset_no_file", spec=spec, kind=kind, specs=SPEC_HELP)
    if kind == "squad" and sep:
        return load_squad(rest)
    if kind == "qa" and sep:
        pairs, colon, document = rest.rpartition(":")
        if not colon or not pairs or not document:
            raise DatasetError("dataset_qa_spec", spec=spec)
        return load_qa_dataset(pairs, [document])
    if kind == "hf" and sep:
        return load_hub(rest)
    if kind == "mtcb" and sep:
        from chunkviz.datasets.mtcb import read_mtcb

        return read_mtcb(rest)
    raise DatasetError("unknown_dataset", spec=spec, specs=SPEC_HELP)
