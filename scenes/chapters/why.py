"""Why we need attention (seed 000): inputs of varying length, and one word with two meanings.

With one fixed vector per word, 蘋果 the company and 蘋果 the fruit get the same vector.
The goal, drawn with the numbers of "我 吃 蘋果": the vector, plus a change its neighbours
make, moves toward the word's meaning in this sentence.
Render alone with ``manim -ql scenes/chapters/why.py WhyAttention``.
"""

from __future__ import annotations

import math

from manim import (
    DOWN,
    LEFT,
    PI,
    RIGHT,
    UP,
    Arrow,
    Create,
    FadeIn,
    FadeOut,
    GrowArrow,
    MathTex,
    ReplacementTransform,
    Square,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
    Write,
)

from scenes.kit import style
from scenes.kit.base import LectureScene, top_index
from scenes.kit.emphasis import outline
from scenes.kit.maps import fit_column_labels
from scenes.kit.vectors import FixedInputNetwork, NumberVector

EAT = "tokens.eat_apple"
PLANE_SIDE = 4.6  # the length of each axis of the plane


FIXED_SLOTS = 7  # the earlier lectures' network: an input of this many numbers, always
SLOT = 0.5  # side of one input slot


def _boxes(n: int, side: float) -> VGroup:
    """A row of ``n`` input slots, side by side."""
    return VGroup(*(Square(side).set_stroke(style.MUTED, 1.5) for _ in range(n))).arrange(
        RIGHT, buff=0
    )


class WhyAttention(LectureScene):
    """Lengths vary; two 蘋果 share one vector; the goal: a vector moved by its context."""

    scene_key = "why"
    needs = ("walkthrough.other_sense",)  # the asking word where it means something else
    reads = ("tokens.eat_apple",)
    tables = ("dead_ends",)  # the earlier network's name; the two ideas the next chapter tries

    def construct(self) -> None:
        self.ex = ex = self.data.eat_apple
        i = ex.query_index
        # The plane's axes: what the neighbours add most, and what the word means most.
        self.across = top_index(ex.last_row.outputs[0])
        self.up = top_index(ex.x[i])
        if self.up == self.across:  # one dimension does both: the next largest change
            change = ex.last_row.outputs[0]
            self.across = max((c for c in range(ex.d) if c != self.up), key=change.__getitem__)
        self.title = self.make_title()
        self._lengths()
        self._two_meanings()
        self._goal()

    def _lengths(self) -> None:
        network = FixedInputNetwork(FIXED_SLOTS, self.shared("dead_ends")["network"], SLOT)
        label = style.text(self.words["fixed_input"], style.BODY_SIZE, style.MUTED)
        style.place(VGroup(label, network).arrange(DOWN, buff=style.GROUP_BUFF), grow=2.2)
        self.add(self.title, network)  # at once: no frame is only a title being written
        self.say(
            "intro",
            FadeIn(label),
            beats={"fixed": [outline(network.get_socket())]},
        )
        short_n, long_n = int(self.words["short"]), int(self.words["long"])
        slots = network.get_slots()
        side = slots[0].width
        short = _boxes(short_n, side).align_to(slots, LEFT).match_y(slots)
        # the long input, in slots small enough to cross the frame: it runs past the socket
        long = _boxes(long_n, min(side, (style.content_area()[2] - slots.get_left()[0]) / long_n))
        long.align_to(slots, LEFT).match_y(slots)
        self.say(
            "lengths",
            FadeOut(label),
            beats={
                "five": [ReplacementTransform(slots, short)],
                "fifty": [ReplacementTransform(short, long, lag_ratio=0.01)],
            },
            short=short_n,
            long=long_n,
        )
        self.slots = VGroup(network, long)  # they stay until the two sentences take their place

    def _sentence(self, words: list[str], meaning: str) -> VGroup:
        row = VGroup(*(style.text(w, style.TITLE_SIZE) for w in words))
        row.arrange(RIGHT, buff=style.GROUP_BUFF)
        return VGroup(row, style.text(meaning, style.LABEL_SIZE, style.MUTED))

    def _vector(self, row: list[float], source: str, label: str, decimals: int = 1) -> NumberVector:
        """A vector of the walkthrough: its hand-picked inputs at 1 decimal, what attention
        computes from them at 2 (as the later chapters say them)."""
        return NumberVector(row, source, label, style.FOREGROUND, decimals, style.BODY_SIZE)

    def _two_meanings(self) -> None:
        i, sense = self.ex.query_index, self.ex.other_sense
        there, here = self.names_of(sense.means, "means")
        other = sense.gloss if self.shows_gloss() and sense.gloss else sense.tokens
        company = self._sentence(other, there)
        fruit = self._sentence(self.apple_words()[: self.ex.short], here)
        apples = [company[0][sense.word], fruit[0][i]]
        vectors = VGroup(*(self._vector(self.ex.x[i], f"{EAT}.x[{i}]", "") for _ in range(2)))
        rows = VGroup(
            *(
                VGroup(s[0], v).arrange(RIGHT, buff=style.WIDE_BUFF)
                for s, v in zip((company, fruit), vectors, strict=True)
            )
        )
        rows.arrange(DOWN, aligned_edge=LEFT, buff=style.WIDE_BUFF * 2)  # the frame's height
        right = max(v.get_left()[0] for v in vectors)
        for v in vectors:  # one column: the same vector, one above the other
            v.shift(RIGHT * (right - v.get_left()[0]))
        for s in (company, fruit):
            s[1].next_to(s[0], DOWN, buff=style.ITEM_BUFF, aligned_edge=LEFT)
        equal = style.text("=", style.TITLE_SIZE).rotate(PI / 2).move_to(vectors)
        same = style.text(self.words["same"], style.BODY_SIZE).next_to(
            vectors, RIGHT, buff=style.GROUP_BUFF
        )
        style.place(VGroup(rows, company[1], fruit[1], same))
        equal.move_to(vectors)
        self.say(
            "deadly",
            outline(self.slots),
            beats={"look": [FadeOut(self.slots), FadeIn(company[0]), FadeIn(fruit[0])]},
        )
        frames = VGroup(
            *(SurroundingRectangle(a, color=style.HIGHLIGHT, buff=style.HUG_BUFF) for a in apples)
        )
        self.say(
            "two_meanings",
            Create(frames),
            FadeIn(company[1]),
            FadeIn(fruit[1]),
            there=there,
            here=here,
        )
        cased = other[sense.word] != self.apple_words()[i]  # "Apple" and "apple"
        self.say(
            "fixed_case" if cased else "fixed",
            *(TransformFromCopy(a, v) for a, v in zip(apples, vectors, strict=True)),
            then=[[FadeIn(same)]],
        )
        self.say(
            "impossible",
            outline(vectors),
            beats={"two": [outline(company[1], fruit[1])], "same": [FadeIn(equal)]},
        )
        self.clear_below_title(self.title)

    def _goal(self) -> None:
        i, ex = self.ex.query_index, self.ex
        sentence = VGroup(
            *(style.text(w, style.TITLE_SIZE) for w in self.apple_words()[: ex.short])
        )
        sentence.arrange(RIGHT, buff=style.GROUP_BUFF)
        x = self._vector(ex.x[i], f"{EAT}.x[{i}]", "")
        change = self._vector(ex.last_row.outputs[0], f"{EAT}.last_row.outputs[0]", "", 2)
        change.set_color(style.MUTED)
        new = self._vector(ex.residual, f"{EAT}.residual", "", 2)
        dims = fit_column_labels(
            VGroup(
                *(
                    style.text(d, style.LABEL_SIZE, style.MUTED).next_to(x.get_entry(k), UP)
                    for k, d in enumerate(self.dim_names(ex))
                )
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
            DOWN, buff=style.WIDE_BUFF
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
        # What a real model multiplies the average by first: named, muted (no numbers here:
        # this walkthrough adds the average as it is).
        w_o = MathTex(r"\times\,W_O", font_size=style.SYMBOL_SIZE * 0.6, color=style.MUTED)
        w_o.next_to(change_label, UP, buff=style.HUG_BUFF).align_to(change_label, LEFT)
        contents = VGroup(
            *(
                MathTex("V", font_size=style.SYMBOL_SIZE * 0.5, color=style.VALUE).next_to(
                    word, DOWN, buff=style.ITEM_BUFF
                )
                for word in sentence
            )
        )
        self.say(
            "add_change",
            FadeIn(plus),
            beats={
                "each": [FadeIn(contents, shift=DOWN * 0.2, lag_ratio=0.3)],
                "avg": [TransformFromCopy(contents, change), FadeIn(change_label)],
                "add": [GrowArrow(arrows[1])],
                "dim": [outline(change.get_entry(self.across))],
                "w_o": [Write(w_o)],
            },
            dim=self.dim_names(ex)[self.across],
            eat=self.spoken(f"{EAT}.last_row.outputs[0][{self.across}]", 2),
        )
        self.say(
            "moved",
            FadeIn(equals),
            TransformFromCopy(VGroup(x, change), new),
            Create(box),
            then=[[GrowArrow(arrows[2]), FadeIn(labels[2])]],
        )
        # the two ideas the next chapter tries, named under the sentence they will be tried on
        dead = self.shared("dead_ends")
        ideas = VGroup(
            *(style.text(dead[k], style.BODY_SIZE, style.MUTED) for k in ("method_1", "method_2"))
        ).arrange(DOWN, aligned_edge=LEFT, buff=style.GROUP_BUFF)
        ideas.next_to(sentence, DOWN, buff=style.WIDE_BUFF).align_to(sentence, LEFT)
        self.say(
            "how",
            outline(VGroup(change, change_label), arrows[1]),
            beats={
                "dead": [
                    *(FadeOut(m) for m in self.mobjects if m not in (self.title, sentence)),
                    FadeIn(ideas, shift=UP * 0.2, lag_ratio=0.3),
                ]
            },
        )

    def _plane(self, x: NumberVector, change: NumberVector, new: NumberVector) -> tuple:
        """The eat-food plane: the word's vector, the change, and where they land."""
        ex, i = self.ex, self.ex.query_index
        points = [ex.x[i], ex.residual]
        low = min(0.0, *(p[c] for p in points for c in (self.across, self.up)))
        high = max(1.5, *(p[c] for p in points for c in (self.across, self.up)))
        span = [math.floor(low * 2) / 2, math.ceil(high * 2) / 2, 0.5]
        plane = style.muted_axes(span, span, PLANE_SIDE, PLANE_SIDE)
        names = self.dim_names(ex)
        axis_x = style.text(names[self.across], style.LABEL_SIZE, style.MUTED)
        axis_y = style.text(names[self.up], style.LABEL_SIZE, style.MUTED)
        axis_x.next_to(plane.x_axis, DOWN, buff=style.ITEM_BUFF)
        axis_y.next_to(plane.y_axis, LEFT, buff=style.ITEM_BUFF)

        def point(v: list[float]):
            return plane.c2p(v[self.across], v[self.up])

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
