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
    Circumscribe,
    Create,
    Dot,
    FadeIn,
    FadeOut,
    GrowArrow,
    LaggedStartMap,
    MathTex,
    Rectangle,
    ReplacementTransform,
    RoundedRectangle,
    SurroundingRectangle,
    Transform,
    VGroup,
    VMobject,
)

from scenes.kit import style
from scenes.kit.base import LectureScene, top_index
from scenes.kit.diagrams import TransformerLayers
from scenes.kit.emphasis import outline
from scenes.kit.labels import WordBoxes
from scenes.kit.maps import AttentionGrid
from scenes.kit.numbers import ColumnSum, ColumnTops, phrase

IT_CAT = "tokens.it_cat.scaled.weights"
USES = ("use_gpt", "use_translation", "use_code", "use_alphafold")  # the panels' captions
CODE_TOKENS = ("for", " word", " in", " sentence", ":")  # a line of code, as tokens
RESIDUES = 10  # beads on the protein chain
PROTEIN_LINKS = ((1, 7), (2, 9), (4, 8))  # residues far apart along the chain that attend
TILE = 1.0  # side of one head's tile in the block


class ZoomOut(LectureScene):
    """One head → multi-head → a block with its neighbours → N layers; then its uses.

    Variants override :attr:`heads` (how many heads the block is drawn with).
    """

    scene_key = "zoom_out"
    reads = ("tokens.it_cat",)
    heads = 4

    def construct(self) -> None:
        self.title = self.make_title()
        self._block()
        self._uses()

    def _column(self, head: AttentionGrid) -> None:
        """Read a column of the map: the words that look hardest at the referent, and what
        the column adds up to (a row's sum is 1; a column's is not)."""
        it = self.data.it_cat
        col = it.referent
        lookers = [i for i, row in enumerate(it.scaled.weights) if top_index(row) == col]
        frames = VGroup(
            *(
                SurroundingRectangle(head.get_cell(i, col), color=style.HIGHLIGHT, buff=0)
                for i in lookers
            )
        )
        total = self.number(ColumnSum(IT_CAT, col), 2)
        label = phrase(self.words["column_line"], style.SMALL_SIZE, total=total)
        label.next_to(head, RIGHT, buff=style.WIDE_BUFF).align_to(head, DOWN)
        self.say(
            "column",
            beats={"brightest": [Create(frames, lag_ratio=0.3)], "sum": [FadeIn(label)]},
            lookers=self.all_of([it.tokens[i] for i in lookers]),
            n=self.number(ColumnTops(IT_CAT, col), 0),
            column_sum=total,
        )
        self.play(FadeOut(frames, label))

    def _box(self, key: str, width: float) -> VGroup:
        box = RoundedRectangle(corner_radius=0.1, width=width, height=0.6).set_stroke(
            style.MUTED, 2
        )
        return VGroup(box, style.text(self.words[key], style.LABEL_SIZE).move_to(box))

    def _block(self) -> None:
        it = self.data.it_cat
        head = AttentionGrid(
            it.scaled.weights,
            IT_CAT,
            row_headers=[style.text(t, style.SMALL_SIZE) for t in it.tokens],
            col_headers=[style.text(t, style.SMALL_SIZE) for t in it.tokens],
            cell_size=0.8,  # room for the widest word ("scared") as a column header
        )
        head_label = style.text(self.words["head"], style.BODY_SIZE).next_to(
            head, RIGHT, buff=style.WIDE_BUFF
        )
        style.place(VGroup(head, head_label))
        self.add(self.title)  # the title at once: no frame is only a title being written
        self.say("intro", FadeIn(head), FadeIn(head_label))
        self._column(head)

        tile = AttentionGrid(
            it.scaled.weights, IT_CAT, cell_size=TILE / len(it.tokens), show_numbers=False
        )
        others = VGroup(
            *(
                Rectangle(width=TILE, height=TILE).set_stroke(style.MUTED, 2)
                for _ in range(self.heads - 1)
            )
        )
        tiles = VGroup(tile, *others).arrange(RIGHT, buff=style.ITEM_BUFF)
        multi_box = SurroundingRectangle(tiles, color=style.FOREGROUND, buff=style.ITEM_BUFF)
        multi_label = style.text(self.words["multi"], style.LABEL_SIZE)
        ffn = self._box("ffn", multi_box.width)
        norms = [style.text(self.words["add_norm"], style.SMALL_SIZE, style.MUTED) for _ in "ab"]
        layers = TransformerLayers(VGroup(multi_box, tiles), ffn, norms, multi_label)
        inputs = self._box("positional", multi_box.width)
        inputs.next_to(layers.card, DOWN, buff=style.GROUP_BUFF).set_x(layers.entry()[0])
        output = self._box("next_token", multi_box.width)
        output.next_to(layers, UP, buff=style.GROUP_BUFF).set_x(layers.exit()[0])
        into = Arrow(inputs.get_top(), layers.entry(), buff=0, color=style.MUTED)
        out = Arrow(layers.exit(), output.get_bottom(), buff=0, color=style.MUTED)
        count = style.text(self.words["layers"], style.BODY_SIZE)
        count.next_to(layers.cards_behind, RIGHT, buff=style.GROUP_BUFF)
        learned = VGroup(
            style.text(self.words["learned"], style.LABEL_SIZE),
            MathTex(r"W_Q,\ W_K,\ W_V,\ W_O,\ \ldots", color=style.FOREGROUND),
        ).arrange(DOWN, aligned_edge=LEFT, buff=style.ITEM_BUFF)
        learned.next_to(layers, LEFT, buff=style.WIDE_BUFF)
        style.place(VGroup(layers, inputs, output, into, out, count, learned))
        self.say(
            "heads",
            FadeOut(head.numbers, head.row_headers, head.col_headers, head_label),
            ReplacementTransform(head.cells, tile.cells),
            FadeIn(others, lag_ratio=0.3),
            beats={"join": [Create(multi_box), FadeIn(multi_label)]},
        )
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
            beats={"norm": [FadeIn(layers.norm_labels), Create(layers.card)]},
        )
        n = len(it.tokens)
        later = VGroup(*(tile.get_cell(i, j) for i in range(n) for j in range(i + 1, n)))
        self.say(
            "stack",
            FadeIn(layers.cards_behind, lag_ratio=0.4),
            FadeIn(count),
            Create(main[4]),
            beats={
                "mask": [  # every head is masked
                    later.animate.set_opacity(style.DIMMED),
                    Circumscribe(tiles, color=style.HIGHLIGHT),
                ],
                "top": [GrowArrow(out), FadeIn(output)],
            },
        )
        self.say(
            "training",
            FadeIn(learned),
            beats={
                "embed": [outline(inputs)],
                "heads": [Circumscribe(tiles, color=style.HIGHLIGHT)],
                "rest": [
                    outline(ffn),
                    outline(layers.norm_labels),
                    outline(output),
                ],
            },
        )
        every = VGroup(*(tile.get_row(i) for i in range(len(it.tokens))))  # all rows at once
        self.say(
            "parallel",
            beats={"once": [Circumscribe(every, color=style.HIGHLIGHT)]},
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
        style.place(VGroup(heading, panels).arrange(DOWN, buff=style.GROUP_BUFF))
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
