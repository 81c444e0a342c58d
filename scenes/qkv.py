"""Three roles from one input (seeds 000, 003): X times W_Q, W_K, W_V, then the formula.

Render alone with ``manim -ql scenes/qkv.py ThreeRoles``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    FadeIn,
    FadeOut,
    GrowArrow,
    Indicate,
    MathTex,
    RoundedRectangle,
    SurroundingRectangle,
    VGroup,
    Write,
)

from scenes import style
from scenes.base import LectureScene
from scenes.components import AttentionGrid
from scenes.numbers import Ref, ShownNumber, phrase

ROLES = (("q", "Q", style.QUERY), ("k", "K", style.KEY), ("v", "V", style.VALUE))


class ThreeRoles(LectureScene):
    """Every position plays Query, Key and Value; the two-line formula, built up."""

    scene_key = "qkv"
    reads = ("tokens.eat_apple",)

    def construct(self) -> None:
        self.ex = self.data.eat_apple
        title = self.make_title()
        x_block = self._x_block()
        blocks = VGroup(*(self._role_block(*role) for role in ROLES)).arrange(
            RIGHT, buff=style.GROUP_BUFF
        )
        arrow = Arrow(LEFT, RIGHT, color=style.FOREGROUND).scale(0.9)
        w_label = MathTex(r"\times W_Q,\ W_K,\ W_V", font_size=34).next_to(
            arrow, UP, buff=style.HUG_BUFF
        )
        picture = VGroup(x_block, VGroup(arrow, w_label), blocks).arrange(
            RIGHT, buff=style.ROW_BUFF
        )
        picture.next_to(title, DOWN, buff=style.GROUP_BUFF)
        for block in blocks:  # notes shown later, under their matrix
            block.meaning.next_to(block.grid, DOWN, buff=style.ITEM_BUFF)
            block.shape.next_to(block.meaning, DOWN, buff=style.ITEM_BUFF)

        self.say("intro", Write(title), FadeIn(x_block))
        self.say("x", *(Indicate(row) for row in x_block[1]))
        self.say("project", GrowArrow(arrow), FadeIn(w_label), FadeIn(blocks, lag_ratio=0.3))
        for block, (key, _, colour) in zip(blocks, ROLES, strict=True):
            self.say(key, FadeIn(block.meaning), Indicate(block.letter, color=colour))
        shapes = VGroup(*(block.shape for block in blocks))
        self.say("shape_line", FadeIn(shapes), n=self.ex.short, d=self.ex.d)
        self._self_roles(x_block, blocks)
        meanings = VGroup(*(block.meaning for block in blocks))
        self.play(FadeOut(VGroup(x_block, arrow, w_label, blocks, meanings, shapes)))
        self._formula(title)

    # --- the picture -------------------------------------------------------------------
    def _x_block(self) -> VGroup:
        rows = VGroup()
        for token in self.ex.tokens[: self.ex.short]:
            word = style.text(token, style.BODY_SIZE)
            box = RoundedRectangle(corner_radius=0.1, width=1.5, height=0.6)
            rows.add(VGroup(box.set_stroke(style.MUTED), word.move_to(box)))
        rows.arrange(DOWN, buff=style.ITEM_BUFF)
        return VGroup(MathTex("X", font_size=44).next_to(rows, UP), rows)

    def _role_block(self, key: str, letter: str, colour) -> VGroup:
        n, d = self.ex.short, self.ex.d
        values = getattr(self.ex, key)[:n]
        grid = AttentionGrid(
            values, f"tokens.eat_apple.{key}", cell_size=0.5, decimals=1, heat=False
        )
        grid.cells.set_stroke(colour, width=2)
        block = VGroup(MathTex(letter, font_size=44, color=colour).next_to(grid, UP), grid)
        block.letter, block.grid = block[0], grid
        block.meaning = style.text(self.words[f"{key}_means"], style.SMALL_SIZE, colour)
        block.shape = phrase(
            self.words["shape"],
            style.SMALL_SIZE,
            style.MUTED,
            n=ShownNumber(n, 0, Ref("tokens.eat_apple.short")),
            d=ShownNumber(d, 0, Ref("tokens.eat_apple.d")),
        )
        return block

    def _self_roles(self, x_block: VGroup, blocks: VGroup) -> None:
        row = self.ex.query_index
        frames = VGroup(SurroundingRectangle(x_block[1][row], buff=style.TIGHT_BUFF))
        for block in blocks:
            frames.add(SurroundingRectangle(block.grid.get_row(row), buff=style.TIGHT_BUFF))
        self.say("self", FadeIn(frames.set_color(style.HIGHLIGHT)), token=self.ex.tokens[row])
        self.play(FadeOut(frames))

    # --- the formula -------------------------------------------------------------------
    def _formula(self, title) -> None:
        colours = {"Q": style.QUERY, "K": style.KEY, "V": style.VALUE}
        line1 = MathTex(
            "Q", "= X W_Q,", r"\quad K", "= X W_K,", r"\quad V", "= X W_V", font_size=48
        )
        for part, colour in zip(line1[::2], colours.values(), strict=True):
            part.set_color(colour)
        line2 = MathTex(
            r"\mathrm{softmax}",
            r"\Big(",
            "{Q",
            r"K^{\top}",
            r"\over",
            r"\sqrt{d}}",
            r"\Big)",
            "V",
            font_size=56,
        )
        line2[2].set_color(style.QUERY)
        line2[3].set_color(style.KEY)
        line2[7].set_color(style.VALUE)
        lines = (
            VGroup(line1, line2)
            .arrange(DOWN, buff=style.SECTION_BUFF)
            .next_to(title, DOWN, buff=style.WIDE_BUFF)
        )
        self.say("formula_intro", Write(line1), run_time=2)
        self.say("qk", Write(line2[2:4]))
        self.say("sqrt", Write(line2[4:6]))
        self.say("softmax", Write(VGroup(line2[0:2], line2[6])))
        self.say("weigh_v", Write(line2[7]))
        self.say("outro", Indicate(lines, scale_factor=1.05, color=style.FOREGROUND))
