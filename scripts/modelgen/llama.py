"""Llama in the op patterns of the PyTorch export of HF LlamaForCausalLM.

Parameter names follow HF (``model.layers.N.self_attn.q_proj.weight`` ...),
but projection weights are stored [in, out] (x @ W), i.e. already transposed
from nn.Linear's [out, in], as the exporter's optimiser leaves them.
"""

import numpy as np
import onnx

from . import layers
from .config import ModelConfig
from .layers import INT64_MAX, Ctx

ROPE_THETA = 10000.0


def build(cfg: ModelConfig) -> onnx.ModelProto:
    """Build the Llama graph for a resolved config."""
    ctx, input_ids, labels = layers.start(cfg)
    b, init = ctx.b, ctx.init
    embed = init.embedding("model.embed_tokens.weight", cfg.vocab, cfg.hidden)
    cos_table, sin_table = _rope_tables(ctx)

    _, positions = layers.seq_positions(ctx, input_ids)
    position_ids = b.unsqueeze(positions, [0])  # [1, S]
    # [1, 1, S, D]: broadcast over batch and heads
    cos = b.unsqueeze(b.op("Gather", [cos_table, position_ids], axis=0), [1])
    sin = b.unsqueeze(b.op("Gather", [sin_table, position_ids], axis=0), [1])
    mask = layers.causal_bias_range(ctx, positions)

    hidden = b.op("Gather", [embed, input_ids], axis=0)
    for i in range(cfg.layers):
        hidden = _block(ctx, hidden, mask, (cos, sin), f"model.layers.{i}")

    hidden = layers.rms_norm(ctx, hidden, "model.norm")
    lm_head = init.matrix("lm_head.weight", cfg.hidden, cfg.vocab)
    return layers.finish(ctx, hidden, lm_head, labels)


def _rope_tables(ctx: Ctx) -> tuple[str, str]:
    """Initializers ``rope.cos``/``rope.sin`` [max_pos, D] in HF's half-split layout."""
    cfg = ctx.cfg
    d = cfg.head_dim
    inv_freq = 1.0 / ROPE_THETA ** (np.arange(0, d, 2) / d)
    angles = np.outer(np.arange(cfg.max_pos), inv_freq)
    angles = np.concatenate([angles, angles], axis=-1)
    b = ctx.b
    return (b.param("rope.cos", np.cos(angles).astype(np.float32)),
            b.param("rope.sin", np.sin(angles).astype(np.float32)))


def _rotate(ctx: Ctx, x: str, cos: str, sin: str) -> str:
    """x * cos + rotate_half(x) * sin, rotate_half = Concat(Neg(x2), x1) via Slice."""
    b = ctx.b
    half = ctx.cfg.head_dim // 2
    last = b.const([-1])
    x1 = b.op("Slice", [x, b.const([0]), b.const([half]), last])
    x2 = b.op("Slice", [x, b.const([half]), b.const([INT64_MAX]), last])
    rotated = b.op("Concat", [b.op("Neg", [x2]), x1], axis=-1)
    return b.op("Add", [b.op("Mul", [x, cos]), b.op("Mul", [rotated, sin])])


def _repeat_kv(ctx: Ctx, x: str) -> str:
    """[B, K, S, D] → Unsqueeze(2) → Expand [B, K, A/K, S, D] → Reshape [B, A, S, D]."""
    cfg = ctx.cfg
    n_rep = cfg.heads // cfg.kv_heads
    if n_rep == 1:
        return x  # HF returns the tensor unchanged
    b = ctx.b
    shape = [cfg.batch, cfg.kv_heads, n_rep, cfg.seq, cfg.head_dim]
    expanded = b.op("Expand", [b.unsqueeze(x, [2]), b.const(shape)])
    return b.reshape(expanded, [cfg.batch, cfg.heads, cfg.seq, cfg.head_dim])


def _block(ctx: Ctx, x: str, mask: layers.CausalMask, rope: tuple[str, str],
           prefix: str) -> str:
    """One block: x + attn(rms(x)), then + SwiGLU(rms(x)); no biases."""
    b, cfg = ctx.b, ctx.cfg
    h, kv = cfg.hidden, cfg.kv_heads * cfg.head_dim
    attn_in = layers.rms_norm(ctx, x, f"{prefix}.input_layernorm")

    def project(name: str, width: int, heads: int) -> str:
        """A q/k/v projection of attn_in, split into [B, heads, S, D]."""
        proj = layers.linear(ctx, attn_in, f"{prefix}.self_attn.{name}", h, width, bias=False)
        return layers.split_heads(ctx, proj, heads)

    q = _rotate(ctx, project("q_proj", h, cfg.heads), *rope)
    k = _rotate(ctx, project("k_proj", kv, cfg.kv_heads), *rope)
    v = project("v_proj", kv, cfg.kv_heads)
    attn = layers.attention(ctx, q, _repeat_kv(ctx, k), _repeat_kv(ctx, v), mask,
                            scale_op="Mul")
    out = layers.linear(ctx, layers.merge_heads(ctx, attn), f"{prefix}.self_attn.o_proj",
                        h, h, bias=False)
    x = b.op("Add", [x, out])

    mlp_in = layers.rms_norm(ctx, x, f"{prefix}.post_attention_layernorm")
    f = cfg.ffn
    gate = layers.linear(ctx, mlp_in, f"{prefix}.mlp.gate_proj", h, f, bias=False)
    up = layers.linear(ctx, mlp_in, f"{prefix}.mlp.up_proj", h, f, bias=False)
    silu = b.op("Mul", [gate, b.op("Sigmoid", [gate])])
    down = layers.linear(ctx, b.op("Mul", [silu, up]), f"{prefix}.mlp.down_proj", f, h,
                         bias=False)
    return b.op("Add", [x, down])
