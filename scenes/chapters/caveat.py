"""Attention is not explanation (seeds 000 and 002): the map shows where information flowed,
not why the model decided; a clue for debugging, not a reason to give others.

Render alone with ``manim -ql scenes/chapters/caveat.py NotExplanation``.
"""

from __future__ import annotations

from itertools import pairwise

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    Circumscribe,
    Create,
    Cross,
    FadeIn,
    FadeOut,
    GrowArrow,
    RoundedRectangle,
    SurroundingRectangle,
    Transform,
    VGroup,
    Write,
)

from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.maps import AttentionGrid

CHAIN = ("chain_values", "chain_readout", "chain_prediction")


class NotExplanation(LectureScene):
    """The trained map, the claim crossed out, the chain after it, four heads, the right use.

    Variants override :attr:`example_name` (the colour-task example shown) and
    :attr:`row` (the row read, from 0).
    """

    scene_key = "caveat"
    reads = ("examples.{example_name}", "multihead.four")
    tables = ("multihead",)  # each map's head name
    example_name = "mixed"
    row = 2

    def construct(self) -> None:
        self.title = self.make_title()
        self.example = self.data.example(self.example_name)
        self.grid = self._map()
        self._claim()
        self._chain()
        self._heads()
        self._right_use()

    def _map(self) -> AttentionGrid:
        ex = self.example
        return self.colour_map(
            ex.colours, ex.attention, f"examples.{self.example_name}.attention", 0.56
        )

    def _claim(self) -> None:
        claim = style.text(self.words["claim"], style.BODY_SIZE)
        style.place(VGroup(self.grid, claim).arrange(RIGHT, buff=style.WIDE_BUFF * 1.5))
        pointer = Arrow(
            claim.get_left(), self.grid.get_right(), buff=style.ITEM_BUFF, color=style.MUTED
        )
        self.add(self.title)  # the title at once: no frame is only a title being written
        self.say("intro", FadeIn(self.grid))
        self.say("claim_say", FadeIn(claim), GrowArrow(pointer))
        cross = Cross(claim, stroke_color=style.HIGHLIGHT, stroke_width=5)
        self.say("dont", Create(cross))
        frame = SurroundingRectangle(self.grid.get_row(self.row), color=style.HIGHLIGHT, buff=0)
        label = style.text(self.words["flow_label"], style.BODY_SIZE).move_to(claim)
        self.say(
            "flow",
            FadeOut(VGroup(claim, cross, pointer)),
            Create(frame),
            then=[
                [FadeIn(label), Circumscribe(self.grid.get_row(self.row), color=style.HIGHLIGHT)]
            ],
            row=str(self.row + 1),
        )
        self.play(FadeOut(label), FadeOut(frame))

    def _chain(self) -> None:
        boxes = VGroup()
        for key in CHAIN:
            text = style.text(self.words[key], style.BODY_SIZE)
            box = RoundedRectangle(corner_radius=0.1, width=text.width + 0.6, height=0.9)
            boxes.add(VGroup(box.set_stroke(style.MUTED, 2), text))
        small = AttentionGrid(self.example.attention, cell_size=0.3, show_numbers=False)
        caption = style.text(self.words["chain_weights"], style.LABEL_SIZE)
        weights = VGroup(small, caption.next_to(small, DOWN))
        row = VGroup(weights, *boxes).arrange(RIGHT, buff=style.WIDE_BUFF)
        style.place(row)
        arrows = VGroup(
            *(
                Arrow(a.get_right(), b.get_left(), buff=0.1, color=style.MUTED)
                for a, b in pairwise(row)
            )
        )
        self.say(
            "more",
            FadeOut(self.grid.numbers, self.grid.row_headers, self.grid.col_headers),
            Transform(self.grid.cells, small.cells),
            FadeIn(caption),
            then=[[*(GrowArrow(a) for a in arrows), FadeIn(boxes, lag_ratio=0.3)]],
        )
        self.play(FadeOut(VGroup(self.grid.cells, caption, boxes, arrows)))

    def _heads(self) -> None:
        four = self.data.four_heads
        maps = VGroup(
            *(
                AttentionGrid(m, f"multihead.four.maps[{h}]", cell_size=0.36, show_numbers=False)
                for h, m in enumerate(four.maps)
            )
        ).arrange(RIGHT, buff=style.GROUP_BUFF)
        names, rules = self.head_captions(four)
        for m, name, rule in zip(maps, names, rules, strict=True):
            name.next_to(m, DOWN, buff=style.ITEM_BUFF)
            rule.next_to(name, DOWN, buff=style.HUG_BUFF)
        captions = VGroup(names, rules)
        label = style.text(self.words["heads_label"], style.BODY_SIZE)
        research = style.text(self.words["research"], style.TITLE_SIZE)
        pictures = VGroup(maps, captions)
        style.place(VGroup(label, pictures, research).arrange(DOWN, buff=style.SECTION_BUFF))
        self.say(
            "heads",
            FadeIn(label),
            FadeIn(maps, lag_ratio=0.3),
            FadeIn(names, lag_ratio=0.3),
            beats={
                "differ": [Circumscribe(m, color=style.HIGHLIGHT) for m in maps],
                "rules": [FadeIn(rules)],
            },
        )
        self.say("research_say", Write(research))
        self.play(FadeOut(VGroup(label, pictures, research)))

    def _right_use(self) -> None:
        grid = self._map()
        good = VGroup(
            style.text(self.words["flow_label"], style.BODY_SIZE),
            style.text(self.words["debug_label"], style.BODY_SIZE),
        ).arrange(DOWN, aligned_edge=LEFT, buff=style.ROW_BUFF)
        reason = style.text(self.words["reason_label"], style.BODY_SIZE, style.MUTED)
        side = VGroup(good, reason).arrange(DOWN, aligned_edge=LEFT, buff=style.SECTION_BUFF)
        style.place(VGroup(grid, side).arrange(RIGHT, buff=style.WIDE_BUFF * 1.5))
        blocks = grid.block_frames(self.example.colours)
        self.say("debug", FadeIn(grid), beats={"blocks": [Create(blocks), FadeIn(good[1])]})
        cross = Cross(reason, stroke_color=style.HIGHLIGHT, stroke_width=5)
        self.say(
            "outro",
            FadeIn(good[0], shift=UP * 0.2),
            FadeIn(reason),
            beats={"not": [Create(cross)]},
        )
