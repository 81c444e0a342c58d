"""Hostile and broken input to render.py: one line naming the file and what is wrong,
exit code 2, and the output folder exactly as it was. Run in-process (no Manim import)."""

from __future__ import annotations

import json
import os
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import render
from common.files import OutsideFolderError, inside
from common.settings import VoiceSettings, tempsettings
from pipeline.captions import Cue, to_srt, to_vtt
from pipeline.checks import disk_full
from pipeline.jobs import RenderTimes, drop_damaged
from pipeline.lock import FolderLock
from pipeline.options import UsageError, check_cluster, local_workers_bound, usable_cores
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
    pipe), said by no voice."""
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


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_bad_input_is_one_line_exit_2_and_nothing_written(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_args, message = CASES[case]
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("an earlier run's file")
    args = make_args(tmp_path)
    before = _snapshot(out)
    code = render.main([*args, "--out", str(out), "--quality", "low"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("render.py: error:"), err
    assert message in err, err
    assert _snapshot(out) == before


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
    with pytest.raises(UsageError, match="give local:N"):
        check_cluster("local:" + "9" * 5000)  # never int() of thousands of digits


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
