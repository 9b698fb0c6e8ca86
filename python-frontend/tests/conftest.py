"""Fixtures for paracc's Python tests: the repository (found from this
file's path, not the current directory) and the shipped GPT-2 example with
onnxruntime's reference logits."""

from pathlib import Path

import numpy as np
import pytest

try:
    # Before libparacc-c.so is loaded: it brings the system's libnccl.so.2,
    # and a torch imported after it would bind to that one (see README).
    import torch  # noqa: F401
except ImportError:
    pass

import paracc

REPO = Path(__file__).resolve().parents[2]


def pytest_report_header(config):
    try:
        where = paracc.library_path()
    except paracc.ParaccError as e:
        where = f"not loaded: {e}"
    return [f"paracc package: {Path(paracc.__file__).parent}",
            f"libparacc-c.so: {where}"]


def read_tensor(path: Path) -> np.ndarray:
    """An ONNX TensorProto file, read with onnx (the reference's own
    library) when installed, else with paracc's reader."""
    try:
        import onnx
        from onnx import numpy_helper
    except ImportError:
        return paracc.load_tensor(path)
    return numpy_helper.to_array(onnx.load_tensor(str(path)))


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def gpt2_dir(repo) -> Path:
    return repo / "examples" / "gpt2"


@pytest.fixture(scope="session")
def gpt2_model(gpt2_dir) -> Path:
    return gpt2_dir / "model.onnx"


@pytest.fixture(scope="session")
def gpt2_input(gpt2_dir) -> np.ndarray:
    return read_tensor(gpt2_dir / "test_data_set_0" / "input_0.pb")


@pytest.fixture(scope="session")
def gpt2_expected(gpt2_dir) -> np.ndarray:
    """onnxruntime's logits for input_0.pb."""
    return read_tensor(gpt2_dir / "test_data_set_0" / "output_0.pb")


@pytest.fixture(scope="session")
def gpt2_mesh(gpt2_model):
    """GPT-2 compiled for dp2,tp2 (4 CPU ranks), shared by the tests."""
    with paracc.compile(gpt2_model, mesh="dp2,tp2", device="cpu") as m:
        yield m


@pytest.fixture(scope="session")
def mlp_mlir(repo) -> Path:
    return repo / "examples" / "embedding" / "mlp.mlir"
