"""Open its head: the trained model's attention map for one example sentence.

Render alone with ``manim -ql scenes/attention_map.py AttentionMap``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    FadeIn,
    SurroundingRectangle,
    VGroup,
    Write,
)

from scenes import style
from scenes.base import LectureScene
from scenes.components import AttentionGrid, ColourMarker, TokenStrip, vertical_label
from scenes.numbers import Count, Mean, Ref, ShownNumber, Spoken, Sum, phrase


class AttentionMap(LectureScene):
    """The attention map of the trained model, read row by row.

    Variants override :attr:`example_name` (a pattern of the data file) and
    :attr:`focus_row` (the row read aloud, counted from 0).
    """

    scene_key = "attention_map"
    reads = ("examples.{example_name}",)
    example_name = "mixed"
    focus_row = 0

    def construct(self) -> None:
        self.example = self.data.example(self.example_name)
        self.source = f"examples.{self.example_name}"
        title = self.make_title()
        self.grid = self._build_grid()
        board = self._build_axes(self.grid).next_to(title, DOWN, buff=style.ITEM_BUFF)
        board.to_edge(LEFT, buff=style.EDGE_BUFF)
        strip = TokenStrip(self._markers(), self.example.values, f"{self.source}.values")
        strip.next_to(board, RIGHT, buff=style.GROUP_BUFF).align_to(self.grid.cells, UP)

        self.say("intro", Write(title))
        self.say("strip", FadeIn(strip, shift=UP * 0.2))
        self.say("grid", FadeIn(board, lag_ratio=0.02), run_time=2.5)
        self.say("blocks")
        self._read_focus_row(strip)
        self.say("outro", *self._undim())

    # --- building ----------------------------------------------------------------------
    def _markers(self, size: float = style.MARKER_SIZE) -> list[ColourMarker]:
        return [self.colour_marker(c, size) for c in self.example.colours]

    def _build_grid(self) -> AttentionGrid:
        header = style.CELL_SIZE * 0.72
        return AttentionGrid(
            self.example.attention,
            f"{self.source}.attention",
            row_headers=self._markers(header),
            col_headers=self._markers(header),
        )

    def _build_axes(self, grid: AttentionGrid) -> VGroup:
        key_axis = style.text(self.words["key_axis"], style.LABEL_SIZE, style.KEY)
        key_axis.next_to(grid.col_headers, UP, buff=style.ITEM_BUFF)
        query_axis = vertical_label(self.words["query_axis"], color=style.QUERY)
        query_axis.next_to(grid.row_headers, LEFT, buff=style.ITEM_BUFF)
        return VGroup(grid, key_axis, query_axis)

    # --- reading one row ---------------------------------------------------------------
    def _read_focus_row(self, strip: TokenStrip) -> None:
        i, ex = self.focus_row, self.example
        same = [j for j, c in enumerate(ex.colours) if c == ex.colours[i]]
        k = len(same)
        row = ex.attention[i]
        frame = SurroundingRectangle(
            self.grid.get_row(i), color=style.HIGHLIGHT, buff=style.TIGHT_BUFF
        )
        picked = VGroup(
            *(SurroundingRectangle(strip.get_column(j), buff=style.HUG_BUFF) for j in same)
        )
        picked.set_color(style.HIGHLIGHT)
        share = Spoken(
            sum(row[j] for j in same) / k, 2, Mean(f"{self.source}.attention[{i}]", tuple(same))
        )
        count = ShownNumber(k, 0, Count(f"{self.source}.colours", ex.colours[i]))
        self.say(
            "row",
            *self._dim_except(i),
            FadeIn(frame),
            FadeIn(picked),
            row=i + 1,
            k=count,
            weight=share,
        )
        prediction = ShownNumber(ex.predictions[i], 2, Ref(f"{self.source}.predictions[{i}]"))
        target = ShownNumber(ex.targets[i], 2, Ref(f"{self.source}.targets[{i}]"))
        info = VGroup(
            phrase(self.words["share"], k=count),
            phrase(
                self.words["row_sum"],
                total=ShownNumber(sum(row), 2, Sum(f"{self.source}.attention[{i}]")),
            ),
            phrase(self.words["prediction"], prediction=prediction, target=target),
        ).arrange(DOWN, aligned_edge=LEFT, buff=style.ROW_BUFF)
        info.next_to(strip, DOWN, buff=style.SECTION_BUFF).align_to(strip, LEFT)
        self.play(FadeIn(info[0], shift=RIGHT * 0.2))
        self.say("sum", FadeIn(info[1], shift=RIGHT * 0.2))
        self.say(
            "prediction_say",
            FadeIn(info[2], shift=RIGHT * 0.2),
            prediction=prediction,
            target=target,
        )

    def _dim_except(self, i: int) -> list:
        return [
            self.grid.get_row(r).animate.set_opacity(0.3) for r in range(self.grid.n_rows) if r != i
        ]

    def _undim(self) -> list:
        return [self.grid.get_row(r).animate.set_opacity(1) for r in range(self.grid.n_rows)]
