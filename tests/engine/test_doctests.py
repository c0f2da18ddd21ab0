"""Every engine module's doctests, and the README's Python examples as doctests and under mypy."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest
from mypy import api as mypy_api

import engine

README = Path(__file__).resolve().parents[2] / "README.md"
ENGINE_MODULES = sorted(
    info.name for info in pkgutil.walk_packages(engine.__path__, prefix="engine.")
)


def readme_examples() -> list[str]:
    """The README's ```python blocks that are written as doctests."""
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)
    return [block for block in blocks if block.lstrip().startswith(">>>")]


@pytest.mark.parametrize("name", ENGINE_MODULES)
def test_engine_module_doctests_pass(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_engine_modules_are_all_found() -> None:
    assert {"engine.holdem.hand", "engine.blackjack.round", "engine.cards"} <= set(ENGINE_MODULES)


def test_readme_examples_run_as_doctests() -> None:
    examples = readme_examples()
    assert len(examples) >= 2  # the Hold'em and the Blackjack example
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for number, block in enumerate(examples, 1):
        test = parser.get_doctest(block, {}, f"README example {number}", str(README), 0)
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 10
    assert result.failed == 0


def test_readme_examples_pass_mypy_strict(tmp_path: Path) -> None:
    parser = doctest.DocTestParser()
    paths = []
    for number, block in enumerate(readme_examples(), 1):
        path = tmp_path / f"readme_example_{number}.py"
        path.write_text("".join(example.source for example in parser.get_examples(block)))
        paths.append(str(path))
    out, err, status = mypy_api.run(["--strict", "--no-error-summary", *paths])
    assert status == 0, out + err
