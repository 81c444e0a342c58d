"""espeak-ng, the light draft voice: each language's own (its locale's ``[meta] voice`` and
``voice_speed``), said by the ``espeak-ng`` program."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from common.npm import SETUP
from common.voices import VoiceKind
from voice.engine import Choice, PreflightError, Use, VoiceEngine, VoiceError, code_of

if TYPE_CHECKING:
    import numpy as np

MISSING = f"espeak-ng is not installed ({SETUP} installs it)"
CODE = ("clips", "audio", "engines.espeak")  # what turns its words into a cue's samples


@cache
def _version() -> str:
    try:
        found = subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True)
    except FileNotFoundError:
        raise VoiceError(MISSING) from None
    return found.stdout.strip()


@dataclass(frozen=True)
class Espeak(VoiceEngine):
    """espeak-ng's ``voice`` (``cmn-latn-pinyin``) at ``speed`` words a minute."""

    kind: ClassVar[VoiceKind] = VoiceKind.ESPEAK
    says_unrecorded: ClassVar[bool] = True
    setup: ClassVar[str | None] = SETUP

    voice: str
    speed: int

    @classmethod
    def check_ready(cls, use: Use) -> None:
        if shutil.which("espeak-ng") is None:
            raise PreflightError(MISSING)

    @classmethod
    def speaker(cls, choice: Choice) -> Espeak:
        return cls(choice.name, round(choice.speed))

    def identity(self) -> tuple[str, ...]:
        return (self.voice, str(self.speed), _version(), code_of(*CODE))

    def samples(self, text: str) -> np.ndarray:
        from voice.audio import decode

        with tempfile.TemporaryDirectory() as work:
            raw = Path(work) / "cue.wav"
            command = ["espeak-ng", "-v", self.voice, "-s", str(self.speed), "-w", str(raw)]
            try:
                result = subprocess.run(
                    [*command, "--stdin"],
                    input=text.encode("utf-8"),
                    capture_output=True,
                    timeout=120,
                )
            except FileNotFoundError:
                raise VoiceError(MISSING) from None
            if result.returncode != 0 or not raw.is_file():
                message = result.stderr.decode("utf-8", "replace").strip()
                raise VoiceError(
                    f"espeak-ng -v {self.voice} failed: {message or 'no audio written'}"
                )
            return decode(raw)
