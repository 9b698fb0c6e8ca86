//===- OpEncoding.h - Graph ops as runtime instructions --------*- C++ -*-===//
//
// Maps graph-dialect (and dist-dialect) operations to the runtime's
// instructions (runtime/include/paracc/runtime/OpCodes.def) and MLIR element
// types to runtime element types. The executable writer and the constant
// folder share this one mapping.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_ENCODING_OPENCODING_H
#define PARACC_ENCODING_OPENCODING_H

#include "mlir/IR/Operation.h"
#include "paracc/Support/RuntimeAlias.h"
#include "paracc/runtime/Kernels.h"

#include <optional>

namespace mlir::paracc {

/// An instruction: opcode plus integer and floating attributes.
struct EncodedOp {
  rt::OpCode opcode;
  rt::InstrAttrs attrs;
};

/// Encodes `op`, or fails with a diagnostic on the op when it has no runtime
/// instruction.
FailureOr<EncodedOp> encodeOp(Operation *op);

/// The runtime element type of an MLIR element type, if it has one.
std::optional<rt::DType> toDType(Type elementType);
/// The MLIR element type of a runtime element type.
Type fromDType(MLIRContext *context, rt::DType dtype);

} // namespace mlir::paracc

#endif // PARACC_ENCODING_OPENCODING_H
