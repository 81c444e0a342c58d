"""Change the colours, watch it re-divide (seed 000): 1/8, 1/4, 1/2, 1/1 — found by itself.

Render alone with ``manim -ql scenes/chapters/patterns.py ColourPatterns``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    AnimationGroup,
    Circumscribe,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    LaggedStart,
    ReplacementTransform,
    Succession,
    SurroundingRectangle,
    Transform,
    VGroup,
    Wait,
)

from scenes.chapters.attention_map import EXP_STEP_TIME, REPLAY_TIME, AttentionMap
from scenes.kit import style
from scenes.kit.emphasis import outline
from scenes.kit.numbers import Count, Spoken, phrase
from scenes.kit.seams import seam
from scenes.kit.vectors import ExpBars, ShareBar

# A group's weight to 3 decimals: 0.125 is 1/8 (to 2, the map's 0.1249 and 0.1251 read 0.12
# and 0.13, and the cells say only "about").
WEIGHT_DECIMALS = 3


THUMB_CELL = 0.2  # a pattern's map beside the big one: read by its brightness
SHARE_HEIGHT = 0.3  # a group's row as one bar under its line
EXP_HEIGHT = 1.6  # the row's scores as bars, and through exp as towers, under the row
ROW_GROW = 1.5  # the row of scores before the softmax: enlarged to the shares' width, by up to this


class ColourPatterns(AttentionMap):
    """The trained map for several colour patterns in turn, each group's share next to it.

    Variants override :attr:`patterns` (example names of the data file, shown in order).
    """

    scene_key = "patterns"
    reads = ("examples.{example_name}", "examples.{patterns}", "training")
    tables = ("attention_map", "training")  # its last picture and words; the step axis's name
    opens_on = "learned_map"
    ends_on = ""
    patterns = ("all_same", "halves", "one_two_rest")

    def construct(self) -> None:
        title = self.make_title()
        # The picture the map chapter ended on, rebuilt at once: its map, the numbers in it.
        picture = seam(self, self.opens_on)
        board = picture[0]
        self.add(title, *picture)  # the map and the side panel, each leaving on its own
        self.say(
            "intro",
            Circumscribe(self.grid.cells, color=style.HIGHLIGHT),
            then=[[FadeOut(*picture[1:])]],  # the strip and the scores
        )
        shares = None
        for k, name in enumerate(self.patterns):
            self.example_name = name
            self.example = self.data.example(name)
            self.source = f"examples.{name}"
            self.grid = self._build_grid()
            new_board = self._build_axes(self.grid)
            new_shares = self._shares()
            style.place(VGroup(new_board, new_shares).arrange(RIGHT, buff=style.WIDE_BUFF * 1.5))
            animations = [ReplacementTransform(board, new_board)]
            if shares is not None:
                animations.append(FadeOut(shares))
            # each colour's block of the new map flies into its share's line
            arrivals = [
                [
                    FadeOut(block, target_position=line[0], scale=0.2),
                    FadeIn(line[:2], shift=RIGHT * 0.3),  # its bar grows on <near>
                ]
                for block, line in zip(self._block_copies(), new_shares, strict=True)
            ]
            # "that is 1/k": each group's row as one bar its weights share, cut k ways
            near = [LaggedStart(*(GrowFromEdge(line[2], LEFT) for line in new_shares))]
            self.say(
                f"pattern_{k}", *animations, then=arrivals, beats={"near": near}, **self._fields()
            )
            board, shares = new_board, new_shares
        self.say("divides", outline(*shares))
        # every sequence's colours differ: the three maps side by side where the shares were
        thumbs = VGroup(*(self._thumbnail(name) for name in self.patterns))
        thumbs.arrange(RIGHT, buff=style.GROUP_BUFF)
        thumbs.scale_to_fit_width(min(thumbs.width, shares.width * 1.6)).move_to(shares)
        # what it learned: one row's scores before the softmax, the same colour's equal and
        # high; through exp they stand as equal towers (the others as nothing), and the
        # softmax's denominator, their total laid end to end, cuts one bar into equal parts
        scores, frames, exp_bars, bar = self._row_before_softmax(shares)
        cells = [scores[1].get_cell(0, j) for j in range(self.example.n)]
        towers, floor = exp_bars.get_towers(), exp_bars.get_floor()
        baseline, signed = exp_bars.get_baseline(), exp_bars.get_bars()
        moving = [cell.copy() for cell in cells]  # each score's shape, from cell to part
        exp_label = self._exp_label(exp_bars)
        self.say(
            "softmax",
            FadeOut(shares, shift=RIGHT * 0.3),
            FadeIn(thumbs, shift=RIGHT * 0.3, lag_ratio=0.3),
            beats={
                "learned": [
                    FadeIn(self._blocks(), lag_ratio=0.05),
                    FadeOut(thumbs),
                    FadeIn(scores),
                    Succession(Wait(0.5), FadeIn(frames, lag_ratio=0.2)),
                ],
                "denom": [
                    Succession(
                        AnimationGroup(
                            FadeOut(frames),
                            FadeIn(baseline),
                            *(Transform(m, b) for m, b in zip(moving, signed, strict=True)),
                        ),
                        AnimationGroup(  # through exp: equal scores, equal towers
                            *(Transform(m, t) for m, t in zip(moving, towers, strict=True)),
                            Transform(baseline, floor),  # no exp below 0
                            FadeIn(exp_label, shift=LEFT * 0.2),
                        ),
                        AnimationGroup(  # end to end, divided by their total: the row's bar
                            *(Transform(m, p) for m, p in zip(moving, bar, strict=True))
                        ),
                    )
                ],
            },
            run_time=3 * EXP_STEP_TIME,  # the three steps of the denominator, followed
        )
        self.remove(*moving)  # the shapes that travelled are the bar's parts now
        self.add(bar)
        # the map as training found it, then learned
        rewind, replay = self._settling(VGroup(scores, bar))
        self.say(
            "nobody_told",
            FadeOut(self.block_frames),
            FadeOut(baseline),
            FadeOut(exp_label),
            rewind,
            beats={"learned": [replay]},
            run_time=REPLAY_TIME,  # each watched step long enough to be seen
        )

    def _row_before_softmax(self, place: VGroup) -> tuple[VGroup, VGroup, ExpBars, ShareBar]:
        """A row of the largest colour group (the equal share is seen most clearly there):
        its scores before the softmax where ``place`` is, a frame on each score of its own
        colour, the scores as bars under them (to go through exp), and the row's weights as
        one bar under those."""
        colours = self.example.colours
        self.focus_row = max(range(len(colours)), key=lambda r: colours.count(colours[r]))
        own, self.words = self.words, self.shared(AttentionMap.scene_key)
        scores = self._build_scores()
        self.words = own
        scores.scale(min(ROW_GROW, place.width / scores.width))
        i, ex = self.focus_row, self.example
        row = scores[1]
        fills = self._fills()
        exp_bars = ExpBars(ex.scores[i], row.get_cell(0, 0).width, EXP_HEIGHT, fills)
        bar = ShareBar(ex.attention[i], row.width, SHARE_HEIGHT, fills, edge_width=2)
        VGroup(scores, exp_bars, bar).arrange(DOWN, buff=style.GROUP_BUFF).move_to(place)
        exp_bars.shift(RIGHT * (row.get_cell(0, 0).get_x() - exp_bars.get_bars()[0].get_x()))
        bar.align_to(row, LEFT)
        frames = VGroup(
            *(
                SurroundingRectangle(row.get_cell(0, j), buff=0, color=style.HIGHLIGHT)
                for j, c in enumerate(ex.colours)
                if c == ex.colours[i]
            )
        )
        return scores, frames, exp_bars, bar

    def _block_copies(self) -> list[VGroup]:
        """Copies of the current map's cells, one group per colour (the cells where a
        position of that colour looks at its own colour), in the order of :meth:`_groups`."""
        colours = self.example.colours
        return [
            VGroup(
                *(
                    self.grid.get_cell(i, j).copy()
                    for i, a in enumerate(colours)
                    for j, b in enumerate(colours)
                    if a == b == colour
                )
            )
            for colour, _ in self._groups()
        ]

    def _thumbnail(self, name: str) -> VGroup:
        """Pattern ``name``'s learned map, small, read by its brightness."""
        ex = self.data.example(name)
        return self.colour_map(ex.colours, ex.attention, f"examples.{name}.attention", THUMB_CELL)

    def _groups(self) -> list[tuple[int, int]]:
        """(colour, first position) of each colour present, in order of appearance."""
        seen: dict[int, int] = {}
        for j, c in enumerate(self.example.colours):
            seen.setdefault(c, j)
        return list(seen.items())

    def _shares(self) -> VGroup:
        lines = VGroup()
        fills = self._fills()
        for colour, j in self._groups():
            marker = self.colour_marker(colour)
            line = phrase(
                self.words["share_line"],
                style.BODY_SIZE,
                k=self.number(Count(f"{self.source}.colours", colour), 0),
                w=self.number(f"{self.source}.attention[{j}][{j}]", WEIGHT_DECIMALS),
            )
            said = VGroup(marker, line).arrange(RIGHT, buff=style.ITEM_BUFF)
            # the group's first row, its parts in the colours of the positions they go to
            bar = ShareBar(self.example.attention[j], said.width, SHARE_HEIGHT, fills, edge_width=2)
            bar.next_to(said, DOWN, buff=style.ITEM_BUFF, aligned_edge=LEFT)
            lines.add(VGroup(*said, bar))
        return lines.arrange(DOWN, aligned_edge=LEFT, buff=style.GROUP_BUFF)

    def _fields(self) -> dict[str, Spoken]:
        """Each group's share and size, for the narration: w1, k1, w2, k2..."""
        fields: dict[str, Spoken] = {}
        for g, (colour, j) in enumerate(self._groups(), start=1):
            fields[f"w{g}"] = self.spoken(f"{self.source}.attention[{j}][{j}]", WEIGHT_DECIMALS)
            fields[f"k{g}"] = self.spoken(Count(f"{self.source}.colours", colour), 0)
        return fields
