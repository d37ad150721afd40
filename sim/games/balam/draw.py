"""A picture of a Balam board file: each site's spaces, production colour, features and paths.

``draw_board(board_file, png_path)`` writes a PNG; the report (or a designer) can call it
with ``GAME.notes["board_file"]``.
"""
from __future__ import annotations

from pathlib import Path

from . import data as D

FILL = {0: "#f2d04b", 1: "#8b5a2b", 2: "#8fc9e8", 3: "#3fa76a", 4: "#444444"}
TEXT = {0: "black", 1: "white", 2: "black", 3: "white", 4: "white"}


def draw_board(board_file=None, png_path="balam_board.png"):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    board = D.load_board(board_file or D.SEEDS / "board.toml")
    fig, ax = plt.subplots(figsize=(1.6 * board.cols + 1, 1.6 * board.rows + 1))
    centre = {}
    for s, (r, c) in enumerate(board.rc):
        centre[s] = (c + 0.5, board.rows - r - 0.5)
    drawn = set()
    for s in range(len(board.names)):
        for j in range(board.nnb[s]):
            t = int(board.nbr[s, j])
            if (t, s) in drawn:
                continue
            drawn.add((s, t))
            (x1, y1), (x2, y2) = centre[s], centre[t]
            far = abs(x1 - x2) + abs(y1 - y2) > 1.01
            ax.plot([x1, x2], [y1, y2], color="#b0864f", lw=3, zorder=1,
                    ls="--" if far else "-")
    for r, c in board.sea:
        ax.add_patch(Rectangle((c + 0.03, board.rows - r - 0.97), 0.94, 0.94, color="#2c6fb7",
                               zorder=2))
        ax.text(c + 0.5, board.rows - r - 0.5, "sea", ha="center", va="center", color="white",
                zorder=3)
    for s, name in enumerate(board.names):
        sp, col, forest, sea, volc, cen = (int(x) for x in board.info[s])
        x, y = centre[s]
        ax.add_patch(Rectangle((x - 0.4, y - 0.4), 0.8, 0.8, color=FILL[col], zorder=2,
                               ec="#2d5a27" if forest else "black", lw=4 if forest else 1))
        ax.text(x, y + 0.22, name, ha="center", va="center", color=TEXT[col], fontsize=11,
                weight="bold", zorder=3)
        for k in range(sp):
            ax.add_patch(Rectangle((x - 0.3 + 0.16 * k, y - 0.08), 0.13, 0.13, fc="white",
                                   ec="black", zorder=3))
        feats = "".join(f for f, on in (("F", forest), ("S", sea), ("V", volc), ("C", cen)) if on)
        ax.text(x, y - 0.25, feats, ha="center", va="center", color=TEXT[col], fontsize=9,
                zorder=3)
    ax.set_xlim(0, board.cols)
    ax.set_ylim(0, board.rows)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title("Balam board: colour = production (maize, cacao, shell, jade, obsidian); "
                 "squares = spaces;\nF forest, S seashore, V next to a volcano, C cenote; "
                 "dashed = long path", fontsize=9)
    fig.tight_layout()
    Path(png_path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png_path, dpi=90)
    plt.close(fig)
    return str(png_path)
