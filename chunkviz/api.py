"""The public entry points: chunk a text, describe the strategies.

``read``, ``evaluate`` and ``tune`` are in ``chunkviz.workflows`` (they reach the benchmark
runner, which the document model below this module must not import).
"""

from __future__ import annotations

from typing import Any

from chunkviz.errors import ParameterError
from chunkviz.model import ChunkingResult
from chunkviz.strategies import all_strategies, get_strategy
from chunkviz.strategies.registry import check_resources
from chunkviz.text import text


def chunk(text: str, strategy: str, /, **params: Any) -> ChunkingResult:
    """Chunk ``text`` with the registered ``strategy``.

    Args:
        text: The document, exactly as the user sees it.
        strategy: A registered strategy name (see ``strategies()``).
        **params: Strategy parameters (checked against its schema) and resources the strategy
            accepts, such as ``tokenizer`` for ``unit="tokens"``.

    Returns:
        The chunking; ``text[c.start:c.end]`` is each chunk's source text.

    Raises:
        UnknownStrategyError: ``strategy`` is not registered.
        ParameterError: A parameter is unknown or breaks its rule.
    """
    if not isinstance(text, str):
        raise ParameterError(f"text must be a str (got {type(text).__name__}); decode it first")
    spec = get_strategy(strategy)
    if spec.resources.isdisjoint(params):
        return spec.fn(text, **spec.validate(params))
    resources = {k: v for k, v in params.items() if k in spec.resources}
    check_resources(resources)
    settings = spec.validate({k: v for k, v in params.items() if k not in spec.resources})
    return spec.fn(text, **settings, **resources)


def strategies() -> list[dict[str, Any]]:
    """Every registered strategy as plain data (``chunkviz strategies --format json``).

    The Japanese text comes from the ``ja`` catalogue (``chunkviz.text``).
    """
    return [
        {
            "name": s.name,
            "description": s.description,
            "description_ja": text("ja", f"strategy.{s.name}.description"),
            "gaps": s.gaps,
            "params": [
                {
                    "name": p.name,
                    "type": p.type,
                    "default": p.default,
                    "min": p.min,
                    "max": p.max,
                    "unit": p.unit,
                    "choices": list(p.choices),
                    "optional": p.optional,
                    # Relations with another parameter (overlap < size, min_size <= max_size).
                    "less_than": p.less_than,
                    "at_most": p.at_most,
                    "help": p.help,
                    "help_ja": text("ja", f"strategy.{s.name}.help.{p.name}"),
                }
                for p in s.params
            ],
        }
        for s in all_strategies()
    ]
