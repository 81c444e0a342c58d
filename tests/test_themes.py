"""Themes: text reads against the background (WCAG AA) and the task colours stay apart for
the common colour blindnesses, in every theme."""

from __future__ import annotations

import colorsys
import itertools
from pathlib import Path

import numpy as np
import pytest

from syllabus.themes import MIN_ROLE_DELTA_E, TASK_PALETTE, THEMES, contrast

ROOT = Path(__file__).resolve().parent.parent

# Machado, Oliveira & Fernandes (2009), severity 1.0, applied to linear RGB.
CVD = {
    "protanopia": [
        [0.152286, 1.052583, -0.204868],
        [0.114503, 0.786281, 0.099216],
        [-0.003882, -0.048116, 1.051998],
    ],
    "deuteranopia": [
        [0.367322, 0.860646, -0.227968],
        [0.280085, 0.672501, 0.047413],
        [-0.011820, 0.042940, 0.968881],
    ],
    "tritanopia": [
        [1.255528, -0.076749, -0.178779],
        [-0.078411, 0.930809, 0.147602],
        [0.004733, 0.691367, 0.303900],
    ],
}
MIN_DELTA_E = 10.0  # CIE76 distance in Lab: two task colours must stay clearly apart


def _linear(hex_colour: str) -> np.ndarray:
    c = np.array([int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)])
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _lab(linear_rgb: np.ndarray) -> np.ndarray:
    xyz = np.array(
        [[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]
    ) @ np.clip(linear_rgb, 0, 1)
    xyz = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


@pytest.mark.parametrize("theme", list(THEMES))
def test_every_text_colour_reads_against_the_background(theme: str) -> None:
    t = THEMES[theme]
    for name, colour in t.text_colours().items():
        assert contrast(colour, t.background) >= 4.5, f"{theme}: {name} {colour}"


@pytest.mark.parametrize("vision", ["normal", *CVD])
def test_task_colours_stay_apart_for_colour_blind_viewers(vision: str) -> None:
    matrix = np.eye(3) if vision == "normal" else np.array(CVD[vision])
    labs = {name: _lab(matrix @ _linear(fill)) for name, (fill, _) in TASK_PALETTE.items()}
    for a, b in itertools.combinations(labs, 2):
        assert np.linalg.norm(labs[a] - labs[b]) >= MIN_DELTA_E, f"{vision}: {a} vs {b}"
    shapes = [shape for _, shape in TASK_PALETTE.values()]
    assert len(set(shapes)) == len(shapes)  # and never colour alone: each its own shape


@pytest.mark.parametrize("theme", list(THEMES))
def test_task_colours_never_look_like_a_role(theme: str) -> None:
    """The task's red is not read as the Key's orange, nor its blue as the Query's."""
    t = THEMES[theme]
    for name, (fill, _) in TASK_PALETTE.items():
        for role in ("query", "key", "value"):
            distance = np.linalg.norm(_lab(_linear(fill)) - _lab(_linear(getattr(t, role))))
            assert distance >= MIN_ROLE_DELTA_E, f"{theme}: task {name} vs {role}: {distance:.1f}"


def test_contrast_is_wcag() -> None:
    assert contrast("#000000", "#FFFFFF") == pytest.approx(21.0)
    assert contrast("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.01)


def test_the_theme_in_force_is_the_one_asked_for(scene_env: Path, tmp_path: Path) -> None:
    """A scene takes its colours from its settings' theme (render.py sets it), in the same
    process as a scene of the other theme; the guide's test renders a light lecture and
    runs every gate on it (tests/test_guide.py)."""
    from manim import Line, tempconfig

    from common.settings import settings, tempsettings
    from scenes.chapters.template import TemplateScene
    from scenes.kit import style

    dry = {"dry_run": True, "media_dir": str(tmp_path), "quality": "low_quality"}
    try:
        for name in ("light", "dark"):
            with tempsettings(theme=name), tempconfig(dry):
                scene = TemplateScene()
                scene.setup()
                theme = THEMES[name]
                assert scene.camera.background_color.to_hex() == theme.background
                assert style.FOREGROUND.to_hex() == theme.foreground
                stroke = theme.foreground if theme.lines_in_text_colour else "#FFFFFF"
                assert Line().get_color().to_hex() == stroke
    finally:
        style.use_theme(settings().theme)


@pytest.mark.parametrize("name", list(THEMES))
def test_the_query_colour_the_narration_names_is_the_one_drawn(name: str) -> None:
    """The office says "this {hue} arrow": the theme's Query colour is nearest in hue to the
    named colour of all the colours the narration can name."""

    def hue(hex_colour: str) -> float:
        rgb = (int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
        return colorsys.rgb_to_hsv(*rgb)[0] * 360

    def apart(a: float, b: float) -> float:
        return min(abs(a - b), 360 - abs(a - b))

    theme = THEMES[name]
    nearest = min(TASK_PALETTE, key=lambda c: apart(hue(TASK_PALETTE[c][0]), hue(theme.query)))
    assert theme.query_hue == nearest


@pytest.mark.parametrize("name", list(THEMES))
def test_a_frame_is_the_themes_highlight_unless_told_otherwise(name: str) -> None:
    """Manim's own frame is yellow, which does not read on the light theme's white."""
    from manim import Square, SurroundingRectangle

    from scenes.kit import style

    style.use_theme(name)
    try:
        assert SurroundingRectangle(Square()).get_color() == style.HIGHLIGHT
    finally:
        style.use_theme("dark")


def test_a_vector_of_the_weighted_sum_is_drawn_in_the_theme_in_force() -> None:
    """A chapter's default colour is the theme's when the vector is drawn, not the one in
    force when the chapter was imported: a second theme in one process draws its own."""
    from scenes.kit import style

    style.use_theme("dark")
    from scenes.chapters.weighted_sum import WeightedSum

    try:
        for name in ("light", "dark", "light"):
            style.use_theme(name)
            vector = WeightedSum._vector(None, [0.5, 1.0], "x", "x")
            assert vector.brackets[0].get_stroke_color().to_hex() == THEMES[name].foreground
            assert vector.label.get_color().to_hex() == THEMES[name].foreground
    finally:
        style.use_theme("dark")
