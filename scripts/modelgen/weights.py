"""Random float32 parameters, scaled so that activations stay O(1).

Projections are N(0, 1/fan_in), so every projection keeps unit variance and
attention scores are O(1): softmax is far from uniform and far from one-hot,
which keeps numeric tests sensitive to mistakes in head layout or masking.
"""

import numpy as np

from .builder import GraphBuilder


class WeightInit:
    """Draws parameters from one numpy Generator and registers them as initializers."""

    def __init__(self, builder: GraphBuilder, seed: int, shape_only: bool = False):
        """Use ``numpy.random.default_rng(seed)`` for every parameter, in creation order.

        With ``shape_only`` the initializers carry their shapes but no data.
        """
        self.builder = builder
        self.rng = np.random.default_rng(seed)
        self.shape_only = shape_only
        if shape_only:
            # No draws: a fake generator whose arrays are zero-strided views.
            self.rng = _ShapeOnly()

    def _add(self, name: str, values: np.ndarray) -> str:
        """Register ``values`` as float32 initializer ``name``."""
        if self.shape_only:
            return self.builder.param_shape(name, list(values.shape))
        return self.builder.param(name, values.astype(np.float32))

    def matrix(self, name: str, fan_in: int, fan_out: int) -> str:
        """A [fan_in, fan_out] projection (x @ W layout) ~ N(0, 1/fan_in)."""
        return self._add(name, self.rng.standard_normal((fan_in, fan_out)) / np.sqrt(fan_in))

    def embedding(self, name: str, rows: int, dim: int) -> str:
        """A [rows, dim] embedding table ~ N(0, 1/dim)."""
        return self._add(name, self.rng.standard_normal((rows, dim)) / np.sqrt(dim))

    def bias(self, name: str, size: int) -> str:
        """A bias ~ N(0, 0.02^2)."""
        return self._add(name, 0.02 * self.rng.standard_normal(size))

    def norm_weight(self, name: str, size: int) -> str:
        """A normalisation scale: ones with N(0, 0.1^2) noise."""
        return self._add(name, 1.0 + 0.1 * self.rng.standard_normal(size))


class _ShapeOnly:
    """Stands in for a numpy Generator when only shapes are wanted."""

    def standard_normal(self, shape) -> "_Shape":
        """The shape alone (no memory, no draws)."""
        return _Shape((shape,) if isinstance(shape, int) else tuple(shape))


class _Shape:
    """A parameter's shape that arithmetic leaves as it is (scaling a
    zero-strided array would allocate the whole of it)."""

    def __init__(self, shape):
        self.shape = shape

    def _same(self, other):
        return self

    __add__ = __radd__ = __sub__ = __rsub__ = _same
    __mul__ = __rmul__ = __truediv__ = _same
