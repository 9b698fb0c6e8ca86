"""Transformer pieces shared by the architectures, in the exporters' op patterns."""

from dataclasses import dataclass

import numpy as np
import onnx

from .builder import FLOAT, INT64, GraphBuilder
from .config import ModelConfig
from .weights import WeightInit

INT64_MAX = np.iinfo(np.int64).max
FLOAT_LOWEST = float(np.finfo(np.float32).min)  # what HF uses for masked scores
IGNORE_INDEX = -100  # PyTorch's CrossEntropyLoss default


@dataclass(frozen=True)
class Ctx:
    """The graph being built, its weight source and its hyper-parameters."""

    b: GraphBuilder
    init: WeightInit
    cfg: ModelConfig

    def rows(self, features: int) -> list[int]:
        """The activation shape [batch, seq, features]."""
        return [self.cfg.batch, self.cfg.seq, features]


@dataclass(frozen=True)
class CausalMask:
    """A causal mask built once per model and applied to every layer's scores.

    additive=False: ``tensor`` is bool [S, S] and scores become
    Where(mask, scores, lowest) (HF GPT-2). additive=True: ``tensor`` is a
    float [S, S] bias (0 or lowest) and scores become Add(scores, bias)
    (HF Llama).
    """

    tensor: str
    additive: bool

    def apply(self, b: GraphBuilder, scores: str) -> str:
        """Mask [B, A, S, S] attention scores before the Softmax."""
        if self.additive:
            return b.op("Add", [scores, self.tensor])
        return b.op("Where", [self.tensor, scores, b.const(FLOAT_LOWEST, np.float32)])


def start(cfg: ModelConfig) -> tuple[Ctx, str, str | None]:
    """Create the context and declare the inputs: input_ids and, with --loss, labels."""
    b = GraphBuilder(cfg.opset, f"{cfg.arch}_modelgen")
    ctx = Ctx(b, WeightInit(b, cfg.seed, cfg.shape_only), cfg)
    shape = [cfg.batch, cfg.seq]
    input_ids = b.input("input_ids", INT64, shape)
    labels = b.input("labels", INT64, shape) if cfg.loss else None
    return ctx, input_ids, labels


def finish(ctx: Ctx, hidden: str, lm_weight: str, labels: str | None) -> onnx.ModelProto:
    """Apply the LM head (MatMul with a [H, V] weight) and emit logits or the loss."""
    b, cfg = ctx.b, ctx.cfg
    if labels is None:
        b.output("logits", FLOAT, ctx.rows(cfg.vocab))
        b.op("MatMul", [hidden, lm_weight], out="logits")
    else:
        b.output("loss", FLOAT, [])
        shifted_next_token_loss(ctx, b.op("MatMul", [hidden, lm_weight]), labels)
    return b.model(doc=f"paracc modelgen: {cfg.to_json()}")


def shifted_next_token_loss(ctx: Ctx, logits: str, labels: str) -> str:
    """Mean cross-entropy of logits[:, :-1] against labels[:, 1:], like HF GPT-2.

    The shifted tensors are flattened to [B*(S-1), V] and [B*(S-1)] and fed to
    SoftmaxCrossEntropyLoss(reduction="mean", ignore_index=-100).
    """
    b = ctx.b
    seq_axis = b.const([1])
    logits = b.op("Slice", [logits, b.const([0]), b.const([-1]), seq_axis])
    labels = b.op("Slice", [labels, b.const([1]), b.const([INT64_MAX]), seq_axis])
    return b.op("SoftmaxCrossEntropyLoss",
                [b.reshape(logits, [-1, ctx.cfg.vocab]), b.reshape(labels, [-1])],
                out="loss", reduction="mean", ignore_index=IGNORE_INDEX)


def seq_positions(ctx: Ctx, input_ids: str) -> tuple[str, str]:
    """Return (S as an int64 scalar, positions = Range(0, S, 1)) from Shape→Gather."""
    b = ctx.b
    seq = b.op("Gather", [b.op("Shape", [input_ids]), b.const(1)], axis=0)
    return seq, b.op("Range", [b.const(0), seq, b.const(1)])


def causal_mask_trilu(ctx: Ctx, seq: str) -> CausalMask:
    """Bool lower-triangular [S, S] mask: ConstantOfShape → Trilu(upper=0) → Cast."""
    b = ctx.b
    side = b.unsqueeze(seq, [0])
    shape = b.op("Concat", [side, side], axis=0)
    ones = b.op("ConstantOfShape", [shape],
                value=onnx.numpy_helper.from_array(np.ones(1, np.float32)))
    lower = b.op("Trilu", [ones], upper=0)
    return CausalMask(b.op("Cast", [lower], to=onnx.TensorProto.BOOL), additive=False)


def causal_bias_range(ctx: Ctx, positions: str) -> CausalMask:
    """Additive [S, S] bias: Where(LessOrEqual(key_pos, query_pos), 0, lowest)."""
    b = ctx.b
    keys = b.unsqueeze(positions, [0])     # [1, S]
    queries = b.unsqueeze(positions, [1])  # [S, 1]
    allowed = b.op("LessOrEqual", [keys, queries])
    bias = b.op("Where", [allowed, b.const(0.0, np.float32),
                          b.const(FLOAT_LOWEST, np.float32)])
    return CausalMask(bias, additive=True)


def linear(ctx: Ctx, x: str, prefix: str, fan_in: int, fan_out: int, bias: bool) -> str:
    """x @ W (+ b) on [B, S, fan_in] with weights ``prefix.weight`` [fan_in, fan_out].

    --linear matmul: MatMul (+ Add). --linear gemm: Reshape to [B*S, fan_in],
    Gemm, Reshape back, as the HF GPT-2 export does for its Conv1D layers.
    """
    b, init = ctx.b, ctx.init
    weight = init.matrix(f"{prefix}.weight", fan_in, fan_out)
    bias_name = init.bias(f"{prefix}.bias", fan_out) if bias else None
    if ctx.cfg.linear == "gemm":
        flat = b.reshape(x, [-1, fan_in])
        y = b.op("Gemm", [flat, weight] + ([bias_name] if bias else []))
        return b.reshape(y, ctx.rows(fan_out))
    y = b.op("MatMul", [x, weight])
    return b.op("Add", [y, bias_name]) if bias else y


def layer_norm(ctx: Ctx, x: str, prefix: str, eps: float = 1e-5) -> str:
    """LayerNormalization over the last axis with ``prefix.weight``/``prefix.bias``."""
    hidden = ctx.cfg.hidden
    weight = ctx.init.norm_weight(f"{prefix}.weight", hidden)
    bias = ctx.init.bias(f"{prefix}.bias", hidden)
    return ctx.b.op("LayerNormalization", [x, weight, bias], axis=-1, epsilon=eps)


def rms_norm(ctx: Ctx, x: str, prefix: str, eps: float = 1e-6) -> str:
    """RMSNorm as exported: Pow(x,2)→ReduceMean→Add(eps)→Sqrt→Reciprocal→Mul→Mul(w)."""
    b = ctx.b
    var = b.reduce_mean(b.op("Pow", [x, b.const(2.0, np.float32)]), [-1])
    inv = b.op("Reciprocal", [b.op("Sqrt", [b.op("Add", [var, b.const(eps, np.float32)])])])
    weight = ctx.init.norm_weight(f"{prefix}.weight", ctx.cfg.hidden)
    return b.op("Mul", [weight, b.op("Mul", [x, inv])])


def gelu_tanh(ctx: Ctx, x: str) -> str:
    """tanh-approximate GELU: the Gelu op (--gelu op) or the exported pattern.

    Pattern: Mul(x, 0.5) * (1 + Tanh(sqrt(2/pi) * (x + 0.044715 * Pow(x, 3)))).
    """
    b = ctx.b
    if ctx.cfg.gelu == "op":
        return b.op("Gelu", [x], approximate="tanh")
    f32 = np.float32
    half = b.op("Mul", [x, b.const(0.5, f32)])
    cube = b.op("Mul", [b.op("Pow", [x, b.const(3.0, f32)]), b.const(0.044715, f32)])
    inner = b.op("Mul", [b.op("Add", [x, cube]), b.const(np.sqrt(2.0 / np.pi), f32)])
    return b.op("Mul", [half, b.op("Add", [b.op("Tanh", [inner]), b.const(1.0, f32)])])


def split_heads(ctx: Ctx, x: str, heads: int) -> str:
    """[B, S, heads*D] → Reshape [B, S, heads, D] → Transpose → [B, heads, S, D]."""
    cfg = ctx.cfg
    shaped = ctx.b.reshape(x, [cfg.batch, cfg.seq, heads, cfg.head_dim])
    return ctx.b.op("Transpose", [shaped], perm=[0, 2, 1, 3])


def merge_heads(ctx: Ctx, x: str) -> str:
    """[B, A, S, D] → Transpose → [B, S, A, D] → Reshape [B, S, A*D]."""
    swapped = ctx.b.op("Transpose", [x], perm=[0, 2, 1, 3])
    return ctx.b.reshape(swapped, ctx.rows(ctx.cfg.hidden))


def attention(ctx: Ctx, q: str, k: str, v: str, mask: CausalMask, scale_op: str) -> str:
    """Softmax(mask(MatMul(q, Transpose(k)) scaled)) @ v on [B, A, S, D] tensors.

    scale_op "Div" divides by sqrt(D) (HF GPT-2); "Mul" multiplies by
    1/sqrt(D) (HF Llama).
    """
    b = ctx.b
    d = ctx.cfg.head_dim
    scores = b.op("MatMul", [q, b.op("Transpose", [k], perm=[0, 1, 3, 2])])
    factor = np.sqrt(d) if scale_op == "Div" else 1.0 / np.sqrt(d)
    scores = b.op(scale_op, [scores, b.const(factor, np.float32)])
    probs = b.op("Softmax", [mask.apply(b, scores)], axis=-1)
    return b.op("MatMul", [probs, v])
