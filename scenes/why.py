"""Why we need attention (seed 000): inputs of varying length, and one word with two meanings.

With one fixed vector per word, 蘋果 the company and 蘋果 the fruit get the same vector.
The goal, drawn with the numbers of "我 吃 蘋果": the vector, plus a change its neighbours
make, moves toward the word's meaning in this sentence.
Render alone with ``manim -ql scenes/why.py WhyAttention``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    PI,
    RIGHT,
    UP,
    Arrow,
    Circumscribe,
    Create,
    FadeIn,
    FadeOut,
    GrowArrow,
    Indicate,
    ReplacementTransform,
    Square,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
    Write,
)

from scenes import style
from scenes.base import LectureScene
from scenes.components import NumberVector
from scenes.numbers import Ref, Spoken

EAT = "tokens.eat_apple"
EAT_DIM, FOOD_DIM = 1, 2  # the plane's axes: the "eat" and "food" dimensions


def _boxes(n: int) -> VGroup:
    """A row of ``n`` input slots."""
    return VGroup(*(Square(0.6).set_stroke(style.MUTED, 2) for _ in range(n))).arrange(
        RIGHT, buff=style.ITEM_BUFF
    )


class WhyAttention(LectureScene):
    """Lengths vary; two 蘋果 share one vector; the goal: a vector moved by its context."""

    scene_key = "why"
    reads = ("tokens.eat_apple",)

    def construct(self) -> None:
        self.ex = self.data.eat_apple
        self.title = self.make_title()
        self._lengths()
        self._two_meanings()
        self._goal()

    def _lengths(self) -> None:
        fixed = _boxes(7)
        label = style.text(self.words["fixed_input"], style.BODY_SIZE, style.MUTED)
        style.place(VGroup(label, fixed).arrange(DOWN, buff=style.GROUP_BUFF))
        self.say("intro", Write(self.title), FadeIn(fixed, lag_ratio=0.1), FadeIn(label))
        short, long = _boxes(4).move_to(fixed), _boxes(16).move_to(fixed)
        self.say(
            "lengths",
            FadeOut(label),
            ReplacementTransform(fixed, short),
            then=[[ReplacementTransform(short, long)]],
        )
        self.play(FadeOut(long))

    def _sentence(self, words: list[str], meaning: str) -> VGroup:
        row = VGroup(*(style.text(w, style.TITLE_SIZE) for w in words))
        row.arrange(RIGHT, buff=style.GROUP_BUFF)
        return VGroup(row, style.text(meaning, style.LABEL_SIZE, style.MUTED))

    def _vector(self, row: list[float], source: str, label: str) -> NumberVector:
        return NumberVector(row, source, label, style.FOREGROUND, 1, style.BODY_SIZE)

    def _two_meanings(self) -> None:
        i = self.ex.query_index
        company = self._sentence(self.words["company"].split(","), self.words["company_means"])
        fruit = self._sentence(self.apple_words()[: self.ex.short], self.words["fruit_means"])
        apples = [company[0][int(self.words["company_apple"])], fruit[0][i]]
        vectors = VGroup(*(self._vector(self.ex.x[i], f"{EAT}.x[{i}]", "") for _ in range(2)))
        rows = VGroup(
            *(
                VGroup(s[0], v).arrange(RIGHT, buff=style.WIDE_BUFF)
                for s, v in zip((company, fruit), vectors, strict=True)
            )
        )
        rows.arrange(DOWN, aligned_edge=LEFT, buff=style.WIDE_BUFF)
        for s in (company, fruit):
            s[1].next_to(s[0], DOWN, buff=style.ITEM_BUFF, aligned_edge=LEFT)
        equal = style.text("=", style.TITLE_SIZE).rotate(PI / 2).move_to(vectors)
        same = style.text(self.words["same"], style.BODY_SIZE).next_to(
            vectors, RIGHT, buff=style.GROUP_BUFF
        )
        style.place(VGroup(rows, company[1], fruit[1], same))
        equal.move_to(vectors)
        self.say("deadly", FadeIn(company[0]), FadeIn(fruit[0]))
        frames = VGroup(
            *(SurroundingRectangle(a, color=style.HIGHLIGHT, buff=style.HUG_BUFF) for a in apples)
        )
        self.say("two_meanings", Create(frames), FadeIn(company[1]), FadeIn(fruit[1]))
        self.say(
            "fixed",
            *(TransformFromCopy(a, v) for a, v in zip(apples, vectors, strict=True)),
            then=[[FadeIn(same)]],
        )
        self.say("impossible", FadeIn(equal), Indicate(vectors, color=style.HIGHLIGHT))
        self.clear_below_title(self.title)

    def _goal(self) -> None:
        i, ex = self.ex.query_index, self.ex
        sentence = VGroup(
            *(style.text(w, style.TITLE_SIZE) for w in self.apple_words()[: ex.short])
        )
        sentence.arrange(RIGHT, buff=style.GROUP_BUFF)
        x = self._vector(ex.x[i], f"{EAT}.x[{i}]", "")
        change = self._vector(ex.last_row.outputs[0], f"{EAT}.last_row.outputs[0]", "")
        change.set_color(style.MUTED)
        new = self._vector(ex.residual, f"{EAT}.residual", "")
        dims = VGroup(
            *(
                style.text(d, style.LABEL_SIZE, style.MUTED).next_to(x.get_entry(k), UP)
                for k, d in enumerate(self.shared("eat_apple")["dims"].split(","))
            )
        )
        plus, equals = style.text("+", style.TITLE_SIZE), style.text("=", style.TITLE_SIZE)
        column = VGroup(VGroup(dims, x), plus, change, equals, new).arrange(
            DOWN, buff=style.ITEM_BUFF
        )
        change_label = style.text(self.words["change"], style.LABEL_SIZE, style.MUTED)
        change_label.next_to(change, RIGHT, buff=style.GROUP_BUFF)
        box = SurroundingRectangle(new, color=style.RESULT, buff=style.HUG_BUFF)
        left = VGroup(sentence, VGroup(column, change_label, box)).arrange(
            DOWN, buff=style.SECTION_BUFF
        )
        plane, arrows, labels = self._plane(x, change, new)
        style.place(
            VGroup(left, VGroup(plane, labels, arrows)).arrange(RIGHT, buff=style.WIDE_BUFF)
        )
        self.say(
            "goal",
            FadeIn(sentence),
            then=[
                [
                    TransformFromCopy(sentence[i], x),
                    FadeIn(dims),
                    Create(plane),
                    FadeIn(labels[:2]),
                    GrowArrow(arrows[0]),
                ]
            ],
        )
        self.say(
            "add_change",
            FadeIn(plus),
            TransformFromCopy(sentence[EAT_DIM], change),
            FadeIn(change_label),
            then=[[GrowArrow(arrows[1])]],
            eat=Spoken(  # as the vectors show it: one decimal
                ex.last_row.outputs[0][EAT_DIM], 1, Ref(f"{EAT}.last_row.outputs[0][{EAT_DIM}]")
            ),
        )
        self.say(
            "moved",
            FadeIn(equals),
            TransformFromCopy(VGroup(x, change), new),
            Create(box),
            then=[[GrowArrow(arrows[2]), FadeIn(labels[2])]],
        )
        self.say(
            "how",
            Circumscribe(VGroup(change, change_label), color=style.HIGHLIGHT),
            Indicate(arrows[1], color=style.HIGHLIGHT),
        )

    def _plane(self, x: NumberVector, change: NumberVector, new: NumberVector) -> tuple:
        """The eat-food plane: the word's vector, the change, and where they land."""
        ex, i = self.ex, self.ex.query_index
        top = 1.5
        plane = style.muted_axes([0, top, 0.5], [0, top, 0.5], 4.6, 4.6)
        axis_x = style.text(self.words["dims_axis_x"], style.LABEL_SIZE, style.MUTED)
        axis_y = style.text(self.words["dims_axis_y"], style.LABEL_SIZE, style.MUTED)
        axis_x.next_to(plane.x_axis, DOWN, buff=style.ITEM_BUFF)
        axis_y.next_to(plane.y_axis, LEFT, buff=style.ITEM_BUFF)

        def point(v: list[float]):
            return plane.c2p(v[EAT_DIM], v[FOOD_DIM])

        start, tip, end = plane.c2p(0, 0), point(ex.x[i]), point(ex.residual)
        arrows = VGroup(
            Arrow(start, tip, buff=0, color=style.FOREGROUND),
            Arrow(tip, end, buff=0, color=style.MUTED),
            Arrow(start, end, buff=0, color=style.RESULT, stroke_width=8),
        )
        meaning = style.text(self.words["new"], style.LABEL_SIZE).next_to(
            end, UP, buff=style.ITEM_BUFF
        )
        return plane, arrows, VGroup(axis_x, axis_y, meaning)
