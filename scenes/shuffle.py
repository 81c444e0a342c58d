"""Pitfall 3 (seed 000): shuffle the input, the output is only shuffled; then positions.

Render alone with ``manim -ql scenes/shuffle.py Shuffle``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    SurroundingRectangle,
    VGroup,
    Write,
)

from scenes import style
from scenes.base import LectureScene
from scenes.components import AttentionGrid
from scenes.numbers import Ordinal, Ref, ShownNumber, phrase

SRC = "pitfalls.shuffle"


class Shuffle(LectureScene):
    """Permutation equivariance measured to the last decimals, and positional encoding."""

    scene_key = "shuffle"
    reads = ("pitfalls.shuffle", "positional")
    fingerprint = 3  # the position whose row of the table is drawn as a curve

    def construct(self) -> None:
        self.s = self.data.shuffle
        self.title = self.make_title()
        sentences = VGroup(*(style.text(self.words[k], style.TITLE_SIZE) for k in ("a", "b")))
        sentences.arrange(RIGHT, buff=style.WIDE_BUFF * 1.5).next_to(
            self.title, DOWN, buff=style.WIDE_BUFF
        )
        self.say("intro", Write(self.title))
        self.say("no_position", FadeIn(sentences))
        self.say("same_to_it")
        self.play(FadeOut(sentences))
        self._measure()
        self._positions()

    # --- the measurement ---------------------------------------------------------------
    def _gap_line(self, key: str, run: str, scientific: bool = False) -> tuple[VGroup, ShownNumber]:
        """The line giving a run's largest difference, and that number (also said aloud)."""
        value = getattr(self.s, run).max_abs_diff
        gap = ShownNumber(value, 2, Ref(f"{SRC}.{run}.max_abs_diff"), scientific=scientific)
        line = phrase(self.words[key], style.BODY_SIZE, style.HIGHLIGHT, d=gap)
        return line, gap

    def _row(self, order: list[int], outputs: tuple[float, ...], out_path: str) -> VGroup:
        columns = VGroup()
        for k, j in enumerate(order):
            colour = self.s.colours[j]
            columns.add(
                VGroup(
                    ShownNumber(j + 1, 0, Ordinal(), color=style.MUTED),
                    self.colour_marker(colour),
                    ShownNumber(self.s.values[j], 2, Ref(f"{SRC}.values[{j}]")),
                    ShownNumber(outputs[k], 2, Ref(f"{out_path}[{k}]"), color=style.HIGHLIGHT),
                ).arrange(DOWN, buff=style.ITEM_BUFF)
            )
        return columns.arrange(RIGHT, buff=style.ROW_BUFF, aligned_edge=UP)

    def _measure(self) -> None:
        n, run = len(self.s.colours), self.s.without_positions
        original = self._row(list(range(n)), run.out, f"{SRC}.without_positions.out")
        shuffled = self._row(
            list(self.s.permutation),
            run.out_of_shuffled,
            f"{SRC}.without_positions.out_of_shuffled",
        )
        rows = VGroup(original, shuffled).arrange(DOWN, buff=style.SECTION_BUFF)
        rows.next_to(self.title, DOWN, buff=style.GROUP_BUFF)
        names = VGroup(
            *(style.text(self.words[k], style.LABEL_SIZE) for k in ("input", "shuffled"))
        )
        for name, row in zip(names, rows, strict=True):
            name.next_to(row, LEFT, buff=style.GROUP_BUFF)
        diff, gap = self._gap_line("diff_line", "without_positions", scientific=True)
        diff.next_to(rows, DOWN, buff=style.GROUP_BUFF)
        self.say("test", FadeIn(original), FadeIn(names[0]))
        self.say("shuffle", FadeIn(shuffled), FadeIn(names[1]))
        self.say("follow")
        self.say(
            "diff",
            FadeIn(diff),
            FadeIn(SurroundingRectangle(diff, buff=style.HUG_BUFF)),
            d=gap,
        )
        self.say("equivariant")
        self.clear_below_title(self.title)

    # --- positional encoding -----------------------------------------------------------
    def _positions(self) -> None:
        pe = self.data.positional
        table = AttentionGrid(
            pe.table,
            "positional.table",
            cell_size=0.32,
            show_numbers=False,
            value_range=(-1.0, 1.0),
        )
        p = self.fingerprint
        axes = style.muted_axes(
            [0, pe.width - 1, 1],
            [-1, 1, 1],
            5.0,
            2.4,
        )
        curve = axes.plot_line_graph(
            list(range(pe.width)),
            list(pe.table[p]),
            line_color=style.HIGHLIGHT,
            vertex_dot_radius=0.05,
        )
        picture = VGroup(table, VGroup(axes, curve)).arrange(RIGHT, buff=style.WIDE_BUFF)
        picture.next_to(self.title, DOWN, buff=style.SECTION_BUFF)
        row = SurroundingRectangle(table.get_row(p), buff=style.TIGHT_BUFF, color=style.HIGHLIGHT)
        caption = phrase(
            self.words["row_line"],
            style.LABEL_SIZE,
            style.HIGHLIGHT,
            p=ShownNumber(p + 1, 0, Ordinal()),
        )
        caption.next_to(axes, UP, buff=style.ITEM_BUFF)
        again, gap = self._gap_line("again_line", "with_positions")
        again.next_to(picture, DOWN, buff=style.GROUP_BUFF)
        self.say("fix")
        self.say("table", FadeIn(table))
        self.say("fingerprint", Create(row), FadeIn(axes), Create(curve), FadeIn(caption))
        self.say("again", FadeIn(again), d=gap)
