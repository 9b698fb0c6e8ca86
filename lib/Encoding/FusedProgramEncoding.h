//===- FusedProgramEncoding.h - A fused body as a program -------*- C++ -*-===//

#ifndef PARACC_LIB_ENCODING_FUSEDPROGRAMENCODING_H
#define PARACC_LIB_ENCODING_FUSEDPROGRAMENCODING_H

#include "paracc/Support/RuntimeAlias.h"
#include "paracc/runtime/InstructionSet.h"

#include "mlir/Support/LLVM.h"

namespace mlir::paracc {
namespace graph {
class FusedElementwiseOp;
} // namespace graph

/// The FusedElementwise instruction's attributes for `op`'s body, or a
/// diagnostic on the body op that has no step.
FailureOr<rt::FusedElementwiseAttrs>
encodeFusedProgram(graph::FusedElementwiseOp op);

} // namespace mlir::paracc

#endif // PARACC_LIB_ENCODING_FUSEDPROGRAMENCODING_H
