"""The Manim side of the lecture: one module per chapter, shared style and components.

Scenes read numbers only through :func:`scenes.kit.base.lecture_data` (the data file's
loader, which imports no torch) and words only from the locale tables in
``syllabus/locales``.
"""
