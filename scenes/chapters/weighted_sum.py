"""The weighted sum of V (seeds 003, 002): shares times values, added into a new vector.

蘋果's shares travel onto the V rows; on why's 吃/食物 plane each V shrinks by its share and
the three go tip to tail onto the attention output, which is mostly "eating"; through W_O
(skipped by the walkthrough) and added back to 蘋果's own vector (the residual connection)
it moves the word as why drew it. Then it -> cat (where V = K), and n positions in, n out.
Render alone with ``manim -ql scenes/chapters/weighted_sum.py WeightedSum``.
"""

from __future__ import annotations

import math

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    Arrow,
    Brace,
    Circumscribe,
    Create,
    CurvedArrow,
    DashedLine,
    DashedVMobject,
    FadeIn,
    FadeOut,
    GrowArrow,
    GrowFromCenter,
    GrowFromEdge,
    LaggedStart,
    Line,
    ManimColor,
    MathTex,
    Rectangle,
    ReplacementTransform,
    Restore,
    RoundedRectangle,
    Succession,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
)

from scenes.chapters.softmax import every_row
from scenes.kit import style
from scenes.kit.base import LectureScene, Sentence, top_index
from scenes.kit.diagrams import OfficeRoom
from scenes.kit.emphasis import outline
from scenes.kit.maps import AttentionGrid, LabelledMatrix, fit_column_labels
from scenes.kit.numbers import sum_sign
from scenes.kit.sums import TipToTail
from scenes.kit.vectors import Fork, NumberVector

EAT = "tokens.eat_apple"
IT = "tokens.it_cat"
BIG = style.BODY_SIZE
SHARE_CELL = 0.9  # a cell of the shares row
SHARE_ARC = -1.0  # a share's path from its cell into its row of the ledger
SHARES_WIDTH = 3.6  # the most the shares row takes: cells shrink for more words
PLANE_LABELS = 0.8  # the plane's height beyond its axes: the names under the x axis
ORIGIN_ROOM = 0.6  # under the plane's origin: the name of a term with nothing on the plane
PLANE_GROW = 1.3  # the ledger and the plane may grow this much to fill the content area
W_O_SIDE = 0.7  # the box the sum passes through
SHAPE_CELL = 1.1  # a cell of X and of the outputs: the same size, so the same shape shows
IT_CELL = 0.9  # a cell of it's shares row
BAR_UNIT = 1.5  # it's output as bars: the height of 1.0
BAR_WIDTH = 0.6
OFFICE_TIME = 2.0  # the office beat's three steps: the room, then K's place, then V's days
PARKED_WIDTH = 2.0  # it's bar of weights, waiting in a corner for its sentence
FORK_HEIGHT = 3.0  # x -> W_K -> k and x -> W_V -> v, where the plane was
ROOM_SCALE = 0.95  # the office, back beside the terms: its names as large as in office


class WeightedSum(LectureScene):
    """b = sum_j w_j v_j for 蘋果, tip to tail, then x + b; it ≈ 0.83 v(cat) + ...; n in, n out."""

    scene_key = "weighted_sum"
    reads = ("tokens.eat_apple", "tokens.it_cat", "office")
    # the colleagues' names and their days, as the office says them; softmax's words for
    # the totals of the rows of weights this chapter opens on
    tables = ("office", "softmax")
    opens_on = every_row.__name__

    def construct(self) -> None:
        self.title = self.make_title()
        self.ex = self.data.eat_apple
        self._apple()
        self._residual()
        self._it_cat()
        self._same_shape()

    def _symbol(self, text: str) -> VGroup:
        return style.text(text, style.BODY_SIZE)

    def _vector(
        self,
        values,
        source: str,
        label: str,
        colour: ManimColor | None = None,  # None: the theme's text colour when drawn
        size: float = style.LABEL_SIZE,
    ) -> NumberVector:
        return NumberVector(values, source, label, colour, size=size)

    def _dims(
        self, vector: NumberVector, sentence: Sentence, size: float = style.SMALL_SIZE
    ) -> VGroup:
        names = self.dim_names(sentence)
        return fit_column_labels(
            VGroup(
                *(
                    style.text(name, size, style.MUTED).next_to(entry, UP, buff=0.3)
                    for name, entry in zip(names, vector.entries, strict=True)
                )
            )
        )

    # --- why's plane ----------------------------------------------------------------------
    def _plane_dims(self) -> tuple[int, int]:
        """why's plane: across, what the neighbours add most; up, what 蘋果 means most."""
        ex, i = self.ex, self.ex.query_index
        change = ex.last_row.outputs[0]
        across, up = top_index(change), top_index(ex.x[i])
        if up == across:  # one dimension does both: the next largest change
            across = max((c for c in range(ex.d) if c != up), key=change.__getitem__)
        return across, up

    def _plane(self, side: float) -> VGroup:
        """The 吃/食物 plane as why drew it (its span from 蘋果's input and its new vector),
        its axes ``side`` long."""
        ex, i = self.ex, self.ex.query_index
        across, up = self.dims = self._plane_dims()
        points = [ex.x[i], ex.residual, *ex.v[: ex.short]]
        low = min(0.0, *(p[c] for p in points for c in (across, up)))
        high = max(1.5, *(p[c] for p in points for c in (across, up)))
        span = [math.floor(low * 2) / 2, math.ceil(high * 2) / 2, 0.5]
        self.axes = style.muted_axes(span, span, side, side)
        names = self.dim_names(ex)
        axis_x = style.text(names[across], style.LABEL_SIZE, style.MUTED)
        axis_y = style.text(names[up], style.LABEL_SIZE, style.MUTED)
        axis_x.next_to(self.axes.x_axis, DOWN, buff=style.ITEM_BUFF)
        axis_y.next_to(self.axes.y_axis, LEFT, buff=style.ITEM_BUFF)
        return VGroup(self.axes, axis_x, axis_y)

    def _point(self, v: list[float]):
        across, up = self.dims
        return self.axes.c2p(v[across], v[up])

    def _leg(self, v: list[float], along: int) -> Arrow:
        """v's part along one of the plane's two axes (``along`` 0: across, 1: up), as an
        arrow from the origin in the highlight colour."""
        keep = [0.0] * len(v)
        keep[self.dims[along]] = v[self.dims[along]]
        return Arrow(
            self._point([0.0] * len(v)),
            self._point(keep),
            buff=0,
            color=style.HIGHLIGHT,
            stroke_width=8,
        )

    def _drops(self, v: list[float]) -> VGroup:
        """Dashed lines from v's tip to the plane's two axes."""
        tip = self._point(v)
        across, up = self.dims
        feet = [[0.0] * len(v), [0.0] * len(v)]
        feet[0][across], feet[1][up] = v[across], v[up]
        return VGroup(
            *(DashedLine(tip, self._point(f), color=style.MUTED, stroke_width=2) for f in feet)
        )

    # --- 蘋果 ---------------------------------------------------------------------------
    def _apple(self) -> None:
        ex, n = self.ex, self.ex.short
        words = self.apple_words()[:n]
        shares = AttentionGrid(
            [ex.last_row.weights[0]],
            f"{EAT}.last_row.weights",
            col_headers=[style.text(t, style.LABEL_SIZE, style.KEY) for t in words],
            cell_size=min(SHARE_CELL, SHARES_WIDTH / n),
            text_size=style.LABEL_SIZE,
        )
        rows = VGroup()
        for j in range(n):
            w = self.number(f"{EAT}.last_row.weights[0][{j}]", 2, style.BODY_SIZE)
            v = self._vector(ex.v[j], f"{EAT}.v[{j}]", self.apple_label("v", j), style.VALUE)
            term = self._vector(ex.contributions[j], f"{EAT}.contributions[{j}]", "")
            times = VGroup(w, self._symbol("×"), v).arrange(RIGHT, buff=style.ITEM_BUFF)
            # the term on the line under it, each entry under v's own: one column per dimension
            term.next_to(v, DOWN, buff=style.ITEM_BUFF)
            term.shift(RIGHT * (v.get_entry(0).get_x() - term.get_entry(0).get_x()))
            same = self._symbol("=").next_to(term, LEFT, buff=style.ITEM_BUFF)
            rows.add(VGroup(*times, same, term))
        rows.arrange(DOWN, aligned_edge=RIGHT, buff=style.ROW_BUFF)
        self.output = self._vector(
            ex.last_row.outputs[0], f"{EAT}.last_row.outputs[0]", self.words["output"]
        )
        self.output.next_to(rows, DOWN, buff=style.GROUP_BUFF).align_to(rows, RIGHT)
        adds_up = all(  # each dimension: the terms as shown add up to the output as shown
            sum_sign([t[c] for t in ex.contributions], total, 2) == "="
            for c, total in enumerate(ex.last_row.outputs[0])
        )
        dims = self._dims(rows[0][2], ex, style.LABEL_SIZE)  # heads every column below it
        sign = self._symbol("=" if adds_up else "≈").next_to(self.output, LEFT)
        box = SurroundingRectangle(self.output, buff=style.HUG_BUFF, color=style.RESULT)
        # the shares stand as a column, each cell beside its row: its weight steps into it
        edge = min(r[0].get_left()[0] for r in rows) - style.GROUP_BUFF
        for j, row in enumerate(rows):
            cell = VGroup(shares.get_cell(0, j), shares.get_number(0, j))
            cell.match_y(row[0]).set_x(edge - cell.width / 2)
            shares.col_headers[j].next_to(cell, LEFT, buff=style.ITEM_BUFF)
        column = VGroup(shares, dims, rows, self.output, sign, box)  # the box placed with the rest
        # the plane as tall as the ledger: both fill the content area's height together
        plane = self._plane(column.height - PLANE_LABELS)
        picture = VGroup(column, plane).arrange(RIGHT, buff=style.WIDE_BUFF)
        before = picture.height
        style.place(picture, grow=PLANE_GROW)
        shrunk = picture.height / before
        if shrunk < 1:  # the plane's axis names keep their size (the ledger is what is tall)
            plane[1].scale(1 / shrunk, about_edge=UP)
            plane[2].scale(1 / shrunk, about_edge=RIGHT)
        left, bottom, right, top = style.content_area()  # the ledger left, the plane right
        column.shift(RIGHT * (left - column.get_left()[0]))
        # the axes from the top of the area down to ORIGIN_ROOM above its bottom (a term with
        # nothing on the plane is named under the origin), as wide as the ledger leaves
        axes = self.axes.shift(UP * (top - self.axes.get_top()[1]))
        grow = min(
            (top - bottom - ORIGIN_ROOM) / (top - axes.c2p(0, 0)[1]),
            (right - column.get_right()[0] - style.WIDE_BUFF - plane[2].width) / axes.width,
        )
        axes.scale(grow, about_edge=UP).shift(RIGHT * (right - axes.get_right()[0]))
        plane[1].next_to(axes.x_axis, DOWN, buff=style.ITEM_BUFF)
        plane[2].next_to(axes.y_axis, LEFT, buff=style.ITEM_BUFF)
        self.plane = plane
        names = [self.apple_label("v", j) for j in range(n)]
        tip = TipToTail(
            self.axes,
            ex.v[:n],
            ex.last_row.weights[0],
            f"{EAT}.last_row.weights[0]",
            names,
            self.dims,
        )
        self.tip = tip
        # softmax's last picture at once: 蘋果's row of weights over it's, both adding up to 1.
        # On "the weights we just computed" 蘋果's bar becomes the row of shares: each part
        # its cell, its weight the cell's number, its word the column's name; it's row leaves.
        apple, it_row, totals = every_row(self)
        self.add(self.title, apple, it_row, totals)
        parts = (*apple.split, *apple.numbers, *apple.names)
        into = (*shares.cells, *shares.numbers, *shares.col_headers)
        # it's bar is parked small and dimmed in the bottom right corner until its sentence
        self.parked = VGroup(it_row.split, it_row.track)
        _, bottom, right, _ = style.content_area()
        # right of the plane's name under its x axis (a long name leaves it less room)
        width = min(PARKED_WIDTH, right - plane[1].get_right()[0] - style.ITEM_BUFF)
        parked_at = [right - width / 2, bottom + style.ITEM_BUFF, 0]
        gone = (it_row.looker, it_row.total, totals, apple.looker, apple.track, apple.total)
        self.say(
            "intro",
            *(FadeOut(m) for m in gone),
            self.parked.animate.scale(width / self.parked.width)
            .move_to(parked_at)
            .set_opacity(style.DIMMED),
            *(ReplacementTransform(a, b) for a, b in zip(parts, into, strict=True)),
            then=[
                [LaggedStart(*(FadeIn(r[2]) for r in rows), lag_ratio=0.3), FadeIn(dims)],
                [Create(plane), tip.draw_vectors()],
            ],
        )
        self.add(shares)  # its parts handed over as one row, as the rest of the chapter takes it
        picked = VGroup()  # take_picked's frame and v(吃)'s full length: gone at the next take
        for j, row in enumerate(rows):
            key = (
                "take_self" if j == ex.query_index else "take_picked" if j == ex.target else "take"
            )
            beats = {}
            if key == "take_picked":
                top = top_index(ex.v[j])
                # v's largest entry framed, and v's length along that axis (before its share)
                picked.add(SurroundingRectangle(row[2].get_entry(top), buff=style.HUG_BUFF))
                beats["col"] = [Create(picked[0])]
                if top in self.dims:
                    picked.add(self._leg(ex.v[j], self.dims.index(top)))
                    beats["col"].append(GrowArrow(picked[1]))
            share = shares.get_number(0, j)
            self.say(
                key,
                # the share steps out of its cell into the row
                TransformFromCopy(share, row[0], path_arc=SHARE_ARC),
                share.animate.set_opacity(0),
                FadeIn(row[1]),
                *([FadeOut(picked)] if len(picked) and key != "take_picked" else []),
                then=[[tip.scale_term(j), FadeIn(row[3]), TransformFromCopy(row[2], row[4])]],
                beats=beats,
                w=row[0],
                token=self.apple_words()[j],
                carries=self.dim_names(ex)[top_index(ex.v[j])],
            )
        self.say(
            "sum",
            tip.lay_tip_to_tail(),
            then=[
                [
                    tip.draw_sum(),
                    TransformFromCopy(VGroup(*(r[4] for r in rows)), self.output),
                    FadeIn(box),
                    FadeIn(sign),
                ]
            ],
            n=self.spoken(f"{EAT}.short", 0),
        )
        eat = max(range(ex.d), key=lambda c: ex.last_row.outputs[0][c])
        frame = SurroundingRectangle(self.output.get_entry(eat), color=style.HIGHLIGHT)
        own = top_index(ex.x[ex.query_index])  # the asker's own meaning: from its own V
        own_frame = SurroundingRectangle(self.output.get_entry(own), color=style.HIGHLIGHT)
        column = VGroup(*(r[4].get_entry(eat) for r in rows))
        own_column = VGroup(*(r[4].get_entry(own) for r in rows))
        out = ex.last_row.outputs[0]
        drops = self._drops(out)  # each column of the output: a direction on the plane
        eat_leg, own_leg = self._leg(out, 0), self._leg(out, 1)
        self.say(
            "output_meaning",
            *(Create(d) for d in drops),
            beats={
                "big": [Create(frame), TransformFromCopy(tip.total, eat_leg)],
                "from": [outline(*column)],
                "own": [
                    ReplacementTransform(frame, own_frame),
                    ReplacementTransform(eat_leg, own_leg),
                    outline(*own_column),
                ],
            },
            eat=self.output.get_entry(eat),
            brings_from=self._comes_from(eat),
            meaning_from=self._comes_from(own),
        )
        self.apple_parts = VGroup(shares, dims, rows, box, own_frame, sign, drops, own_leg)

    def _comes_from(self, column: int) -> str:
        """Where the output's ``column`` comes from: entirely the asker's own V (every other
        share shows 0.00, its own does not), mostly its own (its share is larger than the
        others' together), or mostly the other words'."""
        ex, i = self.ex, self.ex.query_index
        others = [row[column] for j, row in enumerate(ex.contributions) if j != i]
        own = ex.contributions[i][column]
        if round(abs(own), 2) > 0 and all(round(abs(share), 2) == 0 for share in others):
            return self.words["all_own"]
        return self.words["from_self" if abs(own) > sum(map(abs, others)) else "from_others"]

    def _w_o(self, at) -> VGroup:
        """W_O as a box the sum passes through, dashed and captioned: the walkthrough has no
        W_O, so the box changes nothing here."""
        frame = DashedVMobject(
            RoundedRectangle(corner_radius=0.1, width=W_O_SIDE * 1.4, height=W_O_SIDE),
            num_dashes=24,
        ).set_stroke(style.FOREGROUND, width=2)
        name = style.text("W_O", style.BODY_SIZE).move_to(frame)
        note = style.text(self.words["w_o_skipped"], style.SMALL_SIZE, style.MUTED)
        note.next_to(frame, RIGHT, buff=style.ITEM_BUFF)  # clear of x's arrow, on its left
        return VGroup(frame, name, note).move_to(at)

    def _residual(self) -> None:
        """x(蘋果) + the attention output = 蘋果's new vector (the residual connection), in
        numbers on the left and as why's arrows on the plane."""
        ex, i = self.ex, self.ex.query_index
        x = self._vector(ex.x[i], f"{EAT}.x[{i}]", self.apple_label("x", i), size=BIG)
        output = self._vector(
            ex.last_row.outputs[0], f"{EAT}.last_row.outputs[0]", self.words["output"], size=BIG
        )
        new_label = self.words.format("new_apple", asker=self.apple_words()[i])
        new = self._vector(ex.residual, f"{EAT}.residual", new_label, size=BIG)
        column = VGroup(x, output, new).arrange(DOWN, buff=style.GROUP_BUFF, aligned_edge=RIGHT)
        signs = VGroup(self._symbol("+"), self._symbol("="))
        for sign, vector in zip(signs, (output, new), strict=True):
            sign.next_to(column, LEFT, buff=style.GROUP_BUFF).match_y(vector)
        rule = Line(x.get_left(), x.get_right(), color=style.MUTED).next_to(
            new, UP, buff=style.GROUP_BUFF / 2, coor_mask=UP
        )
        dims = self._dims(x, ex)
        numbers = VGroup(dims, column, signs, rule)
        left = style.content_area()[0]
        room = self.plane.get_left()[0] - style.WIDE_BUFF - left
        numbers.scale(min(1.0, room / numbers.width))
        numbers.next_to(self.plane, LEFT, buff=style.WIDE_BUFF)
        numbers.shift(UP * (self.plane.get_center()[1] - numbers.get_center()[1]))
        box = SurroundingRectangle(new, buff=style.HUG_BUFF, color=style.RESULT)
        # the plane: why's arrows, x first; the sum travels through W_O to x's tip
        tip, total = self.tip, self.tip.total
        origin, start = self._point([0.0] * ex.d), self._point(ex.x[i])
        end = self._point(ex.residual)
        x_arrow = Arrow(origin, start, buff=0, color=style.FOREGROUND)
        moved = total.copy().shift(start - total.get_start())
        w_o = self._w_o((total.get_center() + moved.get_center()) / 2)  # on the sum's path
        w_o.shift(w_o.get_center() - w_o[0].get_center())  # the box itself, not its caption
        new_arrow = Arrow(origin, end, buff=0, color=style.RESULT, stroke_width=8)
        new_name = style.text(new_label, style.LABEL_SIZE).next_to(end, UP, buff=style.ITEM_BUFF)
        self.say(
            "residual",
            FadeOut(self.apple_parts),
            FadeOut(VGroup(tip.arrows, tip.dots)),
            ReplacementTransform(self.output, output),
            FadeIn(VGroup(x, signs, rule, dims)),
            GrowArrow(x_arrow),
            then=[[FadeIn(w_o)], [total.animate.move_to(w_o[0])]],
            beats={
                "add": [
                    Succession(
                        AnimationGroup(FadeOut(w_o), total.animate.move_to(moved)),
                        GrowArrow(new_arrow),
                    ),
                    TransformFromCopy(VGroup(x, output), new),
                    FadeIn(box),
                ]
            },
        )
        food = max(range(ex.d), key=lambda c: ex.x[i][c])
        eat = max(range(ex.d), key=lambda c: ex.last_row.outputs[0][c])
        frames = VGroup(
            SurroundingRectangle(new.get_entry(food), color=style.HIGHLIGHT),
            SurroundingRectangle(new.get_entry(eat), color=style.HIGHLIGHT),
        )
        legs = VGroup(self._leg(ex.residual, 1), self._leg(ex.residual, 0))
        # the sentence's words' parts, tip to tail from x's tip: what the word took from them
        pieces = tip.chain.copy().shift(start - origin)
        self.say(
            "apple_meaning",
            Create(frames[0]),
            TransformFromCopy(new_arrow, legs[0]),
            beats={
                "brings": [
                    ReplacementTransform(frames[0], frames[1]),
                    TransformFromCopy(new_arrow, legs[1]),
                ],
                "word": [
                    FadeOut(VGroup(frames[1], legs)),
                    total.animate.set_opacity(style.DIMMED),
                    outline(x_arrow),
                ],
                "sentence": [
                    x_arrow.animate.set_opacity(style.DIMMED),
                    LaggedStart(*(GrowArrow(a) for a in pieces), lag_ratio=0.3),
                    FadeIn(new_name),
                ],
            },
        )

    # --- it -> cat ---------------------------------------------------------------------
    def _it_cat(self) -> None:
        c = self.data.it_cat
        it = c.query_index
        order = sorted(range(len(c.tokens)), key=lambda j: -c.scaled.weights[it][j])[:2]
        row = AttentionGrid(  # it's shares, as softmax computed them (T = 1)
            c.scaled.weights[it : it + 1],
            f"{IT}.scaled.weights",
            col_headers=[style.text(t, style.LABEL_SIZE, style.KEY) for t in c.tokens],
            cell_size=IT_CELL,
            text_size=style.SMALL_SIZE,
            first_row=it,
        )
        terms = VGroup()
        for j in order:
            w = self.number(f"{IT}.scaled.weights[{it}][{j}]", 2, style.TITLE_SIZE)
            v = self._vector(c.v[j], f"{IT}.v[{j}]", f"v({c.tokens[j]})", style.VALUE, BIG)
            terms.add(VGroup(w, self._symbol("×"), v).arrange(RIGHT, buff=style.ITEM_BUFF))
        terms.add(style.text(self.words["and_the_rest"], style.BODY_SIZE, style.MUTED))
        terms.arrange(DOWN, aligned_edge=LEFT, buff=style.ROW_BUFF)
        cat = c.referent
        same = self._symbol("=")
        k_cat = self._vector(c.k[cat], f"{IT}.k[{cat}]", f"k({c.tokens[cat]})", style.KEY, BIG)
        VGroup(same, k_cat).arrange(RIGHT, buff=style.ITEM_BUFF)
        note = style.text(self.words["v_is_k"], style.BODY_SIZE, style.VALUE)
        new_label = self.words.format("new_it", pronoun=c.tokens[it])
        out = self._vector(c.scaled.outputs[it], f"{IT}.scaled.outputs[{it}]", new_label, size=BIG)
        dims = self._dims(out, c)
        hand = style.text(self.words["hand_made"], style.LABEL_SIZE, style.MUTED)
        hand.next_to(out, DOWN, buff=style.ITEM_BUFF).align_to(out, RIGHT)
        block = VGroup(row, note, terms, VGroup(dims, out, hand)).arrange(
            DOWN, buff=style.SECTION_BUFF, aligned_edge=LEFT
        )
        # the office, back in the side panel: K as the places, V as the days
        office, words = self.data.office, self.shared("office")
        room = OfficeRoom(
            [words[p] for p in office.people], office.keys, office.values, words["days"]
        )
        room.scale(ROOM_SCALE)
        # it's output as bars, one per dimension, in the same panel when the room has gone
        names = self.dim_names(c)
        rects = VGroup(
            *(
                Rectangle(
                    width=BAR_WIDTH, height=max(abs(v), 0.02) * BAR_UNIT, color=style.RESULT
                ).set_fill(style.RESULT, opacity=0.6)
                for v in c.scaled.outputs[it]
            )
        ).arrange(RIGHT, buff=style.ITEM_BUFF, aligned_edge=DOWN)
        for rect, value in zip(rects, c.scaled.outputs[it], strict=True):
            if value < 0:  # below the baseline
                rect.shift(DOWN * rect.height)
        baseline = min(r.get_bottom()[1] for r in rects)
        labels = VGroup(
            *(
                style.text(name, style.SMALL_SIZE, style.MUTED)
                .match_x(rect)
                .set_y(baseline - style.ITEM_BUFF - 0.15)
                for name, rect in zip(names, rects, strict=True)
            )
        )
        bars = VGroup(rects, labels)
        style.place(block, LEFT)
        # v(cat) = k(cat) on a line of its own under the terms (the sum is not k(cat): v(cat),
        # its first term, is): gone before the output comes
        v_cat = terms[0][2].copy()
        VGroup(same, k_cat).scale(v_cat.height / k_cat.height)  # as the layout scaled the terms
        equal = VGroup(v_cat, same, k_cat).arrange(RIGHT, buff=style.ITEM_BUFF)
        equal.next_to(terms, DOWN, buff=style.SECTION_BUFF).align_to(terms, LEFT)
        _, bottom, right, top = style.content_area()
        room.move_to([right - room.width / 2, (bottom + top) / 2, 0])  # the right side panel
        # the 蘋果 plane's move again, on it's two largest output dimensions: each V shrinks
        # by its share and the terms go tip to tail, landing almost on cat's own arrow
        across = top_index(c.scaled.outputs[it])
        up = max((d for d in range(c.d) if d != across), key=c.scaled.outputs[it].__getitem__)
        span = [0, math.ceil(max(v[d] for v in c.v for d in (across, up)) * 2) / 2, 0.5]
        side = min(top - bottom - 2 * style.SECTION_BUFF, right - block.get_right()[0] - 1.2)
        axes = style.muted_axes(span, span, side, side)
        plane = VGroup(
            axes,
            style.text(names[across], style.LABEL_SIZE, style.MUTED).next_to(
                axes.x_axis, DOWN, buff=style.ITEM_BUFF
            ),
            style.text(names[up], style.LABEL_SIZE, style.MUTED).next_to(
                axes.y_axis, LEFT, buff=style.ITEM_BUFF
            ),
        )
        plane.move_to(
            [(block.get_right()[0] + right) / 2, (bottom + top) / 2, 0]
        )  # the right two thirds
        tip = TipToTail(
            axes,
            c.v,
            c.scaled.weights[it],
            f"{IT}.scaled.weights[{it}]",
            [f"v({t})" for t in c.tokens],
            (across, up),
        )
        flat = VGroup(*(d[1] for d in tip.dots))  # the labels of the terms off the plane
        flat.arrange(DOWN, aligned_edge=LEFT, buff=style.TIGHT_BUFF * 2)
        flat.next_to(axes.c2p(span[1], span[1]), DOWN + LEFT, buff=style.ITEM_BUFF)
        names_on = VGroup(
            *(
                style.text(f"v({c.tokens[j]})", style.SMALL_SIZE, style.VALUE).next_to(
                    tip.get_arrow(j).get_end(), UP + RIGHT, buff=style.ITEM_BUFF
                )
                for j in tip.on_plane
            )
        )
        others = [j for j in range(len(c.tokens)) if j != c.referent]
        ghost = tip.get_arrow(c.referent).copy().set_opacity(style.DIMMED)  # v(cat) unscaled
        sum_name = style.text(new_label, style.SMALL_SIZE, style.RESULT)
        sum_name.next_to(tip.get_tip(), DOWN + RIGHT, buff=style.ITEM_BUFF)
        sum_name.shift(LEFT * max(0.0, sum_name.get_right()[0] - right))  # a longer name
        bars.move_to(plane)
        # x(cat) through W_K and W_V, large where the plane was; beside the room once it comes
        desk = room.people[0]  # one colleague: their place (the Key), their days (the Value)
        pointed = VGroup(*(SurroundingRectangle(part, buff=style.HUG_BUFF) for part in desk[::2]))
        fork = self._fork(c.tokens[cat])
        fork.scale(min(plane.width / fork.width, FORK_HEIGHT / fork.height)).move_to(plane)
        cat_share = self.spoken(f"{IT}.scaled.weights[{it}][{cat}]", 2)
        self.say(
            "it_terms",
            *self._clear(),
            # the bar parked at the seam rises into it's row: each part becomes its cell
            *(
                ReplacementTransform(part, cell)
                for part, cell in zip(self.parked[0], row.cells, strict=True)
            ),
            FadeOut(self.parked[1]),
            FadeIn(VGroup(row.numbers, row.col_headers)),
            FadeIn(plane),
            then=[[tip.draw_vectors(), FadeIn(names_on)]],
            beats={
                "cat": [
                    TransformFromCopy(row.get_number(0, cat), terms[0][0]),
                    FadeIn(terms[0][1:], shift=LEFT * 0.3),
                    FadeIn(ghost),
                    tip.scale_term(cat),
                ],
                "rest": [
                    FadeIn(terms[1:], lag_ratio=0.3),
                    *(tip.scale_term(j) for j in others),
                    FadeOut(
                        VGroup(
                            *(n for k, n in zip(tip.on_plane, names_on, strict=True) if k != cat)
                        )
                    ),
                ],
            },
            w=cat_share,
        )
        self.add(row)  # its cells handed over as one row, as the rest of the part takes it
        self.parked = VGroup()
        self.say(
            "v_is_k_say",
            FadeIn(note),
            then=[
                [TransformFromCopy(terms[0][2], v_cat)],
                [FadeIn(same), TransformFromCopy(v_cat, k_cat)],
            ],
            beats={
                # in a trained model the two come from one x through two different matrices
                "real": [
                    FadeOut(equal),
                    FadeOut(
                        VGroup(
                            plane, ghost, tip.arrows, tip.dots, names_on[tip.on_plane.index(cat)]
                        )
                    ),
                    FadeIn(fork.source),
                    Succession(
                        AnimationGroup(*(GrowArrow(a) for a in fork.inputs)),
                        FadeIn(fork.matrices),
                        AnimationGroup(*(GrowArrow(a) for a in fork.passes)),
                        AnimationGroup(*(TransformFromCopy(fork.source, o) for o in fork.outputs)),
                    ),
                ],
                # K the place, V the number: the room comes in, k flies onto one colleague's
                # dot (where they sit), then v onto the days they hold
                "office": [
                    Succession(
                        AnimationGroup(
                            FadeOut(VGroup(fork.source, fork.inputs, fork.matrices, fork.passes)),
                            FadeIn(VGroup(room.room, room.people), shift=LEFT * 0.5),
                        ),
                        *(
                            AnimationGroup(
                                FadeOut(o, target_position=part, scale=0.3), Create(frame)
                            )
                            for o, part, frame in zip(
                                fork.outputs, (desk[0], desk[2]), pointed, strict=True
                            )
                        ),
                    )
                ],
            },
            run_time=OFFICE_TIME,
        )
        self.say(
            "it_output",
            TransformFromCopy(terms, out),
            FadeIn(dims),
            FadeOut(pointed),
            FadeOut(room.room),
            *(FadeOut(part) for person in room.people for part in person),
            FadeIn(VGroup(plane, ghost, tip.arrows, tip.dots, names_on[tip.on_plane.index(cat)])),
            then=[[tip.lay_tip_to_tail()], [tip.draw_sum(), FadeIn(sum_name)]],
        )
        axis = top_index(c.scaled.outputs[it])
        entity = SurroundingRectangle(
            VGroup(out.get_entry(axis), dims[axis]), color=style.HIGHLIGHT
        )
        self.say(
            "it_axis",
            FadeOut(
                VGroup(
                    plane, ghost, tip.arrows, tip.dots, sum_name, names_on[tip.on_plane.index(cat)]
                )
            ),
            ReplacementTransform(tip.total, rects[axis]),  # the sum's length becomes the bar
            LaggedStart(
                *(GrowFromEdge(r, DOWN) for k, r in enumerate(rects) if k != axis),
                lag_ratio=0.15,
            ),
            FadeIn(labels),
            then=[[Create(entity), outline(rects[axis])]],
        )
        link = CurvedArrow(  # it -> cat under the row, not proven: a question mark beside it
            row.cells[it].get_bottom(), row.cells[cat].get_bottom(), angle=-1.0, color=style.MUTED
        )
        doubt = style.text("?", style.BODY_SIZE, style.MUTED)
        doubt.next_to(link, RIGHT, buff=style.ITEM_BUFF)
        self.say(
            "caveat",
            TransformFromCopy(row.numbers, hand),
            beats={"not": [Create(link), FadeIn(doubt), outline(terms[0][0])]},
        )

    def _clear(self) -> list:
        """Everything on screen but the title fading out, as the next part fades in: no
        frame between two parts is only the title."""
        keep = [self.title, *self.parked.get_family()]
        return [FadeOut(m) for m in self.mobjects if all(m is not k for k in keep)]

    # --- n in, n out -------------------------------------------------------------------
    def _count(self, path: str) -> VGroup:
        return self.number(path, 0, style.LABEL_SIZE, style.MUTED)

    def _same_shape(self) -> None:
        ex = self.ex
        n, i = ex.short, ex.query_index
        heads = [style.text(t, style.LABEL_SIZE) for t in self.apple_words()[:n]]
        x = LabelledMatrix(
            ex.x[:n], f"{EAT}.x", "X", style.FOREGROUND, row_headers=heads, cell_size=SHAPE_CELL
        )
        outputs = AttentionGrid(
            ex.short_full.outputs,
            f"{EAT}.short_full.outputs",
            cell_size=SHAPE_CELL,
            heat=False,
        )
        outputs.cells.set_stroke(style.RESULT, width=2)
        label = style.text(self.words["outputs"], style.BODY_SIZE, style.RESULT)
        label.next_to(outputs, UP, buff=style.ITEM_BUFF)
        picture = VGroup(x, VGroup(outputs, label)).arrange(RIGHT, buff=style.WIDE_BUFF * 2.5)
        # the counts, read from the data: positions beside each, width under each
        rows = VGroup(
            Brace(VGroup(x.grid.cells, x.grid.row_headers), LEFT, buff=style.ITEM_BUFF),
            Brace(outputs.cells, RIGHT, buff=style.ITEM_BUFF),
        )
        rows.set_color(style.MUTED)
        row_counts = VGroup(self._count(f"{EAT}.short"), self._count(f"{EAT}.short"))
        row_counts[0].next_to(rows[0], LEFT, buff=style.ITEM_BUFF)
        row_counts[1].next_to(rows[1], RIGHT, buff=style.ITEM_BUFF)
        cols = VGroup(
            Brace(x.grid.cells, DOWN, buff=style.ITEM_BUFF),
            Brace(outputs.cells, DOWN, buff=style.ITEM_BUFF),
        )
        cols.set_color(style.MUTED)
        col_counts = VGroup(
            *(self._count(f"{EAT}.d").next_to(b, DOWN, buff=style.ITEM_BUFF) for b in cols)
        )
        style.place(VGroup(picture, rows, row_counts, cols, col_counts))
        links = VGroup(
            *(
                Line(
                    x.grid.get_row(j).get_right() + RIGHT * style.ITEM_BUFF,
                    outputs.get_row(r).get_left() + LEFT * style.ITEM_BUFF,
                    stroke_width=1 + 6 * ex.short_full.weights[r][j],
                    color=style.WEIGHT,
                ).set_opacity(0.25 + 0.75 * ex.short_full.weights[r][j])
                for r in range(n)
                for j in range(n)
            )
        )
        apple = VGroup(*links[i * n : (i + 1) * n])
        others = VGroup(*(line for k, line in enumerate(links) if k // n != i))
        row_frame = SurroundingRectangle(
            outputs.get_row(i), buff=style.TIGHT_BUFF, color=style.HIGHLIGHT
        )
        x.save_state()
        next_input = VGroup(outputs.cells, outputs.numbers).copy().set_z_index(2)
        self.say(
            "shape",
            *self._clear(),
            FadeIn(x),
            FadeIn(VGroup(outputs, label)),
            then=[[*(GrowFromCenter(b) for b in rows), FadeIn(row_counts)]],
            beats={
                "wide": [*(GrowFromCenter(b) for b in cols), FadeIn(col_counts)],
                "stack": [  # the outputs go in as the next block's input, in X's place
                    VGroup(x.name, x.grid.cells, x.grid.row_headers).animate.set_opacity(
                        style.DIMMED
                    ),
                    x.grid.numbers.animate.set_opacity(0),  # the new numbers take their place
                    next_input.animate.move_to(x.grid.cells),
                ],
            },
            n=self.spoken(f"{EAT}.short", 0),
        )
        self.say(
            "outro",
            FadeOut(next_input),
            Restore(x),
            FadeIn(links, lag_ratio=0.1),
            beats={
                "avg": [
                    others.animate.set_opacity(0.08),
                    apple.animate.set_opacity(1),
                    Create(row_frame),
                ],
                "this": [Circumscribe(VGroup(x, outputs), color=style.HIGHLIGHT)],
            },
            run_time=2,
        )

    def _fork(self, word: str) -> Fork:
        """One word's x through two matrices: k = x W_K above, v = x W_V below."""
        return Fork(
            MathTex(rf"x(\text{{{word}}})", font_size=BIG * 1.4),
            [
                (MathTex("W_K", color=style.KEY), MathTex(rf"k(\text{{{word}}})", color=style.KEY)),
                (
                    MathTex("W_V", color=style.VALUE),
                    MathTex(rf"v(\text{{{word}}})", color=style.VALUE),
                ),
            ],
        )
