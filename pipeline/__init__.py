"""From the data file to finished files: which segments are stale, rendering them in worker
processes, joining them into the lecture with its captions, sound track and viewers' page.

Imports ``common``, the torch-free half of ``model``, ``syllabus`` and ``voice``; never
Manim or torch (render.py starts in a fraction of a second). Scenes are rendered by file
path in workers, never imported here.
"""
