"""What the lecture is, without drawing it: the chapter plan, the words of each language,
the themes, the presets and the instructor's lecture file. Imports ``common`` and the
torch-free half of ``model`` (the data file's contract); never Manim, never torch."""
