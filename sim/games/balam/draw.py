"""Pictures of a Balam board file: its site tiles (each tile's spaces, production colour and
features) and the board as printed (the tiles on their cells, with the paths).

``draw_tiles(board_file, png_path)`` draws the tile set, ``draw_board(board_file,
png_path)`` the printed layout; the run report draws the tile set, and the board too when
the run played it as printed (``layout=fixed``).
"""
from __future__ import annotations

from pathlib import Path

from . import data as D

FILL = {0: "#f2d04b", 1: "#8b5a2b", 2: "#8fc9e8", 3: "#3fa76a", 4: "#444444"}
TEXT = {0: "black", 1: "white", 2: "black", 3: "white", 4: "white"}
LEGEND = ("colour = production (maize, cacao, shell, jade, obsidian); squares = spaces; "
          "F forest, S seashore, V next to a volcano, C cenote")


def _tile(ax, x, y, name, info):
    """One tile centred on (x, y): colour, id, its spaces as squares, its features."""
    from matplotlib.patches import Rectangle
    sp, col, forest, sea, volc, cen = (int(v) for v in info)
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


def _save(fig, png_path):
    import matplotlib.pyplot as plt
    fig.tight_layout()
    Path(png_path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png_path, dpi=90)
    plt.close(fig)
    return str(png_path)


def draw_tiles(board_file=None, png_path="balam_tiles.png", title=None):
    """The board file's land tiles (the set a random layout permutes), in printed order."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    board = D.load_board(board_file or D.SEEDS / "board.toml")
    n = len(board.names)
    cols = min(n, 9)
    rows = -(-n // cols)
    fig, ax = plt.subplots(figsize=(1.3 * cols + 0.6, 1.3 * rows + 1.0))
    for s, name in enumerate(board.names):
        r, c = divmod(s, cols)
        _tile(ax, c + 0.5, rows - r - 0.5, name, board.info[s])
    ax.set_xlim(0, cols)
    ax.set_ylim(0, rows)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title((title or f"Balam site tiles ({n} land tiles)") + "\n" + LEGEND, fontsize=9)
    return _save(fig, png_path)


def draw_board(board_file=None, png_path="balam_board.png"):
    """The board file as printed: each tile on its cell, sea cells, and the paths."""
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
        _tile(ax, *centre[s], name, board.info[s])
    ax.set_xlim(0, board.cols)
    ax.set_ylim(0, board.rows)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title("Balam board as printed in the board file: " + LEGEND + ";\ndashed = long path",
                 fontsize=9)
    return _save(fig, png_path)
