"""A short test chapter: a circle and two subtitle cues."""

from manim import GREEN, Circle, FadeIn, Scene


class Second(Scene):
    def construct(self) -> None:
        self.add_subcaption("第二章的第一句", duration=1.2)
        self.add_subcaption("第二章的第二句", duration=1.2, offset=1.2)
        self.play(FadeIn(Circle(color=GREEN)), run_time=1)
        self.wait(1.5)
