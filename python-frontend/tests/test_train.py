"""paracc.train against the shared PyTorch reference (../shared/models/
gpt2_tiny/train, next to the repository): every step's loss, gradient norm
and learning rate of reference.json's AdamW runs, on one rank and on
meshes, as test/e2e/train-gpt2-tiny.test checks `paracc train`; checkpoints
and resuming; the trained state; divergence and bad options."""

import json
import math
import os
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import paracc

REPO = Path(__file__).resolve().parents[2]
# As CMake's PARACC_SHARED_DIR: ../shared next to the repository.
SHARED = Path(os.environ.get("PARACC_SHARED_DIR", REPO.parent / "shared"))
GPT2_TINY = SHARED / "models" / "gpt2_tiny"
LOSS_MODEL = GPT2_TINY / "loss.onnx"
TOKENS = GPT2_TINY / "train" / "tokens.u16"
REFERENCE = GPT2_TINY / "train" / "reference.json"

pytestmark = pytest.mark.skipif(
    not (LOSS_MODEL.is_file() and TOKENS.is_file() and REFERENCE.is_file()),
    reason=f"the shared reference models are not at {SHARED / 'models'} "
           "(../shared/models next to the repository)")

# reference.json's settings (its README), exactly as train-gpt2-tiny.test
# passes them to paracc train.
COMMON = dict(batch=2, seq=64, betas=(0.9, 0.95), eps=1e-8, weight_decay=0.1,
              device="cpu")
RUNS = {
    # --steps 30 --lr 1e-3 --betas 0.9,0.95 --eps 1e-8 --weight-decay 0.1
    "adamw_const": dict(steps=30, lr=1e-3),
    # ... --lr 3e-3 --clip-grad-norm 1.0 --lr-schedule cosine --warmup 5
    #     --min-lr 3e-4
    "adamw_clip_cosine": dict(steps=30, lr=3e-3, clip_grad_norm=1.0,
                              lr_schedule="cosine", warmup=5, min_lr=3e-4),
}
# compare_training.py's tolerances (the README there says why they hold).
LOSS_RTOL, NORM_RTOL, LR_RTOL = 1e-4, 1e-3, 1e-6


@pytest.fixture(scope="module")
def reference():
    with open(REFERENCE) as f:
        return json.load(f)["runs"]


def train(**options):
    """paracc.train of loss.onnx on tokens.u16 with the reference's
    settings, updated by `options`."""
    kwargs = dict(COMMON)
    kwargs.update(options)
    return paracc.train(LOSS_MODEL, data=TOKENS, **kwargs)


def rel(a, b):
    return abs(a - b) / max(abs(b), 1e-30)


def check_against(records, expected, loss_rtol=LOSS_RTOL, norm_rtol=NORM_RTOL,
                  lr_rtol=LR_RTOL):
    """Every record's step, loss, grad_norm and lr against `expected`
    (reference.json steps or other records); the worst errors."""
    assert len(records) == len(expected)
    worst = {"loss": 0.0, "grad_norm": 0.0, "lr": 0.0}
    bad = []
    for r, e in zip(records, expected):
        e = e._asdict() if isinstance(e, paracc.StepRecord) else e
        assert r.step == e["step"]
        for key, tol in (("loss", loss_rtol), ("grad_norm", norm_rtol),
                         ("lr", lr_rtol)):
            value = getattr(r, key)
            assert math.isfinite(value), (r.step, key, value)
            err = rel(value, e[key])
            worst[key] = max(worst[key], err)
            if err > tol:
                bad.append(f"step {r.step}: {key} {value} vs {e[key]} "
                           f"(rel {err:.2e} > {tol})")
    assert not bad, "\n".join(bad[:10])
    return worst


# --- the PyTorch reference -------------------------------------------------------


@pytest.fixture(scope="module")
def one_rank_cosine():
    """The clip + warm-up/cosine run on one rank: its records and state."""
    with train(**RUNS["adamw_clip_cosine"]) as run:
        records = list(run)
        state = run.state_dict()
        assert run.finished
    return records, state


def test_clip_cosine_one_rank_matches_pytorch(one_rank_cosine, reference):
    records, _ = one_rank_cosine
    assert [r.step for r in records] == list(range(30))
    check_against(records, reference["adamw_clip_cosine"]["steps"])
    for r in records:
        assert r.tokens_per_s > 0 and r.ms > 0


@pytest.mark.parametrize("mesh", ["dp2", "tp2", "dp2,tp2"])
def test_clip_cosine_on_meshes_matches_pytorch_and_one_rank(
        mesh, one_rank_cosine, reference):
    with train(mesh=mesh, **RUNS["adamw_clip_cosine"]) as run:
        assert run.model.num_ranks == (4 if mesh == "dp2,tp2" else 2)
        records = list(run)
    check_against(records, reference["adamw_clip_cosine"]["steps"])
    # The same global batch: within 1e-5 of the one-rank run.
    check_against(records, one_rank_cosine[0], loss_rtol=1e-5, norm_rtol=1e-5)


def test_constant_lr_one_rank_matches_pytorch(reference):
    with train(**RUNS["adamw_const"]) as run:
        records = list(run)
    check_against(records, reference["adamw_const"]["steps"])


def test_dp2_trained_state_equals_one_rank(one_rank_cosine):
    _, state = one_rank_cosine
    with train(mesh="dp2", **RUNS["adamw_clip_cosine"]) as run:
        list(run)
        dp2 = run.state_dict()
    assert list(dp2) == list(state)
    # Gathered from two ranks, the state is the one-rank run's up to the
    # summation order. Not much closer than lr: the key bias of c_attn has a
    # zero gradient in exact arithmetic (softmax ignores it), and AdamW turns
    # its ~1e-9 rounding noise into updates of about +-lr a step (8.9e-5
    # apart after these 30 steps); a misplaced shard would be off by the
    # weights' own size (~0.02-1).
    for name, value in state.items():
        assert dp2[name].shape == value.shape and dp2[name].dtype == value.dtype
        np.testing.assert_allclose(dp2[name], value, rtol=1e-3, atol=3e-4,
                                   err_msg=name)


@pytest.mark.parametrize("stage", [1, 3])
def test_zero_dp2_matches_pytorch_and_its_state_equals_one_rank(
        one_rank_cosine, reference, stage):
    # zero=1: the moments are split over dp; zero=3: the parameters too
    # (each rank holds its shard). The gathered state (parameters and
    # moments) is the one-rank run's, as for plain dp2 above.
    records, state = one_rank_cosine
    with train(mesh="dp2", zero=stage, **RUNS["adamw_clip_cosine"]) as run:
        zero = list(run)
        dp2 = run.state_dict()
    check_against(zero, reference["adamw_clip_cosine"]["steps"])
    for a, b in zip(zero, records):
        assert math.isclose(a.loss, b.loss, rel_tol=1e-5)
    assert list(dp2) == list(state)
    assert any(name.endswith(".exp_avg_sq") for name in state)
    for name, value in state.items():
        assert dp2[name].shape == value.shape and dp2[name].dtype == value.dtype
        np.testing.assert_allclose(dp2[name], value, rtol=1e-3, atol=3e-4,
                                   err_msg=name)


def test_zero_stage_outside_0_to_3_is_refused():
    with pytest.raises(paracc.ParaccInvalidArgument,
                       match=r"^zero: must be in \[0, 3\], got 4$"):
        train(mesh="dp2", zero=4, steps=1, lr=1e-3)
    with pytest.raises(paracc.ParaccInvalidArgument,
                       match=r"^zero_prefetch: must be >= 0, got -1$"):
        train(mesh="dp2", zero=3, zero_prefetch=-1, steps=1, lr=1e-3)


# --- the state -----------------------------------------------------------------------


def test_state_before_training_is_the_models_weights():
    onnx = pytest.importorskip("onnx")
    from onnx import numpy_helper

    proto = onnx.load(str(LOSS_MODEL))  # external data: model.onnx.data
    weights = {t.name: numpy_helper.to_array(t)
               for t in proto.graph.initializer
               if t.data_type == onnx.TensorProto.FLOAT and t.dims}
    with train(steps=1, lr=1e-3) as run:
        assert run.next_step == 0 and not run.finished
        # AdamW: each parameter and its two moments.
        names = [n for n, _, _ in run.state]
        params = run.parameter_names()
        assert len(names) == 3 * len(params)
        assert set(params) == set(weights)
        for p in params:
            assert f"{p}.exp_avg" in names and f"{p}.exp_avg_sq" in names
        state = run.state_dict()
        for p in params:
            np.testing.assert_array_equal(state[p], weights[p], err_msg=p)
            assert not state[f"{p}.exp_avg"].any()
            assert not state[f"{p}.exp_avg_sq"].any()
        trained = run.parameters()
        assert list(trained) == params
        # One step moves every parameter and fills the moments.
        record = run.step()
        assert record.step == 0 and run.finished
        after = run.state_dict()
        for p in params:
            assert not np.array_equal(after[p], weights[p]), p
            assert after[f"{p}.exp_avg_sq"].any(), p
            assert np.isfinite(after[p]).all()


def test_bf16_weight_copies_stay_out_of_the_state_dict():
    # Mixed precision keeps each parameter's bf16 copy as state (the
    # executable's weight copies): the state lists them, the state dict and
    # the parameters leave them out.
    with train(steps=1, lr=1e-3, precision="bf16") as run:
        names = [n for n, _, _ in run.state]
        params = run.parameter_names()
        copies = [n for n in names if n.endswith(".bf16_copy")]
        assert sorted(copies) == sorted(f"{p}.bf16_copy" for p in params)
        run.step()
        state = run.state_dict()
        assert not any(n.endswith(".bf16_copy") for n in state)
        assert set(state) == {n for n in names if n not in copies}
        assert list(run.parameters()) == params


def test_state_dict_of_a_tensor_parallel_run_is_whole():
    # On tp2 GPT-2's fused c_attn is held as 3 blocks of the same name;
    # paracc_executable_state_block says where each lies, so by name (and
    # as a state_dict) the parameter comes back whole, equal to the
    # one-rank run's: before a step exactly (the ONNX initializers), after
    # one within AdamW's first step (+-lr where a gradient is rounding noise).
    with train(mesh="tp2", steps=1, lr=1e-3) as tp, \
            train(mesh="1", steps=1, lr=1e-3) as one:
        blocked = "m.transformer.h.0.attn.c_attn.weight"
        names = [n for n, _, _ in tp.state]
        assert names.count(blocked) == 3
        # (The state table's order is the mesh's; the names are the same.)
        assert sorted(tp.parameter_names()) == sorted(one.parameter_names())
        before_tp, before_one = tp.state_dict(), one.state_dict()
        assert sorted(before_tp) == sorted(before_one)
        for name, value in before_one.items():
            assert before_tp[name].shape == value.shape, name
            np.testing.assert_array_equal(before_tp[name], value, err_msg=name)
        tp.step()
        one.step()
        after_tp, after_one = tp.state_dict(), one.state_dict()
        assert after_tp[blocked].shape == (256, 768)
        for name in tp.parameter_names():
            np.testing.assert_allclose(after_tp[name], after_one[name],
                                       rtol=0, atol=2.5e-3, err_msg=name)
        # A block by index is the block.
        first = names.index(blocked)
        np.testing.assert_array_equal(tp.read_state(first),
                                      after_tp[blocked][:, :256])


# --- the model argument, Model.trainer, save/load ---------------------------------


def first_steps(run, n=2):
    return [run.step() for _ in range(n)]


def test_model_as_bytes_and_as_onnx_proto(reference):
    expected = reference["adamw_const"]["steps"][:2]
    data = LOSS_MODEL.read_bytes()
    with paracc.train(data, data=TOKENS, model_data_dir=GPT2_TINY, steps=2,
                      lr=1e-3, **COMMON) as run:
        check_against(first_steps(run), expected)
    onnx = pytest.importorskip("onnx")
    proto = onnx.load(str(LOSS_MODEL), load_external_data=True)
    with paracc.train(proto, data=TOKENS, steps=2, lr=1e-3, **COMMON) as run:
        check_against(first_steps(run), expected)


def test_model_trainer_runs_from_the_initial_state(reference, tmp_path):
    model = paracc.compile(LOSS_MODEL, train=True, batch=2, seq=64,
                           betas=(0.9, 0.95), eps=1e-8, weight_decay=0.1,
                           device="cpu")
    with model:
        assert model.is_training
        assert [n for n, _, _ in model.inputs][:2] == ["input_ids", "labels"]
        assert model.explain()["num_ranks"] == 1
        expected = reference["adamw_const"]["steps"][:3]
        first = list(model.trainer(TOKENS, steps=3, lr=1e-3))
        second = list(model.trainer(TOKENS, steps=3, lr=1e-3))
        check_against(first, expected)
        assert first == [r._replace(tokens_per_s=f.tokens_per_s, ms=f.ms)
                         for r, f in zip(second, first)]
        # A saved training step trains the same when loaded.
        model.save(tmp_path / "step.pcx")
        with paracc.load(tmp_path / "step.pcx", device="cpu") as loaded:
            assert loaded.is_training and loaded.state == model.state
            check_against(list(loaded.trainer(TOKENS, steps=3, lr=1e-3)),
                          expected)


def test_train_only_and_freeze_are_explained():
    # train_only keeps the matching parameters; the rest are frozen, and
    # explain names the rule. auto_freeze=False is accepted (this export
    # writes no buffers, so nothing else changes).
    model = paracc.compile(LOSS_MODEL, train=True, batch=2, seq=64,
                           train_only=r"\.h\.1\.", freeze="ln_2",
                           no_auto_freeze=True, device="cpu")
    with model:
        frozen = {f["name"]: f["reason"]
                  for f in model.explain()["frozen_parameters"]}
    assert frozen["m.lm_head.weight"] == "not matched by --train-only"
    assert frozen["m.transformer.h.1.ln_2.weight"] == "--freeze"
    assert "m.transformer.h.1.attn.c_attn.weight" not in frozen
    with paracc.train(LOSS_MODEL, data=TOKENS, steps=1, lr=1e-3,
                      train_only=r"\.h\.1\.", auto_freeze=False,
                      **COMMON) as run:
        assert len(list(run)) == 1


def test_log_json_has_the_records(tmp_path):
    log = tmp_path / "log.jsonl"
    with train(steps=3, lr=1e-3, log_json=log) as run:
        records = list(run)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [x["step"] for x in lines] == [0, 1, 2]
    check_against(records, lines, loss_rtol=1e-6, norm_rtol=1e-6)


# --- checkpoints --------------------------------------------------------------------


def test_resume_continues_exactly(tmp_path):
    settings = dict(lr=1e-3)  # constant: the schedule does not depend on
    # --steps, so a 4-step run is the first 4 steps of a 6-step run.
    ck = tmp_path / "ck"
    with train(steps=4, checkpoint_dir=ck, checkpoint_every=2,
               **settings) as run:
        first = list(run)
    assert [r.step for r in first] == [0, 1, 2, 3]
    assert (ck / "latest").read_text().strip() == "step-00000004"
    assert {"step-00000002", "step-00000004"} <= set(os.listdir(ck))

    with train(steps=6, **settings) as run:
        full = list(run)
        full_state = run.state_dict()
    check_against(first, full[:4], loss_rtol=1e-6, norm_rtol=1e-6)

    shutil.copytree(ck, tmp_path / "ck-dp2")
    with train(steps=6, checkpoint_dir=ck, resume=True, **settings) as run:
        assert run.next_step == 4 and not run.finished
        resumed = list(run)
        resumed_state = run.state_dict()
    assert [r.step for r in resumed] == [4, 5]
    check_against(resumed, full[4:], loss_rtol=1e-6, norm_rtol=1e-6)
    for name, value in full_state.items():
        np.testing.assert_allclose(resumed_state[name], value, rtol=1e-5,
                                   atol=1e-7, err_msg=name)
    assert (ck / "latest").read_text().strip() == "step-00000006"

    # On another mesh (the state is resharded on load).
    with train(steps=6, checkpoint_dir=tmp_path / "ck-dp2", resume=True,
               mesh="dp2", **settings) as run:
        assert run.next_step == 4
        check_against(list(run), full[4:], loss_rtol=1e-5, norm_rtol=1e-5)


def test_with_block_finishes_a_run_that_has_run_its_steps(tmp_path):
    ck = tmp_path / "ck"
    with train(steps=2, lr=1e-3, checkpoint_dir=ck) as run:
        run.step()
        run.step()
        assert run.finished and not (ck / "latest").exists()
    # finish() wrote the final checkpoint; the trainer and model are freed.
    assert (ck / "latest").read_text().strip() == "step-00000002"
    assert run.handle is None
    with pytest.raises(paracc.ParaccInvalidArgument, match="closed"):
        run.step()
    with pytest.raises(paracc.ParaccInvalidArgument, match="closed"):
        run.model.explain()


def test_finish_is_called_once_and_steps_past_the_end_are_errors():
    run = train(steps=1, lr=1e-3)
    try:
        assert len(list(run)) == 1
        assert list(run) == []  # nothing left; finish is not called again
        run.finish()
        with pytest.raises(paracc.ParaccError, match="step"):
            run.step()
    finally:
        run.close()


# --- errors ---------------------------------------------------------------------------


def test_diverging_run_raises_mismatch_naming_a_parameter(tmp_path):
    # train-errors.test's recipe: lr 1e8 blows the first update up.
    ck = tmp_path / "ck"
    with pytest.raises(paracc.ParaccMismatch) as e:
        with train(steps=5, lr=1e8, checkpoint_dir=ck,
                   checkpoint_every=1) as run:
            for _ in run:
                pass
    message = str(e.value)
    assert e.value.code == 1
    m = re.search(r"error: step (\d+): the (loss|gradient norm) is [^;]+; the "
                  r"first parameter whose gradient is not finite is "
                  r"'m\.transformer\.[a-z0-9_.]+'; training stopped \(the last "
                  r"checkpoint in [^)]*ck is intact\)", message)
    assert m, message
    step = int(m.group(1))
    assert len(run.records) == step and step >= 1
    # The run stopped there: no final checkpoint over the last good one.
    assert (ck / "latest").read_text().strip() == f"step-{step:08d}"


def test_bad_optimizer_names_the_allowed_values():
    with pytest.raises(paracc.ParaccError) as e:
        train(optimizer="adam")
    assert "optimizer='adam' is not an optimizer (adamw or sgd)" in str(e.value)
    assert e.value.code == 4


def test_missing_data_file(tmp_path):
    missing = tmp_path / "none.u16"
    with pytest.raises(paracc.ParaccError) as e:
        paracc.train(LOSS_MODEL, data=missing, **COMMON)
    assert str(missing) in str(e.value) and e.value.code == 2
    with pytest.raises(paracc.ParaccError, match="data-dir"):
        paracc.train(LOSS_MODEL, **COMMON)  # no data at all


@pytest.mark.parametrize("options, pattern", [
    (dict(lr=float("nan")), r"lr: 'nan' is not a finite number"),
    (dict(betas=(0.9,)), r"betas: must be 2 numbers in \[0, 1\)"),
    (dict(steps=10, warmup=20), r"--warmup in \[0, --steps\]"),
    (dict(lr_schedule="linear"), r"lr_schedule='linear' is not a learning-rate schedule \(constant or cosine\)"),
    (dict(resume=True), r"need checkpoint-dir"),
    (dict(memory_budget="lots"), r"'lots' is not a size"),
    # The closed sets: the compiler's one table per option (through
    # paracc_options_describe), the error naming the Python keyword.
    (dict(precision="f8"), r"precision='f8' is not a precision \(f32, bf16 or f16\)"),
    (dict(recompute="sometimes"), r"recompute='sometimes' is not a recompute policy"),
    (dict(input_shapes={"ids": (2, 64)}), r"--input-shape names 'ids', which is not an input of the model"),
    (dict(mesh="pp2", schedule="2f2b"),
     r"schedule='2f2b' is not a pipeline schedule \(gpipe, 1f1b, zb-h1 or interleaved\)"),
])
def test_bad_options_are_the_c_apis_errors(options, pattern):
    with pytest.raises(paracc.ParaccError, match=pattern):
        train(**options)


def test_misused_python_arguments():
    with pytest.raises(paracc.ParaccInvalidArgument) as e:
        train(steps="many")
    assert "steps: 'many' is not an integer" in str(e.value) and e.value.code == 4
    with pytest.raises(paracc.ParaccInvalidArgument, match="train=True"):
        paracc.compile(LOSS_MODEL, batch=2, seq=64)
    with pytest.raises(TypeError, match="learning_rate"):
        paracc.compile(LOSS_MODEL, train=True, learning_rate=1.0)
    with paracc.compile(GPT2_TINY / "model.onnx") as inference:
        with pytest.raises(paracc.ParaccInvalidArgument, match="train=True"):
            inference.trainer(TOKENS)
