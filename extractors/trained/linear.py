"""A small logistic model over named features: fitted with plain batch gradient descent
(fixed steps, no randomness, so the same data gives the same weights) and stored as JSON
beside this module. The lifecycle's fulfilment scorer is one
(:mod:`extractors.dialogue.fulfilment`); ``make train`` refits it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict

MODEL_DIR = Path(__file__).parent


class LinearModel(BaseModel):
    """Weights per feature name and a bias; ``score`` is the logistic of their sum."""

    model_config = ConfigDict(frozen=True)

    name: str
    weights: dict[str, float]
    bias: float
    #: What it was fitted on and how, for the record (not read when scoring).
    trained_on: dict[str, object] = {}

    def score(self, features: Mapping[str, float]) -> float:
        """The model's probability for one example (unknown features are ignored)."""
        z = self.bias + sum(self.weights.get(k, 0.0) * v for k, v in features.items())
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.model_dump(), indent=1, sort_keys=True) + "\n",
                        encoding="utf-8")


@lru_cache(maxsize=4)
def load(name: str, directory: Path = MODEL_DIR) -> LinearModel | None:
    """The model stored as ``<name>.json`` beside this module, or None without one."""
    path = directory / f"{name}.json"
    if not path.is_file():
        return None
    return LinearModel.model_validate_json(path.read_text(encoding="utf-8"))


def fit(name: str, examples: Sequence[Mapping[str, float]], labels: Sequence[int], *,
        l2: float = 1e-3, steps: int = 3000, rate: float = 0.5,
        trained_on: dict[str, object] | None = None) -> LinearModel:
    """Fit a logistic model by batch gradient descent (deterministic)."""
    import numpy as np

    names = sorted({k for ex in examples for k in ex})
    x = np.array([[float(ex.get(k, 0.0)) for k in names] for ex in examples])
    y = np.array(labels, dtype=float)
    w = np.zeros(len(names))
    b = 0.0
    n = max(1, len(y))
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w + b, -30, 30)))
        grad = p - y
        w -= rate * (x.T @ grad / n + l2 * w)
        b -= rate * float(grad.mean())
    return LinearModel(name=name, weights={k: round(float(v), 6) for k, v in zip(names, w,
                                                                                  strict=True)},
                       bias=round(b, 6), trained_on=trained_on or {})
