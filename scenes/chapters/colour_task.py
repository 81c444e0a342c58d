"""The task (seed 000, 動手玩 ②): eight coloured positions; each must output its colour's mean.

Render alone with ``manim -ql scenes/chapters/colour_task.py ColourTask``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    PI,
    UP,
    ArcBetweenPoints,
    Circumscribe,
    Create,
    FadeIn,
    FadeOut,
    SurroundingRectangle,
    VGroup,
)

from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.diagrams import AttentionFormula
from scenes.kit.emphasis import outline
from scenes.kit.labels import TokenStrip
from scenes.kit.numbers import Count, phrase


class ColourTask(LectureScene):
    """The rule, worked for one position, then every answer; the prediction to check.

    Variants override :attr:`example_name` and :attr:`focus` (the position worked out).
    """

    scene_key = "colour_task"
    reads = ("examples.{example_name}",)
    example_name = "mixed"
    focus = 0

    def construct(self) -> None:
        ex = self.data.example(self.example_name)
        src = f"examples.{self.example_name}"
        title = self.make_title()
        markers = [self.colour_marker(c) for c in ex.colours]
        strip = TokenStrip(markers, ex.values, f"{src}.values").scale(1.6)
        same = [j for j, c in enumerate(ex.colours) if c == ex.colours[self.focus]]
        frames = VGroup(
            *(SurroundingRectangle(strip.get_column(j), buff=style.HUG_BUFF) for j in same)
        )
        count = self.number(Count(f"{src}.colours", ex.colours[self.focus]), 0)
        answer = self.number(f"{src}.targets[{self.focus}]", 2)
        worked = phrase(self.words["worked"], style.BODY_SIZE, k=count, answer=answer)
        worked.next_to(strip, DOWN, buff=style.GROUP_BUFF)
        answers = VGroup(
            *(
                self.number(f"{src}.targets[{j}]", 2, style.BODY_SIZE, style.RESULT).next_to(
                    strip.get_column(j), DOWN, buff=style.GROUP_BUFF * 2.2
                )
                for j, t in enumerate(ex.targets)
            )
        )
        label = style.text(self.words["answers"], style.BODY_SIZE, style.RESULT)
        label.next_to(answers, LEFT, buff=style.GROUP_BUFF)
        answer_box = SurroundingRectangle(answers, buff=style.ITEM_BUFF, color=style.RESULT)
        prediction = style.text(self.words["prediction_line"], style.BODY_SIZE)
        prediction.next_to(answers, DOWN, buff=style.SECTION_BUFF)
        arcs = self._links(strip, ex.colours)
        style.place(VGroup(arcs, strip, frames, worked, answers, label, answer_box, prediction))

        self.add(title)  # the title at once: no frame is only a title being written
        formula = AttentionFormula()
        style.place(formula)
        # the formula alone proves nothing; what a task must test is its weights: whom to look at
        self.say(
            "intro",
            FadeIn(formula),
            then=[[Circumscribe(formula.attention[0:7], color=style.HIGHLIGHT)]],
        )
        self.say(
            "strip",
            FadeOut(formula, shift=UP * 0.3),
            FadeIn(strip, lag_ratio=0.1),
            n=ex.n,
            colours=self.colour_list(),
        )
        colour = self.colour_name(ex.colours[self.focus])
        self.say("rule", FadeIn(frames), colour=colour, pos=self.focus + 1)
        self.say("worked_say", FadeIn(worked), k=count, answer=answer)
        self.play(FadeOut(worked), FadeOut(frames))
        self.say("all_answers", FadeIn(answers, lag_ratio=0.1), FadeIn(label), FadeIn(answer_box))
        self.say(
            "only_way",
            outline(strip),
            beats={
                "same": [Create(arcs, lag_ratio=0.2)],
                "only": [outline(arcs)],
            },
            run_time=2.5,
        )
        self.say(
            "prediction",
            FadeIn(prediction),
            beats={"refutable": [Circumscribe(prediction, color=style.HIGHLIGHT)]},
        )

    def _links(self, strip: TokenStrip, colours: list[int]) -> VGroup:
        """An arc over the strip between every two positions of one colour, in that colour."""
        arcs = VGroup()
        for a in range(len(colours)):
            for b in range(a + 1, len(colours)):
                if colours[a] == colours[b]:
                    fill = style.task_colour(self.data.colour_names[colours[a]]).fill
                    arcs.add(
                        ArcBetweenPoints(
                            strip.get_column(b).get_top() + UP * style.HUG_BUFF,
                            strip.get_column(a).get_top() + UP * style.HUG_BUFF,
                            angle=PI / 2 * (1 + (b - a) / len(colours)) / 2,
                            color=fill,
                            stroke_width=4,
                        )
                    )
        return arcs
