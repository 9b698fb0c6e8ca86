"""GPT-2 (examples/gpt2) through the Python API against onnxruntime's
logits, from every kind of model source, and saved/loaded executables."""

import numpy as np
import pytest

import paracc

ATOL = 1e-4


def logits(model, ids, **kwargs):
    out = model.run({"input_ids": ids}, **kwargs)
    assert list(out) == ["logits"]
    return out["logits"]


def test_one_rank_matches_onnxruntime(gpt2_model, gpt2_input, gpt2_expected):
    with paracc.compile(gpt2_model, device="cpu") as m:
        assert m.num_ranks == 1
        assert not m.is_training
        assert m.inputs == [("input_ids", np.dtype(np.int64), (4, 16))]
        assert m.outputs == [("logits", np.dtype(np.float32), (4, 16, 128))]
        got = logits(m, gpt2_input)
        assert got.dtype == np.float32 and got.shape == gpt2_expected.shape
        np.testing.assert_allclose(got, gpt2_expected, rtol=0, atol=ATOL)


def test_dp2_tp2_matches_onnxruntime(gpt2_mesh, gpt2_input, gpt2_expected):
    assert gpt2_mesh.num_ranks == 4
    assert "4 CPU rank" in gpt2_mesh.session().device
    np.testing.assert_allclose(logits(gpt2_mesh, gpt2_input), gpt2_expected,
                               rtol=0, atol=ATOL)


def test_mesh_auto_matches_onnxruntime(gpt2_model, gpt2_input, gpt2_expected):
    # The planner chooses the plan of 4 CPU ranks.
    with paracc.compile(gpt2_model, mesh="auto", cluster="1x4:cpu",
                        device="cpu") as m:
        assert m.num_ranks == 4
        np.testing.assert_allclose(logits(m, gpt2_input), gpt2_expected,
                                   rtol=0, atol=ATOL)


@pytest.mark.parametrize("layout,attention", [("zigzag", "allgather"),
                                               ("contiguous", "allgather"),
                                               ("contiguous", "alltoall"),
                                               ("zigzag", "ring")])
def test_context_parallel_matches_onnxruntime(gpt2_model, gpt2_input,
                                              gpt2_expected, layout,
                                              attention):
    # The sequence of 16 split over cp2 (with dp2: 4 ranks).
    with paracc.compile(gpt2_model, mesh="dp2,cp2", cp_layout=layout,
                        cp_attention=attention, device="cpu") as m:
        assert m.num_ranks == 4
        np.testing.assert_allclose(logits(m, gpt2_input), gpt2_expected,
                                   rtol=0, atol=ATOL)


def test_context_parallel_errors_name_the_keyword(gpt2_model):
    with pytest.raises(paracc.ParaccInvalidArgument, match="cp_layout"):
        paracc.compile(gpt2_model, mesh="cp2", cp_layout="diagonal",
                       device="cpu")


def test_inputs_by_position_or_single_array(gpt2_mesh, gpt2_input):
    by_name = logits(gpt2_mesh, gpt2_input)
    for inputs in ([gpt2_input], (gpt2_input,), gpt2_input,
                   np.asfortranarray(gpt2_input),      # copied to C order
                   gpt2_input.astype(">i8"),           # byte-swapped, same type
                   [gpt2_input.tolist()]):             # a nested list: int64
        out = gpt2_mesh.run(inputs)
        np.testing.assert_array_equal(out["logits"], by_name)
    # The model's default device and an explicit one reuse their sessions.
    assert gpt2_mesh.session() is gpt2_mesh.session("cpu")
    np.testing.assert_array_equal(gpt2_mesh(gpt2_input)["logits"], by_name)


def test_c_contiguous_inputs_are_passed_without_a_copy(gpt2_input):
    from paracc._model import _as_input

    code, a = _as_input(gpt2_input, "input 'input_ids'")
    assert a is gpt2_input and code == 7  # PARACC_DTYPE_I64
    strided = np.zeros((4, 32), np.int64)[:, ::2]
    code, b = _as_input(strided, "input 'x'")
    assert b is not strided and b.flags.c_contiguous and b.dtype == np.int64
    # The dtype is never changed, even when it is not the model's.
    code, c = _as_input(gpt2_input.astype(np.int32), "input 'x'")
    assert c.dtype == np.int32 and code == 6


def test_model_proto(gpt2_model, gpt2_input, gpt2_expected):
    onnx = pytest.importorskip("onnx")
    proto = onnx.load(str(gpt2_model), load_external_data=True)
    with paracc.compile(proto, mesh="dp2,tp2", device="cpu") as m:
        np.testing.assert_allclose(logits(m, gpt2_input), gpt2_expected,
                                   rtol=0, atol=ATOL)


def test_interleaved_pipeline(gpt2_model, gpt2_input, gpt2_expected):
    # Two ranks of two model chunks each (virtual stages 0 and 2 on rank 0).
    with paracc.compile(gpt2_model, mesh="pp2", microbatches=2,
                        schedule="interleaved", virtual_stages=2,
                        device="cpu") as m:
        np.testing.assert_allclose(logits(m, gpt2_input), gpt2_expected,
                                   rtol=0, atol=ATOL)
        pipeline = m.explain()["pipeline"]
        assert pipeline["schedule"] == "interleaved"
        assert pipeline["virtual_stages"] == 2
        assert [s["rank"] for s in pipeline["stages"]] == [0, 1, 0, 1]


def test_bytes_with_external_data(gpt2_model, gpt2_dir, gpt2_input,
                                  gpt2_expected):
    data = gpt2_model.read_bytes()
    with paracc.compile(data, data_dir=gpt2_dir, device="cpu") as m:
        np.testing.assert_allclose(logits(m, gpt2_input), gpt2_expected,
                                   rtol=0, atol=ATOL)
    # Without the folder of its external data the weights cannot be read.
    with pytest.raises(paracc.ParaccError) as e:
        paracc.compile(data)
    assert "external data" in str(e.value)
    assert e.value.code == 2


def test_explain_has_the_mesh(gpt2_mesh):
    report = gpt2_mesh.explain()
    assert report["num_ranks"] == 4
    assert {a["name"]: a["size"] for a in report["axes"]} == {"dp": 2, "tp": 2}
    assert report["parameter_bytes_per_rank"] > 0
    assert any(d["role"] == "column" for d in report["decisions"])
    text = gpt2_mesh.explain_text()
    assert "dp=2, tp=2" in text


def test_save_and_load_give_the_same_outputs(gpt2_mesh, gpt2_input, tmp_path):
    want = logits(gpt2_mesh, gpt2_input)
    path = tmp_path / "gpt2.pcx"
    gpt2_mesh.save(path)
    assert path.read_bytes() == gpt2_mesh.to_bytes()
    for source in (path, str(path), path.read_bytes()):
        with paracc.load(source, device="cpu") as loaded:
            assert loaded.num_ranks == 4
            assert loaded.inputs == gpt2_mesh.inputs
            assert loaded.outputs == gpt2_mesh.outputs
            assert loaded.explain() == {} and loaded.explain_text() == ""
            np.testing.assert_array_equal(logits(loaded, gpt2_input), want)


def test_weights_are_referenced_unless_embedded(gpt2_model, gpt2_dir,
                                                gpt2_input, tmp_path):
    data = (gpt2_dir / "model.onnx.data").stat().st_size
    with paracc.compile(gpt2_model, device="cpu") as referencing, \
            paracc.compile(gpt2_model, device="cpu",
                           embed_weights=True) as embedding:
        assert len(referencing.to_bytes()) < data // 4
        assert len(embedding.to_bytes()) > data
        want = logits(embedding, gpt2_input)
        np.testing.assert_array_equal(logits(referencing, gpt2_input), want)
        # The saved executable finds the weights where the model keeps them.
        path = tmp_path / "gpt2.pcx"
        referencing.save(path)
        with paracc.load(path, device="cpu") as loaded:
            np.testing.assert_array_equal(logits(loaded, gpt2_input), want)


def test_inputs_not_given_are_generated(gpt2_mesh):
    a = gpt2_mesh.run()["logits"]
    b = gpt2_mesh.run({})["logits"]
    np.testing.assert_array_equal(a, b)
    assert np.isfinite(a).all()


def test_bf16_precision_keeps_f32_interface(gpt2_model, gpt2_input,
                                            gpt2_expected):
    with paracc.compile(gpt2_model, mesh="tp2", precision="bf16",
                        device="cpu") as m:
        assert m.outputs[0][1] == np.float32
        got = logits(m, gpt2_input)
    # bf16 compute: close to the f32 reference, not equal.
    assert np.abs(got - gpt2_expected).max() < 0.25


def test_closed_model(gpt2_model, gpt2_input):
    m = paracc.compile(gpt2_model, device="cpu")
    session = m.session()
    m.close()
    m.close()  # idempotent
    assert "closed" in repr(m)
    with pytest.raises(paracc.ParaccError, match="closed"):
        m.run(gpt2_input)
    assert session.handle is None  # close() also closes its sessions


def test_a_session_outlives_a_collected_model(gpt2_model, gpt2_input,
                                              gpt2_expected):
    session = paracc.compile(gpt2_model, device="cpu").session()
    # The Model is gone; the C session holds the executable.
    np.testing.assert_allclose(session.run({"input_ids": gpt2_input})["logits"],
                               gpt2_expected, rtol=0, atol=ATOL)
    session.close()


def test_version():
    assert paracc.api_version() == 1
    assert paracc.version().startswith("paracc ")


def test_load_tensor_reads_test_data(gpt2_dir, gpt2_input):
    got = paracc.load_tensor(gpt2_dir / "test_data_set_0" / "input_0.pb")
    np.testing.assert_array_equal(got, gpt2_input)
    assert got.dtype == np.int64
