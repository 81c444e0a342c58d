"""Zoom out (seed 002): where one head sits in a Transformer, and where Transformers are used.

The it/cat head shrinks into one of several heads; positional encoding below, the
feed-forward network above, residual connections and normalisation around both, N layers,
the next token's probabilities on top; training learns the projections. Then four uses, in
the seed's careful wording.
Render alone with ``manim -ql scenes/chapters/zoom_out.py ZoomOut``.
"""

from __future__ import annotations

import re

import numpy as np
from manim import (
    DOWN,
    LEFT,
    PI,
    RIGHT,
    UP,
    AnimationGroup,
    ApplyFunction,
    ApplyMethod,
    ArcBetweenPoints,
    Arrow,
    Brace,
    Circle,
    Create,
    CurvedArrow,
    DashedVMobject,
    Dot,
    FadeIn,
    FadeOut,
    FadeTransform,
    GrowArrow,
    GrowFromCenter,
    LaggedStart,
    LaggedStartMap,
    Line,
    MathTex,
    MoveAlongPath,
    MoveToTarget,
    Polygon,
    Rectangle,
    ReplacementTransform,
    RoundedRectangle,
    Square,
    Succession,
    SurroundingRectangle,
    Text,
    Transform,
    TransformFromCopy,
    VGroup,
    VMobject,
    config,
    smooth,
    squish_rate_func,
    there_and_back,
)

from scenes.chapters.multihead import slice_strip
from scenes.kit import style
from scenes.kit.base import LectureScene, top_index
from scenes.kit.diagrams import TransformerLayers
from scenes.kit.emphasis import outline
from scenes.kit.labels import WordBoxes
from scenes.kit.maps import AttentionGrid
from scenes.kit.numbers import ColumnSum, ColumnTops, Length, Sum, phrase, sum_sign
from scenes.kit.seams import seam, seam_builder
from scenes.kit.turns import InTurn

IT_CAT = "tokens.it_cat.scaled.weights"
LINKS_TIME = 5.5  # seconds for the far pairs to be linked, the chain to fold, the ≠ drawn
LINKS_SHARE = 0.3  # of which the links take this share,
FOLD_SHARE = 0.3  # the fold this share, and the text map set beside the table (pairs
# attending to pairs there, a token to tokens here) the rest
LINK_DASHES = 8  # dashes of a link, the same on the straight chain and the folded one
USES = ("use_gpt", "use_translation", "use_code", "use_alphafold")  # the panels' captions
CODE_TOKENS = ("for", " word", " in", " sentence", ":")  # a line of code, as tokens
CODE_LOOKER, CODE_CONTEXT = 3, (0, 1)  # " sentence" looks back at "for" and " word" (causal)
RESIDUES = 10  # beads on the protein chain
BEAD = 0.09  # a residue's radius
BEAD_STEP = 2 * BEAD + style.GROUP_BUFF  # from one residue to the next along the chain
PAIR_CELL = 0.2  # a cell of the residue-by-residue table
PROTEIN_LINKS = ((1, 8), (2, 7), (3, 6))  # far apart along the chain; attended before the fold
THUMB_LINES = 3  # the thumbnail of the block, as tall as this many lines of the heading
SMALL_VECTORS = 0.8  # the positions' columns inside the block, this share of a box's height
RESIDUAL_X, RESIDUAL_FX = (2.0, 0.4), (-0.6, 1.4)  # a step's input and output (schematic)
NORM_LENGTH = 1.2  # the circle the normalised sum is drawn on (schematic: LayerNorm centres,
# divides by the spread, then scales by γ and shifts by β, so no one length is claimed)
# what training learns, named as each part lights: the embeddings, each head's projections,
# W_O, the feed-forward network's two matrices and biases, the norms' gain and bias, the readout
TRAINED = (
    r"E",
    r"W_Q,\ W_K,\ W_V",
    r"W_O",
    r"W_1,\ b_1,\ W_2,\ b_2",
    r"\gamma,\ \beta",
    r"W_{\mathrm{out}}",
)
BIASED = (1, 2)  # attention's rows: their biases named after them
PER_LAYER = slice(1, 5)  # the rows every layer has its own of (× N); E and W_out once
TIED = 5  # the readout's row: often E transposed
OPENING_TIME = 2.2  # seconds multihead's layer takes to give way to one head
STRIP_HEIGHT = 0.3  # its strip of heads beside the map: slice 1 seen lit
PULL_TIME = 2.0  # seconds the pull-back takes, over "several heads side by side"
PULL_SHARE = 0.85  # of which the map's numbers shrink with it this share, then fade
FIRST = 0.15  # and the reading's words in the right half fade out in this first share
ASIDE = 0.85  # the block's size while the side panel tells why attention is parallel
MAX_ZOOM = 1.6  # the block told alone (the heads) is drawn at most this much larger
MAX_FOCUS = 2.5  # a use told alone is drawn at most this much larger than its quarter
# the readout's bars: illustrative heights, made up (the data file has no next-token
# probabilities; the caption says so), the sentence's own next word tallest
BAR_SHARES = (1.0, 0.45, 0.25, 0.15)
BAR_HEIGHT, BAR_WIDTH = 2.4, 0.6  # the tallest bar, and each bar's width (then fit to the panel)
TILE = 1.1  # side of one head's tile in the block
PE_COLUMNS = 8  # the positional table's fastest columns, drawn beside the words
SIDE_CELL = 0.3  # a cell of a picture in the side panel (the table, the causal map)
VECTOR_CELL = 0.3  # one entry of a position's vector, in the side panel's columns
MATMUL_CELL = 0.2  # a cell of Q, Kᵀ and their product in the side panel
MAP_CELL = 0.6  # the learned map's cell, as caveat reads it: the map fills the height


class ZoomOut(LectureScene):
    """One head → multi-head → a block with its neighbours → N layers; then its uses.

    Variants override :attr:`heads` (how many heads the block is drawn with).
    """

    scene_key = "zoom_out"
    reads = (
        "tokens.it_cat",
        "multihead.four",
        "multihead.bookkeeping",
        "positional",
        "causal",
        "examples.mixed",
    )
    tables = ("multihead",)  # its first picture's words
    opens_on = slice_strip.__name__
    ends_on = "mixed_map"  # its last picture, caveat's first (built at the module's end)
    heads = 4

    def construct(self) -> None:
        self.title = self.make_title()
        self._block()
        self._uses()
        self._back()

    def _column(self, head: AttentionGrid, row_total: VGroup, col_total: VGroup) -> None:
        """Read a column of the map: the words that look hardest at the referent, and what
        the row and the column add up to, each added from its own numbers (a row's sum is
        1; a column's is not)."""
        it = self.data.it_cat
        col, q = it.referent, it.query_index
        n = len(it.tokens)
        # the map goes to the left half (everything read off it is built there, then it comes
        # back to be carried there on the line's start)
        map_place, label_place = self.reading_place
        shift = map_place - head.get_center()
        moving = VGroup(head, self.ours_big)
        moving.shift(shift)
        lookers = [i for i, row in enumerate(it.scaled.weights) if top_index(row) == col]
        frames = VGroup(
            *(
                SurroundingRectangle(head.get_cell(i, col), color=style.HIGHLIGHT, buff=0)
                for i in lookers
            )
        )
        row = VGroup(*(head.get_cell(q, j) for j in range(n)))
        column = VGroup(*(head.get_cell(i, col) for i in range(n)))
        row_frame = SurroundingRectangle(row, color=style.HIGHLIGHT, buff=style.TIGHT_BUFF)
        col_frame = SurroundingRectangle(column, color=style.HIGHLIGHT, buff=style.TIGHT_BUFF)
        row_numbers = VGroup(*(head.get_number(q, j) for j in range(n)))
        col_numbers = VGroup(*(head.get_number(i, col) for i in range(n)))
        target = head.row_headers[col]  # the referent's own header, where the lookers' rows start
        converge = VGroup(
            *(
                CurvedArrow(
                    head.row_headers[i].get_left() + LEFT * style.TIGHT_BUFF,
                    target.get_left() + LEFT * style.TIGHT_BUFF,
                    angle=-PI / 2,
                    color=style.HIGHLIGHT,
                    stroke_width=3,
                    tip_length=0.15,
                )
                for i in lookers
            )
        )
        rest = VGroup(
            *(
                part
                for i in range(n)
                for j in range(n)
                if j != col
                for part in (head.get_cell(i, j), head.get_number(i, j))
            )
        )
        unlooked = VGroup(  # the column's cells whose row looks hardest elsewhere
            *(
                part
                for i in range(n)
                if i not in lookers
                for part in (head.get_cell(i, col), head.get_number(i, col))
            )
        )
        back = VGroup(*rest)  # its own target: two pending .animate on one group share one
        counted = VGroup(  # each looker's brightest cell, carried out with its word
            *(
                VGroup(
                    head.row_headers[i].copy(),
                    VGroup(head.get_cell(i, col), head.get_number(i, col)).copy(),
                ).arrange(RIGHT, buff=style.HUG_BUFF)
                for i in lookers
            )
        ).arrange(DOWN, buff=style.ITEM_BUFF, aligned_edge=RIGHT)
        counted.move_to(self.reading)  # under 一個 head, at the map's cell size
        sources = VGroup(
            *(
                VGroup(head.row_headers[i], head.get_cell(i, col), head.get_number(i, col))
                for i in lookers
            )
        )
        dim = rest.animate.set_opacity(style.DIMMED)  # one column read: the others recede
        beats = {
            "brightest": [
                Create(frames, lag_ratio=0.3),
                unlooked.animate.set_opacity(style.DIMMED),
            ],
            "count": [TransformFromCopy(sources, counted, lag_ratio=0.2)],
            "many": [LaggedStartMap(Create, converge, lag_ratio=0.25)],
            "sum": [
                FadeOut(counted),
                FadeOut(frames),
                VGroup(*unlooked).animate.set_opacity(1),  # its own target
                FadeOut(converge),
                back.animate.set_opacity(1),
                Create(row_frame),
                *self._summed(head.row_headers[q], row_numbers, row_total),
            ],
            "colsum": [
                FadeOut(row_frame),
                Create(col_frame),
                *self._summed(head.col_headers[col], col_numbers, col_total),
            ],
        }  # built with the map where they play
        moving.shift(-shift)
        self.say(
            "column",
            ApplyMethod(moving.shift, shift),  # the map to the left half, the stage to its right
            FadeOut(self.from_layer),  # the layer's strip and the note have had their say
            self.head_label.animate.move_to(label_place),
            then=[[dim]],
            beats=beats,
            lookers=self.all_of([it.tokens[i] for i in lookers]),
            n=self.number(ColumnTops(IT_CAT, col), 0),
            column_sum=col_total.total,
        )
        self.column_left = col_frame  # shrinks as the camera pulls back
        self.totals = VGroup(row_total, col_total)  # go first: the other heads land there

    def _from_layer(self, head: VMobject, head_label: VMobject) -> tuple[InTurn, VMobject]:
        """Multihead's last picture (the seam, on screen at once) gives way to one head: all
        but Q's slices go, slice 1 stays lit; the strip travels to the map's right, under
        「一層的 32 個 head」; then the it/cat map comes with 一個 head at its top right and, right
        under that label, the note that the map is a hand-set example, not a head of that model
        (nothing links the strip to the map: no part of that model computes it).
        Returns the turn (its objects are kept in :attr:`from_layer`, to go when the column is
        read) and the note."""
        layer = seam(self, self.opens_on)
        self.add(layer)
        q, lit = layer.q, layer.lit
        strip = VGroup(q, lit[0])
        q_group = layer[2]  # Q, its lit slices, its name, W_Q's arrow and name
        rest = [*layer[:2], *(m for m in q_group if m not in (q, lit)), *layer[3:]]
        right = style.content_area()[2]
        room = right - head_label.get_left()[0]
        target = strip.copy()
        for k in range(1, len(target[0])):
            target[0][k].set_fill(style.QUERY, 0.7)
        target.scale_to_fit_width(room).stretch_to_fit_height(STRIP_HEIGHT)
        line = phrase(
            self.words["layer_heads"],
            style.SMALL_SIZE,
            style.MUTED,
            heads=self.number("multihead.bookkeeping.heads", 0),
        )
        line.scale(min(1.0, room / line.width))
        # top to bottom at the map's right: 一個 head where it stands, the note that the map is
        # not a head of that model, then the layer's heads and their strip
        note = _lines(self.words["stand_in"], style.LABEL_SIZE)
        note.arrange(DOWN, buff=style.HUG_BUFF, aligned_edge=LEFT)
        note.scale(min(1.0, room / note.width))
        note.next_to(head_label, DOWN, buff=style.ITEM_BUFF).align_to(head_label, LEFT)
        line.next_to(note, DOWN, buff=style.GROUP_BUFF).align_to(head_label, LEFT)
        target.next_to(line, DOWN, buff=style.ITEM_BUFF).align_to(line, LEFT)
        self.from_layer = VGroup(strip, line, note)
        opening = InTurn(
            AnimationGroup(
                *(FadeOut(m) for m in rest),
                FadeOut(lit[1]),
                ApplyMethod(q[1].set_fill, style.QUERY, 0.7),  # slice 2 like the rest
                run_time=0.6,
            ),
            AnimationGroup(Transform(strip, target), FadeIn(line), run_time=0.8),
            AnimationGroup(FadeIn(head), FadeIn(head_label), FadeIn(note), run_time=0.8),
        )
        return opening, note

    def _fill(self, picture: VMobject, room: float = 0.0) -> VMobject:
        """``picture`` drawn as large as the side panel allows (at most :data:`MAX_ZOOM` times,
        leaving ``room`` under it), in its middle."""
        stage = self.stage
        height = stage.height - room
        picture.scale(min(MAX_ZOOM, stage.width / picture.width, height / picture.height))
        return picture.move_to(stage)

    @staticmethod
    def _summed(header: VMobject, numbers: VGroup, total: VGroup) -> list:
        """A row's or a column's numbers carried into its large total, its word with them."""
        return [
            TransformFromCopy(header, total.word),
            FadeIn(total[1]),
            TransformFromCopy(numbers, total.total),
        ]

    def _box(self, key: str, width: float) -> VGroup:
        box = RoundedRectangle(corner_radius=0.1, width=width, height=0.6).set_stroke(
            style.MUTED, 2
        )
        return VGroup(box, style.text(self.template(key), style.LABEL_SIZE).move_to(box))

    def _totals(self, head: AttentionGrid, stage: VMobject) -> tuple[VGroup, VGroup]:
        """The query row's total and the referent column's, large, one under the other in the
        right half (``stage``: the column's reading area, under 一個 head), each led by its
        direction and word (「it」這一列 / 「cat」這一欄; the word carried there from the map's
        header), its sign "=" only where the numbers as the map shows them add up to it."""
        it = self.data.it_cat
        q, col = it.query_index, it.referent
        weights = it.scaled.weights
        size = style.SYMBOL_SIZE / style.MATH_SCALE  # the words and digits as tall as the Σ
        decimals = 2  # as the map shows its numbers

        def total(key: str, terms: list[float], number: VMobject) -> VGroup:
            word = style.text(self.template(key), size)
            sign = {"=": "=", "≈": r"\approx"}[sum_sign(terms, sum(terms), decimals)]
            sigma = MathTex(rf"\Sigma {sign}", color=style.HIGHLIGHT, font_size=style.SYMBOL_SIZE)
            group = VGroup(word, sigma, number).arrange(RIGHT, buff=style.ITEM_BUFF)
            group.word, group.total = word, number
            return group

        row_sum = self.number(Sum(f"{IT_CAT}[{q}]"), decimals, size, style.HIGHLIGHT)
        col_sum = self.number(ColumnSum(IT_CAT, col), decimals, size, style.HIGHLIGHT)
        row_total = total("row_total", list(weights[q]), row_sum)
        col_total = total("column_total", [row[col] for row in weights], col_sum)
        both = VGroup(row_total, col_total).arrange(
            DOWN, buff=style.SECTION_BUFF, aligned_edge=LEFT
        )
        both.scale(min(1.0, stage.width / both.width)).move_to(stage)
        return row_total, col_total

    def _other_heads(self) -> VGroup:
        """The heads trained on the colour-average task (multihead's four), but the first."""
        maps = self.data.four_heads.maps
        return VGroup(
            *(
                AttentionGrid(
                    maps[h],
                    f"multihead.four.maps[{h}]",
                    cell_size=TILE / len(maps[h]),
                    show_numbers=False,
                )
                for h in range(1, min(self.heads, len(maps)))
            )
        )

    def _strips(self, tokens: list[str]) -> VGroup:
        """Two rows of the sentence's tokens: an RNN reads them in turn, attention at once."""
        strips = VGroup()
        for key in ("rnn", "all_at_once"):
            boxes = WordBoxes(tokens, style.SMALL_SIZE)
            name = style.text(self.words[key], style.LABEL_SIZE, style.MUTED)
            strips.add(VGroup(name, boxes).arrange(DOWN, buff=style.ITEM_BUFF))
        return strips.arrange(DOWN, buff=style.SECTION_BUFF)

    def _sizes(self) -> VGroup:
        """The positions going into a layer (below) and coming out (above): as many columns,
        as tall, with braces naming the count (positions) and the width (d_model)."""
        vec_in, vec_out = self._vectors(), self._vectors()
        braces = VGroup(Brace(vec_in, DOWN), Brace(vec_in[0], LEFT))
        names = VGroup(
            style.text(self.words["positions"], style.LABEL_SIZE).next_to(
                braces[0], DOWN, buff=style.HUG_BUFF
            ),
            MathTex(r"d_{\mathrm{model}}").next_to(braces[1], LEFT, buff=style.HUG_BUFF),
        )
        below = VGroup(vec_in, braces, names)
        above = VGroup(vec_out, braces.copy(), names.copy())
        group = VGroup(above, below).arrange(DOWN, buff=style.SECTION_BUFF, aligned_edge=RIGHT)
        group.vec_in, group.vec_out, group.below, group.above = vec_in, vec_out, below, above
        return group

    def _vectors(self) -> VGroup:
        """The sentence's positions as a layer takes them in and gives them back: a column of
        d_model entries each (as many positions, as wide). d_model is a layer's width, all its
        heads' widths together (the four heads' layer: ``multihead.four.width``), not one
        head's Q/K width (``tokens.it_cat.d``)."""
        it = self.data.it_cat
        return VGroup(
            *(
                VGroup(
                    *(
                        Square(VECTOR_CELL)
                        .set_stroke(style.MUTED, 1)
                        .set_fill(style.PLAIN_CELL, opacity=1)
                        for _ in range(self.data.four_heads.width)
                    )
                ).arrange(DOWN, buff=0)
                for _ in it.tokens
            )
        ).arrange(RIGHT, buff=style.TIGHT_BUFF)

    def _matmul(self) -> VGroup:
        """Q (a row per position) times Kᵀ (a column per position), scaled: every score of
        the sentence's table in one product, laid out row by column."""
        it = self.data.it_cat
        qk = [x for m in (it.q, it.k) for row in m for x in row]
        span = (min(qk), max(qk))
        scores = it.scaled.scores
        q = AttentionGrid(
            it.q, "tokens.it_cat.q", cell_size=MATMUL_CELL, show_numbers=False, value_range=span
        )
        kt = AttentionGrid(
            [list(c) for c in zip(*it.k, strict=True)],
            "tokens.it_cat.k",
            cell_size=MATMUL_CELL,
            show_numbers=False,
            value_range=span,
        )
        product = AttentionGrid(
            scores,
            "tokens.it_cat.scaled.scores",
            cell_size=MATMUL_CELL,
            show_numbers=False,
            value_range=(min(map(min, scores)), max(map(max, scores))),
        )
        kt.next_to(product, UP, buff=style.HUG_BUFF)
        q.next_to(product, LEFT, buff=style.HUG_BUFF)
        name = MathTex(r"QK^\top / \sqrt{d}").scale(0.7).next_to(product, DOWN, style.ITEM_BUFF)
        group = VGroup(q, kt, product, name)
        group.q, group.kt, group.product, group.name = q, kt, product, name
        return group

    def _pe_table(self) -> AttentionGrid:
        """The positional table's fastest columns, a row beside each word of the sentence."""
        it = self.data.it_cat
        wide = self.data.positional.wide
        return AttentionGrid(
            [row[:PE_COLUMNS] for row in wide[: len(it.tokens)]],
            "positional.wide",
            row_headers=[style.text(t, style.SMALL_SIZE) for t in it.tokens],
            cell_size=SIDE_CELL,
            show_numbers=False,
            value_range=(-1.0, 1.0),
        )

    def _causal_map(self) -> VGroup:
        """The map the causal chapter trained under the mask, its masked triangle outlined."""
        weights = self.data.causal.attention
        grid = AttentionGrid(weights, "causal.attention", cell_size=SIDE_CELL, show_numbers=False)
        n = grid.n_rows
        c = grid.get_cell(0, 0).width
        x0, y0 = grid.cells.get_corner(UP + LEFT)[:2]
        corners = [(x0 + c, y0), (x0 + n * c, y0), (x0 + n * c, y0 - (n - 1) * c)]
        for k in range(n - 1, 0, -1):  # the staircase along the diagonal, back to the top
            corners += [(x0 + k * c, y0 - k * c), (x0 + k * c, y0 - (k - 1) * c)]
        mask = Polygon(*([x, y, 0] for x, y in corners[:-1])).set_stroke(style.HIGHLIGHT, 3)
        caption = style.text(self.words["causal_map"], style.LABEL_SIZE, style.MUTED)
        caption.next_to(grid, DOWN, buff=style.ITEM_BUFF)
        group = VGroup(grid, caption, mask)  # the mask moves with the map, drawn on its beat
        group.grid, group.mask, group.caption = grid, mask, caption
        return group

    def _added(self) -> VGroup:
        """A step's input x, its output f(x) drawn from x's tip, their sum; and a circle the
        normalised sum LN(x + f(x)) is drawn on (schematic, captioned so: LayerNorm centres the
        sum, divides by its spread, then applies γ and β; no numbers)."""
        x_end = np.array([*RESIDUAL_X, 0.0])
        fx_end = x_end + np.array([*RESIDUAL_FX, 0.0])
        start = np.zeros(3)

        def arrow(a, b, colour, tex, side):
            line = Arrow(a, b, buff=0, color=colour)
            return VGroup(line, MathTex(tex, color=colour).next_to(line, side, style.HUG_BUFF))

        x = arrow(start, x_end, style.FOREGROUND, "x", DOWN)
        fx = arrow(x_end, fx_end, style.MUTED, "f(x)", RIGHT)
        total = arrow(start, fx_end, style.HIGHLIGHT, "x + f(x)", LEFT)
        radius = NORM_LENGTH
        circle = DashedVMobject(Circle(radius=radius).move_to(start)).set_stroke(style.MUTED, 2)
        normed = Arrow(start, fx_end * radius / np.linalg.norm(fx_end), buff=0)
        normed.set_color(style.HIGHLIGHT)
        ln = MathTex(r"\mathrm{LN}(x + f(x))", color=style.HIGHLIGHT)
        ln.next_to(normed, LEFT, style.HUG_BUFF)
        group = VGroup(x, fx, total, circle, normed, ln)
        group.x, group.fx, group.total, group.circle, group.normed = x, fx, total, circle, normed
        group.ln = ln  # normed and ln: the shapes the sum's arrow and its label take
        group.shown = VGroup(x, fx)  # what is left once pre-norm takes the normed sum away
        return group

    def _bend(self) -> VGroup:
        """A straight line bent at 0: a linear step, then a non-linear one (max(0, x))."""
        axes = style.muted_axes([-1, 1, 1], [-1, 1, 1], 2.4, 2.4)
        straight = Line(axes.c2p(-1, -1), axes.c2p(1, 1)).set_stroke(style.FOREGROUND, 4)
        group = VGroup(axes, straight)
        group.axes, group.straight = axes, straight
        return group

    def _pieces(self) -> VGroup:
        """A word, and the same word as two tokens (the locale's example pieces)."""
        parts = self.words["token_pieces"].split()
        whole = WordBoxes(["".join(parts)], style.TITLE_SIZE)
        cut = WordBoxes(parts, style.TITLE_SIZE).arrange(RIGHT, buff=style.ITEM_BUFF)
        return VGroup(whole, cut.move_to(whole))

    def _block(self) -> None:
        it = self.data.it_cat
        n = len(it.tokens)
        head = AttentionGrid(
            it.scaled.weights,
            IT_CAT,
            row_headers=[style.text(t, style.SMALL_SIZE) for t in it.tokens],
            col_headers=[style.text(t, style.SMALL_SIZE) for t in it.tokens],
            cell_size=0.72,  # room for the widest word ("scared") as a column header
        )
        style.place(head)  # as tall as the area allows
        left, bottom, right, top = style.content_area()
        # where the column is read: the map in the left half, the reading's stage right of it
        head.shift(RIGHT * (left + style.WIDE_BUFF - head.get_left()[0]))  # room for the arrows
        x0 = head.get_right()[0] + style.WIDE_BUFF
        head_label = style.text(self.words["head"], style.BODY_SIZE)
        head_label.move_to([(x0 + right) / 2, top - head_label.height / 2, 0.0])
        stage = Rectangle(width=right - x0, height=head_label.get_bottom()[1] - bottom)
        stage.next_to(head_label, DOWN, buff=0)  # never shown: the area under 一個 head
        self.reading = stage
        row_total, col_total = self._totals(head, stage)
        self.head_label = head_label  # the column's counted cells go under it
        # the head told alone first: centred, 一個 head beside it; the column's reading moves it
        self.reading_place = (head.get_center(), head_label.get_center())
        head.move_to([(left + right) / 2, head.get_center()[1], 0.0])
        head_label.next_to(head, RIGHT, buff=style.WIDE_BUFF, aligned_edge=UP)
        ours = SurroundingRectangle(head.cells, color=style.HIGHLIGHT, buff=style.TIGHT_BUFF)
        self.ours_big = ours  # framed from "where it sits" until training
        self.add(self.title)  # the title at once: no frame is only a title being written
        opening, note = self._from_layer(head, head_label)
        self.say(
            "intro",
            opening,
            beats={
                "sentence": [outline(head.row_headers)],
                # the hand-set map, and the words saying so, together (the cue is short)
                "hand": [outline(head.cells), outline(note)],
                "where": [Create(ours), outline(head_label)],  # our head, followed to its place
            },
            run_time=OPENING_TIME,  # the layer gives way to one head, step by step
        )
        self._column(head, row_total, col_total)

        tile = AttentionGrid(it.scaled.weights, IT_CAT, cell_size=TILE / n, show_numbers=False)
        others = self._other_heads()
        tiles = VGroup(tile, *others).arrange(RIGHT, buff=style.ITEM_BUFF)
        others_label = VGroup(  # their maps are 8 × 8: another input's positions, not ours
            style.text(self.words["others"], style.LABEL_SIZE, style.MUTED),
            phrase(
                self.words["others_positions"],
                style.LABEL_SIZE,
                style.MUTED,
                n=self.number(Length("multihead.four.colours"), 0),
            ),
        ).arrange(DOWN, buff=style.HUG_BUFF)
        others_label.next_to(others, DOWN, buff=style.HUG_BUFF)
        # the heads' results A·V (not their maps), concatenated, into W_O: "A·V" over the
        # arrow, the rest of the label under it
        join_label = VGroup(
            *(
                style.text(part, style.LABEL_SIZE, style.MUTED)
                for part in self.words["join_label"].split(maxsplit=1)
            )
        ).arrange(DOWN, buff=style.ITEM_BUFF + style.HUG_BUFF)
        w_o = VGroup(Square(TILE * 0.6).set_stroke(style.FOREGROUND, 2), MathTex("W_O"))
        w_o.next_to(tiles, RIGHT, buff=join_label.width + 2 * style.HUG_BUFF)
        w_o[1].move_to(w_o[0])
        joins = VGroup(
            Arrow(tiles.get_right(), w_o.get_left(), buff=style.HUG_BUFF, color=style.MUTED)
        )
        joins.add(join_label.move_to(joins[0]))
        inner = VGroup(tiles, others_label, w_o, joins)
        multi_box = SurroundingRectangle(inner, color=style.FOREGROUND, buff=style.ITEM_BUFF)
        multi_label = style.text(self.words["multi"], style.LABEL_SIZE)
        ffn = self._box("ffn", multi_box.width)
        norms = [style.text(self.words["add_norm"], style.LABEL_SIZE, style.MUTED) for _ in "ab"]
        layers = TransformerLayers(VGroup(multi_box, inner), ffn, norms, multi_label)
        inputs = self._box("positional", multi_box.width)
        inputs.next_to(layers.card, DOWN, buff=style.GROUP_BUFF).set_x(layers.entry()[0])
        output = self._box("next_token", multi_box.width)
        output.next_to(layers, UP, buff=style.GROUP_BUFF).set_x(layers.exit()[0])
        into = Arrow(inputs.get_top(), layers.entry(), buff=0, color=style.MUTED)
        out = Arrow(layers.exit(), output.get_bottom(), buff=0, color=style.MUTED)
        count = style.text(self.words["layers"], style.BODY_SIZE)
        count.next_to(output, RIGHT, buff=style.GROUP_BUFF)
        strips = self._strips(list(it.tokens))
        matmul = self._matmul()
        side = VGroup(strips, matmul).arrange(DOWN, buff=style.GROUP_BUFF)
        block = VGroup(layers, inputs, output, into, out, count)
        whole = VGroup(side, block).arrange(RIGHT, buff=style.WIDE_BUFF)
        style.place(whole)
        # the side panel: all the height left of the block, its pictures as large as it allows
        x1 = block.get_left()[0] - style.WIDE_BUFF
        stage = Rectangle(width=x1 - left, height=top - bottom).move_to(
            [(left + x1) / 2, (bottom + top) / 2, 0.0]
        )  # never shown
        self.stage = stage
        pe = self._pe_table()
        causal = self._causal_map()
        sizes, self.added = self._sizes(), self._added()
        schematic = style.text(self.words["norm_schematic"], style.LABEL_SIZE, style.MUTED)
        schematic.scale(min(1.0, stage.width / schematic.width))
        for picture in (pe, causal, sizes):
            self._fill(picture)
        self._fill(self.added, schematic.height + style.ITEM_BUFF)
        self.added.schematic = schematic.next_to(self.added, DOWN, buff=style.ITEM_BUFF)
        VGroup(self.added, schematic).move_to(stage)
        # while the heads are told nothing else is on the stage: the block's card fills it (the
        # pull-back lands there); the block steps back to its place when the side panel is needed
        card = VGroup(layers.cards_behind, layers.card, multi_label)
        left, bottom, right, top = style.content_area()
        centre = np.array([(left + right) / 2, (bottom + top) / 2, 0.0])
        scale = min(MAX_ZOOM, (right - left) / card.width, (top - bottom) / card.height)
        here = card.get_center()
        _move_points(block.family_members_with_points(), scale, here, centre)
        self.step_back = (block, 1 / scale, centre, here)
        self._pull_back(
            head,
            head_label,
            tile,
            tiles,
            others,
            others_label,
            layers,
            w_o,
            joins,
            multi_box,
            multi_label,
        )
        bend = self._fill(self._bend())
        pieces = self._fill(self._pieces())
        self._inside(it, layers, inputs, into, ffn, pe, bend)
        self._stack(layers, tiles, count, sizes, out, output, inputs, causal, pieces)
        self._training(layers, inputs, tiles, VGroup(joins, w_o), ffn, output, sizes, pieces[-1])
        self._parallel(strips, matmul, self.lights)
        whole = VGroup(layers, inputs, output, into, out)
        ours = whole.get_family().index(tile)  # our head's tile, found again in the copy
        self.thumbnail = whole.copy()
        self.thumb_tile = self.thumbnail.get_family()[ours]
        for part in self.thumbnail.get_family():  # shapes only: its words would be too small
            part.submobjects = [m for m in part.submobjects if not isinstance(m, Text | MathTex)]

    def _pull_back(  # noqa: PLR0913 (the block's parts, built once in _block)
        self,
        head: AttentionGrid,
        head_label: VMobject,
        tile: AttentionGrid,
        tiles: VGroup,
        others: VGroup,
        others_label: VMobject,
        layers: TransformerLayers,
        w_o: VGroup,
        joins: VGroup,
        multi_box: VMobject,
        multi_label: VMobject,
    ) -> None:
        """The camera pulls back: everything scales about the head until it is one tile. The
        block, built around the map at that scale, comes in from outside the frame as it
        shrinks, the other heads sliding in beside; the map's numbers and headers shrink
        with it, intact, and fade only at the end. Then the heads' results travel into W_O."""
        scale = head.cells.width / tile.cells.width
        here, there = head.cells.get_center(), tile.cells.get_center()
        # the rest of the layer, faint: the network and the adds, each lit when it is told
        self.ghost = VGroup(layers.sublayers[1].copy(), layers.nodes.copy())
        self.ghost.fade(1 - style.DIMMED)
        frame = VGroup(layers.cards_behind, layers.card, others, multi_box, self.ghost)
        frame.generate_target()
        frame.scale(scale, about_point=there).shift(here - there)  # around the map, as large
        rest = VGroup(head.numbers, head.row_headers, head.col_headers, self.column_left)
        ours = SurroundingRectangle(tile.cells, color=style.HIGHLIGHT, buff=style.TIGHT_BUFF)
        ours_big = self.ours_big  # framed since the intro
        self.ours = ours  # framed until training (which would learn the map ours set by hand)
        self.say(
            "heads",
            ReplacementTransform(head.cells, tile.cells),
            ReplacementTransform(ours_big, ours),  # our head, framed to the block's end
            MoveToTarget(frame),
            # the other heads slide in where these stood: they go in the pull-back's first moment
            FadeOut(head_label, self.totals, rate_func=squish_rate_func(smooth, 0.0, FIRST)),
            Succession(  # the numbers shrink with their cells, and go only once they are tiny
                rest.animate(run_time=PULL_SHARE)
                .scale(1 / scale, about_point=here)
                .shift(there - here),
                FadeOut(rest, run_time=1 - PULL_SHARE),
            ),
            # the other heads' caveat (another model's) as they land, not a beat later
            FadeIn(others_label, rate_func=squish_rate_func(smooth, PULL_SHARE, 1.0)),
            run_time=PULL_TIME,
            beats={
                "join": [  # each map weights its V: the results A·V, joined, go into W_O
                    GrowArrow(joins[0]),
                    TransformFromCopy(VGroup(*(t.cells for t in tiles)), joins[1]),
                    Create(w_o[0]),
                    FadeIn(w_o[1]),
                    FadeIn(multi_label),
                ]
            },
        )

    def _step_back(
        self, block: VGroup, scale: float, here: np.ndarray, there: np.ndarray
    ) -> ApplyFunction:
        """The block back to its place beside the side panel: its parts not yet shown moved
        there at once, those on the stage carried there."""
        stage = [m for m in self.mobjects if m is not self.title and isinstance(m, VMobject)]
        shown = {id(part) for m in stage for part in m.get_family()}
        _move_points(
            [part for part in block.family_members_with_points() if id(part) not in shown],
            scale,
            here,
            there,
        )

        def carry(group: VMobject) -> VMobject:
            _move_points(group.family_members_with_points(), scale, here, there)
            return group

        return ApplyFunction(carry, VGroup(*stage))

    def _inside(
        self,
        it,
        layers: TransformerLayers,
        inputs: VGroup,
        into: Arrow,
        ffn: VGroup,
        pe: AttentionGrid,
        bend: VGroup,
    ) -> None:
        """Positions added on the way in, the feed-forward network per position, residuals
        and norms around both."""
        step_back = self._step_back(*self.step_back)
        rows = [VGroup(*(pe.get_cell(i, j) for j in range(pe.n_cols))) for i in range(pe.n_rows)]
        lit = inputs[0].copy().set_fill(style.HIGHLIGHT, opacity=0.4).set_stroke(style.HIGHLIGHT)
        q, r = it.query_index, it.referent
        self.say(
            "positional_say",
            step_back,
            FadeIn(inputs, shift=UP * 0.2),
            GrowArrow(into),
            FadeIn(pe.row_headers),
            beats={
                "pe": [LaggedStart(*(FadeIn(row, shift=LEFT) for row in rows), lag_ratio=0.15)],
                "add": [  # the table's rows go into the inputs' box, added to the word vectors
                    Succession(FadeTransform(pe.cells.copy(), lit), FadeOut(lit)),
                ],
                "order": [  # without the table, two words trade places: nothing tells them apart
                    FadeOut(pe.cells),
                    pe.row_headers[q]
                    .animate(path_arc=PI, rate_func=there_and_back)
                    .move_to(pe.row_headers[r]),
                    pe.row_headers[r]
                    .animate(path_arc=PI, rate_func=there_and_back)
                    .move_to(pe.row_headers[q]),
                ],
            },
        )
        main = layers.main_line
        rise = ffn.height + style.ROW_BUFF
        c2p = bend.axes.c2p  # the line bent where it is drawn, in the side panel
        bent = VMobject().set_points_as_corners([c2p(-1, 0), c2p(0, 0), c2p(1, 1)])
        bent.set_stroke(style.FOREGROUND, 4)
        passes = VGroup(*(Dot(radius=0.06, color=style.FOREGROUND) for _ in it.tokens)).arrange(
            RIGHT, buff=style.ITEM_BUFF
        )
        passes.next_to(ffn, DOWN, buff=style.TIGHT_BUFF)
        self.say(
            "ffn_say",
            GrowArrow(main[0]),
            GrowArrow(main[1]),
            GrowArrow(main[2]),
            ReplacementTransform(self.ghost[0], ffn),  # the faint network lights
            FadeOut(pe.row_headers),
            beats={
                "nonlin": [
                    Succession(
                        FadeIn(bend),
                        Transform(bend.straight, bent),
                    )
                ],
                "each": [  # one position after another through the one network
                    LaggedStart(
                        *(
                            Succession(FadeIn(d), d.animate.shift(UP * rise), FadeOut(d))
                            for d in passes
                        ),
                        lag_ratio=0.15,
                    )
                ],
            },
        )
        self._residual(layers, bend)

    def _residual(self, layers: TransformerLayers, bend: VGroup) -> None:
        """Residual paths and their ⊕ on the block; beside it, the sum they make: the step's
        output added tip to tail to its input, then normalised, LN(x + f(x)), drawn on a circle
        captioned as schematic. Pre-norm: only "normalise" moves in front of each sublayer (the
        add stays at its ⊕), and the normalised sum goes: in pre-LN the sum is not normalised."""
        main = layers.main_line
        added = self.added  # in the side panel, where the bend was
        x, fx, total, circle, normed = added.x, added.fx, added.total, added.circle, added.normed
        carried = [Dot(radius=0.08, color=style.FOREGROUND) for _ in layers.residuals]
        after = layers.norm_labels.copy()  # where the original Transformer normalises
        # the block is drawn smaller than its words were set: the labels' words, as small
        size = style.LABEL_SIZE
        drawn = layers.norm_labels[0].width / style.text(self.words["add_norm"], size).width

        def label(key: str, colour) -> VMobject:
            return style.text(self.words[key], size, colour).scale(drawn)

        adds = VGroup(  # pre-norm: the add stays at its ⊕...
            *(
                label("add_only", style.MUTED).move_to(norm, aligned_edge=LEFT)
                for norm in layers.norm_labels
            )
        )
        before = VGroup(  # ...and only the norm goes in front of its sublayer, left of the
            *(  # main line (the add's label is right of it)
                label("norm_only", style.HIGHLIGHT)
                .next_to(sub, DOWN, buff=style.HUG_BUFF)
                .align_to(sub.get_bottom() + LEFT * style.ITEM_BUFF, RIGHT)
                for sub in layers.sublayers
            )
        )
        self.say(
            "residual",
            FadeOut(bend),
            GrowArrow(x[0]),
            FadeIn(x[1]),
            FadeIn(layers.branches),
            *(Create(r) for r in layers.residuals),
            ReplacementTransform(self.ghost[1], layers.nodes),
            GrowArrow(main[3]),
            beats={
                "back": [  # each step's input runs round its residual path into the ⊕
                    *(
                        Succession(MoveAlongPath(dot, r[0]), FadeOut(dot))
                        for dot, r in zip(carried, layers.residuals, strict=True)
                    ),
                    InTurn(  # beside: the output from the input's tip, and the sum
                        AnimationGroup(GrowArrow(fx[0]), FadeIn(fx[1])),
                        AnimationGroup(GrowArrow(total[0]), FadeIn(total[1])),
                    ),
                ],
                "norm": [  # the sum normalised: LN(x + f(x)), on a circle marked schematic
                    FadeIn(layers.norm_labels),
                    Create(circle),
                    FadeIn(added.schematic),
                    Transform(total[0], normed),
                    Transform(total[1], added.ln),
                ],
                "pre": [  # the norm goes in front of each sublayer; the sum is not normalised
                    Transform(layers.norm_labels, adds),
                    TransformFromCopy(layers.norm_labels, before, path_arc=-PI / 3),
                    FadeOut(circle, added.schematic, total),
                ],
            },
        )
        self.postnorm, self.prenorm = after, before

    def _stack(  # noqa: PLR0913
        self,
        layers: TransformerLayers,
        tiles: VGroup,
        count: VMobject,
        sizes: VGroup,
        out: Arrow,
        output: VGroup,
        inputs: VGroup,
        causal: VGroup,
        pieces: VGroup,
    ) -> None:
        """N layers, each giving back as many vectors as wide as it takes; the causal mask;
        the readout on top."""
        later = VGroup(
            *(
                g.get_cell(i, j)
                for g in tiles
                for i in range(g.n_rows)
                for j in range(i + 1, g.n_cols)
            )
        )
        cards = [layers.card, *reversed(layers.cards_behind)]
        vec_in, vec_out = sizes.vec_in, sizes.vec_out
        small = inputs.height * SMALL_VECTORS / vec_in.height  # the columns inside the block
        enter = TransformFromCopy(vec_in, vec_in.copy().scale(small).move_to(inputs))
        leave = ReplacementTransform(  # out of the top of the stack, to the same size
            vec_in.copy().scale(small).move_to(layers.exit()), vec_out
        )
        read = vec_out[self.data.it_cat.query_index].copy().set_fill(style.RESULT, opacity=0.7)
        read.set_stroke(style.HIGHLIGHT, 2).scale(small).move_to(layers.exit())
        landed = read.copy().next_to(output[1], LEFT, buff=style.ITEM_BUFF)
        arrive = TransformFromCopy(read, landed)  # the top vector of it, into the box
        bars = self._readout()
        self.say(
            "stack",
            FadeOut(self.added.shown),  # the side panel's sum gives way
            FadeIn(count),
            Create(layers.main_line[4]),
            beats={
                "width": [  # the positions, their count and width shown; they go in
                    Transform(layers.norm_labels, self.postnorm),
                    *(  # each norm back to its ⊕
                        FadeOut(b, target_position=a)
                        for a, b in zip(layers.norm_labels, self.prenorm, strict=True)
                    ),
                    InTurn(
                        AnimationGroup(
                            FadeIn(vec_in, shift=UP * 0.2),
                            *(GrowFromCenter(b) for b in sizes.below[1]),
                            FadeIn(sizes.below[2]),
                        ),
                        enter,
                        FadeOut(enter.mobject),
                    ),
                ],
                "same": [  # out of the top: as many, as wide
                    leave,
                    ReplacementTransform(sizes.below[1:].copy(), sizes.above[1:]),
                ],
                "update": [
                    outline(*cards),
                    vec_out.animate.set_fill(style.RESULT, opacity=0.7),
                ],
                "gpt": [
                    FadeOut(sizes.above[1:], sizes.below),  # its own groups: what is shown
                    FadeOut(vec_out),
                    FadeIn(causal.grid, causal.caption),
                ],
                "mask": [Create(causal.mask), later.animate.set_opacity(style.DIMMED)],
                "top": [  # the top vector of "it" goes into the readout, which lights; out
                    FadeOut(causal),  # of it, a probability per candidate (the mask is told)
                    InTurn(
                        AnimationGroup(GrowArrow(out), FadeIn(output)),
                        arrive,
                        AnimationGroup(
                            output[0]
                            .animate(rate_func=there_and_back)
                            .set_fill(style.HIGHLIGHT, opacity=0.4),
                            FadeOut(arrive.mobject),  # used up inside the box (W_out, softmax)
                            TransformFromCopy(output[0], bars.bars),  # the bars out of the box
                            FadeIn(bars.names),  # one each: several would make a Group
                            FadeIn(bars.more),
                            FadeIn(bars.caption),
                        ),
                    ),
                ],
                "token": [  # a word, and the same word cut in two tokens
                    Succession(
                        AnimationGroup(
                            FadeOut(bars.bars, bars.names, bars.more, bars.caption),
                            FadeIn(pieces[0]),
                        ),
                        ReplacementTransform(pieces[0], pieces[1]),
                    )
                ],
            },
        )

    def _readout(self) -> VGroup:
        """The readout's probabilities, drawn as a schematic in the side panel: a bar per
        candidate for the token after the pronoun, the sentence's own next word tallest. No
        numbers: the data file has none (our model is not a language model), so the bars'
        heights are a picture of "one probability each", captioned as schematic."""
        it = self.data.it_cat
        words = [it.tokens[it.query_index + 1], *self.words["candidates"].split()]
        bars = VGroup(
            *(
                Rectangle(width=BAR_WIDTH, height=BAR_HEIGHT * share)
                .set_stroke(style.HIGHLIGHT if k == 0 else style.MUTED, 2)
                .set_fill(style.RESULT, opacity=0.7)
                for k, share in enumerate(BAR_SHARES)
            )
        ).arrange(RIGHT, buff=style.ITEM_BUFF, aligned_edge=DOWN)
        names = VGroup(
            *(
                style.text(word, style.SMALL_SIZE).next_to(bar, DOWN, buff=style.HUG_BUFF)
                for word, bar in zip(words, bars, strict=True)
            )
        )
        names.align_to(bars, UP).shift(DOWN * (bars.height + style.HUG_BUFF))
        # four of the vocabulary's tokens: the rest, each with its probability, go on
        more = MathTex(r"\cdots").next_to(bars, RIGHT, buff=style.ITEM_BUFF, aligned_edge=DOWN)
        side = self.stage
        # two lines: the made-up heights, then what the readout gives
        caption = _lines(self.words["readout_schematic"], style.LABEL_SIZE)
        caption.scale(min(1.0, side.width / caption.width))  # its own size: the bars' words
        chart = VGroup(bars, names, more)  # keep theirs
        room = side.height - caption.height - style.ITEM_BUFF
        chart.scale(min(MAX_ZOOM, side.width / chart.width, room / chart.height))
        caption.next_to(chart, DOWN, buff=style.ITEM_BUFF)
        group = VGroup(bars, names, more, caption).move_to(side)
        group.bars, group.names, group.more, group.caption = bars, names, more, caption
        return group

    def _training(
        self,
        layers: TransformerLayers,
        inputs: VGroup,
        tiles: VGroup,
        w_o: VGroup,
        ffn: VGroup,
        output: VGroup,
        sizes: VGroup,
        pieces: VGroup,
    ) -> None:
        """Every parameter, named on its own clause; then an input passes through them all."""
        travel = sizes.vec_in.copy().scale_to_fit_height(inputs.height * SMALL_VECTORS)
        travel.move_to(inputs)
        stops = (inputs, layers.card, output)
        heading, names, per_layer = self._trained_list()
        named = iter(names)
        lit: list[VMobject] = []  # the glows of the part named last

        def glow(part: VMobject) -> VMobject:
            return (
                SurroundingRectangle(part, color=style.HIGHLIGHT, buff=style.TIGHT_BUFF)
                .set_fill(style.HIGHLIGHT, opacity=0.3)
                .set_z_index(-1)
            )

        def light(*parts: VMobject) -> list:
            """The parts' parameters, lit, and their name carried out of them into the side
            panel's list; the part named before goes dark (its name stays in the list), so
            one part is lit at a time."""
            glows = [glow(part) for part in parts]
            dark = [FadeOut(glow) for glow in lit]
            self.lights.remove(*lit)  # gone before parallel fades the lights
            lit[:] = glows
            self.lights.add(*glows)
            name = next(named)
            self.lights.add(name)
            return [
                *dark,
                *(GrowFromCenter(glow) for glow in glows),
                FadeIn(name, target_position=parts[0], scale=0.5),
            ]

        parts = (inputs, tiles, w_o, ffn, *layers.norm_labels, output)
        together = VGroup(*(glow(part) for part in parts))  # all at once, for a moment
        self.lights = VGroup(heading, per_layer, together)
        self.say(
            "training",
            FadeOut(pieces),
            FadeOut(self.ours),  # our head was set by hand: training learns a head's map
            FadeIn(heading),
            outline(layers.card),
            beats={
                "embed": light(inputs),
                "heads": light(tiles),
                "wo": light(w_o),  # W_O with the arrow of the heads it joins
                "rest": light(ffn),
                "norms": [  # each its own; the rows every layer has its own of, × N
                    *light(*layers.norm_labels),
                    GrowFromCenter(per_layer[0]),
                    FadeIn(per_layer[1]),
                ],
                "readout": [  # an input passes through them all, up to the readout; as it
                    *light(output),  # rises they all light a moment together: one update
                    Succession(  # changes every part at once, not one after another
                        *(travel.animate.move_to(stop) for stop in stops),
                        FadeOut(travel),
                    ),
                    FadeIn(together, rate_func=squish_rate_func(there_and_back, 0.3, 0.9)),
                ],
            },
        )

    def _trained_list(self) -> tuple[VMobject, VGroup, VGroup]:
        """The side panel's list of what training learns, under its heading: a row per part
        (attention's rows with their biases, the readout's often tied to the embeddings), the
        rows each layer has its own of braced "× N"."""
        size = style.BODY_SIZE

        def note(words: str) -> VMobject:
            return style.text(words, size, style.MUTED)

        rows = VGroup(*(VGroup(MathTex(t, font_size=size * style.MATH_SCALE)) for t in TRAINED))
        for k in BIASED:
            rows[k].add(note(self.words["biases"]))
        before, after = self.words["tied"].split("{e}")
        rows[TIED].add(
            note(before), MathTex(r"E^\top", font_size=size * style.MATH_SCALE), note(after)
        )
        for row in rows:
            row.arrange(RIGHT, buff=style.ITEM_BUFF)
        rows[TIED][1:].arrange(RIGHT, buff=style.HUG_BUFF).next_to(rows[TIED][0], RIGHT)
        rows.arrange(DOWN, aligned_edge=LEFT, buff=style.ITEM_BUFF)
        brace = Brace(rows[PER_LAYER], RIGHT)
        per_layer = VGroup(brace, style.text(self.words["layers"], size))
        per_layer[1].next_to(brace, RIGHT, buff=style.HUG_BUFF)
        heading = style.text(self.words["learned"], size)
        heading.next_to(rows, UP, buff=style.ITEM_BUFF, aligned_edge=LEFT)
        group = VGroup(heading, rows, per_layer)
        self._fill(group)
        return heading, rows, per_layer

    def _parallel(self, strips: VGroup, matmul: VGroup, lights: VGroup) -> None:
        """An RNN reads in turn; attention computes every position together, as one matrix
        product row by column."""
        rnn, once = strips
        cores = self._cores(matmul.product)
        aside = self._aside(lights, VGroup(strips, matmul, cores))

        def light(box: VGroup):
            return box[0].animate(rate_func=there_and_back).set_fill(style.HIGHLIGHT, opacity=0.6)

        grid = matmul.product
        n, depth = grid.n_rows, range(matmul.kt.n_rows)
        computed = [grid.get_row(i).copy() for i in range(n)]  # each core's row, over the dim one
        products = [
            TransformFromCopy(
                VGroup(matmul.q.get_row(i), *(matmul.kt.get_cell(k, j) for k in depth)),
                grid.get_cell(i, j),
            )
            for i in range(n)
            for j in range(n)
        ]
        self.say(
            "parallel",
            FadeOut(lights),
            aside,  # the block steps aside: the side panel's picture is told large
            FadeIn(strips),
            then=[[Succession(*(light(box) for box in rnn[1]))]],
            beats={
                "once": [*(light(box) for box in once[1])],
                "matmul": [
                    Succession(
                        FadeIn(matmul.q, matmul.kt, matmul.name),
                        AnimationGroup(*products),
                    )
                ],
                "gpu": [  # the RNN steps word by word while each core, all at once, takes
                    Succession(*(light(box) for box in rnn[1])),  # Q's row and gives back
                    *(light(box) for box in once[1]),  # the table's row it computed
                    InTurn(  # the table dims as Q's rows go in; each row lights again
                        AnimationGroup(  # as its core gives it back
                            FadeIn(cores.boxes, cores.name),
                            grid.cells.animate.set_opacity(style.DIMMED),
                            *(
                                TransformFromCopy(matmul.q.get_row(i), lit)
                                for i, lit in enumerate(cores.lit)
                            ),
                        ),
                        AnimationGroup(
                            *(
                                TransformFromCopy(lit, row)
                                for lit, row in zip(cores.lit, computed, strict=True)
                            )
                        ),
                    ),
                ],
                "win": [FadeOut(rnn, shift=DOWN * 0.3)],  # the in-turn reader gives way
            },
        )

    def _cores(self, grid: AttentionGrid) -> VGroup:
        """A GPU's cores beside the table, schematic: one per row of it (a GPU has many more),
        each lit as Q's row comes in, all at once; the row it computes goes back to the table."""
        cell = grid.get_cell(0, 0)
        boxes = VGroup(
            *(
                RoundedRectangle(corner_radius=0.05, width=2 * cell.width, height=cell.height)
                .set_stroke(style.MUTED, 2)
                .next_to(grid.get_cell(i, grid.n_cols - 1), RIGHT, buff=style.GROUP_BUFF)
                for i in range(grid.n_rows)
            )
        )
        lit = VGroup(*(box.copy().set_fill(style.HIGHLIGHT, opacity=0.6) for box in boxes))
        name = VGroup(  # two lines over the cores, clear of Kᵀ (QKᵀ/√d is under the table)
            *(
                style.text(part, style.LABEL_SIZE, style.MUTED)
                for part in self.words["gpu_cores"].split(maxsplit=1)
            )
        ).arrange(DOWN, buff=style.HUG_BUFF, aligned_edge=LEFT)
        name.next_to(boxes, UP, buff=style.ITEM_BUFF, aligned_edge=LEFT)
        group = VGroup(boxes, lit, name)
        group.boxes, group.lit, group.name = boxes, lit, name
        return group

    def _aside(self, lights: VGroup, panel: VGroup) -> ApplyFunction:
        """The block on the stage drawn smaller against the area's right edge, and ``panel``
        (not yet shown) laid out large in what it leaves free on the left."""
        lit = {id(m) for m in lights.get_family()}
        block = VGroup(
            *(
                m
                for m in self.mobjects
                if m is not self.title and isinstance(m, VMobject) and id(m) not in lit
            )
        )
        left, bottom, right, top = style.content_area()
        anchor = np.array([right, block.get_center()[1], 0.0])
        free = right - ASIDE * block.width - style.WIDE_BUFF - left
        panel.scale(min(MAX_ZOOM, free / panel.width, (top - bottom) / panel.height))
        panel.move_to([left + free / 2, (top + bottom) / 2, 0.0])
        return ApplyFunction(lambda g: g.scale(ASIDE, about_point=anchor), block)

    def _uses(self) -> None:
        """Four uses, each drawn large on its own line, then shrunk into its name in a row
        under the heading (dimmed) while the next is told: text generation adds a token,
        translation writes a sentence in another language, code is cut into tokens; the
        protein, last, fills the area under the row: its chain folds so that residues far
        apart along it meet."""
        panels = VGroup(self._generation(), self._translation(), self._code(), self._protein())
        for panel, key in zip(panels, USES, strict=True):
            caption = style.name_text(self.words[key], style.LABEL_SIZE)
            panel.insert(0, caption.next_to(panel, UP, buff=style.ITEM_BUFF))
        generation, translation, code, protein = panels
        # (the protein, told last, fills the area and keeps it: it has no place in the strip)
        heading = style.text(self.words["uses_head"], style.BODY_SIZE, style.MUTED)
        self.heading = heading  # over the uses to the end, with the block's thumbnail
        thumb = self.thumbnail  # the block of the first half, carried small
        thumb.scale_to_fit_height(heading.height * THUMB_LINES)
        top = style.place(VGroup(heading, thumb).arrange(RIGHT, buff=style.WIDE_BUFF), UP)
        left, bottom, right, _ = style.content_area()
        ceiling = top.get_bottom()[1] - style.ITEM_BUFF
        # each use told shrinks into its name, in a row under the heading, as the next comes
        chips = VGroup(
            *(style.name_text(_named(self.words[key]), style.LABEL_SIZE) for key in USES[:-1])
        )
        chips.arrange(RIGHT, buff=style.WIDE_BUFF).set_opacity(style.DIMMED)
        chips.next_to(top, DOWN, buff=style.ITEM_BUFF).align_to(top, LEFT)
        below = chips.get_bottom()[1] - style.ITEM_BUFF  # the area under the row
        # while generation is told, the block stands at half the frame's height right of it
        # ("more than attention" is read on it); it goes to its place by the heading after
        thumb.generate_target()
        thumb.scale_to_fit_height(min(config.frame_height / 2, ceiling - bottom))
        thumb.move_to([right - thumb.width / 2, (bottom + ceiling) / 2, 0.0])
        regions = (  # where each use is told
            (left, thumb.get_left()[0] - style.WIDE_BUFF, bottom, ceiling),
            (left, right, bottom, below),  # the full width under the row of names
            (left, right, bottom, below),
            (left, right, bottom, below),
        )
        for panel, region in zip(panels, regions, strict=True):
            self._focus(panel, region)
        shown = (  # each panel's parts on screen once its line is done
            VGroup(generation[0], generation.prompt, generation.arrow, generation.next),
            VGroup(
                translation[0],
                translation.source,
                translation.arrow,
                translation.arrow_de,
                translation.target,
                translation.target_de,
            ),
            VGroup(code[0], code.tokens, code.context, code.schematic),
        )
        attention, ffn = thumb[0].sublayers
        # the network, the adds and norms, the readout, the embeddings and positions, named
        # large left of the block (top to bottom, as they stand in it) as each is lit
        beyond = (ffn, *thumb[0].nodes, thumb[2], thumb[1])
        keys = ("ffn", "add_norm", "add_norm", "next_token", "positional")
        legend = self._legend(thumb, beyond, keys, below)
        block = [m for m in self.mobjects if m is not self.title]  # the block gives way
        self.say(
            "uses",
            *(FadeOut(m) for m in block),
            FadeIn(heading),
            FadeIn(generation[0], generation.prompt),
            beats={
                "gen": [
                    GrowArrow(generation.arrow),
                    FadeIn(generation.next, shift=RIGHT),
                    FadeIn(thumb, shift=LEFT),
                ],
                "more": [  # generation shrinks into its name; the rest of the block, lit
                    FadeTransform(shown[0], chips[0]),
                    attention.animate.fade(1 - style.DIMMED),
                    InTurn(
                        *(
                            AnimationGroup(outline(part), FadeIn(name), Create(line))
                            for part, (name, line) in zip(beyond, legend, strict=True)
                        )
                    ),
                ],
            },
        )
        self.say(
            "translation",
            FadeOut(legend),
            MoveToTarget(thumb),  # the block to its place by the heading
            FadeIn(translation[0], translation.source),
            beats={
                "paper": [
                    GrowArrow(translation.arrow),
                    TransformFromCopy(translation.source, translation.target),
                ],
                "eval": [
                    GrowArrow(translation.arrow_de),
                    TransformFromCopy(translation.source, translation.target_de),
                ],
            },
        )
        self.say(
            "code",
            FadeTransform(shown[1], chips[1]),
            FadeIn(code[0], code.line),
            beats={
                "tokens": [ReplacementTransform(code.line, code.tokens)],
                "context": [  # the token lights, and so do the tokens it looks at
                    code.tokens[CODE_LOOKER][0].animate.set_fill(style.HIGHLIGHT, opacity=0.6),
                    *(
                        code.tokens[k][0].animate.set_fill(style.HIGHLIGHT, opacity=0.3)
                        for k in CODE_CONTEXT
                    ),
                    LaggedStartMap(Create, code.context, lag_ratio=0.3),
                    FadeIn(code.schematic),
                ],
            },
        )
        self._alphafold(protein, FadeTransform(shown[2], chips[2]))

    def _back(self) -> None:
        """Back to one map: the protein and the uses' names go, our head's map beside them
        stays and is outlined (every head computes such a map); then it, the heading and the
        thumbnail go and the colour task's learned map fills in at the centre, its markers,
        then its rows: the seam :func:`mixed_map`, caveat's first picture."""
        grid = mixed_map(self)
        rows = [VGroup(*grid.get_row(i)) for i in range(grid.n_rows)]
        text_map = self.text_map  # our head's map, beside the protein's pair table
        # taken out of the groups it stands in (they go; it stays), then back on the stage
        self.remove(text_map)
        self.add(text_map)
        top = (self.title, self.heading, self.thumbnail, text_map)
        told = [m for m in self.mobjects if not any(m is k for k in top)]
        self.say(
            "back",
            *(FadeOut(m) for m in told),
            outline(text_map),  # such a map: the one a head computes
            beats={
                "ours": [
                    InTurn(
                        FadeOut(VGroup(self.heading, self.thumbnail, text_map), run_time=0.4),
                        FadeIn(VGroup(grid.row_headers, grid.col_headers), run_time=0.4),
                        LaggedStart(*(FadeIn(r) for r in rows), lag_ratio=0.15, run_time=1.5),
                    )
                ]
            },
        )
        self.add(grid)  # the map whole, once its rows are in

    def _legend(self, thumb: VMobject, parts: tuple, keys: tuple[str, ...], top: float) -> VGroup:
        """Each part's name (a locale key of the block's boxes), large, in a column left of
        ``thumb`` (under ``top``) in the parts' order from the top, a line from each to its
        part."""
        order = sorted(range(len(parts)), key=lambda k: -parts[k].get_center()[1])
        names = [style.text(self.template(key), style.BODY_SIZE) for key in keys]
        column = VGroup(*(names[k] for k in order)).arrange(
            DOWN, buff=style.ROW_BUFF, aligned_edge=RIGHT
        )
        left, bottom, _, _ = style.content_area()
        x1 = thumb.get_left()[0] - style.WIDE_BUFF
        column.scale(min(1.0, (x1 - left) / column.width, (top - bottom) / column.height))
        column.move_to([x1 - column.width / 2, (top + bottom) / 2, 0.0])
        return VGroup(
            *(
                VGroup(
                    name,
                    Line(
                        name.get_right() + RIGHT * style.HUG_BUFF,
                        part.get_left(),
                        stroke_width=2,
                        color=style.MUTED,
                    ),
                )
                for name, part in zip(names, parts, strict=True)
            )
        )

    @staticmethod
    def _focus(panel: VGroup, region: tuple[float, float, float, float]) -> None:
        """Lay ``panel`` out large (at most :data:`MAX_FOCUS` times) in the middle of
        ``region`` (x0, x1, y0, y1)."""
        x0, x1, y0, y1 = region
        panel.scale(min(MAX_FOCUS, (x1 - x0) / panel.width, (y1 - y0) / panel.height))
        panel.move_to([(x0 + x1) / 2, (y0 + y1) / 2, 0.0])

    def _alphafold(self, protein: VGroup, earlier: FadeTransform) -> None:
        """The protein alone, large: the pair table grows out of the beads; on the straight
        chain each far pair is linked as its two cells light (attention between all pairs is
        input to predicting the fold); then the chain folds, its links following the beads."""
        pairs = protein.pairs
        self.text_map = protein.text_map  # our head's map: the last line starts from it
        self.say(
            "alphafold",
            earlier,  # the use before shrinks into its name: the protein has the area under them
            FadeIn(protein[0], protein.chain),
            beats={
                "family": [TransformFromCopy(protein.residues, pairs)],
                "far": [
                    InTurn(  # far pairs linked on the straight chain, then it folds
                        LaggedStart(  # one pair at a time: its link, its two cells
                            *(
                                AnimationGroup(
                                    Create(arc),
                                    pairs[a * RESIDUES + b].animate.set_fill(style.HIGHLIGHT, 1),
                                    pairs[b * RESIDUES + a].animate.set_fill(style.HIGHLIGHT, 1),
                                )
                                for arc, (a, b) in zip(protein.arcs, PROTEIN_LINKS, strict=True)
                            ),
                            lag_ratio=0.6,
                            run_time=LINKS_SHARE,
                        ),
                        AnimationGroup(  # the hairpin: each link's ends stay on its beads
                            Transform(protein.chain, protein.folded),
                            *(
                                Transform(arc, link)
                                for arc, link in zip(protein.arcs, protein.links, strict=True)
                            ),
                            run_time=FOLD_SHARE,
                        ),
                        InTurn(  # not a text model reused: our head's map, out of the block
                            AnimationGroup(
                                TransformFromCopy(self.thumb_tile, protein.text_map),
                                FadeIn(protein.unlike),
                                FadeIn(protein.names),
                                outline(self.thumb_tile),  # where one head sits, once more
                            ),
                            *self._triangle(protein),
                            run_time=1 - LINKS_SHARE - FOLD_SHARE,
                        ),
                    )
                ],
            },
            run_time=LINKS_TIME,  # the far pairs found one by one over the chapter's last cue
        )

    def _triangle(self, protein: VGroup) -> tuple[AnimationGroup, AnimationGroup]:
        """What is built for proteins: a pair (i, j) of the table attends to the pairs (i, k)
        of its row, biased by (j, k) (triangle attention); beside it our map's one row, a
        token attending to tokens."""
        i, j = PROTEIN_LINKS[0]  # a far pair, lit on the chain
        k = PROTEIN_LINKS[1][0]  # one of the pairs it attends to, and its bias (j, k)
        pairs, text_map = protein.pairs, protein.text_map

        def frame(part: VMobject, colour=style.FOREGROUND) -> SurroundingRectangle:
            return SurroundingRectangle(part, color=colour, buff=0, stroke_width=4)

        row = [pairs[i * RESIDUES + m] for m in range(RESIDUES) if m != j]
        query = text_map.get_row(self.data.it_cat.query_index)
        bias = DashedVMobject(frame(pairs[j * RESIDUES + k]), num_dashes=LINK_DASHES)
        return (  # the pair framed white on its lit cell; the bias's frame dashed
            AnimationGroup(Create(frame(pairs[i * RESIDUES + j]))),
            AnimationGroup(
                *(cell.animate.set_fill(style.HIGHLIGHT, 0.5) for cell in row),
                Create(bias),
                Create(frame(query, style.HIGHLIGHT)),
            ),
        )

    def _generation(self) -> VGroup:
        """The pronoun sentence but its last word, and that word as the next token."""
        tokens = self.data.it_cat.tokens
        panel = VGroup()
        panel.prompt = WordBoxes(tokens[:-1], style.LABEL_SIZE)
        panel.next = WordBoxes([tokens[-1]], style.LABEL_SIZE, style.HIGHLIGHT)
        panel.arrow = Arrow(LEFT, RIGHT, color=style.MUTED).scale(0.5)
        panel.add(
            VGroup(panel.prompt, panel.arrow, panel.next).arrange(RIGHT, buff=style.ITEM_BUFF)
        )
        return panel

    def _translation(self) -> VGroup:
        """A sentence and its two translations (the locale's own example; the paper trained
        one model per pair), the sentence between them with an arrow to each."""
        panel = VGroup()
        panel.source = WordBoxes(self.words["translation_source"].split(), style.LABEL_SIZE)
        panel.target = WordBoxes(
            self.words["translation_target"].split(), style.LABEL_SIZE, style.HIGHLIGHT
        )
        panel.target_de = WordBoxes(
            self.words["translation_target_de"].split(), style.LABEL_SIZE, style.HIGHLIGHT
        )
        targets = VGroup(panel.target, panel.target_de).arrange(
            DOWN, buff=style.SECTION_BUFF, aligned_edge=LEFT
        )
        VGroup(panel.source, targets).arrange(RIGHT, buff=style.WIDE_BUFF * 2)
        panel.arrow, panel.arrow_de = (
            Arrow(panel.source.get_right(), target.get_left(), color=style.MUTED)
            for target in (panel.target, panel.target_de)
        )
        panel.add(VGroup(panel.source, panel.arrow, panel.arrow_de, targets))
        return panel

    def _code(self) -> VGroup:
        """A line of code, then the same line cut into tokens; a token's links to the earlier
        ones it looks at (a code model is causal), captioned as picked by hand."""
        panel = VGroup()
        panel.tokens = WordBoxes(CODE_TOKENS, style.LABEL_SIZE)
        panel.line = style.name_text("".join(CODE_TOKENS), style.LABEL_SIZE).move_to(panel.tokens)
        word = panel.tokens[CODE_LOOKER]
        panel.context = VGroup(  # the token looks back at earlier ones in its line
            *(
                ArcBetweenPoints(
                    word.get_top(),
                    panel.tokens[k].get_top(),
                    angle=-PI / 2 if k > CODE_LOOKER else PI / 2,
                ).set_stroke(style.HIGHLIGHT, 3)
                for k in CODE_CONTEXT
            )
        )
        panel.schematic = style.text(self.words["code_schematic"], style.LABEL_SIZE, style.MUTED)
        panel.schematic.next_to(panel.tokens, DOWN, buff=style.ITEM_BUFF)
        panel.add(  # the tokens take the line's place
            VGroup(panel.line, panel.tokens, panel.context, panel.schematic)
        )
        return panel

    def _protein(self) -> VGroup:
        """A chain of residues that folds into a hairpin, and attention between the residues
        far apart along it: arcs on the straight chain, short links once it is folded."""
        panel = VGroup()
        panel.chain = self._chain(
            [RIGHT * k * BEAD_STEP + UP * style.ROW_BUFF * (k % 2) for k in range(RESIDUES)]
        )  # a zigzag backbone
        half = RESIDUES // 2
        panel.folded = self._chain(  # the same chain folded back on itself at its middle
            [
                RIGHT * min(k, RESIDUES - 1 - k) * BEAD_STEP
                + (UP if k < half else DOWN) * style.ROW_BUFF
                for k in range(RESIDUES)
            ]
        ).move_to(panel.chain)
        panel.residues = panel.chain[1]
        ends, beads = panel.folded[1], panel.residues
        panel.arcs = VGroup(  # over the straight chain, each from one residue to the other
            *(
                DashedVMobject(
                    ArcBetweenPoints(beads[a].get_center(), beads[b].get_center(), angle=-PI / 2),
                    num_dashes=LINK_DASHES,
                ).set_stroke(style.HIGHLIGHT, 4)
                for a, b in PROTEIN_LINKS
            )
        )
        panel.links = VGroup(  # the same links once the chain is folded (never added itself)
            *(
                DashedVMobject(
                    Line(ends[a].get_center(), ends[b].get_center()), num_dashes=LINK_DASHES
                ).set_stroke(style.HIGHLIGHT, 4)
                for a, b in PROTEIN_LINKS
            )
        )
        panel.pairs = VGroup(  # residue by residue: the pairs attention built for proteins keeps
            *(
                Square(PAIR_CELL).set_stroke(style.BACKGROUND, 1).set_fill(style.PLAIN_CELL, 1)
                for _ in range(RESIDUES * RESIDUES)
            )
        ).arrange_in_grid(RESIDUES, RESIDUES, buff=0)
        shape = VGroup(panel.chain, panel.folded, panel.arcs, panel.links)
        panel.pairs.next_to(shape, RIGHT, buff=style.GROUP_BUFF)
        it = self.data.it_cat
        side = panel.pairs.height / len(it.tokens)
        panel.text_map = AttentionGrid(  # a text head's map, the same height: not what is used
            it.scaled.weights, IT_CAT, cell_size=side, show_numbers=False
        )
        panel.unlike = MathTex(r"\neq", font_size=style.SYMBOL_SIZE)
        VGroup(panel.unlike, panel.text_map).arrange(RIGHT, buff=style.GROUP_BUFF)
        VGroup(panel.unlike, panel.text_map).next_to(panel.pairs, RIGHT, buff=style.GROUP_BUFF)
        panel.names = VGroup(  # what attends to what in each: pairs to pairs, token to token
            *(
                _lines(self.words[key], style.SMALL_SIZE).next_to(grid, DOWN, buff=style.ITEM_BUFF)
                for key, grid in (("pair_table", panel.pairs), ("token_table", panel.text_map))
            )
        )
        unlike = VGroup(panel.unlike, panel.text_map, panel.names)
        panel.add(VGroup(*shape, panel.pairs, unlike))  # folded and links: the
        # chain's shape to come, laid out with the panel; never added to the scene itself
        return panel

    @staticmethod
    def _chain(places: list[np.ndarray]) -> VGroup:
        """Beads at ``places`` joined by a backbone: VGroup(backbone, residues)."""
        residues = VGroup(*(Dot(radius=BEAD, color=style.FOREGROUND).move_to(p) for p in places))
        backbone = VMobject().set_points_as_corners(places).set_stroke(style.MUTED, 3)
        return VGroup(backbone, residues)


def _move_points(parts: list[VMobject], scale: float, here: np.ndarray, there: np.ndarray) -> None:
    """Scale each part's own points by ``scale`` about ``here`` and carry ``here`` to ``there``
    (each part moved once, however the parts are grouped)."""
    for part in parts:
        part.points = there + scale * (part.points - here)


def _named(words: str) -> str:
    """A use's caption up to its colon: what the use is, without what is said of it."""
    return re.split(r"[：:]", words, maxsplit=1)[0]


def _lines(words: str, size: float) -> VGroup:
    """Muted words in two lines, cut after their colon (the colon kept on the first)."""
    lines = re.split(r"(?<=[：:])\s*", words, maxsplit=1)
    return VGroup(*(style.text(line, size, style.MUTED) for line in lines)).arrange(
        DOWN, buff=style.HUG_BUFF
    )


@seam_builder
def mixed_map(scene: LectureScene) -> AttentionGrid:
    """zoom_out's last picture, caveat's first: the colour task's learned map (the example
    caveat reads, ``examples.mixed`` unless a variant names another), its colour markers,
    cells and numbers, at :data:`MAP_CELL`, centred in the content area."""
    name = getattr(scene, "example_name", "mixed")
    ex = scene.data.example(name)
    grid = scene.colour_map(ex.colours, ex.attention, f"examples.{name}.attention", MAP_CELL)
    style.place(grid)
    return grid
