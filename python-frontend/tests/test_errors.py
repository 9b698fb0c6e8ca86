"""Errors carry the C API's code and message."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import paracc


def test_wrong_input_name(gpt2_mesh, gpt2_input):
    with pytest.raises(paracc.ParaccError) as e:
        gpt2_mesh.run({"input_idz": gpt2_input})
    assert "input_idz" in str(e.value)
    assert "input_ids" in str(e.value)  # the inputs it has
    assert e.value.code == 2


def test_wrong_input_dtype_is_not_converted(gpt2_mesh, gpt2_input):
    with pytest.raises(paracc.ParaccError) as e:
        gpt2_mesh.run({"input_ids": gpt2_input.astype(np.int32)})
    message = str(e.value)
    assert "'input_ids'" in message and "i32" in message and "i64" in message


def test_wrong_input_shape(gpt2_mesh, gpt2_input):
    with pytest.raises(paracc.ParaccError) as e:
        gpt2_mesh.run({"input_ids": gpt2_input[:2]})
    assert "'input_ids'" in str(e.value) and "[2,16]" in str(e.value)


def test_too_many_inputs(gpt2_mesh, gpt2_input):
    with pytest.raises(paracc.ParaccError, match="input 1"):
        gpt2_mesh.run([gpt2_input, gpt2_input])


def test_a_dtype_paracc_has_no_type_for(gpt2_mesh, gpt2_input):
    with pytest.raises(paracc.ParaccInvalidArgument) as e:
        gpt2_mesh.run({"input_ids": gpt2_input.astype(np.complex64)})
    assert "'input_ids'" in str(e.value) and e.value.code == 4


def test_unsupported_op():
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    node = helper.make_node("Frobnicate", ["x"], ["y"], name="frob")
    graph = helper.make_graph(
        [node], "frobnicate",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 17)])
    with pytest.raises(paracc.ParaccUnsupported) as e:
        paracc.compile(model)
    assert e.value.code == 3
    assert "Frobnicate" in str(e.value)
    assert isinstance(e.value, paracc.ParaccError)
    # The same through bytes.
    with pytest.raises(paracc.ParaccUnsupported):
        paracc.compile(model.SerializeToString())


def test_bad_option_is_an_invalid_argument(gpt2_model):
    with pytest.raises(paracc.ParaccInvalidArgument) as e:
        paracc.compile(gpt2_model, microbatches="2x")
    assert e.value.code == 4
    assert "microbatches" in str(e.value)


def test_bad_mesh(gpt2_model):
    with pytest.raises(paracc.ParaccError, match="mesh axis 'xp'"):
        paracc.compile(gpt2_model, mesh="xp2")


def test_missing_file(tmp_path):
    missing = tmp_path / "missing.onnx"
    with pytest.raises(paracc.ParaccError, match="cannot read"):
        paracc.compile(missing)
    with pytest.raises(paracc.ParaccError):
        paracc.load(tmp_path / "missing.pcx")


def test_not_an_executable():
    with pytest.raises(paracc.ParaccError, match="not a paracc executable"):
        paracc.load(b"garbage")


def test_unknown_model_type():
    with pytest.raises(TypeError):
        paracc.compile(42)


def test_unknown_device(gpt2_mesh):
    with pytest.raises(paracc.ParaccError, match="device"):
        gpt2_mesh.session("tpu")


def test_errors_pickle():
    import pickle

    e = pickle.loads(pickle.dumps(paracc.ParaccUnsupported("paracc: x", 3)))
    assert type(e) is paracc.ParaccUnsupported
    assert e.code == 3 and str(e) == "paracc: x"


def run_python(code: str, **env_changes) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    for key, value in env_changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                          env=env, capture_output=True, text=True, errors="replace",
                          timeout=120, cwd=Path(__file__).parent)


def test_library_not_found_names_paracc_library(tmp_path):
    result = run_python("""
        import paracc                        # importing never needs it
        try:
            paracc.version()
        except paracc.ParaccImportError as e:
            assert isinstance(e, paracc.ParaccError)
            assert isinstance(e, ImportError)
            print(e)
        else:
            raise SystemExit("no error")
        """, PARACC_LIBRARY=str(tmp_path / "libparacc-c.so"))
    assert result.returncode == 0, result.stderr
    assert "PARACC_LIBRARY" in result.stdout
    assert str(tmp_path) in result.stdout


def test_paracc_library_is_used_first(repo):
    built = repo / "build" / "lib" / "libparacc-c.so"
    if not built.exists():
        pytest.skip("no build/lib/libparacc-c.so")
    result = run_python("import paracc; print(paracc.library_path())",
                        PARACC_LIBRARY=str(built))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(built)


def test_torch_module_without_torch(monkeypatch):
    # A stand-in for a torch.nn.Module, with torch made unimportable.
    Module = type("Module", (), {"__module__": "torch.nn.modules.module"})
    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(paracc.ParaccImportError) as e:
        paracc.compile(Module(), example_inputs=(np.zeros(2),))
    assert "paracc.compile of a torch module needs torch (pip install torch)" \
        in str(e.value)
    assert isinstance(e.value, ImportError)
