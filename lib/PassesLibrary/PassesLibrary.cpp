//===- PassesLibrary.cpp - libParaccPasses.so -------------------*- C++ -*-===//
//
// The shared library that MLIR-based embedders link (Paracc::Passes). Its
// content is paracc's libraries, kept whole by the linker; this unit only
// gives the library a symbol of its own to check that it is the one loaded.
//
//===----------------------------------------------------------------------===//

#include "paracc/Pipelines/Pipelines.h"

const char *mlir::paracc::passesLibraryVersion() { return PARACC_VERSION; }
