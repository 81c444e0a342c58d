"""Manim's speed-ups, installed together by :func:`scenes.patches.install` (nothing is
patched on import). Imports ``common`` and Manim."""
