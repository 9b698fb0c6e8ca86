// RUN: paracc-opt %s --paracc-set-mesh="mesh=dp2,xp2" -verify-diagnostics
// RUN: not paracc-opt %s --paracc-set-mesh="mesh=dp" 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not paracc-opt %s --paracc-set-mesh="mesh=dp2,dp2" 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not paracc-opt %s --paracc-set-mesh="mesh=dp2 microbatches=65" 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not paracc-opt %s --paracc-set-mesh="microbatches=2" 2>&1 | FileCheck %s --check-prefix=NO-MESH
// RUN: not paracc-opt %s --paracc-set-mesh="mesh=dp64,tp128" 2>&1 | FileCheck %s --check-prefix=RANKS
// RUN: not paracc-opt %s --paracc-set-mesh="mesh=dp4 data-shards=3" 2>&1 | FileCheck %s --check-prefix=SHARDS
// RUN: not paracc-opt %s --paracc-set-mesh="mesh=tp4 data-shards=2" 2>&1 | FileCheck %s --check-prefix=SHARDS-NODP
// RUN: not paracc-opt %s --paracc-set-mesh="mesh=dp4 data-shards=-1" 2>&1 | FileCheck %s --check-prefix=SHARDS-NEG

// SYNTAX: error: bad mesh axis 'dp'; expected NAME<size> such as dp2 or tp4
// TWICE: error: mesh axis 'dp' given twice
// RANGE: error: microbatches must be in [1, 64], got 65
// NO-MESH: error: microbatches > 1 need a mesh
// RANKS: error: the mesh has more than 4096 ranks
// SHARDS: error: data-shards 3 must divide the dp axis (of size 4)
// SHARDS-NODP: error: data-shards 2 must divide the dp axis (of size 0)
// SHARDS-NEG: error: data-shards must be >= 0, got -1

// expected-error @+1 {{mesh axis 'xp' is not supported yet (supported: dp, pp, cp, tp, ep)}}
module {
}
