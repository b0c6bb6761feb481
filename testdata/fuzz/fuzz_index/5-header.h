#pragma once
#include "paddle/fluid/framework/details/var_handle.h"
namespace paddle { namespace framework { namespace details {
struct OpHandleBase {
  virtual ~OpHandleBase();
  virtual void RunImpl() = 0;
};
template <typename T> class FetchOpHandle : public OpHandleBase {};
}}}
