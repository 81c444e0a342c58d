""" "Made from this code": a module and every project module it imports, and their digest.

The one way the project says what a file was made from: the data file (from model/'s
entry point), each segment (from its scene's file), the assembly and the sound-track mixer
(from their own modules) hash their closure (:func:`code_digest`); a cluster's workers,
which may run any scene, compare every code file of the project (:func:`project_digest`).
Imports are read with :mod:`ast`, never executed, so the closure of a Manim scene is known
without importing Manim; a lazy import inside a function counts like one at the top. The
SHA-256 of a file's bytes is :func:`file_digest`. Imports nothing of ours.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import importlib.metadata
import platform
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# What a frame is drawn and encoded with besides the project's code: a segment's record holds
# their versions, and every cluster worker must have the client's.
FRAME_PACKAGES = ("manim", "manimpango", "pycairo", "av", "numpy")
# The project's own top-level packages and modules: imports of anything else are not followed.
PROJECT_PACKAGES = ("common", "model", "syllabus", "voice", "scenes", "pipeline", "render")
CODE_SUFFIXES = (".py", ".toml", ".html", ".js", ".sha256")  # the project's code and tables


def module_file(name: str) -> Path | None:
    """The project file of a dotted module name, or None for anything outside the project."""
    parts = name.split(".")
    if parts[0] not in PROJECT_PACKAGES:
        return None
    base = ROOT.joinpath(*parts)
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    return None


@cache  # one parse per module a run: the chapters share most of theirs
def imported_names(source: Path) -> frozenset[str]:
    """Every module name a file imports (``from a.b import c`` gives a, a.b and a.b.c)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    # importing a.b.c runs a/__init__.py and a/b/__init__.py too
    return frozenset(
        names | {".".join(n.split(".")[:k]) for n in names for k in range(1, n.count(".") + 1)}
    )


@cache
def _imports(source: Path) -> frozenset[Path]:
    """The project modules one module imports directly."""
    return frozenset(p for n in imported_names(source) if (p := module_file(n)) is not None)


def closure(roots: Iterable[Path], skip: tuple[str, ...] = ()) -> list[Path]:
    """The root files and every project module they import, transitively, sorted; modules
    under the folders ``skip`` names (``"voice"``) are left out and not followed."""
    skipped = tuple(ROOT / folder for folder in skip)
    seen: set[Path] = set()
    todo = [Path(r).resolve() for r in roots]
    while todo:
        current = todo.pop()
        if current in seen or any(current.is_relative_to(s) for s in skipped):
            continue
        seen.add(current)
        if current.suffix == ".py":
            todo += _imports(current)
    return sorted(seen)


def file_digest(path: Path) -> bytes:
    """The SHA-256 of a file's bytes (``.hex()``: as ``sha256sum`` writes it)."""
    with Path(path).open("rb") as f:
        return hashlib.file_digest(f, "sha256").digest()


_file_digest = cache(file_digest)  # code is read once a run: the chapters share most of it


def _digest(paths: Iterable[Path], read: Callable[[Path], bytes]) -> str:
    """The digest of files: each one's path in the project and the digest of its bytes."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path).encode())
        digest.update(read(path))
    return digest.hexdigest()


def code_digest(*roots: Path, extra: Iterable[Path] = (), skip: tuple[str, ...] = ()) -> str:
    """The digest of the closure of ``roots`` (less ``skip``), and of ``extra`` files the
    code reads (a page template): each file's path in the project and its bytes."""
    return _digest(closure(roots, skip) + sorted(Path(p).resolve() for p in extra), _file_digest)


def project_files() -> list[Path]:
    """Every code file and table of the project's packages (:data:`CODE_SUFFIXES`), sorted."""
    files = []
    for name in PROJECT_PACKAGES:
        folder, module = ROOT / name, ROOT / f"{name}.py"
        files += sorted(folder.rglob("*")) if folder.is_dir() else [module]
    return [
        path
        for path in files
        if path.suffix in CODE_SUFFIXES and path.is_file() and "__pycache__" not in path.parts
    ]


def project_digest() -> str:
    """The digest of :func:`project_files` as they are on disk now: read at each call, not
    once a run (a cluster worker's checkout may change under it, by a ``git pull``)."""
    return _digest(project_files(), file_digest)


@cache
def package_versions(packages: tuple[str, ...]) -> dict[str, str]:
    """The Python's version and each installed package's (one not installed is left out)."""
    found = {"Python": platform.python_version()}
    for package in packages:
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            found[package] = importlib.metadata.version(package)
    return found
