"""chunkviz: where a chunker cuts a document, what each cut costs, what it does to retrieval.

Importing this package loads neither Streamlit nor torch; heavy dependencies are imported inside
the functions that need them.
"""

from chunkviz._version import __version__
from chunkviz.api import chunk, strategies
from chunkviz.cost import overlap_cost_factor, predicted_chunk_count
from chunkviz.document import Document
from chunkviz.errors import (
    ChunkvizError,
    DatasetError,
    InputTextError,
    MissingDependencyError,
    ModelUnavailableError,
    ParameterError,
    ResultsFileError,
    UnknownStrategyError,
)
from chunkviz.model import Chunk, ChunkingResult, Span
from chunkviz.workflows import Recommendation, evaluate, read, tune

__all__ = [
    "Chunk",
    "ChunkingResult",
    "ChunkvizError",
    "DatasetError",
    "Document",
    "InputTextError",
    "MissingDependencyError",
    "ModelUnavailableError",
    "ParameterError",
    "Recommendation",
    "ResultsFileError",
    "Span",
    "UnknownStrategyError",
    "__version__",
    "chunk",
    "evaluate",
    "overlap_cost_factor",
    "predicted_chunk_count",
    "read",
    "strategies",
    "tune",
]
