"""Several languages in one run, and a language added with one locale table."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import av
import pytest

from syllabus.locale import LOCALE_DIR

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "scenes" / "chapters" / "template.py"


def _made_up_language(folder: Path) -> Path:
    """Esperanto for the template scene: the English table with its own meta and words."""
    text = (LOCALE_DIR / "en.toml").read_text(encoding="utf-8")
    table = tomllib.loads(text)
    assert table["meta"]["iso639_2"] == "eng" and table["template"]["title"]
    text = text.replace('name = "English"', 'name = "Esperanto"')
    text = text.replace('iso639_2 = "eng"', 'iso639_2 = "epo"')
    text = text.replace(f'title = "{table["template"]["title"]}"', 'title = "Nova sceno"', 1)
    folder.mkdir()
    (folder / "eo.toml").write_text(text, encoding="utf-8")
    return folder


@pytest.mark.render
def test_two_languages_one_of_them_new_render_in_one_run(tmp_path: Path, data_file: Path) -> None:
    plan = tmp_path / "plan.toml"
    plan.write_text(
        f'[[chapter]]\nscene = "template"\nfile = "{TEMPLATE}"\nclass = "TemplateScene"\n'
    )
    env = {**os.environ, "LECTURE_LOCALES": str(_made_up_language(tmp_path / "locales"))}
    out = tmp_path / "out"
    out.mkdir()
    shutil.copy(data_file, out / "data.json")  # current for the default lecture: no training
    command = [sys.executable, str(ROOT / "render.py"), "--plan", str(plan), "--out", str(out)]
    command += ["--voice", "none", "--lang", "zh-TW,eo", "--quality", "low"]

    def render() -> subprocess.CompletedProcess:
        return subprocess.run(
            command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=300
        )

    result = render()
    assert result.returncode == 0, result.stderr[-2000:]
    assert "training the model" not in result.stdout  # one data file for both languages
    for lang, track, title in (("zh-TW", "zho", "新場景的標題"), ("eo", "epo", "Nova sceno")):
        place = out if lang == "zh-TW" else out / lang  # the lecture file's first: out/ itself
        with av.open(str(place / "lecture.mp4")) as container:
            subtitles = container.streams.subtitles[0]
            assert subtitles.metadata.get("language") == track
            assert [c["metadata"]["title"] for c in container.chapters()] == [title]
        assert (place / "segments" / "template.srt").read_text(encoding="utf-8")
    assert not (out / "zh-TW").exists()  # one place per language, however many render
    # A lecture laid out the old way (every language in a folder of its own when several)
    # is moved into place, not rendered again.
    (out / "zh-TW").mkdir()
    for name in ("segments", "stills", "lecture.mp4", "lecture.json", "index.html"):
        (out / name).rename(out / "zh-TW" / name)
    again = render()
    assert again.returncode == 0, again.stderr[-2000:]
    assert f"moved the zh-TW lecture from {out / 'zh-TW'} to {out}" in again.stdout
    assert "0 to render" in again.stdout and (out / "segments" / "template.mp4").is_file()
    # The lecture file's languages swapped: the old first moves out of out/ before the new
    # first moves in, and nothing renders again.
    swapped = tmp_path / "swapped.toml"
    swapped.write_text('languages = ["eo", "zh-TW"]\n', encoding="utf-8")
    command[command.index("--lang") : command.index("--lang") + 2] = ["--config", str(swapped)]
    third = render()
    assert third.returncode == 0, third.stderr[-2000:]
    assert f"moved the zh-TW lecture from {out} to {out / 'zh-TW'}" in third.stdout
    assert f"moved the eo lecture from {out / 'eo'} to {out}" in third.stdout
    assert "0 to render" in third.stdout and not (out / "eo").exists()
