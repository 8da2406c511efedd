"""What every xsim-plot figure shares: reading inputs with one-line errors, parsing rank
and time ranges, and writing the figure as PNG or SVG by the output's extension."""
import csv
import json
import math
import os


# Categories of a rank's time (engine/time_split.hpp), in the order they stack.
SPLIT = ("compute", "point_to_point", "collective", "waiting")
SPLIT_LABELS = {"compute": "compute", "point_to_point": "point-to-point", "collective": "collective",
                "waiting": "waiting"}
SPLIT_COLOURS = {"compute": "#4c72b0", "point_to_point": "#55a868", "collective": "#dd8452", "waiting": "#c44e52"}
FORMATS = (".png", ".svg")


def pyplot():
    """matplotlib.pyplot, loaded on first use (it takes about a second): a bad input or
    argument is refused at once."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot
    return matplotlib.pyplot


class InputError(Exception):
    """A bad input or argument: xsim-plot prints it on one line and exits with 2."""


def read_json(path, what):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError as e:
        raise InputError(f"{path}: cannot read the {what}: {e.strerror}") from None
    except ValueError as e:
        raise InputError(f"{path}: not a valid JSON {what}: {e}") from None


def read_lines(path, what):
    try:
        with open(path, newline="") as f:
            return f.read().splitlines()
    except OSError as e:
        raise InputError(f"{path}: cannot read the {what}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: the {what} is not text") from None


def read_csv(path, what):
    lines = read_lines(path, what)
    reader = csv.DictReader(lines)
    return reader.fieldnames or [], list(reader)


def number(value, where, integer=False):
    """A finite number (an integer when asked) from a file, or InputError naming where it was."""
    try:
        v = int(value) if integer else float(value)
    except (TypeError, ValueError):
        raise InputError(f"{where}: {value!r} is not {'an integer' if integer else 'a number'}") from None
    if not integer and not math.isfinite(v):
        raise InputError(f"{where}: {value!r} is not a finite number")
    return v


def parse_ranks(text):
    """'0-15,32,40-47' -> sorted list of ranks."""
    ranks = set()
    for part in text.split(","):
        part = part.strip()
        try:
            if "-" in part:
                lo, hi = (int(x) for x in part.split("-", 1))
            else:
                lo = hi = int(part)
        except ValueError:
            raise InputError(f"--ranks {text!r}: expected ranks and ranges like 0-15,32") from None
        if lo < 0 or hi < lo:
            raise InputError(f"--ranks {text!r}: {part!r} is not a range of ranks (0 <= first <= last)")
        if hi - lo > 1_000_000:
            raise InputError(f"--ranks {text!r}: {part!r} is too wide to draw")
        ranks.update(range(lo, hi + 1))
    return sorted(ranks)


def parse_window(text):
    """'T0:T1' in seconds of virtual time (either side may be empty) -> (t0, t1) in seconds."""
    if text.count(":") != 1:
        raise InputError(f"--window {text!r}: expected T0:T1 in seconds, e.g. 0:2e-3")
    lo, hi = text.split(":")
    try:
        t0 = float(lo) if lo.strip() else -math.inf
        t1 = float(hi) if hi.strip() else math.inf
    except ValueError:
        raise InputError(f"--window {text!r}: expected T0:T1 in seconds, e.g. 0:2e-3") from None
    if math.isnan(t0) or math.isnan(t1) or not t0 < t1:
        raise InputError(f"--window {text!r}: T0 must be less than T1")
    return t0, t1


def check_output(path):
    """Refuse an output that is neither .png nor .svg, or whose folder does not exist, before
    any work is done."""
    ext = os.path.splitext(path)[1].lower()
    if ext not in FORMATS:
        raise InputError(f"-o {path}: the picture's name must end in .png or .svg")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise InputError(f"-o {path}: folder {folder} does not exist")


def save(fig, path):
    try:
        # No date in an SVG: the same input gives the same file.
        svg = path.lower().endswith(".svg")
        fig.savefig(path, dpi=110, bbox_inches="tight", metadata={"Date": None} if svg else None)
    except OSError as e:
        raise InputError(f"-o {path}: cannot write the picture: {e.strerror}") from None
    finally:
        pyplot().close(fig)


def time_unit(span_s):
    """(scale, name) so that span_s * scale reads comfortably."""
    for scale, name in ((1.0, "s"), (1e3, "ms"), (1e6, "µs")):
        if span_s >= 1.0 / scale:
            return scale, name
    return 1e9, "ns"


def rank_ranges(ranks):
    """[0,1,2,3,7,9,10] -> '0-3,7,9-10' (for titles)."""
    out, start, prev = [], None, None
    for r in sorted(ranks):
        if start is None:
            start = prev = r
        elif r == prev + 1:
            prev = r
        else:
            out.append(f"{start}-{prev}" if prev != start else f"{start}")
            start = prev = r
    if start is not None:
        out.append(f"{start}-{prev}" if prev != start else f"{start}")
    return ",".join(out)
