"""Manim's speed-ups, installed together by :func:`install` (nothing is patched on import:
the render worker installs them before Manim starts, an in-process caller (the gates, the
tests, the profile) before it renders, and a scene's own ``setup`` once more, for a plain
``manim`` run; each part is installed once a process).

Each replaces a private part of Manim 0.22 (its Cairo path tracing, its frame encoder, its
mobject copy, family lists and bounding boxes, its texts, its LaTeX and Pango file handling)
with one that gives identical frames, and one tunes Python's cycle collector for Manim's
many small objects; a different Manim is refused with one line, since its private parts may
have moved. Imports ``common`` and Manim.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from importlib.metadata import version

from common.settings import Settings

MANIM = "0.22."  # the Manim these patches were written against and tested with
_installed: set[object] = set()  # the parts install() has put in place in this process


class PatchError(RuntimeError):
    """The installed Manim is not the one the patches were written for."""


def install(settings: Settings) -> None:
    """Install the speed-ups the settings ask for: the fast copy always, the fast frames
    unless ``fast_frames`` is off, the shared formula cache when ``cache`` names one, and
    the profile's timers when ``profile`` does.
    Idempotent: a part already installed by an earlier call is left as it is (so a second
    call does not undo what came between, such as a profile's timers or the gates' cache)."""
    found = version("manim")
    if not found.startswith(MANIM):
        raise PatchError(
            f"scenes/patches: written for Manim {MANIM}x, found {found} "
            "(pin manim>=0.22,<0.23, as pyproject.toml does)"
        )
    from scenes.patches import (
        fastbounds,
        fastcopy,
        fastfamily,
        fastframes,
        gctune,
        texcache,
        textmemo,
        timers,
    )

    parts: list[tuple[object, Callable[[], None]]] = [
        ("fastcopy", fastcopy.install),  # every chapter, rendered or gated, copies fast
        ("textmemo", textmemo.install),  # and parses each text's SVG once
        ("fastbounds", fastbounds.install),  # boxes by numpy, the same numbers
        ("fastfamily", fastfamily.install),  # family lists by one plain walk
        ("gctune", gctune.install),  # and cycles collected in larger batches
    ]
    if settings.fast_frames:  # off only to measure Manim's own way
        parts.append(("fastframes", fastframes.install))  # unchanged outlines, held frames
    if settings.cache is not None:  # formulas and texts shared by workers and runs
        parts.append((settings.cache, partial(texcache.install, settings.cache)))
    if settings.profile is not None:  # last: the timers wrap what the others put in
        parts.append(("timers", partial(timers.install, settings.profile, settings.lang)))
    for part, put in parts:
        if part not in _installed:
            put()
            _installed.add(part)
