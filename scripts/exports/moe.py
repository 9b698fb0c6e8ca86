#!/usr/bin/env python3
"""Real exporter graphs of transformers mixture-of-experts decoders.

usage: moe.py OUT_DIR [--only NAME ...] [--list]
       moe.py OUT_DIR --aux-reference [--only NAME ...]
       moe.py OUT_DIR --capacity-reference [--only NAME ...]
       moe.py OUT_DIR --bench gpt-moe --batch B --seq S [--loss]

decoders.py's cases for the MoE families (each case's files are the same:
model.onnx, test_data_set_0/, config.json, and for cases with a loss
loss.onnx, loss_test_data_set_0/, tokens.u16 and PyTorch's 30-step AdamW
run in reference.json): Mixtral (softmax, top-k, renormalised), Qwen2-MoE
(softmax, top-k, not renormalised, a shared expert behind a sigmoid gate)
and OLMoE (softmax, top-k, not renormalised, q/k norms), tiny (hidden 32,
4 experts of 48, top-2), from transformers' config classes with seeded
weights.

transformers' experts run one of two forwards, and exporters see both:
"batched_mm" (each token's k experts' weights gathered by index, two
batched matmuls, the k results weighted and summed: static shapes, what
the dynamo exporter can trace) and "eager" (a loop over the experts hit,
NonZero picking each one's tokens, index_add_ putting them back: only the
legacy TorchScript exporter writes it, unrolled over the experts the traced
input hit). The dynamo exporter refuses the eager loop (its trip count is
data-dependent) and both exporters refuse "grouped_mm" (torch._grouped_mm,
histc); without an attention_mask input the legacy exporter refuses
transformers' packed-sequence check (aten::diff), so its cases pass one.

With --aux-reference, the cases' exports are left as they are and PyTorch's
loss and 30 AdamW steps with the experts' auxiliary losses added
(transformers' load-balancing loss and ST-MoE's router z-loss per layer,
summed, at paracc train's --moe-aux-loss 0.02 --moe-z-loss 0.001) go to
aux_reference.json, each step with the tokens each layer's router sent to
each expert (expert_tokens, as paracc train logs them).

With --capacity-reference, likewise PyTorch's loss and 30 AdamW steps with
each expert taking at most ceil(1.0 x seq x k / experts) picks per
sequence, the earliest tokens first (paracc's --moe-capacity-factor 1.0;
the other picks' routing weights zeroed by a hook on the experts module),
in capacity_reference.json, each step with the picks each layer dropped.

With --bench gpt-moe, the issue's GPT-MoE benchmark model instead (a
Mixtral-style decoder: hidden 1024, 8 layers, 16 heads, 8 experts of 2816,
top-2; random weights, shape-only, the batched_mm forward), with the
peer.json that bench/peers/hf_decoder_torch.py builds the same model from
(decoders.py --bench's files).

Needs what decoders.py needs. Committed in test/e2e/Inputs/moe/ for
test/e2e/moe.test:  $PY scripts/exports/moe.py test/e2e/Inputs/moe
"""

import json
import math
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F
import transformers

import decoders
from exporting import case_arguments, read_pb, selected_cases

MOE = dict(num_experts_per_tok=2, output_router_logits=False)
decoders.FAMILIES.update({
    "mixtral": (transformers.MixtralConfig, transformers.MixtralForCausalLM,
                dict(MOE, num_local_experts=4, intermediate_size=48)),
    "qwen2moe": (transformers.Qwen2MoeConfig,
                 transformers.Qwen2MoeForCausalLM,
                 dict(MOE, num_experts=4, moe_intermediate_size=48,
                      shared_expert_intermediate_size=64,
                      decoder_sparse_step=1, mlp_only_layers=[],
                      norm_topk_prob=False)),
    "olmoe": (transformers.OlmoeConfig, transformers.OlmoeForCausalLM,
              dict(MOE, num_experts=4, intermediate_size=48,
                   norm_topk_prob=False,
                   # Its default pad_token_id (1) makes the embedding's
                   # padding row untrainable, which an ONNX graph cannot say.
                   pad_token_id=None)),
})

BATCHED = {"experts_implementation": "batched_mm"}
decoders.BENCH.update({
    "gpt-moe": ("mixtral", dict(
        hidden_size=1024, intermediate_size=2816, num_hidden_layers=8,
        num_attention_heads=16, num_key_value_heads=16, vocab_size=50304,
        num_local_experts=8, num_experts_per_tok=2,
        max_position_embeddings=8192, tie_word_embeddings=False,
        **BATCHED)),
})
EAGER = {"experts_implementation": "eager"}

# decoders.py's case spec: family, exporter, attention, batch, seq, padding,
# extra config, whether a loss model and a PyTorch run are made.
CASES = {
    "mixtral-batched": ("mixtral", "dynamo", "sdpa", 2, 16, None, BATCHED,
                        True),
    "mixtral-batched-legacy": ("mixtral", "legacy", "sdpa", 2, 16, (0, 0),
                               BATCHED, False),
    "mixtral-eager-legacy": ("mixtral", "legacy", "sdpa", 2, 16, (0, 0),
                             EAGER, False),
    "qwen2moe-batched": ("qwen2moe", "dynamo", "sdpa", 2, 16, None, BATCHED,
                         True),
    "qwen2moe-batched-legacy": ("qwen2moe", "legacy", "sdpa", 2, 16, (0, 0),
                                BATCHED, False),
    "olmoe-batched": ("olmoe", "dynamo", "sdpa", 2, 16, None, BATCHED, True),
    "olmoe-eager-legacy": ("olmoe", "legacy", "sdpa", 2, 16, (0, 0), EAGER,
                           False),
    # Four sequences, for four data-parallel ranks (ep4, dp2,ep2).
    "mixtral-batched-b4": ("mixtral", "dynamo", "sdpa", 4, 8, None, BATCHED,
                           True),
    "qwen2moe-batched-legacy-b4": ("qwen2moe", "legacy", "sdpa", 4, 8, (0, 0),
                                   BATCHED, False),
    "olmoe-batched-b4": ("olmoe", "dynamo", "sdpa", 4, 8, None, BATCHED, False),
}


# The auxiliary losses' reference (--aux-reference): paracc train's
# --moe-aux-loss and --moe-z-loss coefficients.
AUX_COEF, Z_COEF = 0.02, 0.001


def router_losses(router_logits, k):
    """Per layer (router logits [T, E]): transformers' load-balancing loss
    E * sum_e (c_e / T) * mean_t softmax(z)[t, e] (c_e: the top-k slots
    routed to e) and ST-MoE's z-loss mean_t logsumexp(z_t)^2, summed over
    the layers."""
    aux = z_loss = 0.0
    for z in router_logits:
        z = z.float()
        p = F.softmax(z, dim=-1)
        experts = p.shape[-1]
        picks = torch.topk(p, k, dim=-1).indices
        counts = F.one_hot(picks, experts).sum(dim=(0, 1)).float()
        aux = aux + experts * (counts / p.shape[0] * p.mean(0)).sum()
        z_loss = z_loss + torch.logsumexp(z, dim=-1).pow(2).mean()
    return aux, z_loss


def expert_tokens(router_logits, k):
    """Per layer, the (token, pick) slots the router sent to each expert
    (paracc train's expert_tokens)."""
    table = []
    for z in router_logits:
        picks = torch.topk(F.softmax(z.float(), dim=-1), k, dim=-1).indices
        table.append(torch.bincount(picks.reshape(-1),
                                    minlength=z.shape[-1]).tolist())
    return table


def reference_run(model, d, batch, seq, loss_of):
    """The model's loss (loss_of(ids, record)) on the case's loss test data
    and 30 AdamW steps of it over tokens.u16 (as reference.json's run),
    each step with what loss_of recorded."""
    model.train()
    ids = torch.from_numpy(read_pb(os.path.join(
        d, "loss_test_data_set_0", "input_0.pb")).astype(np.int64))
    with torch.no_grad():
        first = loss_of(ids, {}).item()
    tokens = np.fromfile(os.path.join(d, "tokens.u16"), dtype=np.uint16)
    opt = torch.optim.AdamW(model.parameters(), lr=decoders.TRAIN_LR,
                            betas=decoders.TRAIN_BETAS, eps=decoders.TRAIN_EPS,
                            weight_decay=decoders.TRAIN_WEIGHT_DECAY)
    steps = []
    for step in range(decoders.TRAIN_STEPS):
        window = tokens[step * batch * seq:(step + 1) * batch * seq]
        batch_ids = torch.from_numpy(window.astype(np.int64).reshape(batch, seq))
        opt.zero_grad()
        record = {}
        loss = loss_of(batch_ids, record)
        loss.backward()
        norm = torch.sqrt(sum((p.grad.double() ** 2).sum()
                              for p in model.parameters()))
        steps.append({"step": step, "loss": loss.item(),
                      "grad_norm": norm.item(), "lr": decoders.TRAIN_LR,
                      **record})
        opt.step()
    optimizer = {"name": "adamw", "lr": decoders.TRAIN_LR,
                 "betas": decoders.TRAIN_BETAS, "eps": decoders.TRAIN_EPS,
                 "weight_decay": decoders.TRAIN_WEIGHT_DECAY}
    return {"test_data_loss": first, "optimizer": optimizer, "batch": batch,
            "seq": seq, "runs": {"adamw": {"steps": steps}}}


def next_token_ce(logits, ids):
    v = logits.shape[-1]
    return F.cross_entropy(logits[:, :-1].reshape(-1, v),
                           ids[:, 1:].reshape(-1))


def aux_reference(name, spec, out_dir, seed):
    """The case's model rebuilt from its seed: its loss with the auxiliary
    losses on the loss test data, and 30 AdamW steps of it (as
    reference.json's run) in aux_reference.json."""
    family, _, attn, batch, seq, _, extra, _ = spec
    model, config = decoders.make_model(family, attn, dict(extra), seed)
    k = config.num_experts_per_tok
    d = os.path.join(out_dir, name)

    def loss_of(ids, record):
        out = model(input_ids=ids, use_cache=False, output_router_logits=True)
        aux, z_loss = router_losses(out.router_logits, k)
        record["expert_tokens"] = expert_tokens(out.router_logits, k)
        return (next_token_ce(out.logits, ids) + AUX_COEF * aux +
                Z_COEF * z_loss)

    reference = {"moe_aux_loss": AUX_COEF, "moe_z_loss": Z_COEF,
                 **reference_run(model, d, batch, seq, loss_of)}
    with open(os.path.join(d, "aux_reference.json"), "w") as f:
        json.dump(reference, f, indent=1)
    print(f"{name}: aux-loss reference, "
          f"test-data loss {reference['test_data_loss']:.6f}")


# The capacity reference (--capacity-reference): paracc's
# --moe-capacity-factor.
CAPACITY_FACTOR = 1.0


def drop_beyond_capacity(index, weights, seq, experts, factor):
    """The routing weights [T, k] with the picks beyond each expert's
    capacity per sequence, ceil(factor * seq * k / experts), zeroed: the
    earliest tokens of a sequence first (a plain loop, independent of
    paracc's cumulative sums); and the number of picks dropped."""
    tokens, k = index.shape
    capacity = max(1, math.ceil(factor * seq * k / experts))
    keep = torch.ones_like(weights)
    dropped = 0
    for start in range(0, tokens, seq):
        taken = [0] * experts
        for t in range(start, start + seq):
            for j in range(k):
                e = int(index[t, j])
                taken[e] += 1
                if taken[e] > capacity:
                    keep[t, j] = 0
                    dropped += 1
    return weights * keep, dropped


def capacity_reference(name, spec, out_dir, seed):
    """The case's model rebuilt from its seed with each experts module's
    routing weights beyond capacity zeroed (a forward pre-hook): its loss on
    the loss test data and 30 AdamW steps in capacity_reference.json, each
    step with the picks each layer dropped (expert_dropped, as paracc train
    logs them) and sent to each expert (expert_tokens)."""
    family, _, attn, batch, seq, _, extra, _ = spec
    model, config = decoders.make_model(family, attn, dict(extra), seed)
    k = config.num_experts_per_tok
    d = os.path.join(out_dir, name)
    dropped = []

    def drop(module, args):
        hidden, index, weights = args
        weights, n = drop_beyond_capacity(index, weights, seq,
                                          module.num_experts, CAPACITY_FACTOR)
        dropped.append(n)
        return hidden, index, weights

    experts = [m for m in model.modules()
               if type(m).__name__.endswith("Experts")]
    assert experts, f"{name}: no experts module to hook"
    for m in experts:
        m.register_forward_pre_hook(drop)

    def loss_of(ids, record):
        dropped.clear()
        out = model(input_ids=ids, use_cache=False, output_router_logits=True)
        record["expert_tokens"] = expert_tokens(out.router_logits, k)
        record["expert_dropped"] = list(dropped)
        return next_token_ce(out.logits, ids)

    reference = {"moe_capacity_factor": CAPACITY_FACTOR,
                 **reference_run(model, d, batch, seq, loss_of)}
    with open(os.path.join(d, "capacity_reference.json"), "w") as f:
        json.dump(reference, f, indent=1)
    drops = [sum(s["expert_dropped"]) for s in reference["runs"]["adamw"]["steps"]]
    print(f"{name}: capacity reference, test-data loss "
          f"{reference['test_data_loss']:.6f}, picks dropped per step "
          f"{min(drops)}..{max(drops)}")


def main():
    def bench_arguments(ap):
        ap.add_argument("--bench", choices=["gpt-moe"])
        ap.add_argument("--batch", type=int, default=8)
        ap.add_argument("--seq", type=int, default=1024)
        ap.add_argument("--loss", action="store_true")
        ap.add_argument("--aux-reference", action="store_true",
                        help="write aux_reference.json for the selected "
                             "cases with a loss (their exports must exist)")
        ap.add_argument("--capacity-reference", action="store_true",
                        help="write capacity_reference.json for the "
                             "selected cases with a loss (their exports "
                             "must exist)")

    args = case_arguments(__doc__, CASES, bench_arguments)
    if args.bench:
        decoders.make_bench(args.bench, args.out, args.batch, args.seq,
                            args.loss)
        return 0
    for i, name, spec in selected_cases(args, CASES):
        if args.aux_reference or args.capacity_reference:
            if spec[-1] and args.aux_reference:
                aux_reference(name, spec, args.out, seed=300 + i)
            if spec[-1] and args.capacity_reference:
                capacity_reference(name, spec, args.out, seed=300 + i)
            continue
        decoders.make_case(name, spec, args.out, seed=300 + i)
    return 0


if __name__ == "__main__":
    sys.exit(main())
