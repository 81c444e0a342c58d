"""docs/make-your-own.md, followed as an instructor would: their own lecture file in English,
four colours of their own, twelve positions, chapters chosen and reordered (no quiz), the
light theme."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import av
import pytest

import render
from syllabus.locale import Words
from syllabus.plan import load_plan

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = ["colour_task", "scoring", "office"]
OWN_LINE = "Now a task of our own: can it learn whom to look at?"  # [words.en] in their file
OFFICE = """
[[task.office]]
id = "legal"
key = [-1.8, 1.0]
days = 12.0

[[task.office]]
id = "accountant"
key = [1.5, -1.2]
days = 4.0

[[task.office]]
id = "engineer"
key = [0.2, 1.6]
days = 2.0
"""
# Their own walkthrough: an English sentence of six words, three named dimensions.
SENTENCE = """
[task.walkthrough]
tokens = ["the", "kids", "drank", "cold", "milk", "happily"]
short = 3
dims = ["person", "drink", "food"]
x = [[0.1, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.2], [0.0, 0.0, 0.5], [0.0, 0.3, 1.0],
     [0.2, 0.0, 0.0]]
w_q = [[0.0, 1.0, 0.0], [1.5, 0.0, 0.5], [0.0, 1.0, 0.0]]
w_k = [[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 2.0]]
w_v = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
"""


def _edit(text: str, key: str, value: str) -> str:
    """Replace a top-level key's value, as an instructor edits the printed file (a key the
    file shows commented out, as an example, is uncommented)."""
    lines = text.splitlines()
    start = next(k for k, line in enumerate(lines) if line.lstrip("# ").startswith(f"{key} ="))
    end = start + 1
    if lines[start].rstrip().endswith("["):  # a list written over several lines
        end = next(k for k in range(start, len(lines)) if lines[k].startswith("]")) + 1
    return "\n".join([*lines[:start], f"{key} = {value}", *lines[end:]]) + "\n"


@pytest.mark.render
def test_the_guide_makes_an_instructors_lecture(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 0. Start from the built-in lecture file.
    assert render.main(["--print-config"]) == 0
    text = capsys.readouterr().out
    # 1-5. English, chosen chapters, four colours (no green), twelve positions, light, low.
    text = _edit(text, "languages", '["en"]')
    text = _edit(text, "chapters", str(CHAPTERS).replace("'", '"'))
    text = _edit(text, "theme", '"light"')
    text = _edit(text, "quality", '"low"')
    text = _edit(text, "voice", '"none"')  # silent: the voice has tests of its own
    text = _edit(text, "positions", "12")
    text = _edit(text, "colours", '["red", "blue", "purple", "yellow"]')
    text = text.replace("[task.examples]", '[task.examples]\nmine = "RRBBPPYYRBPY"')
    start, end = text.index("[task.walkthrough]"), text.index("[task.pronoun]")
    text = text[:start] + SENTENCE + "\n" + text[end:]  # their own sentence
    text = text[: text.index("[[task.office]]")] + OFFICE  # their own office: three people
    text += f"\n[words.en.colour_task]\nintro = {json.dumps(OWN_LINE)}\n"  # their own line
    mine = tmp_path / "my_lecture.toml"
    mine.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    result = subprocess.run(
        [sys.executable, str(ROOT / "render.py"), "--config", str(mine), "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    with av.open(str(out / "lecture.mp4")) as container:
        titles = [c["metadata"]["title"] for c in container.chapters()]
        assert container.streams.subtitles[0].metadata.get("language") == "eng"
        assert container.streams.video[0].height == 480
    assert titles == [Words(c.scene_key, "en")["title"] for c in load_plan(None, CHAPTERS)]
    # Every quality gate passes on these chapters, with this data, in this theme.
    # (the gate command takes their lecture file: its theme, chapters and own words)
    data = out / "data.json"
    command = [sys.executable, "-m", "scenes.gates", *CHAPTERS, "--lang", "en"]
    gates = subprocess.run(
        [*command, "--data", str(data), "--config", str(mine)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert gates.returncode == 0, gates.stdout[-3000:]
    written = json.loads(data.read_text(encoding="utf-8"))
    assert "mine" in written["config"]["examples"]
    assert written["office"]["people"] == ["legal", "accountant", "engineer"]
    walk = written["tokens"]["eat_apple"]
    assert walk["tokens"][walk["target"]] == "kids"  # "drank" looks most at its subject
    said = (out / "lecture.vtt").read_text(encoding="utf-8")
    assert "drank" in said and "kids" in said and "蘋果" not in said
    lines = json.loads((out / "segments" / "colour_task.lines.json").read_text(encoding="utf-8"))
    spoken = " ".join(line["text"] for line in lines["lines"])
    assert lines["lines"][1]["text"] == OWN_LINE  # after the part's entry line
    assert "which can be red, blue, purple or yellow" in spoken and "green" not in said  # theirs
