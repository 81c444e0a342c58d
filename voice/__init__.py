"""The narration's sound: recordings, the draft voice and the spoken form of a line.
Imports ``common`` only; never Manim, never torch."""
