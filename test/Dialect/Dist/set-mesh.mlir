// RUN: paracc-opt %s --paracc-set-mesh="mesh=dp2,tp4" | FileCheck %s --check-prefix=DPTP
// RUN: paracc-opt %s --paracc-set-mesh="mesh=dp2,pp2 microbatches=4" | FileCheck %s --check-prefix=PP
// RUN: paracc-opt %s --paracc-set-mesh="mesh=pp2" | FileCheck %s --check-prefix=PP1
// RUN: paracc-opt %s --paracc-set-mesh="mesh=tp2 microbatches=3" | FileCheck %s --check-prefix=INTERLEAVED
// RUN: paracc-opt %s --paracc-set-mesh="mesh=1" | FileCheck %s --check-prefix=ONE
// RUN: paracc-opt %s --paracc-set-mesh="mesh=dp4,tp2 data-shards=2" | FileCheck %s --check-prefix=HYBRID
// RUN: paracc-opt %s --paracc-set-mesh="mesh=pp2,dp8 data-shards=4 microbatches=2" | FileCheck %s --check-prefix=HYBRID-PP
// RUN: paracc-opt %s --paracc-set-mesh="mesh=dp4 data-shards=4" | FileCheck %s --check-prefix=WHOLE

// --paracc-set-mesh: the axes in order, then the micro-batch axis `mb`
// under pp (even one micro-batch) or with micro-batches > 1; a mesh the
// module had is replaced; "1" is one rank, no mesh.

// DPTP: module attributes {dist.mesh = #dist.mesh<[dp = 2, tp = 4]>}
// PP: module attributes {dist.mesh = #dist.mesh<[dp = 2, pp = 2, mb = 4]>}
// PP1: module attributes {dist.mesh = #dist.mesh<[pp = 2, mb = 1]>}
// INTERLEAVED: module attributes {dist.mesh = #dist.mesh<[tp = 2, mb = 3]>}
// ONE: module {
// Hybrid sharding: dp split into the replica axis dpr (outer) and the
// shard group dp (inner); a group of all of dp leaves dp alone.
// HYBRID: module attributes {dist.mesh = #dist.mesh<[dpr = 2, dp = 2, tp = 2]>}
// HYBRID-PP: module attributes {dist.mesh = #dist.mesh<[pp = 2, dpr = 2, dp = 4, mb = 2]>}
// WHOLE: module attributes {dist.mesh = #dist.mesh<[dp = 4]>}
module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
