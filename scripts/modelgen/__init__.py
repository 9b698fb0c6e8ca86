"""Generate small GPT-2 / Llama ONNX models in PyTorch-exporter style, with
onnxruntime reference outputs, for paracc's end-to-end tests.

Usage: ``PYTHONPATH=scripts python -m modelgen --preset gpt2-small-test --out DIR``
(see ``__main__.py`` for all flags, README.md for the graph patterns).
"""

from .config import PRESETS, ModelConfig
from .generate import generate

__all__ = ["PRESETS", "ModelConfig", "generate"]
