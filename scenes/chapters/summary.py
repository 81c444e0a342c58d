"""Summary (seed 000): the lecture's points, each answered by its own picture on the whole
stage, and the one knob that the office arrow's length, the temperature T and √d all turn:
the scale of the scores, turned in three pictures at once.

Render alone with ``manim -ql scenes/chapters/summary.py Summary``.
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
    ArcBetweenPoints,
    Arrow,
    Circle,
    Create,
    Cross,
    FadeIn,
    FadeOut,
    GrowArrow,
    LaggedStart,
    LaggedStartMap,
    MathTex,
    Mobject,
    ReplacementTransform,
    ShowPassingFlash,
    SurroundingRectangle,
    Transform,
    TransformFromCopy,
    VGroup,
    VMobject,
    Write,
)

from scenes.kit import style
from scenes.kit.base import APPLE_ROW, LectureScene, top_index
from scenes.kit.devices import DotArrows, Knob
from scenes.kit.emphasis import outline
from scenes.kit.maps import AttentionGrid
from scenes.kit.numbers import Ordinal, ShownNumber, Sum, phrase
from scenes.kit.seams import seam_builder
from scenes.kit.sums import TipToTail
from scenes.kit.turns import InTurn
from scenes.kit.vectors import NumberVector, WeightBars

IT = "tokens.it_cat"
EAT = "tokens.eat_apple"
SQRT_D = "pitfalls.sqrt_d"
PROJ = "pitfalls.projection"
SHUF = "pitfalls.shuffle"
SMALL_CELL = 0.3  # a bar of the pitfalls' d = 512 pictures
MAP_CELL = 0.45  # a cell of the pitfalls' two maps: they fill the stage's height
KNOB_BAR = 0.24  # a bar of the knob's three pictures
KNOB_RADIUS = 0.5  # the dial, small above the pictures it sets
KNOB_LEG = 0.8  # the dial's turn from one notch to the next, against the others of a turn
KNOB_WIRES = 3.0  # three wires, the dial a notch up and back at each: half a second a leg
KNOB_TURN = 5.0  # a turn of the dial at most (never past its words): over the clause it answers
DIMMED = 0.3  # a knob picture with no stop at the dial's notch
PLANE_SIDE = 3.4  # the weighted sum's plane
DOT_UNIT = 1.5  # scene units per unit of q and k's length
STEP_BAR = 0.6  # a bar of softmax's weights
STRIP_CELL = 0.4  # a cell of an output strip under the shuffled words
STRIP_TALL = 2.0  # an output strip's height, in cells
FORMULA_SIZE = 44
FLOW_MIN = 0.05  # a weight below this carries no flow worth drawing
FLOW_WIDTH = 16  # a flow's stroke width per unit of weight
FLOW_DOWN, FLOW_UP = 3.0, 1.8  # how far a flow's arc bends, going down and going up (radians)
FLOW_TIP = 0.18
FLOW_SPREAD = 1.8  # the flows drawn this many times as wide as a circle's arc would be
FLOW_TIME = 4.0  # every row's flow drawn in turn: against 1 for each part before it
FLOW_LAG = 0.6  # a row's flow starts when the last one's is this far along
FLOW_FIRST = 2.5  # the first row's flow, alone and slow: against FLOW_TIME for all the rest
FLOW_FAINT = 0.45  # the stroke opacity of the rows drawn after the first
MAP_TIME = 7.0  # the map's beat at most (never past the words before its "not")
STEP_TIME = 2.5  # the longest one of the steps' beats plays (never past its words)
CARRY = 2.0  # a carried number's share of its beat, against 1 for each other part
LIFT = 1.8  # a lifted bar (a weight of 1) is 3 × this many cells long
LIFT_TALL = 2.0  # a lifted part is this many cells tall
PITFALL_TIME = 4.0  # the longest one of the pitfalls' beats plays (never past its words)
LANDS = 0.8  # its target is outlined as the carried number lands
LIT = 6  # the stroke of a frame that lights a whole cell
TURN_LAG = 0.5  # cells lit in turn: each starts when the last is this far along


class Summary(LectureScene):
    """Seven points, each on the whole stage with its name in the title band: the query
    word's arrows; its q, k and v; the dot product, softmax's bars and the weighted sum tip
    to tail, each beside its formula; the learned map; each pitfall beside its fix; one knob
    turning the office, it -> cat and d = 512 at once; and the learned map carried back as a
    map of flow, not a reason.

    Variants override :attr:`example_name` (the learned map recalled) and
    :attr:`knob_middle` (the it/cat temperature index at the knob's middle notch).
    """

    scene_key = "summary"
    reads = (
        "tokens.it_cat",
        "tokens.eat_apple",
        "examples.{example_name}",
        "pitfalls.projection",
        "pitfalls.sqrt_d",
        "pitfalls.shuffle",
        "positional",
        "office",
    )
    tables = ("caveat", "office")  # the caveat's labels and the office's people, recalled
    example_name = "mixed"
    knob_middle = 2  # the it/cat temperature at the dial's middle notch (T = 1)
    ends_on = "flow_map"  # its last picture, quiz's first (built at the module's end)

    def construct(self) -> None:
        self.title = self.make_title()
        self.add(self.title)  # the title at once: no frame is only a title being written
        self.caption = VGroup()
        words, arrows = self._idea()
        roles = self._roles(words, arrows)
        self._steps(roles)
        grid = self._learned()
        self._pitfalls()
        self._knob()
        self._map_use(grid)

    # --- helpers ------------------------------------------------------------------------
    def _name_point(self, key: str) -> list:
        """The point's name, small, at the right of the title band (the last one goes)."""
        name = style.text(self.words[f"point_{key}"], style.SMALL_SIZE, style.MUTED)
        name.to_edge(UP, buff=style.EDGE_BUFF).to_edge(RIGHT, buff=style.EDGE_BUFF)
        name.match_y(self.title)
        old, self.caption = self.caption, name
        return [FadeOut(old), FadeIn(name)] if len(old) else [FadeIn(name)]

    def _away(self, *keep: Mobject) -> list:
        """Everything on stage but the title, the point's name and ``keep`` fades."""
        kept = {id(m) for m in (self.title, self.caption, *keep)}
        return [FadeOut(m) for m in self.mobjects if id(m) not in kept]

    # --- 1. each position decides ---------------------------------------------------------
    def _idea(self) -> tuple[VGroup, VGroup]:
        """The short sentence, its query word's arrows growing to each word as it decides."""
        words, arrows = self.apple_choice()
        style.place(VGroup(arrows, words), grow=1.3)
        grow = [*(Create(a) for a in arrows.arrows), FadeIn(arrows.numbers)]
        self.say("idea", *self._name_point("idea"), FadeIn(words), beats={"choose": grow})
        return words, arrows

    # --- 2. three roles --------------------------------------------------------------------
    def _roles(self, words: VGroup, arrows: VGroup) -> VGroup:
        """The query word, carried from the sentence, with its q, k and v written out in the
        roles' colours, each named by what it says."""
        ex, i = self.data.eat_apple, self.data.eat_apple.query_index
        word = style.text(self.apple_words()[i], style.TITLE_SIZE)
        rows = VGroup()
        for role, colour in (("q", style.QUERY), ("k", style.KEY), ("v", style.VALUE)):
            vector = NumberVector(
                getattr(ex, role)[i],
                f"{EAT}.{role}[{i}]",
                self.apple_label(role, i),
                colour,
                size=style.LABEL_SIZE,
            )
            said = style.text(self.words[f"role_{role}"], style.LABEL_SIZE, colour)
            rows.add(VGroup(vector, said).arrange(RIGHT, buff=style.GROUP_BUFF))
        rows.arrange(DOWN, aligned_edge=LEFT, buff=style.SECTION_BUFF)
        rows.next_to(word, RIGHT, buff=style.WIDE_BUFF * 1.5)
        links = VGroup(
            *(
                Arrow(word.get_right(), r.get_left(), buff=style.ITEM_BUFF, color=style.MUTED)
                for r in rows
            )
        )
        style.place(VGroup(word, links, rows), grow=1.3)
        others = [w for k, w in enumerate(words) if k != i]
        self.say(
            "roles",
            *self._name_point("roles"),
            FadeOut(arrows),
            *map(FadeOut, others),
            ReplacementTransform(words[i], word),  # the query word travels to its roles
            then=[[LaggedStartMap(GrowArrow, links, lag_ratio=0.3)]],  # three roles, three arrows
            beats={
                role: [FadeIn(row, shift=RIGHT * style.ITEM_BUFF)]
                for role, row in zip("qkv", rows, strict=True)
            },
        )
        return rows

    # --- 3. score, softmax, weighted average ------------------------------------------------
    def _steps(self, roles: VGroup) -> None:
        """Three pictures in a row, each under its formula: q and k as arrows with k's shadow
        on q (their dot product, divided by √d), the weights as bars that add up to 1, and
        the V's shrunk by their weights and laid tip to tail."""
        ex, i = self.data.eat_apple, self.data.eat_apple.query_index
        n, target = ex.short, ex.target
        q, k, v = style.QUERY, style.KEY, style.VALUE
        words = self.apple_words()[:n]
        # (1) the dot product: 蘋果's q and the key of the word it gives the most
        line1 = MathTex(r"\mathrm{score} =", "q", r"\cdot", "k", r"/ \sqrt{d}", font_size=44)
        line1[1].set_color(q)
        line1[3].set_color(k)
        drawn = DotArrows(ex.q[i], ex.k[target], "q", f"k_{{{target + 1}}}", q, k, unit=DOT_UNIT)
        value = VGroup(
            MathTex(r"q \cdot k / \sqrt{d} =", font_size=36),  # then its two numbers, divided
            self.number(f"{EAT}.dots[{target}]", 2, style.LABEL_SIZE),
            MathTex(r"/", font_size=36),
            self.number(f"{EAT}.last_row.scale", 2, style.LABEL_SIZE),
            MathTex(r"=", font_size=36),
            self.number(f"{EAT}.last_row.scores[0][{target}]", 2, style.LABEL_SIZE),
        ).arrange(RIGHT, buff=style.ITEM_BUFF)
        key_word = style.text(words[target], style.LABEL_SIZE, k)
        key_word.next_to(drawn.names[1], RIGHT, buff=style.ITEM_BUFF)
        first = VGroup(line1, VGroup(drawn, key_word), value).arrange(DOWN, buff=style.GROUP_BUFF)
        # (2) softmax: the weights as bars, and their total
        line2 = MathTex(r"w = \mathrm{softmax}(\mathrm{score})", font_size=FORMULA_SIZE)
        bars = WeightBars(
            [style.text(t, style.LABEL_SIZE, k) for t in words],
            ex.last_row.weights[0],
            APPLE_ROW,
            length=2.4,
            bar_height=STEP_BAR,
        )
        for row in bars.rows:  # the weights as large as the words: read in the column too
            row[3].scale(style.LABEL_SIZE / style.SMALL_SIZE)
            row[3].next_to(row[1], RIGHT, buff=style.ITEM_BUFF)
        total = VGroup(
            MathTex(r"\textstyle\sum w =", font_size=36),
            self.number(Sum(APPLE_ROW), 2, style.LABEL_SIZE),
        ).arrange(RIGHT, buff=style.ITEM_BUFF)
        second = VGroup(line2, bars, total).arrange(DOWN, buff=style.GROUP_BUFF)
        # (3) the weighted average: the V's shrunk and added tip to tail
        line3 = MathTex(r"\mathrm{out} = \sum w\,", "v", font_size=FORMULA_SIZE)
        line3[1].set_color(v)
        across, up = self._plane_dims()
        span = [0, 1.5, 0.5]
        axes = style.muted_axes(span, span, PLANE_SIDE, PLANE_SIDE)
        names = self.dim_names(ex)
        axis_x = style.text(names[across], style.SMALL_SIZE, style.MUTED)
        axis_y = style.text(names[up], style.SMALL_SIZE, style.MUTED)
        axis_x.next_to(axes.x_axis, DOWN, buff=style.ITEM_BUFF)
        axis_y.next_to(axes.y_axis, LEFT, buff=style.ITEM_BUFF)
        plane = VGroup(axes, axis_x, axis_y)
        third = VGroup(line3, plane).arrange(DOWN, buff=style.GROUP_BUFF)
        column, first_done, second_done = self._step_column(first, second)
        style.place(first, grow=2.0)  # the first step alone on the whole stage
        for step in (second, third):  # each later one on the stage beside the column
            self._beside(step, column)
        tip = TipToTail(
            axes,
            ex.v[:n],
            ex.last_row.weights[0],
            APPLE_ROW,
            [self.apple_label("v", j) for j in range(n)],
            (across, up),
        )
        q_vector = roles[0][0]
        score, lead = value[5], bars.rows[target]
        others = VGroup(*(r for j, r in enumerate(bars.rows) if j != target))
        weight, v_arrow = lead[3], tip.get_arrow(target)
        tag = self.number(f"{EAT}.last_row.weights[0][{target}]", 2, style.SMALL_SIZE, v)
        carry: list[Animation] = []  # 吃's weight travels from its bar onto its v, then is used
        if v_arrow is not None:
            tag.next_to(v_arrow.get_end(), RIGHT, buff=style.HUG_BUFF)
            carry = [
                AnimationGroup(
                    TransformFromCopy(weight, tag, path_arc=-0.5),
                    outline(v_arrow),
                    lag_ratio=LANDS,
                    run_time=CARRY,
                )
            ]
        self.say(
            "steps",
            *self._name_point("steps"),
            *self._away(q_vector),
            Write(line1),
            run_time=STEP_TIME,
            then=[
                [
                    ReplacementTransform(q_vector, VGroup(drawn.a, drawn.names[0])),
                    GrowArrow(drawn.b),
                    FadeIn(drawn.names[1], key_word),
                ],
                [
                    Create(drawn.drop),
                    Create(drawn.shadow),
                    FadeIn(drawn.angle_group),
                    FadeIn(value),
                ],
            ],
            beats={
                "soft": [  # the first step steps aside; the score flies into its word's bar
                    InTurn(
                        AnimationGroup(Transform(first, first_done), Write(line2)),
                        AnimationGroup(
                            FadeIn(VGroup(lead[0], lead[1])),
                            TransformFromCopy(score, VGroup(lead[2], lead[3]), path_arc=-0.6),
                            run_time=CARRY,
                        ),
                        AnimationGroup(
                            outline(VGroup(lead[2], lead[3])),
                            LaggedStartMap(FadeIn, others, shift=RIGHT * style.ITEM_BUFF),
                            FadeIn(total),
                        ),
                    )
                ],
                "sum": [
                    InTurn(
                        AnimationGroup(
                            Transform(second, second_done),
                            Write(line3),
                            Create(plane),
                            tip.draw_vectors(),
                        ),
                        *carry,
                        AnimationGroup(
                            *(tip.scale_term(j) for j in range(n)),
                            *([FadeOut(tag, target_position=v_arrow)] if carry else []),
                        ),
                        tip.lay_tip_to_tail(),
                        tip.draw_sum(),
                    )
                ],
            },
        )

    @staticmethod
    def _step_column(first: VGroup, second: VGroup) -> tuple[VGroup, VGroup, VGroup]:
        """The column at the stage's left where the steps told wait, one under the other:
        the column, and the first and second step as they will stand in it."""
        done = VGroup(first.copy(), second.copy()).arrange(DOWN, buff=style.ITEM_BUFF)
        style.place(done, aligned=LEFT)
        return done, done[0], done[1]

    @staticmethod
    def _beside(step: VGroup, column: VGroup) -> None:
        """``step`` as large as fits on the stage right of ``column``, centred there."""
        _, bottom, right, top = style.content_area()
        room_left = column.get_right()[0] + style.WIDE_BUFF
        step.scale(min((right - room_left) / step.width, (top - bottom) / step.height))
        step.move_to([(room_left + right) / 2, (bottom + top) / 2, 0.0])

    def _plane_dims(self) -> tuple[int, int]:
        """weighted_sum's plane: across, what the neighbours add most; up, what 蘋果 means
        most."""
        ex, i = self.data.eat_apple, self.data.eat_apple.query_index
        change = ex.last_row.outputs[0]
        across, up = top_index(change), top_index(ex.x[i])
        if up == across:
            across = max((c for c in range(ex.d) if c != up), key=change.__getitem__)
        return across, up

    # --- 4. learned ----------------------------------------------------------------------
    def _learned(self) -> VGroup:
        """The colour task's learned map filling row by row, its same-colour cells framed and
        the first row's traced up to their markers; then that row's same-colour cells lifted
        out beside it as one bar in equal parts, and a row of a smaller colour in halves."""
        ex = self.data.example(self.example_name)
        grid = self.colour_map(
            ex.colours,
            ex.attention,
            f"examples.{self.example_name}.attention",
            style.CELL_SIZE,
        )
        blocks = grid.block_frames(ex.colours)
        learned = VGroup(grid, blocks)
        lifts = [self._lifted(grid, ex.colours, row) for row in self._lifted_rows(ex.colours)]
        style.place(VGroup(learned, *(bar for _, bar in lifts)), grow=1.3)
        cells = LaggedStartMap(FadeIn, VGroup(*(grid.get_row(r) for r in range(grid.n_rows))))
        own = [j for j, c in enumerate(ex.colours) if c == ex.colours[0]]
        red = style.task_colour(self.data.colour_names[ex.colours[0]]).fill
        traced = [  # each of the first row's own cells framed with its marker, in its colour
            SurroundingRectangle(
                VGroup(grid.col_headers[j], grid.get_cell(0, j)), buff=0, color=red
            ).set_stroke(width=LIT)
            for j in own
        ]
        equal = []
        for pieces, bar in lifts:  # each row's own-colour cells lifted out: one bar, equal parts
            equal.append(
                LaggedStart(
                    *(
                        TransformFromCopy(p, b, path_arc=-0.4)
                        for p, b in zip(pieces, bar, strict=True)
                    ),
                    lag_ratio=0.2,
                    run_time=CARRY,
                )
            )
            equal.append(outline(*bar[1:]))
        self.say(
            "learned",
            *self._name_point("learned"),
            *self._away(),
            FadeIn(VGroup(grid.row_headers, grid.col_headers)),
            then=[[cells]],  # the map grows as soon as it is named
            beats={
                "own": [  # the same-colour cells; the first row's, up to their markers, and
                    # lifted out of them
                    InTurn(
                        Create(blocks),
                        outline(grid.row_headers[0]),
                        LaggedStart(*map(Create, traced), lag_ratio=TURN_LAG),
                        equal[0],
                    )
                ],
                "equal": [InTurn(*equal[1:])],
            },
        )
        return learned

    @staticmethod
    def _lifted_rows(colours: list[int]) -> list[int]:
        """The rows lifted out: the first, and the first whose colour has another count of
        positions (its equal parts another size)."""
        count = [colours.count(c) for c in colours]
        other = next((r for r in range(len(colours)) if count[r] != count[0]), None)
        return [0] if other is None else [0, other]

    @staticmethod
    def _lifted(grid: AttentionGrid, colours: list[int], row: int) -> tuple[list[VGroup], VGroup]:
        """Row ``row``'s marker and its cells on its own colour (each with its number), and
        where they go: laid edge to edge right of the map as one bar of a fixed length (the
        whole row's weight, 1), each part as long as its weight, twice a cell's height, the
        marker at its left."""
        own = [j for j, c in enumerate(colours) if c == colours[row]]
        pieces = [VGroup(grid.get_cell(row, j), grid.get_number(row, j)) for j in own]
        whole = LIFT * grid.get_cell(0, 0).width * 3  # the length a weight of 1 takes
        bar = VGroup()
        for j, (cell, number) in zip(own, pieces, strict=True):
            part = cell.copy().stretch_to_fit_width(whole * grid.weights[row][j])
            part.stretch_to_fit_height(cell.height * LIFT_TALL)
            bar.add(VGroup(part, number.copy().scale(LIFT_TALL * 0.7).move_to(part)))
        bar.arrange(RIGHT, buff=0).next_to(grid, RIGHT, buff=style.WIDE_BUFF)
        bar.align_to(grid.get_cell(0, 0), UP)  # at its row's height, under the bars above
        bar.shift(DOWN * (row * grid.get_cell(0, 0).height + row * style.ITEM_BUFF))
        marker = grid.row_headers[row]  # whose row it is, carried out with it
        bar.submobjects.insert(0, marker.copy().next_to(bar, LEFT, buff=style.ITEM_BUFF))
        return [marker, *pieces], bar

    # --- 5. three pitfalls, each on the stage in turn, its fix a motion ---------------------
    def _pitfalls(self) -> None:
        """One pitfall at a time on the whole stage: the picture without the fix at the left,
        and a copy of it carried through the fix (an arrow named by it) into the picture
        with it at the right; the shuffled sentence under the sentence in order, then both
        recoloured once positions are added."""
        maps, bars, order = self._projection_maps(), self._sqrt_d_bars(), self._shuffled()
        for picture in (maps, bars):  # each pitfall alone first, centred; then moved aside
            style.place(picture, grow=1.4)
            before = picture.pair[0]
            picture.home = before.get_center()
            before.move_to(picture)
        plain, unscaled = maps.pair[0], bars.pair[0]
        grid, moved = plain.grid, maps.home - plain.get_center()
        # its own cells where they will stand then (a frame is drawn where its part is now)
        diagonal = [
            SurroundingRectangle(grid.get_cell(r, r), buff=0, color=style.HIGHLIGHT)
            .set_stroke(width=LIT)
            .shift(moved)
            for r in range(grid.n_rows)
        ]
        random = InTurn(self._aside(maps), self._carry(maps, "grid", "share"))
        maps.shown = (*maps.shown, *diagonal)  # the lit cells leave with their map
        self.say(
            "pitfalls",
            *self._name_point("pitfalls"),
            *self._away(),  # the map and its lifted bar
            FadeIn(plain),
            run_time=PITFALL_TIME,
            beats={
                "random": [random],
                "self": [  # it looks almost only at itself: each own cell lit in turn
                    AnimationGroup(
                        LaggedStart(*map(Create, diagonal), lag_ratio=TURN_LAG),
                        outline(plain.share),
                    )
                ],
                "saturate": [
                    InTurn(
                        AnimationGroup(self._leave(maps), FadeIn(unscaled, shift=LEFT)),
                        self._aside(bars),
                    )
                ],
                "drain": [self._carry(bars, "bars")],
                "order": [
                    InTurn(
                        AnimationGroup(self._leave(bars), FadeIn(order.first, shift=LEFT)),
                        order.shuffle,
                        order.lift,
                    )
                ],
                "pe": [InTurn(Write(order.fix), order.add_pe)],
                "differ": [
                    InTurn(order.into, order.recolour, outline(order.pair[0], order.pair[2]))
                ],
            },
        )

    @staticmethod
    def _leave(pair: VGroup) -> Animation:
        """A pitfall done: what of it is on the stage slides out to the left (each part as it
        was added, so that no part is left behind or brought back)."""
        return AnimationGroup(*(FadeOut(m, shift=LEFT * style.WIDE_BUFF) for m in pair.shown))

    @staticmethod
    def _aside(pair: VGroup) -> Animation:
        """The picture without the fix moves aside as the arrow named by the fix grows."""
        arrow, name = pair.fix
        return AnimationGroup(
            ApplyMethod(pair.pair[0].move_to, pair.home), GrowArrow(arrow), FadeIn(name)
        )

    @staticmethod
    def _carry(pair: VGroup, *parts: str) -> Animation:
        """The fix as a motion: a copy of each named part of the picture without it travels
        along the arrow and slowly becomes that part with the fix; the rest comes after."""
        before, after = pair.pair
        moved = [getattr(after, part) for part in parts]
        rest = VGroup(*(m for m in after if all(m is not x for x in moved)))
        pair.shown = (before, *pair.fix, *moved, rest)
        return InTurn(
            AnimationGroup(
                *(
                    TransformFromCopy(getattr(before, part), getattr(after, part), path_arc=-0.5)
                    for part in parts
                ),
                run_time=CARRY,
            ),
            FadeIn(rest, run_time=0.5),
        )

    @staticmethod
    def _fix_pair(before: VGroup, fix: str, after: VGroup) -> VGroup:
        """The picture without the fix, an arrow named by the fix, the picture with it."""
        name = MathTex(fix, font_size=FORMULA_SIZE, color=style.WITH)
        arrow = Arrow(LEFT, RIGHT, buff=0, color=style.WITH)
        fix_group = VGroup(arrow, name)
        VGroup(before, arrow, after).arrange(RIGHT, buff=style.GROUP_BUFF, aligned_edge=UP)
        arrow.match_y(before[1])  # the arrow at the height of the picture it carries
        name.next_to(arrow, UP, buff=style.ITEM_BUFF)
        group = VGroup(before, fix_group, after)
        group.pair, group.fix = (before, after), fix_group
        return group

    def _projection_maps(self) -> VGroup:
        """One draw's map without projections (a bright diagonal) and, through W_Q and W_K,
        the map with them, each with the mean share a word gives itself over every draw; the
        even share beside the second."""
        ex = self.data.projection.example
        pair = []
        for key, matrix, colour in (
            ("plain", ex.plain, style.WITHOUT),
            ("projected", ex.projected, style.WITH),
        ):
            grid = AttentionGrid(
                matrix, f"{PROJ}.example.{key}", cell_size=MAP_CELL, show_numbers=False
            )
            name = style.text(self.words[f"{key}_label"], style.LABEL_SIZE, colour)
            share = phrase(
                self.words["self_share"],
                style.LABEL_SIZE,
                w=self.number(f"{PROJ}.{key}.mean", 3 if key == "projected" else 2),
                n=self.number(f"{PROJ}.draws", 0),
            )
            column = VGroup(name, grid, share)
            if key == "projected":
                column.add(
                    phrase(
                        self.words["uniform_label"],
                        style.LABEL_SIZE,
                        style.MUTED,
                        n=self.number(f"{PROJ}.positions", 0),
                        w=self.number(f"{PROJ}.uniform_share", 3),
                    )
                )
            column.arrange(DOWN, buff=style.ITEM_BUFF)
            column.grid, column.share = grid, share
            pair.append(column)
        return self._fix_pair(pair[0], r"W_Q,\ W_K", pair[1])

    def _sqrt_d_bars(self) -> VGroup:
        """At the largest d, one draw's weights without the division (one bar takes nearly
        all) and, through ÷ √d, the same draw's weights divided."""
        last = len(self.data.sqrt_d.dims) - 1
        row = self.data.sqrt_d.dims[last]
        pair = []
        for key, weights in (("unscaled", row.example_unscaled), ("scaled", row.example_scaled)):
            shown = WeightBars(
                [ShownNumber(j + 1, 0, Ordinal(), color=style.MUTED) for j in range(len(weights))],
                weights,
                f"{SQRT_D}.dims[{last}].example_{key}",
                length=2.4,
                bar_height=SMALL_CELL,
            )
            name = phrase(
                self.words[f"{key}_label"],
                style.LABEL_SIZE,
                style.WITHOUT if key == "unscaled" else style.WITH,
                d=self.number(f"{SQRT_D}.dims[{last}].d", 0),
            )
            column = VGroup(name, shown).arrange(DOWN, buff=style.ITEM_BUFF)
            column.bars = shown
            pair.append(column)
        return self._fix_pair(pair[0], r"\div \sqrt{d}", pair[1])

    def _strips(self, out: list, source: str, order: list[int], *alike: list) -> list[VGroup]:
        """One output strip per word (the words in ``order``, row p of ``out`` for the p-th),
        each beside its word, coloured over the range of ``out`` and the outputs ``alike``
        (those it is compared with)."""
        s = self.data.shuffle
        values = [v for m in (out, *alike) for r in m for v in r]
        strips = AttentionGrid(
            out,
            source,
            row_headers=[style.text(s.tokens[t], style.LABEL_SIZE) for t in order],
            cell_size=STRIP_CELL,
            show_numbers=False,
            value_range=(min(0.0, *values), max(values)),
        )
        rows = [VGroup(strips.row_headers[p], strips.get_row(p)) for p in range(strips.n_rows)]
        for row in rows:  # each strip twice as tall as a cell is wide: read from the back row
            row[1].stretch(STRIP_TALL, 1)
        return rows

    def _shuffled(self) -> VGroup:
        """The sentence's words in order, each with its attention output as a strip; a copy
        shuffled under it, every strip travelling with its word (the same outputs, in the new
        order); then + PE, and both rows' strips become the outputs with positions, which no
        longer just follow the words."""
        s = self.data.shuffle
        n, perm = len(s.tokens), list(s.permutation)
        without, with_ = f"{SHUF}.without_positions", f"{SHUF}.with_positions"
        out, shuffled = s.without_positions.out, s.without_positions.out_of_shuffled
        first = self._strips(out, f"{without}.out", list(range(n)), shuffled)
        line = VGroup(*first).arrange(RIGHT, buff=style.GROUP_BUFF)
        fix = MathTex(r"X + PE", font_size=FORMULA_SIZE, color=style.WITH)
        spacer = VGroup(*(r.copy() for r in first)).arrange(RIGHT, buff=style.GROUP_BUFF)
        spacer.next_to(line, DOWN, buff=style.SECTION_BUFF * 2)
        fix.move_to(VGroup(line, spacer))  # between the rows: what tells them apart
        ex = self.data.eat_apple
        apple = s.tokens.index(ex.tokens[ex.query_index])  # 蘋果, the walkthrough's query word
        same = MathTex("=", font_size=FORMULA_SIZE)
        pair = VGroup(first[apple].copy(), same, first[apple].copy())
        pair.arrange(RIGHT, buff=style.GROUP_BUFF).next_to(spacer, DOWN, buff=style.SECTION_BUFF)
        group = VGroup(line, spacer, fix, pair)
        style.place(group, grow=1.4)  # placed before the moves below are worked out
        second = [row.copy().shift(spacer.get_center() - line.get_center()) for row in first]
        # shuffled position p holds the word that stood at permutation[p]: its place in the
        # shuffled line (the words differ in width, so the line is laid out anew)
        after = VGroup(*(second[t].copy() for t in perm)).arrange(RIGHT, buff=style.GROUP_BUFF)
        slots = [r.get_center() for r in after.move_to(VGroup(*second))]
        # the shuffled row as measured: the outputs of the shuffled input, at those places
        measured = self._strips(shuffled, f"{without}.out_of_shuffled", perm, out)
        for p, t in enumerate(perm):
            measured[p].scale(first[t][1].width / measured[p][1].width).move_to(slots[p])
        spot = perm.index(apple)  # where 蘋果 stands in the shuffled line
        lifted = measured[spot].copy()  # what lifts out of it is the measured strip too
        lifted.scale(pair[2].width / lifted.width).move_to(pair[2]).match_y(pair[0])
        pair.submobjects[2] = lifted
        top, low = s.with_positions.out, s.with_positions.out_of_shuffled
        later_top = self._strips(top, f"{with_}.out", list(range(n)), low)
        later_low = self._strips(low, f"{with_}.out_of_shuffled", perm, top)
        for p in range(n):  # each later strip over the strip it recolours
            for row, strip in ((later_top[p], first[p][1]), (later_low[p], measured[p][1])):
                at = strip.get_center()
                row.scale(strip.width / row[1].width)
                row.shift(at - row[1].get_center())
        # the positions' rows, under both lines in place order: the words moved, they did not
        pe_rows = self._pe_rows([r[1] for r in first]) + self._pe_rows([r[1] for r in measured])
        heads = [r[0] for r in first] + [r[0] for r in measured]  # the word each goes into
        # the positions come in under the words and stand there until the next words, then
        # each travels into its word: the input now carries its place
        add_pe = LaggedStart(
            *(FadeIn(r, shift=UP * style.ITEM_BUFF) for r in pe_rows), lag_ratio=0.05
        )
        into = AnimationGroup(
            *(FadeOut(r, target_position=h, scale=0.3) for r, h in zip(pe_rows, heads, strict=True))
        )
        # the outline frames 蘋果's measured strip where it lands; then the measured strips
        # stand under the words they drop from, to travel with them
        landed = measured[spot].copy()
        for p, t in enumerate(perm):
            measured[p].move_to(second[t])
        shuffle = InTurn(
            LaggedStart(  # word by word, in the sentence's order
                *(TransformFromCopy(first[t], measured[perm.index(t)]) for t in range(n))
            ),
            AnimationGroup(  # each word's measured output travels to the word's new place
                *(ApplyMethod(measured[p].move_to, slots[p]) for p in range(n)),
                lag_ratio=0.1,
            ),
        )
        recolour = AnimationGroup(
            *(Transform(first[p][1], later_top[p][1]) for p in range(n)),
            *(Transform(measured[p][1], later_low[p][1]) for p in range(n)),
            lag_ratio=0.05,
        )
        # 蘋果's strip in both orders lifted out side by side: the same, until positions
        lift = InTurn(
            outline(first[apple], landed),
            AnimationGroup(
                TransformFromCopy(first[apple], pair[0], path_arc=-0.5),
                TransformFromCopy(measured[spot], pair[2], path_arc=0.5),
                FadeIn(same),
                run_time=CARRY,
            ),
        )
        differ = MathTex(r"\neq", font_size=FORMULA_SIZE, color=style.WITH).move_to(same)
        recolour = AnimationGroup(
            recolour,
            Transform(pair[0][1], later_top[apple][1].copy().move_to(pair[0][1])),
            Transform(pair[2][1], later_low[spot][1].copy().move_to(pair[2][1])),
            ReplacementTransform(same, differ),
        )
        shown = VGroup(line, *measured, fix, pair)
        shown.first, shown.fix, shown.shuffle, shown.recolour = line, fix, shuffle, recolour
        shown.lift, shown.add_pe, shown.into, shown.pair = lift, add_pe, into, pair
        return shown

    def _pe_rows(self, strips: list[VMobject]) -> list[VGroup]:
        """The positional table's rows, row p under the p-th of ``strips`` (as wide, one cell
        tall), each framed in the fix's colour."""
        table = self.data.positional.table
        grid = AttentionGrid(
            table, "positional.table", cell_size=STRIP_CELL, show_numbers=False, value_range=(-1, 1)
        )
        rows = []
        for p, strip in enumerate(strips):
            row = grid.get_row(p).copy()
            row.scale(strip.width / row.width).next_to(strip, DOWN, buff=style.HUG_BUFF)
            frame = SurroundingRectangle(row, buff=0, color=style.WITH, stroke_width=2)
            rows.append(VGroup(row, frame))
        return rows

    # --- 6. one knob ----------------------------------------------------------------------
    def _knob_stops(self) -> list[tuple[int, int, int, tuple[bool, bool]]]:
        """The dial's notches, from the smallest scale to the largest: each a factor on the
        scores (the factors the d = 512 draw was measured at, each twice the one before, so
        the dial's equal steps are equal ratios; 1 where it starts), and at it the
        office stop whose arrow is that many times as long, the temperature that many times
        as low, the d = 512 draw's stop, and whether the office and the temperatures have that
        stop (where one has not, it stays at its nearest, dimmed)."""
        office, c = self.data.office, self.data.it_cat
        rescaled = self.data.sqrt_d.rescaled
        t_mid = c.temperatures[self.knob_middle].t
        lengths = sorted(range(len(office.grow)), key=lambda g: office.grow[g].length)
        l_mid = office.grow[lengths[1]].length  # the office's arrow at the middle notch: 1.0
        factors = sorted(stop.factor for stop in rescaled)
        stops = []
        for f in factors:
            near = min(
                range(len(office.grow)), key=lambda g: abs(office.grow[g].length - l_mid * f)
            )
            temp = min(
                range(len(c.temperatures)), key=lambda t: abs(c.temperatures[t].t - t_mid / f)
            )
            which = next(k for k, stop in enumerate(rescaled) if stop.factor == f)
            held = (
                bool(np.isclose(office.grow[near].length, l_mid * f)),
                bool(np.isclose(c.temperatures[temp].t, t_mid / f)),
            )
            stops.append((near, temp, which, held))
        return stops

    def _knob(self) -> None:
        """One knob above three pictures it sets: the office's weights at an arrow length,
        it -> every word at a temperature, and one draw at d = 512 divided by √d and then
        scaled; each notch scales the scores of all three by one factor. Turned up a notch
        at a time, every picture sharpens; back down to the smallest, every picture flattens."""
        stops = self._knob_stops()
        middle = [self.data.sqrt_d.rescaled[s[2]].factor for s in stops].index(1)
        knob = Knob(len(stops), self.words["knob_name"], radius=KNOB_RADIUS, at=middle)
        panels = [self._panels(*stop) for stop in stops]
        shown = panels[middle]
        row = VGroup(*shown).arrange(RIGHT, buff=style.WIDE_BUFF, aligned_edge=UP)
        self._under(knob, row)
        for stop in panels:
            for panel, target in zip(shown, stop, strict=True):
                target.scale(panel.bars.width / target.bars.width).move_to(panel, aligned_edge=UP)
        shown = VGroup(*(p.copy() for p in shown))  # on the stage: the middle stop stays a target

        wires = self._wires(knob, shown)

        def leg(notch: int, lit: int | None = None) -> Animation:
            """The dial turned to ``notch`` while every picture becomes its stop there (with
            ``lit``, that picture in focus and the other two dimmed)."""
            stops = [
                b if lit is None or j == lit else b.copy().set_opacity(DIMMED)
                for j, b in enumerate(panels[notch])
            ]
            return AnimationGroup(
                knob.turn(notch),
                *(Transform(a, b) for a, b in zip(shown, stops, strict=True)),
                run_time=KNOB_LEG,
            )

        def turn(*notches: int) -> list:
            return [InTurn(*(leg(n) for n in notches))]

        self.say(
            "knob",
            *self._name_point("knob"),
            *self._away(),
            FadeIn(knob),
            LaggedStart(*(FadeIn(p) for p in shown), lag_ratio=0.3),
            run_time=KNOB_WIRES,
            beats={
                "arrow": [  # a wire lands as the dial nudges a notch up and back: one picture lit
                    InTurn(
                        *(
                            step
                            for k, w in enumerate(wires)
                            for step in (
                                AnimationGroup(Create(w), leg(middle + 1, k)),
                                leg(middle, k),
                            )
                        )
                    )
                ],
                "same": [  # all three flash back into the one dial, and light up together
                    AnimationGroup(
                        *(
                            ShowPassingFlash(
                                w.copy().reverse_points().set_stroke(width=8), time_width=0.6
                            )
                            for w in wires
                        ),
                        outline(knob.name),
                        *(Transform(a, b) for a, b in zip(shown, panels[middle], strict=True)),
                    )
                ],
            },
        )
        c = self.data.it_cat
        top = len(stops) - 1
        cat_bar = panels[top][1].bars.rows[c.referent]
        self.say(
            "knob_turn",
            InTurn(  # up a notch at a time to the largest, cat's bar outlined as it lands
                *(leg(n) for n in range(middle + 1, top)),
                AnimationGroup(leg(top), outline(VGroup(cat_bar[2], cat_bar[3])), lag_ratio=LANDS),
            ),
            run_time=KNOB_TURN,
            beats={"small": turn(*range(middle, -1, -1))},  # back through the middle, down
        )
        self.knob_shown = VGroup(knob, wires, *shown)  # each now at the smallest stop

    @staticmethod
    def _under(knob: Knob, row: VGroup) -> None:
        """The dial at the top of the stage, the pictures' row under it as large as the rest
        of the stage allows."""
        left, bottom, right, top = style.content_area()
        knob.move_to([(left + right) / 2, top - knob.height / 2, 0.0])
        room = knob.get_bottom()[1] - style.SECTION_BUFF - bottom
        row.scale(min((right - left) / row.width, room / row.height))
        row.next_to(knob, DOWN, buff=style.SECTION_BUFF)

    @staticmethod
    def _wires(knob: Knob, panels: VGroup) -> VGroup:
        """A wire from the dial to each picture: out of the dial's foot, down to a line
        between the dial and the pictures, along it and down into the picture's top."""
        start = knob.name.get_bottom() + DOWN * style.HUG_BUFF
        level = (start[1] + max(p.get_top()[1] for p in panels)) / 2
        wires = VGroup()
        for panel in panels:
            top = panel.get_top() + UP * style.HUG_BUFF
            corners = [start, [start[0], level, 0], [top[0], level, 0], top]
            wire = VMobject().set_points_as_corners([np.array(c, dtype=float) for c in corners])
            wires.add(wire.set_stroke(style.HIGHLIGHT, width=3, opacity=0.7))
        return wires

    def _panels(
        self, office_stop: int, temperature: int, rescaled: int, held: tuple[bool, bool]
    ) -> VGroup:
        """The three pictures at one notch of the knob, each named with its setting; the
        office's and the temperature's dimmed where they have no stop at this notch (``held``,
        one flag each)."""
        office, c = self.data.office, self.data.it_cat
        people = self.shared("office")
        arrow = WeightBars(
            [style.text(people[p], style.SMALL_SIZE) for p in office.people],
            office.grow[office_stop].weights,
            f"office.grow[{office_stop}].weights",
            length=2.0,
            bar_height=KNOB_BAR,
        )
        arrow_name = phrase(
            self.words["arrow_value"],
            style.LABEL_SIZE,
            l=self.number(f"office.grow[{office_stop}].length", 1),
        )
        it = c.query_index
        temp = WeightBars(
            [style.text(t, style.SMALL_SIZE, style.KEY) for t in c.tokens],
            c.temperatures[temperature].weights[it],
            f"{IT}.temperatures[{temperature}].weights[{it}]",
            length=2.0,
            bar_height=KNOB_BAR,
        )
        temp_name = phrase(
            self.words["knob_t_value"],
            style.LABEL_SIZE,
            t=self.number(f"{IT}.temperatures[{temperature}].t", 2),
        )
        last = len(self.data.sqrt_d.dims) - 1
        stop = self.data.sqrt_d.rescaled[rescaled]  # ÷ √d, × the knob's factor
        weights, source = stop.weights, f"{SQRT_D}.rescaled[{rescaled}].weights"
        # what the raw scores are divided by at this notch (√d ÷ the factor), to three
        # significant digits: √d itself turns with the knob
        digits = max(0, 2 - math.floor(math.log10(stop.divisor)))
        root_name = phrase(
            self.words["rescaled_label"],
            style.LABEL_SIZE,
            d=self.number(f"{SQRT_D}.dims[{last}].d", 0),
            divisor=self.number(f"{SQRT_D}.rescaled[{rescaled}].divisor", digits),
        )
        root = WeightBars(
            [ShownNumber(j + 1, 0, Ordinal(), color=style.MUTED) for j in range(len(weights))],
            weights,
            source,
            length=2.0,
            bar_height=KNOB_BAR,
        )
        panels = VGroup()
        for name, bars in ((arrow_name, arrow), (temp_name, temp), (root_name, root)):
            panel = VGroup(name, bars).arrange(DOWN, buff=style.ITEM_BUFF)
            panel.bars = bars
            panels.add(panel)
        for panel, kept in zip(panels, held, strict=False):  # no stop here: dimmed
            if not kept:
                panel.set_opacity(DIMMED)
        return panels

    # --- 7. a map of flow ------------------------------------------------------------------
    def _map_use(self, learned: VGroup) -> None:
        """The learned map of point 4 brought back and moved left into the seam's place; its
        positions' markers travel out to a column beside it, and row by row what each
        position reads is drawn as arcs into its marker, each as thick as the weight; then
        the model's reason, named beside the map and crossed there, as the point's name goes:
        the frame is the seam :func:`flow_map`, quiz's first."""
        seen = flow_map(self)
        target, strip, arcs, flow = seen.learned, seen.strip, seen.arcs, seen.flow
        grid = target[0]
        travel = [TransformFromCopy(h, m) for h, m in zip(grid.row_headers, strip, strict=True)]
        # the row the learned point split in halves first, slowly and at full strength;
        # then every other row in turn, fainter: one focal point at a time
        later = [r for r in range(grid.n_rows) if r != seen.first]

        def flows(r: int) -> Animation:  # its cells outlined while what it reads flows in
            return AnimationGroup(outline(grid.get_row(r)), *(Create(a) for a in arcs[r]))

        featured = AnimationGroup(flows(seen.first), run_time=FLOW_FIRST)
        rest = LaggedStart(*map(flows, later), lag_ratio=FLOW_LAG, run_time=FLOW_TIME)
        self.say(
            "map",
            *self._name_point("map"),
            InTurn(
                FadeOut(self.knob_shown, run_time=0.5),
                FadeIn(learned, run_time=0.5),  # where point 4 left it
                Transform(learned, target),
                AnimationGroup(*travel, FadeIn(flow, shift=LEFT * style.ITEM_BUFF)),
                featured,
                rest,
            ),
            run_time=MAP_TIME,
            beats={
                "not": [
                    InTurn(FadeIn(seen.reason, shift=UP * style.ITEM_BUFF), Create(seen.cross)),
                    FadeOut(self.caption),  # the crossed label says what the point's name said
                ]
            },
        )


def _faint(arcs: VGroup) -> None:
    """A row's flows drawn fainter (strokes and arrow tips; a ring stays unfilled)."""
    arcs.set_stroke(opacity=FLOW_FAINT)
    for arc in arcs:
        if isinstance(arc, ArcBetweenPoints):
            arc.get_tip().set_fill(opacity=FLOW_FAINT)


def _flows(scene: LectureScene, grid: AttentionGrid, strip: VGroup, colours) -> list[VGroup]:
    """For each row, what it reads as arcs right of the markers' column: from the marker
    of each position it gives at least :data:`FLOW_MIN` into its own, in the colour of the
    position it comes from and as thick as the weight (down-going arcs bend further than
    up-going ones, so a pair's two flows are two strokes), and a ring round its own."""
    rows = []
    for row, weights in enumerate(grid.weights):
        into, arcs = strip[row].get_right() + RIGHT * style.HUG_BUFF, VGroup()
        for j, w in enumerate(weights):
            if w is None or w < FLOW_MIN:
                continue
            colour = style.task_colour(scene.data.colour_names[colours[j]]).fill
            if j == row:
                ring = Circle(radius=strip[j].width * 0.75).move_to(strip[j])
                arcs.add(ring.set_stroke(colour, FLOW_WIDTH * w))
                continue
            start = strip[j].get_right() + RIGHT * style.HUG_BUFF
            down = start[1] > into[1]
            # both bend to the right, drawn out sideways so that they spread over the
            # stage beside the markers (the tip added after, so it keeps its shape)
            arc = ArcBetweenPoints(start, into, angle=-FLOW_DOWN if down else FLOW_UP)
            arc.stretch(FLOW_SPREAD, 0, about_point=start)
            arc.set_stroke(colour, FLOW_WIDTH * w).add_tip(tip_length=FLOW_TIP)
            arc.get_tip().set_fill(colour, 1).set_stroke(colour, 0)
            arcs.add(arc)
        rows.append(arcs)
    return rows


@seam_builder
def flow_map(scene: LectureScene) -> VGroup:
    """summary's last picture, quiz's first: the colour task's learned map (markers,
    numbers, same-colour frames) at the left; its positions' markers in a column beside it
    with what each row reads drawn as arcs into them (the row point 4 lifted out in halves
    at full strength, the others faint); right of them the caveat's 資訊流動的地圖 and, under
    it, 模型的理由 crossed. ``.learned``, ``.strip``, ``.arcs`` (one group a row),
    ``.flow``, ``.reason``, ``.cross`` name the parts, ``.first`` the full-strength row."""
    name = getattr(scene, "example_name", Summary.example_name)
    ex, words = scene.data.example(name), scene.shared("caveat")
    grid = scene.colour_map(ex.colours, ex.attention, f"examples.{name}.attention", style.CELL_SIZE)
    learned = VGroup(grid, grid.block_frames(ex.colours))
    strip = VGroup(*(m.copy() for m in grid.row_headers))  # each at its row's height
    strip.set_x(grid.get_right()[0] + style.GROUP_BUFF + strip.width / 2)
    arcs = _flows(scene, grid, strip, ex.colours)
    first = Summary._lifted_rows(ex.colours)[-1]
    for r, row in enumerate(arcs):
        if r != first:
            _faint(row)
    flow = style.text(words["flow_label"], style.BODY_SIZE)
    reason = style.text(words["reason_label"], style.BODY_SIZE, style.MUTED)
    said = VGroup(flow, reason).arrange(DOWN, aligned_edge=LEFT, buff=style.SECTION_BUFF)
    said.next_to(VGroup(strip, *arcs), RIGHT, buff=style.WIDE_BUFF)
    style.place(VGroup(learned, strip, *arcs, said), grow=1.4)
    cross = Cross(reason, stroke_color=style.HIGHLIGHT, stroke_width=5)
    picture = VGroup(learned, strip, *arcs, flow, reason, cross)
    picture.learned, picture.strip, picture.arcs, picture.first = learned, strip, arcs, first
    picture.flow, picture.reason, picture.cross = flow, reason, cross
    return picture
