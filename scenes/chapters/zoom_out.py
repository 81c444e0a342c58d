"""Zoom out (seed 002): where one head sits in a Transformer, and where Transformers are used.

The it/cat head shrinks into one of several heads; positional encoding below, the
feed-forward network above, residual connections and normalisation around both, N layers,
the next token's probabilities on top; training learns the projections. Then four uses, in
the seed's careful wording.
Render alone with ``manim -ql scenes/chapters/zoom_out.py ZoomOut``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    Create,
    FadeIn,
    FadeOut,
    GrowArrow,
    Indicate,
    Rectangle,
    ReplacementTransform,
    RoundedRectangle,
    SurroundingRectangle,
    VGroup,
    VMobject,
    Write,
)

from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.components import AttentionGrid

IT_CAT = "tokens.it_cat.scaled.weights"
USE_SIZE = 36  # the uses, one a line
TILE = 1.0  # side of one head's tile in the block


class ZoomOut(LectureScene):
    """One head → multi-head → a block with its neighbours → N layers; then its uses.

    Variants override :attr:`heads` (how many heads the block is drawn with).
    """

    scene_key = "zoom_out"
    reads = ("tokens.it_cat",)
    heads = 4

    def construct(self) -> None:
        self.title = self.make_title()
        self._block()
        self._uses()

    def _box(self, key: str, width: float) -> VGroup:
        box = RoundedRectangle(corner_radius=0.1, width=width, height=0.6).set_stroke(
            style.MUTED, 2
        )
        return VGroup(box, style.text(self.words[key], style.LABEL_SIZE).move_to(box))

    def _block(self) -> None:
        it = self.data.it_cat
        head = AttentionGrid(
            it.scaled.weights,
            IT_CAT,
            row_headers=[style.text(t, style.SMALL_SIZE) for t in it.tokens],
            col_headers=[style.text(t, style.SMALL_SIZE) for t in it.tokens],
            cell_size=0.8,  # room for the widest word ("scared") as a column header
        )
        head_label = style.text(self.words["head"], style.BODY_SIZE).next_to(
            head, RIGHT, buff=style.WIDE_BUFF
        )
        style.place(VGroup(head, head_label))
        self.say("intro", Write(self.title), FadeIn(head), FadeIn(head_label))

        tile = AttentionGrid(
            it.scaled.weights, IT_CAT, cell_size=TILE / len(it.tokens), show_numbers=False
        )
        others = VGroup(
            *(
                Rectangle(width=TILE, height=TILE).set_stroke(style.MUTED, 2)
                for _ in range(self.heads - 1)
            )
        )
        tiles = VGroup(tile, *others).arrange(RIGHT, buff=style.ITEM_BUFF)
        multi_box = SurroundingRectangle(tiles, color=style.FOREGROUND, buff=style.ITEM_BUFF)
        multi_label = style.text(self.words["multi"], style.LABEL_SIZE).next_to(
            multi_box, LEFT, buff=style.ITEM_BUFF
        )
        attention = VGroup(tiles, multi_box, multi_label)
        inputs, ffn = self._box("positional", 5.0), self._box("ffn", 5.0)
        output = self._box("next_token", 5.0)
        stack = VGroup(inputs, attention, ffn, output).arrange(UP, buff=0.5)
        output.shift(UP * 0.5)  # above the frame of the stacked layers
        arrows = VGroup(
            *(
                Arrow(a.get_top(), b.get_bottom(), buff=0.05, color=style.MUTED)
                for a, b in ((inputs, multi_box), (multi_box, ffn), (ffn, output))
            )
        )
        skips, norms = self._residuals(multi_box, ffn)
        block = VGroup(attention, ffn, skips, norms)
        frame = SurroundingRectangle(block, color=style.MUTED, buff=style.ITEM_BUFF)
        shadows = VGroup(
            *(frame.copy().shift((UP + RIGHT) * 0.12 * k).set_stroke(opacity=0.5) for k in (1, 2))
        )
        layers = style.text(self.words["layers"], style.BODY_SIZE).next_to(
            frame, RIGHT, buff=style.GROUP_BUFF
        )
        learned = style.text(self.words["learned"], style.LABEL_SIZE)
        learned.next_to(inputs, DOWN, buff=style.GROUP_BUFF)
        style.place(VGroup(stack, arrows, block, frame, shadows, layers, learned))
        self.say(
            "heads",
            FadeOut(head.numbers, head.row_headers, head.col_headers, head_label),
            ReplacementTransform(head.cells, tile.cells),
            FadeIn(others, lag_ratio=0.3),
            beats={"join": [Create(multi_box), FadeIn(multi_label)]},
        )
        self.say("positional_say", FadeIn(inputs, shift=UP * 0.2), GrowArrow(arrows[0]))
        self.say("ffn_say", GrowArrow(arrows[1]), FadeIn(ffn, shift=UP * 0.2))
        self.say("residual", *(Create(s) for s in skips), beats={"norm": [FadeIn(norms)]})
        n = len(it.tokens)
        later = VGroup(*(tile.get_cell(i, j) for i in range(n) for j in range(i + 1, n)))
        self.say(
            "stack",
            Create(frame),
            FadeIn(shadows),
            FadeIn(layers),
            beats={
                "mask": [later.animate.set_opacity(style.DIMMED)],  # every head is masked
                "top": [GrowArrow(arrows[2]), FadeIn(output)],
            },
        )
        self.say(
            "training", FadeIn(learned), Indicate(tiles, color=style.HIGHLIGHT, scale_factor=1.05)
        )
        every = VGroup(*(tile.get_row(i) for i in range(len(it.tokens))))  # all rows at once
        self.say(
            "parallel",
            beats={"once": [Indicate(every, color=style.HIGHLIGHT, scale_factor=1.02)]},
        )
        self.clear_below_title(self.title)

    def _residuals(self, *steps) -> tuple[VGroup, VGroup]:
        """A skip arrow around each step, from below it to above it, and its add-and-norm."""
        skips, norms = VGroup(), VGroup()
        for step in steps:
            reach = step.get_right()[0] + 0.6
            below, above = step.get_bottom() + DOWN * 0.25, step.get_top() + UP * 0.25
            corners = [below, [reach, below[1], 0], [reach, above[1], 0]]
            line = VMobject().set_points_as_corners(corners).set_stroke(style.MUTED, 3)
            skip = VGroup(
                line, Arrow(corners[-1], above, buff=0, color=style.MUTED, stroke_width=3)
            )
            norm = style.text(self.words["add_norm"], style.SMALL_SIZE, style.MUTED)
            skips.add(skip)
            norms.add(norm.next_to(skip, RIGHT, buff=style.ITEM_BUFF))
        return skips, norms

    def _uses(self) -> None:
        items = VGroup(
            *(
                style.name_text(self.words[key], USE_SIZE)
                for key in ("use_gpt", "use_translation", "use_code", "use_alphafold")
            )
        ).arrange(DOWN, aligned_edge=LEFT, buff=style.GROUP_BUFF)
        heading = style.text(self.words["uses_head"], style.TITLE_SIZE, style.MUTED)
        style.place(
            VGroup(heading, items).arrange(DOWN, buff=style.SECTION_BUFF, aligned_edge=LEFT)
        )
        for item, key in zip(items, ("uses", "translation", "code", "alphafold"), strict=True):
            extra = [FadeIn(heading)] if key == "uses" else []
            self.say(key, *extra, FadeIn(item, shift=RIGHT * 0.3))
