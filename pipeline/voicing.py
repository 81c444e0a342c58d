"""How each chapter of a run is voiced, and the voices' checks before anything renders.

A chapter is voiced by the lecture file's ``chapter_voices`` entry, else its ``voice``
(``--voice`` overrides both); recordings (``--narration``) say the lines they hold, and the
chapter's voice the others.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from common.closure import file_digest
from common.settings import VoiceSettings
from pipeline.options import Run, UsageError
from pipeline.records import VoiceOrigin, voice_code
from syllabus.locale import language
from syllabus.plan import Chapter

UNSAID = ("none", "recorded")  # a chapter voiced so says no line that is not recorded


def mode_of(run: Run, chapter: Chapter) -> str:
    """How a chapter is voiced: the lecture file's ``chapter_voices``, else its ``voice``
    (``--voice`` overrides both): recorded, kokoro, espeak or none."""
    return run.chapter_voices.get(chapter.name, run.voice)


def voice_for(run: Run, lang: str, chapter: Chapter | None = None) -> VoiceSettings | None:
    """The voice settings of one chapter's render in one language (None: silent).

    ``voice = "none"`` with recordings uses the recordings alone; a chapter's own "none" is
    silent, its own "recorded" uses its recordings alone, and a synthesiser says the lines
    not recorded."""
    mode = mode_of(run, chapter) if chapter is not None else run.voice
    if chapter is not None and chapter.name in run.chapter_voices and mode == "none":
        return None  # a chapter of its own silence: its recordings are not used
    if mode == "none" and run.flags.narration is None:
        return None
    cache = str(run.voice_cache.resolve())
    found = run.narration_folder(lang)
    folder = None if found is None else str(found)
    if mode == "kokoro":
        choice = run.voices[lang]
        return VoiceSettings("kokoro", choice.name, choice.speed, folder, cache)
    meta = language(lang)  # espeak's voice is the locale's; "none": recordings only
    engine = "espeak" if mode == "espeak" else None
    return VoiceSettings(engine, meta.voice, float(meta.voice_speed), folder, cache)


def voices_in(run: Run, lang: str) -> Callable[[Chapter], VoiceSettings | None]:
    """Each chapter's voice settings in ``lang``."""
    return lambda chapter: voice_for(run, lang, chapter)


def uses(run: Run, mode: str) -> bool:
    """Whether any chapter of the lecture is voiced by ``mode``."""
    return run.voice == mode or mode in run.chapter_voices.values()


def check_voices(run: Run) -> None:
    """Each language rendered with Kokoro has a voice, one that set-up keeps."""
    if not uses(run, "kokoro"):
        return
    from voice.kokoro import voice_hashes

    for lang in run.langs:
        if lang not in run.voices:
            raise UsageError(
                f"{run.source}: no Kokoro voice for '{lang}': add [voices.{lang}] with a name "
                "(one of voice/kokoro-voices.sha256) and a speed, or render with --voice "
                "espeak or none"
            )
        name = run.voices[lang].name
        if name not in voice_hashes():
            raise UsageError(
                f"{run.source}: 'voices.{lang}.name' is '{name}' "
                f"(allowed: {', '.join(sorted(voice_hashes()))})"
            )


def check_voice_files(run: Run) -> None:
    """Before anything renders: the Kokoro model and each language's voice file are there
    and whole (one line naming a missing or damaged one, and the command that fixes it)."""
    if not uses(run, "kokoro"):
        return
    from voice.kokoro import KokoroError, check_model, check_voice

    try:
        check_model()
        for lang in run.langs:
            check_voice(run.voices[lang].name)
    except KokoroError as err:
        raise UsageError(str(err)) from None


def check_narration(run: Run) -> None:
    """Before anything renders: every recording readable and usable, and the missing ones
    listed (said by the chapter's voice; in a chapter of recordings only, an error)."""
    recorded = [c.name for c in run.selected if mode_of(run, c) == "recorded"]
    if recorded and run.flags.narration is None:
        raise UsageError(
            f"{run.source}: 'chapter_voices.{recorded[0]}' is 'recorded': render with "
            "--narration FOLDER (its recordings)"
        )
    voiced = [c for c in run.selected if voice_for(run, run.langs[0], c) is not None]
    by_key = {key: c for c in voiced for key in (c.name, c.scene_key) if key}
    for lang in run.langs:
        folder = run.narration_folder(lang)
        if folder is None:
            continue
        if not folder.is_dir():
            raise UsageError(f"--narration {folder}: no such folder")
        from pipeline.narration import check_folder
        from voice.clips import VoiceError

        try:
            missing = check_folder(folder, set(by_key))
        except VoiceError as err:
            raise UsageError(str(err)) from None
        unsaid = [m for m in missing if mode_of(run, by_key[m.split("/")[0]]) in UNSAID]
        if unsaid:
            shown = ", ".join(f"{name}.wav" for name in unsaid[:6])
            raise UsageError(
                f"{folder}: {len(unsaid)} recording(s) missing: {shown}"
                + (" ..." if len(unsaid) > 6 else "")
                + " (record them, or render with --voice kokoro or espeak to say them)"
            )
        if missing:
            shown = ", ".join(missing[:6]) + (" ..." if len(missing) > 6 else "")
            said = ", ".join(sorted({mode_of(run, by_key[m.split("/")[0]]) for m in missing}))
            print(f"voice: {len(missing)} line(s) not recorded yet, said by {said}: {shown}")


def voice_record(voice: VoiceSettings | None, chapter: Chapter) -> VoiceOrigin | None:
    """What a chapter's narration is made from: the synthesiser's identity (its engine,
    voice, speed, model and voice file, code and phonemisers; None for recordings only), and
    each recording's hash."""
    if voice is None:
        return None
    from voice.clips import FORMATS, LINE_PAUSE, engine_for

    takes = {}
    if voice.narration:
        folder = Path(voice.narration) / (chapter.scene_key or chapter.name)
        for path in sorted(folder.glob("*")) if folder.is_dir() else ():
            if path.suffix in FORMATS and path.is_file():  # never a pipe or a folder
                takes[path.name] = file_digest(path).hex()
    engine = engine_for(voice)  # what a cue's sound depends on: voice, speed, model, code
    said = [engine.name, *engine.identity()] if engine is not None else None
    return VoiceOrigin(voice=said, recordings=takes, pause=LINE_PAUSE, code=voice_code())


def preflight(run: Run) -> None:
    """Every voice check of the run, before the output folder is made."""
    check_voices(run)
    check_narration(run)
    check_voice_files(run)
