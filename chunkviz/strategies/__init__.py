"""Chunking strategies; importing this package registers every built-in strategy."""

from chunkviz.strategies import (  # noqa: F401  (registration side effect)
    fixed,
    markdown,
    paragraph,
    recursive,
    sentence,
)
from chunkviz.strategies.registry import Param, Strategy, all_strategies, get_strategy, register

__all__ = ["Param", "Strategy", "all_strategies", "get_strategy", "register"]
