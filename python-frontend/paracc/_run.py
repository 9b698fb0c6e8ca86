"""paracc.train(): compile a loss model's training step and start a run
of it (what ``paracc train`` does)."""

from __future__ import annotations

from ._model import compile as compile_model
from ._options import trainer_pairs
from ._train import Trainer


def train(model, data=None, *, mesh: str | None = None,
          steps: int | None = None, batch: int | None = None,
          seq: int | None = None, lr: float | None = None,
          lr_schedule: str | None = None, warmup: int | None = None,
          min_lr: float | None = None, clip_grad_norm: float | None = None,
          optimizer: str | None = None, betas=None, eps: float | None = None,
          weight_decay: float | None = None, momentum: float | None = None,
          loss: str | None = None, freeze: str | None = None,
          train_only: str | None = None, auto_freeze: bool = True,
          precision: str | None = None, sp: bool = False,
          microbatches: int = 1, stages=None, schedule: str | None = None,
          virtual_stages: int | None = None, cp_layout: str | None = None,
          cp_attention: str | None = None, recompute: str | None = None, memory_budget=None,
          bucket_mb: float | None = None, dropout_seed: int | None = None,
          zero: int | None = None, zero_prefetch: int | None = None,
          zero_shard_size: int | None = None,
          data_dir=None, data_dtype: str | None = None,
          data_seed: int | None = None, log_json=None, checkpoint_dir=None,
          checkpoint_every: int | None = None, resume: bool = False,
          progress: bool = False, device: str = "auto",
          random_weights: bool = False, seed: int = 0,
          input_shapes=None, example_inputs=None, tf32: bool = False,
          no_cuda_graph: bool = False, format: str | None = None,
          name: str | None = None, model_data_dir=None,
          torch_export_options=None, embed_weights: bool = False) -> Trainer:
    """Compiles a loss model's training step for a mesh and starts a
    training run of it (what ``paracc train`` does), returning the
    :class:`Trainer`; iterate it to train.

    `model`: what :func:`paracc.compile` takes (a path, bytes, an
    ``onnx.ModelProto``; `model_data_dir` is compile's `data_dir`, the
    external data of an in-memory model). The model returns a scalar loss,
    or logits with `loss` ("next-token-ce", "ce") added.

    Compile: `mesh`, `precision`, `sp`, `microbatches`, `stages`,
    `schedule` (the pipeline's), `virtual_stages`, `cp_layout`,
    `cp_attention`, `input_shapes`, `random_weights`, `seed`,
    `embed_weights` as for :func:`paracc.compile`; `batch` and `seq` (a token model's
    [batch, seq] inputs), `loss`, `freeze` and `train_only` (regular
    expressions), `auto_freeze` (False: train the buffers exporters write,
    which are frozen by default),
    `optimizer` (adamw, sgd), `betas` ((0.9, 0.95) or "0.9,0.95"), `eps`,
    `weight_decay`, `momentum`, `clip_grad_norm`, `recompute` (none, full,
    selective, auto), `memory_budget` ("40GiB"), `bucket_mb`,
    `dropout_seed`, `zero` (1: optimizer state, 2: and gradients, 3: and
    parameters sharded over dp), `zero_prefetch` (zero=3: layers ahead at
    which a layer's parameters are gathered), `zero_shard_size` (hybrid
    sharding: shard within groups of this many dp ranks).

    Run: `data` (a token file) or `data_dir` (input_N.pb batch folders),
    `data_dtype` (u16, u32), `data_seed`, `steps` (the total, counting the
    steps before a resume), `lr`, `lr_schedule` (constant, cosine),
    `warmup`, `min_lr`, `log_json` (a JSON line per step), `checkpoint_dir`,
    `checkpoint_every`, `resume`, `progress` (a line per step on standard
    output), `device` (auto, cpu, gpu), `tf32`, `no_cuda_graph`.

    Options left at None are not passed: the C API's defaults (the paracc
    tool's) apply. ``close()`` frees the trainer and the compiled model
    (``.model``).
    """
    m = compile_model(
        model, mesh=mesh, precision=precision, sp=sp,
        microbatches=microbatches, stages=stages, schedule=schedule,
        virtual_stages=virtual_stages, cp_layout=cp_layout,
        cp_attention=cp_attention, input_shapes=input_shapes, random_weights=random_weights, seed=seed,
        example_inputs=example_inputs, device=device, format=format,
        data_dir=model_data_dir, name=name, embed_weights=embed_weights,
        torch_export_options=torch_export_options, train=True, loss=loss,
        batch=batch, seq=seq, freeze=freeze, train_only=train_only,
        no_auto_freeze=not auto_freeze, optimizer=optimizer, betas=betas,
        eps=eps, weight_decay=weight_decay, momentum=momentum,
        clip_grad_norm=clip_grad_norm, recompute=recompute,
        memory_budget=memory_budget, bucket_mb=bucket_mb,
        dropout_seed=dropout_seed, zero=zero, zero_prefetch=zero_prefetch,
        zero_shard_size=zero_shard_size)
    try:
        pairs = trainer_pairs(
            data=data, data_dir=data_dir, data_dtype=data_dtype,
            data_seed=data_seed, steps=steps, lr=lr, lr_schedule=lr_schedule,
            warmup=warmup, min_lr=min_lr, log_json=log_json,
            checkpoint_dir=checkpoint_dir, checkpoint_every=checkpoint_every,
            resume=resume, progress=progress, device=device, tf32=tf32,
            no_cuda_graph=no_cuda_graph)
        return Trainer(m, pairs, owns_model=True)
    except BaseException:
        m.close()
        raise
