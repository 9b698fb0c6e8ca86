// RUN: paracc-opt %s -split-input-file --paracc-add-loss -verify-diagnostics

// expected-error @+1 {{needs one float logits result [batch, seq, vocabulary] to add a loss to}}
func.func @not_logits(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  return %x : tensor<2x8xf32>
}

// -----

// expected-error @+1 {{has no token input [2, 8] matching its logits to shift into labels}}
func.func @no_tokens(%x: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  return %x : tensor<2x8x16xf32>
}
