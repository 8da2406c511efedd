"""xsim-plot matrix: the communication matrix of -xsim-commmatrix (sparse CSV: a '# xsim comm
matrix: entity=... entities=N ...' line, then src,dst,messages,bytes) as a heat map with a log
colour scale; pairs that exchanged nothing stay blank."""
import re

import numpy as np
from matplotlib.colors import LogNorm
from matplotlib.ticker import MaxNLocator

from xsim_tools import plot_common as pc

# Above this many entities the map is drawn in blocks of consecutive entities (summed).
MAX_CELLS = 1024
HEADER = re.compile(r"#\s*xsim comm matrix:(.*)")


def load(path):
    """-> (meta dict, entities, src, dst, messages, bytes) with numpy arrays."""
    lines = pc.read_lines(path, "communication matrix")
    meta, body = {}, []
    for i, line in enumerate(lines):
        if line.startswith("#"):
            m = HEADER.match(line)
            if m:
                meta = dict(kv.split("=", 1) for kv in m.group(1).split() if "=" in kv)
            continue
        if line.strip():
            body.append((i + 1, line))
    if not meta:
        raise pc.InputError(f"{path}: not an xsim communication matrix (no '# xsim comm matrix:' line)")
    entities = pc.number(meta.get("entities"), f"{path}: header entities=", integer=True)
    if entities < 1:
        raise pc.InputError(f"{path}: header entities={entities}: expected at least 1")
    if not body or body[0][1].replace(" ", "") != "src,dst,messages,bytes":
        raise pc.InputError(f"{path}: expected the header line src,dst,messages,bytes after the comment")
    rows = np.zeros((len(body) - 1, 4), dtype=np.int64)
    for k, (n, line) in enumerate(body[1:]):
        cells = line.split(",")
        if len(cells) != 4:
            raise pc.InputError(f"{path}:{n}: expected 4 fields src,dst,messages,bytes, got {len(cells)}")
        values = [pc.number(c.strip(), f"{path}:{n}", integer=True) for c in cells]
        if min(values) < 0 or values[0] >= entities or values[1] >= entities:
            raise pc.InputError(f"{path}:{n}: src and dst must be in 0..{entities - 1} and counts >= 0")
        rows[k] = values
    return meta, entities, rows[:, 0], rows[:, 1], rows[:, 2], rows[:, 3]


def totals(meta, entities, src, dst, messages, nbytes):
    busiest = int(np.argmax(nbytes)) if len(nbytes) else None
    return {"entity": meta.get("entity", "rank"), "entities": entities, "pairs": int(len(src)),
            "messages": int(messages.sum()), "bytes": int(nbytes.sum()),
            "busiest_pair": None if busiest is None else
            {"src": int(src[busiest]), "dst": int(dst[busiest]), "messages": int(messages[busiest]),
             "bytes": int(nbytes[busiest])}}


def dense(entities, src, dst, values, max_cells=MAX_CELLS):
    """(matrix, block): entities summed into blocks of `block` so at most max_cells a side."""
    block = max(1, -(-entities // max_cells))
    side = -(-entities // block)
    m = np.zeros((side, side), dtype=np.float64)
    np.add.at(m, (src // block, dst // block), values.astype(np.float64))
    return m, block


def draw(path, out, use_bytes=False, title=None):
    meta, entities, src, dst, messages, nbytes = load(path)
    values = nbytes if use_bytes else messages
    if not values.any():
        raise pc.InputError(f"{path}: the matrix is empty (no {'bytes' if use_bytes else 'messages'}): nothing to draw")
    m, block = dense(entities, src, dst, values)
    entity = meta.get("entity", "rank")
    fig, ax = pc.pyplot().subplots(figsize=(6.4, 5.4))
    shown = np.ma.masked_equal(m, 0.0)
    extent = (-0.5 * block, (m.shape[0] - 0.5) * block, (m.shape[0] - 0.5) * block, -0.5 * block)
    image = ax.imshow(shown, norm=LogNorm(vmin=shown.min(), vmax=max(shown.max(), shown.min() * 1.0001)),
                      cmap="viridis", interpolation="nearest", extent=extent, aspect="equal")
    what = "bytes" if use_bytes else "messages"
    fig.colorbar(image, ax=ax, label=f"{what} sent" + (f" (blocks of {block} {entity}s)" if block > 1 else ""))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(f"receiver ({entity})")
    ax.set_ylabel(f"sender ({entity})")
    ranks = meta.get("ranks")
    ax.set_title(title or f"{int(values.sum()):,} {what} between {entities:,} {entity}s"
                 + (f" ({int(ranks):,} ranks)" if ranks and entity != "rank" and ranks.isdigit() else ""))
    pc.save(fig, out)
    return totals(meta, entities, src, dst, messages, nbytes)
