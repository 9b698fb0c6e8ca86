"""JAX programs lowered to StableHLO, with JAX's outputs, for paracc's
StableHLO importer tests (test/Importer/StableHLO, test/e2e/stablehlo.test).

    python jax_models.py OUT_DIR

writes, per model, OUT_DIR/NAME.mlir (what `jax.jit(f).lower(x).as_text()`
prints: the pretty form, parameters closed over as dense constants),
OUT_DIR/NAME.generic.mlir (the same module in MLIR's generic form) and
OUT_DIR/NAME/test_data_set_0/{input_0.pb, output_0.pb} (the input and JAX's
output on its CPU backend, as ONNX TensorProtos); a model whose parameters
are arguments also gets OUT_DIR/NAME.npz (their values, in argument order,
for paracc's --params). Needs jax, numpy and onnx.
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


def block(p, x, heads):
    b, s, h = x.shape
    d = h // heads
    y = layer_norm(x, p["ln1_g"], p["ln1_b"])
    qkv = y @ p["qkv"] + p["qkv_b"]
    q, k, v = jnp.split(qkv, 3, axis=-1)
    q = q.reshape(b, s, heads, d).transpose(0, 2, 1, 3)
    k = k.reshape(b, s, heads, d).transpose(0, 2, 1, 3)
    v = v.reshape(b, s, heads, d).transpose(0, 2, 1, 3)
    scores = jnp.einsum("bhqd,bhkd->bhqk", q, k) / jnp.sqrt(jnp.float32(d))
    causal = jnp.arange(s)[:, None] >= jnp.arange(s)[None, :]
    scores = jnp.where(causal, scores, jnp.float32(-1e9))
    att = jax.nn.softmax(scores, axis=-1)
    o = jnp.einsum("bhqk,bhkd->bhqd", att, v).transpose(0, 2, 1, 3).reshape(b, s, h)
    x = x + o @ p["proj"] + p["proj_b"]
    y = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu(y @ p["fc"] + p["fc_b"]) @ p["out"] + p["out_b"]


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


MODELS = {"mlp": mlp_model, "gpt_block": block_model, "gpt": gpt_model,
          "mlp_params": mlp_params_model}


def main(out):
    os.makedirs(out, exist_ok=True)
    for name, make in MODELS.items():
        made = make(jax.random.PRNGKey(0))
        f, x = made[0], made[1]
        args = (x,)
        if len(made) == 3:
            # Parameters as arguments: their leaves, in order, in an .npz.
            params = made[2]
            args = (params, x)
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
        y = np.asarray(jax.jit(f)(*args))
        data = os.path.join(out, name, "test_data_set_0")
        os.makedirs(data, exist_ok=True)
        with open(os.path.join(data, "input_0.pb"), "wb") as fp:
            fp.write(numpy_helper.from_array(np.asarray(x), "input_0").SerializeToString())
        with open(os.path.join(data, "output_0.pb"), "wb") as fp:
            fp.write(numpy_helper.from_array(y, "output_0").SerializeToString())
        print(name, x.shape, "->", y.shape)


if __name__ == "__main__":
    main(sys.argv[1])
