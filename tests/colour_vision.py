"""How far apart two colours look, with normal vision and the three dichromacies.

Used to check the board's palette (:data:`battleline_lab.render.svg.COLOURS`): every pair of the six
troop colours must stay apart for a learner with protanopia, deuteranopia or tritanopia.
Pure Python (no numpy), so it also runs in Pyodide.

- :func:`simulate` applies the Machado, Oliveira & Fernandes (2009) matrices at severity 1.0
  in linear RGB: sRGB → linear → matrix → sRGB (clipped to the gamut).
- :func:`ciede2000` is the CIEDE2000 colour difference (Sharma, Wu & Dalal 2005) between two
  sRGB colours, through CIE XYZ (D65) and CIELAB.

>>> round(ciede2000("#ffffff", "#000000"), 1)
100.0
>>> simulate("#ffffff", "deuteranopia")
'#ffffff'
>>> red, green = simulate("#ff0000", "deuteranopia"), simulate("#00ff00", "deuteranopia")
>>> ciede2000("#ff0000", "#00ff00") > 2 * ciede2000(red, green)
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["DEFICIENCIES", "MACHADO_2009", "ciede2000", "lab", "simulate"]

Matrix = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]

#: Machado et al. 2009, severity 1.0 (the dichromacies), for linear RGB.
MACHADO_2009: dict[str, Matrix] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
DEFICIENCIES = ("normal", *MACHADO_2009)


def _rgb(colour: str) -> tuple[float, float, float]:
    text = colour.lstrip("#")
    if len(text) != 6:
        raise ValueError(f"not a #rrggbb colour: {colour!r}")
    return (int(text[0:2], 16) / 255, int(text[2:4], 16) / 255, int(text[4:6], 16) / 255)


def _to_linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _to_srgb(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def _hex(rgb: Sequence[float]) -> str:
    return "#" + "".join(f"{round(c * 255):02x}" for c in rgb)


def simulate(colour: str, deficiency: str) -> str:
    """``colour`` as seen with ``deficiency`` (``normal``, ``protanopia``, ``deuteranopia``, ``tritanopia``).

    >>> simulate("#d62728", "normal")
    '#d62728'
    """
    if deficiency == "normal":
        return _hex(_rgb(colour))
    matrix = MACHADO_2009[deficiency]
    lin = [_to_linear(c) for c in _rgb(colour)]
    out = [sum(m * c for m, c in zip(row, lin)) for row in matrix]
    return _hex([_to_srgb(c) for c in out])


def lab(colour: str) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour.

    >>> [round(v) for v in lab("#ff0000")]
    [53, 80, 67]
    """
    r, g, b = (_to_linear(c) for c in _rgb(colour))
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def ciede2000(first: str, second: str) -> float:
    """The CIEDE2000 difference between two sRGB colours (kL = kC = kH = 1).

    Checked against Sharma's test data in ``tests/test_palette.py``; about 2.3 is a
    just-noticeable difference.
    """
    return delta_e_2000(lab(first), lab(second))


def delta_e_2000(lab1: Sequence[float], lab2: Sequence[float]) -> float:
    """CIEDE2000 between two CIELAB triples (Sharma, Wu & Dalal 2005).

    >>> round(delta_e_2000((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485)), 4)
    2.0425
    """
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c1 = math.hypot(a1, b1)
    c2 = math.hypot(a2, b2)
    c_bar = (c1 + c2) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dlp = l2 - l1
    dcp = c2p - c1p
    if c1p * c2p == 0:
        dhp = 0.0
    elif abs(h2p - h1p) <= 180:
        dhp = h2p - h1p
    elif h2p - h1p > 180:
        dhp = h2p - h1p - 360
    else:
        dhp = h2p - h1p + 360
    d_hp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    l_bar = (l1 + l2) / 2
    cp_bar = (c1p + c2p) / 2
    if c1p * c2p == 0:
        hp_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hp_bar = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hp_bar = (h1p + h2p + 360) / 2
    else:
        hp_bar = (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hp_bar - 30))
        + 0.24 * math.cos(math.radians(2 * hp_bar))
        + 0.32 * math.cos(math.radians(3 * hp_bar + 6))
        - 0.20 * math.cos(math.radians(4 * hp_bar - 63))
    )
    d_theta = 30 * math.exp(-(((hp_bar - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_bar**7 / (cp_bar**7 + 25**7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c = 1 + 0.045 * cp_bar
    s_h = 1 + 0.015 * cp_bar * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dlp / s_l) ** 2 + (dcp / s_c) ** 2 + (d_hp / s_h) ** 2 + r_t * (dcp / s_c) * (d_hp / s_h))


def min_distance(colours: Sequence[str], deficiency: str) -> tuple[float, str, str]:
    """The closest pair of ``colours`` as seen with ``deficiency``: (ΔE2000, first, second).

    >>> min_distance(["#000000", "#ffffff", "#fefefe"], "normal")[1:]
    ('#ffffff', '#fefefe')
    """
    seen = [simulate(c, deficiency) for c in colours]
    best = (math.inf, "", "")
    for i in range(len(colours)):
        for j in range(i + 1, len(colours)):
            d = ciede2000(seen[i], seen[j])
            if d < best[0]:
                best = (d, colours[i], colours[j])
    return best
