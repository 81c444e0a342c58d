"""The rendering side of render.py: presets, segment records, parallel jobs, assembly.

Knows scenes/ only through its registry and locale tables, and model/ only through the
data file; imports neither Manim nor torch (render.py starts in a fraction of a second).
"""
