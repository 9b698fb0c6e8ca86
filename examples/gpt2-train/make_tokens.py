"""Writes tokens.u16: a stream of 8192 token ids (vocabulary 128) that
cycles through 32 fixed ids, each followed by the next one nine times in
ten (a random id otherwise), so a model's loss falls quickly.

usage: python make_tokens.py tokens.u16
"""

import sys

import numpy as np

rng = np.random.default_rng(0)
cycle = rng.permutation(128)[:32]
tokens = np.empty(8192, np.uint16)
position = 0
for i in range(tokens.size):
    tokens[i] = cycle[position % 32] if rng.random() < 0.9 else rng.integers(128)
    position += 1
tokens.tofile(sys.argv[1])
