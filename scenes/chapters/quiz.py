"""Quiz (seed 000): three questions on what the lecture showed, each with a visible "pause
and think" countdown, then the answer with its one-line reason and its measured numbers.

Render alone with ``manim -ql scenes/chapters/quiz.py Quiz``.
"""

from __future__ import annotations

import math

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Circle,
    Circumscribe,
    Create,
    FadeIn,
    FadeOut,
    LaggedStartMap,
    RoundedRectangle,
    SurroundingRectangle,
    Uncreate,
    ValueTracker,
    VGroup,
    Write,
    always_redraw,
    linear,
)

from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.numbers import Ref, phrase

SQRT_D = "pitfalls.sqrt_d.dims"
SHUFFLE = "pitfalls.shuffle.without_positions.max_abs_diff"


class Quiz(LectureScene):
    """Question, countdown, answer; three times.

    Variants override :attr:`pause` (seconds of the countdown).
    """

    scene_key = "quiz"
    reads = ("pitfalls.shuffle", "pitfalls.sqrt_d")
    pause = 5

    def construct(self) -> None:
        self.title = self.make_title()
        self.add(self.title)  # the title at once: no frame is only a title being written
        badges = VGroup(
            *(
                VGroup(
                    Circle(radius=0.45).set_stroke(style.MUTED, 4),
                    style.name_text(str(k), style.TITLE_SIZE),
                )
                for k in (1, 2, 3)
            )
        ).arrange(RIGHT, buff=style.WIDE_BUFF)
        (ring, seconds), _ = self._countdown()
        style.place(VGroup(badges, ring).arrange(RIGHT, buff=style.WIDE_BUFF * 2))
        seconds.update()
        # three questions, then the pause each one gets: the ring the questions will count down
        self.say(
            "intro",
            LaggedStartMap(FadeIn, badges, lag_ratio=0.3),
            then=[[Create(ring), FadeIn(seconds)]],
        )
        seconds.clear_updaters()
        self.play(FadeOut(VGroup(badges, ring, seconds)))
        for k in (1, 2, 3):
            self._question(k)

    def _answer(self, k: int) -> tuple[VGroup, dict]:
        """The answer line of question ``k`` and the numbers its narration says."""
        if k == 2:
            diff = self.number(SHUFFLE, 1, notation="scientific")
            return phrase(self.words["a2"], style.BODY_SIZE, diff=diff), {"diff": diff}
        if k == 3:
            last = len(self.data.sqrt_d.dims) - 1
            numbers = {
                "d": self.number(f"{SQRT_D}[{last}].d", 0),
                "unscaled": self.number(f"{SQRT_D}[{last}].mean_max_unscaled", 2),
                "scaled": self.number(f"{SQRT_D}[{last}].mean_max_scaled", 2),
            }
            return phrase(self.words["a3"], style.BODY_SIZE, **numbers), numbers
        return VGroup(style.text(self.words["a1"], style.BODY_SIZE)), {}

    def _countdown(self) -> tuple[VGroup, ValueTracker]:
        ring = Circle(radius=0.7).set_stroke(style.HIGHLIGHT, 6)
        left = ValueTracker(self.pause)

        def seconds() -> VGroup:
            shown = max(1, math.ceil(left.get_value() - 1e-9))
            return style.name_text(str(shown), style.TITLE_SIZE).move_to(ring)

        return VGroup(ring, always_redraw(seconds)), left

    def _question(self, k: int) -> None:
        heading = style.text(self.words.format("question", k=k), style.BODY_SIZE, style.MUTED)
        question = style.text(self.words[f"q{k}"], style.TITLE_SIZE)
        answer, numbers = self._answer(k)
        (ring, seconds), left = self._countdown()
        top = VGroup(heading, question).arrange(DOWN, aligned_edge=LEFT, buff=style.ITEM_BUFF)
        choices, right = self._choices(k)
        box = SurroundingRectangle(answer, color=style.RESULT, buff=style.GROUP_BUFF)
        body = VGroup(top, choices, VGroup(answer, box)).arrange(
            DOWN, aligned_edge=LEFT, buff=style.WIDE_BUFF
        )
        style.place(VGroup(body, ring).arrange(RIGHT, buff=style.WIDE_BUFF, aligned_edge=UP))
        seconds.update()
        self.say(
            f"ask_{k}",
            FadeIn(heading),
            Write(question),
            then=[[LaggedStartMap(FadeIn, choices, lag_ratio=0.3)]],
        )
        self.say("pause", Create(ring), FadeIn(seconds))
        self.play(left.animate.set_value(0), Uncreate(ring), run_time=self.pause, rate_func=linear)
        seconds.clear_updaters()
        wrong = [c for j, c in enumerate(choices) if j != right]
        exact = k == 2 and self.data.value(Ref(SHUFFLE)) == 0  # summed in the same order
        self.say(
            f"answer_{k}_exact" if exact else f"answer_{k}",
            FadeOut(seconds),
            choices[right][0].animate.set_stroke(style.RESULT, 6),
            *(c[0].animate.set_stroke(opacity=style.DIMMED) for c in wrong),
            *(c[1].animate.set_opacity(style.DIMMED) for c in wrong),
            FadeIn(answer, shift=UP * 0.2),
            Create(box),
            # on the words that give the reason (a frame: nothing grows over its numbers)
            beats={"why": [Circumscribe(answer[0], color=style.HIGHLIGHT)]},
            **numbers,
        )
        self.play(FadeOut(VGroup(heading, question, choices, answer, box)))

    def _choices(self, k: int) -> tuple[VGroup, int]:
        """Question ``k``'s choices in boxes, side by side, and which one is right."""
        said, right = self.choices(f"choices_{k}")
        choices = VGroup()
        for choice in said:
            label = style.text(choice, style.TITLE_SIZE)
            frame = RoundedRectangle(
                corner_radius=0.1,
                width=label.width + 2 * style.GROUP_BUFF,
                height=label.height + 2 * style.GROUP_BUFF,
            ).set_stroke(style.MUTED, 3)
            choices.add(VGroup(frame, label.move_to(frame)))
        return choices.arrange(RIGHT, buff=style.WIDE_BUFF), right
