"""The lecture's scenes, in order. render.py reads this list; it imports no Manim."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

SCENES_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True)
class SceneEntry:
    """One rendered segment: a Manim scene class in a module of scenes/."""

    name: str  # the name given to ``render.py --scenes``
    module: str  # file stem in scenes/
    class_name: str

    @property
    def file(self) -> Path:
        return SCENES_DIR / f"{self.module}.py"


LECTURE: tuple[SceneEntry, ...] = (SceneEntry("attention_map", "attention_map", "AttentionMap"),)


# Not part of the lecture, but held to the same gates: the starting point of a new scene.
TEMPLATE = SceneEntry("template", "template", "TemplateScene")
CHECKED: tuple[SceneEntry, ...] = (*LECTURE, TEMPLATE)


def scene_names() -> list[str]:
    return [entry.name for entry in LECTURE]
