"""Hostile and broken input to render.py: one line naming the file and what is wrong,
exit code 2, and the output folder exactly as it was. Run in-process (no Manim import)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import render
from pipeline.lock import FolderLock
from syllabus import locale

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


CASES = {
    "unknown voice engine": (lambda t: ["--voice", "loud"], "invalid choice: 'loud'"),
    "voice engine in the file": (_lecture('voice = "loud"'), "'voice' is 'loud' (allowed: kokoro"),
    "unknown Kokoro voice": (
        _lecture('[voices.zh-TW]\nname = "zf_nobody"\nspeed = 1.0'),
        "'voices.zh-TW.name' is 'zf_nobody' (allowed: af_alloy",
    ),
    "Kokoro speed": (_lecture('[voices.en]\nname = "af_heart"\nspeed = 5'), "voices.en.speed"),
    # flags
    "unknown language": (lambda t: ["--lang", "xx"], "unknown language 'xx'"),
    "no jobs": (lambda t: ["--jobs", "0"], "--jobs must be at least 1"),
    "silly fps": (lambda t: ["--fps", "500"], "--fps must be between 1 and 120"),
    "unknown quality": (lambda t: ["--quality", "ultra"], "invalid choice: 'ultra'"),
    "unknown scene": (lambda t: ["--scenes", "nope"], "unknown scene 'nope'"),
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
    "old title key": (
        lambda t: ["--plan", str(_file(t, "p.toml", 'title = 1\n[[chapter]]\ntitle = "x"'))],
        "chapter titles live in the locale tables",
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
    locale._table.cache_clear()
    locale.language.cache_clear()
    try:
        assert render.main(["--list", "--out", str(tmp_path / "out")]) == 2
    finally:
        locale._table.cache_clear()
        locale.language.cache_clear()
    err = capsys.readouterr().err
    assert "zh-TW.toml: not valid TOML" in err and err.count("\n") == 1


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
    "damage", [b'{"schema_version": 4, "conf', b'"x"', None], ids=["truncated", "string", "dir"]
)
def test_list_with_a_damaged_data_file_says_what_a_render_would_do(
    tmp_path: Path, damage: bytes | None, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    out.mkdir()
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
