"""Change the colours, watch it re-divide (seed 000): 1/8, 1/4, 1/2, 1/1 — found by itself.

Render alone with ``manim -ql scenes/chapters/patterns.py ColourPatterns``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    Circumscribe,
    FadeIn,
    FadeOut,
    LaggedStart,
    Rectangle,
    ReplacementTransform,
    Succession,
    SurroundingRectangle,
    Transform,
    TransformFromCopy,
    VGroup,
)

from scenes.chapters.attention_map import EXP_STEP_TIME, REPLAY_TIME, AttentionMap
from scenes.kit import style
from scenes.kit.emphasis import outline
from scenes.kit.labels import TokenStrip
from scenes.kit.numbers import Count, Spoken, phrase
from scenes.kit.seams import seam
from scenes.kit.vectors import ExpBars, ShareBar

# A group's weight to 3 decimals: 0.125 is 1/8 (to 2, the map's 0.1249 and 0.1251 read 0.12
# and 0.13, and the cells say only "about").
WEIGHT_DECIMALS = 3


THUMB_CELL = 0.2  # a pattern's map beside the big one: read by its brightness
SHARE_HEIGHT = 0.45  # a group's row as one bar, the side panel's width (about 40 px at 720p)
TURN_LAG = 0.3  # the strip turns into the next pattern one position after another
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
        # The picture the map chapter ended on, rebuilt at once: its map, its strip, the
        # loss curve. The curve leaves; the strip stays, the knob the patterns are set on.
        board, strip, plot, dot = seam(self, self.opens_on)
        room = self._panel_room()  # where the curve stood: the shares' place
        self.add(title, board, strip, plot, dot)
        cells = self.grid.cells
        new_board, new_strip = self._pattern(self.patterns[0], board, strip)
        self.say(
            "intro",
            Circumscribe(cells, color=style.HIGHLIGHT),
            then=[[FadeOut(plot, dot)]],
            beats={"try": [self._turn(board, strip, new_board, new_strip)]},
        )
        strip = self._swap(strip, new_strip)
        shares = None
        for k, name in enumerate(self.patterns):
            if k:  # the knob turns again: the strip and the map's headers, one by one
                new_board, new_strip = self._pattern(name, board, strip)
            new_shares = self._shares(room)
            turning = [self._turn(board, strip, new_board, new_strip)] if k else []
            leaving = [FadeOut(shares)] if shares is not None else []
            self.say(
                f"pattern_{k}",
                *leaving,
                *turning,
                then=[
                    [ReplacementTransform(board, new_board)],  # the cells follow
                    # each colour's row leaves the map into its bar, one colour after another
                    *(
                        self._arrival(row, j)
                        for row, (_, j) in zip(new_shares, self._groups(), strict=True)
                    ),
                ],
                beats={"near": [LaggedStart(*(FadeIn(row[2]) for row in new_shares))]},
                **self._fields(),
            )
            strip = self._swap(strip, new_strip)
            board = self._swap(board, new_board)
            self._gather(new_shares)  # its parts arrived one by one
            shares = new_shares
        # "as many as share the colour, so many parts": the largest group's parts in turn
        largest = max(shares, key=lambda row: len(row[3]))
        own = [part for part in largest[1] if part.width > largest[1].width / 20]
        self.say("divides", outline(*own))
        self._softmax(strip, shares)

    def _softmax(self, strip: TokenStrip, shares: VGroup) -> None:
        """The three maps side by side; one row's scores, equal and high for its colour,
        through exp into equal towers; end to end into the row's bar (divided by their
        total); then the same row in another pattern: the same high score, another divisor.
        Then the map as training found it, and learned."""
        panel = VGroup(strip, shares)
        thumbs = VGroup(*(self._thumbnail(name) for name in self.patterns))
        thumbs.arrange(RIGHT, buff=style.GROUP_BUFF)
        thumbs.scale_to_fit_width(min(thumbs.width, panel.width)).move_to(panel)
        # the row's picture as wide as the strip, room left at its right for eˣ
        place = Rectangle(width=strip.width, height=panel.height).move_to(panel)
        scores, frames, exp_bars, bar = self._row_before_softmax(place.align_to(panel, LEFT))
        cells = [scores[1].get_cell(0, j) for j in range(self.example.n)]
        towers, floor = exp_bars.get_towers(), exp_bars.get_floor()
        baseline, signed = exp_bars.get_baseline(), exp_bars.get_bars()
        moving = [cell.copy() for cell in cells]  # each score's shape, from cell to tower
        exp_label = self._exp_label(exp_bars)
        other = self._other_row(scores, exp_bars, bar)
        redivide = []
        if other is not None:  # the same high score, another count: another divisor
            scores2, towers2, bar2 = other
            redivide = [
                AnimationGroup(
                    ReplacementTransform(scores, scores2),
                    *(Transform(m, t) for m, t in zip(moving, towers2, strict=True)),
                    *(ReplacementTransform(p, q) for p, q in zip(bar, bar2, strict=True)),
                )
            ]
        self.say(
            "softmax",
            FadeOut(strip, shift=RIGHT * 0.3),
            FadeOut(shares, shift=RIGHT * 0.3),
            FadeIn(thumbs, shift=RIGHT * 0.3, lag_ratio=0.3),
            beats={
                "learned": [
                    Succession(
                        AnimationGroup(
                            FadeIn(self._blocks(), lag_ratio=0.05),
                            FadeOut(thumbs),
                            FadeIn(scores),
                            FadeIn(frames, lag_ratio=0.2),
                        ),
                        AnimationGroup(  # the scores as bars on their zero
                            FadeIn(baseline),
                            *(Transform(m, b) for m, b in zip(moving, signed, strict=True)),
                        ),
                        AnimationGroup(  # through exp: equal scores, equal towers
                            *(Transform(m, t) for m, t in zip(moving, towers, strict=True)),
                            Transform(baseline, floor),  # no exp below 0
                            FadeIn(exp_label, shift=LEFT * 0.2),
                        ),
                    )
                ],
                "denom": [
                    Succession(
                        AnimationGroup(  # end to end, divided by their total: the row's bar
                            FadeOut(frames),
                            *(
                                TransformFromCopy(m, p, path_arc=-0.4)
                                for m, p in zip(moving, bar, strict=True)
                            ),
                        ),
                        *redivide,
                    )
                ],
            },
            run_time=3 * EXP_STEP_TIME,  # the steps of the denominator, followed
        )
        # the shapes that travelled are the towers and the bar's parts now
        # (what was replaced goes too: a render can keep a replaced part where a dry run
        # does not)
        self.remove(*moving, *scores.get_family(), *bar.get_family())
        scores, towers, bar = other if other is not None else (scores, towers, bar)
        row = VGroup(scores, baseline, exp_label, towers, bar)
        self._gather(row)
        # the map as training found it, then learned: it ends beside the finished curve
        rewind, replay = self._settling(row, restore=False)
        self.say(
            "nobody_told",
            FadeOut(self.block_frames),
            rewind,
            beats={"learned": [replay]},
            run_time=REPLAY_TIME,  # each watched step long enough to be seen
        )

    # --- the knob ------------------------------------------------------------------------
    def _pattern(self, name: str, board: VGroup, strip: TokenStrip) -> tuple[VGroup, TokenStrip]:
        """Read pattern ``name``: its map with axes where ``board`` is, its strip where
        ``strip`` is (at their size)."""
        self.example_name = name
        self.example = self.data.example(name)
        self.source = f"examples.{name}"
        self.grid = self._build_grid()
        new_board = self._build_axes(self.grid)
        new_strip = self._strip()
        scale = board.width / new_board.width
        new_board.scale(scale).move_to(board)
        new_strip.scale(scale).align_to(strip, LEFT).align_to(strip, UP)
        return new_board, new_strip

    def _turn(
        self, board: VGroup, strip: TokenStrip, new_board: VGroup, new_strip: TokenStrip
    ) -> LaggedStart:
        """The strip turns into the next pattern's one position at a time, the map's row and
        column headers of that position following (the cells follow after)."""
        grid, new = board[0], new_board[0]
        return LaggedStart(
            *(
                AnimationGroup(
                    Transform(strip.get_column(j), new_strip.get_column(j)),
                    Transform(grid.row_headers[j], new.row_headers[j]),
                    Transform(grid.col_headers[j], new.col_headers[j]),
                )
                for j in range(self.example.n)
            ),
            lag_ratio=TURN_LAG,
        )

    def _swap(self, old: VGroup, new: VGroup) -> VGroup:
        """``old`` (turned, or transformed, into the shape of ``new``) exchanged for ``new``,
        whose numbers say where they come from. A play takes the parts it moves out of their
        groups, so every part of ``old`` goes."""
        self.remove(*old.get_family())
        self._gather(new)
        return new

    def _gather(self, group: VGroup) -> None:
        """``group`` on screen as one, its parts (each brought in on its own, and held by
        the groups the plays made) no longer apart: a later fade takes all of it."""
        self.remove(*group.get_family())
        self.add(group)

    # --- the shares ----------------------------------------------------------------------
    def _arrival(self, row: VGroup, j: int) -> list:
        """Row ``j`` of the map leaves it: copies of its cells travel into the group's bar,
        its own colour's numbers into the labels over the parts."""
        marker, bar, _, labels = row
        own = [m for m, c in enumerate(self.example.colours) if c == self.example.colours[j]]
        return [
            FadeIn(marker),
            *(
                TransformFromCopy(self.grid.get_cell(j, m), part, path_arc=-0.4)
                for m, part in enumerate(bar)
            ),
            *(
                TransformFromCopy(self.grid.get_number(j, m), label, path_arc=-0.4)
                for m, label in zip(own, labels, strict=True)
            ),
        ]

    def _shares(self, room: VGroup) -> VGroup:
        """For each colour group: its marker, its first row of weights as one bar from
        ``room``'s left to the content area's right (each part in the colour of the
        position it goes to), "≈ 1/k" after it, and over each part of its own colour that
        cell's weight to 3 decimals."""
        rows = VGroup()
        fills = self._fills()
        colours = self.example.colours
        for colour, j in self._groups():
            marker = self.colour_marker(colour)
            k = self.number(Count(f"{self.source}.colours", colour), 0)
            near = phrase(self.words["share_of"], style.BODY_SIZE, k=k)
            width = style.content_area()[2] - room.get_left()[0]  # to the content's right
            length = width - marker.width - near.width - 2 * style.ITEM_BUFF
            bar = ShareBar(self.example.attention[j], length, SHARE_HEIGHT, fills, edge_width=2)
            VGroup(marker, bar, near).arrange(RIGHT, buff=style.ITEM_BUFF)
            own = [m for m, c in enumerate(colours) if c == colour]
            labels = VGroup(
                *(self.number(f"{self.source}.attention[{j}][{m}]", WEIGHT_DECIMALS) for m in own)
            )
            crowded = any(
                label.width > bar[m].width - style.TIGHT_BUFF
                for m, label in zip(own, labels, strict=True)
            )
            for n, (m, label) in enumerate(zip(own, labels, strict=True)):
                # too narrow for every label over its part: every other one under it
                side = DOWN if crowded and n % 2 else UP
                label.next_to(bar[m], side, buff=style.HUG_BUFF)
            rows.add(VGroup(marker, bar, near, labels))
        rows.arrange(DOWN, buff=style.GROUP_BUFF, aligned_edge=LEFT)
        return rows.align_to(room, UP).align_to(room, LEFT)

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

    def _other_row(
        self, scores: VGroup, exp_bars: ExpBars, bar: ShareBar
    ) -> tuple[VGroup, VGroup, ShareBar] | None:
        """The focus row's colour in another pattern with another count of it (halves' blue
        row, beside one_two_rest's): its scores where ``scores`` are, its towers on the same
        floor, its weights as the bar where ``bar`` is. None if no pattern has one."""
        colour = self.example.colours[self.focus_row]
        count = self.example.colours.count(colour)
        found = next(
            (
                name
                for name in self.patterns
                if self.data.example(name).colours.count(colour) not in (0, count)
            ),
            None,
        )
        if found is None:
            return None
        kept = self.example_name, self.example, self.source, self.focus_row
        self.example_name, self.example = found, self.data.example(found)
        self.source = f"examples.{found}"
        self.focus_row = self.example.colours.index(colour)
        own, self.words = self.words, self.shared(AttentionMap.scene_key)
        scores2 = self._build_scores()
        self.words = own
        scores2.scale(scores[1].width / scores2[1].width).align_to(scores, UP)
        scores2.align_to(scores, LEFT)
        i, ex, fills = self.focus_row, self.example, self._fills()
        step = scores2[1].get_cell(0, 0).width
        exp2 = ExpBars(ex.scores[i], step, EXP_HEIGHT, fills)
        exp2.shift(exp_bars.get_floor().get_center() - exp2.get_floor().get_center())
        bar2 = ShareBar(ex.attention[i], bar.width, SHARE_HEIGHT, fills, edge_width=2)
        bar2.move_to(bar)
        self.example_name, self.example, self.source, self.focus_row = kept
        return scores2, exp2.get_towers(), bar2

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

    def _fields(self) -> dict[str, Spoken]:
        """Each group's share and size, for the narration: w1, k1, w2, k2..."""
        fields: dict[str, Spoken] = {}
        for g, (colour, j) in enumerate(self._groups(), start=1):
            fields[f"w{g}"] = self.spoken(f"{self.source}.attention[{j}][{j}]", WEIGHT_DECIMALS)
            fields[f"k{g}"] = self.spoken(Count(f"{self.source}.colours", colour), 0)
        return fields
