"""Two dead ends (seed 000): join every word's vector, or look at a fixed window.

Joining makes the input as long as the sentence and the first layer's weights grow with it
(counted in model/dead_ends.py); a window of ±3 words misses 買 when it sits far from 蘋果.
Both decide in advance what to look at; attention lets each word decide.
Render alone with ``manim -ql scenes/chapters/dead_ends.py DeadEnds``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    PI,
    RIGHT,
    UP,
    Arrow,
    Create,
    CurvedArrow,
    DashedLine,
    FadeIn,
    FadeOut,
    GrowArrow,
    GrowFromEdge,
    MathTex,
    Rectangle,
    ReplacementTransform,
    Square,
    SurroundingRectangle,
    Transform,
    VGroup,
    Write,
)

from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.emphasis import outline
from scenes.kit.numbers import ShownNumber, phrase

EAT = "tokens.eat_apple"
SLOT = 0.38  # side of one number's square in a word's vector


def _column(d: int) -> VGroup:
    """A word's vector: ``d`` squares, one per number."""
    return VGroup(*(Square(SLOT).set_stroke(style.FOREGROUND, 1.5) for _ in range(d))).arrange(
        DOWN, buff=0
    )


class DeadEnds(LectureScene):
    """The joined vector and its exploding weights; the window that cannot reach; attention."""

    scene_key = "dead_ends"
    reads = ("dead_ends", "tokens.eat_apple")

    def construct(self) -> None:
        self.ex, self.costs = self.data.eat_apple, self.data.dead_ends
        self.title = self.make_title()
        heads = VGroup(
            style.text(self.words["method_1"], style.BODY_SIZE),
            style.text(self.words["method_2"], style.BODY_SIZE),
        ).arrange(RIGHT, buff=style.WIDE_BUFF * 2)
        style.place(heads)
        self.add(self.title)  # the title at once: no frame is only a title being written
        self.say("intro", FadeIn(heads, lag_ratio=0.5))
        self._join(heads)
        self._window(heads[1])
        self._each_decides()

    def _join(self, heads: VGroup) -> None:
        words = VGroup(*(style.text(w, style.BODY_SIZE) for w in self.apple_words()))
        columns = VGroup(*(_column(self.ex.d) for _ in words))
        for word, column in zip(words, columns, strict=True):
            column.next_to(word, DOWN, buff=style.ITEM_BUFF)
        sentence = VGroup(*(VGroup(w, c) for w, c in zip(words, columns, strict=True)))
        sentence.arrange(RIGHT, buff=style.GROUP_BUFF, aligned_edge=UP)
        slots = VGroup(*(s for c in columns for s in c.copy())).arrange(RIGHT, buff=0)
        network = Rectangle(width=2.2, height=1.2).set_stroke(style.MUTED, 2)
        network.add(style.text(self.words["network"], style.LABEL_SIZE, style.MUTED))
        socket = SurroundingRectangle(slots, color=style.MUTED, buff=0.06)
        line = VGroup(VGroup(slots, socket), network).arrange(RIGHT, buff=style.WIDE_BUFF * 2)
        picture = VGroup(sentence, line).arrange(DOWN, buff=style.SECTION_BUFF)
        style.place(VGroup(heads[0].copy(), picture).arrange(DOWN, buff=style.GROUP_BUFF))
        feed = Arrow(socket.get_right(), network.get_left(), buff=0.1, color=style.MUTED)
        top = heads[0].copy().next_to(picture, UP, buff=style.GROUP_BUFF)
        self.say(
            "concat",
            FadeOut(heads[1]),
            heads[0].animate.move_to(top),
            then=[
                [FadeIn(words, lag_ratio=0.2), FadeIn(columns, lag_ratio=0.2)],
                [
                    ReplacementTransform(columns.copy(), slots),
                    Create(socket),
                    GrowArrow(feed),
                    Create(network),
                ],
            ],
        )
        extra = _column(self.ex.d).arrange(RIGHT, buff=0).next_to(slots, RIGHT, buff=0)
        overflow = SurroundingRectangle(extra, color=style.HIGHLIGHT, buff=0.04)
        self.say(
            "longer",
            beats={"grow": [FadeIn(extra, shift=LEFT * 0.3)], "misfit": [Create(overflow)]},
        )
        self.play(FadeOut(VGroup(sentence, slots, socket, feed, network, extra, overflow)))
        self._weights(heads[0])

    def _weights(self, head: VGroup) -> None:
        c = self.costs
        longest = max(c.concat_weights)
        rows = VGroup()
        for k, w in enumerate(c.concat_weights):
            label = phrase(
                self.words["words_n"],
                style.BODY_SIZE,
                n=self.number(f"dead_ends.lengths[{k}]", 0),
            )
            rows.add(
                self._bar_row(
                    label,
                    w / longest,
                    self.number(
                        f"dead_ends.concat_weights[{k}]", 0, style.BODY_SIZE, notation="grouped"
                    ),
                )
            )
        # Attention's row is labelled by whose weights they are (its W_Q, W_K and W_V) over
        # the length it serves, below a line: another method, not a fourth length.
        caption = VGroup(
            style.text(self.words["attention_row"], style.LABEL_SIZE, style.HIGHLIGHT),
            MathTex(r"W_Q,\ W_K,\ W_V", color=style.HIGHLIGHT, font_size=style.TITLE_SIZE),
        ).arrange(RIGHT, buff=style.ITEM_BUFF)
        label = VGroup(caption, style.text(self.words["any_length"], style.BODY_SIZE))
        attention = self._bar_row(
            label.arrange(DOWN, aligned_edge=LEFT, buff=style.HUG_BUFF),
            c.attention_weights / longest,
            self.number("dead_ends.attention_weights", 0, style.BODY_SIZE, notation="grouped"),
        )
        attention[1].set_fill(style.HIGHLIGHT)
        table = VGroup(*rows, attention).arrange(DOWN, aligned_edge=LEFT, buff=style.SECTION_BUFF)
        bars_at = max(row[0].get_right()[0] for row in (*rows, attention)) + style.GROUP_BUFF
        for row in (*rows, attention):  # labels, then every bar from one line
            row[1].shift(RIGHT * (bars_at - row[1].get_left()[0]))
            row[2].next_to(row[1], RIGHT, buff=style.ITEM_BUFF)
        divider = DashedLine(LEFT, RIGHT, color=style.MUTED).set_width(table.width)
        divider.set_y((rows[-1].get_bottom()[1] + attention.get_top()[1]) / 2)
        divider.align_to(table, LEFT)
        table.add(divider)
        top = head.copy()
        style.place(VGroup(top, table).arrange(DOWN, buff=style.GROUP_BUFF))
        width = self.spoken("dead_ends.width", 0)

        def said(k: int) -> dict:
            return {
                "n" if k == 0 else f"n{k}": self.spoken(f"dead_ends.lengths[{k}]", 0),
                "w" if k == 0 else f"w{k}": self.spoken(
                    f"dead_ends.concat_weights[{k}]", 0, "grouped"
                ),
            }

        self.say(
            "weights",
            head.animate.move_to(top),
            FadeIn(rows[0][0]),
            GrowFromEdge(rows[0][1], LEFT),
            FadeIn(rows[0][2]),
            width=width,
            **said(0),
        )
        self.say(
            "explode",
            *(GrowFromEdge(r[1], LEFT) for r in rows[1:]),
            *(FadeIn(VGroup(r[0], r[2])) for r in rows[1:]),
            **said(1),
            **said(2),
        )
        a = self.spoken("dead_ends.attention_weights", 0, "grouped")
        self.say(
            "attention_cost",
            Create(divider),
            FadeIn(attention),
            beats={"same": [outline(attention[2])]},
            a=a,
        )
        self.play(FadeOut(table), FadeOut(head))

    def _bar_row(self, label, share: float, number: ShownNumber) -> VGroup:
        bar = Rectangle(width=max(share * 7.0, 0.02), height=0.5)
        bar.set_stroke(width=0).set_fill(style.WEIGHT, opacity=1)
        return VGroup(label, bar, number).arrange(RIGHT, buff=style.GROUP_BUFF)

    def _window(self, head) -> None:
        tokens = self.words["window_sentence"].split(",")
        words = VGroup(*(style.text(t, style.TITLE_SIZE) for t in tokens)).arrange(
            RIGHT, buff=style.GROUP_BUFF
        )
        at, far, reach = (
            int(self.words["window_from"]),
            int(self.words["window_far"]),
            self.costs.window,
        )
        labels = VGroup(
            style.text(self.words["in_advance_1"], style.BODY_SIZE, style.MUTED),
            style.text(self.words["in_advance_2"], style.BODY_SIZE, style.MUTED),
        ).arrange(DOWN, aligned_edge=LEFT, buff=style.ROW_BUFF)
        picture = VGroup(head.copy(), words, labels).arrange(DOWN, buff=style.SECTION_BUFF * 2)
        style.place(picture)
        window = SurroundingRectangle(
            words[max(at - reach, 0) : at + reach + 1], color=style.HIGHLIGHT, buff=style.ITEM_BUFF
        )
        w = self.spoken("dead_ends.window", 0)
        self.say(
            "window",
            FadeIn(head.move_to(picture[0])),
            FadeIn(words, lag_ratio=0.1),
            then=[[Create(window)]],
            w=w,
        )
        miss = CurvedArrow(words[at].get_top(), words[far].get_top(), angle=PI / 5).set_color(
            style.MUTED
        )
        self.say("far", outline(words[far]), Create(miss))
        small = window.copy()
        whole = SurroundingRectangle(words, color=style.HIGHLIGHT, buff=style.ITEM_BUFF)
        self.say(
            "how_wide",
            outline(window),
            beats={"whole": [Transform(window, whole)]},
        )
        small.set_stroke(style.MUTED)
        self.say(
            "same_mistake",
            outline(head),
            beats={"all": [FadeIn(labels[0])], "near": [FadeIn(small), FadeIn(labels[1])]},
        )
        self.play(FadeOut(VGroup(head, words, window, small, labels, miss)))

    def _each_decides(self) -> None:
        words, arrows = self.apple_choice()
        label = style.text(self.words["each_decides"], style.BODY_SIZE)
        style.place(VGroup(label, VGroup(arrows, words)).arrange(DOWN, buff=style.SECTION_BUFF))
        self.say("let_decide", FadeIn(words, lag_ratio=0.3), Write(label))
        self.say_apple_choice("decides", words, arrows)
