"""Quality presets: the resolution and frame rate of each segment."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Preset:
    """A render size and frame rate."""

    name: str
    width: int
    height: int
    fps: float

    def with_fps(self, fps: float | None) -> Preset:
        return self if fps is None else Preset(self.name, self.width, self.height, fps)

    def __str__(self) -> str:
        return f"{self.height}p{self.fps:g}"


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset("low", 854, 480, 15),
        Preset("medium", 1280, 720, 30),
        Preset("high", 1920, 1080, 30),
        Preset("production", 1920, 1080, 60),
        Preset("4k", 3840, 2160, 60),
    )
}
