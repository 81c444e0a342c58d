"""Each fact has one home: imports point one way, declarations agree, the registry rules."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from common.settings import tempsettings
from model.datafile import PARTS, DataFileError, nest
from pipeline.records import words_hash
from scenes.gates.run import load_scene
from scenes.kit.base import declared_reads
from syllabus import locale
from syllabus.declarations import declaration
from syllabus.plan import Chapter, PlanError, checked, load_plan

ROOT = Path(__file__).resolve().parent.parent


def test_render_imports_neither_manim_nor_torch() -> None:
    code = "import sys, render; print('manim' in sys.modules, 'torch' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["False", "False"]


@pytest.mark.parametrize("chapter", checked(), ids=lambda c: c.name)
def test_declarations_read_from_source_match_the_class(chapter: Chapter) -> None:
    cls = load_scene(chapter)
    assert chapter.scene_key == cls.scene_key
    assert chapter.reads == declared_reads(cls)
    assert chapter.tables == cls.tables


def test_a_variant_reads_its_own_example_and_its_parents_words(tmp_path: Path) -> None:
    variant = tmp_path / "halves_map.py"
    variant.write_text(
        "from scenes.chapters.attention_map import AttentionMap\n\n\n"
        "class HalvesMap(AttentionMap):\n    example_name = 'halves'\n"
    )
    declared = declaration(variant, "HalvesMap")
    assert declared.scene_key == "attention_map"
    assert declared.reads == ("examples.halves", "training")


@pytest.mark.parametrize("lang", ["zh-TW", "en"])
def test_on_screen_title_and_chapter_title_are_one(lang: str) -> None:
    for chapter in load_plan():
        assert chapter.title(lang) == locale.Words(chapter.scene_key, lang)["title"]


def test_a_plan_with_the_old_title_key_says_where_titles_went(tmp_path: Path) -> None:
    plan = tmp_path / "plan.toml"
    plan.write_text(
        '[[chapter]]\nscene = "office"\nfile = "office.py"\nclass = "OfficeAnalogy"\n'
        'title = { en = "x" }\n'
    )
    with pytest.raises(PlanError, match="chapter titles live in the locale tables"):
        load_plan(plan)


def test_shared_locale_tables_are_in_every_segment_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    chapter = load_plan()[0]
    before = words_hash(chapter, "zh-TW")
    table = locale.locale_table("zh-TW")
    changed = {
        **table,
        "subtitles": {"keep_together": [*table["subtitles"]["keep_together"], "新詞"]},
    }
    monkeypatch.setattr(locale, "_table", lambda lang: changed)
    assert words_hash(chapter, "zh-TW") != before


def _words_hashes(tmp_path: Path, words: str) -> dict[str, str]:
    """Each chapter's words hash in English under a lecture file of these ``[words.en]``."""
    from syllabus.lecture_file import load_lecture

    lecture = (
        tmp_path / f"lecture-{len(list(tmp_path.iterdir()))}.toml"
    )  # a file's words: read once
    lecture.write_text(f"languages = ['en']\n{words}", encoding="utf-8")
    with tempsettings(**load_lecture(lecture, languages=["en"]).overlay):
        return {c.name: words_hash(c, "en") for c in load_plan()}


def test_what_a_chapter_shows_of_anothers_words_makes_it_stale(tmp_path: Path) -> None:
    """caveat writes multihead's head names under its maps, zoom_out opens on multihead's
    last picture (its words with it), summary recalls caveat's words (and quiz opens on
    summary's last picture, with them): rewording them makes those chapters stale too; a
    chapter's own title, only itself."""
    before = _words_hashes(tmp_path, "")
    head = _words_hashes(tmp_path, "[words.en.multihead]\nhead = 'Head no. {h}'\n")
    assert sorted(n for n in before if head[n] != before[n]) == ["caveat", "multihead", "zoom_out"]
    caveat = _words_hashes(tmp_path, "[words.en.caveat]\ntitle = 'A caveat'\n")
    assert sorted(n for n in before if caveat[n] != before[n]) == ["caveat", "quiz", "summary"]
    title = _words_hashes(tmp_path, "[words.en.qkv]\ntitle = 'Three roles'\n")
    assert [n for n in before if title[n] != before[n]] == ["qkv"]


def test_the_builder_must_make_exactly_the_registered_parts() -> None:
    contents = {p.path: {} for p in PARTS}
    assert nest({}, contents)["pitfalls"].keys() == {"projection", "sqrt_d", "shuffle"}
    with pytest.raises(DataFileError, match="missing: \\['office'\\]"):
        nest({}, {k: v for k, v in contents.items() if k != "office"})
    with pytest.raises(DataFileError, match="not in the registry: \\['extra'\\]"):
        nest({}, {**contents, "extra": {}})


def test_every_language_has_its_meta_table() -> None:
    for lang in locale.available_languages():
        meta = locale.language(lang)
        assert len(meta.iso639_2) == 3 and meta.chars_per_line >= 8


def test_docs_schema_is_current() -> None:
    import json

    from model.datafile import json_schema

    written = json.loads((ROOT / "docs" / "data-file.schema.json").read_text(encoding="utf-8"))
    assert written == json_schema(), (
        "re-write it: python -m model --schema docs/data-file.schema.json"
    )


def test_inputs_are_hashed_once_before_rendering(
    data_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    from pipeline.segments import Segments
    from syllabus.presets import PRESETS

    data = json.loads(data_file.read_text(encoding="utf-8"))
    chapter = load_plan()[0]
    recorded = Segments(Path("unused"), data, "zh-TW", PRESETS["low"], "dark").expected(chapter)
    segments = Segments(Path("unused"), data, "zh-TW", PRESETS["low"], "dark")
    assert segments.state(chapter) == "missing"  # hashes every input now, missing or not
    table = locale.locale_table("zh-TW")
    edited = {**table, chapter.scene_key: {**table[chapter.scene_key], "intro": "edited"}}
    monkeypatch.setattr(locale, "_table", lambda lang: edited)  # an edit during the render
    assert segments.expected(chapter) == recorded  # the record keeps what was rendered
    fresh = Segments(Path("unused"), data, "zh-TW", PRESETS["low"], "dark")
    assert fresh.expected(chapter).words != recorded.words  # so the next run re-renders


def _plan(tmp_path: Path, *chapters: tuple[str, str, str, str | None]) -> Path:
    """A plan file of project scenes: (scene, file, class, part or None) per chapter."""
    text = ""
    for scene, file, cls, part in chapters:
        text += f'[[chapter]]\nscene = "{scene}"\nfile = "{ROOT / "scenes" / "chapters" / file}"\n'
        text += f'class = "{cls}"\n' + (f'part = "{part}"\n' if part else "") + "\n"
    plan = tmp_path / "plan.toml"
    plan.write_text(text)
    return plan


def test_the_lecture_opens_with_the_contents_and_every_part_has_a_heading() -> None:
    chapters = load_plan()
    assert chapters[0].name == "opening" and chapters[0].part is None
    parts = [c.part for c in chapters if c.part]
    assert list(chapters[0].parts) == parts and len(parts) >= 2
    for lang in locale.available_languages():
        contents = locale.Words("contents", lang)
        for part in parts:
            assert contents[part] and contents[f"{part}_say"]


def test_a_part_listed_twice_is_refused(tmp_path: Path) -> None:
    plan = _plan(
        tmp_path,
        ("why", "why.py", "WhyAttention", "why"),
        ("office", "office.py", "OfficeAnalogy", "why"),
    )
    with pytest.raises(PlanError, match="lists the part 'why' twice"):
        load_plan(plan)


def test_a_part_without_a_heading_names_the_key(tmp_path: Path) -> None:
    plan = _plan(tmp_path, ("why", "why.py", "WhyAttention", "nowhere"))
    chapter = load_plan(plan)[0]
    with pytest.raises(PlanError, match=r"\[contents\] has no key 'nowhere'"):
        chapter.check("lecture file", ["en"])


def test_a_scene_finds_its_own_chapter_and_part(tmp_path: Path) -> None:
    from scenes.chapters.why import WhyAttention
    from syllabus.plan import chapter_of

    assert chapter_of(WhyAttention).part == "why"
    plan = _plan(tmp_path, ("office", "office.py", "OfficeAnalogy", None))
    with tempsettings(plan=plan):
        assert chapter_of(WhyAttention) is None  # not in this plan: no contents shown


def test_a_changed_contents_list_makes_the_segment_stale(tmp_path: Path, built: dict) -> None:
    from pipeline.records import expected_record
    from syllabus.presets import PRESETS

    one = _plan(tmp_path, ("why", "why.py", "WhyAttention", "why"))
    (tmp_path / "two").mkdir()
    two = _plan(
        tmp_path / "two",
        ("why", "why.py", "WhyAttention", "why"),
        ("office", "office.py", "OfficeAnalogy", "mechanism"),
    )
    preset = next(iter(PRESETS.values()))
    records = [expected_record(load_plan(p)[0], built, "en", preset, ()) for p in (one, two)]
    assert records[0].contents != records[1].contents
    assert records[0].model_copy(update={"contents": {}}) == records[1].model_copy(
        update={"contents": {}}
    )


def test_a_changed_theme_makes_the_segment_stale(built: dict) -> None:
    from pipeline.records import expected_record
    from syllabus.presets import PRESETS

    chapter, preset = load_plan()[0], PRESETS["low"]
    dark, light = (expected_record(chapter, built, "en", preset, (), t) for t in ("dark", "light"))
    assert dark != light and dark.model_copy(update={"theme": "light"}) == light


def test_made_from_this_code_follows_each_root() -> None:
    """The data file is made from the builder's import closure (not the atomic writer it
    never imports), and a silent segment from its scene's closure less the voice, which a
    voiced segment names through the mixer's closure."""
    from common.closure import ROOT as PROJECT
    from common.closure import closure
    from model.datafile import BUILDER
    from pipeline.records import MIXER

    made = closure([BUILDER])
    assert PROJECT / "model" / "attention.py" in made
    assert PROJECT / "common" / "atomic.py" not in made
    scene = load_plan()[0].file
    voice = PROJECT / "voice" / "clips.py"
    assert voice in closure([scene])  # the kit imports the voice...
    assert voice not in closure([scene], skip=("voice",))  # ...a silent record leaves it out
    from pipeline.records import VOICE

    assert voice in closure([MIXER])
    assert {PROJECT / "voice" / "speech.py", voice} <= set(VOICE.glob("*.py"))


def test_no_default_is_written_in_python() -> None:
    """Every default lives in common/default_lecture.toml: the config and the lecture file's
    keys have none of their own (an omitted ``chapters`` is the whole plan)."""
    from common.defaults import default, default_lecture
    from model.config import LectureConfig
    from syllabus.lecture_file import _Keys

    assert all(f.is_required() for f in LectureConfig.model_fields.values())
    assert [k for k, f in _Keys.model_fields.items() if not f.is_required()] == ["chapters"]
    assert (
        LectureConfig().model_dump(mode="json")
        == LectureConfig.from_dict(default("task")).to_dict()
    )
    assert "chapters" not in default_lecture()


def test_own_files_are_read_back_by_their_one_model(tmp_path: Path) -> None:
    """A damaged sidecar is one line naming the file and the key."""
    from common.files import LinesFile, NarratedLine, OwnFileError

    video = tmp_path / "scene.mp4"
    line = NarratedLine(index=1, key="intro", text="你好", start=0.0, end=1.5)
    LinesFile(lines=[line]).write(LinesFile.beside(video))
    assert LinesFile.read(LinesFile.beside(video)).lines == [line]
    LinesFile.beside(video).write_text('{"lines": [{"index": 0}]}', encoding="utf-8")
    with pytest.raises(OwnFileError, match=r"scene\.lines\.json: 'lines\[0\]\.index'"):
        LinesFile.read(LinesFile.beside(video))


def test_a_languages_own_sentence_is_in_its_records_alone(built: dict) -> None:
    """A chapter reading the walkthrough hashes, in English, English's own sentence: a change
    to it makes the English segment stale and leaves the Chinese one current."""
    import copy

    from pipeline.records import data_hash

    why = next(c for c in load_plan() if c.name == "why")
    changed = copy.deepcopy(built)
    changed["own"]["en"]["tokens.eat_apple"]["x"][0][0] += 0.5
    assert data_hash(why, changed, "en") != data_hash(why, built, "en")
    assert data_hash(why, changed, "zh-TW") == data_hash(why, built, "zh-TW")
    assert data_hash(why, built, "en") != data_hash(why, built, "zh-TW")


def test_a_segment_record_holds_what_draws_and_encodes_a_frame(built: dict) -> None:
    from pipeline.cluster import packages
    from pipeline.records import expected_record
    from syllabus.presets import PRESETS

    record = expected_record(load_plan()[0], built, "zh-TW", PRESETS["low"], ())
    assert {"manim", "manimpango", "pycairo", "av", "numpy"} <= record.packages.keys()
    assert set(record.packages) - {"Python"} <= set(packages())  # the workers' check: one list
