#!/usr/bin/env python3
"""gen-tree.py OUTDIR [--files N] [--seed S] [--scale F] [--jobs J] [--force]

Generate a deterministic synthetic source tree shaped like a PaddlePaddle checkout, for
benchmarking `sunset scan`.

* Shape: the file count per top-level area (paddle/fluid, paddle/phi, paddle/cinn, python/paddle,
  test/legacy_test, tools, cmake, ...), the extension mix of each area (.cc/.h/.cu/.py/
  CMakeLists.txt/.cmake/.proto/.md/.sh/.yaml/...), the per-extension size distribution
  (log-normal, fitted to the median and 90th percentile of a real tree), the directory count
  and depth. Defaults give about 14,200 files and 110 MB, like a 2024 Paddle tree.
* Content: plausible C++ / CUDA / Python / CMake / proto / Markdown / shell / YAML text made
  from templates and random identifiers (no text of the real tree).
* Legacy usage: about 1.2% of the files mention the legacy executors (ParallelExecutor,
  SSAGraphExecutor, ExecutionStrategy, *OpHandle, AsyncExecutor, exec_strategy ...), in code,
  comments, strings, CMake and proto, with about 10 matching lines per such file on average
  (a few heavy op-handle / SSA-executor files under paddle/fluid/framework/details, many light
  mentions elsewhere). About 1% of the files carry look-alike traps (StandaloneExecutor,
  InterpreterCore, ProgramInterpreter, AsyncStrategy, ...), ~3% carry benign words that a
  rule prefilter sees as candidates (BuildStrategy, build_cinn_pass, num_threads, local_scopes,
  trainer_id ...), and ~0.3% the PE-only BuildStrategy attributes and graph passes
  (enable_sequential_execution, fix_op_run_order, USE_PASS(eager_deletion_pass) ...), which
  are legacy but not in the keyword list. The filler text never contains a legacy keyword by
  accident; the summary line verifies that.

--files N   number of files (default 14176)
--seed S    integer seed (default 1); the same seed, N and F give a byte-identical tree
--scale F   multiplies every file's size (default 1.0: about 110 MB for 14176 files)
--jobs J    worker processes (default: CPU count, at most 8); does not change the output
--force     remove OUTDIR first if it exists (otherwise OUTDIR must be absent or empty)

Only the Python 3 standard library is used. All randomness comes from random.Random(int)
.random(), which is stable across CPython versions; no set or dict iteration order, nor
hash randomisation, reaches the output.
"""

import argparse
import json
import math
import os
import random
import shutil
import sys
import time

GEN_VERSION = 1
REAL_FILES = 14176          # files in the reference tree
REAL_BYTES = 110_305_963    # bytes in the reference tree

# The literal keywords of the legacy families (same list as scripts/bench-keywords.txt);
# only used to verify the plant density in the summary, never to generate text.
KEYWORDS = [
    "ParallelExecutor", "parallel_executor", "SSAGraphExecutor", "ssa_graph_executor",
    "ScopeBufferedMonitor", "scope_buffered_monitor", "ExecutionStrategy", "exec_strategy",
    "execution_strategy", "execute_strategy", "OpHandle", "op_handle", "VarHandleBase",
    "DummyVarHandle", "AsyncExecutor", "async_executor", "ExecutorThreadWorker",
    "executor_thread_worker", "DensePullThread", "AsyncWorkerParamConfig", "PEAndGraphPair",
    "GetExecutorInfoFromCache", "CreateFixOrderExecutorInfo", "_set_cached_executor_build_strategy",
    "InitializePE", "enable_pe_launch_cinn", "pe_profile_fname", "local_exe_sub_scope_limit",
    "_share_vars_from", "cinn_instruction_run", "share_varinfo_into_cinn_pass", "GetSkipEagerVars",
]

# ----------------------------------------------------------------------------------------------
# Random helpers: everything goes through Random.random() so the stream is version-stable.


class R:
    __slots__ = ("r",)

    def __init__(self, seed):
        self.r = random.Random(seed).random

    def pick(self, seq):
        return seq[int(self.r() * len(seq))]

    def chance(self, p):
        return self.r() < p

    def randint(self, a, b):
        return a + int(self.r() * (b - a + 1))

    def weighted(self, items):
        """items: list of (value, weight)."""
        total = 0.0
        for _, w in items:
            total += w
        x = self.r() * total
        for v, w in items:
            x -= w
            if x < 0:
                return v
        return items[-1][0]

    def lognormal(self, median, sigma):
        # Box-Muller on two uniforms
        u1 = self.r() or 1e-12
        u2 = self.r()
        z = math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)
        return median * math.exp(sigma * z)

    def shuffle(self, lst):
        for i in range(len(lst) - 1, 0, -1):
            j = int(self.r() * (i + 1))
            lst[i], lst[j] = lst[j], lst[i]


# ----------------------------------------------------------------------------------------------
# Vocabulary. Identifiers are built from at least two words, so they never equal a keyword of
# C++ or Python. Words that could combine into a legacy keyword (handle, exec, execution,
# execute, executor, pull, instruction, from, ssa, ...) are deliberately absent.

WORDS = (
    "tensor place scope var grad kernel dims shape dtype layout meta attr input output program "
    "block desc graph node fuse conv matmul elementwise reduce norm batch layer dropout cuda "
    "stream device context allocator memory buffer cache tracer profiler event record flag config "
    "param optimizer adam momentum sgd loss feed fetch predictor engine quant dequant scale bias "
    "weight cinn pir value dialect region operation builder rewrite pattern infer spmd dist mesh "
    "reshard comm nccl bkcl xpu gpu cpu onednn slice concat split stack gather scatter index "
    "mask softmax relu gelu sigmoid tanh pool pad transpose reshape squeeze unsqueeze flatten cast "
    "fill full zeros ones arange linspace random uniform gaussian clip sum mean max min prod "
    "argmax argsort topk unique where select sample embedding lookup sparse dense rows coo csr "
    "lod level offset stride axis rank numel size count total step epoch iter loop cond while "
    "branch merge assign copy share sync wait launch signal queue worker pool thread task job "
    "request reply server client rpc trainer pserver heter fleet collective ring group barrier "
    "allgather broadcast send recv shard stage micro pipeline sharding amp fp16 bf16 int8 "
    "dynamic static jit trace export save load serialize parse dump print log check enforce "
    "error status result info debug verbose name type kind mode option setting policy rule "
    "registry factory creator maker proto attribute inplace alias view contiguous storage "
    "holder alloc free reserve resize realloc place_list device_id hook callback guard lock mutex "
    "atomic future promise timer clock cost estimate plan schedule tile vectorize unroll ir "
    "expr stmt func module tuple list dict map set vector array string token word char byte "
    "bit mask8 shift roll flip rotate crop resize interp bilinear nearest cubic affine grid "
    "warp yolo box anchor nms roi proposal label target metric acc auc precision recall "
    "decay lr warmup schedule_lr clip_norm regularizer l1 l2 init xavier kaiming normal trunc "
    "op op_desc op_info op_attr op_type op_role"
).split()
_RESERVED = set(
    "False None True and as assert async await break class continue def del elif else except finally for "
    "global if import in is lambda nonlocal not or pass raise return try while with yield match case "
    "auto bool char const default delete do double enum explicit extern float friend goto inline int long "
    "mutable namespace new operator private protected public register short signed sizeof static struct "
    "switch template this throw typedef typename union unsigned using virtual void volatile".split())
WORDS = [w for w in WORDS if w not in _RESERVED]
CAMEL_WORDS = [w[0].upper() + w[1:] for w in WORDS if "_" not in w and w[0].isalpha()]
SAFE_SINGLE = ("x y out ret idx dims place ctx tmp src dst num pos cnt val lhs rhs res data "
               "item elem key mid left right begin end cur prev nxt sz len_x axis_v").split()
CPP_TYPES = ["int", "int64_t", "int32_t", "size_t", "float", "double", "bool", "std::string",
             "phi::DDim", "phi::DataType", "phi::Place", "std::vector<int64_t>",
             "std::vector<std::string>", "const phi::DenseTensor&", "phi::DenseTensor*",
             "const std::vector<int>&", "paddle::optional<phi::DenseTensor>", "phi::Scalar",
             "phi::IntArray", "DataLayout", "platform::Place"]
CPP_SCALAR_TYPES = ["float", "double", "int", "int64_t", "phi::dtype::float16",
                    "phi::dtype::bfloat16", "bool", "uint8_t", "int8_t", "phi::dtype::complex<float>"]
SYS_HEADERS = ["<algorithm>", "<map>", "<memory>", "<string>", "<unordered_map>", "<unordered_set>",
               "<vector>", "<utility>", "<functional>", "<mutex>", "<atomic>", "<thread>",
               "<cmath>", "<limits>", "<tuple>", "<array>", "<sstream>", "<iostream>", "<set>",
               "<list>", "<deque>", "<condition_variable>", "<type_traits>", "<numeric>"]
THIRD_PARTY_HEADERS = ['"glog/logging.h"', '"gflags/gflags.h"', '"gtest/gtest.h"',
                       '"unsupported/Eigen/CXX11/Tensor"', '"pybind11/pybind11.h"',
                       '"pybind11/stl.h"', '"cub/cub.cuh"', '"thrust/device_vector.h"',
                       '"xpu/runtime.h"', '"dnnl.hpp"']
PY_MODULES = ["paddle", "paddle.nn", "paddle.static", "paddle.base", "paddle.distributed",
              "paddle.incubate", "paddle.jit", "paddle.optimizer", "paddle.nn.functional",
              "paddle.base.core", "paddle.framework", "paddle.utils", "paddle.tensor",
              "paddle.autograd", "paddle.pir", "paddle.distributed.fleet", "paddle.vision",
              "paddle.io", "paddle.amp", "paddle.quantization"]
PY_STD = ["os", "sys", "re", "copy", "json", "math", "time", "logging", "unittest", "tempfile",
          "collections", "functools", "itertools", "warnings", "inspect", "pickle", "shutil",
          "subprocess", "argparse", "contextlib", "typing", "dataclasses", "threading"]
PY_FNS = ["paddle.to_tensor", "paddle.matmul", "paddle.concat", "paddle.reshape", "paddle.sum",
          "paddle.mean", "paddle.nn.functional.relu", "paddle.transpose", "paddle.full",
          "paddle.zeros", "paddle.ones", "paddle.static.data", "paddle.add", "paddle.multiply",
          "paddle.cast", "paddle.split", "paddle.stack", "paddle.where", "paddle.clip",
          "paddle.nn.functional.softmax", "paddle.unsqueeze", "paddle.squeeze", "np.array",
          "np.random.random", "np.zeros", "np.ones", "np.concatenate", "np.matmul", "np.sum"]
LICENSE_BODY = [
    "Licensed under the Apache License, Version 2.0 (the \"License\");",
    "you may not use this file except in compliance with the License.",
    "You may obtain a copy of the License at",
    "",
    "    http://www.apache.org/licenses/LICENSE-2.0",
    "",
    "Unless required by applicable law or agreed to in writing, software",
    "distributed under the License is distributed on an \"AS IS\" BASIS,",
    "WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.",
    "See the License for the specific language governing permissions and",
    "limitations under the License.",
]


def snake(g, lo=2, hi=3):
    n = g.randint(lo, hi)
    return "_".join(g.pick(WORDS) for _ in range(n))


def camel(g, lo=2, hi=3):
    n = g.randint(lo, hi)
    return "".join(g.pick(CAMEL_WORDS) for _ in range(n))


def local(g):
    return g.pick(SAFE_SINGLE) if g.chance(0.35) else snake(g, 2, 2)


def sentence(g, lo=5, hi=14):
    n = g.randint(lo, hi)
    s = " ".join(g.pick(WORDS).replace("_", " ") for _ in range(n))
    return s[0].upper() + s[1:] + "."


def license_lines(g, prefix):
    year = g.randint(2016, 2024)
    out = [prefix + ("Copyright (c) %d PaddlePaddle Authors. All Rights Reserved." % year),
           prefix.rstrip()]
    for line in LICENSE_BODY:
        out.append((prefix + line) if line else prefix.rstrip())
    out.append("")
    return out


# ----------------------------------------------------------------------------------------------
# Legacy snippets (planted) and traps (look-alikes that are not legacy).
# Each snippet is a template string; {X} is a CamelCase legacy stem, {x} its snake form,
# {N}/{n} a random Camel/snake identifier, {I} the indentation.

LEGACY_HANDLES = ["all_reduce", "broadcast", "computation", "eager_deletion", "fetch", "fetch_async",
                  "fetch_barrier", "fused_all_reduce", "fused_broadcast", "gather",
                  "grad_merge_all_reduce", "reduce", "rpc", "scale_loss_grad",
                  "share_tensor_buffer", "sparse_all_reduce"]
LEGACY_EXECUTORS = ["threaded", "fast_threaded", "bind_threaded", "parallel", "async",
                    "scope_buffered"]


def _camel_of(s):
    return "".join(p[0].upper() + p[1:] for p in s.split("_"))


CPP_LEGACY_INCLUDES = [
    '#include "paddle/fluid/framework/parallel_executor.h"',
    '#include "paddle/fluid/framework/details/op_handle_base.h"',
    '#include "paddle/fluid/framework/details/execution_strategy.h"',
    '#include "paddle/fluid/framework/details/{x}_op_handle.h"',
    '#include "paddle/fluid/framework/details/{e}_ssa_graph_executor.h"',
    '#include "paddle/fluid/framework/details/ssa_graph_executor.h"',
    '#include "paddle/fluid/framework/details/scope_buffered_monitor.h"',
    '#include "paddle/fluid/pybind/parallel_executor.h"',
    '#include "paddle/fluid/framework/async_executor.h"',
    '#include "paddle/fluid/framework/executor_thread_worker.h"',
]
CPP_LEGACY_STMTS = [
    "{I}auto *op_handle = dynamic_cast<details::{X}OpHandle *>(&node->Wrapper<details::OpHandleBase>());\n"
    "{I}if (op_handle == nullptr) {{\n{I}  continue;\n{I}}}",
    "{I}std::shared_ptr<framework::ParallelExecutor> pe = {n}.first;",
    "{I}details::ExecutionStrategy exec_strategy;\n{I}exec_strategy.num_threads_ = {k};\n"
    "{I}exec_strategy.num_iteration_per_drop_scope_ = 1;",
    '{I}VLOG({k}) << "ParallelExecutor run " << {n}.size() << " places";',
    '{I}platform::RecordEvent record_event(\n{I}    "ParallelExecutor::Run", platform::TracerEventType::UserDefined, 1);',
    "{I}InitFiltersForParallelExecutor();",
    "{I}ResetOpHandleScopeMapOfGraphs({n}, scope_map);",
    "{I}auto *dep_var = new details::DummyVarHandle({n}->CreateControlDepVar());",
    "{I}auto &pe_and_graph = framework::GetExecutorInfoFromCache(program, place, {k}, is_grad);",
    "{I}auto cache_info = framework::CreateFixOrderExecutorInfo(program_desc, place, start, end, scope);",
    "{I}for (auto *op_handle : {n}) {{\n{I}  op_handle->SetLocalExecScopes(scope_map);\n{I}}}",
    "{I}{n} = std::make_unique<details::{E}SSAGraphExecutor>(\n{I}    exec_strategy, local_scopes, local_exec_scopes, places, graph);",
    '{I}py::class_<ParallelExecutor> pe(m, "ParallelExecutor");',
    '{I}py::class_<ExecutionStrategy> exec_strategy(pe, "ExecutionStrategy", R"DOC(\n'
    "{I}    ExecutionStrategy allows the user to more preciously control how to run\n"
    '{I}    the program in ParallelExecutor by setting the property.)DOC");',
    "{I}if (FLAGS_enable_pe_launch_cinn) {{\n{I}  {n}->InitializePE(place);\n{I}}}",
    "{I}auto skip_vars = launch_context->GetSkipEagerVars();",
    "{I}ScopeBufferedMonitor scope_monitor(places_, local_exec_scopes_);",
    "{I}auto *var_handle = dynamic_cast<details::VarHandleBase *>({n});",
]
CPP_LEGACY_DECLS = [
    "using details::ExecutionStrategy;",
    "using framework::ParallelExecutor;",
    "class {X}OpHandle : public OpHandleBase {{\n public:\n"
    "  {X}OpHandle(ir::Node *node,\n             const std::vector<Scope *> &local_scopes,\n"
    "             const std::vector<platform::Place> &places);\n\n"
    "  std::string Name() const override;\n\n protected:\n  void RunImpl() override;\n\n"
    "  std::vector<Scope *> GetLocalScopes() override {{ return local_scopes_; }}\n\n private:\n"
    "  std::vector<Scope *> local_scopes_;\n  std::vector<platform::Place> places_;\n}};",
    'std::string {X}OpHandle::Name() const {{ return "{x}"; }}',
    "void {X}OpHandle::RunImpl() {{\n  platform::RecordEvent record_event(\n"
    "      Name(), platform::TracerEventType::Communication, 1);\n  WaitInputVarGenerated();\n"
    "  auto in_var_handles = DynamicCast<VarHandle>(this->Inputs());\n"
    "  auto out_var_handles = DynamicCast<VarHandle>(this->Outputs());\n"
    "  PADDLE_ENFORCE_EQ(\n      in_var_handles.size(),\n      places_.size(),\n"
    '      platform::errors::InvalidArgument(\n          "The NoDummyInputSize of {X}OpHandle should be equal to places."));\n'
    "  RunOnVar(in_var_handles, out_var_handles);\n}}",
    "class {E}SSAGraphExecutor : public SSAGraphExecutor {{\n public:\n"
    "  {E}SSAGraphExecutor(const ExecutionStrategy &strategy,\n"
    "                     const std::vector<Scope *> &local_scopes,\n"
    "                     const std::vector<platform::Place> &places,\n"
    "                     ir::Graph *graph);\n\n  const ir::Graph &Graph() const override {{ return *graph_; }}\n\n"
    "  FetchResultType Run(const std::vector<std::string> &fetch_tensors,\n"
    "                      bool return_merged) override;\n\n private:\n"
    "  ExecutionStrategy strategy_;\n  ir::Graph *graph_;\n  std::vector<Scope *> local_scopes_;\n}};",
    "FetchResultType {E}SSAGraphExecutor::Run(\n    const std::vector<std::string> &fetch_tensors, bool return_merged) {{\n"
    '  platform::RecordEvent record_prepare(\n      "{E}SSAGraphExecutorPrepare", platform::TracerEventType::UserDefined, 2);\n'
    "  std::unique_ptr<OpDependentData> op_deps = op_deps_futures_.get();\n"
    "  for (size_t i = 0; i < strategy_.num_threads_; ++i) {{\n    RunOpAsync(op_deps.get(), i);\n  }}\n"
    "  return fetches;\n}}",
    "static ExecutionStrategy GetExecutionStrategy(const platform::Place &place) {{\n"
    "  framework::ExecutionStrategy execution_strategy;\n"
    "  execution_strategy.num_threads_ = {k};\n  execution_strategy.use_device_ = platform::Place2DeviceType(place);\n"
    "  return execution_strategy;\n}}",
    'PHI_DEFINE_EXPORTED_bool(enable_pe_launch_cinn,\n                          true,\n'
    '                          "It controls whether to execute cinn compiled "\n'
    '                          "program with ParallelExecutor");',
    'PHI_DEFINE_EXPORTED_uint64(local_exe_sub_scope_limit,\n                           256,\n'
    '                           "The memory up limit of sub-scopes of local execution scope.");',
    'PADDLE_DEFINE_EXPORTED_string(pe_profile_fname,\n                              "",\n'
    '                              "Profiler filename for PE, which generated by gperftools.");',
    "using PEAndGraphPair =\n    std::pair<std::shared_ptr<ParallelExecutor>, std::shared_ptr<ir::Graph>>;",
    "REGISTER_FILE_SYMBOLS({x}_op_handle);",
    "class AsyncExecutor {{\n public:\n  AsyncExecutor(Scope *scope, const platform::Place &place);\n"
    "  virtual ~AsyncExecutor() {{}}\n  void RunFromFile(const ProgramDesc &main_program,\n"
    "                   const std::string &data_feed_desc_str,\n                   const std::vector<std::string> &filelist,\n"
    "                   const int thread_num);\n\n private:\n  std::vector<std::shared_ptr<ExecutorThreadWorker>> workers_;\n}};",
]
CPP_LEGACY_COMMENTS = [
    "{I}// NOTE: ParallelExecutor is deprecated; the StandaloneExecutor runs the graph instead.",
    "{I}// TODO({n}): remove this branch once SSAGraphExecutor is removed.",
    "{I}// The op_handle is created by the multi_devices_graph_pass.",
    "{I}// exec_strategy is only meaningful for the legacy ParallelExecutor.",
    "{I}// NOTE: ComputationOpHandle and FetchOpHandle do not own the scope.",
    "{I}/* Only used by AsyncExecutor, see executor_thread_worker.h */",
    "{I}// Must be kept in sync with ExecutionStrategy::num_threads_.",
]
CPP_LEGACY_STMTS += [
    "{I}auto all_ops = ir::FilterByNodeWrapper<details::OpHandleBase>(*{n});",
    "{I}VLOG(10) << op_handle->DebugString();",
    "{I}op_handle->SetDeviceContext(place, {n});",
    "{I}details::OpHandleBase *op_handle = &node->Wrapper<details::OpHandleBase>();",
    "{I}std::unordered_map<details::OpHandleBase *, size_t> pending_ops;",
    "{I}for (auto *var_handle : op_handle->Outputs()) {{\n{I}  {n}.push_back(var_handle);\n{I}}}",
    "{I}auto *{n} = new details::{X}OpHandle(result->CreateEmptyNode(\"{x}\", ir::Node::Type::kOperation),\n"
    "{I}                                      local_scopes_, places_);",
]
CPP_LEGACY_DECLS += [
    "{X}OpHandle::{X}OpHandle(ir::Node *node,\n    const std::vector<Scope *> &local_scopes,\n"
    "    const std::vector<platform::Place> &places)\n    : OpHandleBase(node), local_scopes_(local_scopes), places_(places) {{}}",
    "bool {X}OpHandle::NeedWait(VarHandleBase *in_var) {{\n  return in_var && in_var->GeneratedOp();\n}}",
    "std::vector<details::OpHandleBase *> SortOpHandles(const ir::Graph &graph);",
    "struct {X}OpHandle;",
    "void OpHandleBase::WaitInputVarGenerated(bool wait_for_feed) {{\n  for (auto in_var : inputs_) {{\n"
    "    if (NeedWait(in_var)) {{\n      in_var->GeneratedOp()->RecordWaitEventOnCtx(dev_ctxes_.at(place_));\n    }}\n  }}\n}}",
]
CPP_LEGACY_COMMENTS += [
    "{I}// ComputationOpHandle wraps one OperatorBase in the SSA graph.",
    "{I}// Insert a dummy VarHandle so that the op_handle runs after {n}.",
]


def _family(t):
    if any(k in t for k in ("AsyncExecutor", "async_executor", "ExecutorThreadWorker", "executor_thread_worker")):
        return "ae"
    if any(k in t for k in ("cinn", "InitializePE", "GetSkipEagerVars")):
        return "cinn"
    if any(k in t for k in ("OpHandle", "op_handle", "VarHandle")):
        return "oh"
    if any(k in t for k in ("ParallelExecutor", "parallel_executor", "SSAGraph", "ssa_graph", "PEAndGraph",
                            "ScopeBuffered", "local_exe", "pe_profile", "GetExecutorInfo", "CreateFixOrder")):
        return "pe"
    return "es"


# (family, kind, template), families: oh OpHandles, pe ParallelExecutor/SSA executors,
# es ExecutionStrategy, ae AsyncExecutor, cinn CINN's PE path
CPP_LEGACY = ([(_family(t), "inc", t) for t in CPP_LEGACY_INCLUDES]
              + [(_family(t), "decl", t) for t in CPP_LEGACY_DECLS]
              + [(_family(t), "stmt", t) for t in CPP_LEGACY_STMTS]
              + [(_family(t), "comment", t) for t in CPP_LEGACY_COMMENTS])
# family mix, by file: at head OpHandle lines dominate (~70%), then PE (~20%) and ES (~7%)
FAMILY_MIX = {
    "op_handle": [("oh", 0.93), ("pe", 0.05), ("es", 0.02)],
    "ssa": [("pe", 0.75), ("es", 0.15), ("oh", 0.1)],
    "es": [("es", 1.0)],
    "default": [("oh", 0.46), ("pe", 0.40), ("es", 0.06), ("cinn", 0.05), ("ae", 0.03)],
}
KIND_MIX = [("inc", 0.12), ("decl", 0.28), ("stmt", 0.4), ("comment", 0.2)]


def pick_cpp_legacy(g, path):
    if "_op_handle" in path:
        mix = FAMILY_MIX["op_handle"]
    elif "ssa_graph_executor" in path or "scope_buffered_monitor" in path:
        mix = FAMILY_MIX["ssa"]
    elif "execution_strategy" in path:
        mix = FAMILY_MIX["es"]
    else:
        mix = FAMILY_MIX["default"]
    fam = g.weighted(mix)
    kind = g.weighted(KIND_MIX)
    cands = [c for c in CPP_LEGACY if c[0] == fam and c[1] == kind]
    if not cands:
        cands = [c for c in CPP_LEGACY if c[0] == fam]
    return g.pick(cands)[1:]


# PE-only BuildStrategy attributes and graph passes: legacy, but outside the keyword list
CPP_BS = [
    ("stmt", "{I}build_strategy.enable_sequential_execution_ = true;"),
    ("stmt", "{I}if (strategy_.fix_op_run_order_) {{\n{I}  {n}->Set(\"fix_op_run_order\", new bool(true));\n{I}}}"),
    ("stmt", "{I}auto all_reduce_deps = ir::PassRegistry::Instance().Get(\"all_reduce_deps_pass\");"),
    ("stmt", "{I}if (build_strategy.is_distribution_) {{\n{I}  {n} = true;\n{I}}}"),
    ("decl", "USE_PASS(reference_count_pass);\nUSE_PASS(eager_deletion_pass);"),
    ("decl", "REGISTER_PASS(fuse_all_reduce_op_pass, paddle::framework::ir::FuseAllReduceOpPass);"),
    ("decl", "enum class GradientScaleStrategy {{\n  kCoeffNumDevice = 0,\n  kOne = 1,\n  kCustomized = 2,\n}};"),
]
PY_BS = [
    "{I}build_strategy.enable_sequential_execution = True",
    "{I}build_strategy.fix_op_run_order = True",
    "{I}build_strategy.remove_unnecessary_lock = False",
    "{I}self._build_strategy.is_distribution = True",
]
CMAKE_BS = [
    "cc_library(\n  multi_devices_graph_pass\n  SRCS multi_devices_graph_pass.cc\n  DEPS {n} op_graph_view)",
]


# Benign code that shares words with the legacy APIs (BuildStrategy, num_threads, trainer_id,
# local_scopes ...): common in a real tree (~4% of the files), never a keyword of the list.
CPP_NOISE = [
    ("stmt", "{I}BuildStrategy build_strategy;\n{I}build_strategy.enable_inplace_ = {b};"),
    ("stmt", "{I}build_strategy.build_cinn_pass_ = FLAGS_use_cinn;"),
    ("stmt", "{I}int num_threads = std::thread::hardware_concurrency();"),
    ("stmt", "{I}config.SetCpuMathLibraryNumThreads(num_threads);"),
    ("stmt", "{I}auto trainer_id = {n}.trainer_id();"),
    ("stmt", "{I}const auto &local_scopes = {n}->local_scopes();"),
    ("stmt", "{I}VLOG(3) << \"num_threads: \" << {n};"),
    ("inc", '#include "paddle/fluid/framework/details/build_strategy.h"'),
    ("decl", "static int GetNumThreads(int num_threads) {{\n  return num_threads > 0 ? num_threads : {k};\n}}"),
]
PY_NOISE = [
    "{I}build_strategy = paddle.static.BuildStrategy()",
    "{I}build_strategy.build_cinn_pass = {b}",
    "{I}build_strategy.fuse_all_reduce_ops = True",
    "{I}self.num_threads = {k}",
    "{I}trainer_id = int(os.getenv('PADDLE_TRAINER_ID', '0'))",
    "{I}num_trainers = len(trainers_endpoints)",
    "{I}strategy.nccl_comm_num = {k}",
    "{I}strategy.use_hierarchical_allreduce = False",
    "{I}compiled = paddle.static.CompiledProgram(main_program, build_strategy=build_strategy)",
    "{I}loader = paddle.io.DataLoader(dataset, batch_size={k}, num_workers=2)",
]
CMAKE_NOISE = [
    "cc_library(\n  {n}\n  SRCS {n}.cc\n  DEPS build_strategy op_registry)",
    "set_tests_properties(test_{n} PROPERTIES ENVIRONMENT \"FLAGS_num_threads=1\")",
]


CPP_TRAPS = [
    "{I}auto core = std::make_shared<InterpreterCore>(place, block, scope, execution_config);",
    "{I}// StandaloneExecutor runs the program with the new InterpreterCore.",
    "{I}std::unique_ptr<ProgramInterpreter> impl_{n};",
    "{I}details::ShareVarsIntoScope({n}, names, scope);",
    "{I}BuildStrategy build_strategy;\n{I}build_strategy.enable_inplace_ = true;",
    "{I}interpreter::ExecutionConfig execution_config;\n{I}execution_config.create_local_scope = false;",
    '{I}VLOG(4) << "StandaloneExecutor::Run with " << {n};',
    "{I}auto impl = std::make_shared<PirInterpreter>(place, fetch_var_names, block, scope, config);",
    "{I}if (FLAGS_new_executor_use_inplace) {{\n{I}  {n}->SetUseInplace(true);\n{I}}}",
]
CPP_RARE_TRAP = "{I}auto op_handlers = ipu_strategy->GetOpHandler({n});"   # contains "OpHandle"

PY_LEGACY_STMTS = [
    "{I}exec_strategy = paddle.static.ExecutionStrategy()\n{I}exec_strategy.num_threads = {k}",
    "{I}self._exec_strategy = exec_strategy",
    "{I}build_strategy, exec_strategy = self._get_strategies({n})",
    "{I}return core.ParallelExecutor(\n{I}    places,\n{I}    self._persistable_vars,\n{I}    self._loss_name,\n"
    "{I}    self._scope,\n{I}    self._local_scopes,\n{I}    self._exec_strategy,\n{I}    self._build_strategy,\n"
    "{I}    self._graph,\n{I})",
    "{I}core._set_cached_executor_build_strategy(self._program_id, build_strategy)",
    "{I}os.environ['GLOG_vmodule'] = 'fused_all_reduce_op_handle=10,all_reduce_op_handle=10'",
    "{I}program._share_vars_from = {n}",
    "{I}if self._exec_strategy.num_threads == 0:\n{I}    self._exec_strategy.num_threads = len(places) * 2",
    "{I}exe_local_scopes = self._compiled._executor.local_scopes()  # ParallelExecutor only",
    "{I}fields = self.strategy.execution_strategy.DESCRIPTOR.fields",
    "{I}self.assertIn('sparse_all_reduce_op_handle', {n})",
    "{I}if 'execution_strategy' in f.name:\n{I}    pass",
]
PY_LEGACY_DECLS = [
    "ExecutionStrategy = core.ParallelExecutor.ExecutionStrategy\nBuildStrategy = core.ParallelExecutor.BuildStrategy",
    "def _get_execute_strategy(self):\n    return self._execute_strategy",
    "def _compile_data_parallel(self, places, use_device, scope=None):\n"
    "    if self._exec_strategy is None:\n        self._exec_strategy = ExecutionStrategy()\n"
    "    self._exec_strategy._use_device = use_device\n    return core.ParallelExecutor(\n"
    "        places, self._persistable_vars, '', scope, [], self._exec_strategy, None, self._graph\n    )",
    "PARALLEL_EXECUTOR_TESTS = [\n    'test_parallel_executor_crf',\n    'test_parallel_executor_mnist',\n"
    "    'test_parallel_executor_seresnext_base_cpu',\n]",
]
PY_LEGACY_COMMENTS = [
    "{I}# NOTE: ParallelExecutor has been removed, CompiledProgram runs with the StandaloneExecutor.",
    "{I}# exec_strategy is kept for compatibility only.",
    "{I}# TODO: drop the ExecutionStrategy argument.",
]
PY_LEGACY_DOC = [
    "exec_strategy(ExecutionStrategy, optional): The execution strategy, deprecated.",
    "It was used by ParallelExecutor to run the program on multiple devices.",
]
PY_TRAPS = [
    "{I}exe = paddle.static.Executor(paddle.CPUPlace())",
    "{I}from paddle.base.executor import _StandaloneExecutor",
    "{I}compiled_prog = paddle.static.CompiledProgram({n}, build_strategy=build_strategy)",
    "{I}paddle.set_flags({{'FLAGS_use_new_executor': True}})",
    "{I}strategy = paddle.distributed.fleet.DistributedStrategy()\n{I}strategy.a_sync = True",
    "{I}build_strategy = paddle.static.BuildStrategy()\n{I}build_strategy.fuse_all_reduce_ops = True",
    "{I}# StandaloneExecutor is the default since 2.4; InterpreterCore caches the program.",
    "{I}self.assertTrue(core._is_compiled_with_cuda() or {n} is None)",
]
CMAKE_LEGACY = [
    "cc_library(\n  parallel_executor\n  SRCS parallel_executor.cc\n"
    "  DEPS ssa_graph_executor graph build_strategy collective_helper variable_helper)",
    "set(op_handle_srcs\n    {x}_op_handle.cc\n    all_reduce_op_handle.cc\n    computation_op_handle.cc\n"
    "    fetch_op_handle.cc\n    op_handle_base.cc)",
    "list(REMOVE_ITEM TEST_OPS test_parallel_executor_seresnext_base_cpu)",
    "py_test_modules(test_parallel_executor_{n} MODULES test_parallel_executor_{n})",
    "set_tests_properties(test_parallel_executor_crf PROPERTIES TIMEOUT 120)",
    "cc_library(\n  executor_cache\n  SRCS executor_cache.cc\n  DEPS parallel_executor standalone_executor)",
    "set(ssa_graph_executor_srcs\n    ssa_graph_executor.cc\n    threaded_ssa_graph_executor.cc\n"
    "    scope_buffered_ssa_graph_executor.cc)",
    "cc_library(\n  ssa_graph_executor\n  SRCS ${{ssa_graph_executor_srcs}}\n  DEPS ${{SSA_GRAPH_EXECUTOR_DEPS}})",
]
CMAKE_TRAPS = [
    "cc_library(\n  standalone_executor\n  SRCS standalone_executor.cc\n  DEPS interpretercore)",
    "# the new executor (InterpreterCore) replaces the old one",
    "set_tests_properties(test_standalone_executor PROPERTIES TIMEOUT 100)",
]
PROTO_LEGACY = [
    "message ExecutionStrategy {{\n  optional int32 num_threads = 1 [ default = 1 ];\n"
    "  optional int32 num_iteration_per_drop_scope = 2 [ default = 10 ];\n"
    "  optional int32 num_iteration_per_run = 3 [ default = 1 ];\n"
    "  optional bool use_thread_barrier = 4 [ default = false ];\n}}",
]
PROTO_LEGACY_FIELD = "  optional ExecutionStrategy execution_strategy = {k};"
TEXT_LEGACY = [
    "- `ParallelExecutor` has been removed in favour of the standalone executor.",
    "grep -a sparse_all_reduce_op_handle ${{LOG_FILE}}",
    "# test_parallel_executor_{n} is disabled",
    "test_async_ssa_graph_executor_mnist",
]
TEXT_TRAPS = ["StandaloneExecutor", "InterpreterCore cache", "use_new_executor"]


def fill(g, tpl, ind=""):
    x = g.pick(LEGACY_HANDLES)
    e = g.pick(LEGACY_EXECUTORS)
    return tpl.format(I=ind, X=_camel_of(x), x=x, E=_camel_of(e), e=e, n=snake(g, 2, 2),
                      N=camel(g, 2, 2), k=g.randint(1, 8), b=g.pick(("True", "False", "true", "false")))


def count_kw_lines(text):
    n = 0
    for line in text.split("\n"):
        for k in KEYWORDS:
            if k in line:
                n += 1
                break
    return n


# ----------------------------------------------------------------------------------------------
# C++ / CUDA


def cpp_expr(g, depth=0):
    k = g.r()
    if k < 0.2:
        return str(g.randint(0, 1024))
    if k < 0.35:
        return local(g)
    if k < 0.5:
        return "%s.%s()" % (local(g), g.pick(("dims", "numel", "size", "dtype", "place", "data", "layout", "rank")))
    if k < 0.62 and depth < 2:
        return "%s(%s, %s)" % (camel(g, 1, 2), cpp_expr(g, depth + 1), cpp_expr(g, depth + 1))
    if k < 0.72 and depth < 2:
        return "%s %s %s" % (cpp_expr(g, depth + 1), g.pick(("+", "-", "*", "/", "%", "<<")), cpp_expr(g, depth + 1))
    if k < 0.8:
        return "static_cast<%s>(%s)" % (g.pick(CPP_SCALAR_TYPES[:4]), local(g))
    if k < 0.88:
        return "%s->%s()" % (local(g), camel(g, 1, 2))
    if k < 0.94:
        return "ctx.Attr<%s>(\"%s\")" % (g.pick(("int", "float", "bool", "std::string", "std::vector<int>")), snake(g, 1, 2))
    return "%s[%s]" % (local(g), local(g))


def cpp_cond(g):
    k = g.r()
    if k < 0.3:
        return "%s == nullptr" % local(g)
    if k < 0.5:
        return "%s.size() > %d" % (local(g), g.randint(0, 8))
    if k < 0.7:
        return "%s != %s" % (cpp_expr(g, 1), cpp_expr(g, 1))
    if k < 0.85:
        return "!%s.empty()" % local(g)
    return "FLAGS_%s" % snake(g, 2, 3)


def cpp_stmts(g, out, ind, n, depth=0):
    for _ in range(n):
        k = g.r()
        if depth < 2 and k < 0.10:
            i = g.pick(("i", "j", "k"))
            out.append("%sfor (int64_t %s = 0; %s < %s; ++%s) {" % (ind, i, i, cpp_expr(g, 1), i))
            cpp_stmts(g, out, ind + "  ", g.randint(1, 4), depth + 1)
            out.append(ind + "}")
        elif depth < 2 and k < 0.20:
            out.append("%sif (%s) {" % (ind, cpp_cond(g)))
            cpp_stmts(g, out, ind + "  ", g.randint(1, 3), depth + 1)
            if g.chance(0.35):
                out.append(ind + "} else {")
                cpp_stmts(g, out, ind + "  ", g.randint(1, 3), depth + 1)
            out.append(ind + "}")
        elif k < 0.36:
            out.append("%sauto %s = %s;" % (ind, local(g), cpp_expr(g)))
        elif k < 0.44:
            a, b = local(g), cpp_expr(g, 1)
            out.append("%sPADDLE_ENFORCE_%s(" % (ind, g.pick(("EQ", "NE", "GT", "GE", "LT", "LE"))))
            out.append("%s    %s," % (ind, a))
            out.append("%s    %s," % (ind, b))
            out.append("%s    phi::errors::%s(" % (ind, g.pick(("InvalidArgument", "PreconditionNotMet", "NotFound", "Unimplemented", "OutOfRange"))))
            out.append('%s        "The %s of %s should be %%d, but received %%d.",' % (ind, snake(g, 1, 2).replace("_", " "), camel(g, 1, 2)))
            out.append("%s        %s," % (ind, local(g)))
            out.append("%s        %s));" % (ind, local(g)))
        elif k < 0.51:
            out.append('%sVLOG(%d) << "%s: " << %s;' % (ind, g.randint(1, 6), sentence(g, 2, 5)[:-1], local(g)))
        elif k < 0.64:
            out.append("%s%s%s%s(%s);" % (ind, local(g), g.pick(("->", ".")), camel(g, 1, 2),
                                         ", ".join(cpp_expr(g, 1) for _ in range(g.randint(0, 3)))))
        elif k < 0.71:
            out.append("%s%s[%s] = %s;" % (ind, local(g), local(g), cpp_expr(g)))
        elif k < 0.78:
            out.append("%s// %s" % (ind, sentence(g)))
        elif k < 0.85:
            out.append("%s%s %s(%s);" % (ind, g.pick(("std::vector<int64_t>", "std::vector<std::string>", "phi::DenseTensor", "std::string", "phi::DDim")), local(g), cpp_expr(g, 1)))
        elif k < 0.92:
            out.append('%sconst auto* %s = ctx.Input<phi::DenseTensor>("%s");' % (ind, local(g), camel(g, 1, 1)))
        else:
            out.append("%s%s += %s;" % (ind, local(g), cpp_expr(g, 1)))


def insert_stmt(g, body, stmt, ind, lang):
    """Insert a statement into a generated body at a statement boundary of indentation ind."""
    ok = [len(body)]
    for i in range(len(body)):
        line = body[i]
        if not line.startswith(ind) or line[len(ind):len(ind) + 1] in (" ", ")", "}"):
            continue
        if lang == "cpp" and i > 0:
            prev = body[i - 1].rstrip()
            if not (prev.endswith((";", "{", "}")) or prev.lstrip().startswith("//")):
                continue
        if lang == "py" and line[len(ind):].startswith(("else:", "elif ", "except", "finally:")):
            continue
        ok.append(i)
    body.insert(g.pick(ok), stmt)


def cpp_params(g, n=None):
    n = g.randint(1, 5) if n is None else n
    return ", ".join("%s %s" % (g.pick(CPP_TYPES), snake(g, 1, 2) if g.chance(0.5) else local(g)) for _ in range(n))


def cpp_function(g, out, cls=None, legacy_stmts=()):
    k = g.r()
    name = camel(g, 2, 3)
    rtype = g.pick(("void", "bool", "int64_t", "std::string", "std::vector<int64_t>", "phi::DDim"))
    if cls:
        out.append("%s %s::%s(%s)%s {" % (rtype, cls, name, cpp_params(g), g.pick(("", " const"))))
    elif k < 0.35:
        out.append("template <typename T, typename Context>")
        out.append("void %sKernel(const Context& dev_ctx," % name)
        for _ in range(g.randint(1, 3)):
            out.append("    %s %s," % (g.pick(("const DenseTensor&", "const paddle::optional<DenseTensor>&", "int", "float", "bool", "const std::vector<int64_t>&")), snake(g, 1, 2)))
        out.append("    DenseTensor* out) {")
        rtype = "void"
    else:
        out.append("%s%s %s(%s) {" % (g.pick(("", "static ", "inline ")), rtype, name, cpp_params(g)))
    body = []
    cpp_stmts(g, body, "  ", g.randint(2, 12))
    for s in legacy_stmts:
        insert_stmt(g, body, s, "  ", "cpp")
    out.extend(body)
    if rtype != "void":
        out.append("  return %s;" % cpp_expr(g, 1))
    out.append("}")
    out.append("")


def cpp_class(g, out, header):
    name = camel(g, 2, 3)
    out.append("// %s" % sentence(g))
    base = g.pick(("", "", " : public %s" % camel(g, 1, 2), " : public framework::OperatorWithKernel",
                   " : public phi::KernelContext"))
    out.append("class %s%s {" % (name, base))
    out.append(" public:")
    out.append("  %s() = default;" % name)
    if g.chance(0.6):
        out.append("  explicit %s(%s);" % (name, cpp_params(g, g.randint(1, 3))))
    out.append("  virtual ~%s() = default;" % name)
    out.append("")
    members = [(g.pick(CPP_TYPES[:13]), snake(g, 1, 2) + "_") for _ in range(g.randint(1, 6))]
    for _ in range(g.randint(2, 8)):
        if header and g.chance(0.4):
            t, m = g.pick(members)
            mname = camel(g, 1, 2)
            out.append("  %s %s() const { return %s; }" % (t.replace("const ", "").replace("&", ""), mname, m))
        else:
            out.append("  %s %s(%s)%s;" % (g.pick(("void", "bool", "int64_t", "std::string", "phi::DDim")), camel(g, 2, 3), cpp_params(g), g.pick(("", " const", " override"))))
    out.append("")
    out.append(" private:")
    for t, m in members:
        t = t.replace("const ", "").replace("&", "")
        out.append("  %s %s;" % (t, m))
    out.append("};")
    out.append("")
    return name


def cuda_kernel(g, out):
    name = camel(g, 2, 3) + "CUDAKernel"
    out.append("template <typename T>")
    out.append("__global__ void %s(const T* x, T* out, int64_t n) {" % name)
    out.append("  CUDA_KERNEL_LOOP_TYPE(i, n, int64_t) {")
    for _ in range(g.randint(1, 4)):
        out.append("    T %s = x[i] %s static_cast<T>(%d);" % (local(g), g.pick("+-*"), g.randint(1, 9)))
    out.append("    out[i] = %s;" % g.pick(("x[i]", "static_cast<T>(0)", "x[i] * x[i]")))
    out.append("  }")
    out.append("}")
    out.append("")
    out.append("template <typename T, typename Context>")
    out.append("void %sKernel(const Context& dev_ctx, const DenseTensor& x, DenseTensor* out) {" % name[:-10])
    out.append("  int64_t numel = x.numel();")
    out.append("  auto config = phi::backends::gpu::GetGpuLaunchConfig1D(dev_ctx, numel);")
    out.append("  %s<T><<<config.block_per_grid, config.thread_per_block, 0, dev_ctx.stream()>>>(" % name)
    out.append("      x.data<T>(), dev_ctx.template Alloc<T>(out), numel);")
    out.append("}")
    out.append("")


def gen_cpp(g, e, plan, target, lang_ext):
    """lang_ext: h, cc, cu."""
    out = license_lines(g, "// ")
    header = lang_ext == "h"
    if header:
        out.append("#pragma once")
        out.append("")
    legacy = e["legacy"]
    trap = e["trap"]
    # legacy budget: number of keyword lines to plant
    inc = []
    if lang_ext != "h" and g.chance(0.7):
        inc.append('#include "%s"' % (e["path"].rsplit(".", 1)[0] + ".h"))
    for _ in range(g.randint(1, 5)):
        inc.append("#include %s" % g.pick(SYS_HEADERS))
    if g.chance(0.3):
        inc.append("#include %s" % g.pick(THIRD_PARTY_HEADERS))
    headers = plan["headers"]
    if headers:
        for _ in range(g.randint(1, 8)):
            inc.append('#include "%s"' % g.pick(headers))
    pending = []   # (kind, text, kwlines)
    if legacy:
        want = legacy
        while want > 0:
            kind, t = pick_cpp_legacy(g, e["path"])
            t = fill(g, t, "  " if kind in ("stmt", "comment") else "")
            c = count_kw_lines(t)
            if c == 0:
                continue
            pending.append((kind, t))
            want -= c
    for _ in range(e.get("bs", 0)):
        kind, t = g.pick(CPP_BS)
        pending.append((kind, fill(g, t, "  " if kind == "stmt" else "")))
    for _ in range(e.get("noise", 0)):
        kind, t = g.pick(CPP_NOISE)
        pending.append((kind, fill(g, t, "  " if kind == "stmt" else "")))
    if trap == 9:
        pending.append(("stmt", fill(g, CPP_RARE_TRAP, "  ")))
    elif trap:
        for _ in range(trap):
            pending.append(("stmt", fill(g, g.pick(CPP_TRAPS), "  ")))
    for kind, t in pending:
        if kind == "inc":
            inc.append(t)
    out.extend(inc)
    out.append("")
    ns = g.pick(("framework", "phi", "operators", "platform", "inference", "distributed", "cinn", "pir", "imperative", "memory"))
    out.append("namespace paddle {")
    out.append("namespace %s {" % ns)
    if g.chance(0.4):
        out.append("namespace %s {" % g.pick(("details", "funcs", "detail", "ir", "internal")))
        inner = True
    else:
        inner = False
    out.append("")
    decls = [t for kind, t in pending if kind == "decl"]
    stmts = [t for kind, t in pending if kind in ("stmt", "comment")]
    size = sum(len(x) + 1 for x in out) + sum(len(x) + 1 for x in decls) + sum(len(x) + 1 for x in stmts)
    units = []
    cls = None
    while size < target or stmts or decls:
        u = []
        k = g.r()
        take = []
        before = (len(stmts), len(decls))
        if stmts and (size >= target or g.chance(0.3)):
            take = [stmts.pop()]
            if stmts and g.chance(0.3):
                take.append(stmts.pop())
        if decls and (size >= target or g.chance(0.25)):
            u.append(decls.pop())
            u.append("")
        elif take:
            cpp_function(g, u, cls if (not header and cls and g.chance(0.5)) else None, take)
            take = []
        elif lang_ext == "cu" and k < 0.35:
            cuda_kernel(g, u)
        elif header and k < 0.45:
            cpp_class(g, u, True)
        elif not header and k < 0.12:
            cls = cpp_class(g, u, False)
        elif k < 0.2:
            u.append("/**")
            for _ in range(g.randint(1, 6)):
                u.append(" * %s" % sentence(g))
            u.append(" */")
        elif k < 0.25:
            en = camel(g, 1, 2)
            u.append("enum class %s : int {" % en)
            for i in range(g.randint(2, 7)):
                u.append("  k%s = %d," % (camel(g, 1, 2), i))
            u.append("};")
            u.append("")
        elif k < 0.3:
            u.append("constexpr %s k%s = %s;" % (g.pick(("int", "int64_t", "float", "const char*")), camel(g, 2, 2),
                                                 '"%s"' % snake(g) if g.chance(0.3) else str(g.randint(1, 4096))))
            u.append("")
        elif header:
            out_fn = []
            cpp_function(g, out_fn, None, take)
            u.extend(out_fn)
            take = []
        else:
            cpp_function(g, u, cls if (cls and g.chance(0.5)) else None, take)
            take = []
        if take:
            stmts.extend(take)
        usz = sum(len(x) + 1 for x in u)
        if (not stmts and not decls and (len(stmts), len(decls)) == before
                and size + usz - target > target - size):
            break   # this plain unit would overshoot more than leaving it out undershoots
        size += usz
        units.extend(u)
    out.extend(units)
    if inner:
        out.append("}  // namespace")
    out.append("}  // namespace %s" % ns)
    out.append("}  // namespace paddle")
    if lang_ext in ("cc", "cu") and g.chance(0.4):
        out.append("")
        kn = snake(g, 1, 3)
        out.append("PD_REGISTER_KERNEL(%s," % kn)
        out.append("                   %s," % ("GPU" if lang_ext == "cu" else "CPU"))
        out.append("                   ALL_LAYOUT,")
        out.append("                   phi::%sKernel," % _camel_of(kn))
        tys = [g.pick(CPP_SCALAR_TYPES) for _ in range(g.randint(1, 4))]
        out.append("                   %s) {}" % ",\n                   ".join(tys))
    out.append("")
    return "\n".join(out)


# ----------------------------------------------------------------------------------------------
# Python


def py_expr(g, depth=0):
    k = g.r()
    if k < 0.15:
        return str(g.randint(0, 256)) if g.chance(0.6) else "%.3f" % g.r()
    if k < 0.3:
        return local(g)
    if k < 0.5 and depth < 2:
        return "%s(%s)" % (g.pick(PY_FNS), ", ".join(py_expr(g, depth + 1) for _ in range(g.randint(1, 3))))
    if k < 0.58:
        return "'%s'" % snake(g, 1, 3)
    if k < 0.66:
        return "[%s]" % ", ".join(str(g.randint(1, 64)) for _ in range(g.randint(1, 4)))
    if k < 0.72 and depth < 2:
        return "{'%s': %s, '%s': %s}" % (snake(g, 1, 2), py_expr(g, depth + 1), snake(g, 1, 2), py_expr(g, depth + 1))
    if k < 0.8:
        return "self.%s" % snake(g, 1, 2)
    if k < 0.88 and depth < 2:
        return "%s %s %s" % (py_expr(g, depth + 1), g.pick(("+", "-", "*", "/", "//", "%")), py_expr(g, depth + 1))
    if k < 0.94:
        return "f\"%s {%s}\"" % (sentence(g, 2, 4)[:-1], local(g))
    return "%s.%s" % (local(g), snake(g, 1, 2))


def _py_block(g, out, ind, n, depth, in_test):
    start = len(out)
    py_stmts(g, out, ind, n, depth, in_test)
    if all(line.lstrip().startswith("#") for line in out[start:]):
        out.append(ind + "pass")


def py_cond(g):
    k = g.r()
    v = local(g)
    if k < 0.25:
        return "%s is None" % v
    if k < 0.4:
        return "%s is not None and %s" % (v, local(g))
    if k < 0.55:
        return "not %s" % v
    if k < 0.75:
        return "%s %s %s" % (v, g.pick(("==", ">", "<", ">=", "!=")), py_expr(g, 1))
    return "%s in %s" % (py_expr(g, 2), local(g))


def py_stmts(g, out, ind, n, depth=0, in_test=False):
    for _ in range(n):
        k = g.r()
        if depth < 2 and k < 0.09:
            out.append("%sfor %s in range(%s):" % (ind, g.pick(("i", "j", "idx", "step")), py_expr(g, 1)))
            _py_block(g, out, ind + "    ", g.randint(1, 3), depth + 1, in_test)
        elif depth < 2 and k < 0.18:
            out.append("%sif %s:" % (ind, py_cond(g)))
            _py_block(g, out, ind + "    ", g.randint(1, 3), depth + 1, in_test)
            if g.chance(0.3):
                out.append(ind + "else:")
                _py_block(g, out, ind + "    ", g.randint(1, 2), depth + 1, in_test)
        elif depth < 1 and k < 0.22:
            out.append("%swith paddle.static.program_guard(%s, %s):" % (ind, local(g), local(g)))
            _py_block(g, out, ind + "    ", g.randint(1, 4), depth + 1, in_test)
        elif k < 0.45:
            out.append("%s%s = %s" % (ind, local(g), py_expr(g)))
        elif k < 0.58:
            out.append("%s%s(%s)" % (ind, g.pick(PY_FNS) if g.chance(0.5) else "self." + snake(g, 1, 2),
                                     ", ".join(py_expr(g, 1) for _ in range(g.randint(0, 3)))))
        elif k < 0.66 and in_test:
            out.append("%snp.testing.assert_allclose(%s, %s, rtol=1e-05)" % (ind, local(g), local(g)))
        elif k < 0.72 and in_test:
            out.append("%sself.assert%s(%s, %s)" % (ind, g.pick(("Equal", "True", "AlmostEqual", "IsNotNone")), local(g), py_expr(g, 1)))
        elif k < 0.80:
            out.append("%s# %s" % (ind, sentence(g)))
        elif k < 0.88:
            out.append("%s%s = %s.%s(%s=%s)" % (ind, local(g), local(g), snake(g, 1, 2), snake(g, 1, 2), py_expr(g, 1)))
        elif k < 0.93:
            out.append("%s%s.append(%s)" % (ind, local(g), py_expr(g, 1)))
        else:
            out.append("%sself.%s = %s" % (ind, snake(g, 1, 2), py_expr(g, 1)))


def py_docstring(g, out, ind, legacy_doc=None):
    out.append(ind + '"""')
    out.append(ind + sentence(g))
    if g.chance(0.6):
        out.append("")
        out.append(ind + "Args:")
        for _ in range(g.randint(1, 4)):
            out.append("%s    %s (%s): %s" % (ind, snake(g, 1, 2), g.pick(("Tensor", "int", "str", "bool", "list", "float, optional")), sentence(g)))
        if legacy_doc:
            out.append("%s    %s" % (ind, legacy_doc))
            legacy_doc = None
    if legacy_doc:
        out.append(ind + legacy_doc)
    if g.chance(0.4):
        out.append("")
        out.append(ind + "Examples:")
        out.append(ind + "    .. code-block:: python")
        out.append("")
        out.append(ind + "        >>> import paddle")
        for _ in range(g.randint(1, 4)):
            out.append("%s        >>> %s = %s" % (ind, local(g), py_expr(g, 1)))
    out.append(ind + '"""')


def py_function(g, out, ind, method=False, in_test=False, legacy=(), doc=None):
    if in_test and method:
        name = "test_" + snake(g, 1, 3)
    else:
        name = ("_" if g.chance(0.2) else "") + snake(g, 2, 3)
    args = ["self"] if method else []
    if not (in_test and method):
        seen = []
        for _ in range(g.randint(0, 3)):
            a = snake(g, 1, 2)
            if a not in seen:
                seen.append(a)
        args += [a + ("=%s" % py_expr(g, 2) if g.chance(0.3) else "") for a in seen]
        # defaults must come last
        plain = [a for a in args if "=" not in a]
        dflt = [a for a in args if "=" in a]
        args = plain + dflt
    if method and not in_test and g.chance(0.1):
        if g.chance(0.5):
            out.append(ind + "@property")
            args = ["self"]
        else:
            out.append(ind + "@staticmethod")
            args = args[1:]
    out.append("%sdef %s(%s):" % (ind, name, ", ".join(args)))
    if doc is not None or g.chance(0.35):
        py_docstring(g, out, ind + "    ", doc)
    body = []
    _py_block(g, body, ind + "    ", g.randint(2, 10), 0, in_test)
    for s in legacy:
        insert_stmt(g, body, s, ind + "    ", "py")
    out.extend(body)
    if g.chance(0.4) and not in_test:
        out.append("%s    return %s" % (ind, py_expr(g, 1)))
    out.append("")


def gen_py(g, e, plan, target):
    out = license_lines(g, "# ")
    is_test = "/test" in ("/" + e["path"]) and e["path"].rsplit("/", 1)[-1].startswith("test_")
    imports = []
    for _ in range(g.randint(1, 5)):
        imports.append("import %s" % g.pick(PY_STD))
    if is_test:
        imports.append("import unittest")
    imports.append("import numpy as np")
    imports.append("import paddle")
    for _ in range(g.randint(0, 3)):
        m = g.pick(PY_MODULES)
        if g.chance(0.5):
            imports.append("from %s import %s" % (m.rsplit(".", 1)[0] if "." in m else m, snake(g, 1, 2)))
        else:
            imports.append("import %s" % m)
    legacy = e["legacy"]
    trap = e["trap"]
    decls, stmts, docs = [], [], []
    if legacy:
        want = legacy
        while want > 0:
            k = g.r()
            if k < 0.15:
                t = fill(g, g.pick(PY_LEGACY_DECLS))
                decls.append(t)
            elif k < 0.75:
                t = g.pick(PY_LEGACY_STMTS)
                stmts.append(t)
            elif k < 0.9:
                t = g.pick(PY_LEGACY_COMMENTS)
                stmts.append(t)
            else:
                t = g.pick(PY_LEGACY_DOC)
                docs.append(t)
            want -= max(1, count_kw_lines(t.replace("{", "").replace("}", "")))
    for _ in range(trap):
        stmts.append(g.pick(PY_TRAPS))
    for _ in range(e.get("bs", 0)):
        stmts.append(g.pick(PY_BS))
    for _ in range(e.get("noise", 0)):
        stmts.append(g.pick(PY_NOISE))
    out.extend(imports)
    out.append("")
    size = sum(len(x) + 1 for x in out) + sum(len(x) for x in decls) + sum(len(x) for x in stmts)
    units = []
    while size < target or stmts or decls or docs:
        u = []
        k = g.r()
        before = (len(stmts), len(decls), len(docs))
        if decls and (size >= target or g.chance(0.3)):
            u.extend(decls.pop().split("\n"))
            u.append("")
            u.append("")
        elif k < 0.4 or (size >= target and (stmts or docs)):
            base = "unittest.TestCase" if is_test else g.pick(("paddle.nn.Layer", "object", camel(g, 1, 2), "OpTest"))
            cname = ("Test" if is_test else "") + camel(g, 2, 3)
            u.append("class %s(%s):" % (cname, base))
            if g.chance(0.5) or docs:
                py_docstring(g, u, "    ", docs.pop() if docs else None)
                u.append("")
            if is_test and g.chance(0.6):
                u.append("    def setUp(self):")
                _py_block(g, u, "        ", g.randint(2, 6), 0, False)
                u.append("")
            for _ in range(g.randint(1, 5)):
                take = []
                if stmts and (size >= target or g.chance(0.3)):
                    take.append(fill(g, stmts.pop(), "        "))
                py_function(g, u, "    ", True, is_test, take, docs.pop() if docs else None)
            u.append("")
        elif k < 0.85:
            take = []
            if stmts and g.chance(0.3):
                take.append(fill(g, stmts.pop(), "    "))
            py_function(g, u, "", False, False, take, docs.pop() if docs else None)
            u.append("")
        else:
            u.append("%s = %s" % (snake(g, 2, 3).upper(), py_expr(g)))
            u.append("")
        usz = sum(len(x) + 1 for x in u)
        if (not stmts and not decls and not docs and (len(stmts), len(decls), len(docs)) == before
                and size + usz - target > target - size):
            break
        size += usz
        units.extend(u)
    out.extend(units)
    if is_test:
        out.append("")
        out.append("if __name__ == '__main__':")
        out.append("    unittest.main()")
    out.append("")
    return "\n".join(out)


# ----------------------------------------------------------------------------------------------
# CMake, proto, Markdown, shell, YAML, pbtxt, plain text, patches


def gen_cmake(g, e, plan, target):
    out = []
    legacy = e["legacy"]
    pend = []
    want = legacy
    while want > 0:
        t = fill(g, g.pick(CMAKE_LEGACY))
        pend.append(t)
        want -= max(1, count_kw_lines(t))
    for _ in range(e["trap"]):
        pend.append(fill(g, g.pick(CMAKE_TRAPS)))
    for _ in range(e.get("bs", 0)):
        pend.append(fill(g, g.pick(CMAKE_BS)))
    for _ in range(e.get("noise", 0)):
        pend.append(fill(g, g.pick(CMAKE_NOISE)))
    size = 0
    while size < target or pend:
        u = []
        k = g.r()
        before = len(pend)
        if pend and (size >= target or g.chance(0.3)):
            u.extend(pend.pop().split("\n"))
        elif k < 0.25:
            name = snake(g, 1, 3)
            srcs = " ".join(snake(g, 1, 3) + ".cc" for _ in range(g.randint(1, 3)))
            deps = " ".join(snake(g, 1, 2) for _ in range(g.randint(1, 8)))
            u.append("%s(\n  %s\n  SRCS %s\n  DEPS %s)" % (g.pick(("cc_library", "cc_test", "nv_library", "paddle_test", "cc_library")), name, srcs, deps))
        elif k < 0.4:
            var = snake(g, 1, 3).upper()
            u.append("set(%s" % var)
            for _ in range(g.randint(1, 8)):
                u.append("    %s" % snake(g, 1, 3) + g.pick(("", ".cc", ".cu")))
            u[-1] += ")"
        elif k < 0.55:
            u.append("if(%s)" % g.pick(("WITH_GPU", "WITH_ROCM", "WITH_XPU", "WITH_DISTRIBUTE", "WITH_ONEDNN", "WITH_CINN", "WIN32", "APPLE", "WITH_TESTING")))
            for _ in range(g.randint(1, 4)):
                u.append("  %s(%s %s)" % (g.pick(("list(APPEND", "set(")).rstrip("("), snake(g, 1, 2).upper(), snake(g, 1, 2)))
            if g.chance(0.3):
                u.append("else()")
                u.append("  set(%s OFF)" % snake(g, 1, 2).upper())
            u.append("endif()")
        elif k < 0.65:
            t = "test_" + snake(g, 1, 3)
            u.append("py_test_modules(%s MODULES %s ENVS FLAGS_%s=1)" % (t, t, snake(g, 2, 2)))
            u.append("set_tests_properties(%s PROPERTIES TIMEOUT %d)" % (t, g.randint(1, 30) * 10))
        elif k < 0.72:
            u.append('file(\n  GLOB TEST_OPS\n  RELATIVE "${CMAKE_CURRENT_SOURCE_DIR}"\n  "test_*.py")')
            u.append('string(REPLACE ".py" "" TEST_OPS "${TEST_OPS}")')
            u.append("foreach(TEST_OP ${TEST_OPS})\n  py_test_modules(${TEST_OP} MODULES ${TEST_OP})\nendforeach()")
        elif k < 0.8:
            u.append("add_subdirectory(%s)" % snake(g, 1, 2))
        elif k < 0.88:
            u.append("# %s" % sentence(g))
        else:
            u.append("list(REMOVE_ITEM TEST_OPS test_%s)" % snake(g, 1, 3))
        u.append("")
        usz = sum(len(x) + 1 for x in u)
        if not pend and before == 0 and size + usz - target > target - size:
            break
        size += usz
        out.extend(u)
    return "\n".join(out)


def gen_proto(g, e, plan, target):
    out = ["// Copyright (c) %d PaddlePaddle Authors. All Rights Reserved." % g.randint(2016, 2024), "",
           'syntax = "proto2";', "package paddle.%s;" % snake(g, 1, 1), ""]
    pend = []
    want = e["legacy"]
    field_plants = 0
    while want > 0:
        if g.chance(0.5):
            t = PROTO_LEGACY[0].format()
            pend.append(t)
            want -= count_kw_lines(t)
        else:
            field_plants += 1
            want -= 1
    size = sum(len(x) + 1 for x in out)
    while size < target or pend or field_plants:
        u = []
        if pend and (size >= target or g.chance(0.4)):
            u.extend(pend.pop().split("\n"))
        else:
            u.append("message %s {" % camel(g, 1, 3))
            for i in range(1, g.randint(2, 14)):
                u.append("  %s %s %s = %d%s;" % (g.pick(("optional", "optional", "repeated")),
                                                 g.pick(("int32", "int64", "bool", "string", "float", "double", camel(g, 1, 2))),
                                                 snake(g, 1, 3), i,
                                                 " [ default = %s ]" % g.pick(("1", "false", "true", "0")) if g.chance(0.25) else ""))
            if field_plants:
                field_plants -= 1
                u.append(PROTO_LEGACY_FIELD.format(k=g.randint(100, 299)))
            u.append("}")
        u.append("")
        size += sum(len(x) + 1 for x in u)
        out.extend(u)
    return "\n".join(out)


def gen_text_like(g, e, plan, target, kind):
    out = []
    pend = []
    want = e["legacy"]
    while want > 0:
        pend.append(fill(g, g.pick(TEXT_LEGACY)))
        want -= 1
    for _ in range(e["trap"]):
        pend.append(g.pick(TEXT_TRAPS))
    if kind == "sh":
        out += ["#!/bin/bash", ""] + license_lines(g, "# ") + ["set -ex", ""]
    size = sum(len(x) + 1 for x in out)
    while size < target or pend:
        u = []
        before = len(pend)
        extra = pend.pop() if pend and g.chance(0.4) else None
        if kind == "md":
            k = g.r()
            if k < 0.15:
                u.append("%s %s" % ("#" * g.randint(1, 3), sentence(g, 2, 5)[:-1]))
            elif k < 0.55:
                u.append(" ".join(sentence(g) for _ in range(g.randint(1, 5))))
            elif k < 0.8:
                for _ in range(g.randint(2, 6)):
                    u.append("- %s" % sentence(g, 3, 9))
            else:
                u.append("```bash")
                for _ in range(g.randint(1, 4)):
                    u.append("python -m %s --%s=%d" % (snake(g, 1, 2), snake(g, 1, 2), g.randint(1, 64)))
                u.append("```")
            if extra:
                u.append(extra if extra.startswith("- ") else "- " + extra)
        elif kind == "sh":
            k = g.r()
            if k < 0.3:
                fn = snake(g, 2, 3)
                u.append("function %s() {" % fn)
                for _ in range(g.randint(1, 8)):
                    u.append("    %s" % g.pick(("echo \"%s\"" % sentence(g, 2, 6), "export %s=%d" % (snake(g, 2, 2).upper(), g.randint(0, 9)),
                                                 "python ${PADDLE_ROOT}/tools/%s.py" % snake(g), "cd ${PADDLE_ROOT}/build",
                                                 "ctest -R %s --output-on-failure" % snake(g))))
                u.append("}")
            elif k < 0.5:
                u.append("if [ \"${%s}\" == \"ON\" ]; then" % snake(g, 2, 2).upper())
                u.append("    %s" % "cmake .. -DWITH_%s=ON" % g.pick(("GPU", "TESTING", "DISTRIBUTE")))
                u.append("fi")
            elif k < 0.7:
                u.append("for %s in ${%s}; do" % (snake(g, 1, 1), snake(g, 2, 2).upper()))
                u.append("    echo \"%s: $%s\"" % (sentence(g, 1, 3)[:-1], snake(g, 1, 1)))
                u.append("done")
            else:
                u.append("# %s" % sentence(g))
            if extra:
                u.append(extra if extra.startswith(("#", "grep")) else "echo \"%s\"" % extra)
        elif kind == "yaml":
            op = snake(g, 1, 3)
            u.append("- op : %s" % op)
            u.append("  args : (Tensor x, %s %s)" % (g.pick(("int", "float", "bool", "int[]")), snake(g, 1, 2)))
            u.append("  output : Tensor(out)")
            u.append("  infer_meta :")
            u.append("    func : %sInferMeta" % camel(g, 1, 2))
            u.append("  kernel :")
            u.append("    func : %s" % op)
            if extra:
                u.append("  # %s" % extra)
        elif kind == "pbtxt":
            u.append('type: "%s"' % snake(g, 1, 2))
            u.append("def {")
            for _ in range(g.randint(1, 4)):
                u.append("  inputs {\n    name: \"%s\"\n  }" % camel(g, 1, 1))
            u.append("}")
        elif kind == "patch":
            f = snake(g) + ".h"
            u.append("--- a/%s\n+++ b/%s\n@@ -%d,%d +%d,%d @@" % (f, f, g.randint(1, 500), 6, g.randint(1, 500), 7))
            for _ in range(g.randint(3, 8)):
                u.append("%s  %s(%s);" % (g.pick(" +-"), camel(g), local(g)))
        else:  # txt, in, none, misc
            k = g.r()
            if k < 0.5:
                u.append("%s=%s" % (snake(g, 1, 2).upper(), g.pick(("ON", "OFF", "1", "0", snake(g)))))
            else:
                u.append(sentence(g))
            if extra:
                u.append(extra)
        u.append("")
        usz = sum(len(x) + 1 for x in u)
        if not pend and before == 0 and size + usz - target > target - size:
            break
        size += usz
        out.extend(u)
    return "\n".join(out)


def gen_binary(g, e, plan, target):
    # PNG-looking bytes
    b = bytearray(b"\x89PNG\r\n\x1a\n")
    while len(b) < target:
        b += int(g.r() * (1 << 62)).to_bytes(8, "little")
    return bytes(b[:max(16, target)])


# ----------------------------------------------------------------------------------------------
# Tree plan

# (area, real file count, ext weights, number of dirs, top-level subdirs, max extra depth)
AREAS = [
    ("paddle/fluid", 3434, {"cc": 1595, "h": 1317, "cu": 143, "CMakeLists.txt": 121, "pbtxt": 69, "py": 42, "proto": 18, "j2": 16, "cu.cc": 30},
     184, "framework operators pybind platform inference distributed memory imperative eager pir primitive jit prim ir_adaptor sub_graph", 6),
    ("paddle/phi", 3429, {"h": 1478, "cc": 1250, "cu": 578, "CMakeLists.txt": 41, "py": 23, "yaml": 14, "cpp": 11, "xpu": 10, "kps": 9, "cuh": 12},
     114, "kernels core api infermeta backends common capi tools", 6),
    ("paddle/cinn", 1218, {"cc": 662, "h": 472, "CMakeLists.txt": 68, "md": 5, "proto": 4, "cu": 3, "cuh": 1},
     71, "adt api ast_gen_ius auto_schedule backends common frontend hlir ir lang operator_fusion optim poly pybind runtime utils", 3),
    ("paddle/pir", 140, {"h": 79, "cc": 60, "CMakeLists.txt": 1}, 15, "include src", 3),
    ("paddle", 77, {"h": 36, "cc": 9, "sh": 8, "CMakeLists.txt": 5, "py": 3, "bat": 3, "": 3, "md": 2},
     12, "common utils scripts testing extension", 1),
    ("python/paddle", 1007, {"py": 999, "": 6, "md": 1, "json": 1},
     160, "base static distributed nn tensor incubate jit optimizer amp autograd io vision framework quantization profiler utils hapi sparse decomposition pir inference", 5),
    ("python", 7, {"in": 3, "txt": 1, "py": 1, "CMakeLists.txt": 1, "": 1}, 1, "", 0),
    ("test/legacy_test", 853, {"py": 839, "sh": 12, "cc": 1, "CMakeLists.txt": 1}, 1, "", 0),
    ("test/deprecated", 743, {"py": 663, "CMakeLists.txt": 38, "cc": 30, "yaml": 7, "h": 2, "cu": 1, "sh": 1}, 39,
     "legacy_test ir book collective custom_op prim quantization standalone_executor", 2),
    ("test/ir", 601, {"py": 588, "CMakeLists.txt": 12, "": 1}, 13, "inference pir", 2),
    ("test/cpp", 506, {"cc": 367, "CMakeLists.txt": 61, "h": 39, "cu": 29, "cmake": 3, "py": 3, "md": 2, "txt": 1},
     67, "fluid phi pir inference eager prim imperative jit", 2),
    ("test/auto_parallel", 320, {"py": 312, "CMakeLists.txt": 5, "csv": 1, "cu": 1, "cc": 1}, 5, "spmd_rules pir hybrid_strategy", 1),
    ("test/collective", 299, {"py": 282, "sh": 8, "csv": 4, "CMakeLists.txt": 4, "md": 1}, 4, "fleet multinode", 1),
    ("test/cinn", 214, {"py": 213, "CMakeLists.txt": 1}, 10, "ops passes fusion", 1),
    ("test/xpu", 213, {"py": 210, "CMakeLists.txt": 2, "cc": 1}, 2, "cpp", 1),
    ("test/dygraph_to_static", 131, {"py": 129, "CMakeLists.txt": 1, "yaml": 1}, 1, "", 0),
    ("test/ipu", 123, {"py": 111, "cc": 7, "CMakeLists.txt": 3, "md": 1, "sh": 1}, 4, "custom_ops distributed", 1),
    ("test/mkldnn", 85, {"py": 84, "CMakeLists.txt": 1}, 1, "", 0),
    ("test/sot", 70, {"py": 69, "CMakeLists.txt": 1}, 1, "", 0),
    ("test/prim", 62, {"py": 51, "CMakeLists.txt": 10, "txt": 1}, 10, "composite_ops prim model", 2),
    ("test", 285, {"py": 216, "cc": 23, "CMakeLists.txt": 22, "yaml": 7, "": 4, "sh": 4, "cu": 4, "h": 2},
     23, "amp asp autograd book contrib cpp_extension custom_kernel custom_op custom_runtime dataset distributed_passes distribution fft indexing ps quantization rnn rpc sequence standalone_executor tokenizer white_list", 1),
    ("tools", 145, {"py": 70, "sh": 44, "md": 2, "": 6, "txt": 2, "hook": 1, "bat": 1, "ubuntu20": 2, "cc": 1},
     13, "dockerfile cinn coverage codestyle CrossStackProfiler enforce windows xpu auto_parallel externalError", 2),
    ("cmake", 102, {"cmake": 95, "py": 3, "in": 2, "props": 1, "map": 1}, 5, "external cinn experiments", 1),
    ("security", 53, {"md": 53}, 2, "advisory", 1),
    ("", 23, {"md": 11, "": 7, "py": 2, "yaml": 1, "CMakeLists.txt": 1, "toml": 1}, 1, "", 0),
    ("patches", 21, {"patch": 14, "h": 4, "inl": 2, "CMakeLists.txt": 1}, 9, "eigen thrust gloo warpctc warprnnt gtest rocksdb pybind cccl", 2),
    (".github", 8, {"yml": 6, "md": 1, "": 1}, 2, "ISSUE_TEMPLATE", 1),
    ("r", 5, {"md": 2, "": 1, "r": 1, "py": 1}, 2, "example", 1),
    ("doc", 2, {"md": 1, "png": 1}, 2, "imgs", 1),
]

# per-extension size model: (median bytes, sigma) fitted to the reference tree
SIZE_MODEL = {
    "py": (4784, 1.08), "cc": (4367, 1.11), "h": (2345, 1.26), "cu": (4274, 1.26), "cu.cc": (4274, 1.2),
    "CMakeLists.txt": (498, 1.65), "cmake": (3004, 0.9), "md": (1043, 1.47), "sh": (2387, 1.04),
    "pbtxt": (612, 0.38), "yaml": (1691, 2.3), "proto": (2004, 1.26), "j2": (1737, 1.2), "cpp": (5991, 0.5),
    "patch": (544, 1.1), "cuh": (10869, 1.1), "in": (790, 1.9), "xpu": (8464, 0.27), "kps": (1512, 1.8),
    "": (300, 1.6), "txt": (354, 1.8), "png": (60000, 0.5),
}
DEFAULT_SIZE = (1500, 1.2)
MAX_FILE = 600_000



def lang_of(ext):
    if ext in ("cc", "cu.cc", "cpp", "xpu", "kps", "j2", "inl"):
        return "cc"
    if ext in ("h", "cuh"):
        return "h"
    if ext == "cu":
        return "cu"
    if ext == "py":
        return "py"
    if ext in ("CMakeLists.txt", "cmake"):
        return "cmake"
    if ext == "proto":
        return "proto"
    if ext == "png":
        return "bin"
    if ext in ("md", "sh", "yaml", "yml", "pbtxt", "patch", "bat"):
        return {"yml": "yaml", "bat": "sh"}.get(ext, ext)
    return "text"


def file_name(g, ext, area, dirpath, stems):
    if ext == "CMakeLists.txt":
        return "CMakeLists.txt"
    base = area.split("/")[0] if area else ""
    if ext == "py":
        if base == "test" or "tests" in dirpath:
            stem = "test_" + snake(g, 1, 4)
        elif g.chance(0.08):
            stem = "__init__"
        else:
            stem = snake(g, 1, 3)
    elif ext in ("cc", "cu", "h", "cuh", "cu.cc", "xpu", "kps", "cpp"):
        if ext == "h" and stems and g.chance(0.6):
            stem = g.pick(stems)
        else:
            stem = snake(g, 1, 3) + g.pick(("", "", "_op", "_kernel", "_pass", "_utils", "_grad_kernel", "_test" if base == "test" else ""))
    elif ext == "":
        return g.pick(("LICENSE", "OWNERS", "Dockerfile", "CODEOWNERS", "VERSION", "BUILD", "README", "build_" + snake(g, 1, 1)))
    elif ext == "md":
        stem = g.pick(("README", "design_" + snake(g, 1, 2), "pdsa-%d-%03d" % (g.randint(2022, 2024), g.randint(1, 99)), snake(g, 1, 2)))
    else:
        stem = snake(g, 1, 3)
    return stem + "." + ext


def make_plan(nfiles, seed, scale):
    g = R(seed * 7919 + 17)
    total_real = sum(a[1] for a in AREAS)
    # largest remainder apportionment of nfiles to areas
    quotas = [a[1] * nfiles / total_real for a in AREAS]
    counts = [int(q) for q in quotas]
    rem = sorted(range(len(AREAS)), key=lambda i: (-(quotas[i] - counts[i]), i))
    for i in rem[: nfiles - sum(counts)]:
        counts[i] += 1

    entries = []
    used = set()
    for ai, (area, _real, exts, ndirs, subdirs, maxdepth) in enumerate(AREAS):
        n = counts[ai]
        if n == 0:
            continue
        ndirs = max(1, round(ndirs * max(nfiles / total_real, 0.05)))
        # directory tree
        dirs = [(area, 0)]
        for s in subdirs.split():
            if len(dirs) >= ndirs:
                break
            dirs.append((area + "/" + s if area else s, 1))
        if area == "paddle/fluid":
            for s in ("framework/details", "framework/ir", "framework/ir/multi_devices_graph_pass",
                      "framework/ir/memory_optimize_pass", "framework/new_executor"):
                dirs.append((area + "/" + s, s.count("/") + 1))
        while len(dirs) < ndirs:
            cands = [(d, lv) for d, lv in dirs if lv < maxdepth]
            if not cands:
                break
            w = [(i, 0.5 ** cands[i][1] if cands[i][1] else 0.2) for i in range(len(cands))]
            d, lv = cands[g.weighted(w)]
            name = snake(g, 1, 2)
            nd = d + "/" + name if d else name
            if any(x[0] == nd for x in dirs):
                continue
            dirs.append((nd, lv + 1))
        ext_items = sorted(exts.items(), key=lambda kv: (-kv[1], kv[0]))
        cm_left = exts.get("CMakeLists.txt", 0) * n / _real
        cm_dirs = set()
        stems = {}
        # files prefer deeper-but-not-deepest dirs: weight by (1 + lv)
        root_w = 0.3
        if area and "/" not in area and area != "paddle":   # tools/, cmake/, patches/ ...: many files at the top
            root_w = 1.0 * sum(1 for d in dirs if d[1] == 1)
        dir_w = [(i, (root_w, 3.0, 1.0)[min(dirs[i][1], 2)]) for i in range(len(dirs))] if len(dirs) > 1 else [(0, 1.0)]
        made = 0
        guard = 0
        while made < n and guard < n * 50:
            guard += 1
            ext = g.weighted(ext_items)
            if ext == "CMakeLists.txt":
                if cm_left < 0.5:
                    continue    # this area has its CMakeLists.txt files already: draw again
                else:
                    free = [i for i in range(len(dirs)) if i not in cm_dirs]
                    if not free:
                        continue
                    di = free[int(g.r() * len(free))]
                    cm_dirs.add(di)
                    cm_left -= 1
                    d = dirs[di][0]
                    p = (d + "/" if d else "") + "CMakeLists.txt"
                    used.add(p)
                    entries.append({"path": p, "ext": ext})
                    made += 1
                    continue
            di = dirs[g.weighted(dir_w)][0] if len(dirs) > 1 else dirs[0][0]
            st = stems.setdefault(di, [])
            for _try in range(8):   # keep the drawn extension: retry the name on a collision
                name = file_name(g, ext, area, di, st)
                p = (di + "/" if di else "") + name
                if p not in used:
                    break
            if p in used:
                continue
            used.add(p)
            if ext in ("cc", "cu"):
                st.append(name.rsplit(".", 1)[0])
            entries.append({"path": p, "ext": ext})
            made += 1

    # sizes
    tot = 0
    for e in entries:
        med, sig = SIZE_MODEL.get(e["ext"], DEFAULT_SIZE)
        s = int(min(MAX_FILE, max(40, g.lognormal(med, sig))))
        e["size"] = s
        tot += s
    want_total = REAL_BYTES * nfiles / REAL_FILES * scale * 0.975  # generators overshoot ~2.5%
    f = want_total / tot if tot else 1
    for e in entries:
        e["size"] = max(40, int(e["size"] * f))
        e["legacy"] = 0
        e["trap"] = 0

    # --- legacy plants --------------------------------------------------------------------
    n_legacy = max(1, round(nfiles * 161 / REAL_FILES))   # + ~4 OpHandler look-alikes = 165 files, as in the real tree
    n_heavy = round(n_legacy * 0.38)
    details = "paddle/fluid/framework/details"
    heavy_names = []
    for x in LEGACY_HANDLES:
        heavy_names += [x + "_op_handle.h", x + "_op_handle.cc"]
    for x in LEGACY_EXECUTORS:
        heavy_names += [x + "_ssa_graph_executor.h", x + "_ssa_graph_executor.cc"]
    heavy_names += ["ssa_graph_executor.h", "ssa_graph_executor.cc", "op_handle_base.h", "op_handle_base.cc",
                    "execution_strategy.h", "scope_buffered_monitor.h", "scope_buffered_monitor.cc"]
    # replace some paddle/fluid source files by the heavy legacy files
    fluid_src = [e for e in entries if e["path"].startswith("paddle/fluid/") and e["ext"] in ("cc", "h")]
    g.shuffle(fluid_src)
    hi = 0
    for e in fluid_src[:n_heavy]:
        if hi < len(heavy_names):
            nm = heavy_names[hi]
        else:
            nm = "%s_op_handle.%s" % (snake(g, 1, 2), g.pick(("h", "cc")))
        hi += 1
        p = details + "/" + nm
        if p in used:
            continue
        used.discard(e["path"])
        used.add(p)
        e["path"] = p
        e["ext"] = nm.rsplit(".", 1)[1]
        e["legacy"] = int(min(110, max(6, g.lognormal(14, 0.8))))
        e["size"] = max(e["size"], int(g.lognormal(14000, 0.6) * scale))
    # light mentions, by category (share, predicate)
    n_light = n_legacy - sum(1 for e in entries if e["legacy"])
    cats = [
        (0.38, lambda e: e["path"].startswith("paddle/fluid/") and e["ext"] == "cc"),
        (0.16, lambda e: e["path"].startswith("paddle/fluid/") and e["ext"] == "h"),
        (0.05, lambda e: e["path"].startswith(("paddle/phi/", "paddle/cinn/")) and e["ext"] in ("cc", "h", "cu")),
        (0.06, lambda e: e["path"].startswith("test/cpp/") and e["ext"] in ("cc", "h")),
        (0.11, lambda e: e["path"].startswith("python/paddle/") and e["ext"] == "py"),
        (0.09, lambda e: e["path"].startswith("test/") and e["ext"] == "py"),
        (0.10, lambda e: e["ext"] == "CMakeLists.txt"),
        (0.01, lambda e: e["ext"] == "proto"),
        (0.02, lambda e: e["path"].startswith("tools/") and e["ext"] in ("py", "sh")),
        (0.02, lambda e: e["ext"] in ("md", "sh")),
    ]
    for share, pred in cats:
        k = round(n_light * share)
        cands = [e for e in entries if not e["legacy"] and pred(e)]
        g.shuffle(cands)
        for e in cands[:k]:
            e["legacy"] = max(1, min(30, int(g.lognormal(3.5, 0.8))))
    short = n_legacy - sum(1 for e in entries if e["legacy"])
    if short > 0:   # rounding left some out (small trees): plant them in C++/Python files
        cands = [e for e in entries if not e["legacy"] and e["ext"] in ("cc", "py")]
        g.shuffle(cands)
        for e in cands[:short]:
            e["legacy"] = max(1, min(30, int(g.lognormal(3.5, 0.8))))
    # PE-only BuildStrategy attributes / passes (not in the keyword list): ~0.3% of the files
    cands = [e for e in entries if lang_of(e["ext"]) in ("cc", "py", "cmake") and
             e["path"].startswith(("paddle/fluid/", "python/paddle/", "test/"))]
    g.shuffle(cands)
    for e in cands[: round(nfiles * 0.003)]:
        e["bs"] = g.randint(1, 6)
    # benign look-alike words (BuildStrategy, num_threads, trainer_id ...): ~2.8% of the files
    for share, langs in ((0.55, ("py",)), (0.27, ("cc",)), (0.12, ("h",)), (0.03, ("cmake",)), (0.03, ("cu",))):
        cands = [e for e in entries if not e["legacy"] and not e.get("bs") and lang_of(e["ext"]) in langs]
        g.shuffle(cands)
        for e in cands[: round(nfiles * 0.028 * share)]:
            e["noise"] = g.randint(1, 4)
    # traps: ~1% of the files, 1-3 look-alikes each; a handful with the rare OpHandler trap
    cands = [e for e in entries if not e["legacy"] and lang_of(e["ext"]) in ("cc", "h", "cu", "py", "cmake", "md", "sh")]
    g.shuffle(cands)
    ntrap = round(nfiles * 0.01)
    for e in cands[:ntrap]:
        e["trap"] = g.randint(1, 3)
    rare = [e for e in cands[ntrap:] if lang_of(e["ext"]) in ("cc", "h")]
    for e in rare[: max(0, round(nfiles * 4 / REAL_FILES))]:
        e["trap"] = 9   # the rare trap that contains "OpHandle" as a substring of OpHandler

    entries.sort(key=lambda e: e["path"])
    headers = [e["path"] for e in entries if e["ext"] == "h" and e["path"].startswith("paddle/")
               and not any(k in e["path"] for k in KEYWORDS)
               and "/multi_devices_graph_pass/" not in e["path"] and "/memory_optimize_pass/" not in e["path"]]
    return entries, headers


# ----------------------------------------------------------------------------------------------
# Worker


_PLAN = None


def _init(plan):
    global _PLAN
    _PLAN = plan


def render(i, e, seed, plan):
    g = R(seed * 1_000_003 + i * 7 + 1)
    lang = lang_of(e["ext"])
    t = e["size"]
    if lang in ("cc", "h", "cu"):
        lx = "h" if lang == "h" else ("cu" if lang == "cu" else "cc")
        return gen_cpp(g, e, plan, t, lx).encode()
    if lang == "py":
        return gen_py(g, e, plan, t).encode()
    if lang == "cmake":
        return gen_cmake(g, e, plan, t).encode()
    if lang == "proto":
        return gen_proto(g, e, plan, t).encode()
    if lang == "bin":
        return gen_binary(g, e, plan, t)
    return gen_text_like(g, e, plan, t, lang).encode()


def work(args):
    lo, hi, outdir, seed = args
    plan = _PLAN
    entries = plan["entries"]
    kwb = [k.encode() for k in KEYWORDS]
    nbytes = 0
    kwfiles = 0
    kwlines = 0
    stray = []
    for i in range(lo, hi):
        e = entries[i]
        data = render(i, e, seed, plan)
        p = os.path.join(outdir, e["path"])
        with open(p, "wb") as f:
            f.write(data)
        nbytes += len(data)
        hit = False
        for k in kwb:
            if k in data:
                hit = True
                break
        if hit:
            kwfiles += 1
            n = 0
            for line in data.split(b"\n"):
                for k in kwb:
                    if k in line:
                        n += 1
                        break
            kwlines += n
            if not e["legacy"] and e["trap"] != 9:
                stray.append(e["path"])
    return nbytes, kwfiles, kwlines, stray


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir", help="directory to create (must be absent or empty unless --force)")
    ap.add_argument("--files", type=int, default=REAL_FILES, help="number of files (default %(default)s)")
    ap.add_argument("--seed", type=int, default=1, help="integer seed (default %(default)s)")
    ap.add_argument("--scale", type=float, default=1.0, help="file size multiplier (default %(default)s: ~110 MB)")
    ap.add_argument("--jobs", type=int, default=min(8, os.cpu_count() or 1),
                    help="worker processes (default %(default)s); the output does not depend on it")
    ap.add_argument("--force", action="store_true", help="remove OUTDIR first")
    ap.add_argument("--quiet", action="store_true", help="no summary on stderr (the JSON line is still printed)")
    a = ap.parse_args()
    if a.files < 1 or a.scale <= 0:
        ap.error("--files must be >= 1 and --scale > 0")
    t0 = time.time()
    out = os.path.abspath(a.outdir)
    if os.path.exists(out):
        if a.force:
            if (os.path.dirname(out) == out or out == os.path.expanduser("~")
                    or os.path.exists(os.path.join(out, ".git"))):
                sys.exit("gen-tree: refusing to remove %s" % out)
            shutil.rmtree(out)
        elif os.listdir(out):
            sys.exit("gen-tree: %s exists and is not empty (use --force)" % out)
    os.makedirs(out, exist_ok=True)
    entries, headers = make_plan(a.files, a.seed, a.scale)
    for d in sorted({os.path.dirname(e["path"]) for e in entries}):
        os.makedirs(os.path.join(out, d), exist_ok=True)
    plan = {"entries": entries, "headers": headers}
    n = len(entries)
    chunk = 64
    tasks = [(lo, min(n, lo + chunk), out, a.seed) for lo in range(0, n, chunk)]
    results = []
    if a.jobs > 1 and n > chunk:
        import multiprocessing as mp
        try:
            ctx = mp.get_context("fork")
        except ValueError:
            ctx = None
        if ctx is not None:
            with ctx.Pool(a.jobs, initializer=_init, initargs=(plan,)) as pool:
                results = pool.map(work, tasks, chunksize=1)
    if not results:
        _init(plan)
        results = [work(t) for t in tasks]
    nbytes = sum(r[0] for r in results)
    kwfiles = sum(r[1] for r in results)
    kwlines = sum(r[2] for r in results)
    stray = [p for r in results for p in r[3]]
    planted = sum(1 for e in entries if e["legacy"])
    traps = sum(1 for e in entries if e["trap"])
    summary = {
        "generator": GEN_VERSION, "seed": a.seed, "files": n, "bytes": nbytes,
        "legacy_files_planted": planted, "files_with_keywords": kwfiles,
        "keyword_fraction": round(kwfiles / n, 5), "keyword_lines": kwlines,
        "trap_files": traps, "unplanned_keyword_files": len(stray), "seconds": round(time.time() - t0, 1),
    }
    if not a.quiet:
        print("gen-tree: %d files, %.1f MB, %d with legacy keywords (%.2f%%, %d lines), %d trap files, %.1fs -> %s"
              % (n, nbytes / 1e6, kwfiles, 100.0 * kwfiles / n, kwlines, traps, time.time() - t0, out), file=sys.stderr)
        if stray:
            print("gen-tree: warning: %d unplanned files contain a keyword, e.g. %s" % (len(stray), stray[:3]), file=sys.stderr)
    print(json.dumps(summary, sort_keys=True))


if __name__ == "__main__":
    main()
