"""How each chapter of a run is voiced, and the voices' checks before anything renders.

A chapter is voiced by the lecture file's ``chapter_voices`` entry, else its ``voice``
(``--voice`` overrides both); recordings (``--narration``) say the lines they hold, and the
chapter's voice the others. What each kind of voice means (whether it says a line, which
voice it says a language with, what it checks) is its engine's (:mod:`voice.engines`): no
engine is named here.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

from common.closure import file_digest
from common.settings import VoiceSettings
from common.voices import LECTURE_VOICES, VoiceKind
from pipeline.checks import check_writable
from pipeline.options import Run, UsageError
from pipeline.records import VoiceOrigin, voice_code
from syllabus.locale import language
from syllabus.plan import Chapter
from voice.engine import Choice, PreflightError, Use, VoiceEngine, VoiceError
from voice.engines import ENGINES, engine, engine_for


def mode_of(run: Run, chapter: Chapter) -> VoiceKind:
    """How a chapter is voiced: the lecture file's ``chapter_voices``, else its ``voice``
    (``--voice`` overrides both)."""
    return run.chapter_voices.get(chapter.name, run.voice)


def voice_for(run: Run, lang: str, chapter: Chapter | None = None) -> VoiceSettings | None:
    """The voice settings of one chapter's render in one language (None: silent): its
    engine's voice for ``lang``, and the recordings, which say the lines they hold."""
    kind = mode_of(run, chapter) if chapter is not None else run.voice
    said_by = engine(kind)
    own = chapter is not None and chapter.name in run.chapter_voices
    if not said_by.voiced(own=own, narration=run.flags.narration is not None):
        return None
    meta = language(lang)
    choice = said_by.choose(lang, _chosen(run), Choice(meta.voice, float(meta.voice_speed)))
    found = run.narration_folder(lang)
    return VoiceSettings(
        kind if said_by.says_unrecorded else None,
        choice.name,
        choice.speed,
        None if found is None else str(found),
        str(run.voice_cache.absolute()),  # not resolved: a link loop there is healed later
        choice.terms,
        choice.terms_mix,
        choice.terms_speed,
    )


def voices_in(run: Run, lang: str) -> Callable[[Chapter], VoiceSettings | None]:
    """Each chapter's voice settings in ``lang``."""
    return lambda chapter: voice_for(run, lang, chapter)


def _chosen(run: Run) -> dict[str, Choice]:
    """The lecture file's voice of each language (``[voices.<lang>]``)."""
    return {
        lang: Choice(c.name, c.speed, c.terms, c.terms_mix, c.terms_speed)
        for lang, c in run.voices.items()
    }


def _uses(run: Run) -> list[tuple[type[VoiceEngine], Use]]:
    """The engine of each kind of voice the lecture uses (its ``voice``, or a chapter's),
    in the registry's order, with how the run uses it."""
    used = [k for k in ENGINES if run.voice == k or k in run.chapter_voices.values()]
    chosen, narration = _chosen(run), run.flags.narration is not None
    return [
        (
            ENGINES[kind],
            Use(
                source=run.source,
                langs=run.langs,
                chosen=chosen,
                chapters=tuple(c.name for c in run.selected if mode_of(run, c) == kind),
                narration=narration,
            ),
        )
        for kind in used
    ]


def check_voices(run: Run) -> None:
    """Before anything (a listing too): the lecture file's keys each voice reads."""
    _preflight(run, "check")


def check_voice_files(run: Run) -> None:
    """Before anything renders: what each voice speaks with is there and whole (one line
    naming a missing or damaged file, and the command that fixes it)."""
    _preflight(run, "check_ready")


def _preflight(run: Run, step: str) -> None:
    """One pre-flight check (``check`` or ``check_ready``) of every voice the run uses."""
    try:
        for said_by, use in _uses(run):
            getattr(said_by, step)(use)
    except PreflightError as err:
        raise UsageError(str(err)) from None


def check_narration(run: Run) -> None:
    """Before anything renders: every recording readable and usable, and the missing ones
    listed (said by the chapter's voice; where its voice says no line, an error)."""
    voiced = [c for c in run.selected if voice_for(run, run.langs[0], c) is not None]
    by_key = {key: c for c in voiced for key in (c.name, c.scene_key) if key}
    for lang in run.langs:
        folder = run.narration_folder(lang)
        if folder is None:
            continue
        if not folder.is_dir():
            raise UsageError(f"--narration {folder}: no such folder")
        from pipeline.narration import check_folder  # numpy, av: with recordings only

        try:
            missing = check_folder(folder, set(by_key))
        except VoiceError as err:
            raise UsageError(str(err)) from None
        _report_missing(folder, [(m, mode_of(run, by_key[m.split("/")[0]])) for m in missing])


def _report_missing(folder: Path, missing: list[tuple[str, VoiceKind]]) -> None:
    """The recordings ``folder`` lacks, each with its chapter's voice: an error where that
    voice says no line, else a note of who says them."""
    unsaid = [name for name, kind in missing if not engine(kind).says_unrecorded]
    if unsaid:
        shown = ", ".join(f"{name}.wav" for name in unsaid[:6])
        sayers = " or ".join(k for k in LECTURE_VOICES if engine(k).says_unrecorded)
        raise UsageError(
            f"{folder}: {len(unsaid)} recording(s) missing: {shown}"
            + (" ..." if len(unsaid) > 6 else "")
            + f" (record them, or render with --voice {sayers} to say them)"
        )
    if missing:
        names = [name for name, _ in missing]
        shown = ", ".join(names[:6]) + (" ..." if len(names) > 6 else "")
        said = ", ".join(sorted({kind for _, kind in missing}))
        print(f"voice: {len(missing)} line(s) not recorded yet, said by {said}: {shown}")


def open_voice_cache(run: Run) -> None:
    """Before anything renders, when a chapter is voiced: the voice cache is a folder the
    run can write (:func:`voice.clips.open_cache` makes it again where a file stands in its
    place), else one line, before a scene fails on it."""
    if all(voice_for(run, run.langs[0], c) is None for c in run.selected):
        return
    from voice.clips import open_cache  # numpy: with a voice only

    with contextlib.suppress(OSError):  # what it cannot do, the check names
        open_cache(run.voice_cache)
    fix = ": make it writable, or delete it (it is made again)"
    check_writable(run.voice_cache, "voice cache", fix)


def voice_record(voice: VoiceSettings | None, chapter: Chapter) -> VoiceOrigin | None:
    """What a chapter's narration is made from: the synthesiser's identity (its kind, voice,
    speed, model and voice file, code and phonemisers; None for recordings only), and each
    recording's hash."""
    if voice is None:
        return None
    from voice.audio import FORMATS  # numpy, av: with a voice only
    from voice.clips import LINE_PAUSE

    takes = {}
    if voice.narration:
        folder = Path(voice.narration) / (chapter.scene_key or chapter.name)
        for path in sorted(folder.glob("*")) if folder.is_dir() else ():
            if path.suffix in FORMATS and path.is_file():  # never a pipe or a folder
                takes[path.name] = file_digest(path).hex()
    speaker = engine_for(voice)  # what a cue's sound depends on: voice, speed, model, code
    said = [speaker.kind.value, *speaker.identity()] if speaker is not None else None
    return VoiceOrigin(voice=said, recordings=takes, pause=LINE_PAUSE, code=voice_code())
