"""Voices as plug-ins: one engine per kind of voice, a registry keyed by the kind, each
engine's cache identity and pre-flight checks; the lecture file refuses an unknown kind, and
nothing outside the engines names one."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from common.settings import VoiceSettings
from common.voices import CHAPTER_VOICES, LECTURE_VOICES, VoiceKind
from pipeline.options import Flags, Run, UsageError
from pipeline.voicing import check_voice_files, check_voices, voice_for
from syllabus.lecture_file import LectureFileError, load_lecture
from voice.engine import Choice, PreflightError, Use
from voice.engines import ENGINES, engine, engine_for
from voice.engines.espeak import Espeak
from voice.engines.kokoro import KokoroVoice
from voice.engines.recordings import Recordings
from voice.engines.silent import Silent

ROOT = Path(__file__).resolve().parent.parent


def _use(**changes: object) -> Use:
    given: dict = {
        "source": "lecture file mine.toml",
        "langs": ("en",),
        "chosen": {"en": Choice("af_heart", 1.0)},
        "chapters": ("office",),
        "narration": False,
    }
    return Use(**(given | changes))


def test_every_kind_has_one_engine_of_its_own() -> None:
    assert set(ENGINES) == set(VoiceKind)
    assert all(e.kind == kind for kind, e in ENGINES.items())
    assert engine("espeak") is Espeak and engine(VoiceKind.KOKORO) is KokoroVoice
    assert {k for k, e in ENGINES.items() if e.says_unrecorded} == {"kokoro", "espeak"}
    assert set(CHAPTER_VOICES) == set(VoiceKind) and VoiceKind.RECORDED not in LECTURE_VOICES


def test_the_registry_is_light_to_import() -> None:
    """render.py asks the registry without a voice: it loads neither numpy nor PyAV."""
    code = "import sys, voice.engines; print('numpy' in sys.modules, 'av' in sys.modules)"
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert found.stdout.split() == ["False", "False"], found.stderr


def test_the_settings_ask_for_a_speaker_set_to_their_voice(tmp_path: Path) -> None:
    def settings(kind: str | None, name: str, speed: float) -> VoiceSettings:
        return VoiceSettings(kind, name, speed, None, str(tmp_path))

    assert engine_for(settings("espeak", "en-us", 170.4)) == Espeak("en-us", 170)
    assert engine_for(settings("kokoro", "af_heart", 1.1)) == KokoroVoice("af_heart", 1.1)
    assert engine_for(settings(None, "en-us", 170.0)) is None  # recordings only
    assert settings("espeak", "en-us", 170.0).engine is VoiceKind.ESPEAK  # read as its kind
    assert Recordings.speaker(Choice("en-us", 1.0)) is None
    assert Silent.speaker(Choice("en-us", 1.0)) is None


def test_an_identity_holds_what_the_sound_depends_on() -> None:
    draft = Espeak("en-us", 170).identity()
    assert draft[:2] == ("en-us", "170") and draft != Espeak("en-us", 171).identity()
    assert draft != Espeak("en-gb", 170).identity()
    natural = KokoroVoice("af_heart", 1.0).identity()
    assert natural[:2] == ("af_heart", "1.0") and natural != KokoroVoice("af_heart", 1.1).identity()
    assert natural != KokoroVoice("af_bella", 1.0).identity()  # its voice file's hash
    assert any(part.startswith("misaki==") for part in natural)  # the phonemisers' versions


def test_kokoro_checks_each_language_has_a_kept_voice() -> None:
    KokoroVoice.check(_use())
    with pytest.raises(PreflightError, match=r"no Kokoro voice for 'en': add \[voices.en\]"):
        KokoroVoice.check(_use(chosen={}))
    with pytest.raises(PreflightError) as err:
        KokoroVoice.check(_use(chosen={"en": Choice("af_nobody", 1.0)}))
    assert str(err.value).startswith(
        "lecture file mine.toml: 'voices.en.name' is 'af_nobody' (allowed: af_alloy"
    )
    mandarin_terms = {"en": Choice("zf_xiaobei", 1.0, terms="zm_yunxi")}
    with pytest.raises(PreflightError, match=r"'voices.en.terms' is 'zm_yunxi', a Mandarin"):
        KokoroVoice.check(_use(chosen=mandarin_terms))
    with pytest.raises(PreflightError, match=r"'voices.en.terms' is 'af_nobody'"):
        KokoroVoice.check(_use(chosen={"en": Choice("zf_xiaobei", 1.0, terms="af_nobody")}))


def test_a_lecture_files_own_voice_keeps_the_built_in_terms(tmp_path: Path) -> None:
    from syllabus.lecture_file import load_lecture

    own = tmp_path / "mine.toml"
    own.write_text('[voices.zh-TW]\nname = "zf_xiaoni"\nspeed = 1.0\n', encoding="utf-8")
    voice = load_lecture(own).voices["zh-TW"]
    assert (voice.name, voice.terms, voice.terms_mix) == ("zf_xiaoni", "af_heart", 0.5)


def test_kokoro_names_a_missing_model_before_anything_renders(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import voice.kokoro

    def missing() -> Path:
        raise voice.kokoro.KokoroError("/x/kokoro.onnx: the Kokoro model is missing (run ...)")

    monkeypatch.setattr(voice.kokoro, "check_model", missing)
    with pytest.raises(PreflightError, match=r"^/x/kokoro\.onnx: the Kokoro model is missing"):
        KokoroVoice.check_ready(_use())


def test_espeak_is_named_when_it_is_not_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(PreflightError, match=r"^espeak-ng is not installed \(make setup"):
        Espeak.check_ready(_use())
    assert Espeak.setup == "make setup"


def test_a_chapter_of_recordings_only_needs_the_recordings() -> None:
    with pytest.raises(PreflightError) as err:
        Recordings.check_ready(_use())
    assert str(err.value) == (
        "lecture file mine.toml: 'chapter_voices.office' is 'recorded': render with "
        "--narration FOLDER (its recordings)"
    )
    Recordings.check_ready(_use(narration=True))
    Recordings.check_ready(_use(chapters=()))  # no such chapter rendered


def test_silence_uses_the_recordings_unless_a_chapter_chose_it() -> None:
    assert Silent.voiced(own=False, narration=True)  # the lecture's: its recordings alone
    assert not Silent.voiced(own=True, narration=True)  # a chapter's own: silent
    assert not Silent.voiced(own=False, narration=False)
    assert Espeak.voiced(own=True, narration=False) and Recordings.voiced(own=True, narration=False)


def _run(tmp_path: Path, text: str, **flags: object) -> Run:
    mine = tmp_path / "mine.toml"
    mine.write_text('languages = ["en"]\nchapters = ["office", "qkv"]\n' + text, encoding="utf-8")
    return Run.build(Flags(config=mine, out=tmp_path / "out", **flags), load_lecture(mine))


def test_each_chapter_is_voiced_as_its_engine_says(tmp_path: Path) -> None:
    run = _run(tmp_path, 'voice = "kokoro"\n[chapter_voices]\nqkv = "espeak"\n')
    office, qkv = run.chapters
    natural, draft = voice_for(run, "en", office), voice_for(run, "en", qkv)
    assert natural is not None and draft is not None
    assert (natural.engine, natural.name, natural.narration) == ("kokoro", "af_heart", None)
    assert (draft.engine, draft.name) == ("espeak", "en-us")  # the locale's voice
    silent = _run(tmp_path, 'voice = "none"\n[chapter_voices]\nqkv = "none"\n')
    assert voice_for(silent, "en", silent.chapters[0]) is None
    takes = _run(tmp_path, '[chapter_voices]\nqkv = "none"\n', voice="none", narration=tmp_path)
    recordings_only = voice_for(takes, "en", takes.chapters[0])
    assert recordings_only is not None and recordings_only.engine is None
    assert voice_for(takes, "en", takes.chapters[1]) == recordings_only  # --voice: every one
    own = _run(tmp_path, 'voice = "espeak"\n[chapter_voices]\nqkv = "none"\n', narration=tmp_path)
    assert voice_for(own, "en", own.chapters[1]) is None  # its own silence: no recordings


def test_the_run_asks_only_the_engines_it_uses(tmp_path: Path) -> None:
    run = _run(tmp_path, 'voice = "espeak"\n[voices.en]\nname = "af_nobody"\nspeed = 1.0\n')
    check_voices(run)  # Kokoro's voice is not read: no chapter is said by it
    bad = '[voices.en]\nname = "af_nobody"\nspeed = 1.0\n'
    used = _run(tmp_path, 'voice = "espeak"\n' + bad + '[chapter_voices]\nqkv = "kokoro"\n')
    with pytest.raises(UsageError, match=r"'voices\.en\.name' is 'af_nobody'"):
        check_voices(used)
    recorded = _run(tmp_path, 'voice = "none"\n[chapter_voices]\noffice = "recorded"\n')
    check_voices(recorded)  # a listing needs no recordings...
    with pytest.raises(UsageError, match=r"'chapter_voices\.office' is 'recorded'"):
        check_voice_files(recorded)  # ...a render does


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('voice = "loud"', "'voice' is 'loud' (allowed: kokoro, espeak, none)"),
        ('voice = "recorded"', "'voice' is 'recorded' (allowed: kokoro, espeak, none)"),
        (
            '[chapter_voices]\noffice = "loud"',
            "'chapter_voices.office' is 'loud' (allowed: recorded, kokoro, espeak, none)",
        ),
    ],
)
def test_the_lecture_file_refuses_an_unknown_kind_in_one_line(
    tmp_path: Path, line: str, message: str
) -> None:
    mine = tmp_path / "mine.toml"
    mine.write_text(f'chapters = ["office"]\n{line}\n', encoding="utf-8")
    with pytest.raises(LectureFileError) as err:
        load_lecture(mine)
    assert str(err.value) == f"lecture file {mine}: {message}"


def test_the_lecture_file_gives_kinds() -> None:
    lecture = load_lecture()
    assert isinstance(lecture.voice, VoiceKind)


NAMES = {kind.value for kind in VoiceKind}
# The modules that decide how a chapter is voiced ask the registry: none names an engine.
ASKERS = ("render.py", "pipeline/voicing.py", "syllabus/lecture_file.py", "voice/clips.py")


@pytest.mark.parametrize("module", ASKERS)
def test_no_engine_is_named_outside_the_engines(module: str) -> None:
    tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
    named = [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in NAMES
    ]
    assert named == []


def test_the_command_takes_its_voices_from_the_kinds() -> None:
    import render

    args = render.parse_args(["--voice", "espeak"])
    assert args.voice == "espeak"
    with pytest.raises(UsageError, match=r"\(choose from 'kokoro', 'espeak', 'none'\)$"):
        render.parse_args(["--voice", "recorded"])
