"""paracc.plan (the C API's paracc_plan_file): the planner's choice for a
cluster, its JSON fields, and its errors."""

import pytest

import paracc


def test_inference_plan_for_four_cpu_ranks(gpt2_model):
    p = paracc.plan(gpt2_model, cluster="1x4:cpu", top=5)
    assert p.chosen["flags"] == p.candidates[0]["flags"]
    times = [c["predicted"]["step_seconds"] for c in p.candidates]
    assert times == sorted(times) and len(times) <= 5
    for c in p.candidates:
        assert c["dp"] * c["pp"] * c["tp"] == 4
        assert c["dp"] * c["micro_batch_size"] * c["microbatches"] == \
            p.json["global_batch"]
    for key in ("mesh", "microbatches", "micro_batch_size", "schedule",
                "recompute", "zero"):
        assert key in p.json["plan"]
    for key in ("step_seconds", "tokens_per_second", "tflops_per_gpu", "mfu",
                "peak_memory_bytes"):
        assert p.json["predicted"][key] > 0
    assert p.json["search"]["evaluated"] >= 1
    assert "chosen:" in p.text
    assert len(p.rows()) == len(p.candidates)


def test_report_holds_the_search(gpt2_model, tmp_path):
    p = paracc.plan(gpt2_model, cluster="1x4:cpu", top=3)
    path = tmp_path / "plan.html"
    p.save_report(path)
    page = path.read_text(encoding="utf-8")
    # One point per plan that fits (none slower than the plot here would
    # hide them all), one front mark per Pareto plan, one bar row per
    # candidate and the chosen plan's timeline.
    beyond = int(page.split('data-beyond="')[1].split('"')[0])
    points = page.count('class="point"') + page.count('class="bound"')
    assert points + beyond == p.json["search"]["fitting"]
    assert page.count('class="front"') == len(p.json["pareto"]) >= 1
    assert page.count('data-plan="') == 5 * len(p.candidates)
    assert "simulated step of" in page


def test_training_plan_and_one_mesh(repo):
    model = repo / "examples" / "gpt2-train" / "model.onnx"
    p = paracc.plan(model, cluster="1x4:cpu", global_batch=4, train=True,
                    batch=4, seq=32)
    assert p.json["model"]["training"]
    one = paracc.plan(model, cluster="1x4:cpu", global_batch=4, train=True,
                      batch=4, seq=32, mesh="dp2,tp2", recompute="full")
    assert [c["mesh"] for c in one.candidates] == ["dp2,tp2"]
    assert one.chosen["recompute"] == "full"


def test_errors_name_the_problem(gpt2_model):
    with pytest.raises(paracc.ParaccError, match="unknown device 'tpu'"):
        paracc.plan(gpt2_model, cluster="4x8:tpu")
    with pytest.raises(paracc.ParaccError, match="no plan of 1x2:cpu fits"):
        paracc.plan(gpt2_model, cluster="1x2:cpu,memory=0.00001")
    with pytest.raises(TypeError, match="only apply to a training step"):
        paracc.plan(gpt2_model, cluster="1x2:cpu", recompute="full")


def test_plot(gpt2_model):
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    ax = paracc.plan(gpt2_model, cluster="1x4:cpu").plot()
    assert ax.get_xlabel().startswith("peak memory")
