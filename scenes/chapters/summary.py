"""Summary (seed 000): the lecture's points, each answered by its own picture on the whole
stage, and the one knob that the office arrow's length, the temperature T and √d all turn:
the scale of the scores, turned in three pictures at once.

Render alone with ``manim -ql scenes/chapters/summary.py Summary``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    Arrow,
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
    Succession,
    VGroup,
    Write,
)

from scenes.kit import style
from scenes.kit.base import APPLE_ROW, LectureScene, top_index
from scenes.kit.devices import DotArrows, Knob
from scenes.kit.emphasis import outline
from scenes.kit.maps import AttentionGrid
from scenes.kit.numbers import Ordinal, ShownNumber, Sum, phrase
from scenes.kit.sums import TipToTail
from scenes.kit.vectors import NumberVector, WeightBars

IT = "tokens.it_cat"
EAT = "tokens.eat_apple"
SQRT_D = "pitfalls.sqrt_d"
PROJ = "pitfalls.projection"
SHUF = "pitfalls.shuffle"
SMALL_CELL = 0.3  # a cell (and a bar) of the pitfalls' small pictures
KNOB_BAR = 0.24  # a bar of the knob's three pictures
PLANE_SIDE = 3.4  # the weighted sum's plane
DOT_UNIT = 1.1  # scene units per unit of q and k's length
STEP_BAR = 0.45  # a bar of softmax's weights
STRIP_CELL = 0.4  # a cell of an output strip under the shuffled words
FORMULA_SIZE = 44


class Summary(LectureScene):
    """Seven points, each on the whole stage with its name in the title band: the query
    word's arrows; its q, k and v; the dot product, softmax's bars and the weighted sum tip
    to tail, each beside its formula; the learned map; each pitfall beside its fix; one knob
    turning the office, it -> cat and d = 512 at once; and the learned map carried back as a
    map of flow, not a reason.

    Variants override :attr:`example_name` (the learned map recalled) and
    :attr:`knob_stops` (the it/cat temperature indices at the middle, large and small scale).
    """

    scene_key = "summary"
    reads = (
        "tokens.it_cat",
        "tokens.eat_apple",
        "examples.{example_name}",
        "pitfalls.projection",
        "pitfalls.sqrt_d",
        "pitfalls.shuffle",
        "office",
    )
    tables = ("caveat", "office")  # the caveat's labels and the office's people, recalled
    example_name = "mixed"
    knob_stops = (2, 0, 5)  # it/cat temperatures: T = 1, then the sharpest, then the flattest

    def construct(self) -> None:
        self.title = self.make_title()
        self.add(self.title)  # the title at once: no frame is only a title being written
        self.caption = VGroup()
        words, arrows = self._idea()
        roles = self._roles(words, arrows)
        self._steps(roles)
        grid = self._learned()
        self._pitfalls(grid)
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
            beats={
                role: [GrowArrow(link), FadeIn(row, shift=RIGHT * style.ITEM_BUFF)]
                for role, link, row in zip("qkv", links, rows, strict=True)
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
        picture = VGroup(first, second, third).arrange(RIGHT, buff=style.WIDE_BUFF, aligned_edge=UP)
        style.place(picture, grow=1.5)
        tip = TipToTail(
            axes,
            ex.v[:n],
            ex.last_row.weights[0],
            APPLE_ROW,
            [self.apple_label("v", j) for j in range(n)],
            (across, up),
        )
        q_vector = roles[0][0]
        self.say(
            "steps",
            *self._name_point("steps"),
            *self._away(q_vector),
            Write(line1),
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
                "soft": [
                    Write(line2),
                    LaggedStartMap(FadeIn, bars.rows, shift=RIGHT * style.ITEM_BUFF),
                    FadeIn(total),
                ],
                "sum": [
                    Succession(
                        AnimationGroup(Write(line3), Create(plane), tip.draw_vectors()),
                        AnimationGroup(*(tip.scale_term(j) for j in range(n))),
                        tip.lay_tip_to_tail(),
                        tip.draw_sum(),
                    )
                ],
            },
        )

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
        """The colour task's learned map, row by row, then its same-colour blocks framed."""
        ex = self.data.example(self.example_name)
        grid = self.colour_map(
            ex.colours,
            ex.attention,
            f"examples.{self.example_name}.attention",
            style.CELL_SIZE,
        )
        blocks = grid.block_frames(ex.colours)
        learned = VGroup(grid, blocks)
        style.place(learned)
        cells = LaggedStartMap(FadeIn, VGroup(*(grid.get_row(r) for r in range(grid.n_rows))))
        self.say(
            "learned",
            *self._name_point("learned"),
            *self._away(),
            FadeIn(VGroup(grid.row_headers, grid.col_headers)),
            beats={"own": [cells], "equal": [Create(blocks)]},
        )
        return learned

    # --- 5. three pitfalls, each beside its fix ----------------------------------------------
    def _pitfalls(self, learned: VGroup) -> None:
        maps = self._projection_maps()
        bars = self._sqrt_d_bars()
        order, pe = self._shuffled()
        top = VGroup(maps, bars).arrange(RIGHT, buff=style.WIDE_BUFF * 1.5, aligned_edge=UP)
        picture = VGroup(top, order.layout).arrange(DOWN, buff=style.SECTION_BUFF)
        style.place(picture)
        plain, projected = maps.pair
        rows, slots = order.rows, [r.get_center() for r in order.rows]
        # shuffled position p holds the word that stood at permutation[p]: each word's
        # output strip travels with it
        swap = AnimationGroup(
            *(
                rows[src].animate.move_to(slots[p])
                for p, src in enumerate(self.data.shuffle.permutation)
            ),
            lag_ratio=0.1,
        )
        self.say(
            "pitfalls",
            *self._name_point("pitfalls"),
            FadeOut(learned),
            FadeIn(plain),
            then=[[FadeIn(projected)]],
            beats={
                "self": [outline(plain.share)],
                "saturate": [FadeIn(bars.pair[0]), FadeIn(bars.pair[1], shift=RIGHT * 0.2)],
                "order": [FadeIn(order), swap],
                "pe": [Write(pe), outline(pe)],
            },
        )

    def _projection_maps(self) -> VGroup:
        """One draw's map without projections (a bright diagonal) beside the map with them,
        each with the mean share a word gives itself over every draw."""
        ex = self.data.projection.example
        pair = VGroup()
        for key, matrix, colour in (
            ("plain", ex.plain, style.WITHOUT),
            ("projected", ex.projected, style.WITH),
        ):
            grid = AttentionGrid(
                matrix, f"{PROJ}.example.{key}", cell_size=SMALL_CELL, show_numbers=False
            )
            name = style.text(self.words[f"{key}_label"], style.LABEL_SIZE, colour)
            share = phrase(
                self.words["self_share"],
                style.LABEL_SIZE,
                w=self.number(f"{PROJ}.{key}.mean", 2),
                n=self.number(f"{PROJ}.draws", 0),
            )
            column = VGroup(name, grid, share).arrange(DOWN, buff=style.ITEM_BUFF)
            column.share = share
            pair.add(column)
        group = pair.arrange(RIGHT, buff=style.GROUP_BUFF)
        group.pair = pair
        return group

    def _sqrt_d_bars(self) -> VGroup:
        """At the largest d, one draw's weights without the division (one bar takes nearly
        all) beside the same draw's weights divided by √d."""
        last = len(self.data.sqrt_d.dims) - 1
        row = self.data.sqrt_d.dims[last]
        pair = VGroup()
        for key, weights in (("unscaled", row.example_unscaled), ("scaled", row.example_scaled)):
            shown = WeightBars(
                [ShownNumber(j + 1, 0, Ordinal(), color=style.MUTED) for j in range(len(weights))],
                weights,
                f"{SQRT_D}.dims[{last}].example_{key}",
                length=1.6,
                bar_height=SMALL_CELL * 0.8,
            )
            name = phrase(
                self.words[f"{key}_label"],
                style.LABEL_SIZE,
                style.WITHOUT if key == "unscaled" else style.WITH,
                d=self.number(f"{SQRT_D}.dims[{last}].d", 0),
            )
            pair.add(VGroup(name, shown).arrange(DOWN, buff=style.ITEM_BUFF))
        group = pair.arrange(RIGHT, buff=style.GROUP_BUFF, aligned_edge=UP)
        group.pair = pair
        return group

    def _shuffled(self) -> tuple[VGroup, Mobject]:
        """The sentence's words, each with its attention output as a strip; shuffled, every
        strip travels with its word (the same outputs, in the new order); then + PE."""
        s = self.data.shuffle
        out = s.without_positions.out
        words = [style.text(t, style.LABEL_SIZE) for t in s.tokens]
        top = max(max(r) for r in out)
        strips = AttentionGrid(
            out,
            f"{SHUF}.without_positions.out",
            row_headers=words,
            cell_size=STRIP_CELL,
            show_numbers=False,
            value_range=(0.0, top),
        )
        # the rows, word and strip, side by side: the sentence reads across
        rows = [VGroup(strips.row_headers[r], strips.get_row(r)) for r in range(strips.n_rows)]
        line = VGroup(*rows).arrange(RIGHT, buff=style.GROUP_BUFF)
        name = style.text(self.words["outputs_label"], style.LABEL_SIZE, style.MUTED)
        name.next_to(line, LEFT, buff=style.GROUP_BUFF)
        pe = MathTex(r"X + PE", font_size=FORMULA_SIZE)
        group = VGroup(name, line)
        pe.next_to(group, RIGHT, buff=style.WIDE_BUFF)
        group.layout = VGroup(group, pe)  # placed together; + PE is written last
        group.rows = rows
        return group, pe

    # --- 6. one knob ----------------------------------------------------------------------
    def _knob(self) -> None:
        """One knob beside three pictures it sets: the office's weights at an arrow length,
        it -> every word at a temperature, and one draw at d = 512 with or without √d; turned
        to a large scale, every picture sharpens; to a small one, every picture flattens."""
        office = self.data.office
        lengths = sorted(range(len(office.grow)), key=lambda g: office.grow[g].length)
        middle, large, small = self.knob_stops
        stops = {  # (office stop, it/cat temperature, divided by √d?) at each knob setting
            "middle": (lengths[1], middle, True),
            "large": (lengths[-1], large, False),
            "small": (lengths[0], small, True),
        }
        knob = Knob(3, self.words["knob_name"], at=1)
        panels = {name: self._panels(*stop) for name, stop in stops.items()}
        shown = panels["middle"]
        row = VGroup(*shown).arrange(RIGHT, buff=style.WIDE_BUFF, aligned_edge=UP)
        style.place(VGroup(knob, row).arrange(RIGHT, buff=style.WIDE_BUFF))
        for name in ("large", "small"):
            for panel, target in zip(shown, panels[name], strict=True):
                target.scale(panel.width / target.width).move_to(panel, aligned_edge=UP)

        def turn(name: str, notch: int) -> list:
            nonlocal shown
            moves = [knob.turn(notch)]
            moves += [ReplacementTransform(a, b) for a, b in zip(shown, panels[name], strict=True)]
            shown = panels[name]
            return moves

        self.say(
            "knob",
            *self._name_point("knob"),
            *self._away(),
            FadeIn(knob),
            LaggedStart(*(FadeIn(p) for p in shown), lag_ratio=0.3),
            beats={
                "arrow": [outline(*(p[0] for p in shown))],  # each picture's setting in turn
                "same": [outline(knob.name)],
            },
        )
        c = self.data.it_cat
        cat_bar = panels["large"][1].bars.rows[c.referent]
        self.say(
            "knob_turn",
            *turn("large", 2),
            then=[[outline(VGroup(cat_bar[2], cat_bar[3]))]],
            beats={"small": turn("small", 0)},
        )
        self.knob_shown = VGroup(knob, *shown)

    def _panels(self, office_stop: int, temperature: int, divided: bool) -> VGroup:
        """The three pictures at one setting of the knob, each named with its setting."""
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
        key = "scaled" if divided else "unscaled"
        weights = getattr(self.data.sqrt_d.dims[last], f"example_{key}")
        root = WeightBars(
            [ShownNumber(j + 1, 0, Ordinal(), color=style.MUTED) for j in range(len(weights))],
            weights,
            f"{SQRT_D}.dims[{last}].example_{key}",
            length=2.0,
            bar_height=KNOB_BAR,
        )
        root_name = phrase(
            self.words[f"{key}_label"],
            style.LABEL_SIZE,
            d=self.number(f"{SQRT_D}.dims[{last}].d", 0),
        )
        panels = VGroup()
        for name, bars in ((arrow_name, arrow), (temp_name, temp), (root_name, root)):
            panel = VGroup(name, bars).arrange(DOWN, buff=style.ITEM_BUFF)
            panel.bars = bars
            panels.add(panel)
        return panels

    # --- 7. a map of flow ------------------------------------------------------------------
    def _map_use(self, learned: VGroup) -> None:
        """The learned map of point 4 brought back: a map of how information flowed, the
        model's reason crossed."""
        words = self.shared("caveat")
        flow = style.text(words["flow_label"], style.BODY_SIZE)
        reason = style.text(words["reason_label"], style.BODY_SIZE, style.MUTED)
        side = VGroup(flow, reason).arrange(DOWN, aligned_edge=LEFT, buff=style.SECTION_BUFF)
        target = learned.copy()
        style.place(VGroup(target, side).arrange(RIGHT, buff=style.WIDE_BUFF * 1.5))
        cross = Cross(reason, stroke_color=style.HIGHLIGHT, stroke_width=5)
        self.say(
            "map",
            *self._name_point("map"),
            FadeOut(self.knob_shown),
            FadeIn(learned),  # where point 4 left it
            then=[[learned.animate.move_to(target), FadeIn(flow, shift=LEFT * style.ITEM_BUFF)]],
            beats={"not": [FadeIn(reason), Create(cross)]},
        )
