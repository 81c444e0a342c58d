"""Pitfall 1 (seed 000): why project? Without W_Q and W_K every word looks at itself.

Render alone with ``manim -ql scenes/chapters/projection.py WhyProject``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from manim import (
    DL,
    DOWN,
    DR,
    LEFT,
    ORIGIN,
    PI,
    RIGHT,
    UL,
    UP,
    UR,
    Angle,
    Animation,
    AnimationGroup,
    ApplyMethod,
    ArcBetweenPoints,
    Arrow,
    Brace,
    Create,
    DashedLine,
    Dot,
    FadeIn,
    FadeOut,
    GrowArrow,
    LaggedStart,
    Line,
    MathTex,
    Mobject,
    MoveAlongPath,
    NumberLine,
    Rectangle,
    ReplacementTransform,
    Restore,
    Succession,
    SurroundingRectangle,
    Transform,
    TransformFromCopy,
    TransformMatchingTex,
    VGroup,
    VMobject,
    Write,
)

from scenes.kit import style
from scenes.kit.base import LectureScene, top_index
from scenes.kit.devices import DotArrows
from scenes.kit.diagrams import QUERY_UNIT, OfficeRoom
from scenes.kit.emphasis import outline
from scenes.kit.maps import AttentionGrid
from scenes.kit.numbers import BinCount, ShownNumber, phrase
from scenes.kit.seams import seam_builder
from scenes.kit.turns import InTurn
from scenes.kit.vectors import NumberVector, ShareBar, WeightBars

SRC = "pitfalls.projection"
DRAWN_LENGTH = 2.2  # a word's vector, drawn with itself and with another
FORMULA_TEX = 40  # the formulas beside those arrows
CHART_HEIGHT = 3.4  # one row of X X^T as bars, from its lowest score to its highest
SCORE_BAR, SCORE_GAP = 0.3, 0.1  # a score's bar, and the gap between two
BEATING_LENGTH, BEATING_COS = 1.2, 0.95  # the other vector that would beat x's own score
INTRO_ARROWS = 4.5  # the longer of the intro's q and k
INTRO_TEX = 60  # the intro's question
INTRO_GROW = 1.3  # the intro's picture may be enlarged this much to fill the frame
INTRO_MATRIX = 3.5  # W_Q's and W_K's heat grids, this many times as tall as an x's row
APPLE = "tokens.eat_apple"
BIN = 0.02  # histogram bin width (share of attention)
CELL = 0.42  # three maps side by side
LINE_LENGTH = 12.0  # a histogram's number line, the share from 0 to 1
BAR_HEIGHT = 1.5  # a histogram's tallest bar
DOT = 0.13  # a draw's dot on its line
SMALL_MAP = 1.6  # a first draw's map, shrunk beside its histogram
PLAIN_STRIP = 0.6  # the plain row, a strip: its map this share of SMALL_MAP, its bars of BAR_HEIGHT
PROJECTED_BARS = 1.5  # the projected row's bars, this many times BAR_HEIGHT: the frame's lower half
DECK = 3  # outlines stacked behind it: the other draws
DROPPED_CARD = 0.5  # a card of the deck, shrunk as it stands on the line before its dot
HISTOGRAM_GROW = 1.6  # the histograms may be enlarged this much to fill the frame
TURN_ANGLES = (180, 135, 90, 45, 0)  # the Query's turn towards the accountant, in the sweep
CARD_WIDTH, CARD_ROW = 2.8, 0.45  # a search result: a title strip over a body
STRIPES = 3.0  # X's stripes are this many times as long as the map is wide
COLUMNS = 1.2  # X^T's columns are this many times as tall as the map
SPREAD = 2.5  # a vector's entries from -SPREAD to SPREAD span the heat scale
PRODUCT_GROW = 1.6  # X, X^T and the map may be enlarged this much to fill the frame
CARD_GAP = 1.5  # from the panel's left edge to the cards: the Query's lines fan out there
ROOM_SHARE = 0.9  # the office, a little under its full height: the panel beside it is wide
SPLIT_HEIGHT = 0.22  # a word's attention as one bar cut into its shares
SHARE_TICK = 0.22  # half a self share's tick on the projected line
FAN_FADE = 0.4  # an other vector's fade, against its growth (1): the growth is what is read
FAN_DROP = 0.6  # its shadow's drop onto x, against its growth (1)


class WhyProject(LectureScene):
    """One draw's two maps side by side, then the self-share of all the draws."""

    scene_key = "projection"
    reads = ("pitfalls.projection", "office", "tokens.eat_apple")
    tables = ("office",)  # the office's people and days, brought back in their own words
    ends_on = "office_search"  # its last picture, sqrt_d's first (built at the module's end)

    def construct(self) -> None:
        self.p = self.data.projection
        self.title = self.make_title()
        self.add(self.title)  # the title at once: no frame is only a title being written
        self.question = self._intro()
        self._draws(self._maps())
        self._office()

    def _office(self) -> None:
        """Query and Key are two things, in the office of the analogy brought back (half the
        frame): one person's Query (through W_Q) and Key (through W_K) are two arrows; the
        Query starts random and turns, step by step, towards the one it should find while the
        weights re-split; then the people become search results, a title (their Key) over a
        body (their Value): the Query is matched against the titles, and the found body
        travels back to the asker."""
        o = self.data.office
        office_words = self.shared("office")
        stage = office_stage(self)
        room, panel_left = stage.room, stage.panel_left
        _, _, right, top = style.content_area()
        wants = style.text(self.words["looks_for"], style.BODY_SIZE, style.QUERY)
        is_ = style.text(self.words["is"], style.BODY_SIZE, style.KEY)
        ne = style.text("≠", style.BODY_SIZE)
        header = VGroup(wants, VGroup(ne, is_).arrange(RIGHT, buff=style.ITEM_BUFF))
        header.arrange(DOWN, aligned_edge=LEFT, buff=style.ITEM_BUFF)
        learned = MathTex("W_Q", r"\ne", "W_K", font_size=48)
        learned[0].set_color(style.QUERY)
        learned[2].set_color(style.KEY)
        head = VGroup(header, learned).arrange(RIGHT, buff=style.GROUP_BUFF)
        head.scale(min(1.0, (right - panel_left) / head.width))
        head.move_to([panel_left, top, 0], UL)
        # the engineer asks (the office's question, whose top weight is the accountant)
        asker, aim = stage.asker, stage.aim
        he = room.people[asker]
        at = stage.at

        def shares(kind: str, k: int) -> WeightBars:
            labels = [style.text(office_words[p], style.LABEL_SIZE, style.KEY) for p in o.people]
            stop = getattr(o, kind)[k]
            bars = WeightBars(labels, stop.weights, f"office.{kind}[{k}].weights")
            bars.scale(min(1.0, (right - panel_left) / bars.width))
            return bars.next_to(head, DOWN, buff=style.SECTION_BUFF).align_to(head, LEFT)

        # a random W_Q: the Query points at nobody in particular; training turns it, one
        # step of the office's sweep at a time, towards the accountant, then it lengthens
        angles = [round(s.angle) % 360 for s in o.sweep]
        path = [angles.index(a) for a in TURN_ANGLES]
        query = aim(o.sweep[path[0]].query)
        bars = shares("sweep", path[0])
        steps = [(aim(o.sweep[k].query), shares("sweep", k)) for k in path[1:]]
        last = len(o.grow) - 1
        steps.append((aim(o.grow[last].query), shares("grow", last)))
        key = stage.key()
        # each arrow named by its matrix, beside its middle, below it
        names = VGroup(matrix_name("W_Q", style.QUERY, query), matrix_name("W_K", style.KEY, key))
        # the draws leave as the office comes in: no frame between them is empty
        leaving = [m for m in self.mobjects if m is not self.title]
        self.say(
            "two_things",
            *(FadeOut(m) for m in leaving),
            FadeIn(room),
            FadeIn(header),  # the two things, at once: the panel is never empty
            beats={
                # one person, two arrows: what he looks for, and where he stands (what he is)
                "roles": [Succession(GrowArrow(query), GrowArrow(key))],
                # two matrices: their names travel onto the arrows they make
                "two": [
                    Write(learned),
                    TransformFromCopy(learned[0], names[0]),
                    TransformFromCopy(learned[2], names[1]),
                ],
                "train": [FadeIn(bars, lag_ratio=0.1)],
                # training turns the Query, step by step, while the weights re-split
                "high": [
                    FadeOut(names[0]),
                    Succession(
                        *(
                            AnimationGroup(Transform(query, arrow), Transform(bars, weights))
                            for arrow, weights in steps[:-1]
                        )
                    ),
                ],
                # then it lengthens: the one it should look at gets the high score
                "score": [Transform(query, steps[-1][0]), Transform(bars, steps[-1][1])],
            },
        )
        # his two vectors, tagged with his words, in the panel the weights leave
        tags = VGroup(
            self._tag(self.words["query_tag"], style.QUERY),
            self._tag(self.words["key_tag"], style.KEY),
        ).arrange(DOWN, aligned_edge=LEFT, buff=style.GROUP_BUFF)
        tags.scale(min(1.0, (right - panel_left) / tags.width))
        tags.next_to(head, DOWN, buff=style.SECTION_BUFF).align_to(head, LEFT)
        final = steps[-1][0]
        links = VGroup(
            *(
                DashedLine(a.get_left(), b, color=c, stroke_width=2)
                for a, b, c in (
                    (tags[0], final.get_end(), style.QUERY),
                    (tags[1], at, style.KEY),
                )
            )
        )
        others = VGroup(*(p for k, p in enumerate(room.people) if k != asker))
        others.save_state()
        self.say(
            "front_end",
            FadeOut(bars),
            outline(he[1]),
            # his question comes out of his Query's tip, his Key's words out of his Key's
            FadeIn(tags[0], target_position=final.get_end(), scale=0.2),
            Create(links[0]),
            beats={
                "key": [FadeIn(tags[1], target_position=at, scale=0.2), Create(links[1])],
                "differ": [
                    Create(stage.angle(final)),
                    # one person, two vectors: the others dim
                    others.animate.set_opacity(style.DIMMED),
                ],
            },
        )
        self._results(stage, VGroup(head, tags, links), others, final.get_end())

    def _results(self, stage: OfficeStage, panel: VGroup, others: VGroup, tip) -> None:
        """The people as search results: each a card, a title strip (their name, their Key)
        over a body (their days, their Value). The asker's Query (its tip at ``tip``) lines
        up against the titles, as thick as each weight; the top title lights; its body
        travels back to the asker (laid out by :func:`search_results`). ``panel``: the
        header, the tags and their links, which give way."""
        room = stage.room
        found = search_results(self, stage, tip)
        cards, labels, lines, lit = found.cards, found.labels, found.lines, found.lit
        w_v = MathTex("W_V", "?", font_size=48, color=style.VALUE)  # where the Value's words go
        w_v.move_to(found.offer, UL)
        self.say(
            "value_too",
            Restore(others),
            FadeOut(panel),
            Write(w_v),
            # at once, each person's days lift out of the room into an empty card body: the
            # Values the question is about
            *(
                AnimationGroup(Create(card[1][0]), TransformFromCopy(p[2], card[1][1]))
                for p, card in zip(room.people, cards, strict=True)
            ),
            beats={
                # W_V becomes what they offer; their names rise into the title strips
                "offer": [
                    ReplacementTransform(w_v, found.offer),
                    *(
                        AnimationGroup(Create(card[0][0]), TransformFromCopy(p[1], card[0][1]))
                        for p, card in zip(room.people, cards, strict=True)
                    ),
                ],
                "title": [Create(lines, lag_ratio=0.2), FadeIn(labels[0]), FadeIn(lit)],
                # the found days travel to the asker on an arc, and arrive as the weighted
                # sum of every Value (the office's output)
                "body": [FadeIn(labels[1]), self._read_back(found)],
            },
            run_time=2.5,  # the found days' journey back is followed, not a jump
        )

    @staticmethod
    def _read_back(found: SearchResults) -> AnimationGroup:
        """The found body's days, carried on a plain arc to where the asker reads; on arrival
        they become what attention returns (the weighted sum of every Value, the office's
        output), framed in the result's colour."""
        path = ArcBetweenPoints(found.back.get_center(), found.read[0].get_center(), angle=PI / 3)
        # most of the beat for the journey, then the days turn into the output and the frame
        # is drawn (Create draws nothing before its turn)
        return AnimationGroup(
            MoveAlongPath(found.back, path, run_time=2.5),
            # (a fade, not a transform: the carried days are in this group twice, and a
            # transform's clean-up would replace only one of them)
            AnimationGroup(
                FadeOut(found.back),
                FadeIn(found.read[0]),
                Create(found.read[1]),
                run_time=1.5,
            ),
            lag_ratio=1,
        )

    def _tag(self, words: str, colour) -> VGroup:
        """A person's words in a speech tag of their role's colour."""
        text = style.text(words, style.BODY_SIZE, colour)
        return VGroup(SurroundingRectangle(text, color=colour, buff=style.ITEM_BUFF), text)

    def _intro(self) -> VGroup:
        """The question on two words of the walkthrough (蘋果 asking, 吃 asked): their x's
        compared directly, as numbers and as arrows (x_i · x_j ?); then what the lecture does
        instead: each through its own matrix first, x W_Q = q and x W_K = k, whose arrows
        (the scoring chapter's q and k) are compared. Returns what stays on screen."""
        ex = self.data.eat_apple
        i, j = ex.query_index, ex.target
        words = VGroup(*(style.text(t, style.TITLE_SIZE) for t in self.apple_words()[: ex.short]))
        words.arrange(RIGHT, buff=style.WIDE_BUFF)
        rows = VGroup()
        for k, role, matrix, colour in ((i, "q", "W_Q", style.QUERY), (j, "k", "W_K", style.KEY)):
            x = NumberVector(ex.x[k], f"{APPLE}.x[{k}]", self.apple_label("x", k), decimals=1)
            # × the matrix (drawn as its heat grid, named under it) =
            grid = self._matrix(
                getattr(ex, matrix.lower()), matrix, colour, INTRO_MATRIX * x.height
            )
            times = VGroup(MathTex(r"\times", font_size=40), grid, MathTex("=", font_size=40))
            times.arrange(RIGHT, buff=style.ITEM_BUFF)
            out = getattr(ex, role)[k]
            y = NumberVector(out, f"{APPLE}.{role}[{k}]", self.apple_label(role, k), colour, 1)
            rows.add(VGroup(x, times, y).arrange(RIGHT, buff=style.ITEM_BUFF))
        for row in rows:  # the x's one above the other, their products to the right
            row[1:].next_to(row[0], RIGHT, buff=style.ITEM_BUFF)
        rows.arrange(DOWN, buff=style.SECTION_BUFF, aligned_edge=LEFT)
        plain = MathTex("x_i", r"\cdot", "x_j", r"\;?", font_size=INTRO_TEX)
        projected = MathTex("x_i", "W_Q", r"\cdot", "x_j", "W_K", r"\;?", font_size=INTRO_TEX)
        projected[1].set_color(style.QUERY)
        projected[4].set_color(style.KEY)
        # one unit for both pairs: the products' arrows are longer than the x's they come from
        unit = INTRO_ARROWS / max(math.dist(v, [0.0] * len(v)) for v in (ex.q[i], ex.k[j]))
        arrows = DotArrows(ex.x[i], ex.x[j], "x_i", "x_j", style.FOREGROUND, style.MUTED, unit)
        turned = DotArrows(ex.q[i], ex.k[j], "q", "k", style.QUERY, style.KEY, unit)
        arrows.shift(turned.a.get_start() - arrows.a.get_start())
        # the products at the left, the arrows large beside them; above each, its words
        drawn = VGroup(turned, arrows)
        body = VGroup(rows, drawn).arrange(RIGHT, buff=style.WIDE_BUFF)
        words.next_to(body, UP, buff=style.SECTION_BUFF).match_x(rows)
        projected.next_to(body, UP, buff=style.SECTION_BUFF).match_x(drawn)
        projected.align_to(words, UP)
        style.place(VGroup(body, words, projected), grow=INTRO_GROW)
        plain.scale(projected[0].height / plain[0].height).move_to(projected)
        back = arrows.copy()  # the x's arrows again, when the projections are switched off
        # the x's grow out of their words; the products travel out of them
        xs = [rows[0][0], rows[1][0]]
        self.say(
            "intro",
            FadeIn(words),
            beats={
                "pair": [
                    outline(words[i], words[j]),
                    *(TransformFromCopy(words[k], x) for k, x in zip((i, j), xs, strict=True)),
                ],
                "dot": [
                    Succession(
                        AnimationGroup(*(GrowArrow(a) for a in (arrows.a, arrows.b))),
                        AnimationGroup(FadeIn(arrows.names), Create(arrows.angle_group)),
                        AnimationGroup(*(Create(s) for s in arrows.get_shadow())),
                    ),
                    Write(plain),
                ],
                # each x goes into its matrix's grid as a whole, and q or k comes out of the
                # grid (no entry of x becomes one of q's), while the arrows lengthen
                "matrix": [
                    TransformMatchingTex(plain, projected),
                    *(
                        InTurn(
                            FadeIn(row[1]),
                            FadeOut(row[0].copy(), target_position=row[1][1][0], scale=0.3),
                            FadeIn(row[2], target_position=row[1][1][0], scale=0.3),
                        )
                        for row in rows
                    ),
                    ReplacementTransform(arrows, turned),
                ],
            },
            run_time=2.0,  # x through its grid, out as q or k: a journey, not a flash
        )
        return VGroup(words, rows, projected, turned, back)

    @staticmethod
    def _matrix(values: list[list[float]], name: str, colour, height: float) -> VGroup:
        """A small matrix as a heat grid (its largest entry brightest), ``height`` tall over
        its name."""
        top = max(abs(v) for row in values for v in row) or 1.0
        side = height / len(values)
        cells = VGroup(
            *(
                Rectangle(width=side, height=side)
                .set_stroke(style.MUTED, width=1)
                .set_fill(style.heat(abs(v) / top), opacity=1)
                for row in values
                for v in row
            )
        ).arrange_in_grid(len(values), len(values[0]), buff=0)
        label = MathTex(name, font_size=32, color=colour)
        return VGroup(cells, label.next_to(cells, DOWN, buff=style.HUG_BUFF))

    def _map(self, kind: str, colour) -> VGroup:
        weights = getattr(self.p.example, kind)
        grid = AttentionGrid(weights, f"{SRC}.example.{kind}", cell_size=CELL, show_numbers=False)
        name = style.text(self.words[kind], style.LABEL_SIZE, colour)
        formula = MathTex(self.words[f"{kind}_tex"], font_size=30, color=colour)
        head = VGroup(name, formula).arrange(DOWN, buff=style.ITEM_BUFF)
        return VGroup(head.next_to(grid, UP, buff=style.ITEM_BUFF), grid)

    def _maps(self) -> VGroup:
        maps = VGroup(
            self._map("plain", style.WITHOUT),
            self._map("shared", style.WITHOUT),
            self._map("projected", style.WITH),
        ).arrange(RIGHT, buff=style.WIDE_BUFF, aligned_edge=DOWN)
        plain = style.place(maps)[0]
        diagonal = self._diagonal(plain[1])
        self_dot = MathTex(r"x \cdot x = |x|^2", font_size=FORMULA_TEX)
        other_dot = MathTex(r"x \cdot y = |x|\,|y|\cos\theta", font_size=FORMULA_TEX)
        self_size = self.number(f"{SRC}.self_dot_mean", 0)
        cross_size = self.number(f"{SRC}.cross_dot_std", 0)
        # x with itself and with another word, drawn at the measured sizes: |x|² ≈ the mean
        # self dot, and cos θ one spread of the cross dot over it (a typical other word)
        length = math.sqrt(self.p.self_dot_mean)
        cos = self.p.cross_dot_std / self.p.self_dot_mean
        x = [length, 0.0]
        y = [length * cos, length * math.sqrt(1 - cos * cos)]
        unit = DRAWN_LENGTH / length
        # an illustration, not a measurement: a y longer than x and nearly along it, whose
        # shadow on x passes x's own length (|y| cos θ > |x|), so x · y > x · x
        beating = [length * BEATING_LENGTH * BEATING_COS, 0.0]
        beating[1] = length * BEATING_LENGTH * math.sqrt(1 - BEATING_COS**2)
        stretched = [BEATING_LENGTH * v for v in y]  # as long as the winner, not yet turned
        drawn = [DotArrows(x, x, "x", "x", style.FOREGROUND, style.FOREGROUND, unit)]
        drawn.append(DotArrows(x, y, "x", "y", style.FOREGROUND, style.MUTED, unit))
        # a column at the stage's left: each formula over its arrows
        # (room over y for it to grow into when it beats x)
        headroom = (BEATING_LENGTH - 1) * DRAWN_LENGTH
        sketch = VGroup(
            *(
                VGroup(formula, arrows).arrange(DOWN, buff=buff, aligned_edge=LEFT)
                for formula, arrows, buff in (
                    (self_dot, drawn[0], style.ITEM_BUFF),
                    (other_dot, drawn[1], style.ITEM_BUFF + headroom),
                )
            )
        ).arrange(DOWN, buff=style.GROUP_BUFF, aligned_edge=LEFT)
        # The other word that comes nearest to beating a word's own score with one matrix
        # for both roles, in this draw: its row is the shared chart's last.
        n, weights = self.p.positions, self.p.example.shared
        near = max(
            ((i, j) for i in range(n) for j in range(n) if i != j),
            key=lambda c: weights[c[0]][c[1]],
        )
        scored = [
            self.p.example.dots[0],
            self._shared_row(0),
            self._shared_row(near[0]),
            self._shared_row(near[0], "projected_dots"),
        ]
        high = max(*(max(r) for r in scored), self.p.self_dot_mean)
        low = min(*(min(r) for r in scored), -self.p.cross_dot_std)
        # the first word's row of X X^T (the map's first row, before softmax) as bars
        chart = ScoreChart(
            self.p.example.dots[0], CHART_HEIGHT / (high - low), low, r"x \cdot x", r"x \cdot y"
        )
        chart.add_stats(
            self.p.self_dot_mean,
            self.p.cross_dot_std,
            phrase(self.words["self_dot_line"], style.LABEL_SIZE, d=self_size),
            phrase(self.words["cross_dot_line"], style.LABEL_SIZE, d=cross_size),
        )
        scores_name = style.text(self.words["scores_name"], style.LABEL_SIZE)
        longer = MathTex(
            r"|y|\cos\theta > |x| \;\Rightarrow\; x \cdot y > x \cdot x", font_size=FORMULA_TEX
        )
        _, bottom, right, top = style.content_area()
        stage = VGroup(
            sketch, VGroup(longer, scores_name, chart).arrange(DOWN, buff=style.ITEM_BUFF * 2)
        )
        stage.arrange(RIGHT, buff=style.GROUP_BUFF)
        left = plain.get_right()[0] + style.GROUP_BUFF
        fit = min(1.0, (right - left) / stage.width, (top - bottom) / stage.height)
        stage.scale(fit).move_to([(left + right) / 2, (bottom + top) / 2, 0])
        unit *= fit  # the arrows y turns into are drawn at the stage's scale
        longer.align_to(chart, RIGHT)
        words, rows, asked, turned, back = self.question
        off = MathTex("x_i", r"\cdot", "x_j", r"\;?", font_size=INTRO_TEX)
        off.scale(asked[0].height / off[0].height).move_to(asked)
        # the draw's 8 random vectors as stripes (the rows of X), X^T's columns over the map,
        # all large in the middle: a cell of the map is where a row meets a column
        big = plain[1].copy()
        vectors = self._stripes(self.p.example.x, STRIPES * big.width, big.height)
        vectors.next_to(big, LEFT, buff=style.ITEM_BUFF)
        columns = self._stripes(self.p.example.x, big.width, COLUMNS * big.width, across=True)
        columns.next_to(big, UP, buff=style.ITEM_BUFF)
        names = VGroup(MathTex("X", font_size=48), MathTex(r"X^\top", font_size=48))
        names[0].next_to(vectors, LEFT, buff=style.ITEM_BUFF)
        names[1].next_to(columns, LEFT, buff=style.ITEM_BUFF)
        product = VGroup(vectors, columns, big, names)
        style.place(product, grow=PRODUCT_GROW).shift(RIGHT * (plain[0].width / 2))
        big_diagonal = self._diagonal(big)
        self.say(
            "setup",
            # the projections switched off: W_Q and W_K leave the question, q and k turn
            # back into the x's they were made from
            # q and k shrink back into their grids, then the grids slide out (the intro's
            # journey, backwards, at its pace)
            *(
                InTurn(
                    FadeOut(row[2], target_position=row[1][1], scale=0.2),
                    FadeOut(row[1], shift=DOWN * style.GROUP_BUFF),
                )
                for row in rows
            ),
            TransformMatchingTex(asked, off),
            ReplacementTransform(turned, back),
            run_time=2.0,
            beats={
                # 8 vectors of 64 numbers; X^T from the same vectors; the map row by row
                "random": [
                    FadeOut(VGroup(words, *(row[0] for row in rows), back)),
                    ReplacementTransform(off, plain[0]),
                    Succession(
                        AnimationGroup(FadeIn(vectors, lag_ratio=0.002), FadeIn(names[0])),
                        AnimationGroup(TransformFromCopy(vectors, columns), FadeIn(names[1])),
                    ),
                ],
                # every row against every column: the map fills row by row
                "dot": [FadeIn(big, lag_ratio=0.05)],
            },
            n=self.p.positions,
            width=self.p.width,
        )
        # one word's row: its own cell lit, the rest dark; its vector, the row of X
        row = VGroup(
            SurroundingRectangle(big.get_row(0), color=style.HIGHLIGHT, buff=style.TIGHT_BUFF),
            SurroundingRectangle(
                VGroup(*vectors[: self.p.width]), color=style.HIGHLIGHT, buff=style.TIGHT_BUFF
            ),
        )
        first_row = SurroundingRectangle(
            plain[1].get_row(0), color=style.HIGHLIGHT, buff=style.TIGHT_BUFF
        )
        self.say(
            "diagonal",
            FadeIn(big_diagonal, lag_ratio=0.2),
            beats={"rest": [Create(row), columns.animate.set_opacity(style.DIMMED)]},
        )
        seed = chart.bars[0].copy().stretch_to_fit_height(chart.bars[0].width, about_edge=DOWN)
        # x with itself is one arrow: one name (the second would sit on the first), and its
        # copy, just above it, slides down onto it as its full shadow
        drawn[0].names.remove(drawn[0].names[1])
        onto = drawn[0].a.copy().shift(UP * style.GROUP_BUFF)
        self.say(
            "why",
            # the map goes back to its place among the three, its first row still framed;
            # X and X^T leave; the row's scores will stand on the chart's zero line
            FadeOut(VGroup(row[1], vectors, columns, names)),
            ReplacementTransform(big, plain[1]),
            ReplacementTransform(big_diagonal, diagonal),
            ReplacementTransform(row[0], first_row),
            Create(chart.zero),
            FadeIn(scores_name),
            # x at once, large in the middle of the stage
            GrowArrow(drawn[0].a),
            FadeIn(drawn[0].names[0]),
            beats={
                # x's copy lands on x as its full shadow; in the same beat the framed row's
                # own cell (a weight, after softmax) lands on the chart's zero line and grows
                # there into its score before softmax, x · x
                "self": [
                    Succession(FadeIn(onto), ReplacementTransform(onto, drawn[0].shadow)),
                    Write(self_dot),
                    Succession(
                        TransformFromCopy(plain[1].get_cell(0, 0), seed, path_arc=-0.5),
                        ReplacementTransform(seed, chart.bars[0]),
                    ),
                ],
                "about": [
                    Create(chart.level),
                    FadeIn(chart.level_label),
                    FadeIn(chart.names[0]),
                ],
                "other": [
                    AnimationGroup(*(GrowArrow(a) for a in (drawn[1].a, drawn[1].b))),
                    FadeIn(drawn[1].names),
                ],
                "angle": [
                    Succession(Create(drawn[1].angle_group), Create(drawn[1].get_shadow())),
                    Write(other_dot),
                ],
                # the row's other scores: short shadows, landing near 0 inside ±spread
                "spread": [
                    LaggedStart(
                        *(
                            TransformFromCopy(drawn[1].shadow, bar, path_arc=-0.5)
                            for bar in chart.bars[1:]
                        ),
                        lag_ratio=0.15,
                    ),
                    FadeIn(chart.band),
                    FadeIn(chart.band_label),
                    FadeIn(chart.names[1:]),
                ],
            },
            width=self.p.width,
            self_dot=self_size,
            cross_dot=cross_size,
        )
        # x's own score, its full shadow, carried onto x beside y: the length to beat
        to_beat = drawn[0].shadow.copy().shift(drawn[1].a.get_start() - drawn[0].a.get_start())
        fan, landed = self._fan(drawn[1], unit, chart)
        self.say(
            "not_always",
            TransformFromCopy(drawn[0].shadow, to_beat, path_arc=-0.6),
            beats={
                # y wins: first longer, then closer in direction
                "longer": [Transform(drawn[1], self._drawn_as(drawn[1], x, stretched, unit))],
                "closer": [Transform(drawn[1], self._drawn_as(drawn[1], x, beating, unit))],
                "wins": [Write(longer)],
                # the illustrative y leaves; the draw's seven real others come one at a time,
                # each alone with x (two vectors are exact in their own plane): nearly
                # perpendicular, its shadow short and left on x
                "rare": [self._fan_in_turn(fan, self._drawn_y(drawn[1]))],
                # their short shadows are the row's short bars: each flies onto its own bar
                "cos": [
                    LaggedStart(
                        *(
                            ReplacementTransform(shadow, bar, path_arc=-0.5)
                            for (_, _, shadow), bar in zip(fan, landed, strict=True)
                        ),
                        lag_ratio=0.3,
                    ),
                ],
            },
            width=self.p.width,
            run_time=2.5,  # the seven planes, one after another, take their cue
        )
        drawn[1].remove(*self._drawn_y(drawn[1]))  # gone: the sketch's exit must not bring it
        drawn[1].names.remove(drawn[1].names[1])
        sketch = VGroup(drawn[0], drawn[1], self_dot, other_dot, longer, to_beat, landed)
        self._shared(maps, VGroup(scores_name, chart), near, VGroup(sketch, diagonal, first_row))
        return maps

    def _shared(self, maps: VGroup, scores: VGroup, near: tuple[int, int], old: VGroup) -> None:
        """One matrix for both roles: the score chart (``scores``: its name over it) moves
        into the right third and is refilled from the shared map, the first word's row cell
        by cell, then the row whose other cell comes nearest (``near``) to beating its own.
        ``old``: the arrows and formulas (which leave), the plain map's diagonal, the frame
        on its first row (which travels)."""
        _, shared, projected = maps
        chart = scores[1]
        sketch, diagonal, first_row = old
        _, bottom, right, top = style.content_area()
        left = shared.get_right()[0] + style.GROUP_BUFF
        moved = scores.copy()
        moved.scale(min((right - left) / moved.width, (top - bottom) / moved.height))
        moved.move_to([(left + right) / 2, (top + bottom) / 2, 0])
        to = moved[1]  # the chart where it will stand: the new bars are built there
        own_row = to.bars_for(self._shared_row(0))
        near_row = to.bars_for(self._shared_row(near[0]))
        i, j = near
        near_bar = near_row[j + 1 if j < i else j]  # the row's own bar comes first
        frames = VGroup(
            *(
                SurroundingRectangle(r, color=style.HIGHLIGHT, buff=style.TIGHT_BUFF)
                for r in (shared[1].get_row(0), shared[1].get_row(i), near_bar)
            ),
            SurroundingRectangle(
                shared[1].get_cell(i, j), buff=0, color=style.HIGHLIGHT, stroke_width=4
            ),
        )
        shared_diagonal = self._diagonal(shared[1])
        # what the same row scored without W: ghosts behind the new bars
        ghosts = VGroup(chart.bars, chart.level, chart.level_label, chart.band_label)
        cells = [shared[1].get_cell(0, k) for k in range(self.p.positions)]
        names = to.names_for(r"|xW|^2", r"xW \cdot yW")
        # the near row's own score, on its bar: with one matrix, then with two
        own_score = [
            self.number(f"{SRC}.example.{kind}[{i}][{i}]", 1)
            for kind in ("shared_dots", "projected_dots")
        ]
        own_score[0].next_to(near_row[0], UP, buff=style.HUG_BUFF)
        self.say(
            "shared_say",
            FadeOut(sketch),
            Transform(scores, moved),
            FadeIn(shared),
            beats={
                "diag": [
                    FadeOut(diagonal),
                    FadeIn(shared_diagonal, lag_ratio=0.2),
                    ReplacementTransform(first_row, frames[0]),
                    ApplyMethod(ghosts.set_opacity, style.DIMMED),
                ],
                # its own cell flies into the chart as |xW|²
                "own": [
                    TransformFromCopy(cells[0], own_row[0], path_arc=-0.5),
                    Transform(chart.names[0], names[0]),
                ],
                # the seven others: small, either sign
                "others": [
                    FadeOut(shared_diagonal),
                    LaggedStart(
                        *(
                            TransformFromCopy(c, bar, path_arc=-0.5)
                            for c, bar in zip(cells[1:], own_row[1:], strict=True)
                        ),
                        lag_ratio=0.15,
                    ),
                    Transform(VGroup(*chart.names[1:]), VGroup(*names[1:])),
                ],
                "zero": [outline(VGroup(*own_row[1:]))],
                # the row whose other cell comes nearest: still below its own
                "longer": [
                    ReplacementTransform(frames[0], frames[1]),
                    Create(frames[3]),
                    FadeOut(chart.bars),  # the ghosts were the first word's
                    Transform(own_row, near_row),
                    Create(frames[2]),
                    FadeIn(own_score[0]),  # the score the near cell does not reach
                ],
            },
        )
        # two different matrices: the shared map turns into the projected one in its place,
        # the frame stays on the same word's row, and the chart's bars move to that row's
        # scores, x_iW_Q · x_jW_K: the same word, only the matrices changed; the own bar
        # falls into the band among the others
        projected.shift(shared[1].get_center() - projected[1].get_center())
        row_frame = SurroundingRectangle(
            projected[1].get_row(i), color=style.HIGHLIGHT, buff=style.TIGHT_BUFF
        )
        projected_row = to.bars_for(self._shared_row(i, "projected_dots"))
        # q_x = xW_Q and k_y = yW_K (the intro's q and k): short enough to stand beside the
        # own bar, now near the zero line
        projected_names = to.names_for(r"q_x \cdot k_x", r"q_x \cdot k_y")
        projected_names[0].next_to(projected_row[0], LEFT, buff=style.ITEM_BUFF * to.scale_now())
        projected_diagonal = self._diagonal(projected[1])
        # then the row sorts itself by score: each bar slides sideways to its rank, the own
        # bar in among the others, its name and score riding with it (on the zero line's
        # other side); the brace would then span the wrong bars, and gives way
        own = self._shared_row(i, "projected_dots")
        ranked = sorted(range(len(own)), key=lambda k: -own[k])
        slots = [projected_row[k].get_x() for k in range(len(own))]
        moves = [ApplyMethod(bar.set_x, slots[ranked.index(k)]) for k, bar in enumerate(own_row)]
        sorted_own = projected_row[0].copy().set_x(slots[ranked.index(0)])
        side = UP if own[0] < 0 else DOWN
        rider = VGroup(projected_names[0].copy(), own_score[1].copy()).arrange(
            side, buff=style.HUG_BUFF
        )
        rider.next_to(to.zero, side, buff=style.HUG_BUFF).match_x(sorted_own)
        own_score[1].next_to(projected_names[0], DOWN, buff=style.HUG_BUFF)  # clear of the bars
        self.say(
            "projected_say",
            ReplacementTransform(shared, projected),
            ReplacementTransform(frames[1], row_frame),
            FadeOut(VGroup(frames[2], frames[3])),
            Transform(own_row, projected_row),
            ReplacementTransform(own_score[0], own_score[1]),
            Transform(chart.names, projected_names),
            run_time=2.0,  # the chapter's claim: the morph and the fall take their cue
            beats={
                # no privilege: the row sorts itself, the own bar slides in among the
                # others; its diagonal no brighter
                "own": [
                    Succession(
                        AnimationGroup(
                            *moves,
                            FadeOut(VGroup(*chart.names[1:])),
                            Transform(chart.names[0], rider[0]),
                            Transform(own_score[1], rider[1]),
                        ),
                        outline(sorted_own),
                    ),
                    FadeIn(projected_diagonal, lag_ratio=0.2),
                ],
            },
        )
        # what the draws' cue clears: the chart with its name, the frame, the diagonal
        self.leftover = VGroup(
            scores[0],
            *(m for m in chart if m is not chart.bars and m is not chart.names),
            chart.names[0],
            own_score[1],
            own_row,
            row_frame,
            projected_diagonal,
        )

    def _shared_row(self, i: int, kind: str = "shared_dots") -> list[float]:
        """Word ``i``'s scores with one matrix for both roles (``kind``: or with two), its
        own first."""
        row = getattr(self.p.example, kind)[i]
        return [row[i], *(v for j, v in enumerate(row) if j != i)]

    def _fan(self, drawn: DotArrows, unit: float, chart: ScoreChart) -> tuple[VGroup, VGroup]:
        """The draw's other seven vectors, each drawn against the first (``drawn``'s x, from
        its tail) at its true angle and length, thin, each with its shadow on x (three
        parts: arrow, drop, shadow); and for each a copy of its bar on ``chart`` (x_0 · x_k),
        lit, where its shadow lands."""
        x = self.p.example.x
        fan = VGroup()
        for k in range(1, len(x)):
            other = DotArrows(x[0], x[k], "x", "y", style.FOREGROUND, style.MUTED, unit)
            other.shift(drawn.a.get_start() - other.a.get_start())
            other.b.set_stroke(width=3)
            fan.add(VGroup(other.b, other.drop, other.shadow.set_stroke(width=6)))
        landed = VGroup(*(bar.copy() for bar in chart.bars[1 : len(x)]))
        return fan, landed.set_fill(style.HIGHLIGHT, opacity=0.8)

    @staticmethod
    def _drawn_y(drawn: DotArrows) -> VGroup:
        """The parts of ``drawn`` that are its y's: the arrow, its name, angle and shadow."""
        return VGroup(drawn.b, drawn.names[1], drawn.angle_group, drawn.drop, drawn.shadow)

    @staticmethod
    def _fan_in_turn(fan: VGroup, leaving: VGroup) -> Animation:
        """Each of ``fan``'s vectors (arrow, drop, shadow) in turn: it grows with its shadow
        dropped onto x, then the arrow and the drop fade, the shadow stays; ``leaving``
        fades as the first grows. Only x and one other are ever on screen together."""
        steps: list[Animation] = []
        for k, (arrow, drop, shadow) in enumerate(fan):
            # the arrow first, then its drop and shadow meet at the foot (in turn: a
            # Succession would show the drop before the arrow reaches it)
            grow = InTurn(
                GrowArrow(arrow), AnimationGroup(Create(drop), Create(shadow), run_time=FAN_DROP)
            )
            steps.append(AnimationGroup(grow, *([FadeOut(leaving)] if k == 0 else [])))
            steps.append(FadeOut(VGroup(arrow, drop), run_time=FAN_FADE))
        return InTurn(*steps)

    @staticmethod
    def _drawn_as(drawn: DotArrows, x: list[float], y: list[float], unit: float) -> DotArrows:
        """x and another y drawn where ``drawn`` is (its arrows' common tail): a target for
        ``drawn`` to turn into."""
        target = DotArrows(x, y, "x", "y", style.FOREGROUND, style.MUTED, unit)
        return target.shift(drawn.a.get_start() - target.a.get_start())

    @staticmethod
    def _stripes(x: list[list[float]], width: float, height: float, across: bool = False) -> VGroup:
        """Vectors as stripes of heat cells, one row each (``across``: one column each, as
        in Xᵀ); the cells are in the same order either way, so one can turn into the other."""
        n, d = len(x), len(x[0])
        rows, cols = (d, n) if across else (n, d)
        cell = Rectangle(width=width / cols, height=height / rows).set_stroke(width=0)
        cells = [
            cell.copy().set_fill(style.heat(min(max((v + SPREAD) / (2 * SPREAD), 0), 1)), 1)
            for vector in x
            for v in vector
        ]
        if not across:
            return VGroup(*cells).arrange_in_grid(rows, cols, buff=0)
        VGroup(*(cells[i * d + j] for j in range(d) for i in range(n))).arrange_in_grid(
            rows, cols, buff=0
        )
        return VGroup(*cells)

    def _diagonal(self, grid: AttentionGrid) -> VGroup:
        """A frame on each cell of a map's diagonal: each word with itself."""
        frames = (
            SurroundingRectangle(grid.get_cell(i, i), buff=0, stroke_width=2)
            for i in range(self.p.positions)
        )
        return VGroup(*frames).set_color(style.HIGHLIGHT)

    def _counts(self, kind: str) -> list[int]:
        """How many of ``kind``'s draws fall in each bin of the histogram."""
        counts = [0] * round(1 / BIN)
        for v in getattr(self.p, kind).values:
            counts[BinCount.bin_of(v, BIN, len(counts))] += 1
        return counts

    def _histogram(self, kind: str, colour, line: NumberLine, height: float) -> VGroup:
        counts = self._counts(kind)
        tallest = max(counts)
        bars = VGroup()
        for b, count in enumerate(counts):
            if count:
                bar = Rectangle(width=line.get_unit_size() * BIN, height=height * count / tallest)
                bar.set_stroke(width=0).set_fill(colour, opacity=0.9)
                bars.add(bar.move_to(line.n2p((b + 0.5) * BIN), DOWN))
        return bars

    def _tallest(self, row: VGroup, kind: str, colour, side) -> ShownNumber:
        """How many draws the tallest bar of ``row`` (a :meth:`_row` of ``kind``) holds,
        counted from the data file, set on ``side`` of that bar."""
        counts = self._counts(kind)
        b = counts.index(max(counts))
        source = BinCount(f"{SRC}.{kind}.values", BIN, b, len(counts))
        number = self.number(source, 0, color=colour)
        line, bars = row[0], row[1]
        at = line.n2p((b + 0.5) * BIN)
        bar = min(bars, key=lambda m: abs(m.get_x() - at[0]))
        return number.next_to(bar, side, buff=style.HUG_BUFF)

    def _row(self, kind: str, colour, grid: AttentionGrid, size: float, bars: float) -> VGroup:
        """One kind's histogram of the self share over the draws: its number line, its bars
        (``bars`` tall at most), and on its left its map of the first draw (``grid``'s place,
        shrunk to ``size``) under its name, with the other draws stacked behind it."""
        line = NumberLine(x_range=[0, 1, 0.25], length=LINE_LENGTH, color=style.MUTED)
        ticks = VGroup(
            *(
                style.tick_label(f"{t:g}").next_to(line.n2p(t), DOWN, buff=style.ITEM_BUFF)
                for t in (0, 0.25, 0.5, 0.75, 1)
            )
        )
        line.add(ticks)
        bars = self._histogram(kind, colour, line, bars)
        small = grid.copy().scale_to_fit_height(size)
        deck = VGroup(
            *(
                Rectangle(width=small.width, height=small.height)
                .set_stroke(style.MUTED, width=2)
                .move_to(small)
                .shift(style.STACK_STEP * k)
                for k in range(DECK, 0, -1)
            )
        ).set_z_index(-1)  # behind the map it stacks under
        name = style.text(self.words[kind], style.LABEL_SIZE, colour)
        slot = VGroup(name, VGroup(deck, small)).arrange(DOWN, buff=style.ITEM_BUFF)
        slot.next_to(line, LEFT, buff=style.WIDE_BUFF).align_to(line, DOWN)
        return VGroup(line, bars, slot)

    @staticmethod
    def _split(shares: list[float], line: NumberLine, under: Mobject) -> VGroup:
        """One word's attention as a bar along ``line`` from 0 to 1, cut into its shares,
        its own (the first) lit; set just below ``under``."""
        unit = line.get_unit_size()
        parts = ShareBar(shares, unit, SPLIT_HEIGHT, style.WITH, style.FOREGROUND, edge_width=2)
        parts.set_fill(opacity=0)
        parts.get_part(0).set_fill(style.WITH, opacity=0.8)
        parts.next_to(under, DOWN, buff=style.ITEM_BUFF)
        return parts.shift(RIGHT * (line.n2p(0)[0] - parts.get_left()[0]))

    def _deck_dots(self, row: VGroup, kind: str, colour) -> list[Animation]:
        """Each card stacked behind ``row``'s map (the next draws) slides onto the line and
        drops its draw's dot there, the card nearest the map first."""
        line, deck = row[0], row[2][1][0]
        values = getattr(self.p, kind).values
        steps: list[Animation] = []
        for k, card in enumerate(reversed(deck), start=1):
            # the card slides off the stack to stand on its place on the line, then
            # folds into its dot there
            at = line.n2p(values[k])
            standing = card.copy().scale(DROPPED_CARD).move_to(at, DOWN)
            steps.append(TransformFromCopy(card, standing))
            steps.append(ReplacementTransform(standing, Dot(at, radius=DOT, color=colour)))
        return steps

    def _share_dot(self, row: VGroup, kind: str, colour) -> tuple[VGroup, Dot]:
        """The first draw's diagonal framed on its small map, and the dot on the number line
        where that draw's self share (the diagonal's mean) lies."""
        line, small = row[0], row[2][1][1]
        share = getattr(self.p, kind).values[0]
        return self._diagonal(small), Dot(line.n2p(share), radius=DOT, color=colour)

    def _draws(self, maps: VGroup) -> None:
        """The first draw's maps shrink to the left of their kind's histogram, the other draws
        stacked behind them; each first draw's diagonal, averaged, lands as one dot on its
        line, and the bars of all the draws grow there."""
        p = self.p
        plain_map, _, projected_map = maps
        # the plain row a strip (its draws all lie near 1); the projected row, whose share
        # wanders, the frame's lower half
        rows = VGroup(
            self._row(
                "plain",
                style.WITHOUT,
                plain_map[1],
                SMALL_MAP * PLAIN_STRIP,
                BAR_HEIGHT * PLAIN_STRIP,
            ),
            self._row(
                "projected", style.WITH, projected_map[1], SMALL_MAP, BAR_HEIGHT * PROJECTED_BARS
            ),
        ).arrange(DOWN, buff=style.SECTION_BUFF * 1.5, aligned_edge=RIGHT)
        # the two rows' bars are each scaled to their own tallest: each tallest bin's count
        # written by it, so that the two are read as the same 200 draws
        tallest0 = self._tallest(rows[0], "plain", style.WITHOUT, RIGHT)
        tallest1 = self._tallest(rows[1], "projected", style.WITH, UP)
        count = phrase("× {n}", style.LABEL_SIZE, n=self.number(f"{SRC}.draws", 0))
        count.next_to(rows[0][2][1], RIGHT, buff=style.ITEM_BUFF)
        (line0, bars0, _), (line1, bars1, slot1) = rows
        lowest = self.number(f"{SRC}.plain.min", 3)
        low_tick = Line(UP * 0.25, DOWN * 0.25, color=style.WITHOUT).move_to(line0.n2p(p.plain.min))
        plain_min = phrase(self.words["min_line"], style.SMALL_SIZE, style.WITHOUT, v=lowest)
        plain_min.next_to(bars0, LEFT, buff=style.ITEM_BUFF).align_to(bars0, UP)
        spread = {key: self.number(f"{SRC}.projected.{key}", 3) for key in ("min", "max", "mean")}
        lo, hi = (line1.n2p(getattr(p.projected, k)) for k in ("min", "max"))
        lift = UP * (BAR_HEIGHT * PROJECTED_BARS + style.GROUP_BUFF)
        span = VGroup(
            Line(lo + lift, hi + lift),
            *(Line(e + lift + UP * 0.12, e + lift + DOWN * 0.12) for e in (lo, hi)),
        ).set_stroke(style.WITH, width=3)
        proj = phrase(
            self.words["range_line"],
            style.SMALL_SIZE,
            style.WITH,
            lo=spread["min"],
            hi=spread["max"],
        )
        proj.next_to(span, RIGHT, buff=style.ITEM_BUFF)
        mean_at = line1.n2p(p.projected.mean)
        mean_tick = Line(mean_at + UP * 0.2, mean_at + DOWN * 0.2, color=style.WITH)
        mean_tick.set_stroke(width=5)
        mean = phrase(self.words["mean_line"], style.SMALL_SIZE, style.WITH, mean=spread["mean"])
        mean.next_to(line1, DOWN, buff=style.GROUP_BUFF).match_x(mean_tick)
        # a word's attention, 1 in all, as a bar from 0 to 1 under the projected line: split
        # evenly, its own part (lit) ends at 1/8; split as one row of the first draw, its
        # parts are uneven, its own part a little more or less
        split = self._split([p.uniform_share] * p.positions, line1, mean)
        uneven = self._split(p.example.projected[0], line1, mean)
        uniform_share = self.number(f"{SRC}.uniform_share", 3)
        even = phrase(self.words["even_line"], style.SMALL_SIZE, w=uniform_share)
        even.next_to(split, DOWN, buff=style.ITEM_BUFF).align_to(split, LEFT)
        # the uneven bar is one word of the first draw, not an average of the sets: said so
        one_word = style.text(self.words["one_word_line"], style.SMALL_SIZE)
        one_word.next_to(uneven, DOWN, buff=style.ITEM_BUFF).align_to(uneven, LEFT)
        small1 = slot1[1][1]
        extras = VGroup(count, plain_min, low_tick, span, proj, mean_tick, mean, split, even)
        style.place(VGroup(rows, extras, uneven, one_word, tallest0, tallest1), grow=HISTOGRAM_GROW)
        # the even split's own part ends here, at 1/8: where the mean's tick comes down to
        mark = Line(
            split.get_part(0).get_corner(UR), split.get_part(0).get_corner(DR), color=style.WITH
        ).set_stroke(width=5)
        frames0, dot0 = self._share_dot(rows[0], "plain", style.WITHOUT)
        frames1, dot1 = self._share_dot(rows[1], "projected", style.WITH)
        same = self._diagonal(small1)
        grids = [rows[0][2][1][1], small1]
        self.say(
            "draws",
            FadeOut(VGroup(plain_map[0], projected_map[0], self.leftover)),
            *(
                ReplacementTransform(m[1], g)
                for m, g in zip((plain_map, projected_map), grids, strict=True)
            ),
            FadeIn(VGroup(line0, line1, rows[0][2][0], slot1[0])),
            then=[[*(FadeIn(row[2][1][0], lag_ratio=0.3) for row in rows), FadeIn(count)]],
            beats={
                "never": [Succession(Create(frames0), ReplacementTransform(frames0, dot0))],
                # the other draws, stacked behind the map, land on the line as its bars
                "min": [
                    InTurn(
                        *self._deck_dots(rows[0], "plain", style.WITHOUT),
                        TransformFromCopy(rows[0][2][1][0], bars0),
                    ),
                    Create(low_tick),
                    FadeIn(plain_min),
                    FadeIn(tallest0),
                ],
            },
            draws=p.draws,
            min=lowest,
        )
        self.say(
            "draws_projected",
            Succession(Create(frames1), ReplacementTransform(frames1, dot1)),
            then=[
                [
                    InTurn(
                        *self._deck_dots(rows[1], "projected", style.WITH),
                        TransformFromCopy(slot1[1][0], bars1),
                    ),
                    Create(span),
                    FadeIn(proj),
                    FadeIn(tallest1),
                ]
            ],
            # the bars' copy gathers at their mean
            beats={"mean": [ReplacementTransform(bars1.copy(), mean_tick), FadeIn(mean)]},
            lo=spread["min"],
            hi=spread["max"],
            mean=spread["mean"],
        )
        (name0, (deck0, small0)) = rows[0][2]
        plain_side = VGroup(line0, bars0, name0, small0, dot0, low_tick, plain_min, count, tallest0)
        positions = self.number(f"{SRC}.positions", 0)  # the bar's pieces, counted
        # the first draw's eight self shares, each a tick on the line (scattered about 1/8),
        # and their mean, which is that draw's dot
        ticks = VGroup(
            *(
                Line(UP * SHARE_TICK, DOWN * SHARE_TICK, color=style.HIGHLIGHT)
                .set_stroke(width=4)
                .move_to(line1.n2p(p.example.projected[k][k]))
                for k in range(p.positions)
            )
        )
        gathered = dot1.copy().set_color(style.HIGHLIGHT)  # among the other draws' dots
        positions.next_to(uneven, RIGHT, buff=style.ITEM_BUFF)
        self.say(
            "even",
            Succession(
                Create(split, lag_ratio=0.1),
                # the mean's tick comes down onto the even split's first edge, at 1/8:
                # nearly the same place
                AnimationGroup(TransformFromCopy(mean_tick, mark), FadeIn(even)),
            ),
            beats={
                # the projected side alone: its diagonal no brighter than the rest; its
                # cells, one by one, onto the line at their own shares, on both sides of
                # 1/8; their mean is the draw's dot (the mean over all the draws is the
                # tick at 1/8)
                "same": [
                    plain_side.animate.set_opacity(style.DIMMED),
                    deck0.animate.set_stroke(opacity=style.DIMMED),  # outlines: no fill
                    Create(same),
                    InTurn(
                        LaggedStart(
                            *(
                                TransformFromCopy(small1.get_cell(k, k), tick, path_arc=-0.4)
                                for k, tick in enumerate(ticks)
                            ),
                            lag_ratio=0.3,
                        ),
                        TransformFromCopy(ticks, gathered, run_time=0.6),
                    ),
                ],
                # random scores: one row of the draw re-splits the bar unevenly (named as
                # one word of the first draw, in the even split's name's place); that
                # word's own tick, where its lit part ends, outlined
                "wobble": [
                    FadeOut(VGroup(*ticks[1:], gathered)),
                    Transform(split, uneven),
                    ReplacementTransform(even, one_word),
                    outline(ticks[0]),
                ],
                # its 8 cells land on the bar's 8 uneven pieces
                "few": [
                    FadeOut(same),
                    LaggedStart(
                        *(
                            TransformFromCopy(small1.get_cell(0, k), uneven.get_part(k).copy())
                            for k in range(p.positions)
                        ),
                        lag_ratio=0.1,
                    ),
                    FadeIn(positions),
                ],
            },
            w=uniform_share,
            n=positions,
            run_time=1.5,  # eight cells onto the line, then into their mean: not a flash
        )


class ScoreChart(VGroup):
    """One word's row of raw scores (x · x_j, before softmax) as bars on a zero line, its
    own score (the first) beside the others, on ``unit`` scene units per score point; named
    below (``own`` beside its own bar, ``others`` braced under the rest, which reaches down
    to ``floor``). :meth:`add_stats` adds a dashed level and a band of ± one spread about 0;
    :meth:`bars_for` draws another row's bars on the same line, at the chart's scale now."""

    def __init__(
        self, scores: list[float], unit: float, floor: float, own: str, others: str
    ) -> None:
        super().__init__()
        self.unit, self.count = unit, len(scores)
        width = self.count * (SCORE_BAR + SCORE_GAP) + SCORE_GAP
        self.zero = Line(ORIGIN, RIGHT * width, color=style.MUTED)
        self.bars = self.bars_for(scores)
        self.floor = floor * unit - style.ITEM_BUFF  # the names hang below the lowest bar
        self.names = self.names_for(own, others)
        self.add(self.zero, self.bars, self.names)

    def scale_now(self) -> float:
        """How much the chart has been scaled since it was built."""
        width = self.count * (SCORE_BAR + SCORE_GAP) + SCORE_GAP
        return self.zero.get_length() / width

    def bars_for(self, scores: list[float]) -> VGroup:
        """A row's bars on the zero line: the first (its own) bright, the rest muted."""
        s = self.scale_now()
        bars = VGroup()
        for k, score in enumerate(scores):
            bar = Rectangle(width=SCORE_BAR * s, height=max(abs(score) * self.unit * s, 0.02))
            colour = style.FOREGROUND if k == 0 else style.MUTED
            bar.set_stroke(width=0).set_fill(colour, opacity=0.9)
            at = self.zero.get_start() + RIGHT * s * (SCORE_GAP + k * (SCORE_BAR + SCORE_GAP))
            bars.add(bar.move_to(at, DL if score >= 0 else UL))
        return bars

    def names_for(self, own: str, others: str) -> VGroup:
        """``own`` beside the own bar, ``others`` braced under the rest (LaTeX)."""
        s = self.scale_now()
        name = MathTex(own, font_size=FORMULA_TEX).scale(s)
        name.next_to(self.bars[0], LEFT, buff=style.ITEM_BUFF * s)
        brace = Brace(VGroup(*self.bars[1:]), DOWN, buff=style.TIGHT_BUFF)
        brace.stretch_to_fit_height(brace.height * s).set_y(self.zero.get_y() + self.floor * s, UP)
        rest = MathTex(others, font_size=FORMULA_TEX).scale(s)
        rest.next_to(brace, DOWN, buff=style.TIGHT_BUFF * s)
        return VGroup(name, brace, rest)

    def add_stats(self, level: float, spread: float, level_label: Mobject, band: Mobject) -> None:
        """A dashed level at ``level`` and a band of ± ``spread`` about 0, each labelled."""
        self.level = DashedLine(self.zero.get_start(), self.zero.get_end(), color=style.FOREGROUND)
        self.level.shift(UP * level * self.unit)
        self.level_label = level_label.next_to(self.level, RIGHT, buff=style.ITEM_BUFF)
        self.band = Rectangle(width=self.zero.get_length(), height=2 * spread * self.unit)
        self.band.move_to(self.zero)
        self.band.set_stroke(width=0).set_fill(style.MUTED, opacity=0.25).set_z_index(-1)
        self.band_label = band.next_to(self.band, RIGHT, buff=style.ITEM_BUFF)
        self.add(self.band, self.level, self.level_label, self.band_label)


# --- the office and its search results, and the picture the chapter ends on -------------
# (sqrt_d opens on it)
@dataclass
class OfficeStage:
    """The office of the analogy, placed at the left (:func:`office_stage`), and where its
    arrows stand: the asker's Query from the room's centre, his Key to where he stands."""

    room: OfficeRoom  # the people at their Keys, holding their Values (days)
    asker: int  # the engineer, who asks (the office's question; its top weight: the accountant)
    centre: np.ndarray  # the room's centre, where both arrows start
    at: np.ndarray  # where the asker stands: his Key's tip
    panel_left: float  # where the panel beside the room begins

    def aim(self, query) -> Arrow:
        """The asker's Query ``query`` (a 2-D vector of the office's) as an arrow."""
        end = self.centre + self.room.offset(query, QUERY_UNIT)
        return Arrow(self.centre, end, buff=0, color=style.QUERY, stroke_width=6)

    def key(self) -> Arrow:
        """The asker's Key: an arrow from the room's centre to where he stands."""
        return Arrow(self.centre, self.at, buff=0, color=style.KEY, stroke_width=6)

    def angle(self, query: Arrow) -> Angle:
        """The angle between the Query ``query`` and the Key: two different directions."""
        return Angle(
            Line(self.centre, query.get_end()),
            Line(self.centre, self.at),
            radius=0.5,
            color=style.HIGHLIGHT,
        )


def office_stage(scene: LectureScene) -> OfficeStage:
    """The office (the office chapter's people, keys and values, in its words) at the left,
    a little under the full height, so the panel beside it is wide."""
    o = scene.data.office
    office_words = scene.shared("office")
    room = OfficeRoom([office_words[p] for p in o.people], o.keys, o.values, office_words["days"])
    style.place(room, LEFT)
    room.scale(ROOM_SHARE, about_edge=LEFT)
    asker = o.people.index("engineer")
    return OfficeStage(
        room=room,
        asker=asker,
        centre=room.room.get_center(),
        at=room.people[asker][0].get_center(),
        panel_left=room.get_right()[0] + style.GROUP_BUFF,
    )


def matrix_name(name: str, colour, arrow: Arrow) -> MathTex:
    """The matrix that makes ``arrow``, named beside its middle, below it."""
    return MathTex(name, font_size=40, color=colour).next_to(arrow.get_center(), DOWN + LEFT)


@dataclass
class SearchResults:
    """The people as search results, placed in the panel (:func:`search_results`)."""

    offer: VMobject  # 我能提供什麼（Value）, heading the panel
    cards: VGroup  # one per person: a title strip (name: Key) over a body (days: Value)
    labels: VGroup  # 標題：Key and 內文：Value, beside the found card's two parts
    lines: VGroup  # from the Query's tip to each title, as thick as each weight
    lit: VMobject  # the found title, lit
    back: VMobject  # the found body's days, on its card
    read: VGroup  # the same days beside the asker's dot, where they travel back to, framed


def search_results(scene: LectureScene, stage: OfficeStage, tip) -> SearchResults:
    """The office's people as result cards at the right of the panel, under the Value's
    words, the asker's Query (its tip at ``tip``) lined up against their titles by the
    office's last weights (in projection's words, whichever scene builds them)."""
    o = scene.data.office
    words = scene.shared(WhyProject.scene_key)
    room, panel_left = stage.room, stage.panel_left
    _, bottom, right, top = style.content_area()
    weights = o.grow[-1].weights
    asked = top_index(weights)
    offer = style.text(words["value_label"], style.BODY_SIZE, style.VALUE)
    offer.move_to([panel_left, top, 0], UL)  # where the panel's header stood
    cards = VGroup()
    for person in room.people:
        # copies at full strength (in projection the others are dimmed when they are made)
        name, held = person[1].copy().set_opacity(1), person[2].copy().set_opacity(1)
        strip = Rectangle(width=CARD_WIDTH, height=CARD_ROW).set_stroke(style.KEY, width=2)
        body = Rectangle(width=CARD_WIDTH, height=CARD_ROW).set_stroke(style.VALUE, width=2)
        VGroup(strip, body).arrange(DOWN, buff=0)
        for part, frame in ((name, strip), (held, body)):
            part.scale(min(1.0, (CARD_WIDTH - style.ITEM_BUFF) / part.width))
            part.scale(min(1.0, CARD_ROW * 0.8 / part.height)).move_to(frame)
        cards.add(VGroup(VGroup(strip, name), VGroup(body, held)))
    cards.arrange(DOWN, buff=style.ITEM_BUFF)
    labels = VGroup(
        style.text(words["search_key"], style.SMALL_SIZE, style.KEY),
        style.text(words["search_value"], style.SMALL_SIZE, style.VALUE),
    ).arrange(DOWN, aligned_edge=LEFT, buff=style.HUG_BUFF)
    stack = VGroup(cards, labels).arrange(RIGHT, buff=style.ITEM_BUFF)
    room_for = right - panel_left - CARD_GAP
    below = offer.get_bottom()[1] - style.ITEM_BUFF  # under the Value's words
    stack.scale(min(1.0, room_for / stack.width, (below - bottom) / stack.height))
    stack.move_to([right, below, 0], UP + RIGHT)
    found = cards[asked]
    for label, part in zip(labels, found, strict=True):  # beside the found card's parts
        label.next_to(part, RIGHT, buff=style.ITEM_BUFF)
    # the lines fan out from the room's wall, on the tip's level, past the names by the tip;
    # a stem joins them to the tip
    fan = np.array([room.room.get_right()[0], tip[1], 0.0])
    lines = VGroup(
        Line(tip, fan, color=style.QUERY).set_stroke(width=4),
        *(
            Line(fan, card[0].get_left(), color=style.QUERY).set_stroke(
                width=1 + 8 * w, opacity=0.3 + 0.7 * w
            )
            for card, w in zip(cards, weights, strict=True)
        ),
    )
    lit = found[0][0].copy().set_fill(style.KEY, opacity=0.45)
    back = found[1][1].copy()  # the found days, carried to the asker
    # what attention returns is not one Value but the weighted sum of all of them (the
    # office chapter's output), in the result's colour; parked beside the asker's dot, on
    # the side away from the room's centre (the Key's arrow comes from there), clear of his
    # name and his own days
    output = scene.number(f"office.grow[{len(o.grow) - 1}].output", 2)
    days = phrase(scene.shared("office")["days"], style.SMALL_SIZE, style.RESULT, n=output)
    days.scale(back.height / days.height)
    read = VGroup(days, SurroundingRectangle(days, color=style.RESULT, buff=style.HUG_BUFF))
    park(read, room, stage)
    return SearchResults(offer, cards, labels, lines, lit, back, read)


def park(read: VGroup, room: OfficeRoom, stage: OfficeStage) -> None:
    """Set ``read`` beside the asker's dot, on the side away from the room's centre (the
    Key's arrow comes from there), clear of his name and his own days and inside the walls;
    where the words are too long for that, above his name."""
    dot, name, held = room.people[stage.asker]
    side = RIGHT if dot.get_x() > stage.centre[0] else LEFT
    below_name = name.get_bottom()[1] - style.HUG_BUFF

    def beside() -> None:
        read.next_to(dot, side, buff=style.ITEM_BUFF)
        read.shift(DOWN * max(0.0, read.get_top()[1] - below_name))

    def clear() -> bool:
        inside = room.room.get_left()[0] < read.get_left()[0]
        inside = inside and read.get_right()[0] < room.room.get_right()[0]
        gap = style.HUG_BUFF  # room between it and his words, not a touch
        return inside and not any(
            read.get_left()[0] - gap < m.get_right()[0]
            and m.get_left()[0] < read.get_right()[0] + gap
            and read.get_bottom()[1] - gap < m.get_top()[1]
            and m.get_bottom()[1] < read.get_top()[1] + gap
            for m in (name, held)
        )

    beside()
    if not clear():
        read.next_to(name, UP, buff=style.HUG_BUFF)


@seam_builder
def office_search(scene: LectureScene) -> VGroup:
    """projection's last picture, sqrt_d's first: the office at the left, the engineer's
    Query (trained: long, towards the accountant) and his Key (W_K under it) with the angle
    between them, the office's output (the weighted sum of the Values) read back beside
    him, framed in the result's colour; at the right the five result cards under "what I
    can offer (Value)", the Query's lines to their titles, the accountant's title lit,
    "title: Key" and "body: Value" beside his card. The office with its arrows, the output
    read back, the results."""
    stage = office_stage(scene)
    query = stage.aim(scene.data.office.grow[-1].query)
    key = stage.key()
    arrows = VGroup(query, key, matrix_name("W_K", style.KEY, key), stage.angle(query))
    found = search_results(scene, stage, query.get_end())
    results = VGroup(found.offer, found.cards, found.lines, found.lit, found.labels)
    return VGroup(stage.room, arrows, found.read, results)
