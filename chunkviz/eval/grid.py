"""Named chunking configurations: the one label format and every grid of the project.

A configuration's label is ``config_label``'s (``fixed-400-80``, ``recursive-200-40``,
``paragraph``), read back by ``parse_label``; ``bench`` (``default_grid``, ``paragraph_grid``,
``parse_grid``), ``tune`` (``tune_grid``) and the dashboard's Recompute (``build_grid``) all make
their configurations here, so one configuration has one label wherever it is run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from chunkviz.document import Document, chunk_document
from chunkviz.errors import ParameterError
from chunkviz.limits import MAX_GRID_CONFIGS
from chunkviz.model import ChunkingResult
from chunkviz.retrieval.headers import CONTEXT_MODES, check_context
from chunkviz.strategies import get_strategy


@dataclass(frozen=True)
class Config:
    """A strategy with its parameters, under a short label such as ``fixed-400-80``.

    Attributes:
        label: Unique, stable name used in results files and URLs.
        strategy: Registered strategy name.
        params: Strategy parameters (validated when the configuration is used).
        context: Contextual chunk header embedded with each chunk (``none``, ``title``,
            ``headings``; ``chunkviz.retrieval.headers``); it never changes the chunks.
    """

    label: str
    strategy: str
    params: Mapping[str, Any] = field(default_factory=dict)
    context: str = field(default="none", kw_only=True)

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))
        get_strategy(self.strategy)  # an unknown name fails here, listing the known ones
        check_context(self.context)

    def as_dict(self) -> dict[str, Any]:
        """Plain data for JSON files (``context`` only when it is not ``none``)."""
        out = {"label": self.label, "strategy": self.strategy, "params": dict(self.params)}
        return out if self.context == "none" else {**out, "context": self.context}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Config:
        """Inverse of ``as_dict``."""
        return cls(
            str(data["label"]),
            str(data["strategy"]),
            dict(data.get("params", {})),
            context=str(data.get("context", "none")),
        )


@dataclass(frozen=True)
class ImportedConfig(Config):
    """Chunks made elsewhere and aligned to offsets (``chunkviz.eval.align``), as a configuration.

    Everything that takes a ``Config`` (``lost_table``, ``run_benchmark``) takes one of these:
    ``chunk_config`` returns the aligned chunking of a document instead of running a strategy.

    Attributes:
        chunkings: The aligned chunking of each document, keyed by document id.
    """

    chunkings: Mapping[str, ChunkingResult] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))
        object.__setattr__(self, "chunkings", MappingProxyType(dict(self.chunkings)))
        check_context(self.context)
        if self.strategy != "imported":
            raise ParameterError("imported_strategy", value=self.strategy)

    def chunking_for(self, document: Document) -> ChunkingResult:
        """The aligned chunking of ``document``.

        Raises:
            ParameterError: No chunking for this document, or one aligned to another text.
        """
        result = self.chunkings.get(document.doc_id)
        if result is None:
            raise ParameterError("imported_no_chunks", label=self.label, document=document.doc_id)
        if result.text != document.text:
            raise ParameterError("imported_other_text", label=self.label, document=document.doc_id)
        return result


def config_label(strategy: str, params: Mapping[str, Any]) -> str:
    """The one label of a configuration: ``<strategy>[-<size>[-<overlap>]]``.

    ``fixed-400-80``, ``recursive-200-0``, ``sentence-400-0``, ``paragraph``: the format of the
    shipped results files. The size (the strategy's ``size_param``) and the overlap come from the
    checked parameters, defaults filled, so ``{"size": 400}`` and ``{"size": 400, "overlap": 0}``
    get one label; an optional size that is off (paragraph's ``max_size``) is left out. Any other
    parameter given away from its default follows as ``-<name>=<value>``, sorted by name.

    Raises:
        ParameterError: A parameter the strategy's schema rejects.
        UnknownStrategyError: An unknown strategy.
    """
    spec = get_strategy(strategy)
    checked = spec.validate(params)
    names = {p.name for p in spec.params}
    size_name = spec.size_param if spec.size_param in names else None
    parts = [strategy]
    if size_name is not None and checked[size_name] is not None:
        parts.append(str(checked[size_name]))
        if "overlap" in checked:
            parts.append(str(checked["overlap"]))
    defaults = spec.defaults()
    parts += [
        f"{k}={checked[k]}"
        for k in sorted(params)
        if k not in (size_name, "overlap") and checked[k] != defaults[k]
    ]
    return "-".join(parts)


def make_config(strategy: str, params: Mapping[str, Any] | None = None) -> Config:
    """A configuration labelled by ``config_label``.

    Raises:
        ParameterError: A parameter the strategy's schema rejects.
        UnknownStrategyError: An unknown strategy.
    """
    params = dict(params or {})
    return Config(config_label(strategy, params), strategy, params)


def fixed_config(size: int, overlap: int) -> Config:
    """A fixed-window configuration labelled ``fixed-<size>-<overlap>``."""
    return make_config("fixed", {"size": size, "overlap": overlap})


def parse_label(label: str) -> Config:
    """The configuration a label names: the inverse of ``config_label``.

    ``fixed-400-80`` -> fixed with size 400 and overlap 80; ``paragraph`` -> paragraph with its
    defaults. Whole numbers after the name are the size, then the overlap; ``name=value``
    pieces set other parameters (a number where it reads as one, else the text). Another
    spelling of the same configuration (``sentence``, ``fixed-400``) gets the canonical label
    (``sentence-512-0``, ``fixed-400-0``).

    Raises:
        ParameterError: A piece that is neither a whole number in place nor ``name=value``, or
            a value the strategy's schema rejects.
        UnknownStrategyError: The label does not start with a strategy name.
    """
    name, *pieces = label.strip().split("-")
    spec = get_strategy(name)
    positional = [
        p
        for p in (spec.size_param, "overlap")
        if p is not None and p in {q.name for q in spec.params}
    ]
    params: dict[str, Any] = {}
    for i, piece in enumerate(pieces):
        key, eq, value = piece.partition("=")
        if eq:
            params[key] = _number_or_text(value)
        elif piece.isdigit() and i < len(positional) and len(params) == i:
            params[positional[i]] = int(piece)
        else:
            raise ParameterError(
                "label_piece", label=label, piece=piece, positional=list(positional), strategy=name
            )
    return make_config(name, params)


def _number_or_text(value: str) -> Any:
    # The inverse of str() on a parameter value: config_label writes f"{name}={value}".
    if value in ("True", "False"):
        return value == "True"
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            continue
    return value


def with_context(configs: Sequence[Config], modes: Sequence[str]) -> tuple[Config, ...]:
    """Every configuration under every contextual header mode, modes outermost.

    ``none`` keeps a configuration as it is; another mode makes ``<label>+<mode>`` with the same
    strategy and parameters, so a run holds naive and contextual cuts side by side and its paired
    tests compare them on the same questions.

    Raises:
        ParameterError: An unknown mode, or no mode.
    """
    checked = [check_context(m) for m in dict.fromkeys(m.strip() for m in modes)]
    if not checked:
        raise ParameterError("grid_context_empty", choices=list(CONTEXT_MODES))
    check_grid_size(len(configs) * len(checked), "--grid x --context")
    return tuple(
        c if mode == "none" else replace(c, label=f"{c.label}+{mode}", context=mode)
        for mode in checked
        for c in configs
    )


def default_grid() -> tuple[Config, ...]:
    """The seed study's 8 configurations (``bench --grid default``, the shipped results).

    Fixed 100/200/400/800 characters with 0% and 20% overlap (800 with 20% only), plus natural
    paragraphs.
    """
    configs = []
    for size in (100, 200, 400, 800):
        if size != 800:
            configs.append(fixed_config(size, 0))
        configs.append(fixed_config(size, size // 5))
    return (*configs, *paragraph_grid())


def paragraph_grid() -> tuple[Config, ...]:
    """Natural paragraphs alone (``bench --grid paragraph``)."""
    return (make_config("paragraph"),)


def snapped(configs: Sequence[Config], snap: str = "phrase") -> tuple[Config, ...]:
    """The configurations of ``configs`` that can snap (fixed, recursive), snapped to ``snap``.

    Tune offers these beside ``tune_grid()`` without selecting them: the default grid, the
    shipped results and the prior stay as they are.
    """
    return tuple(
        make_config(c.strategy, {**c.params, "snap": snap})
        for c in configs
        if "snap" in {p.name for p in get_strategy(c.strategy).params}
        and c.params.get("snap", "none") == "none"
    )


def tune_grid() -> tuple[Config, ...]:
    """The ``tune`` grid: 16 configurations.

    Fixed windows of 100/200/400/800 characters and recursive separators of 200/400/800, each
    with 0% and 20% overlap, plus sentences packed to 400 characters and natural paragraphs.
    """
    configs: list[Config] = []
    for size in (100, 200, 400, 800):
        configs += [fixed_config(size, 0), fixed_config(size, size // 5)]
    for size in (200, 400, 800):
        for overlap in (0, size // 5):
            configs.append(make_config("recursive", {"size": size, "overlap": overlap}))
    configs.append(make_config("sentence", {"size": 400, "overlap": 0}))
    return (*configs, *paragraph_grid())


#: Grids ``parse_grid`` knows by name.
NAMED_GRIDS = {"default": default_grid, "paragraph": paragraph_grid, "tune": tune_grid}


def parse_grid(spec: str) -> tuple[Config, ...]:
    """A grid's name (``default``, ``tune``, ``paragraph``) or comma-separated labels.

    Each label is read by ``parse_label`` (``fixed-400-80``, ``recursive-200-40``,
    ``paragraph``); the first occurrence of a repeated label wins.

    Raises:
        ParameterError: An empty grid or a label that is not a canonical one.
        UnknownStrategyError: A label that does not start with a strategy name.
    """
    named = NAMED_GRIDS.get(spec.strip())
    if named is not None:
        return named()
    items = [s for s in (s.strip() for s in spec.split(",")) if s]
    check_grid_size(len(dict.fromkeys(items)), "--grid")
    configs = [parse_label(item) for item in items]
    if not configs:
        raise ParameterError("grid_empty", value=spec)
    return _first_wins(configs)


def chunk_config(config: Config, document: Document) -> ChunkingResult:
    """Chunk ``document`` under ``config``: what lost counts and the benchmark call.

    A registered strategy goes through ``chunkviz.document.chunk_document`` (the one way to
    chunk a document); an ``ImportedConfig`` returns its aligned chunks.
    """
    if isinstance(config, ImportedConfig):
        return config.chunking_for(document)
    return chunk_document(document, config.strategy, config.params)


def build_grid(
    strategies: Sequence[str],
    sizes: Sequence[int],
    overlap_percents: Sequence[int],
    snaps: Sequence[str] = ("none",),
) -> tuple[Config, ...]:
    """Configurations for Recompute.

    Each strategy with a required size runs over ``sizes`` x ``overlap_percents`` (overlap =
    size x percent / 100, rounded down); every other strategy (no size, or an optional size cap)
    runs once with its defaults. A strategy with a ``snap`` parameter (fixed, recursive) runs
    once more per level of ``snaps`` other than ``none`` (``fixed-400-80-snap=phrase``).

    Raises:
        ParameterError: Nothing to run, or a size/overlap the strategy's schema rejects.
    """
    if not strategies:
        raise ParameterError("grid_no_strategy")
    check_grid_size(
        len(strategies) * max(1, len(sizes)) * max(1, len(overlap_percents)),
        "strategies x sizes x overlaps",
    )
    configs: list[Config] = []
    for name in strategies:
        spec = get_strategy(name)
        names = {p.name for p in spec.params}
        size_param = (
            spec.param(spec.size_param)
            if spec.size_param is not None and spec.size_param in names
            else None
        )
        # A strategy without a size, or whose size is an optional cap (paragraph's max_size,
        # off by default), runs once in its natural form, as the study's "paragraph" does.
        if size_param is None or size_param.optional:
            configs.append(make_config(name))
            continue
        if not sizes:
            raise ParameterError("grid_no_size", strategy=name)
        for size in sizes:
            for pct in overlap_percents or (0,):
                if not 0 <= pct < 100:
                    raise ParameterError("overlap_percent", value=pct)
                params: dict[str, Any] = {size_param.name: size}
                if "overlap" in names:
                    params["overlap"] = size * pct // 100
                for snap in snaps if "snap" in names else ("none",):
                    snapped = params if snap == "none" else {**params, "snap": snap}
                    configs.append(make_config(name, snapped))
    return _first_wins(configs)


def check_grid_size(count: int, what: str) -> None:
    """Refuse a grid of more than ``MAX_GRID_CONFIGS`` configurations, before any work.

    The CLI (``parse_grid``, ``with_context``) and the page's Recompute (``build_grid``) call
    it; the results schema holds files to the same bound. ``build_grid`` counts the product of
    its choices, an upper bound (strategies without a size run once).

    Raises:
        ParameterError: ``count`` is over the limit; the message names ``what``, the count, the
            limit and the fix.
    """
    if count > MAX_GRID_CONFIGS:
        raise ParameterError("grid_too_large", what=what, count=f"{count:,}", max=MAX_GRID_CONFIGS)


def _first_wins(configs: Sequence[Config]) -> tuple[Config, ...]:
    """One configuration per label, the first occurrence of a repeated label kept."""
    unique = {c.label: c for c in reversed(configs)}
    return tuple(unique[lab] for lab in dict.fromkeys(c.label for c in configs))
