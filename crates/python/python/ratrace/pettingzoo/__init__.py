"""PettingZoo AEC environments: ``bigcheese_v0`` and ``dalmuti_v0``.

    from ratrace.pettingzoo import dalmuti_v0
    env = dalmuti_v0.env(players=4)
"""

from . import bigcheese_v0, dalmuti_v0

__all__ = ["bigcheese_v0", "dalmuti_v0"]
