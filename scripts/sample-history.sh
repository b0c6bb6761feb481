#!/bin/sh
# sample-history.sh DIR — build a small git repository in DIR whose first-parent history
# removes legacy usage from testdata/paddle-mini step by step, the way the real cleanup did
# (AsyncExecutor first, then the legacy unit tests, the CINN PE path, ExecutionStrategy ...).
# `make run` uses it for the sample burn-down; the history test replays it. Deterministic:
# fixed author, committer and dates.
set -eu
dest=$1
here=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$dest"
mkdir -p "$dest"
cp -R "$here/testdata/paddle-mini/." "$dest/"
cd "$dest"
month=2024-04
. "$here/scripts/history-commit.sh"
# What the walk decides beyond a file's name (issue 32: history must decide it the same): a
# script known by its shebang, a symlink judged by its target's content (which a later commit
# changes without touching the link), a cache directory (CACHEDIR.TAG) never entered, and one
# that becomes a cache later.
sig='Signature: 8a477f597d28d172789f06886806bc55'
mkdir -p tools/cache_from_start legacy_cache
printf '#!/usr/bin/env python3\nimport paddle.fluid as fluid\n\npe = fluid.ParallelExecutor(use_cuda=False)\n' > tools/run_pe
ln -s ../pybind/data_set_py.cc paddle/fluid/framework/link.cc
printf '%s\n' "$sig" > tools/cache_from_start/CACHEDIR.TAG
printf 'import paddle.fluid as fluid\npe = fluid.ParallelExecutor()\n' > tools/cache_from_start/pe.py
printf 'import paddle.fluid as fluid\nes = fluid.ExecutionStrategy()\n' > legacy_cache/es.py
git init -q -b develop .
commit "Import the sample tree"
git rm -q paddle/fluid/framework/async_executor.h paddle/fluid/framework/async_executor.cc \
    paddle/fluid/framework/executor_thread_worker.h paddle/fluid/framework/executor_thread_worker.cc
sed -i '/async_executor.h/d' paddle/fluid/pybind/data_set_py.cc
commit "Remove AsyncExecutor (#63923)"
git rm -q test/legacy_test/parallel_executor_test_base.py test/legacy_test/seresnext_test_base.py \
    test/legacy_test/test_parallel_executor_seresnext_base_cpu.py test/legacy_test/test_parallel_executor_transformer.py \
    test/legacy_test/test_parallel_executor_profiler.py test/legacy_test/test_fuse_all_reduce_pass.py \
    test/legacy_test/test_ir_inplace_pass.py
commit "Remove legacy executor unit tests (#63543)"
echo "# docs only" >> README.md
commit "Touch the README (no legacy change)"
git rm -q paddle/fluid/operators/cinn/cinn_launch_op.h paddle/fluid/operators/cinn/cinn_launch_op.cc \
    paddle/fluid/framework/ir/memory_optimize_pass/share_varinfo_into_cinn_pass.cc
printf '%s\n' "$sig" > legacy_cache/CACHEDIR.TAG
commit "Clean the parallel executor out of CINN (#63473)"
git rm -q paddle/fluid/framework/details/execution_strategy.h doc/api/ExecutionStrategy_cn.rst
commit "Remove ExecutionStrategy (#65077)"
