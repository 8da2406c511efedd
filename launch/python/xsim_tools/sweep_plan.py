"""What a sweep runs: parameters (one or several machine keys set to the same value), their
values (a list, or a range sampled at random), and the rank counts."""
import hashlib
import itertools
import math
import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Parameter:
    keys: tuple          # machine keys set together (e.g. every level's latency)
    values: tuple = ()   # grid values
    low: float = None    # or a sampled range
    high: float = None
    log: bool = False    # sample log-uniformly

    @property
    def name(self):
        return ",".join(self.keys)


def parse_parameter(text):
    """KEY[,KEY...]=v1,v2,...   or   KEY[,KEY...]=lo:hi   or   KEY[,KEY...]=log:lo:hi"""
    if "=" not in text:
        raise ValueError(f"--param {text!r}: expected KEY=VALUES (e.g. network.level.node.latency=1e-6,2e-6)")
    keys_text, values_text = text.split("=", 1)
    keys = tuple(k.strip() for k in keys_text.split(",") if k.strip())
    if not keys:
        raise ValueError(f"--param {text!r}: no machine key before '='")
    for k in keys:
        if any(c.isspace() for c in k) or "." not in k:
            raise ValueError(f"--param {text!r}: {k!r} is not a machine key (section.key, see xsim-machine --keys)")
    log = values_text.startswith("log:")
    if log:
        values_text = values_text[4:]
    if ":" in values_text:
        parts = values_text.split(":")
        if len(parts) != 2:
            raise ValueError(f"--param {text!r}: a range is LOW:HIGH or log:LOW:HIGH")
        low, high = (_number(text, p) for p in parts)
        if not low < high:
            raise ValueError(f"--param {text!r}: range {low}:{high} is empty")
        if log and low <= 0:
            raise ValueError(f"--param {text!r}: a log range needs LOW > 0")
        return Parameter(keys, (), low, high, log)
    if log:
        raise ValueError(f"--param {text!r}: log: is only for ranges LOW:HIGH")
    values = tuple(_number(text, v) for v in values_text.split(",") if v.strip())
    if not values:
        raise ValueError(f"--param {text!r}: no values")
    return Parameter(keys, values)


def _number(context, text):
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"--param {context!r}: {text!r} is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"--param {context!r}: {text!r} is not finite")
    return value


def points(parameters, ranks, samples=None, seed=1):
    """Every run as (ranks, {parameter name: value}). A grid when samples is None (every
    parameter needs values), else `samples` random points per rank count (ranges sampled,
    lists chosen from)."""
    if samples is None:
        for p in parameters:
            if not p.values:
                raise ValueError(f"--param {p.name}: a range needs --samples N (a grid needs a list of values)")
        for n in ranks:
            for combo in itertools.product(*(p.values for p in parameters)):
                yield n, {p.name: v for p, v in zip(parameters, combo)}
        return
    rng = random.Random(seed)
    for n in ranks:
        for _ in range(samples):
            point = {}
            for p in parameters:
                if p.values:
                    point[p.name] = rng.choice(p.values)
                elif p.log:
                    point[p.name] = math.exp(rng.uniform(math.log(p.low), math.log(p.high)))
                else:
                    point[p.name] = rng.uniform(p.low, p.high)
            yield n, point


def run_id(ranks, point, command):
    """Stable identity of a run: a rerun of the same sweep skips the rows it already has."""
    text = repr((ranks, sorted(point.items()), tuple(command)))
    return hashlib.sha1(text.encode()).hexdigest()[:12]
