"""Three roles from one input (seeds 000, 003): X times W_Q, W_K and W_V, then the formula.

X has labelled dimensions, each matrix is drawn with its numbers, and each product is
computed on screen: the row of 蘋果 in X, through the "food" row of W_Q, becomes a Query
that looks for eating. Render alone with ``manim -ql scenes/chapters/qkv.py ThreeRoles``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    DR,
    LEFT,
    RIGHT,
    UL,
    UP,
    Animation,
    AnimationGroup,
    ApplyFunction,
    ApplyMethod,
    Arrow,
    Brace,
    Create,
    Dot,
    FadeIn,
    FadeOut,
    FadeTransform,
    GrowArrow,
    GrowFromCenter,
    GrowFromPoint,
    LaggedStart,
    ManimColor,
    MathTex,
    MoveToTarget,
    Rectangle,
    ReplacementTransform,
    Succession,
    SurroundingRectangle,
    Transform,
    TransformFromCopy,
    ValueTracker,
    VectorizedPoint,
    VGroup,
    VMobject,
    Wait,
    Write,
    always_redraw,
    linear,
    smooth,
)

from scenes.chapters.office import focused_office
from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.devices import ZOOMED, RandomWalks
from scenes.kit.diagrams import AttentionFormula, LossPlot
from scenes.kit.emphasis import outline
from scenes.kit.maps import AttentionGrid, LabelledMatrix, fit_column_labels
from scenes.kit.numbers import Sum, phrase
from scenes.kit.seams import seam_builder
from scenes.kit.sums import TipToTail
from scenes.kit.turns import InTurn
from scenes.kit.vectors import NumberVector, WeightBars


def roles() -> tuple[tuple[str, str, ManimColor], ...]:
    """Q, K and V: their key in the data, their letter and their colour in this theme."""
    return (("q", "Q", style.QUERY), ("k", "K", style.KEY), ("v", "V", style.VALUE))


SRC = "tokens.eat_apple"
SELF_GROWTH = 1.6  # 蘋果's X, Q, K and V grow, at most this much, when they are the picture
FILL = 0.85  # of the content area's width they may take
TOKEN_GROWTH = 2.0  # the sentence and the columns' names beside X, to its row names' size
SIGN_WIDTH = 0.8  # office's Query and Key arrows, small, as the Q and K slots' signs
SIGN_ARC = 0.8  # the arc the roles travel along into the slots: round by the left
SIGN_STROKE = 5
KEY_DROP = 0.5  # the Key arrow parts from the Query arrow it lay along, this far down
SIGN_LAG = 0.9  # the slots' words and X come in as the roles land (nothing crossed)
DROP_SIZE = 0.5  # a word's row of numbers, dropped under it, this high against the word
MATCH_LEAST = 0.75  # 蘋果's q against the k rows, at least this large (numbers >= 20 px)
LINE_GROWTH = 1.5  # X × W, once the slots have stepped out, at most this large
SUM_GROWTH = 1.4  # 蘋果's sum under the equation, at most this large against the body size
ROW_ARC = 0.7  # a row of W_Q (and its X entry) lifts out into 蘋果's sum along this arc
CELL = 0.58  # a cell of a 4-wide matrix; narrower ones get larger cells
STACK = 1.0  # Q, K and V stacked in the right third, against the body size
STACK_NUMBERS = 0.9  # their numbers, in cells smaller than that, at least this (>= 20 px)
REFERENCE_DIMS = 4
PASS = (0.3, 0.45, 0.5)  # 蘋果's x through one map: its row framed, x onto it, x into its vector
DIM = 0.25  # a map not being passed through (a word not spoken of), this bright
FILL_STEP = 1.5  # a column of the roles' grid filled through its map, this long
TRAINED_CELL = 0.55
GHOST = 0.45  # the random start kept small beside the curve, this wide against the map
GHOST_CAPTION = 0.8
LANDING = 0.5  # the random start comes in, then each W_Q watched stays SNAPSHOT (in proportion)
SNAPSHOT = 0.6  # a cell of the trained model's W_Q, beside the three hand-picked ones
LOSS_WIDTH = 0.8  # the loss curve beside the trained W_Q, this wide against the map
LOSS_DOT = 0.08
GLIDE = 0.35  # of each stretch between watched steps, the end where the dot moves on
HEAT_CELL = 0.8  # a cell of W_Q, W_K, W_V kept small side by side
LARGE_LINE = 1.8  # the projections' line, written large before it moves up into the formula
D_GROWTH = 1.6  # 蘋果's q under the formula, its d entries braced
MATCH_GROWTH = 1.5  # 蘋果's q against the three k rows, while QKᵀ is named, at most this large
WORKED_GROWTH = 1.2  # 蘋果's row worked through the formula, beside it
BAR_LENGTH = 3.0  # a weight of 1 as a bar, beside the formula
BAND = 1 / 16  # a spread's shaded band: this much of the terms axis wide, ending at its d
BAND_FILL = 0.3
PLANE_SIDE = 3.4  # the plane 蘋果's output is summed on, under the formula
WALK_ASPECT = 1.3  # the walks' plot, this wide against its height (when not widened)


class ThreeRoles(LectureScene):
    """Q = X W_Q, K = X W_K, V = X W_V computed on screen; then the two-line formula."""

    ends_on = "worked_formula"  # its last picture, scoring's first (built at the module's end)
    scene_key = "qkv"
    reads = ("tokens.eat_apple", "weights", "training", "pitfalls.sqrt_d", "office")
    tables = ("office", "training")  # its last picture, in its words; the loss plot's axis
    opens_on = focused_office.__name__

    def construct(self) -> None:
        self.ex = self.data.eat_apple
        self.n = self.ex.short
        self.fit = 1.0  # the scale the layout puts on the equation, kept by later matrices
        # office's last picture, at once. Its three roles (the Query arrow, the Key arrow and
        # the Value of the person it points at) become the signs of 蘋果's three slots.
        office = focused_office(self)
        signs = office.roles  # the Query arrow, a Key arrow, a Value: in the order of roles()
        self.kept = self._apple_vectors(signs)
        title = self.make_title()
        x = self._matrix(self.ex.x[: self.n], f"{SRC}.x", "X", style.FOREGROUND, tokens=True)
        line = self._equation(x)
        self.add(title, *office)
        # X is drawn large in the left half, over 蘋果's slots, until `project` takes it into
        # its place in X W_Q = Q; the sentence and its pieces, then the columns' names, large
        # in the right half beside it, travel into its rows' and columns' names.
        sentence = self._sentence(x)
        split = self._pieces(sentence[self.ex.query_index])
        whole = self._whole(sentence[self.ex.query_index], split)
        names = self._big_names(x)
        self.x_home, at_intro = self._grow(x)
        at_intro(x.grid.cells)  # over the slots while they stand; full size once they step out
        self._beside(VGroup(sentence, split, whole), x)
        self._beside(names, x)
        self.slots = VGroup(*(VGroup(row[0], row[2], row[3]) for row in self.kept))
        # The office leaves but for its three roles. On "one input, three roles" the Query
        # arrow, the Key arrow and the Value travel down into 蘋果's Q, K and V slots, and as
        # they land the slots' names and meanings and X come in.
        # First the Key arrow parts from the Query arrow it lay along, and each role gets
        # its letter; each letter travels with its sign and becomes its slot's name.
        letters = self._letters(signs)
        travels = LaggedStart(
            *(
                AnimationGroup(
                    ReplacementTransform(sign, row[3], path_arc=SIGN_ARC),
                    ReplacementTransform(letter, row[0], path_arc=SIGN_ARC),
                )
                for sign, letter, row in zip(signs, letters, self.kept, strict=True)
            ),
            lag_ratio=0.15,
        )
        named = LaggedStart(
            *(FadeIn(row[2], shift=UP * style.ITEM_BUFF) for row in self.kept), lag_ratio=0.3
        )
        self.say(
            "intro",
            *(FadeOut(part) for part in office if part not in signs),
            signs[1].animate.shift(DOWN * KEY_DROP),
            FadeIn(letters, lag_ratio=0.3),
            beats={
                "roles": [
                    LaggedStart(
                        travels, AnimationGroup(named, FadeIn(x.grid.cells)), lag_ratio=SIGN_LAG
                    )
                ]
            },
            run_time=1.6,
        )
        # The slots step out (down, fading: nothing refers to them until `q`) and X grows
        # into the height they free; the sentence at once in the right half; each word drops
        # a copy of its row's numbers, which flies into X's row as the row is outlined
        # (word → position → vector).
        self.say(
            "x",
            Succession(
                AnimationGroup(
                    FadeOut(self.slots, shift=DOWN * style.GROUP_BUFF),
                    ApplyFunction(lambda m: at_intro(m, inverse=True), x.grid.cells),
                    FadeIn(sentence, shift=UP * style.ITEM_BUFF),
                    run_time=0.8,
                ),
                LaggedStart(*self._drops(x, sentence), lag_ratio=0.6),
            ),
            run_time=3,
            beats={
                "token": [
                    LaggedStart(
                        *(
                            TransformFromCopy(word, head, path_arc=-0.6)
                            for word, head in zip(sentence, x.grid.row_headers, strict=True)
                        ),
                        lag_ratio=0.4,
                    )
                ],
                "sentence": [outline(*sentence)],
                "part": [TransformFromCopy(sentence[self.ex.query_index], whole)],
                "piece": [ReplacementTransform(whole, split)],
            },
        )
        self.say(
            "dims",
            FadeOut(VGroup(sentence, split)),
            FadeIn(names, lag_ratio=0.3),
            then=[
                [
                    LaggedStart(
                        *(
                            TransformFromCopy(big, small)
                            for big, small in zip(names, x.grid.col_headers, strict=True)
                        ),
                        lag_ratio=0.2,
                    ),
                    FadeIn(x.name),
                ]
            ],
            beats={
                "picked": [outline(*names)],
                "names": [FadeOut(VGroup(names, x.grid.col_headers), shift=UP * style.GROUP_BUFF)],
            },
        )
        kept = self._project_all(line)
        self._differ(kept)
        self._formula()

    # --- pictures ----------------------------------------------------------------------
    def _matrix(self, values, source, name, colour, tokens=False, rows=False) -> VGroup:
        """A matrix with its numbers, its name above, dims over columns (and rows)."""
        dims = self.dim_names(self.ex)
        row_headers = None
        if tokens:
            row_headers = [style.text(t, style.LABEL_SIZE) for t in self.apple_words()[: self.n]]
        elif rows:
            row_headers = [style.text(d, style.SMALL_SIZE, style.MUTED) for d in dims]
        col_headers = [style.text(d, style.SMALL_SIZE, style.MUTED) for d in dims]
        cell = CELL * max(1.0, REFERENCE_DIMS / self.ex.d)
        matrix = LabelledMatrix(values, source, name, colour, col_headers, row_headers, cell)
        matrix.fit = self.fit  # the scale it was drawn at
        return matrix.scale(self.fit)

    def _sentence(self, x: VGroup) -> VGroup:
        """The sentence's words in a row, each to travel into its row's name: at
        :data:`TOKEN_GROWTH` times the names' size."""
        words = VGroup(
            *(style.text(t, style.LABEL_SIZE) for t in self.apple_words()[: self.n])
        ).arrange(RIGHT, buff=style.GROUP_BUFF)
        return words.scale(TOKEN_GROWTH * x.grid.row_headers[0].height / words[0].height)

    def _big_names(self, x: VGroup) -> VGroup:
        """The columns' names large, each to travel onto its column."""
        names = VGroup(*(style.text(d, style.LABEL_SIZE) for d in self.dim_names(self.ex)))
        names.arrange(RIGHT, buff=style.GROUP_BUFF)
        return names.scale(TOKEN_GROWTH * x.grid.row_headers[0].height / names[0].height)

    def _grow(self, x: VGroup) -> tuple[Callable[[VMobject], VMobject], Callable]:
        """X grown (up to :data:`TOKEN_GROWTH`, its row names then at the words' size, at
        most what the content area's height holds: the slots have stepped out) into the
        middle of the frame's left half. Returns the move that takes X, or any part of it,
        back to its place in the equation, and the one that takes a part of it to where it
        stands on `intro` (the same middle, at most the room between the title and 蘋果's
        slots) and back (``inverse=True``)."""
        left, bottom, _, top = style.content_area()
        above = self.kept.get_top()[1] + style.GROUP_BUFF
        right = -style.WIDE_BUFF / 2
        home = x.get_center()

        def fit(low: float) -> tuple[float, np.ndarray]:
            grow = min(TOKEN_GROWTH, (right - left) / x.width, (top - low) / x.height)
            return grow, np.array([(left + right) / 2, (top + low) / 2, 0.0])

        grow, big = fit(bottom)
        small, middle = fit(above)
        x.scale(grow)
        x.move_to(big)

        def back(m: VMobject) -> VMobject:
            return m.scale(1 / grow, about_point=big).shift(home - big)

        def intro(m: VMobject, inverse: bool = False) -> VMobject:
            if inverse:
                return m.shift(big - middle).scale(grow / small, about_point=big)
            return m.scale(small / grow, about_point=big).shift(middle - big)

        return back, intro

    @staticmethod
    def _beside(group: VGroup, x: VGroup) -> VGroup:
        """``group`` centred in the room right of the large X, level with its rows (narrowed
        to fit)."""
        _, _, right, _ = style.content_area()
        left = x.get_right()[0] + style.WIDE_BUFF
        if group.width > right - left:
            group.scale_to_fit_width(right - left)
        return group.move_to([(left + right) / 2, x.grid.cells.get_y(), 0])

    def _drops(self, x: VGroup, sentence: VGroup) -> list[Animation]:
        """Each word's row of X: a copy of its numbers drops out of the word and flies along
        an arc into its row (whose numbers it becomes), the row outlined as it lands."""
        flights = []
        for i, word in enumerate(sentence):
            numbers = VGroup(*(x.grid.get_number(i, c) for c in range(self.ex.d)))
            drop = numbers.copy().arrange(RIGHT, buff=style.ITEM_BUFF)
            drop.scale(DROP_SIZE * word.height / drop.height).next_to(
                word, DOWN, buff=style.ITEM_BUFF
            )
            # in a Succession every drop is on the stage from its start: each waits
            # unseen (just above, transparent) until its turn, then comes down into view
            drop.generate_target()
            drop.shift(UP * style.ITEM_BUFF).set_opacity(0)
            self.add(drop)  # on the stage itself, so that its flight replaces it there
            flights.append(
                Succession(
                    MoveToTarget(drop),
                    AnimationGroup(
                        ReplacementTransform(drop, numbers, path_arc=0.6),
                        outline(x.grid.get_row(i), colour=style.FOREGROUND),
                    ),
                    # the flight's group still holds the drop (now on the numbers): it goes
                    FadeOut(drop, run_time=0.05),
                )
            )
        return flights

    def _whole(self, word: VMobject, pieces: VGroup) -> VGroup:
        """The word as one token, boxed, where its pieces will be."""
        label = word.copy()
        box = SurroundingRectangle(label, buff=style.HUG_BUFF, color=style.MUTED)
        return VGroup(box, label).move_to(pieces)

    @staticmethod
    def _large(line: VMobject, below: VMobject) -> VMobject:
        """``line`` large in the middle of the room between the title and ``below``."""
        left, _, right, top = style.content_area()
        bottom = below.get_top()[1] + style.GROUP_BUFF
        line.scale(min(LARGE_LINE, (right - left) / line.width, (top - bottom) / line.height))
        return line.move_to([(left + right) / 2, (top + bottom) / 2, 0])

    @staticmethod
    def _under_formula(picture: VMobject, stage: FormulaStage) -> VMobject:
        """``picture`` fitted into the room under the formula and left of the worked row,
        where the plane will be."""
        left, bottom, _, _ = style.content_area()
        right = stage.worked.get_left()[0] - style.GROUP_BUFF
        top = stage.formula.get_bottom()[1] - style.GROUP_BUFF
        picture.scale(min((right - left) / picture.width, (top - bottom) / picture.height, 1))
        return picture.move_to([(left + right) / 2, (top + bottom) / 2, 0])

    @staticmethod
    def _lower_half(picture: VMobject, stage: FormulaStage) -> VMobject:
        """``picture`` grown (up to :data:`MATCH_GROWTH`) into the room under the formula and
        the worked row's table, the content area's width."""
        left, bottom, right, _ = style.content_area()
        top = min(stage.formula.get_bottom()[1], stage.table.get_bottom()[1]) - style.GROUP_BUFF
        picture.scale(
            min(MATCH_GROWTH, (right - left) / picture.width, (top - bottom) / picture.height)
        )
        return picture.move_to([(left + right) / 2, (top + bottom) / 2, 0])

    def _wide_walks(self, stage: FormulaStage) -> tuple[RandomWalks, VGroup, VGroup, Animation]:
        """The walks (their spreads, their zoomed marks) drawn as wide as the content area
        and as tall as the room under the formula, across the lower half while they are the
        picture (the worked row's bars are not yet there), so d = 4 against d = 64 reads at a
        glance; and the move that takes them back into the room left of the worked row when
        the bars come. The stage's own walks stay unused: its plane is the seam scoring opens
        on."""
        left, bottom, right, _ = style.content_area()
        top = min(stage.formula.get_bottom()[1], stage.table.get_bottom()[1]) - style.GROUP_BUFF
        # as tall as the room under the formula holds with the marks under its axes; as wide
        # as the area with the marks at its left and room for d = 64 over its end
        walks = stage.walks
        height = top - bottom - (walks.height - walks.axes.height) - style.ITEM_BUFF
        margin = walks.width - walks.axes.width + style.WIDE_BUFF
        walks, marks = _walks(self, (right - left - margin) / (height * WALK_ASPECT))
        walks.scale(height / walks.axes.height)
        if walks.width > right - left - style.WIDE_BUFF:
            walks.scale_to_fit_width(right - left - style.WIDE_BUFF)
        walks.move_to([(left + right) / 2, (top + bottom) / 2, 0])
        # what was drawn (the spread's condition: random q, k; N(0, 1) names a law, it is
        # not measured), in the plot's empty top left (the walks start at 0), an eighth in;
        # at <sharp> it moves to the lower right, clear of the divided sums' first spike. In
        # the walks' frame: it comes, moves and goes with them
        caption = style.name_text(self.words["walks_caption"], style.LABEL_SIZE, style.MUTED)
        caption.next_to(walks.axes.c2p(walks.terms / 8, walks.reach), DR, buff=style.ITEM_BUFF)
        walks.frame.add(caption)
        walks.caption = caption
        spreads = VGroup(*(_spread(self, walks, k) for k in marks))
        # divided by √d: the same bands at the spreads then measured, on the zoomed axis
        spreads.scaled = VGroup(*(_spread(self, walks, k, scaled=True) for k in marks))
        zoomed = walks.zoomed_ticks()
        for new, old in zip(zoomed, walks.ticks, strict=True):  # at the marks' placed size
            new.match_height(old).move_to(old).align_to(old, RIGHT)
        # back beside the worked row (the bars come in at its left's right)
        right = stage.worked.get_left()[0] - style.GROUP_BUFF
        centre = [(left + right) / 2, walks.get_y(), 0]

        def beside(m: VMobject) -> VMobject:  # on play: the walks then divided by √d
            shrink = min(1, (right - left) / m.width)
            m.scale(shrink)
            for tick in m.ticks:  # its marks kept at the size they were read at
                tick.scale(1 / shrink, about_edge=RIGHT)
            for label in m.frame[1:3]:
                label.scale(1 / shrink, about_edge=UP)
            m.caption.scale(1 / shrink, about_edge=DR)  # read at the label size
            return m.move_to(centre)

        back = ApplyFunction(beside, walks)
        return walks, spreads, zoomed, back

    def _pieces(self, word: VMobject) -> VGroup:
        """A word cut into the tokens a tokenizer might make of it (the locale's ``pieces``),
        each boxed, under the word."""
        boxes = VGroup()
        for piece in self.words["pieces"].split("|"):
            label = style.text(piece, style.LABEL_SIZE)
            box = SurroundingRectangle(label, buff=style.HUG_BUFF, color=style.MUTED)
            boxes.add(VGroup(box, label))
        boxes.arrange(RIGHT, buff=style.ITEM_BUFF)
        boxes.scale(word.height / boxes[0][1].height)
        return boxes.next_to(word, DOWN, buff=style.ITEM_BUFF)

    def _equation(self, x: VGroup) -> VGroup:
        """X × W_Q = Q, laid out on the top of the frame, X where it already is."""
        times, equals = MathTex(r"\times", font_size=48), MathTex("=", font_size=48)
        w = self._matrix(self.ex.w_q, f"{SRC}.w_q", "W_Q", style.QUERY, rows=True)
        q = self._matrix(self.ex.q[: self.n], f"{SRC}.q", "Q", style.QUERY)
        line = VGroup(x, times, w, equals, q).arrange(RIGHT, buff=style.GROUP_BUFF)
        width = line.width
        style.place(line, UL)  # at the left: Q, K and V stack in the right column
        line.shift(RIGHT * style.WIDE_BUFF)  # room for the brace on X's rows
        # Above the kept vectors.
        overflow = self.kept.get_top()[1] + style.GROUP_BUFF - line.get_bottom()[1]
        if overflow > 0:
            line.scale((line.height - overflow) / line.height, about_edge=UL)
        self.fit = line.width / width
        for part in (times, equals, q):  # on the rows of X, not the centre of W
            part.match_y(x.grid.cells)
        return line

    def _project_all(self, line: VGroup) -> VGroup:
        """Q, then K, then V, each computed from X; the results stack in the right column
        (one input, three matrices); 蘋果's row of each is kept."""
        x, times, w, equals, result = line
        self.x_home(x.grid.col_headers)  # gone since `dims`: only moved with the rest
        shown = VGroup(x.name, x.grid.cells, x.grid.numbers, x.grid.row_headers)
        self.say(
            "project",
            InTurn(
                ApplyFunction(self.x_home, shown),
                FadeIn(VGroup(times, w, equals), lag_ratio=0.2),
            ),
            then=[[*self._product(x, w, result, style.QUERY), FadeIn(result.heads)]],
        )
        self._apple_row(x, w, result)
        kept = self.kept
        self.say(
            "q",
            FadeIn(self.slots, shift=UP * style.GROUP_BUFF),
            TransformFromCopy(result.grid.get_row(self.ex.query_index), kept[0][1]),
            run_time=1.5,
        )
        # On `k` the slots step out (they come back on `differ`): X × W and the stack of Q,
        # K and V take the whole frame, X and W at body size on the left, the stack at full
        # size centred in the right third.
        later = [
            (
                self._matrix(
                    getattr(self.ex, f"w_{key}"), f"{SRC}.w_{key}", f"W_{letter}", colour, rows=True
                ),
                self._matrix(getattr(self.ex, key)[: self.n], f"{SRC}.{key}", letter, colour),
            )
            for key, letter, colour in roles()[1:]
        ]
        results = [result, *(new for _, new in later)]
        slots = self._stack(results)
        self.stack_left = min(slot.get_left()[0] for slot in slots)
        self.match = self._match_picture()  # under the line on `v`: the line leaves it room
        # what the scores go through on their way to shares, under them (a weight is not q · k)
        self.through = style.text(self.words["to_weights"], style.SMALL_SIZE, style.WEIGHT)
        grow, growth = self._grown(VGroup(x, times, w), equals)
        grow(x.grid.col_headers)  # gone since `dims`: only moved with the rest
        shown = VGroup(x.name, x.grid.cells, x.grid.numbers, x.grid.row_headers)
        w_place = grow(w.copy())
        self.line_bottom = w_place.get_bottom()[1]  # the match comes in under it
        for w_new, _ in later:
            w_new.scale(growth).move_to(w_place)
        for k, (key, _, colour), (w_new, new) in zip((1, 2), roles()[1:], later, strict=True):
            moves = []
            if k == 1:  # Q steps up into the stack's top, its columns' names (read) leaving;
                # the slots step out, X and × grow into the frame's left
                moves = [
                    FadeOut(result.grid.col_headers),
                    Transform(result.body, slots[0][1]),
                    Transform(result.name, slots[0][0]),
                    # only what is shown: 蘋果's Q and the slots (its K and V not yet in)
                    FadeOut(VGroup(kept[0][1], self.slots), shift=DOWN * style.GROUP_BUFF),
                    ApplyFunction(grow, shown),
                    ApplyFunction(grow, times),
                ]
            new.body.become(slots[k][1])
            new.name.become(slots[k][0])
            equals.generate_target().scale(growth if k == 1 else 1)
            equals.target.next_to(new.name, LEFT, buff=style.ITEM_BUFF)
            beats = self._shares(new, results[0], results[1], equals) if key == "v" else {}
            changed = []  # V: where it differs from X, and the one cell of W_V that did it
            if key == "v":
                frames = self._changed(x, w_new, new)
                changed = [[LaggedStart(*(Create(f) for f in frames), lag_ratio=0.6)]]
                beats["match"].append(FadeOut(frames))
            # 蘋果's row first, as the same sum of W's rows as its Q (small, quick), under
            # the line; it lands in its row of the stack, then the rest fills in
            built, landed, row_sum = self._quick_sum(x, w_new, new, colour)
            # then only the other rows fill, each out of its row of X, in turn (蘋果's landed)
            i = self.ex.query_index
            others = [(r, new.grid.get_row(r)) for r in range(self.n) if r != i]
            fill = LaggedStart(
                *(TransformFromCopy(x.grid.get_row(r), row, path_arc=-0.4) for r, row in others),
                lag_ratio=0.4,
            )
            self.say(
                key,
                ReplacementTransform(w, w_new),
                *moves,
                MoveToTarget(equals),
                then=[
                    built,
                    [*landed, FadeIn(new.name)],
                    [outline(w_new.body, colour=colour), fill, FadeOut(row_sum)],
                    *changed,
                ],
                beats=beats,
                run_time=0.7 if k == 2 else 1.0,  # the same product again: one quick beat each
            )
            # the landed row and the filled ones: the whole matrix on the stage, by itself
            self.remove(landed[0].animations[-1].mobject, *(row for _, row in others))
            self.add(new.body)
            w = w_new
        self.stack = VGroup(*(VGroup(r.body, r.name) for r in results))
        self.results = results
        self._shape(x, results, equals)
        self.equation = VGroup(x, times, w, equals, self.stack, self.shape)
        return kept

    def _row_sum(self, w: VGroup, result: VGroup) -> tuple[list[int], VGroup, VGroup, VGroup]:
        """蘋果's row of ``result`` (= X ``w``) as a sum of ``w``'s rows: the columns its x
        uses (its non-zero entries), the terms ``x_c × row c`` joined by +, the whole line
        ``terms = row`` (its last part a copy of ``result``'s row) and each term's row name
        under it."""
        i = self.ex.query_index
        used = [c for c in range(self.ex.d) if self.ex.x[i][c]]
        terms = VGroup()
        for k, c in enumerate(used):
            term = VGroup(
                self.number(f"{SRC}.x[{i}][{c}]", 1, style.LABEL_SIZE),
                MathTex(r"\times", font_size=40),
                w.grid.get_row(c).copy(),
            ).arrange(RIGHT, buff=style.ITEM_BUFF)
            if k:
                terms.add(MathTex("+", font_size=48))
            terms.add(term)
        line = VGroup(*terms, MathTex("=", font_size=48), result.grid.get_row(i).copy())
        line.arrange(RIGHT, buff=style.ITEM_BUFF)
        names = VGroup(
            *(
                w.grid.row_headers[c].copy().next_to(term[2], DOWN, buff=style.TIGHT_BUFF)
                for term, c in zip(terms[::2], used, strict=True)
            )
        )
        return used, terms, line, names

    def _quick_sum(
        self, x: VGroup, w: VGroup, result: VGroup, colour
    ) -> tuple[list[Animation], list[Animation], VGroup]:
        """蘋果's row of ``result`` (K or V) as the sum apple_q drew for Q: each used row of
        ``w`` (the non-zero entries of 蘋果's x) lifts out along an arc with its X entry and its
        name, into ``x₁ × row + x₂ × row = row``, at the matrices' size (as far as the room
        under the line and left of the stack holds), centred there. Returns the lift (one
        quick beat), the sum's result flying into its row of ``result`` where it stands, and
        the sum (to leave as the rest of the product fills in)."""
        i = self.ex.query_index
        used, terms, line, names = self._row_sum(w, result)
        total = line[-1]
        named = VGroup(line, names)
        left, bottom, _, _ = style.content_area()
        right = self.stack_left - style.GROUP_BUFF
        top = self.line_bottom - style.GROUP_BUFF
        named.scale(min(1.0, (right - left) / named.width, (top - bottom) / named.height))
        named.move_to([(left + right) / 2, (top + bottom) / 2, 0])
        lifts = [
            AnimationGroup(
                TransformFromCopy(x.grid.get_number(i, c), term[0], path_arc=ROW_ARC),
                FadeIn(term[1]),
                TransformFromCopy(w.grid.get_row(c), term[2], path_arc=ROW_ARC),
                TransformFromCopy(w.grid.row_headers[c], name, path_arc=ROW_ARC),
            )
            for term, name, c in zip(terms[::2], names, used, strict=True)
        ]
        built = [
            AnimationGroup(
                LaggedStart(*lifts, lag_ratio=0.3),
                FadeIn(VGroup(*terms[1::2], line[-2])),
                run_time=0.6,
            )
        ]
        landed = TransformFromCopy(total, result.grid.get_row(i), path_arc=-0.4)
        return built, [InTurn(TransformFromCopy(VGroup(*terms[::2]), total), landed)], named

    def _grown(
        self, line: VGroup, equals: VMobject
    ) -> tuple[Callable[[VMobject], VMobject], float]:
        """The move that takes X × W (``line``), or any part of it, from the top of the
        frame to as large as the room left of the stack holds (with ``equals`` before the
        stack's letter), at the top left; and how much it grows (later matrices grow too)."""
        left, bottom, _, top = style.content_area()
        room = self.stack_left - style.ITEM_BUFF - equals.width - style.GROUP_BUFF
        room -= left + style.WIDE_BUFF  # the brace on X's rows
        # under it, room for the match picture at its least size, the softmax under it
        through = self.through.height + style.HUG_BUFF
        tall = top - bottom - style.GROUP_BUFF - MATCH_LEAST * self.match.height - through
        grow = min(LINE_GROWTH, room / line.width, tall / line.height)
        anchor = line.get_corner(UL)
        corner = np.array([left + style.WIDE_BUFF, top, 0.0])
        self.fit *= grow

        def move(m: VMobject) -> VMobject:
            return m.scale(grow, about_point=anchor).shift(corner - anchor)

        return move, grow

    @staticmethod
    def _product(x: VGroup, w: VGroup, result: VGroup, colour) -> list[Animation]:
        """X times ``w`` into ``result``: the live matrix outlined as X's numbers and its
        own flow together into the result's (not X's cells alone, which would read as a
        copy of X)."""
        return [
            outline(w.body, colour=colour),
            TransformFromCopy(VGroup(x.body, w.body), result.body, path_arc=-0.4),
        ]

    def _changed(self, x: VGroup, w: VGroup, result: VGroup) -> VGroup:
        """Frames on where ``result`` (V) differs from X: the cell of X, the off-diagonal
        cell of ``w`` that changed it and the result's cell (V = X W_V, W_V the identity but
        for one cell), to be drawn in turn and kept while the line goes on."""
        values, matrix = self.ex.v, self.ex.w_v
        cells = []
        for i in range(self.n):
            for c in range(self.ex.d):
                if abs(values[i][c] - self.ex.x[i][c]) < 1e-6:
                    continue
                terms = [r for r in range(self.ex.d) if r != c and self.ex.x[i][r] * matrix[r][c]]
                cells += [
                    x.grid.get_cell(i, c),
                    *(w.grid.get_cell(r, c) for r in terms),
                    result.grid.get_cell(i, c),
                ]
        return VGroup(
            *(
                SurroundingRectangle(cell, buff=style.TIGHT_BUFF, color=style.HIGHLIGHT)
                for cell in cells
            )
        )

    def _stack(self, results: list[VGroup]) -> list[VGroup]:
        """Where Q, K and V (``results``, as the line has them) stand stacked, centred in the
        frame's right third, with their letters at their left: ``(letter, body)``. Each is
        :data:`STACK` of the body size, its cells smaller still where the three would not fit
        the content area's height, its numbers then at least :data:`STACK_NUMBERS`."""
        left, bottom, right, top = style.content_area()
        room = top - bottom - 2 * style.ITEM_BUFF - (style.GROUP_BUFF + style.ITEM_BUFF)  # d's
        size = min(STACK, room / sum(r.body.height / r.fit for r in results))
        slots = VGroup()
        for r in results:
            body, name = r.body.copy().scale(size / r.fit), r.name.copy().scale(STACK / r.fit)
            for number in body[1]:  # no larger than the cells hold, unless they'd read small
                number.scale(max(size, STACK_NUMBERS) / size)
            slots.add(VGroup(name.next_to(body, LEFT, buff=style.ITEM_BUFF), body))
        slots.arrange(DOWN, buff=style.ITEM_BUFF, aligned_edge=RIGHT)
        # centred in the right third, over the room the brace under it takes
        third = (right - left) / 3
        below = style.GROUP_BUFF + style.ITEM_BUFF
        slots.move_to([right - third / 2, (top + bottom + below) / 2, 0])
        return list(slots)

    def _apple_row(self, x: VGroup, w: VGroup, q: VGroup) -> None:
        """蘋果's row of X, through W_Q's food row, becomes a Query that looks for eating:
        Q's row is X's entries times W_Q's rows, added."""
        i = self.ex.query_index
        food = max(range(self.ex.d), key=lambda c: self.ex.x[i][c])
        eat = max(range(self.ex.d), key=lambda c: self.ex.q[i][c])
        row = SurroundingRectangle(x.grid.get_row(i), buff=style.TIGHT_BUFF)
        food_cell = SurroundingRectangle(x.grid.get_cell(i, food), buff=0)
        w_row = SurroundingRectangle(w.grid.get_row(food), buff=style.TIGHT_BUFF)
        w_cell = SurroundingRectangle(w.grid.get_cell(food, eat), buff=0)
        VGroup(row, food_cell, w_row, w_cell).set_color(style.HIGHLIGHT)
        big = self.spoken(f"{SRC}.q[{i}][{eat}]", 1)
        self.say(
            "apple_row",
            Create(row),
            then=[[ReplacementTransform(row.copy(), food_cell)]],
            beats={"wq": [Create(w_row), Succession(Wait(0.3), Create(w_cell))]},
            token=self.apple_words()[i],
            big=big,
        )
        # X's entries weigh W_Q's rows; only the non-zero ones add anything; each lifted row
        # keeps its name under it (X's column c goes with W_Q's row c)
        used, terms, line, names = self._row_sum(w, q)
        result = line[-1]
        # and a word on the terms left out: X's other entries are 0
        zero = [c for c in range(self.ex.d) if c not in used]
        note = VGroup()
        if zero:
            dims = self.dim_names(self.ex)
            words = self.all_of([dims[c] for c in zero])
            note = phrase(
                self.words["zero_terms"].replace("{dims}", words),
                style.SMALL_SIZE,
                style.MUTED,
                zero=self.number(f"{SRC}.x[{i}][{zero[0]}]", 1),
            )
        # at body size (as far as the room holds) under the equation, where the slots wait:
        # they step aside for the sum; the note under it, unless it would shrink the sum below
        # the matrices' size (English: four rows a matrix, little height under them)
        left, bottom, right, _ = style.content_area()
        top = VGroup(x, w, q).get_bottom()[1] - style.GROUP_BUFF
        named = VGroup(line, names)
        grow = min(SUM_GROWTH / self.fit, (right - left) / named.width)
        alone = min(grow, (top - bottom) / named.height)
        under = min(grow, (top - bottom - note.height - style.ITEM_BUFF) / named.height)
        if under < min(1.0, alone):
            note = VGroup()
        named.scale(under if len(note) else alone)
        note.next_to(named, DOWN, buff=style.ITEM_BUFF)
        VGroup(named, note).move_to([(left + right) / 2, (top + bottom) / 2, 0])
        moves = []  # each used row of W_Q lifts out along an arc, its X entry beside it
        for term, name, c in zip(terms[::2], names, used, strict=True):
            moves.append(
                AnimationGroup(
                    outline(w.grid.get_row(c), colour=style.QUERY),
                    TransformFromCopy(x.grid.get_number(i, c), term[0], path_arc=ROW_ARC),
                    FadeIn(term[1]),
                    TransformFromCopy(w.grid.get_row(c), term[2], path_arc=ROW_ARC),
                    TransformFromCopy(w.grid.row_headers[c], name, path_arc=ROW_ARC),
                )
            )
        cell = SurroundingRectangle(q.grid.get_cell(i, eat), buff=0, color=style.HIGHLIGHT)
        result_cell = SurroundingRectangle(result[eat], buff=0, color=style.HIGHLIGHT)
        self.say(
            "apple_q",
            FadeOut(VGroup(row, w_row)),
            LaggedStart(*moves, lag_ratio=0.5),
            FadeIn(VGroup(*terms[1::2])),
            then=[[FadeIn(line[-2]), TransformFromCopy(VGroup(*terms[::2]), result), FadeIn(note)]],
            beats={
                "cell": [
                    ReplacementTransform(VGroup(food_cell, w_cell), VGroup(cell, result_cell)),
                    TransformFromCopy(result, q.grid.get_row(i)),
                ]
            },
            big=big,
        )
        self.play(FadeOut(VGroup(cell, result_cell, line, names, note)))

    def _apple_vectors(self, signs: VGroup) -> VGroup:
        """蘋果's Query, Key and Value, one under another at the bottom, with their meaning,
        and before each the office's sign of that role (``signs``: the Query arrow, a Key
        arrow, a Value), small: ``(name, vector, meaning, sign)``."""
        i = self.ex.query_index
        rows = VGroup()
        for key, letter, colour in roles():
            vector = NumberVector(
                getattr(self.ex, key)[i], f"{SRC}.{key}[{i}]", "", colour, decimals=1
            )
            name = style.text(
                self.words.format("apple_of", role=letter, token=self.apple_words()[i]),
                style.LABEL_SIZE,
                colour,
            )
            meaning = style.text(self.words[f"{key}_means"], style.LABEL_SIZE, colour)
            rows.add(VGroup(name, vector, meaning).arrange(RIGHT, buff=style.GROUP_BUFF))
        rows.arrange(DOWN, buff=style.ITEM_BUFF, aligned_edge=LEFT)
        style.place(rows, DOWN)
        small = [self._sign(sign) for sign in signs]
        column = max(sign.width for sign in small)  # the signs centred in one column
        left = rows.get_left()[0] - style.GROUP_BUFF - column / 2
        for row, sign in zip(rows, small, strict=True):
            row.add(sign.move_to([left, row[0].get_y(), 0]))  # the rows stay where they were
        # at the content area's left: the right column is the stack of Q, K and V
        return rows.shift(RIGHT * (style.content_area()[0] - rows.get_left()[0]))

    @staticmethod
    def _letters(signs: VGroup) -> VGroup:
        """Q, K, V in their colours beside the office's three roles (the Key arrow's where
        it will be once it has dropped below the Query arrow)."""
        letters = VGroup(*(MathTex(letter, font_size=48, color=c) for _, letter, c in roles()))
        letters[0].next_to(signs[0], UP, buff=style.ITEM_BUFF)
        letters[1].next_to(signs[1], DOWN, buff=style.ITEM_BUFF).shift(DOWN * KEY_DROP)
        letters[2].next_to(signs[2], RIGHT, buff=style.ITEM_BUFF)
        return letters

    @staticmethod
    def _sign(role: VMobject) -> VMobject:
        """An office role small, as a slot's sign: an arrow (the Query, a Key) as short as
        :data:`SIGN_WIDTH` in its own direction and colour, with a tip that reads at that
        length; a Value (days) at the rows' label size."""
        if not isinstance(role, Arrow):
            return role.copy().scale(style.LABEL_SIZE / style.SMALL_SIZE)
        start, reach = role.get_start(), role.get_unit_vector() * SIGN_WIDTH
        return Arrow(start, start + reach, buff=0, color=role.get_color(), stroke_width=SIGN_STROKE)

    def _x_row(self, i: int) -> VGroup:
        """Row ``i`` of X as a vector with its name: what the three roles are made from."""
        vector = NumberVector(self.ex.x[i], f"{SRC}.x[{i}]", "", style.FOREGROUND, decimals=1)
        name = style.text(
            self.words.format("apple_of", role="x", token=self.apple_words()[i]), style.LABEL_SIZE
        )
        return VGroup(name, vector).arrange(DOWN, buff=style.ITEM_BUFF)

    def _match_picture(self) -> VGroup:
        """蘋果's Q against K's three rows, each with its q · k, and a frame for the largest:
        ``(q, dot, rows, best)``, each row ``(word, k, =, q · k)``; unplaced."""
        rows = VGroup()
        for j, word in enumerate(self.apple_words()[: self.n]):
            key = NumberVector(self.ex.k[j], f"{SRC}.k[{j}]", "", style.KEY, decimals=1)
            rows.add(
                VGroup(
                    style.text(word, style.LABEL_SIZE, style.KEY),
                    key,
                    MathTex("=", font_size=40),
                    self.number(f"{SRC}.dots[{j}]", 2, style.LABEL_SIZE),
                ).arrange(RIGHT, buff=style.ITEM_BUFF)
            )
        rows.arrange(DOWN, buff=style.ITEM_BUFF, aligned_edge=RIGHT)
        q = self.kept[0][1].copy()
        match = VGroup(q, MathTex(r"\cdot", font_size=48), rows).arrange(
            RIGHT, buff=style.ITEM_BUFF
        )
        q.match_y(rows)
        top = max(range(self.n), key=lambda j: self.ex.dots[j])
        best = SurroundingRectangle(rows[top], buff=style.HUG_BUFF, color=style.HIGHLIGHT)
        return match.add(best)

    @staticmethod
    def _match_in(
        match: VGroup, source: VMobject, *also: Animation, k: VGroup | None = None
    ) -> Animation:
        """蘋果's Q out of ``source`` against K's rows (with ``also`` at first), each q · k
        grown out of its pair, the largest framed. Where K stands on screen (``k``), each k
        flies out of its row of it; the words, the "=" and the "·" fade in."""
        q, dot, rows, best = match
        keys = [r[1] for r in rows]
        flown = (
            []
            if k is None
            else [TransformFromCopy(k.grid.get_row(j), r) for j, r in enumerate(keys)]
        )
        faded = [r[:3] if k is None else (r[0], r[2]) for r in rows]
        return InTurn(
            AnimationGroup(
                *also,
                TransformFromCopy(source, q),
                *flown,
                FadeIn(dot, VGroup(*(VGroup(*r) for r in faded))),
            ),
            LaggedStart(*(TransformFromCopy(VGroup(q, r[1]), r[3]) for r in rows), lag_ratio=0.3),
            Create(best),
        )

    def _shares(
        self, v: VGroup, q: VGroup, k: VGroup, equals: VMobject
    ) -> dict[str, list[Animation]]:
        """Who matches 蘋果 best: its Q (out of ``q``, the stack's Q) against K's three rows
        (out of ``k``, the stack's K), each q · k grown out of the pair, the largest framed;
        then each match sends its share (蘋果's attention weights) to its word's V row, the
        frame with the best one's. The "=" before the stack's letters (``equals``) dims
        meanwhile: nothing left of V reads as what V is."""
        rows, best = self.match[2], self.match[3]
        through = self.through
        # in the lower left, under X × W and left of the stack, with the softmax under the
        # scores (what they go through), off the rows of the stack
        left, bottom, _, _ = style.content_area()
        right = self.stack_left - style.GROUP_BUFF
        top = self.line_bottom - style.GROUP_BUFF
        tall = top - bottom - through.height - style.HUG_BUFF
        self.match.scale(
            min(MATCH_GROWTH, tall / self.match.height, (right - left) / self.match.width)
        )
        scores = VGroup(*(r[3] for r in rows))
        through.next_to(scores, DOWN, buff=style.HUG_BUFF).align_to(scores, RIGHT)
        VGroup(self.match, through).move_to([left, (top + bottom) / 2, 0], aligned_edge=LEFT)
        source = f"{SRC}.last_row.weights[0]"
        self.weights = VGroup(
            *(
                self.number(f"{source}[{j}]", 2, style.LABEL_SIZE, style.WEIGHT).next_to(
                    v.grid.get_row(j), RIGHT, buff=style.ITEM_BUFF
                )
                for j in range(self.n)
            )
        )
        top = max(range(self.n), key=lambda j: self.ex.last_row.weights[0][j])
        share = SurroundingRectangle(
            VGroup(v.grid.get_row(top), self.weights[top]), buff=style.TIGHT_BUFF
        ).set_color(style.HIGHLIGHT)
        self.leaving = VGroup(*self.match[:3], share, through)  # they leave together (the
        # best frame has become the share's)
        return {
            "match": [
                self._match_in(self.match, q.grid.get_row(self.ex.query_index), k=k),
                ApplyMethod(equals.set_opacity, style.DIMMED),  # at play: it has moved to V
            ],
            "more": [
                FadeIn(through),
                LaggedStart(
                    *(
                        TransformFromCopy(r[3], w, path_arc=0.6)
                        for r, w in zip(rows, self.weights, strict=True)
                    ),
                    lag_ratio=0.2,
                ),
                ReplacementTransform(best, share, path_arc=0.6),
            ],
        }

    def _shape(self, x: VGroup, results: list[VGroup], equals: VMobject) -> None:
        """3 positions in: a brace along X's rows, which travels across the equation onto
        the rows of each of Q, K and V in the stack; each of them 3 rows of 4: a brace under
        the stack's columns. The "=" (``equals``), dimmed while the shares were on, is back."""
        n, d = (self.number(f"{SRC}.short", 0, style.LABEL_SIZE), self.number(f"{SRC}.d", 0))
        d.set(font_size=style.LABEL_SIZE)
        rows_in = self._brace(VGroup(x.grid.row_headers, x.grid.cells), LEFT, n)
        rows_out = VGroup(*(self._brace(r.grid.cells, RIGHT, n.copy()) for r in results))
        cols = self._brace(results[-1].grid.cells, DOWN, d)
        self.shape = VGroup(rows_out, cols)
        self.say(
            "shape_line",
            FadeOut(VGroup(self.weights, self.leaving)),
            ApplyMethod(equals.set_opacity, 1),
            beats={
                "in": [
                    Succession(
                        AnimationGroup(GrowFromCenter(rows_in[0]), FadeIn(rows_in[1])),
                        AnimationGroup(
                            *(TransformFromCopy(rows_in, r, path_arc=0.5) for r in rows_out[:-1]),
                            ReplacementTransform(rows_in, rows_out[-1], path_arc=0.5),
                        ),
                    )
                ],
                "each": [
                    Succession(
                        outline(*self.stack, colour=style.FOREGROUND),
                        AnimationGroup(GrowFromCenter(cols[0]), FadeIn(cols[1])),
                    )
                ],
            },
            n=n,
            d=d,
        )

    @staticmethod
    def _brace(group: VMobject, side, label: VMobject) -> VGroup:
        """A brace on ``side`` of ``group`` with ``label`` beyond it."""
        brace = Brace(group, side, buff=style.TIGHT_BUFF, color=style.MUTED)
        return VGroup(brace, label.next_to(brace, side, buff=style.TIGHT_BUFF))

    def _heats(self) -> VGroup:
        """W_Q, W_K and W_V side by side as small heat maps with their numbers, on one
        colour scale, so the cells that differ show as colours that differ."""
        values = [getattr(self.ex, f"w_{key}") for key, _, _ in roles()]
        high = max(max(r) for w in values for r in w)
        low = min(0.0, *(min(r) for w in values for r in w))
        heats = VGroup()
        for w, (key, letter, colour) in zip(values, roles(), strict=True):
            grid = AttentionGrid(
                w, f"{SRC}.w_{key}", cell_size=HEAT_CELL, decimals=1, value_range=(low, high)
            )
            # the columns' names close over the cells (the rows' names too would shrink the
            # maps under the numbers' least size)
            names = VGroup(
                *(
                    style.text(d, style.SMALL_SIZE, style.MUTED).next_to(
                        grid.get_cell(0, c), UP, buff=style.HUG_BUFF
                    )
                    for c, d in enumerate(self.dim_names(self.ex))
                )
            )
            fit_column_labels(names)
            # the outer names kept within the map's width (the maps stand side by side)
            if names[0].get_left()[0] < grid.cells.get_left()[0]:
                names[0].align_to(grid.cells, LEFT)
            if names[-1].get_right()[0] > grid.cells.get_right()[0]:
                names[-1].align_to(grid.cells, RIGHT)
            grid.col_headers.add(*names)
            grid.cells.set_stroke(colour, width=2)
            name = MathTex(f"W_{letter}", font_size=40, color=colour)
            heats.add(VGroup(grid, name.next_to(grid, UP, buff=style.HUG_BUFF)))
        return heats.arrange(RIGHT, buff=style.GROUP_BUFF, aligned_edge=DOWN)

    def _differ(self, kept: VGroup) -> None:
        """The equation gives way to the three matrices, kept small side by side; 蘋果's row
        of X goes through each into its three different vectors."""
        # 蘋果's row of X on the left, its three vectors on the right: one source, three roles.
        i = self.ex.query_index
        source = self._x_row(i)
        target = kept.copy()
        below = VGroup(source, target).arrange(RIGHT, buff=style.WIDE_BUFF * 2)
        left, _, right, _ = style.content_area()
        grow = min(SELF_GROWTH, FILL * (right - left) / below.width)
        below.scale(grow)  # the three vectors large: they are the picture now
        heats = self.heats = self._heats()
        trained = self._trained()
        top = VGroup(heats, trained).arrange(RIGHT, buff=style.WIDE_BUFF, aligned_edge=DOWN)
        if top.width > right - left:  # the maps narrowed alone: 蘋果's vectors keep their size
            top.scale_to_fit_width(right - left)
        style.place(VGroup(top, below).arrange(DOWN, buff=style.SECTION_BUFF))
        kept.scale(grow).move_to(target)  # where the slots come back (out of the stack)
        # While training is the subject, the trained W_Q stands large in the frame beside the
        # loss curve (the other maps and 蘋果's vectors step out for them); on "self" it
        # leaves with the curve.
        run = self._run(trained)
        x, times, w, equals, result, shape = self.equation
        eat = max(range(self.ex.d), key=lambda c: self.ex.q[i][c])
        # In turn, each map alone bright: its 吃 column is framed, a copy of 蘋果's x stands
        # up beside it (entry r level with row r: x · W[:, 吃] pairs them) and merges into
        # its vector's 吃 entry as the frame moves there: one source, three maps, three
        # different entries.
        frames, rows, copies = VGroup(), VGroup(), VGroup()  # frames left; columns'; x's copies
        steps: list[Animation] = []
        for k, (heat, row, (_, _, colour)) in enumerate(zip(heats, target, roles(), strict=True)):
            passing, (lit, copy, framed) = self._through(source[1], heat[0], row[1], colour, eat)
            light = [Transform(h, _lit(h, j == k)) for j, h in enumerate(heats)]
            if k:  # the last map's column frame goes as the next map lights
                light.append(FadeOut(rows[-1]))
            steps += [AnimationGroup(*light, passing[0], run_time=PASS[0]), *passing[1:]]
            frames.add(lit)
            rows.add(framed)
            copies.add(copy)
        steps.append(  # the maps bright again; the copies, become the vectors, give way to them
            AnimationGroup(
                *(Transform(h, _lit(h, True)) for h in heats),
                *(FadeOut(c) for c in copies),  # each: a group of them is on no stage
                run_time=0.2,
            )
        )
        self.say(
            "differ",
            ReplacementTransform(w, heats[2]),
            FadeIn(heats[:2], shift=RIGHT * style.GROUP_BUFF),
            FadeOut(VGroup(times, equals, result, shape)),
            FadeOut(x),
            TransformFromCopy(x.grid.get_row(i), source),
            FadeIn(VGroup(*(VGroup(r[0], r[2], r[3]) for r in kept))),
            *(
                TransformFromCopy(r.grid.get_row(i), row[1])
                for r, row in zip(self.results, kept, strict=True)
            ),
            run_time=3.6,  # the three passes take their cue, one map at a time
            beats={
                "three": [InTurn(*steps)],
                "hand": [FadeOut(VGroup(frames, rows[-1])), outline(*(h[0] for h in heats))],
                # Stepping starts as the random start lands, and goes on at one pace
                # through the next cue into the trained W_Q.
                "trained": [
                    Succession(
                        AnimationGroup(
                            FadeOut(VGroup(source, kept, heats)),
                            FadeIn(VGroup(run.shown, trained.body[0].name, run.plot, run.dot)),
                            FadeIn(run.ghost),
                            run_time=LANDING,
                        ),
                        self._settle(run, 0, len(run.frames) // 2),
                    )
                ],
                "tuned": [self._settle(run, len(run.frames) // 2, len(run.frames) - 1)],
            },
        )
        run.settled(self, trained)
        vector = source[1]
        arrows = VGroup(
            *(
                Arrow(vector.get_right(), row[0].get_left(), buff=style.ITEM_BUFF, color=colour)
                for row, (_, _, colour) in zip(kept, roles(), strict=True)
            )
        )
        # The colour model's W_Q leaves with its loss curve (self is about this sentence's
        # maps); the three maps come back centred over the grid.
        self.heats.set_x(sum(style.content_area()[0::2]) / 2)
        # 蘋果's three slots as they stood at `differ` (name, vector, meaning, sign), copied
        # before the grid takes their vectors: each vector the target of its cell on <has>
        slots = kept.copy()
        grid = self._roles_grid(source, kept, self.heats)  # takes kept's vectors
        self._beside_x(slots, grid.stand_ins[0], self.heats.get_bottom()[1] - style.ITEM_BUFF)
        # on <has> the x column's letter becomes 蘋果's x (its one row), as its slots are named
        x_name = self._x_name(slots[0][0]).next_to(grid.stand_ins[0], UP, buff=style.ITEM_BUFF)
        self.say(
            "self",
            FadeOut(VGroup(run.plot, run.dot, run.ghost, trained)),
            FadeIn(VGroup(source, kept, self.heats)),
            then=[[outline(vector, colour=style.FOREGROUND)]],
            run_time=2.5,  # the grid fills row by row under its cue
            beats={
                "same": [  # the office's signs give way: the arrows end at the names
                    FadeOut(VGroup(*(row[3] for row in kept))),
                    LaggedStart(*(GrowArrow(a) for a in arrows), lag_ratio=0.4),
                ],
                "roles": [self._fill(grid, source, kept, arrows)],
                # the other words leave; 蘋果's Q, K and V fly out of the grid into its
                # three role slots, each with its meaning and its office sign, in turn
                "has": [
                    *(FadeOut(m) for j, row in enumerate(grid.rows) if j != i for m in row),
                    FadeOut(grid.headers[1:]),
                    ReplacementTransform(grid.headers[0], x_name),
                    LaggedStart(
                        *(
                            AnimationGroup(
                                Transform(vector, slot[1], path_arc=-0.5),
                                *(FadeIn(m, shift=RIGHT * style.TIGHT_BUFF) for m in slot[::2]),
                                FadeIn(slot[3], shift=RIGHT * style.TIGHT_BUFF),
                            )
                            for vector, slot in zip(grid.rows[i][2:], slots, strict=True)
                        ),
                        lag_ratio=0.5,
                    ),
                ],
            },
            token=self.apple_words()[i],
        )
        # Each part on the stage by itself (the grid's pieces came in inside one turn).
        parts = [*grid.headers, *(m for row in grid.rows for m in row)]
        self.remove(*parts)
        self.add(x_name, *grid.rows[i])  # the others left on <has>
        # 蘋果's x and its three vectors, with their letters: carried under the formula's
        # first line, stacked (x, then Q, K, V); the rest of the grid leaves.
        row = grid.rows[i]
        self.roles_picture = VGroup(
            VGroup(x_name, row[1]),
            VGroup(),
            *(VGroup(slot[0], v) for slot, v in zip(slots, row[2:], strict=True)),
        )

    def _x_name(self, like: VMobject) -> VMobject:
        """「蘋果」的 x: 蘋果's row of X named as its slots are (at ``like``'s scale)."""
        token = self.apple_words()[self.ex.query_index]
        name = style.text(self.words.format("apple_of", role="x", token=token), style.LABEL_SIZE)
        letter = self.words.format("apple_of", role="Q", token=token)
        return name.scale(like.height / style.text(letter, style.LABEL_SIZE).height)

    @staticmethod
    def _beside_x(slots: VGroup, x: VMobject, top: float) -> None:
        """The slots one under another in the room right of 蘋果's x (``x``, in the grid:
        the other rows have left by then) and under ``top`` (the maps' bottom), centred
        there, narrowed to fit."""
        _, bottom, right, _ = style.content_area()
        left = x.get_right()[0] + style.WIDE_BUFF
        slots.arrange(DOWN, buff=style.ROW_BUFF, aligned_edge=LEFT)
        slots.scale(min(1.0, (right - left) / slots.width, (top - bottom) / slots.height))
        slots.move_to([(left + right) / 2, (top + bottom) / 2, 0])

    def _roles_grid(self, source: VGroup, kept: VGroup, maps: VGroup) -> RolesGrid:
        """Every position's x and its Q, K and V (``tokens.eat_apple``), a row per word and
        a column per role under its letter, filling the room below the maps: 蘋果's row is
        its x and its three vectors (moved in); placed, the other rows not yet shown."""
        i = self.ex.query_index
        factor = kept[0][1].height / self._vector("q", i).height  # as 蘋果's Q stands now
        rows = []
        for word in self.apple_words()[: self.n]:
            label = style.text(word, style.LABEL_SIZE).scale(factor)
            rows.append([label])
        for j, row in enumerate(rows):
            row += [self._vector(key, j).scale(factor) for key in ("x", "q", "k", "v")]
        stand_ins = rows[i][1:]  # all at one size: 蘋果's x and vectors take it as they move
        headers = [MathTex("X", font_size=40, color=style.FOREGROUND)]
        headers += [MathTex(letter, font_size=40, color=c) for _, letter, c in roles()]
        table = VGroup(VectorizedPoint(), *headers, *(m for row in rows for m in row))
        table.arrange_in_grid(rows=self.n + 1, cols=5, buff=(style.GROUP_BUFF, style.HUG_BUFF))
        left, bottom, right, _ = style.content_area()
        top = maps.get_bottom()[1] - style.ITEM_BUFF  # the letters close under the maps
        table.scale(min(SELF_GROWTH, (right - left) / table.width, (top - bottom) / table.height))
        table.move_to([(left + right) / 2, (top + bottom) / 2, 0])
        rows[i] = [rows[i][0], source[1], *(r[1] for r in kept)]  # the real ones move in
        return RolesGrid(VGroup(*headers), rows, stand_ins)

    def _vector(self, key: str, j: int) -> NumberVector:
        """Row ``j`` of X, Q, K or V (``key``) written out, in its colour."""
        colours = {"x": style.FOREGROUND} | {k: c for k, _, c in roles()}
        values = getattr(self.ex, key)[j]
        return NumberVector(values, f"{SRC}.{key}[{j}]", "", colours[key], decimals=1)

    def _fill(self, grid: RolesGrid, source: VGroup, kept: VGroup, arrows: VGroup) -> Animation:
        """蘋果's x and its vectors move into its row of the grid, their names into the
        columns' letters; the other words' rows of X come in beside it, and row by row each
        x sends a copy into its Q, its K and its V."""
        i = self.ex.query_index
        apple = grid.rows[i]
        moves = [
            # x came out of X by a transform, which left copies of it in ``source`` (Manim
            # pads a group to the other's count): they go as x moves.
            *(FadeOut(m) for m in source[2:]),
            FadeOut(arrows),
            FadeOut(VGroup(*(r[2] for r in kept))),
            *(Transform(m, st) for m, st in zip(apple[1:], grid.stand_ins, strict=True)),
            *(
                ReplacementTransform(name, header)
                for name, header in zip(
                    (source[0], *(r[0] for r in kept)), grid.headers, strict=True
                )
            ),
            FadeIn(apple[0]),
        ]
        others = [row for j, row in enumerate(grid.rows) if j != i]
        heats = self.heats
        return InTurn(
            AnimationGroup(*moves, run_time=1.0),
            FadeIn(VGroup(*(VGroup(*row[:2]) for row in others)), run_time=0.5),
            # column by column: W_Q, then W_K, then W_V alone bright as each x sends a copy
            # into its Q, its K, its V; the copy dips into that map on its way
            *(
                AnimationGroup(
                    *(Transform(h, _lit(h, j == c)) for j, h in enumerate(heats)),
                    LaggedStart(
                        *(_via(row[1], heats[c][0], row[2 + c]) for row in others),
                        lag_ratio=0.5,
                    ),
                    run_time=FILL_STEP,
                )
                for c in range(len(heats))
            ),
            AnimationGroup(*(Transform(h, _lit(h, True)) for h in heats), run_time=0.2),
        )

    @staticmethod
    def _through(
        vector: VMobject, heat: AttentionGrid, into: NumberVector, colour, column: int
    ) -> tuple[list[Animation], tuple[VMobject, ...]]:
        """``vector`` times the map ``heat``'s column ``column``, giving ``into``'s entry
        ``column``: the column framed, a copy of ``vector`` stands up beside the map, entry r
        level with row r, and merges into that entry (where it will be) as the frame moves
        there. Returns the steps (the first to play with the map's lighting) and what they
        leave: the entry's frame, the copy (merged into the entry), the column's frame."""
        cells = VGroup(*(heat.get_cell(r, column) for r in range(heat.n_rows)))
        framed = SurroundingRectangle(cells, buff=style.TIGHT_BUFF, color=colour)
        edge = heat.cells.get_right()[0] + style.ITEM_BUFF
        standing = VGroup()
        for r in range(heat.n_rows):
            entry = vector.get_entry(r).copy().set_color(colour)
            entry.match_height(heat.get_number(r, column))
            standing.add(entry.move_to(heat.get_cell(r, column)).set_x(edge, LEFT))
        landed = into.copy()
        entry = SurroundingRectangle(
            landed.get_entry(column), buff=style.TIGHT_BUFF, color=style.HIGHLIGHT
        )
        target = landed.get_entry(column).copy().set_color(colour)
        steps = [
            Create(framed),
            TransformFromCopy(vector.entries, standing, path_arc=-0.5, run_time=PASS[1]),
            AnimationGroup(
                Transform(standing, target, path_arc=-0.5),
                TransformFromCopy(framed, entry),
                run_time=PASS[2],
            ),
        ]
        return steps, (entry, standing, framed)

    def _run(self, trained: VGroup) -> TrainingRun:
        """The trained W_Q large beside the loss curve, placed, a small ghost of its random
        start beside them; each W_Q training had at the steps it was watched
        (``weights.w_q_settling``) where the random start is, and the caption at each of
        those steps (``training.settling_steps``)."""
        tr = self.data.training
        grid = trained.body[0].grid
        plot = LossPlot(
            tr.loss_curve,
            "training.steps",
            self.shared("training")["x_axis"],
            width=grid.width * LOSS_WIDTH,
            height=trained.height,  # as tall as the map with its name and caption
        )
        ghost = VGroup(trained.start.copy().set_stroke(style.QUERY, width=1))
        count = self.number("training.settling_steps[0]", 0, style.SMALL_SIZE, style.MUTED)
        ghost.add(phrase(self.words["start"], style.SMALL_SIZE, style.MUTED, steps=count))
        ghost[0].match_width(grid).scale(GHOST)
        ghost[1].scale(GHOST_CAPTION).next_to(ghost[0], DOWN, buff=style.ITEM_BUFF)
        ghost[0].align_to(ghost[1], RIGHT)
        left, _, right, _ = style.content_area()
        both = VGroup(trained, plot).arrange(RIGHT, buff=style.WIDE_BUFF)
        style.place(both, grow=FILL * (right - left) / both.width)
        # in the plot's empty top right corner (the curve has fallen by then)
        ghost.align_to(plot.axes, UP).align_to(plot.axes, RIGHT)
        cells = grid.cells  # the random start, where training leaves W_Q
        for snapshot in (trained.start, *trained.snapshots):
            snapshot.match_width(cells).move_to(cells)
        # The dot's way: the steps watched, then the last; it glides along the drawn curve.
        steps = [*tr.settling_steps, plot.steps - 1]
        captions = [
            self._caption(f"training.settling_steps[{k}]").move_to(trained.caption)
            for k in range(len(tr.settling_steps))
        ]
        frames = [
            (snapshot.cells, caption)
            for snapshot, caption in zip((trained.start, *trained.snapshots), captions, strict=True)
        ]
        frames.append((cells, trained.caption))  # after the last step
        tracker = ValueTracker(0)

        # Between watched steps k and k + 1 the dot rests on step k while W_Q k is shown,
        # and glides on only in the last GLIDE of the stretch; the map switches halfway
        # through that glide, so map and dot never stand at different steps.
        def now() -> tuple[VMobject, VMobject]:  # the W_Q watched at the dot's step
            index = int(tracker.get_value() + GLIDE / 2 + 1e-6)
            return frames[min(index, len(frames) - 1)]

        def at() -> np.ndarray:
            value = min(tracker.get_value(), len(steps) - 1)
            k = min(int(value), len(steps) - 2)
            share = float(np.clip((value - k - (1 - GLIDE)) / GLIDE, 0, 1))
            step = steps[k] + smooth(share) * (steps[k + 1] - steps[k])
            return _on_curve(plot, tr.loss_curve, step)

        shown = VGroup(
            always_redraw(lambda: now()[0].copy()),
            always_redraw(lambda: now()[1].copy()),
        )
        dot = always_redraw(lambda: Dot(at(), radius=LOSS_DOT, color=style.HIGHLIGHT))
        return TrainingRun(plot, dot, shown, tracker, frames, ghost)

    @staticmethod
    def _settle(run: TrainingRun, start: int, until: int) -> Animation:
        """Training: W_Q steps from where it is to the ``until``-th W_Q training had at the
        steps it was watched (the last: the trained one), the caption counting those steps
        and the dot gliding down the loss curve with them (``weights.w_q_settling``): one
        tracker from ``start``, each snapshot as long as the next."""
        return ApplyMethod(
            run.tracker.set_value, until, rate_func=linear, run_time=(until - start) * SNAPSHOT
        )

    def _caption(self, steps: str) -> VMobject:
        """The trained map's caption: the colour model after ``steps`` (a data-file path)."""
        count = self.number(steps, 0, style.SMALL_SIZE, style.MUTED)
        return phrase(self.words["trained"], style.SMALL_SIZE, style.MUTED, steps=count)

    def _trained(self) -> VGroup:
        """The colour model's W_Q after training, as a heat map: what a real model's
        matrices look like; ``start`` is the random one it started from and ``snapshots``
        the W_Q it had at each later step training was watched, all on the trained one's
        colour scale (the random start's values are about four times smaller: it shows near
        one grey, and the values grow as training goes)."""
        weights = self.data.weights
        path = "weights.w_q_settling"
        trained = (min(map(min, weights.w_q)), max(map(max, weights.w_q)))
        grid, start, *snapshots = (
            AttentionGrid(
                w, source, cell_size=TRAINED_CELL, show_numbers=False, value_range=trained
            ).set_stroke(style.QUERY, width=1)
            for w, source in (
                (weights.w_q, "weights.w_q"),
                *((w, f"{path}[{k}]") for k, w in enumerate(weights.w_q_settling[:-1])),
            )
        )
        name = MathTex("W_Q", font_size=40, color=style.QUERY)
        matrix = VGroup(grid, name.next_to(grid, UP, buff=style.ITEM_BUFF))
        matrix.grid, matrix.name = grid, name
        caption = self._caption("training.steps")
        group = VGroup(matrix, caption.next_to(matrix, DOWN, buff=style.ITEM_BUFF))
        group.body, group.caption, group.start = VGroup(matrix), caption, start
        group.snapshots = snapshots
        return group

    # --- the formula -------------------------------------------------------------------
    def _formula(self) -> None:
        """The two lines, each piece answered by 蘋果's row worked through it: its dot
        products, its scores, its weights as bars that share 1, and its output as the
        words' V rows shrunk by those weights and laid tip to tail (laid out by
        :func:`formula_stage`; what is left at the end is :func:`worked_formula`)."""
        stage = formula_stage(self)
        formula, words, (dots, scores), bars = stage.formula, stage.words, stage.table, stage.bars
        track, shared, total, output = stage.track, stage.shared, stage.total, stage.output
        q, brace, d_name = stage.width
        plane, tip = stage.plane, stage.tip
        walks, spreads, zoomed, back = self._wide_walks(stage)
        fills = VGroup(*(r[2] for r in bars.rows))
        # A frame travels over the formula's pieces as their pictures play.
        pieces = (
            formula.get_scores(),
            formula.get_scale(),
            formula.attention[0],  # softmax
            formula.get_values(),
        )
        lit = [
            SurroundingRectangle(piece, buff=style.HUG_BUFF, color=style.HIGHLIGHT)
            for piece in pieces
        ]
        # The formula's first line comes in, and the roles' picture (蘋果's x through three
        # arrows into its Q, K, V) shrinks under it, where the plane will be, until 第二行.
        roles_picture = self.roles_picture
        carried = set(roles_picture.get_family())
        leaving = [
            m
            for m in self.mobjects
            if not getattr(m, "gate_title", False) and not carried & set(m.get_family())
        ]
        roles_picture.generate_target()
        self._under_formula(_stacked(roles_picture.target), stage)
        match = self._match_picture()  # across the lower half: the worked row's bars not yet in
        self._lower_half(match, stage)
        q_match = match[0]
        # On <d> 蘋果's q stays at the match picture's size where it stood, its entries lit
        # in turn as they are counted, d = 4 under the brace at body size.
        stage.width.scale(q_match.height / q.height).move_to(q_match, aligned_edge=UP)
        body = self.number(f"{SRC}.d", 0, style.BODY_SIZE)  # the size d = 4 is read at
        d_name.scale(body.height / d_name[1].height).next_to(brace, DOWN, buff=style.TIGHT_BUFF)
        # The first line is written large in the middle as 蘋果's vectors and the maps land in
        # it, then it moves up into its place.
        big = self._large(formula.projections.copy(), roles_picture.target)
        self.say(
            "formula_intro",
            *(FadeOut(m) for m in leaving),
            MoveToTarget(roles_picture),
            # Each letter comes in; each map's name (W_Q, W_K, W_V) goes into its projection
            # as the maps leave: only what is on the stage moves (the other words' rows left
            # on <has>); 蘋果's row alone is carried below.
            *(
                AnimationGroup(
                    FadeIn(big[2 * k], shift=UP * style.ITEM_BUFF),
                    TransformFromCopy(heat[1], big[2 * k + 1]),
                )
                for k, heat in enumerate(self.heats)
            ),
            run_time=1.5,
            beats={  # each projection lit in its colour as 蘋果's vector of it is outlined
                "first": [
                    InTurn(
                        *(
                            AnimationGroup(
                                outline(VGroup(big[2 * k], big[2 * k + 1]), colour=colour),
                                outline(row[1], colour=colour),  # where it will be then
                            )
                            for k, (row, (_, _, colour)) in enumerate(
                                zip(roles_picture.target[2:], roles(), strict=True)
                            )
                        )
                    )
                ]
            },
        )
        self.say(  # the first line moves up into its place as the second is written
            "qk",
            ReplacementTransform(big, formula.projections),
            Write(formula.get_scores()),
            then=[
                [
                    self._match_in(
                        match,
                        roles_picture[2][1],
                        FadeOut(VGroup(*roles_picture[:2], *(r[0] for r in roles_picture[2:]))),
                        FadeOut(VGroup(*(r[1] for r in roles_picture[2:]))),
                        Create(lit[0]),
                    ),
                ],
                [
                    FadeIn(words),
                    FadeIn(dots[0]),
                    TransformFromCopy(VGroup(*(r[3] for r in match[2])), dots[1]),
                ],
            ],
        )
        self.say(
            "sqrt",
            Write(formula.get_scale()),
            ReplacementTransform(lit[0], lit[1]),
            beats={
                "d": [
                    FadeOut(VGroup(*match[1:])),
                    ReplacementTransform(q_match, q),
                    Succession(
                        Wait(0.3),
                        outline(*q.entries, colour=style.QUERY),  # its entries counted
                        AnimationGroup(GrowFromCenter(brace), FadeIn(d_name)),
                    ),
                ],
                # independent steps of mean 0: each walk is drawn a step at a time
                "wide": [
                    Succession(
                        AnimationGroup(FadeOut(stage.width), FadeIn(walks.frame)),
                        Create(walks.walks, lag_ratio=0.1),
                    )
                ],
                # their spread, measured at each width, grows round them as a band
                "spread": [LaggedStart(*(GrowFromCenter(bar) for bar in spreads), lag_ratio=0.5)],
                "sharp": [
                    FadeIn(scores[0]),
                    # each q · k drops into its cell below, divided by √d on the way
                    LaggedStart(
                        *(
                            TransformFromCopy(a, b, path_arc=-0.6)
                            for a, b in zip(dots[1], scores[1], strict=True)
                        ),
                        lag_ratio=0.4,
                    ),
                    # Divided by √d, the walks keep one spread at every d: each band
                    # becomes its measured σ ÷ √d on the zoomed axis, two equal bands.
                    ReplacementTransform(spreads, spreads.scaled),
                    # the caption to the lower right, clear of the divided sums' first spike
                    ApplyMethod(
                        walks.caption.next_to,
                        walks.axes.c2p(walks.terms, -walks.reach),
                        UL,
                        style.ITEM_BUFF,
                    ),
                    Transform(walks.walks, walks.divided()),
                    Transform(walks.ticks, zoomed),
                ],
            },
        )
        self.say(
            "softmax",
            Write(formula.get_softmax()),
            back,
            FadeOut(spreads.scaled),  # not part of the walks: they go as the walks move
            then=[[ReplacementTransform(lit[1], lit[2]), FadeTransform(scores[1].copy(), bars)]],
            beats={
                "one": [
                    Create(track),
                    TransformFromCopy(fills, shared),
                    FadeIn(total, shift=LEFT * style.ITEM_BUFF),
                ]
            },
        )
        # weigh_v: the rows already shown fold up into the pieces they are (q · k into QKᵀ,
        # ÷ √d into the whole fraction QKᵀ/√d), shrinking, along an arc under V; the weights
        # rise into the top right where they stood, and the plane takes the lower half: the
        # words' V rows at full length, each in turn shrunk by its weight, labelled with it,
        # as its bar (where it stands now) is outlined; the region the shrunk terms take is
        # framed and grows into the zoomed plane (each axis's end marked on both), where the
        # terms lie tip to tail into 蘋果's output.
        near, zoom = stage.near, stage.zoom
        labels, near_labels, laid = stage.labels, stage.near_labels, stage.laid_labels
        near_at, laid_at = near_labels.copy(), laid.copy()  # their places, for the outro
        stage.result.move_to(stage.beside)  # not yet shown: where it comes out at the close
        folds = (
            (VGroup(words, dots), formula.get_scores()),
            (scores, VGroup(formula.get_scores(), formula.get_scale())),
        )
        shown = VGroup(*(a.copy() for a in zoom.scaled))  # the terms once zoomed onto
        lifted = bars.copy().shift(stage.lift)  # the bars where they stand once lifted
        spans = (near[0].x_range, near[0].y_range)
        region, grown = _region(plane[0], *spans), _region(near[0], *spans)

        def shrink(j: int) -> list[Animation]:  # term j shrinks, labelled, its bar outlined
            steps = [tip.scale_term(j), outline(lifted.rows[j])]
            if j in tip.on_plane:
                steps.append(FadeIn(labels[tip.on_plane.index(j)]))
            return steps

        self.say(
            "weigh_v",
            Write(formula.get_values()),
            ReplacementTransform(lit[2], lit[3]),
            FadeOut(walks),  # the spreads left at <sharp>
            *(
                FadeOut(
                    rows,
                    target_position=piece,
                    scale=min(1.0, piece.width / rows.width, piece.height / rows.height),
                    path_arc=-1.0,  # round under V, not across it
                )
                for rows, piece in folds
            ),
            *(m.animate.shift(stage.lift) for m in (bars, shared, track, total)),
            then=[
                [FadeIn(plane), tip.draw_vectors()],
                *(shrink(j) for j in range(self.n)),
                [Create(region)],
                [  # the framed region grows into the zoomed plane, the origin kept
                    ReplacementTransform(plane, near),
                    Transform(region, grown),
                    *(ReplacementTransform(a, b) for a, b in zip(tip.arrows, shown, strict=True)),
                    *(ReplacementTransform(a, b) for a, b in zip(tip.dots, zoom.dots, strict=True)),
                    ReplacementTransform(labels, near_labels),
                ],
                [
                    FadeOut(region),
                    *(Transform(a, c.copy()) for a, c in zip(shown, zoom.chain, strict=True)),
                    ReplacementTransform(near_labels, laid),
                ],
                [
                    zoom.draw_sum(),
                    # 蘋果's output grows out of the sum's end, right of the plane
                    GrowFromPoint(stage.result, zoom.get_tip()),
                ],
            ],
        )
        # The outro: the frame lights each piece of the second line as its part of the
        # picture moves, in turn: softmax(…) with the bars and Σ, V with the terms (back to
        # the origin shrunk, then tip to tail again), the whole line with the sum and the
        # output it ends on.
        pieces = (formula.attention[:7], formula.get_values(), formula.attention)
        frames = [
            SurroundingRectangle(piece, buff=style.HUG_BUFF, color=style.HIGHLIGHT)
            for piece in pieces
        ]
        replay = Succession(
            AnimationGroup(
                *(Transform(a, c.copy()) for a, c in zip(shown, zoom.scaled, strict=True)),
                Transform(laid, near_at),
            ),
            AnimationGroup(
                *(Transform(a, c.copy()) for a, c in zip(shown, zoom.chain, strict=True)),
                Transform(laid, laid_at),
            ),
        )
        self.say(
            "outro",
            Transform(lit[3], frames[0]),
            outline(VGroup(bars, track, total)),
            then=[
                [Transform(lit[3], frames[1]), replay],
                [Transform(lit[3], frames[2]), outline(zoom.total, output)],
            ],
            run_time=1.5,
            beats={"really": [FadeOut(lit[3]), outline(formula)]},
        )


def _region(axes, x_range, y_range) -> Rectangle:
    """The rectangle ``x_range`` × ``y_range`` (their first two entries) on ``axes``,
    framed: what a zoomed plane shows, on the plane it zooms from."""
    low, high = axes.c2p(x_range[0], y_range[0]), axes.c2p(x_range[1], y_range[1])
    box = Rectangle(width=high[0] - low[0], height=high[1] - low[1]).move_to((low + high) / 2)
    return box.set_stroke(style.HIGHLIGHT, width=3).set_fill(opacity=0)


def _stacked(picture: VGroup) -> VGroup:
    """蘋果's roles picture (``(letter X, x), (), (letter, vector) ×3``) as a stack: each
    vector after its letter, Q over K over V, and x before them, level with K."""
    (x_name, x), _, *rows = picture
    for name, vector in rows:
        name.next_to(vector, LEFT, buff=style.ITEM_BUFF)
    stack = VGroup(*rows).arrange(DOWN, buff=style.ITEM_BUFF, aligned_edge=RIGHT)
    x_name.next_to(x, LEFT, buff=style.ITEM_BUFF)
    VGroup(x_name, x).next_to(stack, LEFT, buff=style.WIDE_BUFF)
    return picture


def _on_curve(plot: LossPlot, losses, step: float) -> np.ndarray:
    """The point of the loss plot's drawn curve at ``step`` (between two of its vertices,
    on the line that joins them)."""
    xs = np.array(plot.get_path().get_anchors())  # the drawn vertices, in frame units
    left, right = plot.axes.c2p(0, 0)[0], plot.axes.c2p(len(losses), 0)[0]
    x = left + (right - left) * step / len(losses)
    k = int(np.searchsorted(xs[:, 0], x).clip(1, len(xs) - 1))
    a, b = xs[k - 1], xs[k]
    share = 0.0 if b[0] == a[0] else (x - a[0]) / (b[0] - a[0])
    return a + np.clip(share, 0, 1) * (b - a)


def _via(source: NumberVector, heat: AttentionGrid, target: VMobject) -> Animation:
    """A copy of the vector ``source`` stands up as a column at the map ``heat``'s left
    edge, entry r level with row r (x times the matrix: entry r weighs row r), and goes on
    into ``target``: a vector through a matrix into its image."""
    edge = heat.cells.get_left()[0] - style.HUG_BUFF
    standing = VGroup()
    for r in range(heat.n_rows):
        entry = source.get_entry(r).copy().match_height(heat.get_number(r, 0))
        standing.add(entry.move_to(heat.get_cell(r, 0)).set_x(edge, RIGHT))
    return Succession(
        TransformFromCopy(source.entries, standing, path_arc=-0.4),
        ReplacementTransform(standing, target, path_arc=-0.4),
    )


def _lit(heat: VGroup, bright: bool) -> VGroup:
    """``heat`` as it is, or dimmed while another map is the one passed through."""
    return heat.copy() if bright else heat.copy().set_opacity(DIM)


@dataclass
class RolesGrid:
    """Every position's x and its three roles (:meth:`ThreeRoles._roles_grid`)."""

    headers: VGroup  # X, Q, K, V over the columns
    rows: list  # per word: its name, its x, its q, k, v (蘋果's: the vectors on the stage)
    stand_ins: list  # where 蘋果's x, q, k, v go in the grid (copies, placed)


@dataclass
class TrainingRun:
    """The loss curve the trained W_Q settles beside (:meth:`ThreeRoles._run`)."""

    plot: LossPlot
    dot: VMobject  # on the curve at the step the map shows
    shown: VGroup  # the map's cells and its caption at that step
    tracker: ValueTracker  # which step: its whole part indexes ``frames``
    frames: list  # (cells, caption) at each step watched, then trained
    ghost: VGroup  # the random start, small, beside the curve, captioned with its step

    def settled(self, scene: LectureScene, trained: VGroup) -> None:
        """The stepping pieces give way to the trained W_Q they show now (the same picture)."""
        for piece in (self.dot, *self.shown):
            piece.clear_updaters()
        scene.remove(self.shown, trained.body[0].name, self.tracker)
        scene.add(trained)


# --- the formula's stage, and the picture the chapter ends on (scoring opens on it) --------
@dataclass
class FormulaStage:
    """The formula and everything its pieces point at, placed (:func:`formula_stage`)."""

    formula: AttentionFormula
    words: VGroup  # 我 吃 蘋果, over the worked row's columns
    table: VGroup  # 蘋果's dot products, then its scores: each a name and its numbers
    bars: WeightBars  # its weights, one bar each
    track: Rectangle  # a weight of 1, where the bars lie end to end
    shared: VGroup  # the bars end to end in the track
    total: VGroup  # Σ = 1.00
    output_name: MathTex  # Σ_j w_j v_j =
    output: NumberVector  # 蘋果's output
    worked: VGroup  # all of the above: 蘋果's row worked through the formula, at the right
    width: VGroup  # 蘋果's q, its d entries braced, d = 4 (under the formula, for a while)
    plane: VGroup  # the plane 蘋果's output is summed on, its axes named
    tip: TipToTail  # the words' V rows on it, to be shrunk and laid tip to tail
    walks: RandomWalks  # q · k summed one product at a time, where the plane will be
    spreads: VGroup  # the walks' spread at the narrowest d and at the middle one
    zoomed: VGroup  # the walks' marks once divided by √d
    lift: np.ndarray  # the weights (bars, track, Σ) from beside the rows into the top right
    near: VGroup  # the plane zoomed onto the shrunk terms (same origin), its axes named
    zoom: TipToTail  # the same sum on it: the terms tip to tail large
    labels: VGroup  # each arrow term's weight × name, beside it shrunk on the full plane
    near_labels: VGroup  # the same beside it shrunk on the zoomed plane
    laid_labels: VGroup  # and beside it laid tip to tail there (the close)
    result: VGroup  # Σ_j w_j v_j = 蘋果's output, right of the zoomed plane (the close)
    beside: np.ndarray  # its centre there (it stands beside the rows until then)

    def settle(self) -> None:
        """The close's places at once (the seam): the weights in the top right, the output
        right of the zoomed plane."""
        for m in (self.bars, self.shared, self.track, self.total):
            m.shift(self.lift)
        self.result.move_to(self.beside)


def formula_stage(scene: LectureScene) -> FormulaStage:
    """The two-line formula on the left over the plane (where first 蘋果's q and then the
    walks stand), and 蘋果's row worked through it at the right, all placed: qkv's last
    part, laid out the same in whichever scene builds it (qkv; scoring, opening on it)."""
    ex = scene.data.eat_apple
    n = ex.short
    formula = AttentionFormula()
    row = ex.last_row
    src = f"{SRC}.last_row"
    words = VGroup(*(style.text(t, style.LABEL_SIZE) for t in scene.apple_words()[:n]))
    steps = (
        (f"{SRC}.dots", ex.dots, r"q \cdot k", style.QUERY),
        (f"{src}.scores[0]", row.scores[0], r"\div \sqrt{d}", style.FOREGROUND),
    )
    table = VGroup()
    for path, values, name, colour in steps:
        label = MathTex(name, font_size=40, color=colour)
        numbers = VGroup(
            *(scene.number(f"{path}[{j}]", 2, style.LABEL_SIZE) for j in range(len(values)))
        )
        table.add(VGroup(label, numbers))
    # Columns under the words, the names in a column on the left.
    column = max(m.width for r in table for m in r[1]) + style.GROUP_BUFF
    for k, word in enumerate(words):
        word.move_to(RIGHT * k * column)
    for r, (label, numbers) in enumerate(table):
        for k, m in enumerate(numbers):
            m.move_to(words[k]).shift(DOWN * (r + 1) * style.ROW_BUFF * 2.2)
        label.next_to(numbers[0], LEFT, buff=style.GROUP_BUFF)
    # softmax: one bar per word, the bars laid end to end fill a track of length 1.
    labels = [style.text(t, style.LABEL_SIZE) for t in scene.apple_words()[:n]]
    bars = WeightBars(labels, row.weights[0], f"{src}.weights[0]", length=BAR_LENGTH)
    bars.next_to(table, DOWN, buff=style.GROUP_BUFF).align_to(table, LEFT)
    fills = VGroup(*(r[2] for r in bars.rows))
    shared = VGroup(*(f.copy().set_stroke(style.BACKGROUND, width=3) for f in fills))
    shared.arrange(RIGHT, buff=0)
    track = Rectangle(width=BAR_LENGTH, height=fills[0].height)
    track.set_stroke(style.MUTED, width=1)
    total = VGroup(
        MathTex(r"\Sigma =", font_size=40),
        scene.number(Sum(f"{src}.weights[0]"), 2, style.LABEL_SIZE, style.WEIGHT),
    ).arrange(RIGHT, buff=style.ITEM_BUFF)
    track.next_to(bars, DOWN, buff=style.GROUP_BUFF).align_to(bars.rows[0][1], LEFT)
    shared.move_to(track).align_to(track, LEFT)
    total.next_to(track, RIGHT, buff=style.ITEM_BUFF)
    output = NumberVector(row.outputs[0], f"{src}.outputs[0]", "", style.VALUE, decimals=2)
    output_name = MathTex(r"\sum_j w_j v_j =", font_size=40, color=style.VALUE)
    result = VGroup(output_name, output).arrange(RIGHT, buff=style.ITEM_BUFF)
    result.next_to(VGroup(track, total), DOWN, buff=style.GROUP_BUFF).align_to(bars, LEFT)
    # the track over the bars laid in it (as qkv draws it last): one order for both chapters
    picture = VGroup(words, table, bars, shared, track, total, result)
    picture.scale(WORKED_GROWTH)
    # d is the width of Q and K: 蘋果's q, its d entries braced.
    i = ex.query_index
    q = NumberVector(ex.q[i], f"{SRC}.q[{i}]", "", style.QUERY, decimals=1)
    q.scale(D_GROWTH)
    brace = Brace(q.entries, DOWN, buff=style.TIGHT_BUFF, color=style.MUTED)
    d_name = VGroup(
        MathTex("d =", font_size=40), scene.number(f"{SRC}.d", 0, style.LABEL_SIZE)
    ).arrange(RIGHT, buff=style.ITEM_BUFF)
    d_name.next_to(brace, DOWN, buff=style.TIGHT_BUFF)
    width = VGroup(q, brace, d_name)
    # Where the walks and 蘋果's q stand under the formula: the room a plane of PLANE_SIDE
    # takes (the close's plane is laid out on its own, across the lower half).
    plane, dims = _plane(scene)
    tip = _tip(scene, plane[0], dims)
    room = VGroup(plane, tip.arrows, tip.scaled, tip.chain, tip.total, tip.dots)
    below = VGroup(width, room)
    width.move_to(plane)
    walks, spreads = _walks(scene)
    walks.move_to(plane)
    below.add(walks)
    left_side = VGroup(formula, below).arrange(DOWN, buff=style.GROUP_BUFF)
    VGroup(left_side, picture).arrange(RIGHT, buff=style.WIDE_BUFF)
    style.place(VGroup(left_side, picture))
    spreads = VGroup(*(_spread(scene, walks, k) for k in spreads))
    zoomed = walks.zoomed_ticks()
    for new, old in zip(zoomed, walks.ticks, strict=True):  # at the marks' placed size
        new.match_height(old).move_to(old).align_to(old, RIGHT)
    # The close: the weights (bars, track, Σ) rise into the top right, where the rows stood
    # (they fold into the formula); the plane takes the lower half under both.
    _, _, right, top = style.content_area()
    block = VGroup(bars, shared, track, total)
    lift = np.array([right - block.get_right()[0], top - block.get_top()[1], 0.0])
    ceiling = min(formula.get_bottom()[1], block.get_bottom()[1] + lift[1]) - style.GROUP_BUFF
    home = result.get_center()  # where the early layout counts it (the worked row's room)
    plane, tip, near, zoom = _close(scene, dims, ceiling, result)
    beside = result.get_center()  # right of the zoomed plane, at the close
    result.move_to(home)
    return FormulaStage(
        formula=formula,
        words=words,
        table=table,
        bars=bars,
        track=track,
        shared=shared,
        total=total,
        output_name=output_name,
        output=output,
        worked=picture,
        width=width,
        plane=plane,
        tip=tip,
        walks=walks,
        spreads=spreads,
        zoomed=zoomed,
        lift=lift,
        near=near,
        zoom=zoom,
        labels=_term_labels(tip),
        near_labels=_term_labels(zoom),
        laid_labels=_term_labels(zoom, laid=True),
        result=result,
        beside=beside,
    )


def _plane(
    scene: LectureScene, spans: list[list[float]] | None = None, unit: float | None = None
) -> tuple[VGroup, tuple[int, int]]:
    """The plane of the two dimensions 蘋果's output is largest in, its axes named: over the
    words' V rows and the output at half-unit ticks, PLANE_SIDE a side; or over ``spans``
    with ``unit`` frame units to 1 on both axes."""
    ex = scene.data.eat_apple
    out = ex.last_row.outputs[0]
    dims = tuple(sorted(sorted(range(ex.d), key=lambda c: -abs(out[c]))[:2]))
    values = ex.v[: ex.short]
    if spans is None:
        spans = []
        for c in dims:
            points = [0.0, out[c], *(v[c] for v in values)]
            spans.append([math.floor(min(points) * 2) / 2, math.ceil(max(points) * 2) / 2, 0.5])
    if unit is None:
        sides = (PLANE_SIDE, PLANE_SIDE)
    else:
        sides = tuple(unit * (hi - lo) for lo, hi, _ in spans)
    axes = style.muted_axes(spans[0], spans[1], *sides)
    names = scene.dim_names(ex)
    across = style.text(names[dims[0]], style.LABEL_SIZE, style.MUTED)
    up = style.text(names[dims[1]], style.LABEL_SIZE, style.MUTED)
    # each axis's far end marked with its value (the plane's own range), so a zoom reads
    ends = VGroup(
        _end_mark(spans[0][1]).next_to(axes.c2p(spans[0][1], spans[1][0]), DOWN, style.ITEM_BUFF),
        _end_mark(spans[1][1]).next_to(axes.c2p(spans[0][0], spans[1][1]), LEFT, style.ITEM_BUFF),
    )
    across.next_to(ends[0], RIGHT, buff=style.ITEM_BUFF)  # under the axis, past its end
    up.next_to(axes.y_axis, UP, buff=style.ITEM_BUFF)
    return VGroup(axes, across, up, ends), dims


def _end_mark(value: float) -> VMobject:
    """An axis's end value, as a scale mark at the lecture's label size."""
    return style.tick_label(f"{round(value, 6):g}", style.LABEL_SIZE)


def _terms_span(scene: LectureScene, dims: tuple[int, int]) -> list[list[float]]:
    """The span of the shrunk terms ``w_j v_j`` and their running sums on the plane's two
    dimensions, at one tick step for both (a power of ten below the wider span)."""
    ex = scene.data.eat_apple
    weights = ex.last_row.weights[0]
    points = [np.zeros(2)]
    reach = np.zeros(2)
    for w, v in zip(weights, ex.v[: ex.short], strict=True):
        term = w * np.array([v[dims[0]], v[dims[1]]])
        reach = reach + term
        points += [term, reach]
    points = np.array(points)
    step = 10 ** math.floor(math.log10(max(np.ptp(points, axis=0))))
    low, high = points.min(axis=0), points.max(axis=0)
    return [
        [math.floor(low[a] / step) * step, math.ceil(high[a] / step) * step, step] for a in range(2)
    ]


def _close(
    scene: LectureScene, dims: tuple[int, int], ceiling: float, result: VGroup
) -> tuple[VGroup, TipToTail, VGroup, TipToTail]:
    """The close's two planes across the lower half (under ``ceiling``): the words' V rows at
    full length on the first, as tall as the room holds; the second zoomed onto their shrunk
    terms (the same origin), as large as the room holds with 蘋果's output (``result``,
    moved) right of it. Returns each plane and the sum on it."""
    left, bottom, right, _ = style.content_area()
    height = ceiling - bottom

    def built(spans, unit):  # the plane with the sum on it (the dot's label under it)
        plane, _ = _plane(scene, spans, unit)
        return plane, _tip(scene, plane[0], dims)

    def fit(spans, width):  # the unit that fits the room, labels kept at their size
        unit = 1.0
        for _ in range(3):  # the labels' overhang depends a little on the axes' lengths
            plane, tip = built(spans, unit)
            whole = VGroup(plane, tip.dots, _term_labels(tip), _term_labels(tip, laid=True))
            spread = [unit * (hi - lo) for lo, hi, _ in spans]  # the axes' lengths
            over = (whole.height - spread[1], whole.width - spread[0])
            unit = min(
                (height - over[0]) / (spans[1][1] - spans[1][0]),
                (width - over[1]) / (spans[0][1] - spans[0][0]),
            )
        return unit

    near_spans = _terms_span(scene, dims)
    room = right - left - result.width - style.WIDE_BUFF
    near, zoom = built(near_spans, fit(near_spans, room))
    laid = _term_labels(zoom, laid=True)
    VGroup(near, zoom.dots, laid).move_to([0, (ceiling + bottom) / 2, 0])
    result.next_to(VGroup(near, laid), RIGHT, buff=style.WIDE_BUFF)
    picture = VGroup(near, zoom.dots, laid, result)
    centre = picture.get_center()
    shift = np.array([(left + right) / 2 - centre[0], 0, 0])
    picture.shift(shift)
    result.set_y(min(zoom.get_tip()[1], ceiling - result.height / 2))  # level with the sum's end
    full, _ = _plane(scene)
    spans = [[*full[0].x_range], [*full[0].y_range]]
    plane, tip = built(spans, fit(spans, right - left))
    origin = near[0].c2p(0, 0)
    plane.shift(origin - plane[0].c2p(0, 0))
    # the sums move with their planes: rebuilt on them where they stand
    zoom = _tip(scene, near[0], dims)
    tip = _tip(scene, plane[0], dims)
    return plane, tip, near, zoom


def _tip(scene: LectureScene, axes, dims: tuple[int, int]) -> TipToTail:
    """蘋果's output as the weighted sum of the words' V rows on the placed plane: each V
    shrunk by its weight, then laid tip to tail."""
    ex = scene.data.eat_apple
    words = [f"v({t})" for t in scene.apple_words()[: ex.short]]
    weights = ex.last_row.weights[0]
    source = f"{SRC}.last_row.weights[0]"
    tip = TipToTail(axes, ex.v[: ex.short], weights, source, words, dims)
    for dot, label in tip.dots:  # a dot's share and name, read at the lecture's label size,
        # left of the origin: under it stands the first shrunk term's label
        label.scale(style.LABEL_SIZE / style.SMALL_SIZE).next_to(dot, LEFT, buff=style.ITEM_BUFF)
    return tip


def _term_labels(tip: TipToTail, laid: bool = False) -> VGroup:
    """Each term drawn as an arrow, its weight × its name beside it (shrunk from the origin,
    or laid in the chain), at the lecture's label size."""
    labels = VGroup(*(tip.term_label(j, laid, style.LABEL_SIZE) for j in tip.on_plane))
    for k, label in enumerate(labels):  # one that would cover an earlier one rises above it
        for other in labels[:k]:
            apart = (
                label.get_left()[0] > other.get_right()[0]
                or label.get_right()[0] < other.get_left()[0]
                or label.get_bottom()[1] > other.get_top()[1]
                or label.get_top()[1] < other.get_bottom()[1]
            )
            if not apart:
                label.shift(UP * (other.get_top()[1] - label.get_bottom()[1] + style.HUG_BUFF))
    return labels


def _walks(scene: LectureScene, wider: float = 1.0) -> tuple[RandomWalks, list[int]]:
    """q · k summed one product at a time (``pitfalls.sqrt_d``'s walks), as far as the
    middle width it measures (``wider`` stretches the terms' axis): the spread at the
    narrowest width and at that one (their indices in ``pitfalls.sqrt_d.dims``)."""
    probe = scene.data.sqrt_d
    middle = len(probe.dims) // 2
    widest = f"pitfalls.sqrt_d.dims[{middle}].d"
    terms = probe.dims[middle].d
    walks = RandomWalks(
        [w[:terms] for w in probe.walks],
        widest,
        width=PLANE_SIDE * WALK_ASPECT * wider,
        height=PLANE_SIDE,
    )
    grow = style.LABEL_SIZE / style.SMALL_SIZE  # its marks read at the lecture's label size
    for tick in walks.ticks:
        tick.scale(grow, about_edge=RIGHT)
    for label in walks.frame[1:3]:  # the count of terms and its name
        label.scale(grow, about_edge=UP)
    return walks, [0, middle]


def _spread(scene: LectureScene, walks: RandomWalks, k: int, scaled: bool = False) -> VGroup:
    """The spread of q · k at the width ``pitfalls.sqrt_d.dims[k]`` (its standard deviation
    over every draw, ``spread_unscaled``; with ``scaled``, divided by √d, ``spread_scaled``,
    on the axis zoomed to ±:data:`ZOOMED`) as a shaded band ±σ ending at d on the walks'
    terms axis (:data:`BAND` of the axis wide, at most the last quarter of d: the walks all
    start at 0), ``d =`` and ``σ =`` written above it."""
    row = scene.data.sqrt_d.dims[k]
    kind = "scaled" if scaled else "unscaled"
    sigma = getattr(row, f"spread_{kind}") * (walks.reach / ZOOMED if scaled else 1)
    low = walks.axes.c2p(row.d - min(BAND * walks.terms, row.d / 4), -sigma)
    high = walks.axes.c2p(row.d, sigma)
    bar = Rectangle(width=high[0] - low[0], height=high[1] - low[1]).move_to((low + high) / 2)
    bar.set_stroke(style.HIGHLIGHT, width=2).set_fill(style.HIGHLIGHT, opacity=BAND_FILL)
    lines = (
        ("d =", f"pitfalls.sqrt_d.dims[{k}].d", 0),
        (r"\sigma =", f"pitfalls.sqrt_d.dims[{k}].spread_{kind}", 2),
    )
    name = VGroup(
        *(
            VGroup(
                MathTex(tex, font_size=32, color=style.HIGHLIGHT),
                scene.number(path, places, style.LABEL_SIZE, style.HIGHLIGHT),
            ).arrange(RIGHT, buff=style.TIGHT_BUFF)
            for tex, path, places in lines
        )
    ).arrange(DOWN, buff=style.TIGHT_BUFF, aligned_edge=LEFT)
    name.next_to(bar, UP, buff=style.TIGHT_BUFF)
    # clear of the terms axis's start, where the reach's marks (+20) stand
    clear = walks.axes.c2p(0, 0)[0] + style.ITEM_BUFF
    name.shift(RIGHT * max(0.0, clear - name.get_left()[0]))
    return VGroup(bar, name)


@seam_builder
def worked_formula(scene: LectureScene) -> VGroup:
    """qkv's last picture, scoring's first: the two-line formula on the left over the plane
    where the words' V rows, shrunk by 蘋果's weights, lie tip to tail into its output; at
    the right 蘋果's row worked through it (its dot products, its scores, its weights as bars
    and end to end with Σ = 1.00, its output). The formula, the plane with its sum, the
    worked row."""
    stage = formula_stage(scene)
    stage.settle()
    zoom = stage.zoom
    return VGroup(
        stage.formula,
        VGroup(stage.near, zoom.chain, zoom.dots, stage.laid_labels, zoom.total),
        VGroup(stage.bars, stage.shared, stage.track, stage.total, stage.result),
    )
