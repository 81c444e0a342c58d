"""The rooms by layer (docs/architecture.md): each folder says what its modules may import."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from common.closure import ROOT, closure, module_file

# The torch-free half of model/: the data file's contract, which every other room may read.
CONTRACT = ("model.config", "model.datafile", "model.parts", "model.sentences", "model.streams")
# room: (the project modules it may import, the outside packages it must not import)
ROOMS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "common": (("common",), ("torch", "manim")),
    "model": (("common", "model"), ("manim",)),
    "syllabus": (("common", *CONTRACT, "syllabus"), ("torch", "manim")),
    "voice": (("common", "voice"), ("torch", "manim")),
    "scenes.patches": (("common", "scenes.patches"), ("torch",)),
    "scenes.kit": (
        ("common", *CONTRACT, "syllabus", "voice", "scenes.patches", "scenes.kit"),
        ("torch",),
    ),
    "scenes.chapters": (("scenes.kit", "scenes.chapters"), ("torch",)),
    "scenes.gates": (
        ("common", *CONTRACT, "syllabus", "voice", "scenes.patches", "scenes.kit", "scenes.gates"),
        ("torch",),
    ),
    "scenes": ((), ("torch",)),  # scenes/__init__.py: a docstring
    "scenes.worker": (
        ("common", "scenes.patches"),
        ("torch",),
    ),  # a render worker: Manim's CLI with the speed-ups, dying with its parent
    "pipeline": (("common", *CONTRACT, "syllabus", "voice", "pipeline"), ("torch", "manim")),
    # pipeline/run.py: the driver of a run; Manim (the narration script's dry run) and torch
    # (training) only inside the functions that need them, which the test below checks.
    "pipeline.run": (("common", "model", "syllabus", "voice", "pipeline", "scenes.gates"), ()),
    # measure/: the voice heard by a recogniser (the measure extra); no render imports it.
    "measure": (("common", "voice", "measure"), ("torch", "manim")),
    # render.py: the command, which parses and hands one Run to the driver.
    "render": (("common", *CONTRACT, "syllabus", "pipeline"), ("torch", "manim")),
}


def _room(module: str) -> str:
    """The room of a dotted module name: its longest prefix in ROOMS."""
    parts = module.split(".")
    for k in range(len(parts), 0, -1):
        if ".".join(parts[:k]) in ROOMS:
            return ".".join(parts[:k])
    raise AssertionError(f"{module}: in no room of ROOMS (add it, and to docs/architecture.md)")


def _imports(file: Path) -> list[tuple[int, str]]:
    """Every module a file imports, at the top or inside a function, with its line
    (``from a import b`` imports ``a.b`` when that is a module, else ``a``)."""
    found = []
    for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level > 0:
            found.append((node.lineno, "." * node.level + (node.module or "")))
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.append((node.lineno, sub if module_file(sub) else node.module))
    return list(dict.fromkeys(found))


def _within(name: str, allowed: tuple[str, ...]) -> bool:
    return any(name == a or name.startswith(a + ".") for a in allowed)


def _modules() -> list[Path]:
    files = [ROOT / "render.py"]
    for room in ("common", "model", "syllabus", "voice", "scenes", "pipeline", "measure"):
        files += sorted((ROOT / room).rglob("*.py"))
    return files


def _violations(file: Path, name: str | None = None) -> list[str]:
    """What ``file`` imports that its room forbids (``name``: its module name, if it is not
    where that name says)."""
    relative = file.relative_to(ROOT) if file.is_relative_to(ROOT) else file
    name = name or ".".join(relative.with_suffix("").parts).removesuffix(".__init__")
    allowed, banned = ROOMS[_room(name)]
    problems = []
    for line, imported in _imports(file):
        where = f"{name}:{line}"
        if imported.startswith("."):
            problems.append(f"{where}: a relative import ({imported}): write it absolute")
            continue
        target = module_file(imported)
        if target is not None:
            if not _within(imported, allowed):
                problems.append(f"{where}: room {_room(name)} may not import {imported}")
        elif imported.split(".")[0] in banned:
            problems.append(f"{where}: room {_room(name)} must not import {imported}")
    return problems


def test_every_module_imports_only_what_its_room_allows() -> None:
    problems = [p for file in _modules() for p in _violations(file)]
    assert not problems, "\n".join(problems)


def test_the_rule_catches_an_import_upwards(tmp_path: Path) -> None:
    """A model module that imports the scenes' kit, a chapter that imports the pipeline
    inside a function, and a pipeline module that imports Manim are refused."""
    probe = tmp_path / "probe.py"
    probe.write_text("from scenes.kit import style\n")
    assert _violations(probe, "model.probe") == [
        "model.probe:1: room model may not import scenes.kit.style"
    ]
    probe.write_text("def f():\n    from pipeline import jobs\n")
    assert _violations(probe, "scenes.chapters.probe") == [
        "scenes.chapters.probe:2: room scenes.chapters may not import pipeline.jobs"
    ]
    probe.write_text("import manim\n")
    assert _violations(probe, "pipeline.probe") == [
        "pipeline.probe:1: room pipeline must not import manim"
    ]
    probe.write_text("from .style import FONT\n")
    assert _violations(probe, "scenes.kit.probe") == [
        "scenes.kit.probe:1: a relative import (.style): write it absolute"
    ]


@pytest.mark.parametrize("module", CONTRACT)
def test_the_contract_imports_no_torch(module: str) -> None:
    """Every room may read the data file: its contract's closure never imports torch."""
    for file in closure([module_file(module)]):
        torch = [n for _, n in _imports(file) if n.split(".")[0] == "torch"]
        assert not torch, f"{file.relative_to(ROOT)} imports {torch[0]}"


# Manim's emphasis that scales a part and floods it with one colour over its numbers; the
# chapters outline what a line names instead (scenes/kit/emphasis.py, issue 44).
HIDING = ("Indicate",)


def _hiding(file: Path) -> list[str]:
    tree = ast.parse(file.read_text(encoding="utf-8"))
    return [
        f"{file.name}:{node.lineno}: {alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "manim"
        for alias in node.names
        if alias.name in HIDING
    ]


def test_no_chapter_emphasises_by_scaling_or_flooding(tmp_path: Path) -> None:
    chapters = sorted((ROOT / "scenes" / "chapters").glob("*.py"))
    problems = [p for file in chapters for p in _hiding(file)]
    assert not problems, "outline the named part (scenes.kit.emphasis):\n" + "\n".join(problems)
    probe = tmp_path / "probe.py"
    probe.write_text("from manim import FadeIn, Indicate\n")
    assert _hiding(probe) == ["probe.py:1: Indicate"]
