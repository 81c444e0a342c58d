"""Hostile and broken input to render.py: one line naming the file and what is wrong,
exit code 2, and the output folder exactly as it was. Run in-process (no Manim import)."""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import re
import shutil
import signal
import socket
import threading
import time
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import av
import numpy as np
import pytest
import srt
from hypothesis import example, given, settings
from hypothesis import strategies as st

import render
from common.files import OutsideFolderError, inside
from common.settings import VoiceSettings, tempsettings
from common.text import CONTROL_OR_NEWLINE, json_text
from common.voices import VoiceKind
from pipeline.assemble import SegmentFile, _chapters, _subtitle_packet, _titled
from pipeline.captions import Cue, chapter_stamp, to_chapter_list, to_srt, to_vtt
from pipeline.checks import disk_full
from pipeline.jobs import RenderTimes, drop_damaged
from pipeline.lock import FolderLock
from pipeline.options import UsageError, check_cluster, local_workers_bound, usable_cores
from pipeline.page import data_script, page_html
from pipeline.records import words_hash
from pipeline.segments import Segments
from pipeline.voicing import voice_record
from scenes.kit import subtitles
from scenes.kit.subtitles import limits_for, line_width, split_cues
from syllabus import locale
from syllabus.lecture_file import load_lecture
from syllabus.plan import load_plan
from syllabus.presets import PRESETS
from voice.clips import cached, write_wav
from voice.speech import en_integer, spoken

SCENES = Path(__file__).resolve().parent.parent / "scenes" / "chapters"
CHAPTER = '[[chapter]]\nscene = "{scene}"\nfile = "{file}"\nclass = "{cls}"\n'


def _plan(tmp: Path, scene: str = "office", file: str = "", cls: str = "OfficeAnalogy") -> Path:
    path = tmp / "plan.toml"
    path.write_text(
        CHAPTER.format(scene=scene, file=file or str(SCENES / "office.py"), cls=cls),
        encoding="utf-8",
    )
    return path


def _narrow_scene(tmp: Path) -> Path:
    """An instructor's scene whose layout holds only 4 positions (``max_positions``)."""
    return _file(
        tmp,
        "narrow.py",
        "from scenes.kit.base import LectureScene\n\n\n"
        "class Narrow(LectureScene):\n    scene_key = 'office'\n    max_positions = 4\n",
    )


def _file(tmp: Path, name: str, content: str | bytes | None) -> Path:
    path = tmp / name
    if content is None:
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _bad_reads_scene(tmp: Path) -> Path:
    return _file(
        tmp,
        "nosy.py",
        "from scenes.kit.base import LectureScene\n\n\n"
        "class Nosy(LectureScene):\n    scene_key = 'office'\n    reads = ('nope.part',)\n",
    )


def _lecture(content: str):
    """A case: a lecture file with ``content``, passed with --config."""
    return lambda t: ["--config", str(_file(t, "c.toml", content))]


def _walkthrough(**changes: str) -> str:
    """A valid 3-word walkthrough of width 2 as TOML, with ``changes`` to its keys."""
    keys = {
        "tokens": "['a', 'b', 'c']",
        "short": "2",
        "dims": "['one', 'two']",
        "x": "[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]",
        "w_q": "[[1.0, 0.0], [0.0, 1.0]]",
        "w_k": "[[1.0, 0.0], [0.0, 1.0]]",
        "w_v": "[[1.0, 0.0], [0.0, 1.0]]",
    } | changes
    return "[task.walkthrough]\n" + "\n".join(f"{k} = {v}" for k, v in keys.items())


def _own_walkthrough(lang: str) -> str:
    """The valid walkthrough above as ``lang``'s own sentence."""
    return _walkthrough().replace("[task.walkthrough]", f'[task.walkthroughs."{lang}"]')


CASES = {
    "own sentence of an unknown language": (
        _lecture(_own_walkthrough("xx")),
        "'task.walkthroughs.xx': no language 'xx' (allowed: en, zh-TW)",
    ),
    "own sentence's language is a path": (
        _lecture(_own_walkthrough("../en")),
        "'task.walkthroughs' '../en' is not a language code",
    ),
    "own sentence without the sense the why chapter needs": (
        _lecture("languages = ['en']\nchapters = ['why']\n" + _own_walkthrough("en")),
        "'task.walkthroughs.en.other_sense' is missing: the chapter 'why' needs it",
    ),
    "unknown voice engine": (lambda t: ["--voice", "loud"], "invalid choice: 'loud'"),
    "voice engine in the file": (_lecture('voice = "loud"'), "'voice' is 'loud' (allowed: kokoro"),
    "unknown Kokoro voice": (
        _lecture('[voices.zh-TW]\nname = "zf_nobody"\nspeed = 1.0'),
        "'voices.zh-TW.name' is 'zf_nobody' (allowed: af_alloy",
    ),
    "Kokoro speed": (_lecture('[voices.en]\nname = "af_heart"\nspeed = 5'), "voices.en.speed"),
    # flags
    "unknown language": (lambda t: ["--lang", "xx"], "unknown language 'xx'"),
    "a language that is a path": (lambda t: ["--lang", "../en"], "unknown language '../en'"),
    "a language that is the parent": (lambda t: ["--lang", ".."], "unknown language '..'"),
    "no jobs": (lambda t: ["--jobs", "0"], "--jobs must be at least 1"),
    "silly fps": (lambda t: ["--fps", "500"], "--fps must be between 1 and 120"),
    "unknown quality": (lambda t: ["--quality", "ultra"], "invalid choice: 'ultra'"),
    "unknown scene": (lambda t: ["--scenes", "nope"], "unknown scene 'nope'"),
    "a scene the lecture file leaves out": (
        lambda t: [*_lecture("chapters = ['why']")(t), "--scenes", "office"],
        "scene 'office' is not in this lecture: add it to 'chapters' in the lecture file",
    ),
    "a misspelt key of a person": (
        _lecture(
            "[[task.office]]\nid = 'legal'\nkey = [1.0, 1.0]\ndayz = 3.0\n"
            "[[task.office]]\nid = 'hr'\nkey = [0.0, 1.0]\ndays = 3.0\n"
        ),
        "'dayz' is not allowed here",
    ),
    # lecture files
    "binary lecture file": (
        lambda t: ["--config", str(_file(t, "c.toml", b"\x00\xff\xfe"))],
        "is not UTF-8 text",
    ),
    "latin-1 lecture file": (
        lambda t: ["--config", str(_file(t, "c.toml", "theme = 'dark' # café".encode("latin-1")))],
        "is not UTF-8 text",
    ),
    "lecture file is a folder": (
        lambda t: ["--config", str(_file(t, "c.toml", None))],
        "is a folder, not a file",
    ),
    "missing lecture file": (lambda t: ["--config", str(t / "none.toml")], "not found"),
    "lecture file is a pipe": (
        lambda t: ["--config", str(_fifo(t / "c.toml"))],
        "c.toml is not a regular file",
    ),
    "lecture file nested too deep": (
        _lecture("a = " + "[" * 5000 + "]" * 5000),
        "is nested too deep to be one",
    ),
    "a language in the file that is a path": (
        _lecture("languages = ['..']"),
        "'languages' is '..' (allowed: en, zh-TW)",
    ),
    # a chapter's own voice
    "a voice for no chapter of the lecture": (
        _lecture("chapters = ['office']\n[chapter_voices]\nqkv = 'none'"),
        "'chapter_voices.qkv': no chapter 'qkv' in this lecture (allowed: office)",
    ),
    "a chapter voice that is none": (
        _lecture("[chapter_voices]\noffice = 'loud'"),
        "'chapter_voices.office' is 'loud' (allowed: recorded, kokoro, espeak, none)",
    ),
    "a chapter of recordings with none given": (
        _lecture("[chapter_voices]\noffice = 'recorded'"),
        "'chapter_voices.office' is 'recorded': render with --narration FOLDER",
    ),
    # the lecture file's own words
    "own words for no language": (
        _lecture("[words.fr.office]\nlegal = 'x'"),
        "'words.fr': no language 'fr' (allowed: en, zh-TW)",
    ),
    "own words for no table": (
        _lecture("[words.en.offfice]\nlegal = 'x'"),
        "'words.en.offfice':",
    ),
    "own words for no key": (
        _lecture("[words.en.office]\nlegall = 'x'"),
        "'words.en.office.legall': [office] has no key 'legall' (allowed: ",
    ),
    "own words of the wrong kind": (
        _lecture("[words.en.training]\nrun = 5"),
        "'words.en.training.run' must be text",
    ),
    "own words with a placeholder the scene does not fill": (
        _lecture("[words.en.training]\nrun = 'Adam took {ms} ms.'"),
        "'words.en.training.run': placeholder 'ms' is not one the scene fills (it fills: steps)",
    ),
    "own words with a placeholder that is not plain": (
        _lecture("[words.en.training]\nrun = 'Adam took {steps[0]} steps.'"),
        "placeholder '{steps[0]}' is not allowed",
    ),
    "own words that are not a table": (
        _lecture("[words.en]\ntraining = 'x'"),
        "'words.en.training'",
    ),
    "a folder of own words that is not there": (
        _lecture("locales = ['nope']"),
        "'locales[0]' is 'nope': no such folder",
    ),
    "unknown key": (_lecture("colour = 'red'"), "unknown key 'colour' (allowed: chapters,"),
    "wrong type": (_lecture("languages = 'en'"), "'languages' must be a list, got 'en'"),
    "no languages": (_lecture("languages = []"), "'languages' is empty"),
    "language without a locale": (
        _lecture("languages = ['fr']"),
        "'languages' is 'fr' (allowed: en, zh-TW)",
    ),
    "language twice": (_lecture("languages = ['en', 'en']"), "'languages' lists 'en' twice"),
    "unknown theme": (_lecture("theme = 'neon'"), "'theme' is 'neon' (allowed: dark, light)"),
    "quality not a preset": (_lecture("quality = 'ultra'"), "'quality' is 'ultra' (allowed: low,"),
    "unknown chapter": (_lecture("chapters = ['office', 'nope']"), "no chapter 'nope'"),
    "chapter twice": (
        _lecture("chapters = ['office', 'office']"),
        "the chapter 'office' is listed twice",
    ),
    "no chapters": (_lecture("chapters = []"), "'chapters' is empty"),
    "model key at the top": (_lecture("seed = 3"), "'seed' belongs under [task] now"),
    "too few positions": (_lecture("[task]\npositions = 1"), "'task.positions' must be at least 2"),
    "too many positions": (
        _lecture("[task]\npositions = 17"),
        "'task.positions' must be at most 16",
    ),
    "a colleague outside the room": (
        _lecture(
            "[[task.office]]\nid = 'accountant'\nkey = [5.0, 0.0]\ndays = 5.0\n"
            "[[task.office]]\nid = 'engineer'\nkey = [0.0, 1.0]\ndays = 1.0"
        ),
        "'task.office' person 1: 'key' must stand in the room",
    ),
    "a colleague with no name": (
        _lecture(
            "[[task.office]]\nid = 'cfo'\nkey = [1.0, 0.0]\ndays = 5.0\n"
            "[[task.office]]\nid = 'engineer'\nkey = [0.0, 1.0]\ndays = 1.0"
        ),
        "'task.office' person 1: 'cfo' has no name in",
    ),
    "colours of numbers": (
        _lecture("[task]\ncolours = [1, 2, 3]"),
        "'task.colours' must be a list of colour names",
    ),
    "a colour that is not one": (
        _lecture("[task]\ncolours = ['red', 'green', 'teal']"),
        "'task.colours' is 'teal' (allowed: red, green, blue, purple, yellow)",
    ),
    "seed too large": (
        _lecture("[task]\nseed = 4294967296"),
        "'task.seed' must be at most 4294967295",
    ),
    "unknown task key": (_lecture("[task]\nstepz = 3"), "unknown key 'task.stepz'"),
    "√d widths not increasing": (
        _lecture("[task]\nsqrt_d_dims = [8, 4]"),
        "'task.sqrt_d_dims' must be at least 2 increasing whole numbers",
    ),
    # the hand-made sentences
    "an empty sentence": (
        _lecture(_walkthrough(tokens="[]")),
        "'task.walkthrough.tokens' must have 3 to 9 words, got 0",
    ),
    "a one-word pronoun sentence": (
        _lecture(
            "[task.pronoun]\ntokens = ['it']\nquery = 0\ndims = ['a', 'b']\n"
            "q = [[1.0, 0.0]]\nk = [[1.0, 0.0]]"
        ),
        "'task.pronoun.tokens' must have 2 to 9 words, got 1",
    ),
    "a vector of the wrong width": (
        _lecture(_walkthrough(x="[[1.0, 0.0], [0.0, 1.0, 0.5], [1.0, 1.0]]")),
        "'task.walkthrough.x[1]' has 3 numbers, expected 2",
    ),
    "a word of the page's table of the wrong width": (
        _lecture(_walkthrough(vocabulary="{ tea = [1.0, 0.0, 0.5] }")),
        "'task.walkthrough.vocabulary.tea' has 3 numbers, expected 2",
    ),
    "W_Q of the wrong size": (
        _lecture(_walkthrough(w_q="[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]")),
        "'task.walkthrough.w_q' must be a 2x2 matrix",
    ),
    "no word after the one that asks": (
        _lecture(_walkthrough(short="3")),
        "'task.walkthrough.short' must be below the 3 words",
    ),
    "dimensions unnamed in a language shown": (
        _lecture(
            "languages = ['en']\nchapters = ['qkv']\n"
            + _walkthrough(dims="{ 'zh-TW' = ['a', 'b'] }")
        ),
        "'task.walkthrough.dims' has no names in 'en'",
    ),
    "a word in the vectors is a number": (
        _lecture(_walkthrough(x="[[1.0, 0.0], [0.0, 'one'], [1.0, 1.0]]")),
        "'task.walkthrough.x[1][1]' must be a number",
    ),
    "why without the other sense": (
        _lecture("chapters = ['why']\n" + _walkthrough()),
        "'task.walkthrough.other_sense' is missing: the chapter 'why' needs it",
    ),
    "the other sense points at another word": (
        _lecture(
            "chapters = ['why']\n" + _walkthrough() + "\n[task.walkthrough.other_sense]\n"
            "tokens = ['a', 'c']\nword = 0\nmeans = ['x', 'y']"
        ),
        "'task.walkthrough.other_sense.word' must point at the asking word 'b', found 'a'",
    ),
    "the shared word glossed twice": (
        _lecture(
            "chapters = ['why']\n"
            + _walkthrough(gloss="['a', 'mouse', 'c']")
            + "\n[task.walkthrough.other_sense]\n"
            "tokens = ['b', 'c']\ngloss = ['rat', 'c']\nword = 0\nmeans = ['x', 'y']"
        ),
        "'task.walkthrough.other_sense.gloss[0]' is 'rat', but the word both sentences share is "
        "glossed 'mouse'",
    ),
    "a pronoun outside its sentence": (
        _lecture(
            "[task.pronoun]\ntokens = ['a', 'b']\nquery = 2\ndims = ['a', 'b']\n"
            "q = [[1.0, 0.0], [0.0, 1.0]]\nk = [[1.0, 0.0], [0.0, 1.0]]"
        ),
        "'task.pronoun.query' must be below 2",
    ),
    # plans
    "binary plan": (lambda t: ["--plan", str(_file(t, "p.toml", b"\x89PNG\x00"))], "UTF-8"),
    "plan is a folder": (
        lambda t: ["--plan", str(_file(t, "p.toml", None))],
        "is a folder, not a file",
    ),
    "plan is a pipe": (
        lambda t: ["--plan", str(_fifo(t / "p.toml"))],
        "p.toml is not a regular file",
    ),
    "plan not TOML": (lambda t: ["--plan", str(_file(t, "p.toml", "[[chapter"))], "not valid TOML"),
    "empty plan": (lambda t: ["--plan", str(_file(t, "p.toml", ""))], "'chapter' is missing"),
    "scene name escapes": (
        lambda t: ["--plan", str(_plan(t, scene="../data"))],
        "'chapter[0].scene' String should match pattern",
    ),
    "unknown class": (
        lambda t: ["--plan", str(_plan(t, cls="Nope"))],
        "scene 'office': ",
    ),
    "missing scene file": (
        lambda t: ["--plan", str(_plan(t, file=str(t / "none.py")))],
        "not found",
    ),
    "unknown reads path": (
        lambda t: ["--plan", str(_plan(t, file=str(_bad_reads_scene(t)), cls="Nosy"))],
        "reads 'nope.part', which is no part of the data file",
    ),
    "more positions than a scene's layout holds": (
        lambda t: ["--plan", str(_plan(t, file=str(_narrow_scene(t)), cls="Narrow"))],
        "'office' is laid out for at most 4 positions, and 'task.positions' is 8",
    ),
    "plan nested too deep": (
        lambda t: ["--plan", str(_file(t, "p.toml", "a = " + "[" * 5000 + "]" * 5000))],
        "is nested too deep to be one",
    ),
    "a scene file in Latin-1": (
        lambda t: ["--plan", str(_plan(t, file=str(_file(t, "s.py", "# café".encode("latin-1")))))],
        "not UTF-8 text (save the scene as UTF-8)",
    ),
    "a scene file that is a folder": (
        lambda t: ["--plan", str(_plan(t, file=str(_file(t, "s.py", None))))],
        "s.py is a folder, not a scene file",
    ),
    "old title key": (
        lambda t: ["--plan", str(_file(t, "p.toml", 'title = 1\n[[chapter]]\ntitle = "x"'))],
        "chapter titles live in the locale tables",
    ),
}


def _narration(tmp: Path, manifest: str | bytes | None, **recordings: str | bytes | None):
    """A case: --narration with a folder holding ``manifest`` as narration.json (None: a
    pipe) and ``recordings`` (name with '__' for '/': content; None: a folder; b'fifo': a
    pipe; b'loop': a link to itself), said by no voice."""
    folder = tmp / "rec"
    folder.mkdir()
    if manifest is None:
        os.mkfifo(folder / "narration.json")
    elif manifest != "absent":
        _file(folder, "narration.json", manifest)
    for name, content in recordings.items():
        path = folder / name.replace("__", "/")
        path.parent.mkdir(parents=True, exist_ok=True)
        if content == b"fifo":
            os.mkfifo(path)
        elif content == b"loop":
            path.symlink_to(path.name)
        else:
            _file(path.parent, path.name, content)
    return ["--narration", str(folder), "--voice", "none", "--scenes", "office"]


def _listing(*files: str, scene: str = "office") -> str:
    lines = [{"scene": scene, "file": f, "text": "a line"} for f in files]
    return json.dumps({"lang": "zh-TW", "lines": lines})


CASES |= {
    "a folder where the data file goes": (
        lambda t: (t / "out" / "data.json").mkdir() or [],
        "data.json is a folder: remove it",
    ),
    # recordings: checked before the output folder is made, never a pipe read
    "no narration folder": (
        lambda t: ["--narration", str(t / "none"), "--voice", "none"],
        "no such folder",
    ),
    "no narration list": (
        lambda t: _narration(t, "absent"),
        "narration.json not found: write the script first",
    ),
    "a narration list that is not JSON": (
        lambda t: _narration(t, "{lines"),
        "not a narration list",
    ),
    "a narration list of the wrong shape": (
        lambda t: _narration(t, "[1, 2]"),
        "not a narration list",
    ),
    "a narration list in Latin-1": (
        lambda t: _narration(t, '{"lang": "caf\xe9"}'.encode("latin-1")),
        "not UTF-8 text",
    ),
    "a narration list that is a pipe": (
        lambda t: _narration(t, None),
        "not a regular file",
    ),
    "a recording path out of its folder": (
        lambda t: _narration(t, _listing("../outside")),
        "'lines[0].file' String should match pattern",
    ),
    "a recording path that is absolute": (
        lambda t: _narration(t, _listing("/etc/01-passwd")),
        "'lines[0].file' String should match pattern",
    ),
    "a scene name with a slash in the list": (
        lambda t: _narration(t, _listing("office/01-intro", scene="../office")),
        "'lines[0].scene' String should match pattern",
    ),
    "a recording that is a pipe": (
        lambda t: _narration(t, _listing("office/01-intro"), **{"office__01-intro.wav": b"fifo"}),
        "01-intro.wav: is not a regular file, not a recording",
    ),
    "a recording that is a loop of links": (
        lambda t: _narration(t, _listing("office/01-intro"), **{"office__01-intro.wav": b"loop"}),
        "01-intro.wav: is a link to nothing, or a loop of links, not a recording",
    ),
    "a scene's folder that is a file": (
        lambda t: _narration(t, _listing("office/01-intro"), office=b"not a folder"),
        "office: is not a folder (the scene's recordings go in one)",
    ),
    "a recording that is a folder": (
        lambda t: _narration(t, _listing("office/01-intro"), **{"office__01-intro.wav": None}),
        "01-intro.wav: is a folder, not a recording",
    ),
    "a recording that is not audio": (
        lambda t: _narration(
            t, _listing("office/01-intro"), **{"office__01-intro.wav": b"RIFF\x00nothing"}
        ),
        "cannot be read as audio",
    ),
    "a recording not made, in a chapter of recordings only": (
        lambda t: [
            *_narration(t, _listing("office/01-intro"))[:2],
            *_lecture("[chapter_voices]\noffice = 'recorded'")(t),
        ],
        "1 recording(s) missing: office/01-intro.wav",
    ),
    "a recording not made, with no voice": (
        lambda t: _narration(t, _listing("office/01-intro")),
        "1 recording(s) missing: office/01-intro.wav",
    ),
}


def _snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    if not folder.exists():
        return {}
    return {
        str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in folder.rglob("*")
    }


def _refused(make_args, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """render.py with ``make_args(tmp_path)``: exit 2, one line, the output folder (an
    earlier run's file in it) exactly as it was; the line."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("an earlier run's file")
    args = make_args(tmp_path)
    before = _snapshot(out)
    code = render.main([*args, "--out", str(out), "--quality", "low"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("render.py: error:"), err
    assert _snapshot(out) == before
    return err


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_bad_input_is_one_line_exit_2_and_nothing_written(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_args, message = CASES[case]
    err = _refused(make_args, tmp_path, capsys)
    assert message in err, err


def test_a_rejected_config_creates_no_output_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = _file(tmp_path, "c.toml", "[task]\npositions = 99")
    out = tmp_path / "never"
    assert render.main(["--config", str(config), "--out", str(out)]) == 2
    assert "'task.positions' must be at most 16" in capsys.readouterr().err
    assert not out.exists()


def test_broken_locale_table_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "locales"
    shutil.copytree(locale.LOCALE_DIR, folder)
    (folder / "zh-TW.toml").write_text("[office\ntitle = 'x'\n", encoding="utf-8")
    monkeypatch.setattr(locale, "LOCALE_DIR", folder)
    locale.clear_cache()
    try:
        assert render.main(["--list", "--out", str(tmp_path / "out")]) == 2
    finally:
        locale.clear_cache()
    err = capsys.readouterr().err
    assert "zh-TW.toml is not valid TOML" in err and err.count("\n") == 1


def test_a_placeholder_the_scene_does_not_fill_is_named() -> None:
    words = locale.Words("attention_map", "en")
    with pytest.raises(locale.LocaleError) as err:
        words.format("row", row=1, k=3)  # 'weight' is missing
    text = str(err.value)
    assert "[attention_map] row: placeholder 'weight'" in text and "it fills: k, row" in text


def test_a_locked_folder_is_refused_with_the_holder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    with FolderLock(out):
        assert render.main(["--out", str(out), "--quality", "low"]) == 2
    err = capsys.readouterr().err
    assert "is in use by another render.py (pid " in err and "--wait" in err


@pytest.mark.parametrize(
    "damage",
    [b'{"schema_version": 4, "conf', b'"x"', None, "fifo", b"[" * 100_000 + b"]" * 100_000],
    ids=["truncated", "string", "dir", "pipe", "nested too deep"],
)
def test_list_with_a_damaged_data_file_says_what_a_render_would_do(
    tmp_path: Path, damage: bytes | None, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    if damage == "fifo":
        _fifo(out / "data.json")
    else:
        _file(out, "data.json", damage)
    assert render.main(["--list", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "a render re-makes it first" in printed and " missing " in printed


def test_list_follows_the_config(
    tmp_path: Path, data_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    shutil.copy(data_file, out / "data.json")
    render.main(["--list", "--out", str(out)])
    assert "re-makes it" not in capsys.readouterr().out
    config = _file(tmp_path, "c.toml", "[task]\nseed = 7")
    render.main(["--list", "--out", str(out), "--config", str(config)])
    assert "re-makes it" in capsys.readouterr().out


# An instructor's own language, "xx": the English table with one change (old -> new).
EN = (locale.LOCALE_DIR / "en.toml").read_text(encoding="utf-8")
RUN_LINE = 'run = "Adam took {steps} steps.'
LOCALE_CASES = {
    "an index in a placeholder": (
        (RUN_LINE, RUN_LINE.replace("{steps}", "{steps[0]}")),
        "placeholder '{steps[0]}' is not allowed",
    ),
    "an attribute in a placeholder": (
        (RUN_LINE, RUN_LINE.replace("{steps}", "{steps.real}")),
        "placeholder '{steps.real}' is not allowed",
    ),
    "a conversion in a placeholder": (
        (RUN_LINE, RUN_LINE.replace("{steps}", "{steps!r}")),
        "placeholder '{steps!r}' is not allowed",
    ),
    "a format in a placeholder": (
        (RUN_LINE, RUN_LINE.replace("{steps}", "{steps:>9}")),
        "placeholder '{steps:>9}' is not allowed",
    ),
    "a placeholder the scene does not fill": (
        (RUN_LINE, RUN_LINE.replace("{steps}", "{ms}")),
        "[training] run: placeholder 'ms' is not one the scene fills (it fills: steps)",
    ),
    "a lone brace": ((RUN_LINE, RUN_LINE.replace("{steps}", "{steps")), "write {{ and }}"),
    "a title that is a number": (
        ('title = "Training: the loss curve and validation"', "title = 5"),
        "[training] title must be text",
    ),
    "a line that is a list": (
        ('outro = "It learned.', 'outro = ["It learned."]\noutro_ = "'),
        "[training] outro must be text",
    ),
    "a missing line": (
        ('outro = "It learned.', 'outro_renamed = "It learned.'),
        "has no key 'outro'",
    ),
    "a missing scene table": (("[training]", "[trainingz]"), "no table [training]"),
    "a missing shared table": (("[colours]", "[colourz]"), "table [colours] is missing"),
    "a missing meta table": (("[meta]", "[metaz]"), "table [meta] is missing"),
    "not TOML": (("[training]", "[training"), "not valid TOML"),
    "nested too deep": (("[meta]", "deep = " + "[" * 3000 + "]" * 3000 + "\n[meta]"), "too deep"),
    "not UTF-8": (("[meta]", "# caf\udce9\n[meta]"), "not UTF-8 text"),
}


@pytest.fixture
def own_locales(tmp_path: Path) -> Iterator[Path]:
    """A folder of an instructor's own locale tables, in force, the tables read afresh."""
    folder = tmp_path / "locales"
    folder.mkdir()
    locale.clear_cache()
    with tempsettings(locales=(folder,)):
        yield folder
    locale.clear_cache()


@pytest.mark.parametrize("case", list(LOCALE_CASES), ids=list(LOCALE_CASES))
def test_a_bad_locale_table_is_one_line_before_anything_runs(
    case: str, own_locales: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (old, new), message = LOCALE_CASES[case]
    assert old in EN
    text = EN.replace(old, new, 1).replace('name = "English"', 'name = "Xx"')
    (own_locales / "xx.toml").write_bytes(text.encode("utf-8", "surrogateescape"))
    out = tmp_path / "out"
    code = render.main(["--lang", "xx", "--out", str(out), "--quality", "low", "--voice", "none"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and message in err and "xx.toml" in err, err
    assert not out.exists()  # nothing trained, nothing made


def test_a_locale_file_named_like_no_language_is_none(
    own_locales: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``...toml`` would be the language ``..``: out/.. is the parent of the output."""
    (own_locales / "...toml").write_text(EN, encoding="utf-8")
    assert ".." not in locale.available_languages()
    assert render.main(["--lang", "..", "--out", str(tmp_path / "out")]) == 2
    assert "unknown language '..'" in capsys.readouterr().err


def test_the_built_in_languages_pass_the_table_check() -> None:
    locale.check_tables(["zh-TW", "en"], [c.scene_key for c in load_plan()])


def test_only_plain_placeholders_are_filled() -> None:
    words = locale.Words("training", "en")
    assert "3 steps" in words.format("run", steps=3)
    with pytest.raises(locale.LocaleError, match="is not allowed"):
        locale.placeholders("{steps[0]} and {x}", "here")
    assert locale.placeholders("{{steps}} and {x}", "here") == {"x"}


@pytest.mark.parametrize(
    "text",
    ["W" * 43, "See https://example.com/a/very/long/path/that/goes/on/and/on/index.html now."],
    ids=["a long word", "a URL"],
)
def test_a_word_longer_than_a_line_breaks(text: str) -> None:
    cues = split_cues(text, "en")
    width = limits_for("en").chars_per_line
    assert all(line_width(line, "en") <= width for cue in cues for line in cue.split("\n"))
    assert "".join(cues).replace("\n", "").replace(" ", "") == text.replace(" ", "")


def test_an_arrow_or_newline_in_a_line_cannot_break_a_subtitle_file() -> None:
    cues = split_cues("first\n\nsecond --> third", "en")
    assert cues == ["first second → third"]
    vtt = to_vtt([Cue(0.0, 1.0, "a --> b\n\nc")])
    blocks = vtt.split("\n\n")[1:]
    assert len(blocks) == 1 and blocks[0].count("-->") == 1, vtt
    assert "\n\n" not in to_srt([Cue(0.0, 1.0, "a\n\nb")]).strip()


def test_a_narration_error_leaves_no_output_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "never"
    assert render.main([*_narration(tmp_path, "{"), "--out", str(out)]) == 2
    assert "not a narration list" in capsys.readouterr().err
    assert not out.exists()


def test_a_segment_cut_short_is_not_current(tmp_path: Path, data_copy: dict) -> None:
    chapter = load_plan()[0]
    segments = Segments(tmp_path, data_copy, "en", PRESETS["low"], "dark")
    made = tmp_path / "made.mp4"
    made.write_bytes(b"\0" * 4096)
    segments.install(chapter, made, made)
    assert segments.state(chapter) == "current"
    video = segments.paths(chapter)[0]
    with video.open("r+b") as file:
        file.truncate(1000)
    assert segments.state(chapter) == "stale"


def test_a_damaged_cache_is_made_again(tmp_path: Path) -> None:
    tex = tmp_path / ".cache" / "tex"
    tex.mkdir(parents=True)
    (tex / "whole.svg").write_text("<svg>\n</svg>\n")
    (tex / "cut.svg").write_text("<svg><path d='M 0")
    os.mkfifo(tex / "pipe.svg")
    assert sorted(p.name for p in drop_damaged(tmp_path / ".cache")) == ["cut.svg", "pipe.svg"]
    assert [p.name for p in tex.iterdir()] == ["whole.svg"]
    clip = tmp_path / "clip.wav"
    write_wav(clip, np.full(4800, 0.1))
    assert cached(clip)
    clip.write_bytes(clip.read_bytes()[:2000])
    assert not cached(clip)
    times = tmp_path / ".cache" / "render-seconds.json"
    times.write_bytes(b"\xff\xfe")
    assert RenderTimes.in_folder(times.parent).seconds == {}


def test_a_pipe_named_like_a_recording_is_never_read(tmp_path: Path) -> None:
    folder = tmp_path / "rec" / "office"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "01-intro.wav")
    voice = VoiceSettings(None, "cmn", 1.0, str(tmp_path / "rec"), str(tmp_path / "cache"))
    signal.alarm(10)  # a read would block for ever
    try:
        record = voice_record(voice, load_plan()[3])
    finally:
        signal.alarm(0)
    assert record.recordings == {}


def test_a_full_disk_is_named(tmp_path: Path) -> None:
    said = disk_full(tmp_path, ["OSError: [Errno 28] No space left on device"])
    assert said and "is full" in said and "run again" in said
    assert disk_full(tmp_path, ["ValueError: a scene's own bug"]) is None
    assert disk_full(tmp_path, []) is None


def test_a_path_made_from_input_stays_in_its_folder(tmp_path: Path) -> None:
    assert inside(tmp_path, "office", "01-intro.wav") == tmp_path / "office" / "01-intro.wav"
    for name in ("..", "../x", "/etc/passwd", "a/../../b"):
        with pytest.raises(OutsideFolderError, match="leads out of"):
            inside(tmp_path, name)


def test_the_lecture_files_own_words_are_merged_over_the_built_in_ones(tmp_path: Path) -> None:
    """One file, as promised: a reworded line and a name in the lecture file, and a folder of
    an instructor's own words that it names, each merged over the built-in tables, and part
    of the segment's record (so the chapters that say them render again)."""
    own = tmp_path / "mine"
    own.mkdir()
    (own / "en.toml").write_text('[office]\nlegal = "Lee (legal)"\n', encoding="utf-8")
    lecture = _file(
        tmp_path,
        "c.toml",
        "locales = ['mine']\n[words.en.training]\noutro = 'It learned, and so can you.'\n",
    )
    chapters = {c.name: c for c in load_plan()}
    # qkv opens on the office's last picture (its names too); causal shows none of these
    names = ("training", "office", "qkv", "causal")
    before = [words_hash(chapters[name], "en") for name in names]
    loaded = load_lecture(lecture, languages=["en"])
    with tempsettings(**loaded.overlay):
        assert locale.Words("training", "en")["outro"] == "It learned, and so can you."
        assert locale.Words("training", "en")["intro"].startswith("This is the model")
        assert locale.Words("office", "en")["legal"] == "Lee (legal)"
        after = [words_hash(chapters[name], "en") for name in names]
    assert [a != b for a, b in zip(before, after, strict=True)] == [True, True, True, False]
    assert locale.Words("training", "en")["outro"] != "It learned, and so can you."


# --- issue 46: the recorder (render.py --record) as a web server any page could reach ---


def _tone(seconds: float, fmt: str = "wav", claim: int | None = None) -> bytes:
    """``seconds`` of a quiet tone encoded as ``fmt`` in memory; a FLAC's header may
    ``claim`` another length in samples (0: unknown), as a hostile file's does."""
    import io

    import av

    from voice.audio import SAMPLE_RATE, encode_samples

    samples = (0.3 * np.sin(np.arange(int(seconds * SAMPLE_RATE)) / 8)).astype(np.float32)
    buffer = io.BytesIO()
    with av.open(buffer, "w", format=fmt) as out:
        codec = {"wav": "pcm_s16le", "flac": "flac", "au": "pcm_s16be"}[fmt]
        encode_samples(samples, out.add_stream(codec, rate=SAMPLE_RATE, layout="mono"), out, 4096)
    data = bytearray(buffer.getvalue())
    if claim is not None:  # STREAMINFO's total samples: the low 36 bits of its bytes 10..17
        at = data.index(b"fLaC") + 8 + 10
        head = int.from_bytes(data[at : at + 8], "big") & ~(2**36 - 1)
        data[at : at + 8] = (head | claim).to_bytes(8, "big")
        data[at + 8 : at + 24] = bytes(16)  # its MD5 unknown, as an encoder may leave it
    return bytes(data)


@pytest.fixture
def recorder(tmp_path: Path) -> Iterator:
    """The recorder of a two-line script, served in-process on a free port."""
    import threading

    from common.files import NarrationFile, ScriptLine
    from pipeline.recorder import serve

    folder = tmp_path / "rec"
    lines = [ScriptLine(scene="office", file=f"office/0{k}-line", text=f"line {k}") for k in (1, 2)]
    NarrationFile(lang="en", lines=lines).write(folder / NarrationFile.NAME)
    server = serve(folder, "en", 0, read_timeout=0.3)
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _ask(
    server, method: str, path: str, body: bytes = b"", headers: dict | None = None
) -> tuple[int, str]:
    """One request with http.client, its headers exactly ``headers`` (Host and a POST's
    Content-Length unless given; None: not sent), and the answer's status and body."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", server.server_port, timeout=5)
    headers = {"Host": f"127.0.0.1:{server.server_port}", **(headers or {})}
    if method == "POST" and "Transfer-Encoding" not in headers:
        headers = {"Content-Length": str(len(body)), **headers}
    connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    for name, value in headers.items():
        for each in value if isinstance(value, list) else [value]:  # a list: sent repeated
            if each is not None:
                connection.putheader(name, each)
    connection.endheaders(body or None)
    answer = connection.getresponse()
    text = answer.read().decode()
    connection.close()
    return answer.status, text


TAKE = "take/office/01-line"
RECORDER_CASES = {  # name: (method, path after the host ('T/': the token's), headers, body, status)
    "no token": ("GET", "/", {}, b"", 403),
    "a wrong token": ("GET", "/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/", {}, b"", 403),
    "a take with no token": ("POST", f"/{TAKE}", {}, b"RIFF", 403),
    "a rebound DNS name (Host)": ("GET", "T/", {"Host": "evil.example:{port}"}, b"", 403),
    "another port in Host": ("GET", "T/", {"Host": "127.0.0.1:1"}, b"", 403),
    "a cross-site take": ("POST", f"T/{TAKE}", {"Origin": "http://evil.example"}, b"TONE", 403),
    "a take too short to hold a line": ("POST", f"T/{TAKE}", {}, b"SHORT", 422),
    "Host twice": ("GET", "T/", {"Host": ["127.0.0.1:{port}", "evil.example"]}, b"", 400),
    "Origin twice": (
        "POST",
        f"T/{TAKE}",
        {"Origin": ["http://127.0.0.1:{port}", "http://evil.example"]},
        b"TONE",
        400,
    ),
    "a take from a sandboxed frame": ("POST", f"T/{TAKE}", {"Origin": "null"}, b"TONE", 403),
    "Content-Length: abc": ("POST", f"T/{TAKE}", {"Content-Length": "abc"}, b"", 400),
    "Content-Length: -1": ("POST", f"T/{TAKE}", {"Content-Length": "-1"}, b"", 400),
    "no Content-Length": ("POST", f"T/{TAKE}", {"Content-Length": None}, b"", 411),
    "chunks, no length": ("POST", f"T/{TAKE}", {"Transfer-Encoding": "chunked"}, b"0\r\n\r\n", 411),
    "an empty take": ("POST", f"T/{TAKE}", {}, b"", 400),
    "a take of 1 GB": ("POST", f"T/{TAKE}", {"Content-Length": str(10**9)}, b"", 413),
    "a take that stalls": ("POST", f"T/{TAKE}", {"Content-Length": "100"}, b"RIFF", 408),
    "a take that is not audio": ("POST", f"T/{TAKE}", {}, b"RIFF\x00\x00\x00\x00WAVEjunk", 422),
    "an HLS playlist as a take": ("POST", f"T/{TAKE}", {}, b"#EXTM3U\nfile:///etc/passwd\n", 422),
    "a take in a container no browser writes (AU)": ("POST", f"T/{TAKE}", {}, b"AU", 422),
    "a line not in the script": ("POST", "T/take/office/09-none", {}, b"TONE", 404),
    "a path out of the folder": ("POST", "T/take/..%2F..%2Foutside", {}, b"TONE", 404),
    "a 30-minute FLAC of 16 KB": ("POST", f"T/{TAKE}", {}, b"FLAC30", 413),
}


@pytest.mark.parametrize("case", list(RECORDER_CASES), ids=list(RECORDER_CASES))
def test_the_recorder_refuses_with_an_answer_and_one_line(
    case: str, recorder, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each refusal is an HTTP error and one line on the server's stderr (no traceback,
    never the token); nothing is written in the recordings' folder."""
    method, path, headers, body, status = RECORDER_CASES[case]
    path = path.replace("T/", f"/{recorder.token}/", 1)
    port = recorder.server_port
    headers = {
        k: [x.format(port=port) for x in v] if isinstance(v, list) else v and v.format(port=port)
        for k, v in headers.items()
    }
    made = {b"TONE": lambda: _tone(0.5), b"AU": lambda: _tone(0.5, "au")}
    made[b"FLAC30"] = lambda: _tone(0.5, "flac", claim=30 * 60 * 48_000)
    made[b"SHORT"] = lambda: _tone(0.05)  # too short to be a take
    body = made[body]() if body in made else body
    before = _snapshot(recorder.folder)
    found, text = _ask(recorder, method, path, body, headers)
    err = capsys.readouterr().err
    assert found == status, text
    assert err.count("\n") == 1 and err.startswith("record: ") and f" {status} " in err, err
    assert "Traceback" not in err and recorder.token not in err
    assert _snapshot(recorder.folder) == before
    if case.startswith("a 30-minute"):  # refused from its header: it holds half a second
        assert "lasts 1800 s by its header" in text, text
    if (
        case == "a take too short to hold a line"
    ):  # named as the take, never as the good recording on disk
        assert "the take for office/01-line" in text and ".wav" not in text, text


def test_the_recorder_keeps_a_take_from_its_own_page(
    recorder, capsys: pytest.CaptureFixture[str]
) -> None:
    """The guards let the page's own requests through: at 127.0.0.1 and at localhost, a
    take from its own origin (or none) is kept; the recorder is bound to 127.0.0.1 only."""
    assert recorder.server_address[0] == "127.0.0.1"
    assert recorder.url == f"http://127.0.0.1:{recorder.server_port}/{recorder.token}/"
    page_status, page_text = _ask(recorder, "GET", f"/{recorder.token}/")
    assert page_status == 200 and "line 1" in page_text
    host = f"localhost:{recorder.server_port}"
    path = f"/{recorder.token}/{TAKE}"
    status, text = _ask(
        recorder, "POST", path, _tone(0.5), {"Host": host, "Origin": f"http://{host}"}
    )
    assert (status, json.loads(text)) == (200, {"ok": True, "problem": "0.5 s"})
    assert (recorder.folder / "office" / "01-line.wav").is_file()
    assert capsys.readouterr().err == ""


def test_a_fault_in_the_recorder_is_a_500_and_one_line(
    recorder, capsys: pytest.CaptureFixture[str]
) -> None:
    """A take that cannot be written (a file where its scene's folder should be) is answered
    500 with what went wrong, in one line; the next request is served as before."""
    (recorder.folder / "office").write_text("not a folder")
    status, text = _ask(recorder, "POST", f"/{recorder.token}/{TAKE}", _tone(0.5))
    err = capsys.readouterr().err
    assert status == 500 and "FileExistsError" in json.loads(text)["problem"], text
    assert err.count("\n") == 1 and " 500 FileExistsError" in err and "Traceback" not in err
    assert _ask(recorder, "GET", f"/{recorder.token}/")[0] == 200


def test_the_recorder_page_shows_injected_words_as_text(tmp_path: Path) -> None:
    """Words and lines written to break out of the page (a closing </script>, a comment
    opener, markup, U+2028) are text on it: the page has its one script, no other element
    made of them, and the script's JSON reads back the words as written."""
    from common.files import NarrationFile, ScriptLine
    from common.text import script_json
    from pipeline.recorder import page

    hostile = "</script><svg onload=alert(1)><!--"
    lecture = _file(
        tmp_path,
        "c.toml",
        f"[words.en.recorder]\nstop = '{hostile}'\ntitle = '<img src=x onerror=alert(2)>'\n",
    )
    line = ScriptLine(scene="office", file="office/01-line", text='"><script>alert(3)</script>')
    NarrationFile(lang="en", lines=[line]).write(tmp_path / NarrationFile.NAME)
    with tempsettings(**load_lecture(lecture, languages=["en"]).overlay):
        text = page(tmp_path, "en", "n0nce")
    assert text.count("<script") == 1 and text.count("</script>") == 1
    assert not any(tag in text for tag in ("<svg", "<img", "<!--"))
    assert "&quot;&gt;&lt;script&gt;alert(3)&lt;/script&gt;" in text
    ui = json.loads(text.split("const UI = ", 1)[1].split(";\n", 1)[0])
    assert ui["stop"] == hostile
    tricky = "\u2028\u2029</script><!--&"
    assert json.loads(script_json(tricky)) == tricky
    assert not any(c in script_json(tricky) for c in "<>&\u2028\u2029")


def test_a_take_is_decoded_in_memory_and_never_past_a_line(
    recorder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No temporary file exists while a take is decoded (so none can outlive an abort), and
    a stream whose header does not say its length is decoded only up to the bound."""
    import io

    import av

    from voice.audio import TooLongError, decode_stream

    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(scratch))
    seen: list[list[str]] = []
    real_open = av.open

    def spying_open(*args: object, **kwargs: object):
        seen.append(sorted(p.name for p in (*scratch.iterdir(), *recorder.folder.rglob("*"))))
        return real_open(*args, **kwargs)

    take = _tone(0.5)
    monkeypatch.setattr(av, "open", spying_open)
    status, _ = _ask(recorder, "POST", f"/{recorder.token}/{TAKE}", take)
    assert status == 200 and seen == [["narration.json"]]
    monkeypatch.undo()
    unknown_length = _tone(1.5, "flac", claim=0)
    assert len(decode_stream(io.BytesIO(unknown_length), None, "flac")) == 72_000
    with pytest.raises(TooLongError, match="lasts longer"):
        decode_stream(io.BytesIO(unknown_length), 1.0, "flac")


def test_an_aborted_or_stalled_upload_leaves_nothing(
    recorder, capsys: pytest.CaptureFixture[str]
) -> None:
    """An upload that stalls is answered 408 after the read timeout; one still arriving
    when the server closes (Ctrl-C) is ended there, its thread joined, nothing written."""
    import socket
    import threading

    head = (
        f"POST /{recorder.token}/{TAKE} HTTP/1.1\r\nHost: 127.0.0.1:{recorder.server_port}\r\n"
        "Content-Length: 50000\r\n\r\nRIFF"
    ).encode()
    with socket.create_connection(("127.0.0.1", recorder.server_port), timeout=5) as stalled:
        stalled.sendall(head)
        assert stalled.recv(100).startswith(b"HTTP/1.0 408")
    recorder.read_timeout = 30.0  # now only the close can end it
    before = set(threading.enumerate())
    with socket.create_connection(("127.0.0.1", recorder.server_port), timeout=5) as aborted:
        aborted.sendall(head)
        for _ in range(100):  # its handler has started
            if set(threading.enumerate()) - before:
                break
            threading.Event().wait(0.01)
        recorder.shutdown()
        recorder.server_close()  # as Ctrl-C's end of render.py's `with server:`
        handlers = set(threading.enumerate()) - before
        assert not handlers, handlers
        assert aborted.recv(100).startswith(b"HTTP/1.0 400")
    assert sorted(p.name for p in recorder.folder.rglob("*")) == ["narration.json"]
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "Traceback" not in err, err


@pytest.mark.parametrize("taken", [False, True], ids=["port 70000", "a port in use"])
def test_a_bad_recorder_port_is_one_line(
    taken: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import socket

    from common.files import NarrationFile

    NarrationFile(lang="en", lines=[]).write(tmp_path / NarrationFile.NAME)
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1] if taken else 70000
        code = render.main(["--record", "--narration", str(tmp_path), "--port", str(port)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.startswith("render.py: error: --port")
    assert ("in use" if taken else "between 1 and 65535") in err, err


def test_a_recording_whose_header_claims_30_minutes_is_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """render.py --narration checks a recording's stated length before decoding it."""
    flac = _tone(0.5, "flac", claim=30 * 60 * 48_000)
    args = _narration(tmp_path, _listing("office/01-intro"), **{"office__01-intro.flac": flac})
    code = render.main([*args, "--out", str(tmp_path / "out"), "--quality", "low"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert "01-intro.flac: lasts 1800 s by its header" in err, err
    assert not (tmp_path / "out").exists()


# --- issue 46: text that reaches a file format ---
# Every writer of text (chapters.txt, the MP4's title, chapters and subtitle track, .srt, .vtt,
# the page's title and data script, JSON) is fed any Unicode, control characters, newlines,
# bidi controls and each format's own syntax among it, and what it wrote is read back.
HOSTILE = "\n\r\x00\x07\x1b\t\x0b\x0c\x1c\x1f\x7f\x85\x9b\u202e\u2066\u2028\u2029<>&=;#\\- 0:字"
PIECES = [*HOSTILE, "-->", "</script>", "<!--", "\r\n", "\n\n", "&amp;", "\n00:01 "]
ALL = "".join(PIECES)  # every one of them, in one text: each test's first example
TEXT = st.lists(
    st.sampled_from(PIECES) | st.text(st.characters(codec="utf-8"), max_size=4), max_size=12
).map("".join)
FAST = settings(max_examples=100, deadline=None, database=None)


def _alnum(text: str) -> str:
    """What no writer may drop or change: the letters and digits, in order."""
    return "".join(ch for ch in text if ch.isalnum())


def _clean_line(line: str) -> None:
    assert not CONTROL_OR_NEWLINE.search(line), ascii(line)


def _vtt_payloads(vtt: str) -> list[str]:
    """A WebVTT file's cues as a reader finds them (a block per run of blank lines, an
    optional id without ``-->``, the timing line, then the payload), unescaped."""
    assert vtt.startswith("WEBVTT\n\n") and "\r" not in vtt
    payloads = []
    for block in re.split(r"\n{2,}", vtt.removeprefix("WEBVTT\n\n").strip("\n")):
        lines = block.split("\n")
        assert "-->" not in lines[0] and "-->" in lines[1], block
        payload = lines[2:]
        for line in payload:
            _clean_line(line)
            assert "-->" not in line and "<" not in line and line.strip(), ascii(block)
            assert re.fullmatch(r"([^&]|&(amp|lt|gt);)*", line), ascii(line)
        text = "\n".join(payload)
        payloads.append(text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"))
    return payloads


@FAST
@given(st.lists(TEXT, min_size=1, max_size=4))
@example([ALL, "", ALL[::-1]])
def test_any_text_keeps_its_subtitle_cues(texts: list[str]) -> None:
    cues = [Cue(k, k + 0.5, text) for k, text in enumerate(texts)]
    parsed = list(srt.parse(to_srt(cues)))
    assert len(parsed) == len(cues)
    for cue, read in zip(cues, parsed, strict=True):
        assert read.start.total_seconds() == cue.start and read.end.total_seconds() == cue.end
        assert "-->" not in read.content and "\n\n" not in read.content
        for line in read.content.split("\n"):
            _clean_line(line)
        assert _alnum(read.content) == _alnum(cue.text)
    payloads = _vtt_payloads(to_vtt(cues))
    assert [_alnum(p) for p in payloads] == [_alnum(t) for t in texts]


@FAST
@given(st.lists(TEXT, min_size=1, max_size=4), st.booleans())
@example([ALL, "", ALL[::-1]], False)
def test_any_title_is_one_chapter_entry(titles: list[str], long: bool) -> None:
    starts = [k * 61.0 for k in range(len(titles))]
    listed = to_chapter_list(list(zip(starts, titles, strict=True)), 3600.0 if long else 300.0)
    assert listed.endswith("\n")
    lines = listed[:-1].split("\n")
    assert len(lines) == len(titles)
    for line, start, title in zip(lines, starts, titles, strict=True):
        _clean_line(line)
        stamp, _, shown = line.partition(" ")
        assert stamp == chapter_stamp(start, long) and _alnum(shown) == _alnum(title)


@FAST
@given(TEXT, st.lists(TEXT, min_size=1, max_size=3))
@example(ALL, [ALL, "", ALL[::-1]])
def test_any_title_keeps_the_mp4s_chapters_and_cues(title: str, titles: list[str]) -> None:
    """The MP4's own title, chapter titles and mov_text cues, as assemble writes them (in
    memory), read back by FFmpeg's demuxer."""
    segments = [SegmentFile(t, Path("v.mp4"), Path("v.srt")) for t in titles]
    starts = [float(k) for k in range(len(titles))]
    memory = io.BytesIO()
    with av.open(memory, "w", format="mp4") as output:
        track = _titled(output, "en", title)
        for k, text in enumerate(titles):  # each chapter's title as its cue too, no gap between
            output.mux(_subtitle_packet(Cue(k, k + 1, text), track))
        output.set_chapters(_chapters(segments, starts, float(len(titles))))
    memory.seek(0)
    with av.open(memory) as read:
        chapters = read.chapters()
        said = [bytes(p)[2:].decode() for p in read.demux(read.streams[0]) if p.dts is not None]
        shown = read.metadata.get("title", "")
    assert len(chapters) == len(titles) and len(said) == len(titles)
    _clean_line(shown)
    assert _alnum(shown) == _alnum(title)
    for chapter, cue, text in zip(chapters, said, titles, strict=True):
        _clean_line(chapter["metadata"].get("title", ""))
        assert _alnum(chapter["metadata"].get("title", "")) == _alnum(text)
        assert _alnum(cue) == _alnum(text) and "\n\n" not in cue and "-->" not in cue
        for line in cue.split("\n"):
            _clean_line(line)


class _Tags(HTMLParser):
    """The start tags of a page and the text of its <title>."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.title: list[str] = []
        self.in_title = False

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append(tag)
        self.in_title = tag == "title"

    def handle_endtag(self, tag: str) -> None:
        self.in_title = False

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title.append(data)


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    # any code point, lone surrogates too (a file name that was not UTF-8)
    | st.lists(st.sampled_from([*PIECES, "\ud800", "\udfff"]) | st.text(max_size=4)).map("".join),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=8,
)


@FAST
@given(TEXT, JSON)
@example(ALL, {ALL: [ALL + "\ud800", 1.5, None, True]})
def test_any_text_stays_in_its_page_and_its_json(title: str, data: object) -> None:
    plain = _Tags()
    plain.feed(page_html("Title", "en"))
    page = _Tags()
    page.feed(page_html(title, "en"))
    assert page.tags == plain.tags  # no element added or ended by the title
    _clean_line("".join(page.title))
    assert _alnum("".join(page.title)) == _alnum(title)
    written = json_text(data)
    written.encode("utf-8")  # writable as UTF-8 whatever it holds
    assert json.loads(written) == data
    script = data_script({"title": title, "lab": data})
    assert script.startswith("window.LECTURE = ") and script.endswith(";\n")
    assert not re.search("[<>\u2028\u2029]", script), ascii(script)  # no </script>, <!--
    assert json.loads(script.split("=", 1)[1].rstrip(";\n")) == {"title": title, "lab": data}


# The words themselves are checked before anything runs: the lecture file's (every key and
# text) and every locale file's.
TEXT_CASES = {
    "a bell in a chapter title": (
        _lecture('[words.en.office]\ntitle = "The off\\u0007ice"'),
        "'words.en.office.title' has a control character U+0007 at character 8",
    ),
    "a newline in a chapter title": (
        _lecture('[words.en.office]\ntitle = "Office\\n00:10 A fake chapter"'),
        "'words.en.office.title' has a newline U+000A at character 7",
    ),
    "a NUL in a narrated line": (
        _lecture('[words.zh-TW.training]\noutro = "學會了\\u0000"'),
        "'words.zh-TW.training.outro' has a control character U+0000 at character 4",
    ),
    "a colour escape in a line": (
        _lecture('[words.en.training]\noutro = "\\u001b[31mred"'),
        "'words.en.training.outro' has a control character U+001B at character 1",
    ),
    "a tab in a line": (
        _lecture('[words.en.training]\noutro = "a\\tb"'),
        "'words.en.training.outro' has a control character U+0009",
    ),
    "a C1 control in a line": (
        _lecture('[words.en.training]\noutro = "a\\u009bb"'),
        "'words.en.training.outro' has a control character U+009B",
    ),
    "a right-to-left override in a token": (
        _lecture(_walkthrough(tokens='["a", "b\\u202e", "c"]')),
        "'task.walkthrough.tokens[1]' has a bidi override or isolate U+202E at character 2",
    ),
    "a bidi isolate in a person's id": (
        _lecture("[[task.office]]\nid = '\u2066legal'\nkey = [1.0, 1.0]\ndays = 3.0\n"),
        "'task.office[0].id' has a bidi override or isolate U+2066 at character 1",
    ),
    "a line separator in a line": (
        _lecture('[words.en.training]\noutro = "a\\u2028b"'),
        "'words.en.training.outro' has a line separator U+2028",
    ),
    "an escape sequence in a key": (
        _lecture('[words.en.office]\n"x\\u001b[2J" = "y"'),
        "'words.en.office.x\\u001b[2J' is a key with a control character U+001B at character 2",
    ),
}
CASES |= TEXT_CASES


@pytest.mark.parametrize("case", list(TEXT_CASES), ids=list(TEXT_CASES))
def test_a_control_character_in_the_words_is_one_line_before_anything_runs(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    test_bad_input_is_one_line_exit_2_and_nothing_written(case, tmp_path, capsys)


def test_a_newline_is_allowed_where_the_built_in_words_break_a_line(tmp_path: Path) -> None:
    own = '[words.en.office]\nquestion = "How many days\\ndoes a claim take?"'
    assert load_lecture(_file(tmp_path, "c.toml", own)).first == "zh-TW"
    title = own.replace("question", "title")
    with pytest.raises(ValueError, match=r"'words\.en\.office\.title' has a newline"):
        load_lecture(_file(tmp_path, "c.toml", title))


def test_a_control_character_in_a_locale_file_is_named(
    own_locales: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = EN.replace('name = "English"', 'name = "Xx"').replace("Training:", "Train\\u0007ing:")
    (own_locales / "xx.toml").write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    assert render.main(["--lang", "xx", "--out", str(out), "--voice", "none"]) == 2
    err = capsys.readouterr().err
    assert "xx.toml: [training] title has a control character U+0007 at character 6" in err
    assert err.count("\n") == 1 and not out.exists()


# --- issue 46: the cluster's edges, caches that heal, messages that name the right thing ---
@contextlib.contextmanager
def _tcp_server(answer: bytes | None, hold: float = 5.0) -> Iterator[str]:
    """A TCP server on this machine that is no Dask scheduler: it sends each connection
    ``answer`` once the client has spoken, then closes it; None: it accepts and says nothing
    for ``hold`` seconds (so that a client without a deadline fails the test, late, instead
    of hanging it)."""
    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        with contextlib.suppress(OSError):
            while True:
                conn, _ = listener.accept()
                with conn:
                    if answer is None:
                        time.sleep(hold)
                    else:
                        conn.recv(4096)
                        conn.sendall(answer)

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        listener.shutdown(socket.SHUT_RDWR)  # wakes the accept
        listener.close()


def _cluster_refusal(address: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """The one line a run gets connecting to ``address``, with nothing left over after it:
    no Client half-made and left open, whose collection at exit waits 20 s and prints
    "Exception ignored in Client.__del__" and its traceback."""
    from distributed import Client

    from pipeline import cluster

    made: list[Client] = []
    start = Client.__init__

    def init(self: Client, *args: object, **kwargs: object) -> None:
        made.append(self)
        start(self, *args, **kwargs)

    monkeypatch.setattr(Client, "__init__", init)
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 0.5)
    with pytest.raises(cluster.ClusterError) as refused:
        cluster.ClusterRunner(address).__enter__()
    assert [client for client in made if client.status != "closed"] == []
    said = str(refused.value)
    assert "\n" not in said
    return said


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("tls://127.0.0.1:9", "Dask cannot use tls:// here: no TLS certificates (set distributed"),
        ("ucx://127.0.0.1:9", "Dask cannot use ucx:// here (its transport is not installed"),
        ("inproc://127.0.0.1:9", "it reaches only a scheduler inside this process"),
    ],
    ids=["tls without certificates", "ucx", "inproc"],
)
def test_a_cluster_scheme_dask_cannot_use_here_is_one_line_and_nothing_after(
    address: str, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert message in _cluster_refusal(address, monkeypatch)


def test_a_client_that_fails_to_start_is_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Should Dask's Client fail where the check before it passed, it is closed all the same."""
    from pipeline import cluster

    monkeypatch.setattr(cluster, "identify", lambda address, seconds: None)
    assert "no Dask scheduler answers there" in _cluster_refusal("tls://127.0.0.1:9", monkeypatch)


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (None, "nothing answered as a Dask scheduler there in 0.5 s"),
        (b"HTTP/1.1 400 Bad Request\r\n\r\n", "what answers there does not speak Dask's protocol"),
    ],
    ids=["accepts and never answers", "an HTTP server"],
)
def test_a_server_that_is_no_dask_scheduler_is_one_line_in_bounded_time(
    answer: bytes | None, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    start = time.monotonic()
    with _tcp_server(answer) as address:
        said = _cluster_refusal(address, monkeypatch)
    assert message in said and address in said, said
    assert time.monotonic() - start < 3


def _tiny_voiced_segment(folder: Path) -> tuple[Path, Path]:
    """A voiced segment as installed (a second of 64x64 picture, its AAC track mixed from a
    clip of the voice cache, its lines and subtitles beside it); and the clip."""
    import av

    from common.files import LinesFile, NarratedLine
    from pipeline.soundtrack import add_narration

    folder.mkdir(parents=True, exist_ok=True)
    clip = folder / "voice-cache" / "espeak-line-0.wav"
    clip.parent.mkdir()
    write_wav(clip, 0.3 * np.sin(np.linspace(0, 440 * np.pi, 12_000)))
    silent = folder / "silent.mp4"
    with av.open(str(silent), "w") as container:
        stream = container.add_stream("libx264", rate=8)
        stream.width = stream.height = 64
        stream.pix_fmt = "yuv420p"
        for _ in range(8):
            frame = av.VideoFrame.from_ndarray(np.zeros((64, 64, 3), np.uint8), format="rgb24")
            container.mux(stream.encode(frame))
        container.mux(stream.encode())
    said = [NarratedLine(index=1, key="a", text="a", start=0.1, end=0.6, clip=str(clip))]
    LinesFile(lines=said).write(LinesFile.beside(silent))
    video = add_narration(silent)
    LinesFile(lines=said).write(LinesFile.beside(video))
    video.with_suffix(".srt").write_text("1\n00:00:00,100 --> 00:00:00,600\na\n", "utf-8")
    return video, clip


def test_a_clip_cut_short_costs_the_lecture_nothing(tmp_path: Path) -> None:
    """A clip of the voice cache cut short after its segment was made: the lecture takes
    the chapter's sound from the segment (wave.Error once, in every run after)."""
    from pipeline.assemble import SegmentFile, assemble, manifest_matches

    video, clip = _tiny_voiced_segment(tmp_path)
    clip.write_bytes(clip.read_bytes()[:40])  # inside its header
    out = tmp_path / "out"
    segment = SegmentFile("One", video, video.with_suffix(".srt"))
    lecture = assemble([segment], out, "en", "A lecture")
    assert lecture.duration == pytest.approx(1.0) and manifest_matches(out)


def test_a_failed_assembly_keeps_the_previous_lecture_and_its_manifest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pipeline import assemble
    from pipeline.records import MANIFEST

    video, _ = _tiny_voiced_segment(tmp_path)
    out = tmp_path / "out"
    segment = assemble.SegmentFile("One", video, video.with_suffix(".srt"))
    assemble.assemble([segment], out, "en", "A lecture")
    before = _snapshot(out)
    manifest = (out / MANIFEST).read_bytes()

    def full(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(assemble, "segment_track", full)
    with pytest.raises(OSError, match="No space left"):
        assemble.assemble([segment], out, "en", "Another title")
    assert (out / MANIFEST).read_bytes() == manifest and assemble.manifest_matches(out)
    assert _snapshot(out) == before


@pytest.mark.parametrize("damage", ["folder", "file", "dead link"])
def test_a_damaged_voice_cache_is_made_again(tmp_path: Path, damage: str) -> None:
    """A folder where a clip goes, or a file or a dead link where the cache goes: the line
    is said again, into a cache made again."""
    from voice.clips import speak_line
    from voice.engines.espeak import Espeak

    speaker = Espeak("en-us", 165)
    cache = tmp_path / "voice-cache"
    first = speak_line(["one."], speaker, cache)
    if damage == "folder":
        first.clip.unlink()
        (first.clip / "inside").mkdir(parents=True)
    else:
        shutil.rmtree(cache)
        if damage == "dead link":
            cache.symlink_to(tmp_path / "gone")
        else:
            cache.write_text("x")
    again = speak_line(["one."], speaker, cache)
    assert again.clip == first.clip and cached(again.clip) and cache.is_dir()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_an_unwritable_voice_cache_is_one_line_before_anything_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    cache = out / "voice-cache"
    cache.mkdir(parents=True)
    cache.chmod(0o555)
    args = ["--out", str(out), "--voice", "espeak", "--scenes", "office", "--quality", "low"]
    code = render.main(args)
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert f"voice cache {cache} is not writable (Permission denied)" in err, err
    assert not (out / "data.json").exists()  # nothing trained


def _loop(path: Path) -> Path:
    """Two symbolic links that lead to each other."""
    other = path.with_name(f"{path.name}-other")
    path.symlink_to(other.name)
    other.symlink_to(path.name)
    return path


NAMED_CASES = {
    "a bad [meta] value of the lecture file's own words": (
        lambda t: ["--lang", "en", *_lecture("[words.en.meta]\nnumbers = 'roman'")(t)],
        "c.toml: 'words.en.meta.numbers' Input should be 'zh' or 'en'",
    ),
    "a locales folder that is a loop of links": (
        lambda t: [*_lecture(f"locales = ['{_loop(t / 'mine').name}']")(t), "--list"],
        "'locales[0]': ",
    ),
    "a narration folder that is a loop of links": (
        lambda t: ["--narration", str(_loop(t / "rec")), "--voice", "none"],
        "--narration",
    ),
    "a scene file that is a loop of links": (
        lambda t: ["--plan", str(_plan(t, file=str(_loop(t / "s.py"))))],
        "chapter 1: ",
    ),
}


@pytest.mark.parametrize("case", list(NAMED_CASES), ids=list(NAMED_CASES))
def test_a_message_names_the_file_at_fault(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_args, message = NAMED_CASES[case]
    err = _refused(make_args, tmp_path, capsys)
    assert message in err and "locales/en.toml" not in err, err
    assert "loop" not in case or "is a loop of symbolic links" in err, err


def test_a_bad_meta_value_of_an_own_locale_file_names_that_file(
    own_locales: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (own_locales / "en.toml").write_text("[meta]\nchars_per_line = 3\n", encoding="utf-8")
    assert render.main(["--lang", "en", "--list", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert f"{own_locales / 'en.toml'}: 'meta.chars_per_line' must be at least 8" in err, err


def _unreadable(path: Path) -> Path:
    """A regular file whose reading fails, as on a failing disk (even for root): a link to
    this process's memory, unmapped at offset 0 (EIO)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to("/proc/self/mem")
    return path


def test_a_model_file_that_cannot_be_read_is_named_as_such(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pipeline import vendor
    from voice.kokoro import MODEL_NAME, KokoroError, check_model

    with pytest.raises(KokoroError, match=r"model cannot be read \(Input/output error\)"):
        check_model(_unreadable(tmp_path / "kokoro" / MODEL_NAME).parent)
    monkeypatch.setattr(vendor, "LIBRARY", _unreadable(tmp_path / "tf.min.js"))
    assert render.main(["--voice", "none", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "TensorFlow.js at" in err and "cannot be read (Input/output error)" in err, err
    assert err.count("\n") == 1 and "cannot write" not in err


def test_an_os_error_says_cannot_write_only_for_a_fault_of_writing() -> None:
    assert render.os_fault(OSError(errno.EIO, "Input/output error", "/m")) == (
        "/m: Input/output error"
    )
    assert render.os_fault(OSError(errno.ENOSPC, "No space left on device", "/o")) == (
        "cannot write: /o: No space left on device"
    )


@pytest.mark.parametrize("damage", ["file", "loop"])
def test_a_voice_cache_of_the_wrong_kind_is_made_again_before_the_run(
    tmp_path: Path, damage: str
) -> None:
    from pipeline.options import Flags, Run
    from pipeline.voicing import open_voice_cache, voice_for

    run = Run.build(Flags(out=tmp_path / "out", voice=VoiceKind("espeak")), load_lecture(None))
    run.out.mkdir()
    if damage == "loop":
        _loop(run.voice_cache)
    else:
        run.voice_cache.write_text("x")
    assert voice_for(run, run.first, run.selected[0]) is not None
    open_voice_cache(run)
    assert run.voice_cache.is_dir() and not run.voice_cache.is_symlink()


# --- issue 46: checks that come too late, and bounds ---
def _pronoun(q: str, k: str = "[[1.0, 0.0], [0.0, 1.0]]") -> str:
    """A 2-word pronoun sentence with these Queries and Keys."""
    return f"[task.pronoun]\ntokens = ['a', 'b']\nquery = 0\ndims = ['a', 'b']\nq = {q}\nk = {k}"


EARLY_CASES = {
    "a line without a marker its scene's beat needs": (
        _lecture("[words.en.dead_ends]\nconcat = 'Join them <join>into one long vector.'"),
        "'words.en.dead_ends.concat': has no <feed> marker for the scene's beat",
    ),
    "a marker the scene has no beat for": (
        _lecture("[words.en.dead_ends]\nconcat = 'Join <join>them, <feed>feed <then>it.'"),
        "marks <then> but the scene has no such beat (its beats: <join>, <feed>)",
    ),
    "a marker that ends the line": (
        _lecture("[words.en.dead_ends]\nconcat = 'Join <join>them, feed it. <feed>'"),
        "a <marker> ends the line",
    ),
    "a number kept as text that is none": (
        _lecture("[words.en.dead_ends]\nwindow_from = 'abc'"),
        "'words.en.dead_ends.window_from' must be a whole number written as text, as \"8\"",
    ),
    "a position past the end of its sentence": (
        _lecture("[words.zh-TW.dead_ends]\nwindow_from = '10'"),
        "[dead_ends] window_from in zh-TW is '10': the chapter 'dead_ends' needs a whole number "
        "from 0 to 9 (a position in window_sentence)",
    ),
    "a count of slots too large to draw": (
        _lecture("[words.zh-TW.why]\nlong = '999999999'"),
        "[why] long in zh-TW is '999999999': the chapter 'why' needs a whole number from 1 to 200",
    ),
    "quiz choices with no right answer": (
        _lecture("[words.en.quiz]\nchoices_1 = 'Q|K|V'"),
        "'words.en.quiz.choices_1': write two or more choices split by \"|\", the right one",
    ),
    "fewer quiz choices than the scene shows": (
        _lecture("[words.en.quiz]\nchoices_1 = 'Q|*V'"),
        'write 3 choices split by "|"',
    ),
    "a line of punctuation only": (
        _lecture("[words.en.dead_ends]\nintro = '?! <why>…'"),
        "'words.en.dead_ends.intro': nothing in '?! <why>…' can be said",
    ),
    "a line of emoji only": (
        _lecture("[words.zh-TW.dead_ends]\nlonger = '🙂 <grow>🙂 <misfit>🙂'"),
        "'words.zh-TW.dead_ends.longer': nothing in",
    ),
    "infinity in a walkthrough vector": (
        _lecture(
            "chapters = ['office']\n" + _walkthrough(x="[[inf, 0.0], [0.0, 1.0], [1.0, 1.0]]")
        ),
        "'task.walkthrough.x[0][0]' contains NaN or infinity",
    ),
    "NaN in a word of the page's table": (
        _lecture("chapters = ['office']\n" + _walkthrough(vocabulary="{ tea = [nan, 0.0] }")),
        "'task.walkthrough.vocabulary.tea[0]' contains NaN or infinity",
    ),
    "NaN where a colleague stands": (
        _lecture(
            "[[task.office]]\nid = 'legal'\nkey = [nan, 1.0]\ndays = 3.0\n"
            "[[task.office]]\nid = 'hr'\nkey = [0.0, 1.0]\ndays = 3.0\n"
        ),
        "'task.office' person 1: 'key[0]' contains NaN or infinity",
    ),
    "1e308 in the pronoun's Queries": (
        _lecture(_pronoun("[[1e308, 0.0], [0.0, 1.0]]")),
        "'task.pronoun.q[0][0]' must be at most 100.0, got 1e+308",
    ),
    "scores whose exp() is infinite": (
        _lecture(_pronoun("[[30.0, 0.0], [0.0, 1.0]]", "[[30.0, 0.0], [0.0, 1.0]]")),
        "'task.pronoun.q' gives a score of 2.55e+03 (q·k over √d·T at T = 0.25): at most 700",
    ),
    "more local workers than the machine holds": (
        lambda t: ["--cluster", f"local:{usable_cores() + 1}"],
        f"this machine holds at most {local_workers_bound()} worker processes",
    ),
}


@pytest.mark.parametrize("case", list(EARLY_CASES), ids=list(EARLY_CASES))
def test_what_a_scene_needs_is_checked_before_anything_runs(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_args, message = EARLY_CASES[case]
    out = tmp_path / "out"
    code = render.main([*make_args(tmp_path), "--out", str(out), "--quality", "low"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("render.py: error:"), err
    assert message in err, err
    assert not out.exists()  # no data.json trained, no folder made


def test_an_own_languages_line_without_its_markers_is_one_line(
    own_locales: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = EN.replace("vector <join>into one very long", "vector into one very long", 1)
    (own_locales / "xx.toml").write_text(text.replace('name = "English"', 'name = "Xx"'))
    out = tmp_path / "out"
    only = _lecture("chapters = ['dead_ends']")(tmp_path)  # its tables alone are checked
    assert render.main([*only, "--lang", "xx", "--out", str(out), "--voice", "none"]) == 2
    err = capsys.readouterr().err
    assert "xx.toml: [dead_ends] concat: has no <join> marker" in err and err.count("\n") == 1
    assert not out.exists()


def test_local_workers_up_to_the_bound_are_allowed() -> None:
    check_cluster(f"local:{local_workers_bound()}")
    with pytest.raises(UsageError, match="holds at most"):
        check_cluster("local:" + "9" * 5000)  # never int() of thousands of digits
    for address in (
        "tcp://host:99999",
        "tcp://host:0",
        "tcp://host:\u0668\u0667",
        "tcp://[zz::]:1",
    ):
        with pytest.raises(UsageError, match="give a Dask scheduler's address"):
            check_cluster(address)  # a port of 1 to 65535, in ASCII digits; a real IPv6 form
    check_cluster("tcp://[::1]:8786")


@pytest.mark.parametrize(
    "text",
    ["See " + "x" * 100_000 + " now.", "word " * 4_000, "蘋" * 20_000, "，" * 20_000],
    ids=["a token", "words", "no spaces", "commas"],
)
def test_cue_splitting_is_linear_in_the_lines_length(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each character is measured a bounded number of times (about 10): a 100,000-character
    token is split in a fraction of a second, where a 6,000-character one took minutes."""
    budget = 20 * len(text)
    measure = subtitles._width

    def counted(*args: object) -> float:
        nonlocal budget
        budget -= 1
        if budget < 0:
            raise AssertionError("more than 20 measurements a character: not linear")
        return measure(*args)

    monkeypatch.setattr(subtitles, "_width", counted)
    cues = split_cues(text, "en")
    width = limits_for("en").chars_per_line
    assert all(line_width(line, "en") <= width for cue in cues for line in cue.split("\n"))


def test_every_integer_has_number_words() -> None:
    """Beyond the named scales a number is read digit by digit, however long."""
    assert spoken("10,000,000,000,000,000 steps", "en") == "one " + "zero " * 16 + "steps"
    assert spoken("10000000000000000", "zh") == "一" + "零" * 16
    assert en_integer(10**15 - 1).startswith("nine hundred ninety-nine trillion")
    huge = "7" * 5000  # int() refuses a number of more than 4,300 digits
    assert spoken(f"{huge}/{huge}×10⁻{'⁹' * 5000}", "en").count("seven") == 10_000
    assert spoken(huge, "zh") == "七" * 5000


def test_a_locale_name_that_is_no_file_is_refused_not_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder (or a device, or a loop of links) named en.toml in a locales folder is one
    line naming it: skipped, the instructor's words would silently not apply."""
    (tmp_path / "words" / "en.toml").mkdir(parents=True)
    config = _file(tmp_path, "c.toml", f'languages = ["en"]\nlocales = ["{tmp_path / "words"}"]\n')
    assert render.main(["--config", str(config), "--list", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'words' / 'en.toml'} is not a regular file" in err and err.count("\n") == 1


def test_a_request_that_trickles_in_is_cut_at_its_deadline(recorder) -> None:
    """A header line each time the recorder is about to give up (slowloris): the whole
    request still ends within its deadline (3 pauses), its thread free again."""
    import time

    from pipeline.recorder import WHOLE_REQUEST

    pause, start = recorder.read_timeout, time.monotonic()
    with socket.create_connection(("127.0.0.1", recorder.server_port), timeout=pause / 2) as client:
        client.sendall(f"GET /{recorder.token}/ HTTP/1.1\r\n".encode())
        cut = False
        while not cut and time.monotonic() - start < 6 * pause * WHOLE_REQUEST:
            try:
                cut = client.recv(1) == b""  # the end of the connection: cut
            except TimeoutError:  # still open: trickle one more header line
                client.sendall(b"X-A: b\r\n")
            except OSError:
                cut = True
    held = time.monotonic() - start
    assert cut and held < 3 * pause * WHOLE_REQUEST, held  # cut at 1x; 3x: a busy machine
