"""A short test chapter: a square and one subtitle cue."""

from manim import BLUE, Create, Scene, Square


class First(Scene):
    def construct(self) -> None:
        self.add_subcaption("第一章的字幕", duration=1.5)
        self.play(Create(Square(color=BLUE)), run_time=1)
        self.wait(1)
