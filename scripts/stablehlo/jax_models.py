"""JAX programs lowered to StableHLO, with JAX's outputs, for paracc's
StableHLO importer tests (test/Importer/StableHLO, test/e2e/stablehlo.test).

    python jax_models.py OUT_DIR [NAME ...]

writes, per model (all, or the NAMEs given), OUT_DIR/NAME.mlir (what
`jax.jit(f).lower(x).as_text()` prints: the pretty form, parameters closed
over as dense constants),
OUT_DIR/NAME.generic.mlir (the same module in MLIR's generic form) and
OUT_DIR/NAME/test_data_set_0/{input_K.pb, output_0.pb} (the inputs and
JAX's output on its CPU backend, as ONNX TensorProtos); a model whose
parameters are arguments also gets OUT_DIR/NAME.npz (their values, in
argument order, for paracc's --params), and a loss model (a scalar result)
OUT_DIR/NAME/grads.npz: JAX's gradients of the loss with respect to them,
under the same names (arr_K, as np.savez names them), and the loss as
'loss'. Needs jax, numpy and onnx; gpt_loss's and llama_loss's files were
made with jax and jaxlib 0.10.2 (`python jax_models.py OUT_DIR gpt_loss
llama_loss` leaves the others as they are), and so were mlp_exact_loss's,
vit_loss's, gpt_scan_loss's, gpt_bf16_loss's, conv_variants', rnn_scan's,
router's, control's, control_loss's, remainder's, llama_bf16_loss's and
vit_bf16_loss's (the bf16 losses' parameters and data are their f32
losses': only their .mlir and output_0.pb are checked in), and
scatter_add's, pad's, scatter_loss's, gpt_loss_grad's and llama_loss_grad's (the losses' value
and gradients as one program: output_0.pb the loss, output_K.pb the
gradients in the parameters' order; their parameters are gpt_loss's and
llama_loss's, so only their .mlir files and outputs are checked in).
"""

import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
from onnx import numpy_helper

jax.config.update("jax_platforms", "cpu")


def init(key, shape, scale=0.05):
    return scale * jax.random.normal(key, shape, dtype=jnp.float32)


def layer_norm(x, g, b, eps=1e-5):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + eps) * g + b


def gelu(x):
    return jax.nn.gelu(x, approximate=True)


def gelu_exact(x):
    """GELU by the error function, as JAX lowers it: chlo.erfc."""
    return jax.nn.gelu(x, approximate=False)


def mlp_model(key):
    k = jax.random.split(key, 4)
    w1, b1 = init(k[0], (64, 256)), init(k[1], (256,))
    w2, b2 = init(k[2], (256, 64)), init(k[3], (64,))

    def f(x):
        return gelu(x @ w1 + b1) @ w2 + b2

    return f, np.random.default_rng(0).standard_normal((4, 16, 64)).astype(np.float32)


def block_params(key, hidden, ff):
    k = jax.random.split(key, 6)
    return {
        "ln1_g": jnp.ones((hidden,)), "ln1_b": jnp.zeros((hidden,)),
        "qkv": init(k[0], (hidden, 3 * hidden)), "qkv_b": init(k[1], (3 * hidden,)),
        "proj": init(k[2], (hidden, hidden)), "proj_b": init(k[3], (hidden,)),
        "ln2_g": jnp.ones((hidden,)), "ln2_b": jnp.zeros((hidden,)),
        "fc": init(k[4], (hidden, ff)), "fc_b": jnp.zeros((ff,)),
        "out": init(k[5], (ff, hidden)), "out_b": jnp.zeros((hidden,)),
    }


def block(p, x, heads, causal=True, activation=gelu):
    """A pre-LN transformer block; an encoder's (ViT's) with causal=False
    and activation=gelu_exact."""
    b, s, h = x.shape
    d = h // heads
    y = layer_norm(x, p["ln1_g"], p["ln1_b"])
    qkv = y @ p["qkv"] + p["qkv_b"]
    q, k, v = jnp.split(qkv, 3, axis=-1)
    q = q.reshape(b, s, heads, d).transpose(0, 2, 1, 3)
    k = k.reshape(b, s, heads, d).transpose(0, 2, 1, 3)
    v = v.reshape(b, s, heads, d).transpose(0, 2, 1, 3)
    # The scale and the mask value in x's type (bf16 stays bf16).
    scores = jnp.einsum("bhqd,bhkd->bhqk", q, k) / jnp.sqrt(
        jnp.float32(d)).astype(x.dtype)
    if causal:
        mask = jnp.arange(s)[:, None] >= jnp.arange(s)[None, :]
        scores = jnp.where(mask, scores, jnp.asarray(-1e9, x.dtype))
    att = jax.nn.softmax(scores, axis=-1)
    o = jnp.einsum("bhqk,bhkd->bhqd", att, v).transpose(0, 2, 1, 3).reshape(b, s, h)
    x = x + o @ p["proj"] + p["proj_b"]
    y = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + activation(y @ p["fc"] + p["fc_b"]) @ p["out"] + p["out_b"]


def block_model(key):
    p = block_params(key, 64, 256)

    def f(x):
        return block(p, x, heads=4)

    return f, np.random.default_rng(1).standard_normal((2, 16, 64)).astype(np.float32)


def gpt_model(key):
    vocab, hidden, layers, seq = 128, 64, 2, 16
    k = jax.random.split(key, layers + 2)
    wte = init(k[0], (vocab, hidden))
    wpe = init(k[1], (seq, hidden))
    blocks = [block_params(k[2 + i], hidden, 4 * hidden) for i in range(layers)]
    lnf_g, lnf_b = jnp.ones((hidden,)), jnp.zeros((hidden,))

    def f(ids):
        x = wte[ids] + wpe[jnp.arange(ids.shape[1])][None]
        for p in blocks:
            x = block(p, x, heads=4)
        return layer_norm(x, lnf_g, lnf_b) @ wte.T

    ids = np.random.default_rng(2).integers(0, vocab, (2, seq)).astype(np.int32)
    return f, ids


def mlp_params_model(key):
    """The MLP with its parameters as arguments (jax.jit(f).lower(params,
    x)): their values go to paracc with --params NAME.npz."""
    k = jax.random.split(key, 4)
    params = {"w1": init(k[0], (64, 256)), "b1": init(k[1], (256,)),
              "w2": init(k[2], (256, 64)), "b2": init(k[3], (64,))}

    def f(params, x):
        return gelu(x @ params["w1"] + params["b1"]) @ params["w2"] + params["b2"]

    x = np.random.default_rng(3).standard_normal((4, 16, 64)).astype(np.float32)
    return f, x, params


def cross_entropy(logits, labels):
    """Mean next-token cross-entropy as JAX programs write it: log_softmax
    and the labels' log-probabilities by take_along_axis (its gather with
    batching dims and the bounds check of mode="fill")."""
    logp = jax.nn.log_softmax(logits, axis=-1)
    picked = jnp.take_along_axis(logp, labels[..., None], axis=-1)[..., 0]
    return -jnp.mean(picked)


def causal_attention(q, k, v):
    """q, k, v: [b, heads, s, d]; the causal mask by jnp.where."""
    s, d = q.shape[2], q.shape[3]
    scores = jnp.einsum("bhqd,bhkd->bhqk", q, k) / jnp.sqrt(jnp.float32(d))
    causal = jnp.arange(s)[:, None] >= jnp.arange(s)[None, :]
    scores = jnp.where(causal, scores, jnp.float32(-1e9))
    return jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(scores, axis=-1), v)


def loss_tokens(vocab, batch, seq, seed):
    rng = np.random.default_rng(seed)
    tokens = rng.integers(0, vocab, (batch, seq)).astype(np.int32)
    labels = rng.integers(0, vocab, (batch, seq)).astype(np.int32)
    return tokens, labels


def gpt_loss_model(key):
    """A 2-layer GPT's whole loss with its parameters as arguments
    (jax.jit(loss).lower(params, tokens, labels)): LayerNorm, GELU, the
    causal mask by jnp.where, a tied embedding, cross-entropy by
    log_softmax and take_along_axis on int32 labels."""
    vocab, hidden, heads, layers, batch, seq = 64, 32, 4, 2, 2, 16
    k = jax.random.split(key, layers + 2)
    params = {
        "wte": init(k[0], (vocab, hidden)), "wpe": init(k[1], (seq, hidden)),
        "blocks": [block_params(k[2 + i], hidden, 4 * hidden)
                   for i in range(layers)],
        "lnf_g": jnp.ones((hidden,)), "lnf_b": jnp.zeros((hidden,)),
    }

    def loss(params, tokens, labels):
        x = params["wte"][tokens] + params["wpe"][None]
        for p in params["blocks"]:
            x = block(p, x, heads=heads)
        x = layer_norm(x, params["lnf_g"], params["lnf_b"])
        return cross_entropy(x @ params["wte"].T, labels)

    return loss, loss_tokens(vocab, batch, seq, 4), params


def rms_norm(x, g, eps=1e-5):
    return x * jax.lax.rsqrt(jnp.mean(jnp.square(x), axis=-1,
                                      keepdims=True) + eps) * g


def rope(x, base=10000.0):
    """Rotary embeddings on [b, heads, s, d], rotate-half form."""
    s, d = x.shape[2], x.shape[3]
    inv = 1.0 / base ** (jnp.arange(0, d, 2, dtype=jnp.float32) / d)
    angles = jnp.arange(s, dtype=jnp.float32)[:, None] * inv[None, :]
    cos = jnp.concatenate([jnp.cos(angles)] * 2, axis=-1)
    sin = jnp.concatenate([jnp.sin(angles)] * 2, axis=-1)
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    return x * cos + jnp.concatenate([-x2, x1], axis=-1) * sin


def llama_loss_model(key, dtype=None):
    """A 2-layer Llama's whole loss with its parameters as arguments:
    RMSNorm, RoPE, SwiGLU, grouped-query attention (4 heads, 2 KV heads,
    the KV heads repeated by jnp.repeat), an untied output projection, the
    same cross-entropy as gpt_loss. With `dtype` (llama_bf16_loss) the
    parameters are cast to it inside the step and the logits back to f32
    for the loss, as mixed-precision JAX programs do."""
    vocab, hidden, heads, kv_heads, ff, layers, batch, seq = (
        64, 32, 4, 2, 64, 2, 2, 16)
    d = hidden // heads
    k = jax.random.split(key, layers + 2)

    def layer(key):
        k = jax.random.split(key, 7)
        return {"attn_norm": jnp.ones((hidden,)),
                "wq": init(k[0], (hidden, heads * d)),
                "wk": init(k[1], (hidden, kv_heads * d)),
                "wv": init(k[2], (hidden, kv_heads * d)),
                "wo": init(k[3], (heads * d, hidden)),
                "ffn_norm": jnp.ones((hidden,)),
                "w_gate": init(k[4], (hidden, ff)),
                "w_up": init(k[5], (hidden, ff)),
                "w_down": init(k[6], (ff, hidden))}

    params = {"embed": init(k[0], (vocab, hidden)),
              "layers": [layer(k[2 + i]) for i in range(layers)],
              "norm": jnp.ones((hidden,)),
              "lm_head": init(k[1], (hidden, vocab))}

    def loss(params, tokens, labels):
        if dtype is not None:
            params = jax.tree_util.tree_map(lambda a: a.astype(dtype), params)
        x = params["embed"][tokens]
        b, s, _ = x.shape
        for p in params["layers"]:
            y = rms_norm(x, p["attn_norm"])
            q = (y @ p["wq"]).reshape(b, s, heads, d).transpose(0, 2, 1, 3)
            kk = (y @ p["wk"]).reshape(b, s, kv_heads, d).transpose(0, 2, 1, 3)
            v = (y @ p["wv"]).reshape(b, s, kv_heads, d).transpose(0, 2, 1, 3)
            q, kk = rope(q), rope(kk)
            kk = jnp.repeat(kk, heads // kv_heads, axis=1)
            v = jnp.repeat(v, heads // kv_heads, axis=1)
            o = causal_attention(q, kk, v).transpose(0, 2, 1, 3)
            x = x + o.reshape(b, s, hidden) @ p["wo"]
            y = rms_norm(x, p["ffn_norm"])
            gate = jax.nn.silu(y @ p["w_gate"]) * (y @ p["w_up"])
            x = x + gate @ p["w_down"]
        x = rms_norm(x, params["norm"])
        logits = x @ params["lm_head"]
        if dtype is not None:
            logits = logits.astype(jnp.float32)
        return cross_entropy(logits, labels)

    return loss, loss_tokens(vocab, batch, seq, 5), params


def mlp_exact_loss_model(key):
    """An MLP with exact GELU (chlo.erfc) and a squared-error loss, its
    parameters as arguments."""
    k = jax.random.split(key, 4)
    params = {"w1": init(k[0], (64, 256)), "b1": init(k[1], (256,)),
              "w2": init(k[2], (256, 64)), "b2": init(k[3], (64,))}

    def loss(params, x, target):
        h = gelu_exact(x @ params["w1"] + params["b1"])
        return jnp.mean(jnp.square(h @ params["w2"] + params["b2"] - target))

    rng = np.random.default_rng(6)
    x = rng.standard_normal((4, 16, 64)).astype(np.float32)
    target = rng.standard_normal((4, 16, 64)).astype(np.float32)
    return loss, (x, target), params


def vit_loss_model(key, dtype=None):
    """A ViT classifier's loss in Flax's layouts: the patch embedding a
    strided convolution (lax.conv_general_dilated, NHWC image, HWIO
    kernel), a class token, learned position embeddings, 2 pre-LN encoder
    blocks (attention without a mask, exact GELU), a final LayerNorm, a
    head on the class token and cross-entropy on integer labels. With
    `dtype` (vit_bf16_loss) the parameters and images are cast to it inside
    the step and the logits back to f32 for the loss."""
    image, patch, channels, hidden, heads, layers, classes, batch = (
        16, 4, 3, 32, 4, 2, 10, 2)
    tokens = (image // patch) ** 2 + 1
    k = jax.random.split(key, layers + 5)
    params = {
        "patch_w": init(k[0], (patch, patch, channels, hidden)),
        "patch_b": init(k[1], (hidden,)),
        "cls": init(k[2], (1, 1, hidden)),
        "pos": init(k[3], (1, tokens, hidden)),
        "blocks": [block_params(k[5 + i], hidden, 4 * hidden)
                   for i in range(layers)],
        "ln_g": jnp.ones((hidden,)), "ln_b": jnp.zeros((hidden,)),
        "head_w": init(k[4], (hidden, classes)),
        "head_b": jnp.zeros((classes,)),
    }

    def loss(params, images, labels):
        if dtype is not None:
            params = jax.tree_util.tree_map(lambda a: a.astype(dtype), params)
            images = images.astype(dtype)
        x = jax.lax.conv_general_dilated(
            images, params["patch_w"], (patch, patch), "VALID",
            dimension_numbers=("NHWC", "HWIO", "NHWC")) + params["patch_b"]
        b = x.shape[0]
        x = x.reshape(b, -1, hidden)
        cls = jnp.broadcast_to(params["cls"], (b, 1, hidden))
        x = jnp.concatenate([cls, x], axis=1) + params["pos"]
        for p in params["blocks"]:
            x = block(p, x, heads, causal=False, activation=gelu_exact)
        x = layer_norm(x[:, 0], params["ln_g"], params["ln_b"])
        logits = x @ params["head_w"] + params["head_b"]
        if dtype is not None:
            logits = logits.astype(jnp.float32)
        return cross_entropy(logits, labels)

    rng = np.random.default_rng(7)
    images = rng.standard_normal((batch, image, image, channels)).astype(
        np.float32)
    labels = rng.integers(0, classes, (batch,)).astype(np.int32)
    return loss, (images, labels), params


def gpt_scan_loss_model(key):
    """gpt_loss with its blocks' parameters stacked and the layers run by
    jax.lax.scan (a stablehlo.while over the layer index, each layer's
    parameters read by dynamic_slice)."""
    vocab, hidden, heads, layers, batch, seq = 64, 32, 4, 3, 2, 16
    k = jax.random.split(key, layers + 2)
    blocks = [block_params(k[2 + i], hidden, 4 * hidden) for i in range(layers)]
    params = {
        "wte": init(k[0], (vocab, hidden)), "wpe": init(k[1], (seq, hidden)),
        "blocks": jax.tree_util.tree_map(lambda *a: jnp.stack(a), *blocks),
        "lnf_g": jnp.ones((hidden,)), "lnf_b": jnp.zeros((hidden,)),
    }

    def loss(params, tokens, labels):
        x = params["wte"][tokens] + params["wpe"][None]
        x, _ = jax.lax.scan(lambda x, p: (block(p, x, heads=heads), None), x,
                            params["blocks"])
        x = layer_norm(x, params["lnf_g"], params["lnf_b"])
        return cross_entropy(x @ params["wte"].T, labels)

    return loss, loss_tokens(vocab, batch, seq, 8), params


def gpt_bf16_loss_model(key):
    """gpt_loss in mixed precision as JAX programs write it: f32
    parameters cast to bf16 inside the step, the model computed in bf16,
    the logits cast to f32 for the loss."""
    loss32, data, params = gpt_loss_model(key)
    del loss32
    heads = 4

    def loss(params, tokens, labels):
        p16 = jax.tree_util.tree_map(lambda a: a.astype(jnp.bfloat16), params)
        x = p16["wte"][tokens] + p16["wpe"][None]
        for p in p16["blocks"]:
            x = block(p, x, heads=heads)
        x = layer_norm(x, p16["lnf_g"], p16["lnf_b"])
        logits = (x @ p16["wte"].T).astype(jnp.float32)
        return cross_entropy(logits, labels)

    return loss, data, params


def router_model(key):
    """A mixture-of-experts layer with dense dispatch, as small JAX MoE
    codes write it: softmax router, jax.lax.top_k (chlo.top_k) of 2 of 8
    experts, gates by one_hot of the picks, every expert's output weighted
    by its gate."""
    k = jax.random.split(key, 2)
    router = init(k[0], (32, 8))
    experts = init(k[1], (8, 32, 32), scale=0.2)

    def f(x):
        probs = jax.nn.softmax(x @ router, axis=-1)
        values, picks = jax.lax.top_k(probs, 2)
        values = values / jnp.sum(values, axis=-1, keepdims=True)
        gates = jnp.sum(jax.nn.one_hot(picks, 8) * values[..., None], axis=-2)
        out = jnp.einsum("btd,edf->btef", x, experts)
        return jnp.einsum("bte,btef->btf", gates, out)

    return f, np.random.default_rng(9).standard_normal((2, 16, 32)).astype(
        np.float32)


def conv_variants_model(key):
    """Convolutions in the forms JAX writes beyond a ViT's patches, their
    results flattened into one vector: NHWC/HWIO with SAME padding and
    stride 2, NCHW/OIHW with kernel dilation 2 and two feature groups, a
    1-D NWC/WIO convolution (an audio front-end's), a depthwise 3x3."""
    k = jax.random.split(key, 4)
    w_same = init(k[0], (3, 3, 4, 6), scale=0.3)
    w_groups = init(k[1], (6, 2, 3, 3), scale=0.3)
    w_1d = init(k[2], (3, 4, 5), scale=0.3)
    w_depth = init(k[3], (3, 3, 1, 4), scale=0.3)

    def f(x):
        a = jax.lax.conv_general_dilated(
            x, w_same, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        nchw = x.transpose(0, 3, 1, 2)
        b = jax.lax.conv_general_dilated(
            nchw, w_groups, (1, 1), [(1, 2), (2, 1)], rhs_dilation=(2, 2),
            feature_group_count=2, dimension_numbers=("NCHW", "OIHW", "NCHW"))
        c = jax.lax.conv_general_dilated(
            x[:, 0], w_1d, (1,), [(1, 1)], dimension_numbers=("NWC", "WIO", "NWC"))
        d = jax.lax.conv_general_dilated(
            x, w_depth, (1, 1), "SAME", feature_group_count=4,
            dimension_numbers=("NHWC", "HWIO", "NHWC"))
        return jnp.concatenate([a.ravel(), b.ravel(), c.ravel(), d.ravel()])

    return f, np.random.default_rng(10).standard_normal((2, 9, 9, 4)).astype(
        np.float32)


def rnn_scan_model(key):
    """A recurrence by jax.lax.scan that returns its stacked outputs (the
    while loop's body writes step t's by dynamic_update_slice)."""
    k = jax.random.split(key, 2)
    w = init(k[0], (32, 32), scale=0.3)
    u = init(k[1], (32, 32), scale=0.3)

    def f(xs):
        def step(h, x):
            h = jnp.tanh(h @ w + x @ u)
            return h, h * 2.0
        h, ys = jax.lax.scan(step, jnp.zeros((xs.shape[1], 32)), xs)
        return ys + h

    return f, np.random.default_rng(11).standard_normal((5, 2, 32)).astype(
        np.float32)


def control_model(key):
    """Branches and index arithmetic as JAX writes them: jax.lax.cond on a
    data-dependent predicate (a stablehlo.case of two branches),
    jax.lax.switch (a case of three, its index clamped, a remainder),
    jnp.argmax and jnp.argmin (reduces of values and an iota)."""
    w = init(key, (16, 16), scale=0.3)

    def f(x):
        h = x @ w
        z = jax.lax.cond(h.sum() > 0, lambda a: a * 2.0 + 1.0,
                         lambda a: jnp.tanh(a) - 1.0, h)
        i = jnp.argmax(h[0]).astype(jnp.int32) % 3
        z = jax.lax.switch(i, [lambda a: a + 1.0, lambda a: a * 3.0,
                               lambda a: -a], z)
        return jnp.concatenate([
            z.ravel(), jnp.argmax(z, axis=1).astype(jnp.float32),
            jnp.argmin(z, axis=0).astype(jnp.float32), jnp.max(z, axis=1)])

    return f, np.random.default_rng(12).standard_normal((4, 16)).astype(
        np.float32)


def control_loss_model(key):
    """A loss through data-dependent branches, its parameters as arguments:
    jax.lax.cond on the activations' mean, jax.lax.switch on an argmax
    (clipped); the gradient reaches the parameters through the branch each
    selects."""
    k = jax.random.split(key, 2)
    params = {"w": init(k[0], (16, 16), scale=0.3),
              "v": init(k[1], (16, 4), scale=0.3)}

    def f(p, x):
        h = jnp.tanh(x @ p["w"])
        z = jax.lax.cond(h.mean() > 0, lambda a: a @ p["v"],
                         lambda a: jnp.sin(a) @ p["v"] * 0.5, h)
        i = jnp.clip(jnp.argmax(z.sum(0)).astype(jnp.int32), 0, 2)
        z = jax.lax.switch(i, [lambda a: a * 2.0, lambda a: jnp.exp(-a * a),
                               lambda a: a - 1.0], z)
        return jnp.mean(z ** 2)

    return f, np.random.default_rng(13).standard_normal((8, 16)).astype(
        np.float32), params


def remainder_model(key):
    """Integer remainders of both signs: jnp's % (stablehlo.remainder, the
    dividend's sign, then corrected to the divisor's) and lax.rem."""

    def f(x):
        i = x.astype(jnp.int32)
        return jnp.concatenate([(i % 3).astype(jnp.float32),
                                jax.lax.rem(i, 3).astype(jnp.float32),
                                jax.lax.rem(i, -4).astype(jnp.float32)])

    return f, np.array([-7, -3, -1, 0, 2, 5, 8], np.float32)


def scatter_add_model(key):
    """x.at[i].add(v) along the first and the last dim, with a repeated, a
    negative and an out-of-range index (JAX normalizes the negative one
    and the scatter drops the out-of-range update): stablehlo.scatter
    adding rows along one dim. Second result: jax.lax.scatter_add with
    batching dims (take_along_axis's transpose) along a middle dim, the
    indices' batching dims in another order than the operand's, a repeated
    and two out-of-range indices."""
    x = init(key, (6, 5), scale=1.0)
    idx = jnp.array([1, 4, 1, -2, 9], dtype=jnp.int32)
    rows = jnp.arange(25, dtype=jnp.float32).reshape(5, 5) / 10.0
    # operand [2, 3, 4]: dim 1 scattered, dims 0 and 2 batching dims paired
    # with the indices' dims 1 and 0; indices [4, 2, 2, 1] (two picks each).
    picks = jnp.array([[[[2], [0]], [[0], [2]]], [[[1], [7]], [[1], [1]]],
                       [[[0], [2]], [[2], [-1]]], [[[2], [2]], [[2], [2]]]],
                      dtype=jnp.int32)
    numbers = jax.lax.ScatterDimensionNumbers(
        update_window_dims=(), inserted_window_dims=(1,),
        scatter_dims_to_operand_dims=(1,), operand_batching_dims=(0, 2),
        scatter_indices_batching_dims=(1, 0))

    def f(x):
        updates = jnp.arange(16, dtype=jnp.float32).reshape(4, 2, 2) + x[0, 0]
        batched = jax.lax.scatter_add(
            jnp.ones((2, 3, 4)) * x[1, 1], picks, updates, numbers,
            mode=jax.lax.GatherScatterMode.FILL_OR_DROP)
        return (jnp.stack([x.at[idx].add(rows * x[0]),
                           x.T.at[:, idx].add(rows.T).T]), batched)

    return f, x


def pad_model(key):
    """jax.lax.pad with edge padding of both signs and interior padding,
    its padding value computed (stablehlo.pad), and a strided slice's
    transpose as jax.grad writes it (interior padding)."""
    x = init(key, (4, 5), scale=1.0)

    def f(x):
        padded = jax.lax.pad(x, jnp.max(x), [(1, -1, 0), (-1, 2, 1)])
        strided = jax.grad(lambda y: jnp.sum(y[:, ::2] ** 2))(x)
        return padded.sum(axis=1)[:4, None] * strided + padded[:4, :5]

    return f, x


def scatter_loss_model(key):
    """A loss through x.at[i].add(v) with its parameters as arguments (a
    table and the rows' projection), so that paracc's own autodiff takes
    the scatter's gradient: the rows' is a gather of the result's, the
    table's the result's itself."""
    k = jax.random.split(key, 2)
    params = {"table": init(k[0], (8, 4), scale=1.0),
              "w": init(k[1], (4, 4), scale=1.0)}
    rng = np.random.default_rng(6)
    ids = np.array([[1, 5, 1], [7, 0, 5]], dtype=np.int32)
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)

    def loss(params, ids, x):
        t = params["table"].at[ids].add(jnp.tanh(x @ params["w"]))
        return jnp.mean(jnp.sin(t) * t)

    return loss, (ids, x), params


def value_and_grad_model(make):
    """A loss model's value and gradients as one JAX program
    (jax.jit(jax.value_and_grad(loss)).lower(params, tokens, labels)): what
    JAX computes for a training step, its backward included, with the
    scatters that transpose the embedding lookup (gather_grad) and the
    labels' take_along_axis."""
    def model(key):
        loss, inputs, params = make(key)
        return jax.value_and_grad(loss), inputs, params
    return model


MODELS = {"mlp": mlp_model, "gpt_block": block_model, "gpt": gpt_model,
          "mlp_params": mlp_params_model, "gpt_loss": gpt_loss_model,
          "llama_loss": llama_loss_model, "mlp_exact_loss": mlp_exact_loss_model,
          "vit_loss": vit_loss_model, "gpt_scan_loss": gpt_scan_loss_model,
          "gpt_bf16_loss": gpt_bf16_loss_model, "router": router_model,
          "conv_variants": conv_variants_model, "rnn_scan": rnn_scan_model,
          "control": control_model, "control_loss": control_loss_model,
          "remainder": remainder_model, "scatter_add": scatter_add_model,
          "pad": pad_model, "scatter_loss": scatter_loss_model,
          "gpt_loss_grad": value_and_grad_model(gpt_loss_model),
          "llama_loss_grad": value_and_grad_model(llama_loss_model),
          "llama_bf16_loss": lambda key: llama_loss_model(key, jnp.bfloat16),
          "vit_bf16_loss": lambda key: vit_loss_model(key, jnp.bfloat16)}


def main(out, names):
    os.makedirs(out, exist_ok=True)
    for name in names or MODELS:
        made = MODELS[name](jax.random.PRNGKey(0))
        f, x = made[0], made[1]
        # One input, or a tuple of them (a loss's tokens and labels).
        inputs = tuple(x) if isinstance(x, tuple) else (x,)
        args = inputs
        if len(made) == 3:
            # Parameters as arguments: their leaves, in order, in an .npz.
            params = made[2]
            args = (params,) + inputs
            leaves = [np.asarray(a) for a in jax.tree_util.tree_leaves(params)]
            np.savez(os.path.join(out, name + ".npz"), *leaves)
        lowered = jax.jit(f).lower(*args)
        module = lowered.compiler_ir("stablehlo")
        with open(os.path.join(out, name + ".mlir"), "w") as fp:
            fp.write(module.operation.get_asm(large_elements_limit=None,
                                              enable_debug_info=False))
        with open(os.path.join(out, name + ".generic.mlir"), "w") as fp:
            fp.write(module.operation.get_asm(large_elements_limit=None,
                                              print_generic_op_form=True))
        # The results in the order of main's results (a program of several
        # results, value_and_grad's: output_K.pb each).
        results = [np.asarray(r)
                   for r in jax.tree_util.tree_leaves(jax.jit(f)(*args))]
        y = results[0]
        data = os.path.join(out, name, "test_data_set_0")
        os.makedirs(data, exist_ok=True)
        for i, a in enumerate(inputs):
            with open(os.path.join(data, "input_%d.pb" % i), "wb") as fp:
                fp.write(numpy_helper.from_array(
                    np.asarray(a), "input_%d" % i).SerializeToString())
        for i, r in enumerate(results):
            with open(os.path.join(data, "output_%d.pb" % i), "wb") as fp:
                fp.write(numpy_helper.from_array(
                    r, "output_%d" % i).SerializeToString())
        if len(made) == 3 and len(results) == 1 and y.shape == ():
            # A loss: its gradients, keyed like the parameters in NAME.npz.
            value, grads = jax.jit(jax.value_and_grad(f))(*args)
            leaves = [np.asarray(g)
                      for g in jax.tree_util.tree_leaves(grads)]
            np.savez(os.path.join(out, name, "grads.npz"),
                     *leaves, loss=np.asarray(value))
        print(name, [np.shape(a) for a in inputs], "->",
              [r.shape for r in results])


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
