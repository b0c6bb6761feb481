import os

import paddle


def configure(env, name):
    env["FLAGS_use_mkldnn"] = "1"
    flags = {"FLAGS_allreduce_record_one_event": True}
    paddle.set_flags(flags)
    if name == "ParallelExecutor" or "SSAGraph" in name:
        name = name.replace("ParallelExecutor::Run/", "")
    print("ParallelExecutor is retired: " + name)
    return os.getenv("FLAGS_enable_parallel_graph", default="0")
