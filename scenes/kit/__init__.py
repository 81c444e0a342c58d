"""What every chapter is built from: ``LectureScene`` and ``say`` (``base``, which plays the
``planner``'s plan of a line), numbers, style, subtitles and the shared pictures (``labels``,
``maps``, ``vectors``, ``diagrams``). Imports ``common``, the torch-free half of ``model``,
``syllabus``, ``voice``, ``scenes.patches`` and Manim (all but ``planner``)."""
