"""Command line: ``PYTHONPATH=scripts python -m modelgen [--preset NAME] [flags] --out DIR``.

A preset supplies the architecture and sizes; explicit flags override it.
Without a preset, --arch --layers --hidden --heads --vocab --seq --batch are
required. Exits non-zero with a message if the config is inconsistent, the
checker rejects the model or onnxruntime cannot run it.
"""

import argparse
import sys
from pathlib import Path

from .config import ARCHS, DEFAULT_OPSET, OPSETS, PRESETS, ModelConfig
from .generate import generate

REQUIRED = ("arch", "layers", "hidden", "heads", "vocab", "seq", "batch")
# Integer flags and the default shown in --help (None: required without a preset).
INT_FLAGS = {"layers": None, "hidden": None, "heads": None, "kv-heads": "heads",
             "ffn": "4 * hidden", "vocab": None, "seq": None, "batch": None,
             "max-pos": "max(128, seq)", "seed": "0"}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Parse flags; every config flag defaults to None so presets can fill it."""
    p = argparse.ArgumentParser(prog="python -m modelgen", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--preset", choices=sorted(PRESETS))
    p.add_argument("--arch", choices=ARCHS)
    for name, default in INT_FLAGS.items():
        p.add_argument(f"--{name}", type=int, help=default and f"default {default}")
    p.add_argument("--opset", type=int, choices=OPSETS, help=f"default {DEFAULT_OPSET}")
    p.add_argument("--dtype", choices=["float32"])
    p.add_argument("--gelu", choices=["op", "tanh-pattern"],
                   help="gpt2 GELU form: Gelu(approximate=tanh) op (opset >= 20) "
                        "or the Mul/Pow/Tanh pattern (default)")
    p.add_argument("--linear", choices=["matmul", "gemm"],
                   help="projections as MatMul(+Add) on [B,S,H] (default) or "
                        "Reshape→Gemm→Reshape on [B*S,H]")
    p.add_argument("--loss", action="store_true", default=None,
                   help="output the scalar next-token loss instead of logits")
    p.add_argument("--external-data", action="store_true", default=None,
                   help="store all initializers in model.onnx.data")
    p.add_argument("--shape-only", action="store_true", default=None,
                   help="initializers without data and no reference outputs: a "
                        "graph for paracc --random-weights (benchmarks)")
    p.add_argument("--dropout", type=float,
                   help="gpt2: Dropout(training_mode=True) with this ratio on the "
                        "embeddings and residual branches; the test data then "
                        "holds inputs only (the masks are random)")
    p.add_argument("--out", type=Path, required=True)
    return p.parse_args(argv)


def config_from_args(args: argparse.Namespace) -> ModelConfig:
    """Merge the preset with the explicit flags (flags win)."""
    values = dict(PRESETS[args.preset]) if args.preset else {}
    explicit = {k: v for k, v in vars(args).items()
                if v is not None and k not in ("preset", "out")}
    values.update(explicit)
    missing = [f"--{k}" for k in REQUIRED if k not in values]
    if missing:
        raise ValueError(f"missing {' '.join(missing)} (or give --preset)")
    return ModelConfig(**values).resolved()


def main(argv: list[str] | None = None) -> int:
    """Generate the model; print a one-line summary per output."""
    args = parse_args(argv)
    try:
        cfg = config_from_args(args)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    outputs = generate(cfg, args.out)
    for name, value in outputs.items():
        print(f"{args.out}: {cfg.arch} opset {cfg.opset}: {name} {value.dtype} "
              f"{list(value.shape)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
