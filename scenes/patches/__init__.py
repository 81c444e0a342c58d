"""Manim's speed-ups, installed together by :func:`install` (nothing is patched on import).

Each replaces a private part of Manim 0.22 (its Cairo path tracing, its frame encoder, its
mobject copy, its LaTeX and Pango file handling) with one that gives identical frames; a
different Manim is refused with one line, since its private parts may have moved. Imports
``common`` and Manim.
"""

from __future__ import annotations

from importlib.metadata import version

from common.settings import Settings

MANIM = "0.22."  # the Manim these patches were written against and tested with


class PatchError(RuntimeError):
    """The installed Manim is not the one the patches were written for."""


def install(settings: Settings) -> None:
    """Install the speed-ups the settings ask for: the fast copy always, the fast frames
    unless ``fast_frames`` is off, and the shared formula cache when ``cache`` names one."""
    found = version("manim")
    if not found.startswith(MANIM):
        raise PatchError(
            f"scenes/patches: written for Manim {MANIM}x, found {found} "
            "(pin manim>=0.22,<0.23, as pyproject.toml does)"
        )
    from scenes.patches import fastcopy, fastframes, texcache, textmemo

    fastcopy.install()  # every chapter, rendered or gated, copies mobjects the fast way
    textmemo.install()  # and parses each text's SVG once
    if settings.fast_frames:  # off only to measure Manim's own way
        fastframes.install()  # unchanged outlines and held frames without repeating work
    if settings.cache is not None:
        texcache.install(settings.cache)  # formulas and texts shared by workers and runs
