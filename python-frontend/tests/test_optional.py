"""What needs an optional package: torch, matplotlib, ml_dtypes; and the
memory figures plot_memory draws."""

import sys
import warnings

import numpy as np
import pytest

import paracc
from paracc import _capi
from paracc._plot import memory_per_rank


def test_torch_module():
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    module = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(),
                                 torch.nn.Linear(32, 8)).eval()
    x = torch.randn(4, 16)
    with torch.no_grad():
        want = module(x).numpy()
    with paracc.compile(module, example_inputs=(x,), device="cpu") as m:
        (out,) = m.run([x.numpy()]).values()
    np.testing.assert_allclose(out, want, rtol=0, atol=1e-5)


def test_torch_module_on_a_mesh_with_named_inputs():
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    module = torch.nn.Sequential(torch.nn.Linear(16, 64), torch.nn.ReLU(),
                                 torch.nn.Linear(64, 16)).eval()
    x = torch.randn(2, 8, 16)
    with torch.no_grad():
        want = module(x).numpy()
    with paracc.compile(module, mesh="tp2", example_inputs={"x": x},
                        device="cpu") as m:
        assert m.inputs[0][0] == "x"
        (out,) = m.run({"x": x.numpy()}).values()
    np.testing.assert_allclose(out, want, rtol=0, atol=1e-5)


def test_torch_module_with_the_dynamo_exporter():
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnxscript")  # what torch's dynamo exporter needs
    torch.manual_seed(0)
    module = torch.nn.Sequential(torch.nn.Linear(16, 64), torch.nn.GELU(),
                                 torch.nn.Linear(64, 16)).eval()
    x = torch.randn(2, 8, 16)
    with torch.no_grad():
        want = module(x).numpy()
    with paracc.compile(module, mesh="tp2", example_inputs=(x,), device="cpu",
                        torch_export_options={"dynamo": True}) as m:
        (out,) = m.run([x.numpy()]).values()
    np.testing.assert_allclose(out, want, rtol=0, atol=1e-5)


def test_torch_module_default_exporter_is_dynamo():
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnxscript")
    torch.manual_seed(0)
    module = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Tanh()).eval()
    x = torch.randn(2, 8)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no fallback warning
        with paracc.compile(module, example_inputs=(x,), device="cpu") as m:
            (out,) = m.run([x.numpy()]).values()
    with torch.no_grad():
        np.testing.assert_allclose(out, module(x).numpy(), rtol=0, atol=1e-5)


def test_torch_module_falls_back_to_torchscript(monkeypatch):
    torch = pytest.importorskip("torch")
    # Without onnxscript the dynamo exporter cannot run: the TorchScript
    # exporter does, with a warning that says why.
    monkeypatch.setitem(sys.modules, "onnxscript", None)
    torch.manual_seed(0)
    module = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Tanh()).eval()
    x = torch.randn(2, 8)
    with pytest.warns(RuntimeWarning, match="onnxscript is not installed.*"
                      "TorchScript exporter"):
        with paracc.compile(module, example_inputs=(x,), device="cpu") as m:
            (out,) = m.run([x.numpy()]).values()
    with torch.no_grad():
        np.testing.assert_allclose(out, module(x).numpy(), rtol=0, atol=1e-5)


def test_transformers_gpt2():
    # A current transformers GPT-2 by torch's default exporter (dynamo),
    # under dp2,tp2. (The TorchScript exporter writes this model wrongly
    # with transformers 5: onnxruntime's logits differ from torch's by 0.24;
    # the fallback test uses a plain module.)
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    pytest.importorskip("onnxscript")
    torch.manual_seed(0)
    config = transformers.GPT2Config(vocab_size=64, n_positions=16, n_embd=32,
                                     n_layer=2, n_head=2, bos_token_id=0,
                                     eos_token_id=0)
    model = transformers.GPT2LMHeadModel(config).eval()

    class Logits(torch.nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, input_ids):
            return self.m(input_ids=input_ids).logits

    ids = torch.randint(0, 64, (2, 16))
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # dynamo, no fallback
        m = paracc.compile(Logits(model), mesh="dp2,tp2",
                           example_inputs=(ids,), device="cpu")
    with m:
        (out,) = m.run([ids.numpy()]).values()
    with torch.no_grad():
        want = Logits(model)(ids).numpy()
    np.testing.assert_allclose(out, want, rtol=0, atol=1e-4)


def test_plot_memory(gpt2_mesh):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    assert gpt2_mesh.plot_memory(ax=ax) is ax
    assert len(ax.patches) == 2 * 4  # two categories, four ranks
    assert "dp2 x tp2" in ax.get_title()
    plt.close(fig)


def test_memory_per_rank_of_an_inference_report(gpt2_mesh):
    report = gpt2_mesh.explain()
    labels, values, peak = memory_per_rank(report)
    assert labels == ["parameters", "activations (peak live)"]
    assert values[0] == [report["parameter_bytes_per_rank"]] * 4
    assert values[1] == [report["activation_peak_bytes_per_rank"]] * 4
    assert peak is None


def test_memory_per_rank_of_training_and_pipeline_reports():
    # The shapes of `paracc train --explain-json` reports.
    step = {"num_ranks": 2, "axes": [{"name": "dp", "size": 2,
                                      "groups": [[0, 1]]}],
            "memory": {"parameters": 10, "gradients": 10,
                       "optimizer_state": 20, "activations_saved": 5,
                       "workspace": 1, "communication": 2, "arena": 8,
                       "peak": None}}
    labels, values, peak = memory_per_rank(step)
    assert labels[:3] == ["parameters", "gradients", "optimizer state"]
    assert values[2] == [20, 20] and peak is None
    step["memory"]["peak"] = 60
    assert memory_per_rank(step)[2] == 60
    pipeline = dict(step, num_ranks=4, axes=[
        {"name": "pp", "size": 2, "groups": [[0, 2], [1, 3]]},
        {"name": "tp", "size": 2, "groups": [[0, 1], [2, 3]]}],
        pipeline={"stages": [{"param_bytes": 100, "memory_bytes": 300},
                             {"param_bytes": 50, "memory_bytes": 80}]})
    labels, values, _ = memory_per_rank(pipeline)
    assert values == [[100, 100, 50, 50], [200, 200, 30, 30]]
    with pytest.raises(paracc.ParaccError, match="no explain report"):
        memory_per_rank({})


def test_bfloat16_needs_ml_dtypes():
    try:
        import ml_dtypes
    except ImportError:
        with pytest.raises(paracc.ParaccUnsupported, match="ml_dtypes"):
            _capi.numpy_dtype(_capi.DTYPE_BF16)
        return
    assert _capi.numpy_dtype(_capi.DTYPE_BF16) == np.dtype(ml_dtypes.bfloat16)
    assert _capi.paracc_dtype(ml_dtypes.bfloat16) == _capi.DTYPE_BF16


def test_dtype_mapping_round_trips():
    for code in (1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13):
        assert _capi.paracc_dtype(_capi.numpy_dtype(code)) == code
    assert _capi.paracc_dtype(np.dtype(">f4")) == _capi.DTYPE_F32
    assert _capi.paracc_dtype(np.complex64) is None
    assert _capi.paracc_dtype(np.dtype("U3")) is None
