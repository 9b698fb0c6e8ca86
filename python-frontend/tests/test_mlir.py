"""A graph-dialect MLIR model (examples/embedding/mlp.mlir): one rank and
tp2 agree, as files and as text."""

import numpy as np
import pytest

import paracc


def compile_mlp(path, mesh, seed=7):
    # The MLIR model declares its weights without data: seeded random ones.
    return paracc.compile(path, mesh=mesh, seed=seed, random_weights=True,
                          device="cpu")


@pytest.fixture(scope="module")
def x():
    return np.random.default_rng(1234).standard_normal((2, 16, 64),
                                                       dtype=np.float32)


def test_one_rank_and_tp2_agree(mlp_mlir, x):
    with compile_mlp(mlp_mlir, "1") as one, compile_mlp(mlp_mlir, "tp2") as tp:
        assert one.num_ranks == 1 and tp.num_ranks == 2
        assert one.inputs == [(one.inputs[0][0], np.dtype(np.float32),
                               (2, 16, 64))]
        a = one.run(x)
        b = tp.run(x)
        assert list(a) == list(b) and len(a) == 1
        (name,) = a
        assert a[name].shape == (2, 16, 64)
        np.testing.assert_allclose(a[name], b[name], rtol=0, atol=1e-5)
        assert np.abs(a[name]).max() > 1e-3  # not trivially zero
        # The weights (state) gathered from the ranks are the same too.
        s1, s2 = one.session(), tp.session()
        assert [n for n, _, _ in s1.state] == [
            "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
        for n, dtype, shape in s1.state:
            w = s1.read_state(n)
            assert w.shape == shape and w.dtype == dtype
            np.testing.assert_array_equal(w, s2.read_state(n))


def test_another_seed_gives_other_weights(mlp_mlir, x):
    with compile_mlp(mlp_mlir, "tp2") as a, \
            compile_mlp(mlp_mlir, "tp2", seed=8) as b:
        ya, yb = a.run(x), b.run(x)
        (name,) = ya
        assert np.abs(ya[name] - yb[name]).max() > 1e-3


def test_mlir_text_as_bytes(mlp_mlir, x):
    with compile_mlp(mlp_mlir, "tp2") as from_file, \
            paracc.compile(mlp_mlir.read_bytes(), format="mlir", mesh="tp2",
                           seed=7, random_weights=True, device="cpu") as text:
        (name,) = from_file.run(x)
        np.testing.assert_array_equal(from_file.run(x)[name], text.run(x)[name])


def test_mlir_errors_are_located(tmp_path):
    bad = tmp_path / "broken.mlir"
    bad.write_text("func.func @main() {\n  %0 = graph.frobnicate\n}\n")
    with pytest.raises(paracc.ParaccError) as e:
        paracc.compile(bad)
    assert "broken.mlir:2:" in str(e.value)
