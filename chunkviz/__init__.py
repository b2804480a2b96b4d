"""chunkviz: where a chunker cuts a document, what each cut costs, what it does to retrieval.

Importing this package loads neither Streamlit nor torch; heavy dependencies are imported inside
the functions that need them.
"""

from chunkviz.api import chunk, strategies
from chunkviz.cost import overlap_cost_factor, predicted_chunk_count
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

__version__ = "0.1.0"

__all__ = [
    "Chunk",
    "ChunkingResult",
    "ChunkvizError",
    "DatasetError",
    "InputTextError",
    "MissingDependencyError",
    "ModelUnavailableError",
    "ParameterError",
    "ResultsFileError",
    "Span",
    "UnknownStrategyError",
    "__version__",
    "chunk",
    "overlap_cost_factor",
    "predicted_chunk_count",
    "strategies",
]
