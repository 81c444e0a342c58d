"""Zoom out (seed 002): where one head sits in a Transformer, and where Transformers are used.

The it/cat head shrinks into one of several heads; positional encoding below, the
feed-forward network above, residual connections and normalisation around both, N layers,
the next token's probabilities on top; training learns the projections. Then four uses, in
the seed's careful wording.
Render alone with ``manim -ql scenes/chapters/zoom_out.py ZoomOut``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    PI,
    RIGHT,
    UP,
    ArcBetweenPoints,
    Arrow,
    Create,
    Dot,
    FadeIn,
    FadeOut,
    GrowArrow,
    LaggedStartMap,
    MathTex,
    MoveToTarget,
    ReplacementTransform,
    RoundedRectangle,
    Square,
    Succession,
    SurroundingRectangle,
    Transform,
    TransformFromCopy,
    VGroup,
    VMobject,
    there_and_back,
)

from scenes.kit import style
from scenes.kit.base import LectureScene, top_index
from scenes.kit.diagrams import TransformerLayers
from scenes.kit.emphasis import outline
from scenes.kit.labels import WordBoxes
from scenes.kit.maps import AttentionGrid
from scenes.kit.numbers import ColumnSum, ColumnTops, Sum

IT_CAT = "tokens.it_cat.scaled.weights"
USES = ("use_gpt", "use_translation", "use_code", "use_alphafold")  # the panels' captions
CODE_TOKENS = ("for", " word", " in", " sentence", ":")  # a line of code, as tokens
RESIDUES = 10  # beads on the protein chain
PROTEIN_LINKS = ((1, 7), (2, 9), (4, 8))  # residues far apart along the chain that attend
TILE = 1.1  # side of one head's tile in the block


class ZoomOut(LectureScene):
    """One head → multi-head → a block with its neighbours → N layers; then its uses.

    Variants override :attr:`heads` (how many heads the block is drawn with).
    """

    scene_key = "zoom_out"
    reads = ("tokens.it_cat", "multihead.four")
    heads = 4

    def construct(self) -> None:
        self.title = self.make_title()
        self._block()
        self._uses()

    def _column(self, head: AttentionGrid, row_total: VGroup, col_total: VGroup) -> None:
        """Read a column of the map: the words that look hardest at the referent, and what
        the row and the column add up to, each added from its own numbers (a row's sum is
        1; a column's is not)."""
        it = self.data.it_cat
        col, q = it.referent, it.query_index
        n = len(it.tokens)
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
        self.say(
            "column",
            beats={
                "brightest": [Create(frames, lag_ratio=0.3)],
                "sum": [
                    FadeOut(frames),
                    Create(row_frame),
                    TransformFromCopy(row_numbers, row_total[-1]),
                    FadeIn(row_total[:-1]),
                ],
                "colsum": [
                    FadeOut(row_frame),
                    Create(col_frame),
                    TransformFromCopy(col_numbers, col_total[-1]),
                    FadeIn(col_total[:-1]),
                ],
            },
            lookers=self.all_of([it.tokens[i] for i in lookers]),
            n=self.number(ColumnTops(IT_CAT, col), 0),
            column_sum=col_total.total,
        )
        self.play(FadeOut(col_frame, row_total, col_total))

    def _box(self, key: str, width: float) -> VGroup:
        box = RoundedRectangle(corner_radius=0.1, width=width, height=0.6).set_stroke(
            style.MUTED, 2
        )
        return VGroup(box, style.text(self.words[key], style.LABEL_SIZE).move_to(box))

    def _totals(self, head: AttentionGrid) -> tuple[VGroup, VGroup]:
        """The query row's total (right of the row) and the referent column's (under it)."""
        it = self.data.it_cat
        q, col = it.query_index, it.referent
        row_sum = self.number(Sum(f"{IT_CAT}[{q}]"), 2, style.LABEL_SIZE, style.HIGHLIGHT)
        row_total = VGroup(MathTex(r"\Sigma =", color=style.HIGHLIGHT), row_sum)
        row_total.arrange(RIGHT, buff=style.HUG_BUFF)
        row_total.next_to(head.get_cell(q, len(it.tokens) - 1), RIGHT, buff=style.ITEM_BUFF)
        col_sum = self.number(ColumnSum(IT_CAT, col), 2, style.LABEL_SIZE, style.HIGHLIGHT)
        col_total = VGroup(MathTex(r"\Sigma =", color=style.HIGHLIGHT), col_sum)
        col_total.arrange(RIGHT, buff=style.HUG_BUFF)
        col_total.next_to(head.get_cell(len(it.tokens) - 1, col), DOWN, buff=style.ITEM_BUFF)
        col_total.total = col_sum
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
        row_total, col_total = self._totals(head)
        head_label = style.text(self.words["head"], style.BODY_SIZE).next_to(
            VGroup(head, row_total), RIGHT, buff=style.WIDE_BUFF
        )
        style.place(VGroup(head, head_label, row_total, col_total))
        self.add(self.title)  # the title at once: no frame is only a title being written
        self.say(
            "intro",
            FadeIn(head),
            FadeIn(head_label),
            beats={"sentence": [outline(head.row_headers)], "where": [outline(head.cells)]},
        )
        self._column(head, row_total, col_total)

        tile = AttentionGrid(it.scaled.weights, IT_CAT, cell_size=TILE / n, show_numbers=False)
        others = self._other_heads()
        tiles = VGroup(tile, *others).arrange(RIGHT, buff=style.ITEM_BUFF)
        others_label = style.text(self.words["others"], style.LABEL_SIZE, style.MUTED)
        others_label.next_to(others, DOWN, buff=style.HUG_BUFF)
        w_o = VGroup(Square(TILE * 0.6).set_stroke(style.FOREGROUND, 2), MathTex("W_O"))
        w_o.next_to(tiles, RIGHT, buff=style.GROUP_BUFF)
        w_o[1].move_to(w_o[0])
        joins = VGroup(  # the heads' results, concatenated, into W_O
            Arrow(tiles.get_right(), w_o.get_left(), buff=style.HUG_BUFF, color=style.MUTED)
        )
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
        block = VGroup(layers, inputs, output, into, out, count)
        whole = VGroup(strips, block).arrange(RIGHT, buff=style.WIDE_BUFF)
        style.place(whole)

        # The camera pulls back: everything scales about the head until it is one tile.
        scale = head.cells.width / tile.cells.width
        here, there = head.cells.get_center(), tile.cells.get_center()
        frame = VGroup(layers.cards_behind, layers.card, others, others_label, multi_box)
        frame.generate_target()
        frame.scale(scale, about_point=there).shift(here - there).set_opacity(0)
        rest = VGroup(head.numbers, head.row_headers, head.col_headers, head_label)
        self.say(
            "heads",
            ReplacementTransform(head.cells, tile.cells),
            MoveToTarget(frame),
            rest.animate.scale(1 / scale, about_point=here).shift(there - here).set_opacity(0),
            beats={"join": [GrowArrow(joins[0]), FadeIn(w_o), FadeIn(multi_label)]},
        )
        self.remove(rest)
        self.say("positional_say", FadeIn(inputs, shift=UP * 0.2), GrowArrow(into))
        main = layers.main_line
        self.say(
            "ffn_say",
            GrowArrow(main[0]),
            GrowArrow(main[1]),
            GrowArrow(main[2]),
            FadeIn(ffn, shift=UP * 0.2),
        )
        self.say(
            "residual",
            FadeIn(layers.branches),
            *(Create(r) for r in layers.residuals),
            FadeIn(layers.nodes),
            GrowArrow(main[3]),
            beats={"norm": [FadeIn(layers.norm_labels)]},
        )
        later = VGroup(
            *(
                g.get_cell(i, j)
                for g in tiles
                for i in range(g.n_rows)
                for j in range(i + 1, g.n_cols)
            )
        )
        self.say(
            "stack",
            FadeIn(count),
            Create(main[4]),
            beats={
                "mask": [later.animate.set_opacity(style.DIMMED), outline(tile)],
                "top": [GrowArrow(out), FadeIn(output)],
            },
        )
        self.say(
            "training",
            outline(layers.card),
            beats={
                "embed": [outline(inputs)],
                "heads": [outline(tiles)],
                "wo": [outline(w_o)],
                "rest": [outline(ffn, layers.norm_labels, output)],
            },
        )
        rnn, once = strips
        light = [
            box[0].animate(rate_func=there_and_back).set_fill(style.HIGHLIGHT, opacity=0.6)
            for box in rnn[1]
        ]
        self.say(
            "parallel",
            FadeIn(strips),
            then=[[Succession(*light)]],
            beats={
                "once": [
                    *(
                        box[0].animate(rate_func=there_and_back).set_fill(style.HIGHLIGHT, 0.6)
                        for box in once[1]
                    ),
                    outline(tiles),
                ]
            },
        )
        self.clear_below_title(self.title)

    def _uses(self) -> None:
        """Four uses, each drawn: text generation adds a token, translation writes a
        sentence in another language, code is cut into tokens, a protein chain's residues
        attend to residues far along the chain."""
        panels = VGroup(self._generation(), self._translation(), self._code(), self._protein())
        for panel, key in zip(panels, USES, strict=True):
            caption = style.name_text(self.words[key], style.LABEL_SIZE)
            panel.insert(0, caption.next_to(panel, UP, buff=style.ITEM_BUFF))
        panels.arrange_in_grid(2, 2, buff=(style.WIDE_BUFF, style.SECTION_BUFF * 2))
        heading = style.text(self.words["uses_head"], style.BODY_SIZE, style.MUTED)
        style.place(VGroup(heading, panels).arrange(DOWN, buff=style.GROUP_BUFF), grow=1.6)
        generation, translation, code, protein = panels
        self.say(
            "uses",
            FadeIn(heading),
            FadeIn(generation[0], generation.prompt),
            beats={"gen": [GrowArrow(generation.arrow), FadeIn(generation.next, shift=RIGHT)]},
        )
        self.say(
            "translation",
            FadeIn(translation[0], translation.source),
            beats={
                "paper": [
                    GrowArrow(translation.arrow),
                    LaggedStartMap(FadeIn, translation.target, lag_ratio=0.3),
                ]
            },
        )
        self.say(
            "code",
            FadeIn(code[0], code.line),
            beats={"tokens": [Transform(code.line, code.tokens)]},
        )
        self.say(
            "alphafold",
            FadeIn(protein[0], protein.chain),
            beats={"family": [LaggedStartMap(Create, protein.links, lag_ratio=0.3)]},
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
        """A sentence and its translation (the locale's own example), one token at a time."""
        panel = VGroup()
        panel.source = WordBoxes(self.words["translation_source"].split(), style.LABEL_SIZE)
        panel.target = WordBoxes(
            self.words["translation_target"].split(), style.LABEL_SIZE, style.HIGHLIGHT
        )
        panel.arrow = Arrow(UP, DOWN, color=style.MUTED).scale(0.35)
        rows = VGroup(panel.source, panel.arrow, panel.target).arrange(DOWN, buff=style.HUG_BUFF)
        panel.add(rows)
        return panel

    def _code(self) -> VGroup:
        """A line of code, then the same line cut into tokens."""
        panel = VGroup()
        panel.tokens = WordBoxes(CODE_TOKENS, style.LABEL_SIZE)
        panel.line = style.name_text("".join(CODE_TOKENS), style.LABEL_SIZE).move_to(panel.tokens)
        panel.add(VGroup(panel.line, panel.tokens))  # the tokens take the line's place
        return panel

    def _protein(self) -> VGroup:
        """A chain of residues, and attention between residues far apart along it."""
        panel = VGroup()
        residues = VGroup(*(Dot(radius=0.09, color=style.FOREGROUND) for _ in range(RESIDUES)))
        residues.arrange(RIGHT, buff=style.GROUP_BUFF)
        for k, dot in enumerate(residues):
            dot.shift(UP * style.ROW_BUFF * (k % 2))  # a zigzag backbone
        backbone = VMobject().set_points_as_corners([d.get_center() for d in residues])
        backbone.set_stroke(style.MUTED, 3)
        panel.chain = VGroup(backbone, residues)
        panel.links = VGroup(
            *(
                ArcBetweenPoints(
                    residues[a].get_top(), residues[b].get_top(), angle=-PI / 2
                ).set_stroke(style.HIGHLIGHT, 3)
                for a, b in PROTEIN_LINKS
            )
        )
        panel.add(VGroup(panel.chain, panel.links))
        return panel
