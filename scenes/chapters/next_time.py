"""Next time (seed 000's open question): how does it generate, one word after another, and
when does it stop? The causal map learned earlier is the one piece already in hand.

Render alone with ``manim -ql scenes/chapters/next_time.py NextTime``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    Arrow,
    Create,
    CurvedArrow,
    Dot,
    FadeIn,
    FadeOut,
    GrowArrow,
    LaggedStartMap,
    Line,
    ReplacementTransform,
    Square,
    SurroundingRectangle,
    Transform,
    VGroup,
)

from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.diagrams import BrowserWindow
from scenes.kit.emphasis import outline
from scenes.kit.maps import AttentionGrid

IT_CAT = "tokens.it_cat.scaled.weights"
WORD_SIZE = 36  # the prompt's words
BOX = 0.55  # side of one position's box in the sequence-to-sequence sketch
LAST_SCALE = 2.0  # the open questions, grown to fill the frame once the map has gone


def _row(n: int) -> VGroup:
    return VGroup(*(Square(BOX).set_stroke(style.MUTED, 2) for _ in range(n))).arrange(
        RIGHT, buff=style.ITEM_BUFF
    )


class NextTime(LectureScene):
    """Sequence in, sequence out; then a prompt with a blank after it, the loop, the stop."""

    scene_key = "next_time"
    reads = ("causal", "tokens.it_cat")

    def construct(self) -> None:
        self.title = self.make_title()
        self.add(self.title)  # the title at once: no frame is only a title being written
        run = self.data.causal
        inputs, outputs = _row(len(run.colours)), _row(len(run.colours))
        sketch = VGroup(inputs, outputs).arrange(DOWN, buff=style.WIDE_BUFF * 1.5)
        style.place(sketch)
        flow = VGroup(
            *(
                Arrow(a.get_bottom(), b.get_top(), buff=0.1, color=style.MUTED)
                for a, b in zip(inputs, outputs, strict=True)
            )
        )
        self.say("intro", LaggedStartMap(FadeIn, inputs, lag_ratio=0.2))  # the question's input
        self.say(
            "task",
            *map(GrowArrow, flow),
            FadeIn(outputs),
            beats={"generate": [outline(outputs)]},
        )
        self.play(FadeOut(VGroup(inputs, outputs, flow)))
        self._generate(run)

    def _demo(self) -> VGroup:
        """One of the page's demos, drawn small: the it/cat map above its temperature slider."""
        it = self.data.it_cat
        grid = AttentionGrid(it.scaled.weights, IT_CAT, cell_size=0.35, show_numbers=False)
        track = Line(LEFT, RIGHT, color=style.MUTED).set_width(grid.width)
        knob = Dot(track.point_from_proportion(0.4), radius=0.12, color=style.HIGHLIGHT)
        return VGroup(grid, VGroup(track, knob)).arrange(DOWN, buff=style.GROUP_BUFF)

    def _generate(self, run) -> None:
        words = VGroup(*(style.text(w, WORD_SIZE) for w in self.words["prompt"].split(",")))
        blank = style.text(self.words["next_word"], WORD_SIZE, style.HIGHLIGHT)
        sentence = VGroup(*words, blank).arrange(RIGHT, buff=style.ITEM_BUFF * 1.5)
        grid = self.colour_map(run.colours, run.attention, "causal.attention", 0.52)
        label = style.text(self.words["causal_label"], style.BODY_SIZE)
        right = VGroup(label, grid).arrange(DOWN, buff=style.GROUP_BUFF)
        second = blank.copy()
        stop = style.text(self.words["stop"], WORD_SIZE, style.HIGHLIGHT)
        second.next_to(sentence, RIGHT, buff=style.ITEM_BUFF * 1.5)
        stop.next_to(second, DOWN, buff=style.WIDE_BUFF * 1.5)
        left = VGroup(sentence, second, stop)
        style.place(VGroup(left, right).arrange(RIGHT, buff=style.WIDE_BUFF))
        frame = SurroundingRectangle(blank, color=style.HIGHLIGHT, buff=style.HUG_BUFF)
        self.say(
            "prompt_say",
            FadeIn(words, lag_ratio=0.3),
            beats={"next": [FadeIn(blank), FadeIn(frame)]},
        )
        self.say(
            "mask",
            FadeIn(label),
            beats={"triangle": [FadeIn(grid, lag_ratio=0.02)]},
        )
        written = style.text("·", WORD_SIZE).move_to(blank)  # a word, not yet known
        back = CurvedArrow(
            blank.get_bottom() + DOWN * 0.1, words[0].get_bottom() + DOWN * 0.1, angle=-1.2
        )
        back.set_color(style.MUTED)
        self.say(
            "loop",
            ReplacementTransform(blank, written),
            frame.animate.move_to(second),
            then=[[FadeIn(second), Create(back)]],
        )
        self.say(
            "stop_say",
            FadeIn(stop, shift=DOWN * 0.3),
            then=[[outline(stop)]],
        )
        # The questions left open stay as the last picture, filling the frame.
        questions = VGroup(words, written, second, frame, back, stop)
        # The invitation to the page: a browser window beside the questions, then the close.
        window = BrowserWindow(self._demo(), self.words["page"], width=3.2)
        window.next_to(questions, RIGHT, buff=style.WIDE_BUFF)
        self.say(
            "outro",
            FadeOut(right),
            beats={
                "lab": [FadeIn(window, shift=LEFT * style.ITEM_BUFF)],
                "thanks": [
                    FadeOut(window),
                    Transform(questions, style.place(questions.copy().scale(LAST_SCALE))),
                    outline(self.title),
                ],
            },
        )
