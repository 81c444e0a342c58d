"""The files the project writes for itself, each shape declared once (pydantic, as the
inputs are): a segment's narrated lines, a narration script's list, the render times.

Each model says where its file lives (``SUFFIX`` beside a video, or ``NAME`` in a folder),
writes it atomically and reads it back validated; writers and readers share the one model,
so the shape and the name are spelled here only. Imports nothing of ours but ``common``.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Annotated, ClassVar, Self

from pydantic import Field, RootModel, StringConstraints, ValidationError

from common.atomic import write_text_atomic
from common.schema import Shape, one_line


class OwnFileError(ValueError):
    """A file the project wrote is missing pieces or is not the shape it writes."""


class OutsideFolderError(ValueError):
    """A path made from input (a name, a language, a recording) leads out of its folder."""


def inside(folder: Path, *parts: str) -> Path:
    """``folder/parts...``, checked to stay inside ``folder`` once ``..`` is resolved (a link
    the user made is theirs to follow); otherwise :class:`OutsideFolderError` naming both."""
    path = Path(folder).joinpath(*parts)
    base = os.path.normpath(os.path.abspath(folder))
    if os.path.commonpath([base, os.path.normpath(os.path.abspath(path))]) != base:
        raise OutsideFolderError(f"{path} leads out of {folder}: a name may not hold '..' or '/'")
    return path


def resolved(path: Path, what: str, error: type[Exception]) -> Path:
    """``path`` with its links followed; a link that leads back to itself on the way is one
    line of ``error`` naming ``what`` and the path (Python's ``resolve`` raises RuntimeError
    for it before 3.13, OSError ELOOP from 3.13)."""
    try:
        return Path(path).resolve()
    except (RuntimeError, OSError) as err:
        if isinstance(err, OSError) and err.errno != errno.ELOOP:
            raise
        raise error(
            f"{what} {path} is a loop of symbolic links (one leads back to another)"
        ) from None


def odd_file(path: Path) -> str | None:
    """What stands at ``path`` when it is there but is no regular file ("a folder", "a link
    to nothing, or a loop of links", "not a regular file": a pipe, a device), never
    opened; None when it is a regular file or nothing is there."""
    if not os.path.lexists(path) or path.is_file():
        return None
    if path.is_dir():
        return "a folder"
    if path.is_symlink() and not path.exists():
        return "a link to nothing, or a loop of links"
    return "not a regular file"


# A recording's name, as narration.json lists it: ``<scene>/<nn>-<key>`` (no '..', no '/').
RecordingName = Annotated[
    str,
    StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}/[0-9]{2,3}-[A-Za-z0-9_-]{1,64}$"),
]
SceneName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")]


class _Own:
    """Atomic writing and validated reading, shared by the models below."""

    def write(self, path: Path) -> Path:
        write_text_atomic(path, self.model_dump_json(indent=1, exclude_none=True) + "\n")
        return path

    @classmethod
    def read(cls, path: Path) -> Self:
        """The file at ``path``; a missing one raises FileNotFoundError, a damaged one
        :class:`OwnFileError` naming the file and the key."""
        if Path(path).exists() and not Path(path).is_file():  # a folder, a pipe: never read
            raise OwnFileError(f"{path}: not a regular file")
        try:
            text = Path(path).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise OwnFileError(f"{path}: not UTF-8 text") from None
        try:
            return cls.model_validate_json(text)
        except ValidationError as err:
            raise OwnFileError(one_line(str(path), err)) from None


class NarratedLine(Shape):
    """One line a scene said (one ``LectureScene.say``), in the segment's time."""

    model_config = Shape.model_config | {"strict": False}  # JSON gives ints for whole floats
    index: int = Field(ge=1)  # its place in the scene, from 1
    key: str  # its locale key
    text: str  # the words as said, numbers filled in
    start: float = Field(ge=0)
    end: float = Field(ge=0)
    clip: str | None = None  # with a voice: the line's audio clip
    seconds: float | None = None  # and its length
    cues: list[float] | None = None  # with a voice: each cue's start, from the line's start
    parts: list[str] | None = None  # synthesised: its cues' clips (names, in the clip's folder)


class LinesFile(_Own, Shape):
    """``<segment>.lines.json``, beside each segment: where each narrated line starts and
    ends (and its clip, with a voice). The mixer and the viewers' page read it."""

    SUFFIX: ClassVar[str] = ".lines.json"
    lines: list[NarratedLine]

    @classmethod
    def beside(cls, video: Path) -> Path:
        """Where the lines of ``video`` are."""
        return Path(video).with_suffix(cls.SUFFIX)


class ScriptLine(Shape):
    """One line to record: its chapter, its recording's name (no extension) and its words."""

    scene: SceneName
    file: RecordingName
    text: str


class NarrationFile(_Own, Shape):
    """``<narration>/narration.json``: every line of the script, in order."""

    NAME: ClassVar[str] = "narration.json"
    lang: str
    lines: list[ScriptLine]


class RenderTimes(_Own, RootModel[dict[str, float]]):
    """``<out>/.cache/render-seconds.json``: each scene's last render time, by
    ``"<scene> <language>"``."""

    NAME: ClassVar[str] = "render-seconds.json"
