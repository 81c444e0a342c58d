"""A new chapter in one command (scripts/new_chapter.py), on a copy of the project: the
module, both locale tables and the plan entry are written, and the lecture lists it in its
place (its declarations and tables pass the lecture file's checks; the gate command's own
length rule is tests/test_gates.py's)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _copy_of_the_project(target: Path) -> Path:
    files = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    for name in filter(None, files):
        path = ROOT / name.decode()
        if path.is_file():
            (target / name.decode()).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target / name.decode())
    return target


@pytest.mark.render
def test_a_new_chapter_in_one_command(tmp_path: Path) -> None:
    project = _copy_of_the_project(tmp_path / "project")
    shutil.copy(ROOT / "scripts" / "new_chapter.py", project / "scripts")  # as in the tree

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, *args], cwd=project, capture_output=True, text=True)

    made = run("scripts/new_chapter.py", "my_scene", "--after", "qkv")
    assert made.returncode == 0, made.stderr
    assert "scenes.gates my_scene" in made.stdout  # what to run next
    assert (project / "scenes" / "chapters" / "my_scene.py").is_file()
    again = run("scripts/new_chapter.py", "my_scene")
    assert again.returncode == 2 and again.stderr.count("\n") == 1 and "exists" in again.stderr
    assert run("scripts/new_chapter.py", "../up").returncode == 2
    listed = run("render.py", "--list", "--lang", "en").stdout.splitlines()
    names = [line.split()[1] for line in listed if line[:3].strip().rstrip(".").isdigit()]
    assert names[names.index("qkv") + 1] == "my_scene"
    # The lecture file's checks read the new module's declarations and its new tables.
    assert listed and "my_scene" in " ".join(listed)
