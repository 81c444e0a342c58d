"""The quality gates: every scene dry-run and measured (layout, beats, subtitles, numbers),
and the video files checked. Imports ``scenes.kit``, ``syllabus``, ``common`` and Manim."""
