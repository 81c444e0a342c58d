"""A test chapter that fails while it renders."""

from manim import Scene


class Broken(Scene):
    def construct(self) -> None:
        self.wait(0.5)
        raise RuntimeError("deliberately broken scene")
