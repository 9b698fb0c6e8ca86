//===- CudnnLibrary.h - libcudnn.so.9, opened once -------------*- C++ -*-===//
//
// Private to the CUDA backend, for the files that run cuDNN frontend graphs
// (CudnnAttention.cpp, CudnnConvolution.cpp), and only when the runtime was
// built with the frontend's headers (PARACC_HAVE_CUDNN_FRONTEND): the
// library opened with dlopen on first use (never linked), one handle per
// device, and the PARACC_CUDNN_LOG switch.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_CUDA_CUDNNLIBRARY_H
#define PARACC_RUNTIME_CUDA_CUDNNLIBRARY_H

#ifdef PARACC_HAVE_CUDNN_FRONTEND

#include <cudnn_frontend.h>

#include <cuda_runtime.h>

#include <initializer_list>
#include <string>
#include <vector>

namespace paracc::rt::cuda {

/// PARACC_CUDNN_LOG=1: the cuDNN users say once per plan why cuDNN is or is
/// not used.
bool cudnnLogDecisions();

/// Opens libcudnn.so.9 (or PARACC_CUDNN_LIBRARY) once; false when it is
/// not there or older than 9.0.
bool cudnnLoaded();

/// The calling thread's current device's cuDNN handle, created on first
/// use; null when cuDNN cannot create one.
cudnnHandle_t cudnnHandleFor(int device);

/// Validates `graph` and builds its execution plans (heuristics A, then
/// the fallback list), leaving out the engines with a numerical note in
/// `avoid`; sets the workspace bytes they need. Empty on success, else the
/// step that failed and cuDNN's message.
std::string
buildCudnnPlans(cudnn_frontend::graph::Graph &graph, cudnnHandle_t handle,
                int64_t &workspace,
                const std::vector<cudnn_frontend::NumericalNote_t> &avoid = {});

/// Whether `stream` is being captured into a CUDA graph (plans are built
/// outside capture only).
bool streamIsCapturing(cudaStream_t stream);

/// Whether every pointer is 16-byte aligned (cuDNN's engines want it).
bool aligned16(std::initializer_list<const void *> pointers);

} // namespace paracc::rt::cuda

#endif // PARACC_HAVE_CUDNN_FRONTEND

#endif // PARACC_RUNTIME_CUDA_CUDNNLIBRARY_H
