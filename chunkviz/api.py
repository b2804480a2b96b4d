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
        raise ParameterError("text_not_str", kind=type(text).__name__)
    spec = get_strategy(strategy)
    resources = {k: v for k, v in params.items() if k in spec.resources}
    check_resources(resources)
    settings = spec.validate({k: v for k, v in params.items() if k not in spec.resources})
    return spec.fn(text, **settings, **_named_resources(spec.resources, settings, resources))


def _named_resources(
    accepted: frozenset[str], settings: dict[str, Any], resources: dict[str, Any]
) -> dict[str, Any]:
    """``resources`` plus the embedder that the ``model`` setting names, when none was given.

    A strategy never loads a backend itself (it does not import ``chunkviz.retrieval``): the
    caller hands it in, and this is the caller for ``chunkviz.chunk`` and the command line.
    """
    if "embedder" in accepted and resources.get("embedder") is None and "model" in settings:
        # Imported here: retrieval loads bm25s and friends, which `import chunkviz` must not.
        from chunkviz.retrieval.backends import get_backend

        return {**resources, "embedder": get_backend(str(settings["model"]))}
    return resources


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
