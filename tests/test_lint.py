"""The code base stays clean: ruff lint and format, and deptry, as configured in pyproject.toml."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_lint_and_format() -> None:
    for args in (["check", "."], ["format", "--check", "."]):
        result = subprocess.run(
            [sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True
        )
        assert result.returncode == 0, result.stdout + result.stderr


def test_every_import_is_declared() -> None:
    """deptry: every package the code imports is in pyproject.toml's dependencies, and every
    dependency is imported (av, scipy, cairo... were imported but undeclared)."""
    result = subprocess.run(
        [sys.executable, "-m", "deptry", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
