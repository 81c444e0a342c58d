"""Attention is not explanation (seeds 000 and 002): the map shows where information flowed,
not why the model decided; a clue for debugging, not a reason to give others.

Row 3 of the colour task's learned map is copied out and takes from each position's V: each V,
drawn under its cell, shrinks by the weight above it, and the V's it keeps travel onto a plane
of two of V's dimensions, where they go tip to tail onto the head's output. The map then
shrinks into the chain after it (the output, the readout, the prediction), a residual path runs
round it and more heads and layers stack behind. The four trained heads feed W_O and the
readout, which no single map shows. Other weights on other positions give the readout the same
prediction (both weighted sums on the readout's line). The map comes back for what it is good
for: beside the map before training, its same-colour blocks; a map of flow, a clue for debugging.

Render alone with ``manim -ql scenes/chapters/caveat.py NotExplanation``.
"""

from __future__ import annotations

import math

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    ApplyMethod,
    Arrow,
    Circle,
    Create,
    Cross,
    CurvedArrow,
    DashedLine,
    Dot,
    FadeIn,
    FadeOut,
    GrowArrow,
    GrowFromEdge,
    LaggedStart,
    MathTex,
    NumberLine,
    Rectangle,
    ReplacementTransform,
    Restore,
    RoundedRectangle,
    Succession,
    SurroundingRectangle,
    Transform,
    TransformFromCopy,
    UpdateFromAlphaFunc,
    VGroup,
    VMobject,
    config,
    interpolate_color,
)

from scenes.chapters.zoom_out import mixed_map
from scenes.kit import style
from scenes.kit.base import RULE_MATCH, LectureScene, top_index
from scenes.kit.diagrams import SumNode
from scenes.kit.emphasis import outline
from scenes.kit.maps import AttentionGrid
from scenes.kit.seams import seam
from scenes.kit.sums import SumLine, TipToTail
from scenes.kit.turns import InTurn

PLANE_SIDE = 3.6  # the plane of two of V's dimensions: its longer side
TICK = 0.25  # between the plane's ticks: row 3's sum spans more than two
SUM_STROKE = 3  # the sum on the plane: thinner than its terms, which show round it
SUM_TIP = 0.6  # its tip, as a share of the largest term's, which shows round it
SMALL_CELL = 0.28  # a map in a chain: read by its brightness
ROW_CELL = 0.5  # one row of a map, copied out beside it
COLUMN_CELL = 0.62  # row 3 copied out in the flow, each position's V under its cell
COLUMN_REACH = 1.15  # the longest V under the copied-out row
BOX_HEIGHT = 0.9  # a step of a chain (the readout, W_O)
BEFORE_CELL = 0.5  # the map before training, beside the learned one: its numbers still legible
BLOCK_STROKE = 4  # the same-colour blocks' frames: seen on the lightest cells
GHOSTS = 3  # cards drawn behind a map or a layer: "more heads and layers"
TAKEN = 0.005  # a weight that shows as 0.00 takes nothing worth drawing
THUMB = 0.45  # the learned map as a thumbnail while its row is read on the readout's line
LINE_PITCH = 0.28  # from one term's bar to the next on it
CARRIED = 0.09  # a dot running along an arrow: what the arrow carries
SHORTCUT_STROKE = 12  # the arrow from the weights straight to the prediction: the habit, bold
STRIP_MARKER = 0.18  # under a map of the four heads: the shape alone (below LETTERED_MARKER)
ARC_STROKE = 12  # an arc from a position row 3 reads into its marker: this thick at weight 1
READ = 0.05  # a head reads a position from this weight on; below, its arc would be a hairline
ARC_ANGLE = 2.2  # how far an arc bends under the markers (radians)
ARC_TIP = 0.15
ARC_ROOM = 0.55  # under a map's markers, the room its arcs run in
RULER_WIDTH = 0.4  # a row lifted onto a ruler beside its map, between two maps


def _carry(arrow: Arrow) -> Animation:
    """A dot running along ``arrow``, start to tip, seen only while it runs: what the
    arrow carries (before its turn in a group, it waits unseen at the start)."""
    start, end = arrow.get_start(), arrow.get_end()
    dot = Dot(start, radius=CARRIED, color=style.RESULT).set_opacity(0)

    def run(d: Dot, alpha: float) -> None:
        d.move_to(start + (end - start) * alpha).set_opacity(1 if 0 < alpha < 1 else 0)

    return UpdateFromAlphaFunc(dot, run, remover=True)


class ReadoutLine(VGroup):
    """A :class:`SumLine` on its own axis, each term in its position's task colour."""

    def __init__(self, axis: NumberLine, values, weights, fills) -> None:
        super().__init__()
        self.axis = axis.copy()
        self.sums = SumLine(self.axis, values, weights, pitch=LINE_PITCH)
        for term, track, fill in zip(self.sums.terms, self.sums.tracks, fills, strict=True):
            term.set_fill(fill, opacity=1)
            track.set_fill(fill, opacity=0.3).set_stroke(fill, width=2, opacity=0.8)
        self.tracks, self.terms, self.end = self.sums.tracks, self.sums.terms, self.sums.end
        self.reach = self.sums.reach
        self.edges = [LEFT if w * v >= 0 else RIGHT for v, w in zip(values, weights, strict=True)]
        self.starts = [LEFT if v >= 0 else RIGHT for v in values]  # a track's end at 0
        self.add(self.axis, self.tracks, self.terms, self.end)

    def read_out(self) -> Animation:
        """Each V read out alone: its faint track grows from 0 to its value, one by one."""
        return LaggedStart(
            *(GrowFromEdge(t, edge) for t, edge in zip(self.tracks, self.starts, strict=True)),
            lag_ratio=0.5,
        )

    def grow(self) -> Animation:
        """The terms grow one after another, each from where the one before ends."""
        return Succession(
            *(GrowFromEdge(t, edge) for t, edge in zip(self.terms, self.edges, strict=True))
        )


class NotExplanation(LectureScene):
    """The trained map, the claim crossed out, row 3's weighted sum of V's, the chain after
    it, four heads into W_O, the map brought back for its right use.

    Variants override :attr:`example_name` (the colour-task example shown) and
    :attr:`row` (the row read, from 0).
    """

    scene_key = "caveat"
    reads = ("examples.{example_name}", "multihead.four", "weights")
    tables = ("multihead",)  # each map's head name
    example_name = "mixed"
    row = 2
    opens_on = mixed_map.__name__  # zoom_out's last picture, this chapter's map

    def construct(self) -> None:
        self.title = self.make_title()
        self.example = self.data.example(self.example_name)
        self.path = f"examples.{self.example_name}"
        self.grid = self._map()
        self._layout()
        self._claim()
        self._chain()
        self._heads()
        self._right_use()

    def _map(self) -> AttentionGrid:
        """The learned map, as zoom_out left it (:func:`mixed_map`); the place it opens at is
        kept in :attr:`opening` (the layout then moves it beside its flow panel)."""
        grid = seam(self, self.opens_on)
        self.opening = grid.copy()
        return grid

    # --- layout ----------------------------------------------------------------------------
    def _plane_dims(self) -> tuple[int, int]:
        """The two dimensions where row ``row``'s output is largest (across, then up)."""
        out = [abs(x) for x in self.example.head_out[self.row]]
        across = top_index(out)
        up = max((c for c in range(len(out)) if c != across), key=out.__getitem__)
        return across, up

    def _layout(self) -> None:
        """The map with the plane beside it (its flow label above), then the chain the map
        shrinks into: the small map, the plane, a ⊕, the readout, the prediction."""
        ex, row = self.example, self.row
        self.dims = across, up = self._plane_dims()
        # the plane holds only what is drawn on it: row ``row``'s terms, where they end one
        # after another, and their sum; one unit as long across as up
        # (to the hundredth: the terms that show as 0.00 stretch it by nothing)
        terms = [np.array(v) * w for v, w in zip(ex.v, ex.attention[row], strict=True)]
        ends = np.cumsum(terms, axis=0)
        spans = []
        for c in (across, up):
            points = [0.0, ex.head_out[row][c], *(t[c] for t in terms), *(e[c] for e in ends)]
            points = [round(p / TICK, 2) for p in points]
            low, high = math.floor(min(points)), math.ceil(max(points))
            spans.append([low * TICK, high * TICK, TICK])
        unit = PLANE_SIDE / max(high - low for low, high, _ in spans)
        lengths = [(high - low) * unit for low, high, _ in spans]
        self.axes = style.muted_axes(spans[0], spans[1], *lengths)
        self.plane_label = style.text(self.words["plane_label"], style.LABEL_SIZE, style.MUTED)
        self.plane_label.next_to(self.axes, DOWN, buff=style.ITEM_BUFF)
        plane = VGroup(self.axes, self.plane_label)  # shown only in the chain
        self.flow_label = style.text(self.words["flow_label"], style.BODY_SIZE)
        self.strip = AttentionGrid(
            [ex.attention[row]],
            f"{self.path}.attention",
            col_headers=[self.colour_marker(c, style.HEADER_MARKER) for c in ex.colours],
            cell_size=COLUMN_CELL,
            first_row=row,
        )
        room = Rectangle(width=self.strip.width, height=2 * COLUMN_REACH).set_opacity(0)
        room.next_to(self.strip, DOWN, buff=style.GROUP_BUFF)
        panel = VGroup(self.strip, room)
        side = VGroup(self.flow_label, panel).arrange(DOWN, buff=style.SECTION_BUFF)
        self.side = side
        style.place(VGroup(self.grid, side).arrange(RIGHT, buff=style.WIDE_BUFF * 1.5))
        self.grid.save_state()  # brought back, not rebuilt, when the map's right use is told
        self._column_vectors(room.get_center()[1])

        # the chain: where each part will stand once the map has shrunk
        self.small = AttentionGrid(ex.attention, cell_size=SMALL_CELL, show_numbers=False)
        readout = style.text(self.words["chain_readout"], style.BODY_SIZE)
        self.readout = VGroup(
            RoundedRectangle(
                corner_radius=0.1, width=readout.width + 0.6, height=BOX_HEIGHT
            ).set_stroke(style.MUTED, 2),
            readout,
        )
        self.node = SumNode()
        prediction = self.number(f"{self.path}.predictions[{row}]", 2, style.BODY_SIZE)
        target = self.number(f"{self.path}.targets[{row}]", 2, style.BODY_SIZE, style.MUTED)
        self.decision = VGroup(
            VGroup(style.text(self.words["chain_prediction"], style.BODY_SIZE), prediction),
            VGroup(style.text(self.words["chain_target"], style.BODY_SIZE, style.MUTED), target),
        )
        for pair in self.decision:
            pair.arrange(RIGHT, buff=style.ITEM_BUFF)
        self.decision.arrange(DOWN, aligned_edge=LEFT, buff=style.ITEM_BUFF)
        stand_in = plane.copy()
        self.start = Dot(radius=0.05, color=style.MUTED)  # the input, where the residual leaves
        chain = VGroup(self.start, self.small, stand_in, self.node, self.readout, self.decision)
        chain.arrange(RIGHT, buff=style.GROUP_BUFF)
        self.decision.shift(RIGHT * style.GROUP_BUFF)  # room for the arrow out of the readout
        style.place(chain)
        # room for the layers' card round the chain and the cards stacked behind it
        room = config.frame_width - 2 * (style.EDGE_BUFF + style.GROUP_BUFF)
        room -= 2 * style.STACK_STEP[0] * (GHOSTS - 1)
        chain.scale(min(1.0, room / chain.width))
        y = stand_in[0].get_center()[1]  # the chain runs at the height of the plane's centre
        for part in (self.start, self.small, self.node, self.readout, self.decision):
            part.set_y(y)
        self.shrink = stand_in.width / plane.width
        self.stand_in = stand_in  # where the plane will stand: the chain's geometry, never shown
        self.move = stand_in.get_center() - plane.get_center()

    def _column_vectors(self, y: float) -> None:
        """Under each cell of the copied-out row, that position's V on the plane's two
        dimensions (from a dot of its own), and the same V shrunk by the cell's weight."""
        ex, (across, up) = self.example, self.dims
        points = [np.array([v[across], v[up], 0.0]) for v in ex.v]
        scale = COLUMN_REACH / max(max(np.linalg.norm(p) for p in points), 1e-9)
        self.origins, self.column_v, self.column_scaled = VGroup(), VGroup(), VGroup()
        # the V's the row keeps, told apart by shade (they point nearly the same way)
        weights = ex.attention[self.row]
        kept = [j for j, w in enumerate(weights) if w >= TAKEN]
        shade = interpolate_color(style.VALUE, style.BACKGROUND, 0.4)
        self.shades = [shade if j in kept[1::2] else style.VALUE for j in range(len(weights))]
        for j, (p, w) in enumerate(zip(points, weights, strict=True)):
            at = np.array([self.strip.get_cell(0, j).get_center()[0], y, 0.0])
            self.origins.add(Dot(at, radius=0.04, color=style.MUTED))
            for group, length in ((self.column_v, 1.0), (self.column_scaled, w)):
                group.add(
                    Arrow(
                        at,
                        at + p * scale * length,
                        buff=0,
                        color=self.shades[j],
                        stroke_width=5,
                        max_tip_length_to_length_ratio=0.35,
                    )
                )

    # --- the claim and the flow ------------------------------------------------------------
    def _claim(self) -> None:
        grid, saved, row = self.grid, self.grid.saved_state, self.row
        # the habit, drawn: row 3's same-colour weights, an arrow straight to the prediction
        same = [j for j, c in enumerate(self.example.colours) if c == self.example.colours[row]]
        lit = VGroup(
            *(
                SurroundingRectangle(saved.get_cell(row, j), color=style.HIGHLIGHT, buff=0)
                for j in same
            )
        )
        guess = VGroup(
            style.text(self.words["chain_prediction"], style.BODY_SIZE),
            self.number(f"{self.path}.predictions[{row}]", 2, style.BODY_SIZE),
        ).arrange(RIGHT, buff=style.ITEM_BUFF)
        y = saved.get_row(row)[0].get_center()[1]
        guess.move_to(self.side).align_to(self.side, RIGHT).set_y(y)
        shortcut = Arrow(
            [saved.get_right()[0], y, 0],
            guess.get_left(),
            buff=style.ITEM_BUFF,
            color=style.FOREGROUND,
            stroke_width=SHORTCUT_STROKE,
        )
        claim = style.text(self.words["claim"], style.BODY_SIZE)
        claim.next_to(shortcut, UP, buff=style.ITEM_BUFF)
        room = saved.get_right()[0] + style.ITEM_BUFF  # a long quote keeps clear of the map
        claim.shift(RIGHT * max(0.0, room - claim.get_left()[0]))
        # alone, the map holds the centre, where zoom_out left it; the claim moves it
        grid.scale(self.opening.width / grid.width).move_to(self.opening)
        self.add(self.title, grid)  # at once, as zoom_out's last frame showed it
        self.say(
            "intro",
            outline(grid),  # the map the warning is about
            beats={"common": [Restore(grid), Create(lit)]},
        )
        self.say(
            "claim_say",
            GrowArrow(shortcut),
            FadeIn(guess),
            beats={"says": [FadeIn(claim, shift=DOWN * 0.2)]},
        )
        # the weights do lead to the prediction (through V and the readout): only "the reason"
        # is crossed; the arrow stays, dashed, for the steps it skips
        cross = Cross(claim, stroke_color=style.HIGHLIGHT, stroke_width=5)
        skips = DashedLine(
            shortcut.get_start(), shortcut.get_end(), color=style.MUTED, stroke_width=4
        ).add_tip(tip_length=ARC_TIP * 2)
        self.say("dont", Create(cross), ReplacementTransform(shortcut, skips))
        taken = VGroup(claim, skips)
        ex = self.example
        self.frame = SurroundingRectangle(
            self.grid.get_row(self.row), color=style.HIGHLIGHT, buff=0
        )
        names = [self.colour_label(c) for c in ex.colours]
        self.tip = TipToTail(
            self.axes,
            ex.v,
            ex.attention[self.row],
            f"{self.path}.attention[{self.row}]",
            names,
            self.dims,
        )
        strip = self.strip
        self.say(
            "flow",
            FadeOut(VGroup(taken, cross, lit, guess)),
            Create(self.frame),
            FadeIn(self.flow_label),
            then=[
                [
                    TransformFromCopy(
                        self.grid.get_row(self.row), VGroup(strip.cells, strip.numbers)
                    ),
                    FadeIn(strip.col_headers, self.origins),
                ]
            ],
            beats={
                "takes": [LaggedStart(*(GrowArrow(a) for a in self.column_v), lag_ratio=0.2)],
                "much": [
                    Transform(a, b) for a, b in zip(self.column_v, self.column_scaled, strict=True)
                ],
            },
            row=str(self.row + 1),
        )

    # --- what the decision also depends on -------------------------------------------------
    def _chain(self) -> None:
        tip, move, centre = self.tip, self.move, self.axes.get_center()
        # the plane is not on screen yet: it stands in the chain at once, each V there shrunk
        for arrow, scaled in zip(tip.arrows, tip.scaled, strict=True):
            arrow.become(scaled.copy())
        hidden = VGroup(self.axes, self.plane_label, tip, tip.scaled, tip.chain, tip.total)
        hidden.add(tip.dots).scale(self.shrink, about_point=centre).shift(move)
        into_plane = [  # the shrunk V's under the row travel onto the plane's origin
            ReplacementTransform(self.column_v[j], tip.arrows[k])
            for k, j in enumerate(tip.on_plane)
        ]
        target = self._shrunk_map()
        plane_end = self.stand_in[0].get_right()
        into_readout = Arrow(
            [plane_end[0], self.node.get_center()[1], 0],
            self.readout.get_left(),
            buff=style.ITEM_BUFF,
            color=style.MUTED,
        )
        out_of_readout = Arrow(
            self.readout.get_right(),
            self.decision.get_left(),
            buff=style.ITEM_BUFF,
            color=style.MUTED,
        )
        # the terms in their shades; the sum from the origin to the last term's tip, thin and
        # drawn over them, so that the terms laid tip to tail still show round it
        for k, j in enumerate(tip.on_plane):
            for group in (tip.arrows, tip.scaled, tip.chain):
                group[k].set_color(self.shades[j])
        total = Arrow(
            tip.total.get_start(),
            tip.total.get_end(),
            buff=0,
            color=style.RESULT,
            stroke_width=SUM_STROKE,
            tip_length=max(a.get_tip().length for a in tip.chain) * SUM_TIP,
        ).set_z_index(1)
        carried = total.copy()
        start = self.start.get_center()
        self.residual, self.stack = self._residual(start), self._stack()
        into_map = Arrow(start, self.small.get_left(), buff=style.TIGHT_BUFF, color=style.MUTED)
        self.say(
            "more",
            FadeOut(self.frame, self.flow_label, self.strip, self.origins),
            self.grid.animate.become(target),
            FadeIn(self.axes, self.plane_label),
            *into_plane,
            then=[
                [FadeIn(self.start), GrowArrow(into_map), FadeIn(self.decision, shift=LEFT * 0.3)]
            ],
            beats={
                "taken": [Succession(tip.lay_tip_to_tail(), GrowArrow(total))],
                "readout": [
                    GrowArrow(into_readout),
                    FadeIn(self.readout),
                    FadeOut(carried, target_position=self.readout, scale=0.3),
                    GrowArrow(out_of_readout),
                ],
                "residual": [FadeIn(self.node), Create(self.residual)],
                "stack": [FadeIn(self.stack, lag_ratio=0.2)],
            },
        )
        on_screen = [m for m in self.mobjects if m is not self.title]
        self.chain = [m for m in on_screen if m is not self.grid]  # brought back at the end
        self.play(FadeOut(*on_screen))

    def _shrunk_map(self) -> AttentionGrid:
        """The map as it stands in the chain: its cells on the small map's, its numbers and
        headers gone into it."""
        target = self.grid.copy()
        for part in (target.numbers, target.row_headers, target.col_headers):
            part.set_opacity(0)
        target.cells.replace(self.small.cells)
        for part in (target.numbers, target.row_headers, target.col_headers):
            part.move_to(self.small)
        return target

    def _residual(self, start: np.ndarray) -> VMobject:
        """The path round attention: up from the map's input, over the map and the plane,
        down into the ⊕."""
        top = max(self.small.get_top()[1], self.stand_in.get_top()[1]) + style.ROW_BUFF
        node = self.node.get_top()
        corners = [start, [start[0], top, 0], [node[0], top, 0], node]
        path = VMobject().set_points_as_corners(corners).set_stroke(style.MUTED, 3)
        head = Arrow(
            [node[0], node[1] + style.ROW_BUFF, 0],
            node,
            buff=0,
            color=style.MUTED,
            stroke_width=3,
            tip_length=style.SUM_NODE,
        )
        return VGroup(path, head)

    def _stack(self) -> VGroup:
        """More heads: cards behind the map; more layers: cards behind the whole chain."""
        heads = VGroup(
            *(
                SurroundingRectangle(self.small, buff=0, corner_radius=0.02)
                .set_stroke(style.MUTED, 2)
                .set_fill(style.BACKGROUND, opacity=1)
                .shift(style.STACK_STEP * k)
                .set_z_index(-k)
                for k in range(1, GHOSTS + 1)
            )
        )
        everything = VGroup(self.start, self.small, self.stand_in, self.readout, self.decision)
        front = SurroundingRectangle(everything, buff=style.GROUP_BUFF, corner_radius=0.1)
        layers = VGroup(
            *(
                front.copy()
                .set_stroke(style.MUTED, 2, opacity=1 if k == 0 else 0.6)
                .set_fill(style.BACKGROUND, opacity=1)
                .shift(style.STACK_STEP * k)
                .set_z_index(-10 - k)
                for k in range(GHOSTS)
            )
        )
        return VGroup(heads, layers)

    # --- four heads ------------------------------------------------------------------------
    def _heads(self) -> None:
        four = self.data.four_heads
        left, _, right, _ = style.content_area()
        across = len(four.maps) * len(four.maps[0])  # cells side by side: the maps fill the width
        cell = (right - left - (len(four.maps) - 1) * style.GROUP_BUFF) / across
        maps = VGroup(
            *(
                AttentionGrid(m, f"multihead.four.maps[{h}]", cell_size=cell, show_numbers=False)
                for h, m in enumerate(four.maps)
            )
        ).arrange(RIGHT, buff=style.GROUP_BUFF)
        names, rules = self.head_captions(four)
        reads = [self._reads(m, four.colours, four.maps[h][self.row]) for h, m in enumerate(maps)]
        strips = VGroup(*(strip for strip, _ in reads))
        for m, strip, name, rule in zip(maps, strips, names, rules, strict=True):
            strip.next_to(m, DOWN, buff=style.ITEM_BUFF)
            name.next_to(strip, DOWN, buff=ARC_ROOM)  # the arcs run under the markers
            rule.next_to(name, DOWN, buff=style.HUG_BUFF)
        label = style.text(self.words["heads_label"], style.BODY_SIZE)
        columns = VGroup(
            *(VGroup(*parts) for parts in zip(maps, strips, names, rules, strict=True))
        )
        w_o = VGroup(
            RoundedRectangle(corner_radius=0.1, width=1.4, height=BOX_HEIGHT).set_stroke(
                style.MUTED, 2
            ),
            MathTex("W_O", color=style.FOREGROUND),
        )
        readout = self.readout.copy()
        output = VGroup(
            style.text(self.words["chain_prediction"], style.BODY_SIZE),
            self.number(f"multihead.four.predictions[{self.row}][0]", 2, style.BODY_SIZE),
        ).arrange(RIGHT, buff=style.ITEM_BUFF)
        flow = VGroup(w_o, readout, output).arrange(RIGHT, buff=style.WIDE_BUFF)
        style.place(VGroup(columns, flow).arrange(DOWN, buff=style.SECTION_BUFF))
        flow.shift(RIGHT * (columns.get_center()[0] - w_o.get_center()[0]))  # W_O under the maps
        label.align_to(columns, LEFT).set_y(w_o.get_center()[1])  # the maps take the height
        right = config.frame_width / 2 - style.EDGE_BUFF
        flow.shift(LEFT * max(0.0, flow.get_right()[0] - right))
        bottom = columns.get_bottom()[1] - style.HUG_BUFF  # arrows leave under every caption
        arcs = [
            self._reads(m, four.colours, four.maps[h][self.row], s)[1]
            for h, (m, s) in enumerate(zip(maps, strips, strict=True))
        ]
        colour = [arcs[h] for h, match in enumerate(four.colour_match) if match >= RULE_MATCH]
        left = [arcs[h] for h, match in enumerate(four.previous_match) if match >= RULE_MATCH]
        ruleless = [  # a head no rule names still reads somewhere: its arcs come on `which`
            arcs[h]
            for h, (c, p) in enumerate(zip(four.colour_match, four.previous_match, strict=True))
            if max(c, p) < RULE_MATCH
        ]

        def from_every_map(target: VMobject) -> VGroup:
            """An arrow from under each map's caption to ``target``'s top."""
            return VGroup(
                *(
                    Arrow(
                        [c.get_center()[0], bottom, 0],
                        target.get_top(),
                        buff=style.ITEM_BUFF,
                        color=style.MUTED,
                    )
                    for c in columns
                )
            )

        guesses, into_w_o = from_every_map(output), from_every_map(w_o)
        steps = VGroup(
            Arrow(w_o.get_right(), readout.get_left(), buff=style.ITEM_BUFF, color=style.MUTED),
            Arrow(readout.get_right(), output.get_left(), buff=style.ITEM_BUFF, color=style.MUTED),
        )
        self.say(
            "heads",
            FadeIn(label),
            FadeIn(maps, lag_ratio=0.3),
            FadeIn(names, lag_ratio=0.3),
            beats={
                "differ": [FadeIn(strips, lag_ratio=0.1), outline(*maps)],
                "rules": [FadeIn(rules), *(Create(a, lag_ratio=0.3) for a in colour)],
                "left": [*(Create(a) for a in left)],
                "which": [
                    FadeIn(output),
                    *(GrowArrow(a) for a in guesses),
                    *(Create(a) for a in ruleless),
                ],
                "combine": [
                    LaggedStart(
                        AnimationGroup(
                            FadeIn(w_o),
                            FadeIn(readout),
                            ReplacementTransform(guesses, into_w_o),
                            LaggedStart(*(GrowArrow(a) for a in steps), lag_ratio=0.5),
                        ),
                        # each head's output runs into W_O, what W_O makes of them on
                        AnimationGroup(*(_carry(a) for a in into_w_o)),
                        Succession(*(_carry(a) for a in steps)),
                        lag_ratio=1,
                    )
                ],
                "none": [maps.animate.set_opacity(style.DIMMED), outline(w_o, readout)],
            },
        )
        self._research(label, [m for m in self.mobjects if m not in (self.title, label)])

    def _reads(
        self, grid: AttentionGrid, colours: list[int], weights: list[float], strip=None
    ) -> tuple[VGroup, VGroup]:
        """Under ``grid``, a strip of its positions' colour markers (or ``strip``, placed), and
        what row ``row`` reads: an arc under the strip from each position it takes from into
        its marker (information flows from V_j into the row), a ring round its own marker,
        each as thick as the weight."""
        if strip is None:
            size = STRIP_MARKER
            strip = VGroup(*(self.colour_marker(c, size) for c in colours))
            for j, marker in enumerate(strip):
                marker.set_x(grid.get_cell(0, j).get_center()[0])
            return strip, VGroup()
        arcs, home = VGroup(), strip[self.row].get_bottom()
        for j, w in enumerate(weights):
            if w < READ:
                continue
            width = ARC_STROKE * w
            if j == self.row:
                ring = Circle(radius=strip[j].width * 0.7).move_to(strip[j])
                arcs.add(ring.set_stroke(style.HIGHLIGHT, width))
                continue
            source = strip[j].get_bottom()  # V_j flows from here into row 3: the tip at home
            arcs.add(
                CurvedArrow(
                    source,
                    home,
                    angle=-ARC_ANGLE if source[0] > home[0] else ARC_ANGLE,
                    color=style.HIGHLIGHT,
                    stroke_width=width,
                    tip_length=ARC_TIP,
                )
            )
        return strip, arcs

    # --- other weights, the same prediction ------------------------------------------------
    def _research(self, label: VMobject, heads: list) -> None:
        """The map comes back as a thumbnail at the top left, row 3 framed; its row is copied
        out beside it, over a line as wide as the room, and other weights (on other positions)
        give the readout the same prediction: each row's prediction stands under the mark
        where its terms end."""
        ex, row, saved = self.example, self.row, self.grid.saved_state
        left, bottom, right, top = style.content_area()
        research = style.name_text(self.words["research"], style.BODY_SIZE)
        thumb = saved.copy().scale(THUMB)
        for part in (thumb.numbers, thumb.row_headers, thumb.col_headers):
            part.set_opacity(0)  # a thumbnail: read by its brightness, its row on the strip
        notes = VGroup(research, thumb).arrange(DOWN, aligned_edge=LEFT, buff=style.GROUP_BUFF)
        notes.move_to([left, top, 0], aligned_edge=LEFT + UP)
        keys = self._line_keys()  # what the bars are: under the lines
        room = notes.width  # the left column: the paper and the map
        length = right - left - room - 2 * style.GROUP_BUFF  # and the end ticks' labels
        strips, names, saids, rows = [], [], [], []
        for key, weights, source, prediction in (
            ("learned_row", ex.attention, "attention", "predictions"),
            ("swap_row", ex.swap_attention, "swap_attention", "swap_predictions"),
        ):
            strips.append(
                AttentionGrid(
                    [weights[row]],
                    f"{self.path}.{source}",
                    col_headers=[self.colour_marker(c, style.HEADER_MARKER) for c in ex.colours],
                    cell_size=ROW_CELL,
                    first_row=row,
                )
            )
            names.append(style.text(self.words[key], style.LABEL_SIZE, style.MUTED))
            top_row = VGroup(strips[-1], names[-1]).arrange(RIGHT, buff=style.GROUP_BUFF)
            line = self._readout_line(weights[row], length)
            scale = VGroup(
                *(
                    style.tick_label(f"{round(x, 2) + 0:g}").next_to(
                        line.axis.n2p(x), DOWN, buff=style.HUG_BUFF
                    )
                    for x in line.axis.get_tick_range()
                )
            )
            said = VGroup(
                style.text(self.words["chain_prediction"], style.LABEL_SIZE),
                self.number(f"{self.path}.{prediction}[{row}]", 2, style.LABEL_SIZE),
            ).arrange(RIGHT, buff=style.ITEM_BUFF)
            # the mark's own label, its number under it, among the ticks' (those it would
            # cover make way)
            said.next_to(line.axis, DOWN, buff=style.HUG_BUFF)
            said.shift(RIGHT * (line.axis.n2p(line.reach)[0] - said[1].get_center()[0]))
            clear = style.ITEM_BUFF
            scale.remove(
                *(
                    t
                    for t in scale
                    if t.get_right()[0] > said.get_left()[0] - clear
                    and t.get_left()[0] < said.get_right()[0] + clear
                )
            )
            saids.append(said)
            rows.append(
                VGroup(top_row, VGroup(line, scale, said)).arrange(
                    DOWN, aligned_edge=LEFT, buff=style.HUG_BUFF
                )
            )
        lines = [r[1][0] for r in rows]
        scales = [r[1][1] for r in rows]
        side = VGroup(*rows).arrange(DOWN, aligned_edge=LEFT, buff=style.ROW_BUFF)
        keys.move_to([left, bottom, 0], aligned_edge=LEFT + DOWN)  # across the foot
        bottom = keys.get_top()[1] + style.HUG_BUFF
        side.scale(min(1.0, (top - bottom) / side.height))
        side.move_to([right, (top + bottom) / 2, 0], aligned_edge=RIGHT)
        learned, swapped = strips
        # from under the learned row's prediction down to the swapped row's mark, behind the
        # swapped row's cells it passes
        end = lines[1].axis.n2p(lines[1].reach)
        drop = DashedLine([end[0], saids[0].get_bottom()[1], 0], end, color=style.RESULT)
        drop.set_z_index(-1)
        frame = SurroundingRectangle(thumb.get_row(row), color=style.HIGHLIGHT, buff=0)
        self.say(
            "research_say",
            FadeOut(*heads),
            Transform(label, research),
            Transform(self.grid, thumb),
            then=[
                [
                    Create(frame),
                    TransformFromCopy(thumb.get_row(row), VGroup(learned.cells, learned.numbers)),
                    FadeIn(learned.col_headers, names[0]),
                ],
                [FadeIn(lines[0].axis, scales[0], keys[0]), lines[0].read_out()],
                [lines[0].grow(), FadeIn(keys[1])],
                [Create(lines[0].end), FadeIn(saids[0], shift=DOWN * 0.2)],
            ],
            beats={
                "swap": [
                    TransformFromCopy(
                        VGroup(learned.cells, learned.numbers),
                        VGroup(swapped.cells, swapped.numbers),
                    ),
                    FadeIn(swapped.col_headers, names[1], lines[1].axis, scales[1]),
                    Succession(lines[1].read_out(), lines[1].grow()),
                ],
                "same": [
                    Succession(
                        AnimationGroup(Create(lines[1].end), Create(drop)),
                        FadeIn(saids[1], shift=DOWN * 0.2),
                        outline(*saids),
                    )
                ],
            },
        )
        self.play(FadeOut(label, frame, drop, keys, *rows))

    def _line_keys(self) -> VGroup:
        """What the readout lines' bars are: a faint one, each V read out alone; a solid
        one, that times its weight, laid end to end."""
        keys = VGroup()
        for key, opacity in (("readout_line", 0.3), ("term_line", 1.0)):
            swatch = Rectangle(width=LINE_PITCH * 2, height=LINE_PITCH * 0.8)
            swatch.set_fill(style.FOREGROUND, opacity=opacity).set_stroke(style.FOREGROUND, 1)
            name = style.text(self.words[key], style.LABEL_SIZE, style.MUTED)
            keys.add(VGroup(swatch, name).arrange(RIGHT, buff=style.ITEM_BUFF))
        return keys.arrange(RIGHT, buff=style.WIDE_BUFF)

    def _readout_line(self, weights: list[float], length: float) -> ReadoutLine:
        """Row ``row``'s weighted sum as the readout sees it: each V the row takes from, read
        out on its own (the readout is linear with a bias, so with weights adding up to 1
        the prediction is the weighted average of these), its share laid end to end."""
        ex, readout = self.example, self.data.weights
        gives = [float(np.dot(v, readout.readout_w)) + readout.readout_b for v in ex.v]
        taken = [j for j, w in enumerate(weights) if w >= TAKEN]
        both = [
            gives[j]
            for w in (ex.attention[self.row], ex.swap_attention[self.row])
            for j, x in enumerate(w)
            if x >= TAKEN
        ]
        low = math.floor(min(0.0, *both) * 2) / 2
        high = math.ceil(max(0.0, *both) * 2) / 2
        axis = NumberLine(x_range=[low, high, 0.5], length=length, include_tip=False)
        axis.set_color(style.MUTED)
        fills = [style.task_colour(self.data.colour_names[ex.colours[j]]).fill for j in taken]
        return ReadoutLine(axis, [gives[j] for j in taken], [weights[j] for j in taken], fills)

    # --- the right use ---------------------------------------------------------------------
    def _right_use(self) -> None:
        """Debugging as an action: the map before training beside the learned one, the
        same-colour blocks framed on both (only the learned map's weight sits in them), row 3
        of each lifted onto a ruler (the same-colour share stacked first); then the map goes
        back into the chain as one link of it, and "the model's reason" is crossed over it."""
        ex, saved = self.example, self.grid.saved_state
        before = self.colour_map(
            ex.colours, ex.settling[0], f"{self.path}.settling[0]", BEFORE_CELL
        )
        before_name = style.text(self.words["before_label"], style.LABEL_SIZE, style.MUTED)
        untrained = VGroup(before, before_name).arrange(DOWN, buff=style.ITEM_BUFF)
        untrained.next_to(saved, RIGHT, buff=style.WIDE_BUFF).set_y(saved.get_center()[1])
        blocks = VGroup(*(m.block_frames(ex.colours) for m in (saved, before)))
        blocks.set_stroke(width=BLOCK_STROKE)
        rulers = [
            self._ruler(saved, ex.attention[self.row]),
            self._ruler(before, ex.settling[0][self.row]),
        ]
        # the learned map is still the thumbnail when these are built (it is restored under
        # this line): its row is framed and lifted from where it will stand, ``saved``
        lifted = [
            AnimationGroup(
                Create(SurroundingRectangle(m.get_row(self.row), color=style.HIGHLIGHT, buff=0)),
                FadeIn(ruler),
                LaggedStart(
                    *(TransformFromCopy(m.get_cell(self.row, j), bars[j]) for j in order),
                    lag_ratio=0.15,
                ),
            )
            for m, (ruler, bars, order) in zip((saved, before), rulers, strict=True)
        ]
        self.say(
            "debug",
            Restore(self.grid),
            LaggedStart(*(FadeIn(VGroup(*before.get_row(i))) for i in range(ex.n)), lag_ratio=0.1),
            FadeIn(before.row_headers, before.col_headers, before_name),
            beats={
                "blocks": [LaggedStart(Create(blocks[0]), Create(blocks[1]), lag_ratio=0.5)],
                "needs": [InTurn(*lifted)],
            },
        )
        gone = [m for m in self.mobjects if m not in (self.title, self.grid, blocks[0])]
        self._outro(gone, blocks[0])

    def _ruler(self, grid: AttentionGrid, weights: list[float]) -> tuple[Rectangle, list, list]:
        """A ruler beside ``grid``, as tall as its cells: the whole of row ``row``, which adds
        up to 1. Each of the row's cells is a bar on it as tall as its weight, the cells of
        the row's own colour stacked first from the bottom (in that colour), the rest above
        them in grey. Returns the ruler, the bars (by position) and the order they stack in."""
        colours = self.example.colours
        cells = grid.cells
        ruler = Rectangle(width=RULER_WIDTH, height=cells.height).set_stroke(style.MUTED, 2)
        ruler.next_to(grid, RIGHT, buff=(style.WIDE_BUFF - RULER_WIDTH) / 2)
        ruler.set_y(cells.get_center()[1])
        same = [j for j, c in enumerate(colours) if c == colours[self.row]]
        order = same + [j for j in range(len(colours)) if j not in same]
        bars = [None] * len(colours)
        floor = ruler.get_bottom()
        for j in order:
            height = max(weights[j] * cells.height, 0.001)
            fill = style.task_colour(self.data.colour_names[colours[j]]).fill
            bar = Rectangle(width=RULER_WIDTH, height=height).set_stroke(style.BACKGROUND, 1)
            bar.set_fill(fill if j in same else style.MUTED, opacity=1 if j in same else 0.5)
            bars[j] = bar.move_to(floor, aligned_edge=DOWN)
            floor = bar.get_top()
        return ruler, bars, order

    def _outro(self, gone: list, frames: VGroup) -> None:
        """The map shrinks back into the chain (its block frames with it), the chain comes
        back round it; the map is one link of it; "the model's reason" is crossed over the map (a
        map of flow, not the reason), and the rest of the chain is lit."""
        ex = self.example
        target = self._shrunk_map()
        small_frames = target.block_frames(ex.colours).set_stroke(width=BLOCK_STROKE)
        blocks = target.block_groups(ex.colours, stroke_width=BLOCK_STROKE)
        own = blocks[list(dict.fromkeys(ex.colours)).index(ex.colours[self.row])]
        own.set_color(style.HIGHLIGHT)
        link = SurroundingRectangle(self.small, color=style.HIGHLIGHT, buff=style.HUG_BUFF)
        flow = style.text(self.words["flow_label"], style.SMALL_SIZE)
        debug = style.text(self.words["debug_label"], style.SMALL_SIZE)
        names = VGroup(flow, debug).arrange(DOWN, buff=style.ITEM_BUFF)
        names.next_to(link, DOWN, buff=style.ITEM_BUFF)
        room = self.stand_in.get_left()[0] - style.ITEM_BUFF  # the plane's label is beside
        names.shift(LEFT * max(0.0, names.get_right()[0] - room))
        reason = style.text(self.words["reason_label"], style.BODY_SIZE)  # as large as 預測
        reason.next_to(link, UP, buff=style.ITEM_BUFF)  # the map's, not the decision's
        # over the residual path and the cards behind the map: read on a patch of background
        reason.add_background_rectangle(color=style.BACKGROUND, opacity=1, buff=style.HUG_BUFF)
        reason.set_z_index(1)
        cross = Cross(reason, stroke_color=style.HIGHLIGHT, stroke_width=5).set_z_index(2)
        self.say(
            "outro",
            FadeOut(*gone),
            self.grid.animate.become(target),
            Transform(frames, small_frames),
            then=[[FadeIn(*self.chain)], [Create(link), FadeIn(flow)]],
            beats={
                # row 3's own-colour block lit, the others dimmed (at play time: the frames
                # are the big map's until this line's first animation)
                "clue": [
                    FadeIn(debug),
                    ApplyMethod(frames.set_stroke, {"opacity": style.DIMMED}),
                    Create(own),
                ],
                "not": [
                    InTurn(
                        FadeIn(reason),
                        Create(cross),
                        outline(self.readout, self.residual, self.stack[1]),
                    )
                ],
            },
        )
