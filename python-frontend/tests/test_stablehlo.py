"""StableHLO as JAX prints it (test/Importer/StableHLO/Inputs/jax, made by
scripts/stablehlo/jax_models.py): a 2-layer GPT compiled from the file and
from its text, at one rank and dp2,tp2, against JAX's own output."""

import numpy as np
import pytest

import paracc


@pytest.fixture(scope="module")
def jax_gpt(repo):
    base = repo / "test" / "Importer" / "StableHLO" / "Inputs" / "jax"
    data = base / "gpt" / "test_data_set_0"
    return (base / "gpt.mlir", paracc.load_tensor(data / "input_0.pb"),
            paracc.load_tensor(data / "output_0.pb"))


@pytest.mark.parametrize("mesh", ["1", "dp2,tp2"])
def test_jax_gpt_matches_jax(jax_gpt, mesh):
    path, ids, expected = jax_gpt
    with paracc.compile(path, mesh=mesh, device="cpu") as model:
        assert model.inputs[0][2] == ids.shape
        (logits,) = model.run(ids).values()
    np.testing.assert_allclose(logits, expected, rtol=0, atol=1e-5)


def test_jax_gpt_from_text(jax_gpt):
    path, ids, expected = jax_gpt
    with paracc.compile(path.read_text().encode(), format="mlir",
                        mesh="tp2", device="cpu") as model:
        (logits,) = model.run(ids).values()
    np.testing.assert_allclose(logits, expected, rtol=0, atol=1e-5)


def test_unsupported_stablehlo_op():
    text = (b"func.func public @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
            b"  %0 = stablehlo.fft %a : tensor<4xf32>\n"
            b"  return %0 : tensor<4xf32>\n}\n")
    with pytest.raises(paracc.ParaccUnsupported,
                       match=r"fft.mlir:2:\d+: error: unsupported op "
                             r"'stablehlo.fft'"):
        paracc.compile(text, format="mlir", name="fft.mlir")
