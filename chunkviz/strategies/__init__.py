"""Chunking strategies; importing this package registers every built-in strategy."""

# Registration side effect: each module registers its strategy.
from chunkviz.strategies import code, fixed, paragraph, table  # noqa: F401
from chunkviz.strategies.registry import Param, Strategy, all_strategies, get_strategy, register

__all__ = ["Param", "Strategy", "all_strategies", "get_strategy", "register"]
