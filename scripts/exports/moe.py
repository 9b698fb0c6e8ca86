#!/usr/bin/env python3
"""Real exporter graphs of transformers mixture-of-experts decoders.

usage: moe.py OUT_DIR [--only NAME ...] [--list]

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

Needs what decoders.py needs. Committed in test/e2e/Inputs/moe/ for
test/e2e/moe.test:  $PY scripts/exports/moe.py test/e2e/Inputs/moe
"""

import sys

import transformers

import decoders
from exporting import case_arguments, selected_cases

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
}


def main():
    args = case_arguments(__doc__, CASES)
    for i, name, spec in selected_cases(args, CASES):
        decoders.make_case(name, spec, args.out, seed=300 + i)
    return 0


if __name__ == "__main__":
    sys.exit(main())
