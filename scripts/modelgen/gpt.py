"""The GPT of the PyTorch peer (shared/peers/bench_torch.py), op for op.

Separate q/k/v projections with biases, learned positions, pre-LN blocks
with a tanh-GELU MLP, an untied LM head without bias: the model paracc is
benchmarked on against PyTorch (24 layers, hidden 1024, 16 heads, vocab
50304 in the GPT-406M configuration).
"""

import onnx

from . import layers
from .config import ModelConfig
from .layers import Ctx


def build(cfg: ModelConfig) -> onnx.ModelProto:
    """Build the peer's GPT graph for a resolved config."""
    ctx, input_ids, labels = layers.start(cfg)
    b, init = ctx.b, ctx.init
    wte = init.embedding("wte.weight", cfg.vocab, cfg.hidden)
    wpe = init.embedding("wpe.weight", cfg.max_pos, cfg.hidden)

    seq, positions = layers.seq_positions(ctx, input_ids)
    tokens = b.op("Gather", [wte, input_ids], axis=0)
    pos = b.op("Gather", [wpe, b.unsqueeze(positions, [0])], axis=0)
    hidden = b.op("Add", [tokens, pos])
    mask = layers.causal_mask_trilu(ctx, seq)
    for i in range(cfg.layers):
        hidden = _block(ctx, hidden, mask, f"blocks.{i}")
    hidden = layers.layer_norm(ctx, hidden, "lnf")
    head = init.matrix("head.weight", cfg.hidden, cfg.vocab)
    return layers.finish(ctx, hidden, head, labels)


def _block(ctx: Ctx, x: str, mask: layers.CausalMask, prefix: str) -> str:
    """x + proj(attn(ln1(x))), then + fc2(gelu(fc1(ln2(x))))."""
    b, h = ctx.b, ctx.cfg.hidden
    n = layers.layer_norm(ctx, x, f"{prefix}.ln1")
    q, k, v = (layers.split_heads(ctx, layers.linear(ctx, n, f"{prefix}.{p}", h, h,
                                                     bias=True), ctx.cfg.heads)
               for p in ("q", "k", "v"))
    attn = layers.merge_heads(ctx, layers.attention(ctx, q, k, v, mask, scale_op="Mul"))
    x = b.op("Add", [x, layers.linear(ctx, attn, f"{prefix}.proj", h, h, bias=True)])
    f = ctx.cfg.ffn
    up = layers.linear(ctx, layers.layer_norm(ctx, x, f"{prefix}.ln2"),
                       f"{prefix}.fc1", h, f, bias=True)
    down = layers.linear(ctx, layers.gelu_tanh(ctx, up), f"{prefix}.fc2", f, h, bias=True)
    return b.op("Add", [x, down])
