#!/bin/sh
# history-cases.sh SAMPLE DEST — extend the sample history (scripts/sample-history.sh, in
# SAMPLE) in a clone at DEST with the changes an incremental replay must get right: a rename
# into the tests, a directory moved whole (the same subtree id under a new name), a deletion,
# a mode change, a file replaced by a directory of the same name and back, a file deleted
# next to a directory of its name, a merge commit on the first-parent line, and a file
# changed back to an earlier content. The history test compares every commit's counts with a replay of that
# commit alone. Deterministic: fixed identities and dates.
set -eu
src=$1
dest=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$dest"
git clone -q "$src" "$dest"
cd "$dest"
month=2024-05
. "$here/history-commit.sh"
fw=paddle/fluid/framework
git mv $fw/details/var_handle.h test/cpp/fluid/framework/details/var_handle.h
commit "Move var_handle.h into the C++ tests (#70001)"
git mv $fw/ir/multi_devices_graph_pass $fw/ir/multi_devices_graph_pass_legacy
commit "Rename the multi-devices pass directory (#70002)"
git rm -q $fw/details/threaded_ssa_graph_executor.cc $fw/details/threaded_ssa_graph_executor.h
commit "Remove ThreadedSSAGraphExecutor (#70003)"
git update-index --chmod=+x python/paddle/base/compiler.py
chmod +x python/paddle/base/compiler.py
commit "Make compiler.py executable (#70004)"
# a file becomes a directory of the same name, holding legacy code of its own
cp $fw/parallel_executor.h /tmp/history-cases-pe.$$
git rm -q $fw/parallel_executor.h
mkdir $fw/parallel_executor.h
cp /tmp/history-cases-pe.$$ $fw/parallel_executor.h/inner.h
rm -f /tmp/history-cases-pe.$$
commit "Split parallel_executor.h (#70005)"
# a side branch removes a line; develop edits another file; the merge brings the first in
git checkout -q -b side
sed -i '0,/ParallelExecutor/{/ParallelExecutor/d}' paddle/fluid/pybind/parallel_executor.cc
commit "Drop one ParallelExecutor binding (#70006)"
git checkout -q develop
sed -i '0,/ExecutionStrategy/{/ExecutionStrategy/d}' $fw/executor_cache.cc
commit "executor_cache: one ExecutionStrategy less (#70007)"
stamp
git merge -q --no-ff -m "Merge branch 'side' into develop" side
# the directory becomes a file again, and executor_cache.cc goes back to its earlier content
git rm -rq $fw/parallel_executor.h
git show HEAD~3:$fw/parallel_executor.h > $fw/parallel_executor.h
commit "Join parallel_executor.h again (#70008)"
git show HEAD~3:$fw/executor_cache.cc > $fw/executor_cache.cc
commit "Revert the executor_cache change (#70009)"
# a directory next to files of its name and more ("async_ssa_graph_executor/" sorts after
# "async_ssa_graph_executor.h" in a tree): the file next to it goes, the directory stays
mkdir $fw/details/async_ssa_graph_executor
git mv $fw/details/fetch_op_handle.h $fw/details/async_ssa_graph_executor/fetch_op_handle.h
commit "Keep the async executor's helpers in a directory of its own (#70011)"
git rm -q $fw/details/async_ssa_graph_executor.h
commit "Remove async_ssa_graph_executor.h (#70012)"
# last: one file at depth five, so that a replay of this commit opens only its directories
sed -i '0,/OpHandle/{/OpHandle/d}' $fw/details/op_handle_base.h
commit "op_handle_base.h: one OpHandle line less (#70010)"
