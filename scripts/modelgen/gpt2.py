"""GPT-2 in the op patterns of the PyTorch export of HF GPT2LMHeadModel.

Parameter names follow HF (``transformer.h.N.attn.c_attn.weight`` ...); the
Conv1D weights are stored [in, out] as HF stores them.
"""

import numpy as np
import onnx

from . import layers
from .config import ModelConfig
from .layers import Ctx


def build(cfg: ModelConfig) -> onnx.ModelProto:
    """Build the GPT-2 graph for a resolved config."""
    ctx, input_ids, labels = layers.start(cfg)
    b, init = ctx.b, ctx.init
    wte = init.embedding("transformer.wte.weight", cfg.vocab, cfg.hidden)
    wpe = init.embedding("transformer.wpe.weight", cfg.max_pos, cfg.hidden)

    seq, positions = layers.seq_positions(ctx, input_ids)
    tokens = b.op("Gather", [wte, input_ids], axis=0)
    pos = b.op("Gather", [wpe, b.unsqueeze(positions, [0])], axis=0)
    hidden = _dropout(ctx, b.op("Add", [tokens, pos]))
    mask = layers.causal_mask_trilu(ctx, seq)

    for i in range(cfg.layers):
        hidden = _block(ctx, hidden, mask, f"transformer.h.{i}")

    hidden = layers.layer_norm(ctx, hidden, "transformer.ln_f")
    tied_head = b.op("Transpose", [wte], perm=[1, 0])
    return layers.finish(ctx, hidden, tied_head, labels)


def _block(ctx: Ctx, x: str, mask: layers.CausalMask, prefix: str) -> str:
    """One pre-LN block: x + attn(ln_1(x)), then + mlp(ln_2(x))."""
    b, h = ctx.b, ctx.cfg.hidden
    qkv = layers.linear(ctx, layers.layer_norm(ctx, x, f"{prefix}.ln_1"),
                        f"{prefix}.attn.c_attn", h, 3 * h, bias=True)
    q, k, v = (layers.split_heads(ctx, t, ctx.cfg.heads)
               for t in b.split(qkv, [h, h, h], axis=-1))
    attn = layers.merge_heads(ctx, layers.attention(ctx, q, k, v, mask, scale_op="Div"))
    proj = layers.linear(ctx, attn, f"{prefix}.attn.c_proj", h, h, bias=True)
    x = b.op("Add", [x, _dropout(ctx, proj)])

    f = ctx.cfg.ffn
    up = layers.linear(ctx, layers.layer_norm(ctx, x, f"{prefix}.ln_2"),
                       f"{prefix}.mlp.c_fc", h, f, bias=True)
    down = layers.linear(ctx, layers.gelu_tanh(ctx, up), f"{prefix}.mlp.c_proj", f, h, bias=True)
    return b.op("Add", [x, _dropout(ctx, down)])


def _dropout(ctx: Ctx, x: str) -> str:
    """Dropout in training mode with the config's ratio (x itself at 0)."""
    if ctx.cfg.dropout == 0.0:
        return x
    b = ctx.b
    ratio = b.const(np.array(ctx.cfg.dropout, np.float32), np.float32)
    mode = b.const(np.array(True), np.bool_)
    return b.op("Dropout", [x, ratio, mode])
