"""Named chunking configurations and the seed study's default grid."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from chunkviz.strategies import get_strategy


@dataclass(frozen=True)
class Config:
    """A strategy with its parameters, under a short label such as ``fixed-400-80``.

    Attributes:
        label: Unique, stable name used in results files and URLs.
        strategy: Registered strategy name.
        params: Strategy parameters (validated when the configuration is used).
    """

    label: str
    strategy: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))
        get_strategy(self.strategy)  # an unknown name fails here, listing the known ones

    def as_dict(self) -> dict[str, Any]:
        """Plain data for JSON files."""
        return {"label": self.label, "strategy": self.strategy, "params": dict(self.params)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Config:
        """Inverse of ``as_dict``."""
        return cls(str(data["label"]), str(data["strategy"]), dict(data.get("params", {})))


def fixed_config(size: int, overlap: int) -> Config:
    """A fixed-window configuration labelled ``fixed-<size>-<overlap>``."""
    return Config(f"fixed-{size}-{overlap}", "fixed", {"size": size, "overlap": overlap})


def default_grid() -> tuple[Config, ...]:
    """The seed study's 8 configurations.

    Fixed 100/200/400/800 characters with 0% and 20% overlap (800 with 20% only), plus natural
    paragraphs.
    """
    configs = []
    for size in (100, 200, 400, 800):
        if size != 800:
            configs.append(fixed_config(size, 0))
        configs.append(fixed_config(size, size // 5))
    configs.append(Config("paragraph", "paragraph", {}))
    return tuple(configs)


