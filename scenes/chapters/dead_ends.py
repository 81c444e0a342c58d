"""Two dead ends (seed 000): join every word's vector, or look at a fixed window.

Joining makes the input as long as the sentence and the first layer's weights grow with it
(counted in model/dead_ends.py): one width x hidden tile of weights per word, 5, 50, then 500
of them, while attention's W_Q, W_K, W_V stay three. A window of +-3 words misses 買 when it
sits far from 蘋果; opened to the whole sentence it is dead end one again. Both fix by
position what each word looks at (two position x position masks); attention lets each word
decide. Render alone with ``manim -ql scenes/chapters/dead_ends.py DeadEnds``.
"""

from __future__ import annotations

import math
from itertools import pairwise

from manim import (
    DOWN,
    LEFT,
    PI,
    RIGHT,
    UP,
    AnimationGroup,
    ApplyMethod,
    Brace,
    Create,
    Cross,
    CurvedArrow,
    DashedLine,
    DashedVMobject,
    Dot,
    FadeIn,
    FadeOut,
    GrowFromCenter,
    LaggedStart,
    Line,
    MathTex,
    MoveToTarget,
    Rectangle,
    ReplacementTransform,
    Square,
    Succession,
    SurroundingRectangle,
    Transform,
    TransformFromCopy,
    VGroup,
    VMobject,
    Wait,
    there_and_back,
)

from scenes.chapters.why import two_ideas
from scenes.kit import style
from scenes.kit.base import APPLE_ROW, LectureScene, top_index
from scenes.kit.emphasis import outline
from scenes.kit.maps import AttentionGrid, fit_column_labels
from scenes.kit.numbers import phrase
from scenes.kit.turns import InTurn
from scenes.kit.vectors import FixedInputNetwork

EAT = "tokens.eat_apple"
SLOT = 0.38  # side of one number's square in a word's vector
VECTOR_FILL = 0.2  # a word's vector's squares: filled faintly, so they read as things that move
JOIN_TIME = 2.0  # the five vectors travel into the socket one after another
STAGE_GROW = 1.6  # dead end one's stage (sentence, vectors, network) enlarged to the area
TILES = (7.0, 3.8)  # the room the first layer's weight tiles fill, however many there are
TILE_GAP = 0.15  # gap between two tiles, as a share of a tile's side
TILE_FILL = 0.75  # a tile's fill
ZOOM = 0.6  # the first tile drawn large: this share of the tiles' room's height
SCORE_SIDE = 1.6  # attention's n x n score grid, at most this wide (the room under its count)
SCORE_LINES = 50  # a score grid with more rows than this is drawn as a ghosted square
SCORE_FILL = 0.2  # a score grid's ghosted fill
BRACE_ROOM = 1.2  # left of the tiles: the brace and the number of hidden units
ROW_CELL = 1.1  # a cell of the asker's row of weights, at the end
MASK_CELL = 0.27  # a cell of a position x position mask (the window sentence's words)
MASK_GROW = 2.0  # the masks, their words and the sentence over them: up to this much larger
MASK_ON = 0.85  # a mask's cell that is on
FINAL_GROW = 1.6  # the last picture (the arrows and their row) enlarged to the content area
WINDOW_GROW = 1.4  # the window sentence and its rows, up to this much larger
LIFT_GROW = 2.5  # the asker's row, lifted out of the mask to mid-frame: this much larger
REACH_CELL = 0.5  # under each word of the window sentence: can the asker see it?


def _column(d: int) -> VGroup:
    """A word's vector: ``d`` squares, one per number."""
    return VGroup(
        *(
            Square(SLOT).set_stroke(style.FOREGROUND, 2.5).set_fill(style.FOREGROUND, VECTOR_FILL)
            for _ in range(d)
        )
    ).arrange(DOWN, buff=0)


def _tile_grids(lengths: list[int]) -> list[VGroup]:
    """For each count, that many tiles of first-layer weights (one per word) in rows that fill
    :data:`TILES`, centred there. Each block holds the one before it in its top-left corner,
    tile for tile, so the view pulls back rather than the tiles thinning."""
    width, height = TILES[0] - BRACE_ROOM, TILES[1]
    shapes: list[tuple[int, int]] = []
    for n in lengths:
        rows0, cols0 = shapes[-1] if shapes else (1, 1)
        cols = max(cols0, n if n <= 10 else math.ceil(math.sqrt(n * width / height)))
        shapes.append((max(rows0, math.ceil(n / cols)), cols))
    grids = []
    for k, (n, (rows, cols)) in enumerate(zip(lengths, shapes, strict=True)):
        pitch = min(width / cols, height / rows)
        inner_rows, inner_cols = shapes[k - 1] if k else (0, 0)
        inner = [(r, c) for r in range(inner_rows) for c in range(inner_cols)][: lengths[k - 1]]
        rest = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in set(inner)]
        grids.append(
            VGroup(
                *(
                    Square(pitch / (1 + TILE_GAP))
                    .set_stroke(style.WEIGHT, 1)
                    .set_fill(style.WEIGHT, opacity=TILE_FILL)
                    .move_to([(c - (cols - 1) / 2) * pitch, ((rows - 1) / 2 - r) * pitch, 0])
                    for r, c in (inner + rest)[:n]
                )
            )
        )
    return grids


def _tiles_shown(tiles: VGroup, on: bool):
    """The tiles fade in or out in place (their squares stay where they are)."""
    return tiles.animate.set_fill(opacity=TILE_FILL if on else 0).set_stroke(opacity=1 if on else 0)


def _score_square(n: int, side: float) -> VGroup:
    """An n x n grid of attention scores, ``side`` wide: its lines while they can be told
    apart (up to :data:`SCORE_LINES`), else a ghosted square."""
    edge = Square(side).set_stroke(style.MUTED, 1.5).set_fill(style.MUTED, opacity=SCORE_FILL)
    if n > SCORE_LINES:
        return VGroup(edge)
    corner, step = edge.get_corner(UP + LEFT), side / n
    lines = VGroup(
        *(
            Line(corner + a * i * step, corner + a * i * step + b * side)
            for i in range(1, n)
            for a, b in ((RIGHT, DOWN), (DOWN, RIGHT))
        )
    ).set_stroke(style.MUTED, 0.75, opacity=0.6)
    return VGroup(edge, lines)


def _fill_below(picture: VMobject, above: VMobject, grow: float, buff: float) -> VMobject:
    """Scale ``picture`` to the content area under ``above`` (by up to ``grow``, never past the
    area) and centre it there."""
    left, bottom, right, _ = style.content_area()
    top = above.get_bottom()[1] - buff
    picture.scale(min(grow, (right - left) / picture.width, (top - bottom) / picture.height))
    return picture.move_to([(left + right) / 2, (top + bottom) / 2, 0])


def _mask(n: int, reach: int | None) -> tuple[VGroup, VGroup]:
    """A position x position mask for ``n`` words: the empty grid, and the cells that are
    on (every cell, or those within ``reach`` of the diagonal)."""
    grid = VGroup(
        *(Square(MASK_CELL).set_stroke(style.MUTED, 1) for _ in range(n * n))
    ).arrange_in_grid(n, n, buff=0)
    on = VGroup(
        *(
            Square(MASK_CELL)
            .set_stroke(width=0)
            .set_fill(style.WEIGHT, opacity=MASK_ON)
            .move_to(grid[i * n + j])
            for i in range(n)
            for j in range(n)
            if reach is None or abs(i - j) <= reach
        )
    )
    return grid, on


def _mask_labels(grid: VGroup, tokens: list[str]) -> VGroup:
    """The words along a mask's top (one over each column; upright, or reading upwards
    when they are too long) and down its left (one at each row's head), no taller than a
    cell."""
    n, cell = len(tokens), grid[0].width
    top = VGroup(*(style.text(t, style.SMALL_SIZE) for t in tokens))
    left = top.copy()
    for label, column in zip(top, grid[:n], strict=True):
        label.scale(min(1.0, cell * 0.8 / label.height)).next_to(column, UP, buff=style.HUG_BUFF)
    for label, k in zip(left, range(n), strict=True):
        label.scale(min(1.0, cell / label.height))
        label.next_to(grid[k * n], LEFT, buff=style.HUG_BUFF)
    if max(label.width for label in top) > 2 * cell - style.TIGHT_BUFF:
        # too long to sit over a column even staggered: each reads upwards from its column
        for label, column in zip(top, grid[:n], strict=True):
            label.rotate(PI / 2).next_to(column, UP, buff=style.HUG_BUFF)
    return VGroup(fit_column_labels(top, style.TIGHT_BUFF), left)


class DeadEnds(LectureScene):
    """The joined vector and its weights tile by tile; the window that cannot reach; two
    fixed masks; attention."""

    scene_key = "dead_ends"
    reads = ("dead_ends", "tokens.eat_apple")
    # the asking word, and the word it needs, by their positions in the sentences it shows
    word_numbers = (
        ("window_from", 0, "window_sentence"),
        ("window_far", 0, ("window_sentence", "reach_near", "reach_far")),
    )
    opens_on = two_ideas.__name__

    def construct(self) -> None:
        self.ex, self.costs = self.data.eat_apple, self.data.dead_ends
        self.title = self.make_title()
        self.heads = VGroup(
            style.text(self.words["method_1"], style.BODY_SIZE),
            style.text(self.words["method_2"], style.BODY_SIZE),
        ).arrange(RIGHT, buff=style.WIDE_BUFF * 2)
        self._join()
        self._weights()
        self._window()
        self._each_decides()

    # --- dead end one: join everything ------------------------------------------------
    def _join(self) -> None:
        heads, d = self.heads, self.ex.d
        words = VGroup(*(style.text(w, style.BODY_SIZE) for w in self.apple_words()))
        columns = VGroup(*(_column(d) for _ in words))
        for word, column in zip(words, columns, strict=True):
            column.next_to(word, DOWN, buff=style.ITEM_BUFF)
        sentence = VGroup(*(VGroup(w, c) for w, c in zip(words, columns, strict=True)))
        sentence.arrange(RIGHT, buff=style.GROUP_BUFF, aligned_edge=UP)
        # one more word: an empty word's box with its vector, at the sentence's end
        new_box = DashedVMobject(
            Rectangle(width=words[0].height * 1.6, height=words[0].height * 1.2), num_dashes=16
        ).set_stroke(style.FOREGROUND, 2)
        new_column = _column(d).next_to(new_box, DOWN, buff=style.ITEM_BUFF)
        new_word = VGroup(new_box, new_column).next_to(sentence, RIGHT, buff=style.GROUP_BUFF)
        new_word.align_to(sentence, UP)
        network = FixedInputNetwork(len(words) * d, self.words["network"], SLOT)
        network.next_to(sentence, DOWN, buff=style.GROUP_BUFF)
        slots = network.get_slots()
        joined = VGroup(
            *(
                s.copy().move_to(t)
                for s, t in zip([sq for c in columns for sq in c], slots, strict=True)
            )
        )
        extra = _column(d).arrange(RIGHT, buff=0).next_to(slots, RIGHT, buff=style.TIGHT_BUFF * 2)
        stage = VGroup(sentence, new_word, network, joined, extra)
        style.place(VGroup(heads, stage).arrange(DOWN, buff=style.SECTION_BUFF), aligned=UP)
        _fill_below(stage, heads, STAGE_GROW, style.GROUP_BUFF)
        network.get_slots().set_stroke(opacity=0)  # an empty socket: the joined row fills it
        self.network = VGroup(network, joined)  # brought back when the window is the sentence
        # why's last picture at once: the short sentence and the two ideas under it. The ideas
        # become the two dead ends' headings, the sentence grows two words and its vectors.
        said, ideas = two_ideas(self)
        self.add(self.title, said, ideas)
        short = len(said)
        self.say(
            "intro",
            *(ReplacementTransform(a, b) for a, b in zip(ideas, heads, strict=True)),
            *(ReplacementTransform(said[k], words[k]) for k in range(short)),
            FadeIn(*words[short:], *columns, shift=DOWN * 0.2),
            then=[[FadeIn(network)]],
            beats={"why": [heads[1].animate.set_opacity(style.DIMMED), outline(heads[0])]},
        )
        arc = {"path_arc": -PI / 6}
        self.say(
            "concat",
            outline(*columns),
            run_time=JOIN_TIME,
            beats={
                "join": [  # one word's vector after another, each into its own stretch
                    LaggedStart(
                        *(
                            ReplacementTransform(c.copy(), joined[k * d : (k + 1) * d], **arc)
                            for k, c in enumerate(columns)
                        ),
                        lag_ratio=0.6,
                    )
                ],
                "feed": [
                    FadeOut(joined.copy(), target_position=network.get_box(), scale=0.3),
                    outline(network.get_box()),
                ],
            },
        )
        overflow = SurroundingRectangle(extra, color=style.HIGHLIGHT, buff=style.TIGHT_BUFF)
        self.say(
            "longer",
            outline(network.get_socket()),
            beats={
                "grow": [
                    InTurn(
                        FadeIn(new_word, shift=LEFT * 0.3),
                        TransformFromCopy(new_column, extra, path_arc=-PI / 6),
                    )
                ],
                "misfit": [Create(overflow)],
            },
        )
        self.play(FadeOut(VGroup(network, joined, extra, overflow, new_word)))
        self.sentence = sentence

    # --- its first layer: a width x hidden tile per word -----------------------------
    def _panel(self, k: int) -> VGroup:
        """The count for ``lengths[k]`` words: "5 個詞", "5 × 512 × 512 =", the total."""
        size = style.BODY_SIZE
        label = phrase(self.words["words_n"], size, n=self.number(f"dead_ends.lengths[{k}]", 0))
        product = VGroup(
            self.number(f"dead_ends.lengths[{k}]", 0, size),
            MathTex(r"\times", font_size=size * 1.3),
            self.number("dead_ends.width", 0, size),
            MathTex(r"\times", font_size=size * 1.3),
            self.number("dead_ends.hidden", 0, size),
            MathTex("=", font_size=size * 1.3),
        ).arrange(RIGHT, buff=style.ITEM_BUFF)
        total = self.number(
            f"dead_ends.concat_weights[{k}]", 0, style.TITLE_SIZE, style.WEIGHT, "grouped"
        )
        return VGroup(label, product, total).arrange(DOWN, aligned_edge=LEFT, buff=style.ITEM_BUFF)

    def _weights(self) -> None:
        c, heads, sentence = self.costs, self.heads, self.sentence
        words, columns = VGroup(*(p[0] for p in sentence)), VGroup(*(p[1] for p in sentence))
        grids = _tile_grids(list(c.lengths))
        panels = [self._panel(k) for k in range(len(c.lengths))]
        caption = style.text(self.words["weights_head"], style.LABEL_SIZE, style.MUTED)
        # attention's three matrices, each width x width, the size of one word's tile in the
        # largest block (set by it below); their names and count under a dashed line, and
        # beside them the n x n scores that grow with the sentence instead
        side = grids[-1][0].width
        qkv = VGroup(
            *(
                Square(side).set_stroke(colour, 2).set_fill(colour, opacity=TILE_FILL)
                for colour in (style.QUERY, style.KEY, style.VALUE)
            )
        )
        names = VGroup(
            *(
                MathTex(f"W_{r}", font_size=style.LABEL_SIZE * 1.3, color=colour)
                for r, colour in zip("QKV", (style.QUERY, style.KEY, style.VALUE), strict=True)
            )
        ).arrange(RIGHT, buff=style.ITEM_BUFF)
        any_length = style.text(self.words["any_length"], style.BODY_SIZE)
        owner = style.text(self.words["attention_row"], style.LABEL_SIZE, style.HIGHLIGHT)
        a_total = self.number(
            "dead_ends.attention_weights", 0, style.TITLE_SIZE, style.HIGHLIGHT, "grouped"
        )
        counts = VGroup(owner, names, any_length, a_total).arrange(
            DOWN, aligned_edge=LEFT, buff=style.ITEM_BUFF
        )
        scores, score_labels = self._score_grids(counts.height)
        attention = VGroup(counts, VGroup(*scores, *score_labels)).arrange(
            RIGHT, buff=style.WIDE_BUFF, aligned_edge=UP
        )
        side = VGroup(panels[-1].copy(), attention).arrange(
            DOWN, aligned_edge=LEFT, buff=style.GROUP_BUFF
        )
        room = Rectangle(width=TILES[0], height=TILES[1]).set_opacity(0)
        stage = VGroup(VGroup(caption, room), side)
        stage[0].arrange(DOWN, buff=style.ITEM_BUFF)
        stage.arrange(RIGHT, buff=style.WIDE_BUFF, aligned_edge=UP)
        left, _, right, _ = style.content_area()
        stage.next_to(heads, DOWN, buff=style.GROUP_BUFF)
        stage.set_x((left + right) / 2)
        for grid in grids:
            grid.move_to(room)
        for panel in panels:
            panel.move_to(side[0], aligned_edge=UP + LEFT)
        divider = DashedLine(LEFT, RIGHT, color=style.MUTED).set_width(side.width)
        divider.align_to(side, LEFT).set_y((side[0].get_bottom()[1] + attention.get_top()[1]) / 2)
        # the three tiles sit by the largest block's last row, at its tiles' scale and pitch;
        # their names stay in the count's column, in the tiles' colours
        last = grids[-1]
        qkv.arrange(RIGHT, buff=last[0].width * TILE_GAP)
        qkv.next_to(last[-1], RIGHT, buff=last[0].width * TILE_GAP).align_to(last[-1], DOWN)
        first = grids[0]
        labels = fit_column_labels(
            VGroup(
                *(
                    w.copy().next_to(t, UP, buff=style.ITEM_BUFF)
                    for w, t in zip(words, first, strict=True)
                )
            )
        )
        # the first word's tile, drawn large where the count will stand, to be measured
        big = first[0].copy().scale_to_fit_height(TILES[1] * ZOOM).match_x(side[0])
        big.align_to(first, DOWN)
        across = Brace(big, DOWN, buff=style.HUG_BUFF)
        across_n = self.number("dead_ends.width", 0, style.LABEL_SIZE).next_to(across, DOWN, 0.1)
        down = Brace(big, LEFT, buff=style.HUG_BUFF)
        down_n = self.number("dead_ends.hidden", 0, style.LABEL_SIZE).next_to(down, LEFT, 0.1)
        braces = VGroup(across, across_n, down, down_n)
        width = self.spoken("dead_ends.width", 0)

        def said(k: int) -> dict:
            return {
                "n" if k == 0 else f"n{k}": self.spoken(f"dead_ends.lengths[{k}]", 0),
                "w" if k == 0 else f"w{k}": self.spoken(
                    f"dead_ends.concat_weights[{k}]", 0, "grouped"
                ),
            }

        self.say(  # each word's vector becomes its own tile of weights, under the word
            "weights",
            ReplacementTransform(columns, first),
            ReplacementTransform(words, labels),
            FadeIn(caption),
            beats={
                "more": [TransformFromCopy(first[0], big)],
                "tile": [
                    GrowFromCenter(across),
                    FadeIn(across_n),
                    GrowFromCenter(down),
                    FadeIn(down_n),
                ],
                "n": [
                    FadeOut(
                        VGroup(big, braces),
                        target_position=first[0],
                        scale=first[0].height / big.height,
                    ),
                    FadeIn(panels[0][:2], shift=LEFT * 0.3),
                ],
                "w": [TransformFromCopy(first, panels[0][2])],
            },
            width=width,
            **said(0),
        )

        shown = VGroup(*first)  # the tiles on screen
        frames: list[tuple[SurroundingRectangle, int]] = []  # each earlier block, framed

        def framed(tiles: VGroup) -> SurroundingRectangle:
            return SurroundingRectangle(tiles, color=style.HIGHLIGHT, buff=style.TIGHT_BUFF)

        def pull_back(k: int) -> list:
            """The view pulls back: the tiles so far shrink into the top-left corner of
            ``lengths[k]`` tiles, framed, and the rest fill in round them."""
            old, new = VGroup(*shown), grids[k]
            shown.add(*new[len(old) :])
            earlier = [Transform(f, framed(new[:m])) for f, m in frames]
            frames.append((framed(new[: len(old)]), len(old)))
            return [
                *(Transform(t, s) for t, s in zip(old, new, strict=False)),
                *earlier,
                Create(frames[-1][0]),
                LaggedStart(*(FadeIn(t) for t in new[len(old) :]), lag_ratio=0.002),
                ReplacementTransform(panels[k - 1], panels[k]),
            ]

        self.say(
            "explode",
            FadeOut(labels),
            *pull_back(1),
            beats={"more": pull_back(2), "linear": [outline(panels[2][1][0])]},
            **said(1),
            **said(2),
        )
        lengths = [
            phrase(
                self.words["words_n"], style.BODY_SIZE, n=self.number(f"dead_ends.lengths[{k}]", 0)
            ).move_to(any_length, LEFT)
            for k in range(len(c.lengths))
        ]
        back = any_length.copy()
        self.say(
            "attention_cost",
            Create(divider),
            FadeIn(owner),
            beats={
                "three": [
                    LaggedStart(*(GrowFromCenter(t) for t in qkv), lag_ratio=0.3),
                    FadeIn(names, any_length),
                    TransformFromCopy(qkv, a_total),
                ],
                "same": [  # the words' block runs 5, 50, 500 tiles; the three stay three
                    InTurn(
                        *(
                            AnimationGroup(Transform(any_length, m), *tiles)
                            for m, tiles in zip(
                                (*lengths, back), self._block_steps(shown, c.lengths), strict=True
                            )
                        )
                    ),
                    outline(qkv),
                ],
                "compute": [  # the n x n scores grow, 5, 50, 500, each inside the next
                    InTurn(*self._score_steps(scores, score_labels)),
                    outline(qkv),
                ],
            },
            a=self.spoken("dead_ends.attention_weights", 0, "grouped"),
        )
        self.play(
            FadeOut(
                VGroup(caption, shown, panels[2], divider, counts, qkv, *(f for f, _ in frames)),
                VGroup(*scores, score_labels[0]),
            )
        )

    def _score_grids(self, height: float) -> tuple[list[VGroup], list[VGroup]]:
        """Attention's score grid for each sentence length (n x n, all the same size and in
        one place), each under its label "QK^T  n x n"; grid and label ``height`` tall."""
        size = style.LABEL_SIZE
        grids, labels = [], []
        for k, n in enumerate(self.costs.lengths):
            count = f"dead_ends.lengths[{k}]"
            label = VGroup(
                MathTex(r"QK^\top", font_size=size * 1.3),
                VGroup(
                    self.number(count, 0, size),
                    MathTex(r"\times", font_size=size * 1.3),
                    self.number(count, 0, size),
                ).arrange(RIGHT, buff=style.ITEM_BUFF),
            ).arrange(DOWN, aligned_edge=LEFT, buff=style.HUG_BUFF)
            grid = _score_square(n, min(SCORE_SIDE, height - label.height - style.ITEM_BUFF))
            labels.append(label.next_to(grid, UP, buff=style.ITEM_BUFF, aligned_edge=LEFT))
            grids.append(grid)
        return grids, labels

    def _score_steps(self, grids: list[VGroup], labels: list[VGroup]) -> list[AnimationGroup]:
        """The score grid for each length in turn: those before shrink into the new one's
        top-left corner (a tenth as wide when the sentence is ten times longer); the first
        label turns into each next."""
        lengths = self.costs.lengths
        steps = [AnimationGroup(Create(grids[0]), FadeIn(labels[0]))]
        for k in range(1, len(grids)):
            corner = grids[k].get_corner(UP + LEFT)
            shrink = lengths[k - 1] / lengths[k]
            steps.append(
                AnimationGroup(
                    ApplyMethod(VGroup(*grids[:k]).scale, shrink, {"about_point": corner}),
                    FadeIn(grids[k]),
                    Transform(labels[0], labels[k]),
                )
            )
        return steps

    @staticmethod
    def _block_steps(shown: VGroup, lengths: list[int]) -> list[list]:
        """The block of tiles as long as each sentence in turn, then as it was: down to the
        first ``lengths[0]``, filling to each next length; the last step keeps it."""
        steps = [[_tiles_shown(VGroup(*shown[lengths[0] :]), on=False)]]
        steps += [[_tiles_shown(VGroup(*shown[a:b]), on=True)] for a, b in pairwise(lengths)]
        return [*steps, []]

    # --- dead end two: a fixed window --------------------------------------------------
    def _window(self) -> None:
        heads = self.heads
        tokens = self.words["window_sentence"].split(",")
        words = VGroup(*(style.text(t, style.TITLE_SIZE) for t in tokens)).arrange(
            RIGHT, buff=style.GROUP_BUFF
        )
        at, far, reach = (
            int(self.words["window_from"]),
            int(self.words["window_far"]),
            self.costs.window,
        )
        # later the sentence heads the two masks, smaller, under the labels
        masks, head_row, pairs, asker_row = self._masks(words, tokens[at], at, reach)
        # under the words: the heads' row is over them
        miss = CurvedArrow(words[at].get_bottom(), words[far].get_bottom(), angle=-PI / 5)
        miss.set_color(style.MUTED)
        # what the window lets the asker see: a cell under each word, lit within reach (the
        # asker's row of the "nearby" mask below), and the needed word's cell crossed out
        seen = VGroup(
            *(
                Square(REACH_CELL)
                .set_stroke(style.MUTED, 1.5)
                .set_fill(style.WEIGHT, opacity=MASK_ON if abs(j - at) <= reach else 0)
                .next_to(miss, DOWN, buff=style.ITEM_BUFF)
                .set_x(word.get_x())
                for j, word in enumerate(words)
            )
        )
        asker = style.text(tokens[at], style.BODY_SIZE, style.QUERY)
        asker.next_to(seen[at], DOWN, buff=style.HUG_BUFF)
        out_of_reach = Cross(seen[far], stroke_color=style.HIGHLIGHT, stroke_width=8)
        window = self._reach_frame(words, at)
        main = VGroup(words, window, miss, seen, asker, out_of_reach)
        # other sentences need other reaches: two short ones stacked under it, each asker
        # under this one's, each with its link; the same +-window frame slides down them
        stack = self._reach_stack(words[at], VGroup(seen, asker))
        # all of it fitted to the room under the labels, from its top; until the stack needs
        # the room, the window sentence waits at mid-height
        fitted = VGroup(main, *stack)
        _fill_below(fitted, heads, WINDOW_GROW, style.GROUP_BUFF)
        left, bottom, right, _ = style.content_area()
        top = heads.get_bottom()[1] - style.GROUP_BUFF
        fitted.shift((top - fitted.get_top()[1]) * UP)
        lowered = ((top + bottom) / 2 - main.get_center()[1]) * UP
        whole = SurroundingRectangle(words, color=style.HIGHLIGHT, buff=style.ITEM_BUFF)
        # when its window spans the sentence, dead end one's network comes back under it,
        # its socket empty; each word's vector drops into it, and those past its end are framed
        again, filled, past = self._network_again(len(words), asker, bottom, (left, right))
        overflow = SurroundingRectangle(past, color=style.HIGHLIGHT, buff=style.TIGHT_BUFF)
        stamps, stamped = self._stamp_down(window, stack)
        main.shift(lowered)
        w = self.spoken("dead_ends.window", 0)
        self.say(
            "window",
            heads[0].animate.set_opacity(style.DIMMED),
            heads[1].animate.set_opacity(1),
            FadeIn(words, lag_ratio=0.1),
            then=[
                [
                    Create(window),
                    LaggedStart(*(GrowFromCenter(c) for c in seen), lag_ratio=0.1),
                    FadeIn(asker),
                ]
            ],
            w=w,
        )
        self.say(
            "far",
            outline(words[far]),
            Create(miss),
            beats={"miss": [InTurn(self._reach_out(seen, at, far, reach), Create(out_of_reach))]},
        )
        self.say(
            "how_wide",
            outline(window),
            run_time=3.0,
            beats={
                "differ": [
                    InTurn(
                        AnimationGroup(
                            ApplyMethod(main.shift, -lowered),
                            *(FadeIn(VGroup(s.words, s.link), shift=UP * 0.3) for s in stack),
                        ),
                        *stamps,
                    )
                ],
                "whole": [
                    InTurn(
                        AnimationGroup(
                            Transform(window, whole),
                            FadeOut(
                                VGroup(
                                    *(VGroup(s.words, s.link) for s in stack), stamped, out_of_reach
                                )
                            ),
                            ApplyMethod(seen.set_fill, style.WEIGHT, MASK_ON),
                            FadeIn(again, shift=UP * 0.3),
                        ),
                        LaggedStart(
                            *(
                                TransformFromCopy(c, f, path_arc=-PI / 6)
                                for c, f in zip(seen, filled, strict=True)
                            ),
                            lag_ratio=0.4,
                        ),
                        Create(overflow),
                    )
                ],
            },
        )
        grids, ons = VGroup(*(m[0] for m in masks)), VGroup(*(m[1] for m in masks))
        captions = VGroup(*(p[2] for p in pairs))
        labels = VGroup(*(p[3] for p in pairs))
        swapped, swapped_labels = self.swapped
        self.say(
            "same_mistake",
            heads[0].animate.set_opacity(1),
            outline(*heads),
            beats={
                "fixed": [  # the sentence rises to head the masks, drawn by position alone;
                    # then it becomes another sentence and the masks do not change
                    FadeOut(VGroup(again, *filled, overflow, window, miss, seen, asker)),
                    InTurn(
                        AnimationGroup(
                            Transform(words, head_row),
                            Create(grids, lag_ratio=0.01),
                            FadeIn(labels),
                            FadeIn(ons, lag_ratio=0.01),
                        ),
                        Wait(0.4),
                        AnimationGroup(
                            Transform(words, swapped, path_arc=PI / 6),
                            Transform(labels, swapped_labels),
                        ),
                    ),
                ],
                "all": [outline(grids[0]), FadeIn(captions[0])],
                "near": [
                    outline(grids[1]),
                    FadeIn(captions[1]),
                    ApplyMethod(asker_row[0].set_color, style.QUERY),
                    Create(asker_row[1]),
                ],
            },
        )
        self.window_picture = VGroup(words, grids, ons, captions, labels)
        self.asker_row = asker_row

    def _reach_frame(self, words: VGroup, at: int) -> SurroundingRectangle:
        """The +-window round the word at ``at`` in a row of ``words``."""
        reach = self.costs.window
        return SurroundingRectangle(
            words[max(at - reach, 0) : at + reach + 1], color=style.HIGHLIGHT, buff=style.ITEM_BUFF
        )

    def _reach_out(self, seen: VGroup, at: int, far: int, reach: int) -> Succession:
        """The asker's look runs along its lit cells toward the word at ``far`` and stops
        at the window's edge, bumping against it."""
        step = 1 if far > at else -1
        edge = seen[min(max(at + step * reach, 0), len(seen) - 1)]
        probe = Dot(seen[at].get_center(), radius=edge.width / 4, color=style.HIGHLIGHT)
        return Succession(
            FadeIn(probe, scale=0.5),
            ApplyMethod(probe.move_to, edge.get_center()),
            ApplyMethod(probe.shift, step * RIGHT * edge.width / 2, rate_func=there_and_back),
            FadeOut(probe),
        )

    def _network_again(
        self, n: int, above: VMobject, bottom: float, across: tuple[float, float]
    ) -> tuple[VGroup, list[VGroup], VGroup]:
        """Dead end one's network again, its socket empty, under ``above``; where each of
        ``n`` words' vectors lands (in the socket's stretches, then in a row past its end);
        and the squares past the end. Scaled to fit the room left, overflow included."""
        d = self.ex.d
        network, joined = self.network.copy()
        fit = len(joined) // d
        past = VGroup(*(joined[0].copy() for _ in range((n - fit) * d))).arrange(RIGHT, buff=0)
        past.next_to(network.get_slots(), RIGHT, buff=style.TIGHT_BUFF * 2)
        picture = VGroup(network, joined, past)
        room = above.get_bottom()[1] - style.ITEM_BUFF - bottom
        picture.scale(min(1.0, room / picture.height, (across[1] - across[0]) / picture.width))
        picture.next_to(above, DOWN, buff=style.ITEM_BUFF).set_x(sum(across) / 2)
        squares = [*joined, *past]
        filled = [VGroup(*squares[k * d : (k + 1) * d]) for k in range(n)]
        return network, filled, past

    def _reach_stack(self, asker: VMobject, above: VMobject) -> list[VGroup]:
        """Two short sentences (a near link, a far one) stacked under ``above``, each ending
        on the asker under ``asker``: for each, its words, the arrow from the asker to the
        word it needs (at the window sentence's ``window_far``), and the +-window frame."""
        far = int(self.words["window_far"])
        stack: list[VGroup] = []
        for key in ("reach_near", "reach_far"):
            words = VGroup(*(style.text(t, style.TITLE_SIZE) for t in self.words[key].split(",")))
            words.arrange(RIGHT, buff=style.GROUP_BUFF)
            words.next_to(stack[-1] if stack else above, DOWN, buff=style.GROUP_BUFF)
            words.shift((asker.get_x() - words[-1].get_x()) * RIGHT)
            link = CurvedArrow(words[-1].get_bottom(), words[far].get_bottom(), angle=-PI / 4)
            link.set_color(style.MUTED)
            stack.append(VGroup(words, link, self._reach_frame(words, len(words) - 1)))
        for row in stack:
            row.words, row.link, row.frame = row
        return stack

    def _stamp_down(self, window: VMobject, stack: list[VGroup]) -> tuple[list, VGroup]:
        """The window frame, copied, slides down the stack: on each sentence it covers the
        link (the word outlined, its arrow lit) or misses it (crossed). The steps, and what
        they leave on screen."""
        far, reach = int(self.words["window_far"]), self.costs.window
        stamp, left = stack[0].frame, VGroup(stack[0].frame)
        steps = []
        for k, row in enumerate(stack):
            slide = TransformFromCopy(window, stamp) if k == 0 else Transform(stamp, row.frame)
            needed = row.words[far]
            if len(row.words) - 1 - far <= reach:
                verdict = AnimationGroup(
                    outline(needed), ApplyMethod(row.link.set_color, style.HIGHLIGHT)
                )
            else:
                cross = Cross(needed, stroke_color=style.HIGHLIGHT, stroke_width=8)
                left.add(cross)
                verdict = InTurn(Wait(0.3), Create(cross))
            steps.append(InTurn(slide, verdict))
        return steps, left

    def _masks(
        self, words: VGroup, name: str, at: int, reach: int
    ) -> tuple[list[tuple[VGroup, VGroup]], VGroup, VGroup, VGroup]:
        """The two position x position masks (everything; within ``reach``) under a smaller
        copy of the window sentence, with their captions; and the asker's row of the near
        mask: its name at the row's head, and a frame round the row."""
        n = len(words)
        masks = [_mask(n, None), _mask(n, reach)]
        captions = VGroup(
            style.text(self.words["in_advance_1"], style.BODY_SIZE),
            style.text(self.words["in_advance_2"], style.BODY_SIZE),
        )
        tokens = self.words["window_sentence"].split(",")
        pairs = VGroup(
            *(
                VGroup(
                    grid,
                    on,
                    caption.next_to(grid, DOWN, buff=style.ITEM_BUFF),
                    _mask_labels(grid, tokens),
                )
                for (grid, on), caption in zip(masks, captions, strict=True)
            )
        ).arrange(RIGHT, buff=style.WIDE_BUFF * 2, aligned_edge=UP)
        head_row = words.copy()
        if head_row.width > pairs.width:  # the sentence no wider than the masks it heads
            head_row.scale_to_fit_width(pairs.width)
        below = VGroup(head_row, pairs).arrange(DOWN, buff=style.SECTION_BUFF)
        _fill_below(below, self.heads, MASK_GROW, style.SECTION_BUFF)
        # another sentence as long, for the words and the masks' labels to turn into while
        # the masks stay as they are; it ends on the same word, so the asker's row stays its own
        others = self.words["other_sentence"].split(",")
        swapped = VGroup(style.text(t, style.TITLE_SIZE) for t in others).arrange(
            RIGHT, buff=style.GROUP_BUFF
        )
        swapped.scale_to_fit_height(head_row.height).move_to(head_row)
        if swapped.width > head_row.width:
            swapped.scale_to_fit_width(head_row.width)
        swapped_labels = VGroup(*(_mask_labels(p[0], others) for p in pairs))
        near = masks[1][0]
        row = VGroup(*near[at * n : (at + 1) * n])
        label = pairs[1][3][1][at]  # the asker's name at its row's head in the near mask
        frame = SurroundingRectangle(row, color=style.HIGHLIGHT, buff=style.TIGHT_BUFF)
        # that row as it is drawn (on or off by position), to be lifted out of the mask
        lifted = VGroup(
            *(
                Square(MASK_CELL)
                .set_stroke(style.MUTED, 1)
                .set_fill(style.WEIGHT, opacity=MASK_ON if abs(j - at) <= reach else 0)
                .match_width(cell)
                .move_to(cell)
                for j, cell in enumerate(row)
            )
        )
        self.swapped = VGroup(swapped, swapped_labels)
        return masks, head_row, pairs, VGroup(label, frame, lifted)

    # --- attention: each word decides -------------------------------------------------
    def _each_decides(self) -> None:
        ex = self.data.eat_apple
        words, arrows = self.apple_choice()
        names = self.apple_words()[: ex.short]
        label = style.text(self.words["each_decides"], style.BODY_SIZE)
        # the weights the arrows carry, as the row of an attention map that later chapters fill
        row = AttentionGrid(
            [ex.last_row.weights[0]],
            "tokens.eat_apple.last_row.weights",
            row_headers=[style.text(names[ex.query_index], style.BODY_SIZE, style.QUERY)],
            col_headers=[style.text(w, style.BODY_SIZE, style.KEY) for w in names],
            cell_size=ROW_CELL,
            text_size=style.BODY_SIZE,
        )
        final = VGroup(VGroup(arrows, words), row).arrange(DOWN, buff=style.GROUP_BUFF)
        label.next_to(style.content_area()[3] * UP, DOWN, buff=0)
        _fill_below(final, label, FINAL_GROW, style.SECTION_BUFF)
        # the asker's row of the "nearby" mask is lifted out; it becomes the asker's row of
        # weights, its cells empty until the asker has read this sentence
        name, frame, lifted = self.asker_row
        blank = row.cells.copy().set_fill(opacity=0).set_stroke(style.MUTED, 1.5)
        lift = VGroup(name.copy(), lifted)
        lift.generate_target()
        # to mid-frame, half as large again (at least the final row's width), as the masks go
        left, bottom, right, top = style.content_area()
        lift.target[1].scale_to_fit_width(
            min(max(lifted.width * LIFT_GROW, row.cells.width), right - left)
        )
        lift.target[1].move_to([(left + right) / 2, (bottom + top) / 2, 0])
        lift.target[0].scale(lift.target[1].height / lifted.height)
        lift.target[0].next_to(lift.target[1], LEFT, buff=style.ITEM_BUFF)
        self.add(lifted)
        self.say(
            "let_decide",
            FadeOut(VGroup(self.window_picture, name, frame)),
            ReplacementTransform(self.heads, label),
            MoveToTarget(lift),
            beats={
                "find": [
                    ReplacementTransform(lift[1], blank),
                    ReplacementTransform(lift[0], row.row_headers),
                    FadeIn(words, shift=UP * 0.3, lag_ratio=0.3),
                ]
            },
        )
        target = top_index(ex.last_row.weights[0])
        frame = SurroundingRectangle(words[target], color=style.HIGHLIGHT, buff=style.HUG_BUFF)
        self.say(  # each arrow grows and its weight drops into its cell; then the most, framed
            "decides",
            FadeIn(row.col_headers),
            LaggedStart(
                *(
                    InTurn(
                        AnimationGroup(Create(a), FadeIn(n)),
                        AnimationGroup(
                            ReplacementTransform(b, c),
                            TransformFromCopy(n, m, path_arc=PI / 4),
                        ),
                    )
                    for a, n, b, c, m in zip(
                        arrows.arrows,
                        arrows.numbers,
                        blank,
                        row.cells,
                        row.numbers,
                        strict=True,
                    )
                ),
                lag_ratio=0.5,
            ),
            run_time=3.0,
            beats={"row": [Create(frame), outline(row.cells[target])]},
            token=names[ex.query_index],
            target=names[target],
            w=self.spoken(f"{APPLE_ROW}[{target}]", 2),
        )
