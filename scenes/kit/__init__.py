"""What every chapter is built from: ``LectureScene`` and ``say``, numbers, style, components
and subtitles. Imports ``common``, the torch-free half of ``model``, ``syllabus``, ``voice``,
``scenes.patches`` and Manim."""
