#pragma once
#include "paddle/fluid/framework/parallel_executor.h"

namespace paddle {
namespace operators {

template <typename T, typename DeviceContext>
class RunProgramOpKernel {
 public:
  void Compute() const { pe_->Run(); }

 private:
  framework::ParallelExecutor *pe_;
};

template <typename T, typename DeviceContext>
class RunProgramGradOpKernel {
 public:
  void Compute() const { pe_->Run(); }

 private:
  framework::ParallelExecutor *pe_;
};

}  // namespace operators
}  // namespace paddle
